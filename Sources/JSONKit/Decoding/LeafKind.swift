import Foundation

/// The types that decoding reads by code of its own rather than by their
/// `init(from:)`: the leaves, and the types Foundation's JSONDecoder reads
/// specially. ``init(_:)`` is the one list of them; ``TypeShapes`` records
/// each type's kind, and the readers switch on it.
enum LeafKind {
  case string, bool, double, float
  case int, int8, int16, int32, int64
  case uint, uint8, uint16, uint32, uint64
  case int128, uint128
  case date, url, data, decimal, uuid, jsonValue

  /// The kind of `type`, or nil for a type read by its `init(from:)`.
  init?(_ type: Any.Type) {
    if let kind = Self.scalar(type) ?? Self.foundationTypes.first(where: { $0.type == type })?.kind
    {
      self = kind
    } else if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *),
      type == Int128.self || type == UInt128.self
    {
      self = type == Int128.self ? .int128 : .uint128
    } else {
      return nil
    }
  }

  /// The types Foundation's JSONDecoder reads specially, and `JSONValue`,
  /// which is read straight from the tape.
  private static let foundationTypes: [(type: Any.Type, kind: LeafKind)] = [
    (Date.self, .date), (URL.self, .url), (Data.self, .data), (Decimal.self, .decimal),
    (UUID.self, .uuid), (JSONValue.self, .jsonValue),
  ]

  /// The kind of `type` if it is a `String`, a `Bool` or a number of at most
  /// 64 bits, the leaves that need no availability check to name: a
  /// constant where `type` is known at compile time, so that code
  /// specialized for a type reads it with no test at all. The most common
  /// first, for code that is not.
  @inline(__always)
  static func scalar(_ type: Any.Type) -> LeafKind? {
    if type == String.self { return .string }
    if type == Int.self { return .int }
    if type == Double.self { return .double }
    if type == Bool.self { return .bool }
    if type == Int64.self { return .int64 }
    if type == Float.self { return .float }
    if type == Int32.self { return .int32 }
    if type == UInt64.self { return .uint64 }
    if type == UInt.self { return .uint }
    if type == UInt32.self { return .uint32 }
    if type == Int16.self { return .int16 }
    if type == UInt16.self { return .uint16 }
    if type == Int8.self { return .int8 }
    if type == UInt8.self { return .uint8 }
    return nil
  }
}
