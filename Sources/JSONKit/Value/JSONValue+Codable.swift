extension JSONValue: Codable {
  /// Encodes the value through any `Encoder`: scalars in a single-value
  /// container, arrays in an unkeyed container, objects in a keyed container
  /// with their keys in order.
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .int(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .uint(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .double(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .string(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .array(let elements):
      var container = encoder.unkeyedContainer()
      for element in elements {
        try container.encode(element)
      }
    case .object(let object):
      try object.encode(to: encoder)
    }
  }

  /// Decodes any value from any `Decoder`.
  ///
  /// Tries, in order: null, `Bool`, `Int64`, `UInt64`, `Double`, `String`,
  /// then an object (keyed container), then an array (unkeyed container).
  ///
  /// A decoder that accepts `1e+16` as an `Int64` (Foundation's
  /// `JSONDecoder` does) reads the integer the text spells. For a double of
  /// 17 or more integral digits, whose shortest text is not its exact value,
  /// that is a neighbouring integer: `5.475104176468169e+16` comes back as
  /// `.int(54751041764681690)`, not the double's exact 54751041764681688.
  public init(from decoder: any Decoder) throws {
    if let container = try? decoder.singleValueContainer() {
      if container.decodeNil() {
        self = .null
        return
      }
      if let value = try? container.decode(Bool.self) {
        self = .bool(value)
        return
      }
      if let value = try? container.decode(Int64.self) {
        // `-0` and `-0.0` read as the integer 0 too; JSONKit reads them as
        // the Double −0.0, and only a Double keeps the sign.
        if value == 0, let double = try? container.decode(Double.self), double.sign == .minus {
          self = .double(double)
          return
        }
        self = .int(value)
        return
      }
      if let value = try? container.decode(UInt64.self) {
        self = .uint(value)
        return
      }
      if let value = try? container.decode(Double.self) {
        self = .double(value)
        return
      }
      if let value = try? container.decode(String.self) {
        self = .string(value)
        return
      }
    }
    if let container = try? decoder.container(keyedBy: AnyCodingKey.self) {
      self = .object(try JSONObject(from: container))
      return
    }
    if var container = try? decoder.unkeyedContainer() {
      var elements: [JSONValue] = []
      if let count = container.count {
        elements.reserveCapacity(count)
      }
      while !container.isAtEnd {
        elements.append(try container.decode(JSONValue.self))
      }
      self = .array(elements)
      return
    }
    throw DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: decoder.codingPath,
        debugDescription:
          "The value is not null, a Boolean, a number, a string, an array or an object."
      ))
  }
}

extension JSONObject: Codable {
  /// Encodes the members in order through a keyed container.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyCodingKey.self)
    for member in members {
      try container.encode(member.value, forKey: AnyCodingKey(stringValue: member.key))
    }
  }

  /// Decodes the members of a keyed container, in the order the decoder
  /// lists its keys.
  public init(from decoder: any Decoder) throws {
    try self.init(from: decoder.container(keyedBy: AnyCodingKey.self))
  }

  fileprivate init(from container: KeyedDecodingContainer<AnyCodingKey>) throws {
    self.init()
    for key in container.allKeys {
      self[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
    }
  }
}
