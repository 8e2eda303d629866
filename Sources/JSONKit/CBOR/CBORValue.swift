/// An untyped CBOR data item (RFC 8949), as ``JSONValue`` is for JSON: read
/// from bytes with `CBORValue(cbor:)`, written with ``cborBytes()``.
///
/// It holds everything CBOR can say: integers over the whole range of both
/// major types (−2⁶⁴ to 2⁶⁴ − 1), byte strings, text, arrays, maps whose
/// keys may be any item (in the order they were read), tags, the simple
/// values and floats. A float read from half or single precision holds the
/// same value as a `Double`; writing picks the shortest precision that holds
/// it exactly again.
///
/// ```swift
/// let item: CBORValue = ["name": "Ada", "year": 1843, "tags": [1, 2]]
/// let bytes = item.cborBytes()
/// print(try CBORValue(cbor: bytes))  // {"name": "Ada", "year": 1843, "tags": [1, 2]}
/// ```
///
/// Its `description` is RFC 8949's diagnostic notation.
public enum CBORValue: Sendable {
  /// An unsigned integer (major type 0).
  case unsigned(UInt64)
  /// A negative integer (major type 1) whose value is −1 − `n`: `-1` is
  /// `.negative(0)` and −2⁶⁴ is `.negative(.max)`.
  case negative(UInt64)
  /// A byte string (major type 2).
  case bytes([UInt8])
  /// A text string (major type 3).
  case text(String)
  /// An array (major type 4).
  case array([CBORValue])
  /// A map (major type 5), its pairs in order. Keys are unique: reading
  /// rejects a map with a repeated key.
  case map([(key: CBORValue, value: CBORValue)])
  /// A tagged item (major type 6): tag 1 on a number is an epoch time,
  /// tags 2 and 3 on bytes a bignum, tag 37 on 16 bytes a UUID.
  indirect case tagged(UInt64, CBORValue)
  /// `false` or `true` (simple values 20 and 21).
  case bool(Bool)
  /// `null` (simple value 22).
  case null
  /// `undefined` (simple value 23).
  case undefined
  /// Any other simple value: 0 to 19, or 32 to 255.
  case simple(UInt8)
  /// A float of half, single or double precision.
  case float(Double)
}

extension CBORValue {
  /// The integer, when the item is one that `Int64` holds.
  public var int64Value: Int64? {
    switch self {
    case .unsigned(let value): Int64(exactly: value)
    case .negative(let value): value <= UInt64(Int64.max) ? -1 - Int64(value) : nil
    default: nil
    }
  }

  /// The integer, when the item is a non-negative integer.
  public var uint64Value: UInt64? {
    if case .unsigned(let value) = self { return value }
    return nil
  }

  /// The number as a `Double`: a float, or an integer that a `Double` holds
  /// exactly.
  public var doubleValue: Double? {
    switch self {
    case .float(let value): value
    case .unsigned(let value): Double(exactly: value)
    case .negative(let value):
      // −1 − n, which is −2⁶⁴ for the largest n.
      value == .max ? -0x1p64 : Double(exactly: value + 1).map { -$0 }
    default: nil
    }
  }

  /// The text, when the item is a text string.
  public var stringValue: String? {
    if case .text(let value) = self { return value }
    return nil
  }

  /// The bytes, when the item is a byte string.
  public var bytesValue: [UInt8]? {
    if case .bytes(let value) = self { return value }
    return nil
  }

  /// The Boolean, when the item is `true` or `false`.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The elements, when the item is an array.
  public var arrayValue: [CBORValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The pairs, when the item is a map.
  public var mapValue: [(key: CBORValue, value: CBORValue)]? {
    if case .map(let value) = self { return value }
    return nil
  }

  /// Whether the item is `null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The value of the map's text key `key`, or `nil` when the item is not a
  /// map or has no such key.
  public subscript(key: String) -> CBORValue? {
    self[.text(key)]
  }

  /// The value of the map's key `key`, or `nil` when the item is not a map
  /// or has no such key.
  public subscript(key: CBORValue) -> CBORValue? {
    guard case .map(let pairs) = self else { return nil }
    return pairs.first { $0.key == key }?.value
  }

  /// The array's element at `index`, or `nil` when the item is not an array
  /// or the index is out of range.
  public subscript(index: Int) -> CBORValue? {
    guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
    return elements[index]
  }
}

extension CBORValue {
  /// The integer `value`, as an unsigned or a negative item.
  public init(_ value: Int64) {
    self = value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
  }

  /// The integer `value`, as an unsigned item.
  public init(_ value: UInt64) {
    self = .unsigned(value)
  }
}

extension CBORValue: Equatable {
  /// Whether the two items are the same data item: text is equal when its
  /// UTF-8 bytes are (not by Unicode canonical equivalence, as `String`
  /// compares), floats when their bits are (so `NaN` equals itself, and
  /// `-0.0` differs from `0.0`), and a float never equals an integer.
  public static func == (lhs: CBORValue, rhs: CBORValue) -> Bool {
    switch (lhs, rhs) {
    case (.unsigned(let a), .unsigned(let b)), (.negative(let a), .negative(let b)): a == b
    case (.bytes(let a), .bytes(let b)): a == b
    case (.text(let a), .text(let b)): a.utf8.elementsEqual(b.utf8)
    case (.array(let a), .array(let b)): a == b
    case (.map(let a), .map(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    case (.tagged(let tagA, let a), .tagged(let tagB, let b)): tagA == tagB && a == b
    case (.bool(let a), .bool(let b)): a == b
    case (.null, .null), (.undefined, .undefined): true
    case (.simple(let a), .simple(let b)): a == b
    case (.float(let a), .float(let b)): a.bitPattern == b.bitPattern
    default: false
    }
  }
}

extension CBORValue: Hashable {
  /// Hashes the item consistently with `==`.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .unsigned(let value):
      hasher.combine(0 as UInt8)
      hasher.combine(value)
    case .negative(let value):
      hasher.combine(1 as UInt8)
      hasher.combine(value)
    case .bytes(let value):
      hasher.combine(2 as UInt8)
      hasher.combine(value)
    case .text(let value):
      hasher.combine(3 as UInt8)
      hasher.combine(value)
    case .array(let value):
      hasher.combine(4 as UInt8)
      hasher.combine(value)
    case .map(let pairs):
      hasher.combine(5 as UInt8)
      hasher.combine(pairs.count)
      for pair in pairs {
        hasher.combine(pair.key)
        hasher.combine(pair.value)
      }
    case .tagged(let tag, let value):
      hasher.combine(6 as UInt8)
      hasher.combine(tag)
      hasher.combine(value)
    case .bool(let value):
      hasher.combine(7 as UInt8)
      hasher.combine(value)
    case .null: hasher.combine(8 as UInt8)
    case .undefined: hasher.combine(9 as UInt8)
    case .simple(let value):
      hasher.combine(10 as UInt8)
      hasher.combine(value)
    case .float(let value):
      hasher.combine(11 as UInt8)
      hasher.combine(value.bitPattern)
    }
  }
}

extension CBORValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  /// `null`.
  public init(nilLiteral: ()) {
    self = .null
  }

  /// `true` or `false`.
  public init(booleanLiteral value: Bool) {
    self = .bool(value)
  }

  /// An integer.
  public init(integerLiteral value: Int64) {
    self.init(value)
  }

  /// A float.
  public init(floatLiteral value: Double) {
    self = .float(value)
  }

  /// A text string.
  public init(stringLiteral value: String) {
    self = .text(value)
  }

  /// An array.
  public init(arrayLiteral elements: CBORValue...) {
    self = .array(elements)
  }

  /// A map with its pairs in the order written.
  public init(dictionaryLiteral elements: (CBORValue, CBORValue)...) {
    self = .map(elements.map { (key: $0.0, value: $0.1) })
  }
}
