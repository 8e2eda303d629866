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
  /// Tag 32: a URI as text.
  static let uri: UInt64 = 32
  /// Tag 37: a UUID as 16 bytes.
  static let uuid: UInt64 = 37
  /// Tag 55799: "this is CBOR", which changes nothing of the item inside.
  static let selfDescribed: UInt64 = 55799

  /// Checks that `content`, read at `offset`, is what `tag` may hold.
  static func check(_ content: CBORValue, taggedWith tag: UInt64, at offset: Int) throws {
    let fits: Bool
    let expected: String
    switch tag {
    case dateTimeText, uri:
      fits = content.stringValue != nil
      expected = "a text string"
    case epochTime:
      switch content {
      case .unsigned, .negative, .float: fits = true
      default: fits = false
      }
      expected = "an integer or a float"
    case positiveBignum, negativeBignum, encodedCBOR:
      fits = content.bytesValue != nil
      expected = "a byte string"
    case decimalFraction, bigfloat:
      fits = isExponentAndMantissa(content)
      expected = "an array of an integer exponent and an integer or bignum mantissa"
    case uuid:
      fits = content.bytesValue?.count == 16
      expected = "a byte string of 16 bytes"
    default:
      return
    }
    guard fits else {
      throw JKCBORError(
        .invalidTagContent,
        "Tag \(tag) holds \(content.kindDescription) where it needs \(expected)",
        at: offset)
    }
  }

  /// Whether `content` is `[exponent, mantissa]` as tags 4 and 5 hold them.
  private static func isExponentAndMantissa(_ content: CBORValue) -> Bool {
    guard case .array(let parts) = content, parts.count == 2 else { return false }
    switch parts[0] {
    case .unsigned, .negative: break
    default: return false
    }
    switch parts[1] {
    case .unsigned, .negative: return true
    case .tagged(let tag, .bytes) where tag == positiveBignum || tag == negativeBignum: return true
    default: return false
    }
  }
}

extension CBORValue {
  /// What kind of item this is, for error messages: "a text string".
  var kindDescription: String {
    switch self {
    case .unsigned, .negative: "an integer"
    case .bytes: "a byte string"
    case .text: "a text string"
    case .array: "an array"
    case .map: "a map"
    case .tagged(let tag, _): "an item with tag \(tag)"
    case .bool: "a Boolean"
    case .null: "null"
    case .undefined: "undefined"
    case .simple: "a simple value"
    case .float: "a float"
    }
  }
}
