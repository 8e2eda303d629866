/// A strict reader of CBOR (RFC 8949) over bytes in memory: every
/// well-formedness rule, and every length and count checked against the
/// bytes that remain before anything is allocated for it.
///
/// It reads one data item at a time, from a head (the initial byte and its
/// argument) to the item's end, and never looks outside `bytes`. Nesting
/// counts arrays, maps and tags; deeper than the limit is an error, so the
/// reader's recursion is bounded.
struct CBORReader {
  /// What one input may declare, and which rules are relaxed.
  struct Configuration: Sendable, Hashable {
    /// The deepest nesting of arrays, maps and tags.
    var maxDepth = 512
    /// The most elements of an array, or pairs of a map.
    var maxCollectionCount = 1 << 24
    /// The longest byte or text string, in bytes.
    var maxStringLength = 1 << 28
    /// Whether bytes after the top-level item are ignored.
    var allowsBytesAfterItem = false
    /// Whether a repeated map key is taken, its last value winning.
    var allowsDuplicateKeys = false
  }

  /// The major types, the initial byte's top three bits.
  enum Major: UInt8, CustomStringConvertible {
    case unsigned = 0
    case negative, bytes, text, array, map, tag, simple

    /// What an item of this major type is, for error messages.
    var description: String {
      switch self {
      case .unsigned, .negative: "an integer"
      case .bytes: "a byte string"
      case .text: "a text string"
      case .array: "an array"
      case .map: "a map"
      case .tag: "a tagged item"
      case .simple: "a simple value or a float"
      }
    }
  }

  /// An item's head: its major type and argument.
  struct Head {
    /// The major type.
    var major: Major
    /// The additional information, the initial byte's low five bits.
    var info: UInt8
    /// The argument (a value, a length, a count or a tag), or 0 for an
    /// indefinite length.
    var argument: UInt64
    /// The offset of the initial byte.
    var start: Int

    /// Whether the head opens an indefinite-length item (or is a break).
    var isIndefinite: Bool { info == 31 }
  }

  /// The additional information that marks an indefinite length, and with
  /// major type 7, the break that ends one.
  static let indefinite: UInt8 = 31
  /// The break byte.
  static let breakByte: UInt8 = 0xFF

  let bytes: UnsafeRawBufferPointer
  let configuration: Configuration
  /// The offset of the next byte to read.
  private(set) var position = 0

  init(_ bytes: UnsafeRawBufferPointer, configuration: Configuration) {
    self.bytes = bytes
    self.configuration = configuration
  }

  /// The number of bytes not yet read.
  var remaining: Int { bytes.count - position }

  // MARK: - Heads

  /// The next byte, without reading it.
  func peek() throws -> UInt8 {
    guard position < bytes.count else { throw truncated(at: position) }
    return bytes[position]
  }

  /// Reads the break that ends an indefinite-length item, if it comes
  /// next; otherwise reads nothing.
  mutating func readBreak() throws -> Bool {
    guard try peek() == Self.breakByte else { return false }
    position += 1
    return true
  }

  /// Reads a head, checking that its argument's bytes are there and that
  /// its additional information is not reserved. A break is returned as a
  /// head of major type 7 with additional information 31.
  @inline(__always)
  mutating func readHead() throws -> Head {
    let start = position
    guard start < bytes.count else { throw truncated(at: start) }
    let initial = bytes.load(fromByteOffset: start, as: UInt8.self)
    let info = initial & 0x1F
    // Most heads hold their argument in the initial byte.
    let major = unsafeBitCast(initial >> 5, to: Major.self)
    if info < 24 {
      position = start + 1
      return Head(major: major, info: info, argument: UInt64(info), start: start)
    }
    if info < 28 {
      // One, two, four or eight bytes of argument, big-endian.
      let width = 1 &<< Int(info &- 24)
      if bytes.count &- start > width {
        let argument = CBORItemWalker.argument(width: width, after: start, in: bytes)
        position = start &+ 1 &+ width
        return Head(major: major, info: info, argument: argument, start: start)
      }
    }
    return try readLongHead(initial, at: start)
  }

  /// The depth at which the content of the string namespace or shared
  /// value `head`, `depth` levels down, is counted: the tag's own, unless
  /// the content is another tag (see ``CBORTags/isReference(_:)``).
  func contentDepth(of head: Head, depth: Int, contentIsTag: Bool) throws -> Int {
    guard contentIsTag else { return depth }
    guard depth < configuration.maxDepth else { throw tooDeep(at: head.start) }
    return depth + 1
  }

  /// A head that is cut short, indefinite or reserved.
  @inline(never)
  private mutating func readLongHead(_ initial: UInt8, at start: Int) throws -> Head {
    let info = initial & 0x1F
    let major = unsafeBitCast(initial >> 5, to: Major.self)
    var argument: UInt64 = 0
    switch info {
    case 24...27:
      let width = 1 << (info - 24)
      guard bytes.count - start > width else { throw truncated(at: start) }
      for offset in 1...width {
        argument = argument << 8 | UInt64(bytes[start + offset])
      }
      position = start + 1 + width
    case Self.indefinite:
      position = start + 1
    default:
      throw JKCBORError(
        .reservedAdditionalInformation,
        "The initial byte 0x\(hex(initial)) uses additional information \(info), which is reserved",
        at: start)
    }
    return Head(major: major, info: info, argument: argument, start: start)
  }

  /// Reads `count` bytes and returns where they start.
  @inline(__always)
  mutating func skip(_ count: Int) -> Int {
    let start = position
    position += count
    return start
  }

  /// The length or count in `head` as an `Int`, checked against the limit
  /// and against the bytes that remain, each element needing at least
  /// `bytesPerElement` of them.
  @inline(__always)
  func checkedLength(_ head: Head, limit: Int, bytesPerElement: Int = 1) throws -> Int {
    guard head.argument <= UInt64(remaining / bytesPerElement), head.argument <= UInt64(limit)
    else { throw lengthError(head, limit: limit, bytesPerElement: bytesPerElement) }
    return Int(truncatingIfNeeded: head.argument)
  }

  /// The error for a length or count that the input or the limit cannot
  /// hold, out of line: its message is made only when it is thrown.
  @inline(never)
  private func lengthError(_ head: Head, limit: Int, bytesPerElement: Int) -> JKCBORError {
    let what =
      switch head.major {
      case .bytes, .text: "A string of \(counted(head.argument, "byte"))"
      case .map: "A map of \(counted(head.argument, "pair"))"
      default: "An array of \(counted(head.argument, "element"))"
      }
    guard head.argument <= UInt64(remaining / bytesPerElement) else {
      return JKCBORError(
        .lengthBeyondInput,
        "\(what) is declared, but only \(counted(UInt64(remaining), "byte")) "
          + (remaining == 1 ? "remains" : "remain"),
        at: head.start)
    }
    return JKCBORError(
      .limitExceeded, "\(what) is declared, over the limit of \(limit)", at: head.start)
  }

  /// The text of the UTF-8 bytes at `start..<start + count`, which must be
  /// well-formed.
  func text(at start: Int, count: Int, itemStart: Int) throws -> String {
    let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<start + count])
    if let bad = UTF8Validation.firstIllFormedOffset(slice) {
      throw JKCBORError(
        .invalidUTF8, "A text string is not well-formed UTF-8", at: start + bad)
    }
    return String(decoding: slice, as: UTF8.self)
  }

  /// Reads the chunks of an indefinite-length string opened by `head`, up
  /// to its break, and returns their bytes joined.
  mutating func readChunks(of head: Head) throws -> [UInt8] {
    var joined: [UInt8] = []
    while true {
      let chunk = try readHead()
      if chunk.major == .simple && chunk.isIndefinite { return joined }
      guard chunk.major == head.major, !chunk.isIndefinite else {
        throw JKCBORError(
          .invalidIndefiniteLength,
          "A chunk of an indefinite-length \(head.major == .text ? "text" : "byte") string "
            + "is not a definite string of the same type", at: chunk.start)
      }
      let count = try checkedLength(
        chunk, limit: configuration.maxStringLength - joined.count)
      let start = skip(count)
      if head.major == .text {
        // Each chunk is well-formed on its own (RFC 8949 §3.2.3).
        _ = try text(at: start, count: count, itemStart: chunk.start)
      }
      joined.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<start + count]))
    }
  }

  /// The float or simple value in a head of major type 7 (not a break).
  func simpleValue(_ head: Head) throws -> CBORValue {
    switch head.info {
    case 0..<20: return .simple(head.info)
    case 20: return .bool(false)
    case 21: return .bool(true)
    case 22: return .null
    case 23: return .undefined
    case 24:
      guard head.argument >= 32 else {
        throw JKCBORError(
          .invalidSimpleValue,
          "The simple value \(head.argument) is written in two bytes, which RFC 8949 forbids "
            + "below 32", at: head.start)
      }
      return .simple(UInt8(head.argument))
    case 25: return .float(HalfPrecision.double(fromBits: UInt16(head.argument)))
    case 26: return .float(Self.double(fromSingleBits: UInt32(head.argument)))
    default: return .float(Double(bitPattern: head.argument))
    }
  }

  /// The `Double` that single-precision bits stand for, exactly; a NaN
  /// keeps its sign and payload, which a conversion through `Float` may not.
  static func double(fromSingleBits bits: UInt32) -> Double {
    guard bits & 0x7F80_0000 == 0x7F80_0000 else { return Double(Float(bitPattern: bits)) }
    let sign = UInt64(bits >> 31) << 63
    return Double(bitPattern: sign | 0x7FF0_0000_0000_0000 | UInt64(bits & 0x7F_FFFF) << 29)
  }

  // MARK: - Errors

  /// The error for input that ends inside the item starting at `start`.
  func truncated(at start: Int) -> JKCBORError {
    JKCBORError(
      .unexpectedEndOfInput,
      start == bytes.count && start > 0
        ? "The input ends where an item should start" : "The input ends inside an item",
      at: start)
  }

  /// The error for a break outside an indefinite-length item.
  func unexpectedBreak(at offset: Int) -> JKCBORError {
    JKCBORError(
      .unexpectedBreak, "A break (0xFF) stands outside an indefinite-length item", at: offset)
  }

  /// The error for nesting deeper than the limit, at the item at `offset`.
  func tooDeep(at offset: Int) -> JKCBORError {
    JKCBORError(
      .tooDeeplyNested,
      "Arrays, maps and tags nest deeper than the limit of \(configuration.maxDepth)",
      at: offset)
  }
}

/// `count` followed by `noun`, plural unless the count is one: "1 byte",
/// "2 bytes".
func counted(_ count: UInt64, _ noun: String) -> String {
  count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
}

/// `byte` as two hexadecimal digits.
func hex(_ byte: UInt8) -> String {
  let digits = String(byte, radix: 16, uppercase: true)
  return byte < 0x10 ? "0" + digits : digits
}
