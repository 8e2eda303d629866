/// The tags JSONKit knows, and what their content must be (RFC 8949 §3.4
/// and the IANA registry): a known tag on content of another type is not
/// valid CBOR for that tag, and is an error when read.
enum CBORTags {
  /// Tag 0: a date and time as RFC 3339 text.
  static let dateTimeText: UInt64 = 0
  /// Tag 1: a date and time as seconds since 1970 (an integer or a float).
  static let epochTime: UInt64 = 1
  /// Tag 2: an unsigned bignum, its bytes big-endian.
  static let positiveBignum: UInt64 = 2
  /// Tag 3: a negative bignum, −1 − n for the big-endian n of its bytes.
  static let negativeBignum: UInt64 = 3
  /// Tag 4: a decimal fraction, `[exponent, mantissa]` standing for
  /// mantissa × 10^exponent.
  static let decimalFraction: UInt64 = 4
  /// Tag 5: a bigfloat, `[exponent, mantissa]` standing for
  /// mantissa × 2^exponent.
  static let bigfloat: UInt64 = 5
  /// Tag 24: a byte string holding an encoded CBOR item.
  static let encodedCBOR: UInt64 = 24
  /// Tag 25: a string reference, the string of the innermost string
  /// namespace's table at the index it holds.
  static let stringReference: UInt64 = 25
  /// Tag 28: marks its content as a shared value, numbered from 0 in the
  /// order the marks come.
  static let shareable: UInt64 = 28
  /// Tag 29: a shared reference, the shared value of the number it holds.
  static let sharedReference: UInt64 = 29
  /// Tag 32: a URI as text.
  static let uri: UInt64 = 32
  /// Tag 37: a UUID as 16 bytes.
  static let uuid: UInt64 = 37
  /// Tag 256: a string namespace, in which strings long enough for a
  /// reference to save bytes are numbered for tag 25 to refer to.
  static let stringNamespace: UInt64 = 256
  /// Tag 55799: "this is CBOR", which changes nothing of the item inside.
  static let selfDescribed: UInt64 = 55799

  /// Whether `tag` is one of the references' tags (25, 28, 29 and 256),
  /// which readers resolve: what they read holds no trace of them.
  ///
  /// They are not levels of nesting of their own, so that the options
  /// that write them never make an item too deep to read: a string
  /// namespace's or shared value's content is counted at the tag's depth,
  /// unless it is itself a tag, which is a level deeper (so that tags
  /// around tags stay bounded); tags 25 and 29 hold an integer, and the
  /// value a tag 29 repeats is counted from where the reference is.
  @inline(__always)
  static func isReference(_ tag: UInt64) -> Bool {
    tag == stringReference || tag == shareable || tag == sharedReference
      || tag == stringNamespace
  }

  /// The shortest string, in bytes, that a string namespace whose table
  /// holds `count` strings numbers: one whose reference would be no
  /// shorter is not (http://cbor.schmorp.de/stringref).
  @inline(__always)
  static func shortestReferencedLength(tableCount count: Int) -> Int {
    count < 24 ? 3 : count < 256 ? 4 : count < 65536 ? 5 : count < 1 << 32 ? 7 : 11
  }

  /// What a known tag's content must be.
  enum Content {
    /// A text string (tags 0 and 32).
    case text
    /// An integer or a float (tag 1).
    case number
    /// A byte string (tags 2, 3 and 24).
    case bytes
    /// A byte string of 16 bytes (tag 37).
    case sixteenBytes
    /// `[exponent, mantissa]`: an integer, then an integer or a bignum
    /// (tags 4 and 5).
    case exponentAndMantissa
    /// An unsigned integer (tags 25 and 29).
    case unsignedInteger
    /// Any item (tags 28, 256 and 55799).
    case anything

    /// What the content must be, in words: "a text string".
    var description: String {
      switch self {
      case .text: "a text string"
      case .number: "an integer or a float"
      case .bytes: "a byte string"
      case .sixteenBytes: "a byte string of 16 bytes"
      case .exponentAndMantissa:
        "an array of an integer exponent and an integer or bignum mantissa"
      case .unsignedInteger: "an unsigned integer"
      case .anything: "any item"
      }
    }

    /// Whether an item whose head is `head` can be this content, as far as
    /// the head tells (an array's elements are checked once read).
    func admits(_ head: CBORReader.Head) -> Bool {
      switch self {
      case .text: head.major == .text
      case .number:
        head.major == .unsigned || head.major == .negative
          || (head.major == .simple && (25...27).contains(head.info))
      case .bytes: head.major == .bytes
      case .sixteenBytes: head.major == .bytes && !head.isIndefinite && head.argument == 16
      case .exponentAndMantissa: head.major == .array && (head.isIndefinite || head.argument == 2)
      case .unsignedInteger: head.major == .unsigned
      case .anything: true
      }
    }

    /// Whether `value` is this content.
    func admits(_ value: CBORValue) -> Bool {
      switch (self, value) {
      case (.text, .text), (.bytes, .bytes), (.anything, _): true
      case (.number, .unsigned), (.number, .negative), (.number, .float): true
      case (.unsignedInteger, .unsigned): true
      case (.sixteenBytes, .bytes(let bytes)): bytes.count == 16
      case (.exponentAndMantissa, .array(let parts)) where parts.count == 2:
        parts[0].isInteger && (parts[1].isInteger || parts[1].isBignum)
      default: false
      }
    }
  }

  /// The content `tag` needs, or `nil` for a tag JSONKit does not know.
  static func content(of tag: UInt64) -> Content? {
    switch tag {
    case dateTimeText, uri: .text
    case epochTime: .number
    case positiveBignum, negativeBignum, encodedCBOR: .bytes
    case uuid: .sixteenBytes
    case decimalFraction, bigfloat: .exponentAndMantissa
    case stringReference, sharedReference: .unsignedInteger
    case shareable, stringNamespace, selfDescribed: .anything
    default: nil
    }
  }

  /// The error for content of `found` kind under `tag`, which needs
  /// `content`, at `offset`.
  static func wrongContent(
    of tag: UInt64, found: String, needs content: Content, at offset: Int
  ) -> JKCBORError {
    JKCBORError(
      .invalidTagContent, "Tag \(tag) holds \(found) where it needs \(content.description)",
      at: offset)
  }

  /// Checks that `content`, read at `offset`, is what `tag` may hold.
  static func check(_ value: CBORValue, taggedWith tag: UInt64, at offset: Int) throws {
    guard let content = content(of: tag), !content.admits(value) else { return }
    throw wrongContent(of: tag, found: value.kindDescription, needs: content, at: offset)
  }
}

extension CBORValue {
  /// Whether the item is an integer.
  fileprivate var isInteger: Bool {
    switch self {
    case .unsigned, .negative: true
    default: false
    }
  }

  /// Whether the item is a bignum: tag 2 or 3 on a byte string.
  fileprivate var isBignum: Bool {
    if case .tagged(let tag, .bytes) = self {
      return tag == CBORTags.positiveBignum || tag == CBORTags.negativeBignum
    }
    return false
  }

  /// What kind of item this is, for error messages: "a text string", as
  /// ``CBORReader/Major`` names its major type, or more closely for tags and
  /// the simple values.
  var kindDescription: String {
    switch self {
    case .unsigned: CBORReader.Major.unsigned.description
    case .negative: CBORReader.Major.negative.description
    case .bytes: CBORReader.Major.bytes.description
    case .text: CBORReader.Major.text.description
    case .array: CBORReader.Major.array.description
    case .map: CBORReader.Major.map.description
    case .tagged(let tag, _): "an item with tag \(tag)"
    case .bool: "a Boolean"
    case .null: "null"
    case .undefined: "undefined"
    case .simple: "a simple value"
    case .float: "a float"
    }
  }
}
