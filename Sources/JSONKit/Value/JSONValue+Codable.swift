extension JSONValue: Codable {
  /// Encodes the value through any `Encoder`: scalars in a single-value
  /// container, arrays in an unkeyed container, objects in a keyed container
  /// with their keys in order.
  ///
  /// - Throws: `EncodingError.invalidValue`, at the coding path of the
  ///   container that would be too deep, for arrays and objects nested
  ///   deeper than ``maxDepthLimit``: Codable encodes each level with
  ///   call-stack frames of its own (the encoder's and the value's), so a
  ///   deeper value, which only code can build, would overflow the stack.
  ///   `JKEncoder` writes a `JSONValue` without that recursion, as deep as
  ///   its `maxDepth` allows.
  public func encode(to encoder: any Encoder) throws {
    try encode(to: encoder, depth: 0)
  }

  /// ``encode(to:)`` for a value that `depth` arrays and objects of the
  /// value being encoded hold.
  fileprivate func encode(to encoder: any Encoder, depth: Int) throws {
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
      try Self.checkCodableDepth(depth, of: self, encoder: encoder)
      var container = encoder.unkeyedContainer()
      for element in elements {
        try container.encode(NestedJSONValue(value: element, depth: depth + 1))
      }
    case .object(let object):
      try object.encode(to: encoder, depth: depth)
    }
  }

  /// Throws when a container that `depth` arrays and objects hold would
  /// nest deeper than ``maxDepthLimit``, before it is asked for.
  fileprivate static func checkCodableDepth(
    _ depth: Int, of value: @autoclosure () -> JSONValue, encoder: any Encoder
  ) throws {
    guard depth >= maxDepthLimit else { return }
    throw EncodingError.invalidValue(
      value(),
      EncodingError.Context(
        codingPath: encoder.codingPath,
        debugDescription:
          "Unable to encode the JSONValue: its arrays and objects nest deeper than "
          + "JSONValue.maxDepthLimit (\(maxDepthLimit))."))
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
  ///
  /// - Throws: `EncodingError.invalidValue` for arrays and objects nested
  ///   deeper than ``JSONValue/maxDepthLimit``, as
  ///   ``JSONValue/encode(to:)`` does.
  public func encode(to encoder: any Encoder) throws {
    try encode(to: encoder, depth: 0)
  }

  /// ``encode(to:)`` for an object that `depth` arrays and objects of the
  /// value being encoded hold.
  fileprivate func encode(to encoder: any Encoder, depth: Int) throws {
    try JSONValue.checkCodableDepth(depth, of: .object(self), encoder: encoder)
    var container = encoder.container(keyedBy: AnyCodingKey.self)
    for member in members {
      try container.encode(
        NestedJSONValue(value: member.value, depth: depth + 1),
        forKey: AnyCodingKey(stringValue: member.key))
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

/// A value inside an array or object that ``JSONValue/encode(to:)`` is
/// encoding, with how many of them hold it: Codable's recursion then stops at
/// ``JSONValue/maxDepthLimit`` without asking the encoder for its coding path
/// (built anew on each call) at every level. It encodes exactly as its value.
struct NestedJSONValue: Encodable {
  let value: JSONValue
  let depth: Int

  func encode(to encoder: any Encoder) throws {
    try value.encode(to: encoder, depth: depth)
  }
}
