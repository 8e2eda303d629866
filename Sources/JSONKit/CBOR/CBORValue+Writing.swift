import Foundation

extension CBORValue {
  /// The item as CBOR bytes, in preferred serialization: each length and
  /// integer in its shortest head, each float in the shortest precision
  /// that holds it exactly, maps in the order of their pairs.
  ///
  /// ```swift
  /// let bytes = CBORValue.array([1, 2.5, "x"]).cborBytes()
  /// // [0x83, 0x01, 0xF9, 0x41, 0x00, 0x61, 0x78]
  /// ```
  public func cborBytes() -> [UInt8] {
    var writer = ByteWriter()
    write(to: &writer)
    return writer.finishBytes()
  }

  /// The item as CBOR bytes in `Data`, as ``cborBytes()`` writes them.
  public func cborData() -> Data {
    var writer = ByteWriter()
    write(to: &writer)
    return writer.finishData()
  }

  /// The item as CBOR bytes, written with the options of
  /// ``JKCBOREncoder`` that apply to an item: `.selfDescribed` (tag 55799
  /// first), `.deterministic` (every map's pairs ordered by the bytes of
  /// their encoded keys) and `.stringReferences` (repeated strings as tag 25
  /// in one tag-256 namespace). `.sharedReferences` changes nothing: an item
  /// is a value, with no instances to share. An item that holds tags 25 or
  /// 256 of its own is written without string references, which would
  /// change what those tags refer to.
  ///
  /// ```swift
  /// let item: CBORValue = ["b": 1, "a": ["b": 2, "a": 3]]
  /// let bytes = item.cborBytes(options: .deterministic)
  /// // {"a": {"a": 3, "b": 2}, "b": 1}
  /// ```
  public func cborBytes(options: JKCBOREncoder.Options) -> [UInt8] {
    writtenWith(options).finishBytes()
  }

  /// The item as CBOR bytes in `Data`, as ``cborBytes(options:)`` writes them.
  public func cborData(options: JKCBOREncoder.Options) -> Data {
    writtenWith(options).finishData()
  }

  private func writtenWith(_ options: JKCBOREncoder.Options) -> ByteWriter {
    var writer = ByteWriter()
    if options.contains(.selfDescribed) {
      writer.appendCBORHead(major: 6, CBORTags.selfDescribed)
    }
    let prefixCount = writer.count
    write(to: &writer)
    let work = CBOROutputRewriter.Work(
      sortsKeys: options.contains(.deterministic),
      referencesStrings: options.contains(.stringReferences) && !holdsStringReferenceTags)
    guard work.sortsKeys || work.referencesStrings else { return writer }
    return CBOROutputRewriter.rewrite(writer, prefixCount: prefixCount, doing: work)
  }

  /// Whether the item holds a tag 25 or 256 anywhere.
  private var holdsStringReferenceTags: Bool {
    var found = false
    walk { step in
      if case .open(.tagged(let tag, _), _) = step,
        tag == CBORTags.stringReference || tag == CBORTags.stringNamespace
      {
        found = true
      }
    }
    return found
  }

  /// Writes the item into `writer`, at any depth without recursion.
  func write(to writer: inout ByteWriter) {
    walk { step in
      switch step {
      case .open(let value, _):
        switch value {
        case .array(let elements): writer.appendCBORHead(major: 4, UInt64(elements.count))
        case .map(let pairs): writer.appendCBORHead(major: 5, UInt64(pairs.count))
        case .tagged(let tag, _): writer.appendCBORHead(major: 6, tag)
        default: break
        }
      case .leaf(let value, _):
        Self.writeLeaf(value, to: &writer)
      case .close:
        break
      }
    }
  }

  /// Writes an item that holds no other items.
  private static func writeLeaf(_ value: CBORValue, to writer: inout ByteWriter) {
    switch value {
    case .unsigned(let value): writer.appendCBORHead(major: 0, value)
    case .negative(let value): writer.appendCBORHead(major: 1, value)
    case .bytes(let bytes): bytes.withUnsafeBytes { writer.appendCBORBytes($0) }
    case .text(let text): writer.appendCBORText(text)
    case .bool(let value): writer.append(value ? 0xF5 : 0xF4)
    case .null: writer.append(0xF6)
    case .undefined: writer.append(0xF7)
    case .simple(let value):
      // One byte below 24 (20 to 23 are false, true, null, undefined),
      // two from 32 on; 24 to 31 are not simple values (RFC 8949 §3.3).
      if value < 24 {
        writer.append(0xE0 | value)
      } else {
        writer.append(0xF8, value)
      }
    case .float(let value): writer.appendCBORFloat(value)
    case .array, .map, .tagged: break
    }
  }
}

extension CBORValue {
  /// Where an item stands in the item that holds it.
  enum WalkPlace {
    /// The top, a tag's content, or the first element or key.
    case first
    /// An array element after the first.
    case element
    /// A map key after the first.
    case key
    /// A map value.
    case value
  }

  /// One step of ``walk(_:)``.
  enum WalkStep {
    /// An array, map or tagged item begins; its items follow, then `close`.
    case open(CBORValue, WalkPlace)
    /// An item that holds no other items.
    case leaf(CBORValue, WalkPlace)
    /// The array, map or tagged item opened last ends.
    case close(CBORValue)
  }

  /// Visits the item and every item in it, depth first and in order, with
  /// a stack on the heap instead of recursion, so that items built in code
  /// to any depth are walked without overflowing the call stack.
  func walk(_ visit: (WalkStep) -> Void) {
    var stack: [(container: CBORValue, next: Int)] = []
    var pending: (value: CBORValue, place: WalkPlace)? = (self, .first)
    while true {
      if let (value, place) = pending {
        pending = nil
        switch value {
        case .array, .map, .tagged:
          visit(.open(value, place))
          stack.append((value, 0))
        default:
          visit(.leaf(value, place))
        }
      }
      guard let top = stack.last else { return }
      let next = top.next
      switch top.container {
      case .array(let elements) where next < elements.count:
        pending = (elements[next], next == 0 ? .first : .element)
      case .map(let pairs) where next < 2 * pairs.count:
        let pair = pairs[next / 2]
        pending = next % 2 == 1 ? (pair.value, .value) : (pair.key, next == 0 ? .first : .key)
      case .tagged(_, let content) where next == 0:
        pending = (content, .first)
      default:
        visit(.close(top.container))
        stack.removeLast()
        continue
      }
      stack[stack.count - 1].next = next + 1
    }
  }
}
