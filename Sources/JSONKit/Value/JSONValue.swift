/// Any JSON value, untyped.
///
/// Integers keep their exact value: JSONKit's parser makes `.int` for every
/// integer literal that fits `Int64` and `.uint` only for those above
/// `Int64.max`; a literal with a fraction or exponent becomes `.double`.
///
/// ```swift
/// let value: JSONValue = ["name": "Ada", "born": 1815, "tags": ["maths", nil]]
/// value["born"]?.intValue     // 1815
/// value["tags"]?[0]           // .string("maths")
/// try value.jsonString()      // {"name":"Ada","born":1815,"tags":["maths",null]}
/// ```
///
/// Equality has JSON's meaning rather than the cases' structure: objects are
/// compared as unordered maps, and numbers by their exact value whatever the
/// case holding them, so `.int(1) == .double(1.0)` and
/// `.double(0.0) == .double(-0.0)`, while `.double(2.5)` equals no integer and
/// NaN equals nothing. Hashing agrees with that equality.
public enum JSONValue: Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// An integer that fits `Int64`.
  case int(Int64)
  /// An integer; the parser uses it only for integers above `Int64.max`.
  case uint(UInt64)
  /// A binary floating-point number. NaN and the infinities cannot be
  /// written as JSON: writing them throws.
  case double(Double)
  /// A string.
  case string(String)
  /// An array of values.
  case array([JSONValue])
  /// An object: unique keys with values, in order.
  case object(JSONObject)
}

// MARK: - Accessors

extension JSONValue {
  /// Whether the value is `null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The Boolean, if the value is `true` or `false`.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The string, if the value is a string.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The number as an `Int`, if it is a number that `Int` holds exactly.
  ///
  /// `.double(2.0).intValue` is `2`; `.double(1.5).intValue` is `nil`.
  public var intValue: Int? {
    switch self {
    case .int(let value): return Int(exactly: value)
    case .uint(let value): return Int(exactly: value)
    case .double(let value): return Int(exactly: value)
    default: return nil
    }
  }

  /// The number as an `Int64`, if it is a number that `Int64` holds exactly.
  public var int64Value: Int64? {
    switch self {
    case .int(let value): return value
    case .uint(let value): return Int64(exactly: value)
    case .double(let value): return Int64(exactly: value)
    default: return nil
    }
  }

  /// The number as a `UInt64`, if it is a number that `UInt64` holds exactly.
  public var uint64Value: UInt64? {
    switch self {
    case .int(let value): return UInt64(exactly: value)
    case .uint(let value): return value
    case .double(let value): return UInt64(exactly: value)
    default: return nil
    }
  }

  /// The number as a `Double`, if it is a number that `Double` holds exactly.
  ///
  /// `.int(Int64.max).doubleValue` is `nil`: the nearest `Double` is
  /// 2^63, a different number.
  public var doubleValue: Double? {
    switch self {
    case .int(let value): return Double(exactly: value)
    case .uint(let value): return Double(exactly: value)
    case .double(let value): return value
    default: return nil
    }
  }

  /// The elements, if the value is an array.
  public var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The members, if the value is an object.
  public var objectValue: JSONObject? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// The value for `key` if this is an object that has the key; otherwise
  /// `nil`.
  public subscript(key: String) -> JSONValue? {
    if case .object(let object) = self { return object[key] }
    return nil
  }

  /// The element at `index` if this is an array and `index` is in range;
  /// otherwise `nil`.
  public subscript(index: Int) -> JSONValue? {
    if case .array(let elements) = self, elements.indices.contains(index) {
      return elements[index]
    }
    return nil
  }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
  /// Creates `.null`.
  public init(nilLiteral: ()) {
    self = .null
  }
}

extension JSONValue: ExpressibleByBooleanLiteral {
  /// Creates `.bool`.
  public init(booleanLiteral value: Bool) {
    self = .bool(value)
  }
}

extension JSONValue: ExpressibleByIntegerLiteral {
  /// Creates `.int`.
  public init(integerLiteral value: Int) {
    self = .int(Int64(value))
  }
}

extension JSONValue: ExpressibleByFloatLiteral {
  /// Creates `.double`.
  public init(floatLiteral value: Double) {
    self = .double(value)
  }
}

extension JSONValue: ExpressibleByStringLiteral {
  /// Creates `.string`.
  public init(stringLiteral value: String) {
    self = .string(value)
  }
}

extension JSONValue: ExpressibleByArrayLiteral {
  /// Creates `.array`.
  public init(arrayLiteral elements: JSONValue...) {
    self = .array(elements)
  }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
  /// Creates `.object` with the members in the literal's order; for a key
  /// written twice, the last value wins.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(JSONObject(elements))
  }
}
