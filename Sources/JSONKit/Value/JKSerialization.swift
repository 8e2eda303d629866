import Foundation

/// A `JSONSerialization`-shaped bridge for code that works with `Any`.
///
/// Parsing gives `[String: Any]`, `[Any]`, `String`, `Int`, `Double`, `Bool`
/// and `NSNull` (and `UInt64` for integers above `Int64.max`), with JSONKit's
/// strict rules; writing takes the same kinds of values (and the other
/// integer and floating-point types, `NSNumber` and ``JSONValue``):
///
/// ```swift
/// let object = try JKSerialization.jsonObject(with: data) as? [String: Any]
/// let bytes = try JKSerialization.data(withJSONObject: ["id": 1, "tags": ["a"]])
/// ```
public enum JKSerialization {
  /// Parses JSON into Foundation-style values; gzip input is inflated
  /// first unless `decompression` says otherwise.
  ///
  /// `data` may be UTF-8, UTF-16 or UTF-32, as for
  /// ``JSONValue/init(parsing:options:maxDepth:decompression:)-(Data,_,_,_)``: the
  /// encoding is told apart as `JSONDecoder` tells it. `JSONSerialization`
  /// differs in two cases that are not JSON in the encoding `JSONDecoder`
  /// sees: it reads three bytes holding a zero byte as UTF-16, and
  /// `FE FF 00 00` as UTF-16's mark followed by U+0000.
  ///
  /// - Throws: ``JKParseError`` saying what is wrong and where.
  public static func jsonObject(
    with data: Data, options: JKParseOptions = [], maxDepth: Int = 512,
    decompression: JKDecompression = .gzip
  ) throws -> Any {
    try JSONValue(parsing: data, options: options, maxDepth: maxDepth, decompression: decompression)
      .foundationObject
  }

  /// Writes Foundation-style values as JSON, gzip-compressed if
  /// `compression` asks.
  ///
  /// - Throws: `EncodingError.invalidValue` for a value that is not one of
  ///   the kinds above, a dictionary key that is not a string, NaN or an
  ///   infinity, a string or key holding U+0000 or a noncharacter (which
  ///   JSONKit's reader rejects, so it does not write them), or arrays and
  ///   dictionaries nested deeper than ``JSONValue/maxDepthLimit``; the
  ///   error's coding path says where.
  public static func data(
    withJSONObject object: Any, options: JKOutputFormatting = [],
    compression: JKCompression = .none
  ) throws -> Data {
    try JSONValue(foundationObject: object).jsonData(options: options, compression: compression)
  }

  /// Whether `object` can be written as JSON by ``data(withJSONObject:options:compression:)``
  /// (unlike Foundation's, false for a string holding U+0000 or a
  /// noncharacter, and for arrays and dictionaries nested deeper than
  /// ``JSONValue/maxDepthLimit``).
  public static func isValidJSONObject(_ object: Any) -> Bool {
    guard let value = try? JSONValue(foundationObject: object) else { return false }
    return (try? value.jsonBytes()) != nil
  }
}

extension JSONValue {
  /// The value as `JSONSerialization` would give it: `[String: Any]`,
  /// `[Any]`, `String`, `Int` (or `UInt64` above `Int.max`), `Double`,
  /// `Bool` or `NSNull`.
  ///
  /// Any depth converts: the conversion keeps no call-stack frame per level.
  public var foundationObject: Any {
    FoundationObjects.object(from: self)
  }

  /// Converts Foundation-style values: dictionaries with `String` keys,
  /// arrays, strings, numbers (Swift's types or `NSNumber`), `Bool`,
  /// `NSNull`, `nil` optionals, and `JSONValue`s.
  ///
  /// - Throws: `EncodingError.invalidValue` naming the path to a value of
  ///   any other kind, to a dictionary whose keys are not strings, or to an
  ///   array or dictionary nested deeper than ``maxDepthLimit`` (a
  ///   `JSONValue` inside counts as one value, however deep it is).
  public init(foundationObject: Any) throws {
    self = try FoundationObjects.value(from: foundationObject)
  }
}
