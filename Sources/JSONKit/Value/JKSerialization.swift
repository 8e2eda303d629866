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
  ///   infinity, or a string or key holding U+0000 or a noncharacter (which
  ///   JSONKit's reader rejects, so it does not write them); the error's
  ///   coding path says where.
  public static func data(
    withJSONObject object: Any, options: JKOutputFormatting = [],
    compression: JKCompression = .none
  ) throws -> Data {
    try JSONValue(foundationObject: object).jsonData(options: options, compression: compression)
  }

  /// Whether `object` can be written as JSON by ``data(withJSONObject:options:compression:)``
  /// (unlike Foundation's, false for a string holding U+0000 or a
  /// noncharacter).
  public static func isValidJSONObject(_ object: Any) -> Bool {
    guard let value = try? JSONValue(foundationObject: object) else { return false }
    return (try? value.jsonBytes()) != nil
  }
}

extension JSONValue {
  /// The value as `JSONSerialization` would give it: `[String: Any]`,
  /// `[Any]`, `String`, `Int` (or `UInt64` above `Int.max`), `Double`,
  /// `Bool` or `NSNull`.
  public var foundationObject: Any {
    switch self {
    case .null: return NSNull()
    case .bool(let value): return value
    case .int(let value): return Int(exactly: value) ?? value
    case .uint(let value): return Int(exactly: value) ?? value
    case .double(let value): return value
    case .string(let value): return value
    case .array(let elements): return elements.map(\.foundationObject)
    case .object(let object):
      var dictionary: [String: Any] = [:]
      dictionary.reserveCapacity(object.count)
      for (key, value) in object { dictionary[key] = value.foundationObject }
      return dictionary
    }
  }

  /// Converts Foundation-style values: dictionaries with `String` keys,
  /// arrays, strings, numbers (Swift's types or `NSNumber`), `Bool`,
  /// `NSNull`, `nil` optionals, and `JSONValue`s.
  ///
  /// - Throws: `EncodingError.invalidValue` naming the path to a value of
  ///   any other kind, or to a dictionary whose keys are not strings.
  public init(foundationObject: Any) throws {
    self = try Self.convert(foundationObject, path: [])
  }

  private static func convert(_ object: Any, path: [any CodingKey]) throws -> JSONValue {
    // NSNumber first, by its exact class: casting a Swift number to it would
    // bridge, and casting it to Bool would accept any 0 or 1.
    if type(of: object) is NSNumber.Type, let number = object as? NSNumber {
      if let decimal = number as? NSDecimalNumber {
        return try convert(decimal.decimalValue, path: path)
      }
      return convert(number)
    }
    switch object {
    case let value as JSONValue: return value
    case is NSNull: return .null
    case let value as Bool: return .bool(value)
    case let value as String: return .string(value)
    case let value as Int: return .int(Int64(value))
    case let value as Double: return .double(value)
    case let value as Int64: return .int(value)
    case let value as Int32: return .int(Int64(value))
    case let value as Int16: return .int(Int64(value))
    case let value as Int8: return .int(Int64(value))
    case let value as UInt: return integer(UInt64(value))
    case let value as UInt64: return integer(value)
    case let value as UInt32: return .int(Int64(value))
    case let value as UInt16: return .int(Int64(value))
    case let value as UInt8: return .int(Int64(value))
    case let value as Float: return float(value)
    case let value as Decimal: return try convert(value, path: path)
    case let dictionary as [String: Any]:
      var object = JSONObject()
      for (key, value) in dictionary {
        object[key] = try convert(value, path: path + [AnyCodingKey(stringValue: key)])
      }
      return .object(object)
    case let array as [Any]:
      return .array(
        try array.enumerated().map { try convert($1, path: path + [AnyCodingKey(intValue: $0)]) })
    case let dictionary as [AnyHashable: Any]:
      var object = JSONObject()
      for (key, value) in dictionary {
        guard let name = key.base as? String else {
          throw EncodingError.invalidValue(
            object,
            EncodingError.Context(
              codingPath: path,
              debugDescription: "Dictionary keys must be strings; found \(type(of: key.base))."))
        }
        object[name] = try convert(value, path: path + [AnyCodingKey(stringValue: name)])
      }
      return .object(object)
    default:
      if case Optional<Any>.none = object { return .null }
      throw EncodingError.invalidValue(
        object,
        EncodingError.Context(
          codingPath: path, debugDescription: "\(type(of: object)) cannot be written as JSON."))
    }
  }

  private static func integer(_ value: UInt64) -> JSONValue {
    Int64(exactly: value).map(JSONValue.int) ?? .uint(value)
  }

  /// A `Float` as the Double its shortest text spells, so that it is written
  /// as `JSONSerialization` and `JSONEncoder` write it (`0.1`, not the
  /// Double nearest the Float, `0.10000000149011612`).
  private static func float(_ value: Float) -> JSONValue {
    guard value.isFinite else { return .double(Double(value)) }  // throws when written
    return .double(Double(value.description) ?? Double(value))
  }

  /// A `Decimal` as the integer or Double that holds it exactly, since
  /// JSONKit converts numbers without loss or not at all.
  private static func convert(_ decimal: Decimal, path: [any CodingKey]) throws -> JSONValue {
    let text = decimal.description
    if let value = Int64(text) { return .int(value) }
    if let value = UInt64(text) { return .uint(value) }
    if !decimal.isNaN, let value = Double(text), Decimal(string: "\(value)") == decimal {
      return .double(value)
    }
    throw EncodingError.invalidValue(
      decimal,
      EncodingError.Context(
        codingPath: path,
        debugDescription:
          "The Decimal \(text) has no exact 64-bit integer or Double; JSONValue cannot hold it."))
  }

  /// An `NSNumber` by the C type it holds, so that `true` stays a Boolean
  /// and integers stay exact.
  private static func convert(_ number: NSNumber) -> JSONValue {
    switch String(cString: number.objCType) {
    case "c", "B":
      // Objective-C's BOOL is a char; a char holding other values is a number.
      let value = number.int8Value
      return value == 0 || value == 1 ? .bool(value == 1) : .int(Int64(value))
    case "f":
      return float(number.floatValue)
    case "d":
      return .double(number.doubleValue)
    case "Q", "L", "I", "S", "C":
      return integer(number.uint64Value)
    default:
      return .int(number.int64Value)
    }
  }
}
