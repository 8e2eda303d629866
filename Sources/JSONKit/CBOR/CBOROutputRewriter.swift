import Foundation

/// Writes an encoder's output again for the options that depend on the
/// whole item: map keys in deterministic order, the marks of shared
/// instances as tags 28 and 29, and repeated strings as references.
///
/// The input is CBOR that JSONKit wrote itself (well-formed, definite
/// lengths, preferred serialization), with the marks of
/// ``CBORInstanceSharing``. Each item is written once, in output order,
/// so that shared values and the string table are numbered as a reader
/// numbers them.
struct CBOROutputRewriter {
  /// What to do.
  struct Work {
    /// Maps with their members ordered by the bytes of their keys
    /// (RFC 8949 §4.2.1).
    var sortsKeys = false
    /// How often each marked instance occurs; nil when nothing is marked.
    var instanceOccurrences: [Int]?
    /// Repeated strings as tag 25 in one tag-256 namespace.
    var referencesStrings = false
  }

  private let input: UnsafeRawBufferPointer
  private let work: Work

  /// Where the content of each instance's first mark is, when known.
  private var firstContent: [Int] = []
  /// The shared-value number of each instance written so far; -1 for none.
  private var sharedNumber: [Int] = []
  private var nextSharedNumber = 0

  /// The strings of the namespace.
  private var stringTable: CBORStringTable
  /// Whether the input holds marks of instances: else a tag of their
  /// numbers (in a ``CBORValue``) is a tag like any other.
  private var marksInstances: Bool { work.instanceOccurrences != nil }
  /// Whether a reference to an instance comes before the instance's bytes.
  private var hasForwardReference = false

  /// Rewrites `bytes`, whose first `prefixCount` bytes (tag 55799) stay
  /// first.
  static func rewrite(_ bytes: borrowing ByteWriter, prefixCount: Int, doing work: Work)
    -> ByteWriter
  {
    var output = ByteWriter(capacity: bytes.count + 16)
    bytes.withBytes { input in
      var rewriter = CBOROutputRewriter(input: input, work: work)
      rewriter.rewrite(prefixCount: prefixCount, into: &output)
      rewriter.stringTable.deallocate()
    }
    return output
  }

  private init(input: UnsafeRawBufferPointer, work: Work) {
    self.input = input
    self.work = work
    stringTable = CBORStringTable(isUsed: work.referencesStrings)
  }

  private mutating func rewrite(prefixCount: Int, into output: inout ByteWriter) {
    if let occurrences = work.instanceOccurrences {
      sharedNumber = Array(repeating: -1, count: occurrences.count)
      firstContent = Array(repeating: -1, count: occurrences.count)
      findFirstContents()
    }
    output.append(input.baseAddress!, count: prefixCount)
    if work.referencesStrings {
      output.appendCBORHead(major: 6, CBORTags.stringNamespace)
    }
    if work.sortsKeys || hasForwardReference {
      _ = write(itemAt: prefixCount, into: &output)
    } else {
      rewriteInOrder(from: prefixCount, into: &output)
    }
  }

  /// Rewrites the bytes from `start` in the order they are, which needs no
  /// structure: each head in turn, the runs between the heads that change
  /// copied whole.
  private mutating func rewriteInOrder(from start: Int, into output: inout ByteWriter) {
    let base = input.baseAddress!
    var position = start
    var copied = start
    while position < input.count {
      let initial = base.load(fromByteOffset: position, as: UInt8.self)
      let major = initial >> 5
      // Integers, floats, simple values, array and map heads: stepped over.
      guard major == 2 || major == 3 || major == 6 else {
        position += CBORItemWalker.headSize(initial)
        continue
      }
      let head = CBORItemWalker.head(at: position, in: input)
      switch head.major {
      case 2, 3:
        let count = Int(head.argument)
        let end = head.end + count
        if work.referencesStrings,
          let number = stringTable.reference(
            UnsafeRawBufferPointer(start: base + head.end, count: count), isText: head.major == 3)
        {
          output.append(base + copied, count: position - copied)
          output.appendCBORStringReference(number)
          copied = end
        }
        position = end
      case 6 where head.argument >= CBORInstanceSharing.Mark.lowest && marksInstances:
        output.append(base + copied, count: position - copied)
        let (isFirst, instance) = Self.mark(head.argument)
        if isFirst {
          // In order, the instance's bytes come before any reference to it.
          if numberIfShared(instance) { output.appendCBORHead(major: 6, CBORTags.shareable) }
          position = head.end
        } else {
          output.appendCBORHead(major: 6, CBORTags.sharedReference)
          output.appendCBORHead(major: 0, UInt64(sharedNumber[instance]))
          position = head.end + 1  // the mark's null
        }
        copied = position
      default:
        position = head.end
      }
    }
    output.append(base + copied, count: input.count - copied)
  }

  /// Notes where each first mark's content starts, stepping over every
  /// head in order.
  private mutating func findFirstContents() {
    var position = 0
    while position < input.count {
      let head = CBORItemWalker.head(at: position, in: input)
      position = head.end
      switch head.major {
      case 2, 3:
        position += Int(head.argument)
      case 6 where head.argument >= CBORInstanceSharing.Mark.first:
        firstContent[Int(head.argument - CBORInstanceSharing.Mark.first)] = position
      case 6 where head.argument >= CBORInstanceSharing.Mark.reference:
        let instance = Int(head.argument - CBORInstanceSharing.Mark.reference)
        if firstContent[instance] < 0 { hasForwardReference = true }
      default:
        break
      }
    }
  }

  /// Writes the item at `offset` and returns where it ends.
  private mutating func write(itemAt offset: Int, into output: inout ByteWriter) -> Int {
    let head = CBORItemWalker.head(at: offset, in: input)
    switch head.major {
    case 2, 3:
      let end = head.end + Int(head.argument)
      if work.referencesStrings {
        writeString(
          from: offset, payload: head.end..<end, isText: head.major == 3, into: &output)
      } else {
        copy(offset..<end, into: &output)
      }
      return end
    case 4, 5:
      // Copied whole when the only work is ordering maps and there is none
      // inside.
      guard onlySortsKeys else { return writeContainer(head, at: offset, into: &output) }
      let (end, holdsMapToOrder) = scan(itemAt: offset)
      guard holdsMapToOrder else {
        copy(offset..<end, into: &output)
        return end
      }
      return writeContainer(head, at: offset, into: &output)
    case 6 where head.argument >= CBORInstanceSharing.Mark.lowest && marksInstances:
      return writeMarked(head.argument, contentAt: head.end, into: &output)
    case 6:
      copy(offset..<head.end, into: &output)
      return write(itemAt: head.end, into: &output)
    default:
      copy(offset..<head.end, into: &output)
      return head.end
    }
  }

  /// Whether the only work is ordering maps.
  private var onlySortsKeys: Bool { !work.referencesStrings && !marksInstances }

  /// Writes the array or map whose head is `head`, item by item.
  private mutating func writeContainer(
    _ head: (major: UInt8, argument: UInt64, end: Int), at offset: Int,
    into output: inout ByteWriter
  ) -> Int {
    switch head.major {
    case 4:
      copy(offset..<head.end, into: &output)
      var position = head.end
      for _ in 0..<head.argument { position = write(itemAt: position, into: &output) }
      return position
    default:
      copy(offset..<head.end, into: &output)
      if work.sortsKeys && head.argument > 1 {
        return writeSortedMembers(from: head.end, count: Int(head.argument), into: &output)
      }
      var position = head.end
      for _ in 0..<2 * head.argument { position = write(itemAt: position, into: &output) }
      return position
    }
  }

  /// Where the item at `offset` ends, and whether it holds a map to order.
  private func scan(itemAt offset: Int) -> (end: Int, holdsMapToOrder: Bool) {
    let walked = CBORItemWalker.walk(itemAt: offset, in: input)
    return (walked.end, walked.holdsMapOfMany)
  }

  private func copy(_ range: Range<Int>, into output: inout ByteWriter) {
    output.append(input.baseAddress! + range.lowerBound, count: range.count)
  }

  // MARK: - Deterministic order

  /// Writes the `count` members from `offset` ordered by their keys'
  /// bytes, and returns where the last ends.
  private mutating func writeSortedMembers(
    from offset: Int, count: Int, into output: inout ByteWriter
  ) -> Int {
    var members: [(key: Range<Int>, value: Range<Int>, holdsMapToOrder: Bool)] = []
    members.reserveCapacity(count)
    var position = offset
    for _ in 0..<count {
      let keyEnd = scan(itemAt: position).end
      let value = scan(itemAt: keyEnd)
      members.append((position..<keyEnd, keyEnd..<value.end, value.holdsMapToOrder))
      position = value.end
    }
    let input = self.input
    members.sort {
      UnsafeRawBufferPointer(rebasing: input[$0.key]).lexicographicallyPrecedes(
        UnsafeRawBufferPointer(rebasing: input[$1.key]))
    }
    for member in members {
      _ = write(itemAt: member.key.lowerBound, into: &output)
      if onlySortsKeys && !member.holdsMapToOrder {
        copy(member.value, into: &output)
      } else if onlySortsKeys,
        case let head = CBORItemWalker.head(at: member.value.lowerBound, in: input),
        head.major == 4 || head.major == 5
      {
        // Scanned already: written without scanning again.
        _ = writeContainer(head, at: member.value.lowerBound, into: &output)
      } else {
        _ = write(itemAt: member.value.lowerBound, into: &output)
      }
    }
    return position
  }

  // MARK: - Shared instances

  /// Writes a mark: the instance with tag 28 where it is first written,
  /// if it occurs more than once; tag 29 and its number where it occurs
  /// again; the instance alone if it occurs once.
  private mutating func writeMarked(
    _ tag: UInt64, contentAt offset: Int, into output: inout ByteWriter
  ) -> Int {
    let (isFirst, instance) = Self.mark(tag)
    let end = scan(itemAt: offset).end
    if sharedNumber[instance] >= 0 {
      output.appendCBORHead(major: 6, CBORTags.sharedReference)
      output.appendCBORHead(major: 0, UInt64(sharedNumber[instance]))
      return end
    }
    if numberIfShared(instance) { output.appendCBORHead(major: 6, CBORTags.shareable) }
    // A reference met before the instance (a container written into after
    // a later sibling) takes the instance's bytes; the mark then refers.
    _ = write(itemAt: isFirst ? offset : firstContent[instance], into: &output)
    return end
  }

  /// Whether a mark's tag is an instance's first, and the instance's number.
  private static func mark(_ tag: UInt64) -> (isFirst: Bool, instance: Int) {
    let isFirst = tag >= CBORInstanceSharing.Mark.first
    let base = isFirst ? CBORInstanceSharing.Mark.first : CBORInstanceSharing.Mark.reference
    return (isFirst, Int(tag - base))
  }

  /// Gives `instance` the next shared number if it occurs more than once;
  /// true when it did, and its bytes are then tagged 28.
  private mutating func numberIfShared(_ instance: Int) -> Bool {
    guard work.instanceOccurrences?[instance] ?? 1 > 1 else { return false }
    sharedNumber[instance] = nextSharedNumber
    nextSharedNumber += 1
    return true
  }

  // MARK: - String references

  /// Writes a string as a reference when the namespace has it, otherwise
  /// as it is (see ``CBORStringTable/reference(_:isText:)``).
  private mutating func writeString(
    from offset: Int, payload: Range<Int>, isText: Bool, into output: inout ByteWriter
  ) {
    let string = UnsafeRawBufferPointer(rebasing: input[payload])
    if let number = stringTable.reference(string, isText: isText) {
      output.appendCBORStringReference(number)
      return
    }
    copy(offset..<payload.upperBound, into: &output)
  }
}
