/// What configures the decoding of a tape into Codable values, whichever
/// format was scanned onto it: `JKDecoder` holds one among its options for
/// JSON, and `JKCBORDecoder` makes one for CBOR.
struct DecodingOptions: Sendable {
  var keyDecodingStrategy: JKDecoder.KeyDecodingStrategy = .useDefaultKeys
  var dateDecodingStrategy: JKDecoder.DateDecodingStrategy = .deferredToDate
  var dataDecodingStrategy: JKDecoder.DataDecodingStrategy = .base64
  var nonConformingFloatDecodingStrategy: JKDecoder.NonConformingFloatDecodingStrategy = .throw
  var userInfo: [CodingUserInfoKey: any Sendable] = [:]
  /// The deepest nesting accepted: the scanner's limit, and the depth
  /// from which a value is not decoded.
  var maxDepth = 512
  var unknownKeyStrategy = JKDecoder.UnknownKeyStrategy.ignore
  /// Whether the tape was read from a binary format (CBOR) rather than
  /// from text: its numbers are values with no literal in the input, a
  /// date is seconds since 1970 or RFC 3339 text whatever the strategy,
  /// `Data` is a byte string, and places have no lines.
  var binaryTape = false
}

extension DecodingOptions {
  /// Whether these options hold anything of the caller's that a session
  /// kept past its call must let go of: `userInfo` values, or a strategy's
  /// closure or formatter. A key strategy's closure is not asked about: a
  /// session made with one is not kept.
  var holdsCallersReferences: Bool {
    if !userInfo.isEmpty { return true }
    switch dateDecodingStrategy {
    case .deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601: break
    default: return true
    }
    switch dataDecodingStrategy {
    case .base64, .deferredToData: return false
    default: return true
    }
  }
}
