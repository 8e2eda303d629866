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

  /// The strings of the namespace, by their bytes.
  private var stringTable: [TableString: Int] = [:]

  /// Rewrites `bytes`, whose first `prefixCount` bytes (tag 55799) stay
  /// first.
  static func rewrite(_ bytes: borrowing ByteWriter, prefixCount: Int, doing work: Work)
    -> ByteWriter
  {
    var output = ByteWriter(capacity: bytes.count + 16)
    bytes.withBytes { input in
      var rewriter = CBOROutputRewriter(input: input, work: work)
      rewriter.rewrite(prefixCount: prefixCount, into: &output)
    }
    return output
  }

  private init(input: UnsafeRawBufferPointer, work: Work) {
    self.input = input
    self.work = work
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
    _ = write(itemAt: prefixCount, into: &output)
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
    case 4:
      copy(offset..<head.end, into: &output)
      var position = head.end
      for _ in 0..<head.argument { position = write(itemAt: position, into: &output) }
      return position
    case 5:
      copy(offset..<head.end, into: &output)
      if work.sortsKeys && head.argument > 1 {
        return writeSortedMembers(from: head.end, count: Int(head.argument), into: &output)
      }
      var position = head.end
      for _ in 0..<2 * head.argument { position = write(itemAt: position, into: &output) }
      return position
    case 6 where head.argument >= CBORInstanceSharing.Mark.lowest:
      return writeMarked(head.argument, contentAt: head.end, into: &output)
    case 6:
      copy(offset..<head.end, into: &output)
      return write(itemAt: head.end, into: &output)
    default:
      copy(offset..<head.end, into: &output)
      return head.end
    }
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
    var members: [(key: Range<Int>, value: Int)] = []
    members.reserveCapacity(count)
    var position = offset
    for _ in 0..<count {
      let keyEnd = CBORItemWalker.end(ofItemAt: position, in: input)
      members.append((position..<keyEnd, keyEnd))
      position = CBORItemWalker.end(ofItemAt: keyEnd, in: input)
    }
    let input = self.input
    members.sort {
      UnsafeRawBufferPointer(rebasing: input[$0.key]).lexicographicallyPrecedes(
        UnsafeRawBufferPointer(rebasing: input[$1.key]))
    }
    for member in members {
      _ = write(itemAt: member.key.lowerBound, into: &output)
      _ = write(itemAt: member.value, into: &output)
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
    let isFirst = tag >= CBORInstanceSharing.Mark.first
    let instance = Int(
      tag - (isFirst ? CBORInstanceSharing.Mark.first : CBORInstanceSharing.Mark.reference))
    let end = CBORItemWalker.end(ofItemAt: offset, in: input)
    if sharedNumber[instance] >= 0 {
      output.appendCBORHead(major: 6, CBORTags.sharedReference)
      output.appendCBORHead(major: 0, UInt64(sharedNumber[instance]))
      return end
    }
    let occurrences = work.instanceOccurrences?[instance] ?? 1
    if occurrences > 1 {
      sharedNumber[instance] = nextSharedNumber
      nextSharedNumber += 1
      output.appendCBORHead(major: 6, CBORTags.shareable)
    }
    // A reference met before the instance (a container written into after
    // a later sibling) takes the instance's bytes; the mark then refers.
    _ = write(itemAt: isFirst ? offset : firstContent[instance], into: &output)
    return end
  }

  // MARK: - String references

  /// A string of the namespace: its bytes in the input, and its kind.
  private struct TableString: Hashable {
    let bytes: UnsafeRawBufferPointer
    let isText: Bool

    static func == (left: TableString, right: TableString) -> Bool {
      left.isText == right.isText && left.bytes.elementsEqual(right.bytes)
    }

    func hash(into hasher: inout Hasher) {
      hasher.combine(isText)
      hasher.combine(bytes: bytes)
    }
  }

  /// Writes a string as a reference when the namespace has it; otherwise
  /// as it is, and into the namespace when it is long enough to be
  /// referred to (the rule every reader applies, so that the numbers
  /// agree).
  private mutating func writeString(
    from offset: Int, payload: Range<Int>, isText: Bool, into output: inout ByteWriter
  ) {
    let string = TableString(
      bytes: UnsafeRawBufferPointer(rebasing: input[payload]), isText: isText)
    if let number = stringTable[string] {
      output.appendCBORHead(major: 6, CBORTags.stringReference)
      output.appendCBORHead(major: 0, UInt64(number))
      return
    }
    let count = stringTable.count
    if payload.count >= CBORTags.shortestReferencedString(tableCount: count) {
      stringTable[string] = count
    }
    copy(offset..<payload.upperBound, into: &output)
  }
}
