import Foundation

// Codable models whose shape is chosen at run time, for comparing JKDecoder and
// JKEncoder with Foundation on random documents.
//
// A schema (`OracleSchema`) describes a Swift type: scalars of every width,
// optionals, arrays, objects with named fields, and dictionaries. One Codable
// type, `OracleNode`, decodes any schema: it finds its own schema by walking the
// root schema (handed over in `userInfo`) along its decoder's coding path, and
// then reads the value through the container calls the schema names. So one
// document exercises the typed container methods, the generic ones, nested
// containers, super decoders, `decodeIfPresent`, `contains`, `decodeNil`,
// `allKeys`, the unkeyed container's bookkeeping, and Swift's own Array,
// Dictionary and Set conformances, all driven by data.

/// The Swift type behind a schema leaf.
enum OracleScalar: CaseIterable, Sendable {
  case bool, string, double, float
  case int, int8, int16, int32, int64
  case uint, uint8, uint16, uint32, uint64

  var isInteger: Bool {
    switch self {
    case .bool, .string, .double, .float: false
    default: true
    }
  }

  /// The smallest and largest values of an integer type.
  var integerBounds: (min: Int64, max: UInt64)? {
    switch self {
    case .int, .int64: (Int64.min, UInt64(Int64.max))
    case .int8: (Int64(Int8.min), UInt64(Int8.max))
    case .int16: (Int64(Int16.min), UInt64(Int16.max))
    case .int32: (Int64(Int32.min), UInt64(Int32.max))
    case .uint, .uint64: (0, UInt64.max)
    case .uint8: (0, UInt64(UInt8.max))
    case .uint16: (0, UInt64(UInt16.max))
    case .uint32: (0, UInt64(UInt32.max))
    default: nil
    }
  }

  /// Calls `visitor` with the Swift type.
  func accept<V: OracleTypeVisitor>(_ visitor: inout V) throws -> V.Result {
    switch self {
    case .bool: try visitor.visit(Bool.self)
    case .string: try visitor.visit(String.self)
    case .double: try visitor.visit(Double.self)
    case .float: try visitor.visit(Float.self)
    case .int: try visitor.visit(Int.self)
    case .int8: try visitor.visit(Int8.self)
    case .int16: try visitor.visit(Int16.self)
    case .int32: try visitor.visit(Int32.self)
    case .int64: try visitor.visit(Int64.self)
    case .uint: try visitor.visit(UInt.self)
    case .uint8: try visitor.visit(UInt8.self)
    case .uint16: try visitor.visit(UInt16.self)
    case .uint32: try visitor.visit(UInt32.self)
    case .uint64: try visitor.visit(UInt64.self)
    }
  }
}

/// Concrete Swift collection types, decoded and encoded through their own
/// Codable conformances (and so through JSONKit's array and dictionary fast
/// paths), each with the schema of the JSON it reads.
enum OracleNative: CaseIterable, Sendable {
  case ints, doubles, strings, bools, optionalInt8s, uint64s, floats, nestedInt16s
  case stringToInt, intToString, stringToDoubles, stringSet, intSet, optionalFloat

  var equivalent: OracleSchema {
    switch self {
    case .ints: .array(.scalar(.int), .typed)
    case .doubles: .array(.scalar(.double), .typed)
    case .strings: .array(.scalar(.string), .typed)
    case .bools: .array(.scalar(.bool), .typed)
    case .optionalInt8s: .array(.optional(.scalar(.int8)), .typed)
    case .uint64s: .array(.scalar(.uint64), .typed)
    case .floats: .array(.scalar(.float), .typed)
    case .nestedInt16s: .array(.array(.scalar(.int16), .typed), .typed)
    case .stringToInt: .stringKeyed(.scalar(.int))
    case .intToString: .intKeyed(.scalar(.string))
    case .stringToDoubles: .stringKeyed(.array(.scalar(.double), .typed))
    case .stringSet: .set(.string)
    case .intSet: .set(.int)
    case .optionalFloat: .optional(.scalar(.float))
    }
  }

  func accept<V: OracleTypeVisitor>(_ visitor: inout V) throws -> V.Result {
    switch self {
    case .ints: try visitor.visit([Int].self)
    case .doubles: try visitor.visit([Double].self)
    case .strings: try visitor.visit([String].self)
    case .bools: try visitor.visit([Bool].self)
    case .optionalInt8s: try visitor.visit([Int8?].self)
    case .uint64s: try visitor.visit([UInt64].self)
    case .floats: try visitor.visit([Float].self)
    case .nestedInt16s: try visitor.visit([[Int16]].self)
    case .stringToInt: try visitor.visit([String: Int].self)
    case .intToString: try visitor.visit([Int: String].self)
    case .stringToDoubles: try visitor.visit([String: [Double]].self)
    case .stringSet: try visitor.visit(Set<String>.self)
    case .intSet: try visitor.visit(Set<Int>.self)
    case .optionalFloat: try visitor.visit(Float?.self)
    }
  }
}

/// How a member or element is read or written.
enum OracleAccess: CaseIterable, Sendable {
  /// The container method for the exact type (`decode(Int8.self, forKey:)`),
  /// `decodeIfPresent` for optionals, nested containers for collections.
  case typed
  /// The generic container method (`decode<T>(_:forKey:)`) with the Swift type.
  case generic
  /// `decode(OracleNode.self, …)`: a nested `init(from:)`.
  case node
  /// `superDecoder(forKey:)` (or the unkeyed `superDecoder()`).
  case superDecoder
  /// `contains` and `decodeNil` before the value.
  case nilCheck
}

/// A Swift type described at run time.
indirect enum OracleSchema: Sendable, CustomStringConvertible {
  case scalar(OracleScalar)
  case optional(OracleSchema)
  case array(OracleSchema, OracleAccess)
  /// An object read member by member through `allKeys`.
  case dictionary(OracleSchema, OracleAccess)
  /// `[String: OracleNode]`, through Swift's Dictionary conformance.
  case stringKeyed(OracleSchema)
  /// `[Int: OracleNode]`, through Swift's Dictionary conformance.
  case intKeyed(OracleSchema)
  /// An array read as `Set<String>` or `Set<Int>`.
  case set(OracleScalar)
  case object([OracleField])
  case native(OracleNative)

  var description: String {
    switch self {
    case .scalar(let scalar): "\(scalar)"
    case .optional(let wrapped): "\(wrapped)?"
    case .array(let element, let access): "[\(element)]/\(access)"
    case .dictionary(let value, let access): "[*: \(value)]/\(access)"
    case .stringKeyed(let value): "[String: \(value)]"
    case .intKeyed(let value): "[Int: \(value)]"
    case .set(let scalar): "Set<\(scalar)>"
    case .object(let fields):
      "{"
        + fields.map { "\($0.name.debugDescription): \($0.schema)/\($0.access)" }.joined(
          separator: ", ") + "}"
    case .native(let native): "native.\(native)"
    }
  }

  /// Whether a value of the schema is encoded through a Swift Dictionary,
  /// whose order (without sorted keys) differs between equal instances.
  var hasUnorderedMembers: Bool {
    switch self {
    case .scalar, .set: false
    case .optional(let wrapped): wrapped.hasUnorderedMembers
    case .array(let element, _), .dictionary(let element, _): element.hasUnorderedMembers
    case .stringKeyed, .intKeyed: true
    case .object(let fields): fields.contains { $0.schema.hasUnorderedMembers }
    case .native(let native): native.equivalent.hasUnorderedMembers
    }
  }

  /// The schema without optional wrappers.
  var unwrapped: OracleSchema {
    if case .optional(let wrapped) = self { return wrapped.unwrapped }
    return self
  }

  var isOptional: Bool {
    if case .optional = self { return true }
    return false
  }

  /// The schema of the value at `path` below a value of this schema.
  func descendant(at path: ArraySlice<any CodingKey>) -> OracleSchema? {
    guard let first = path.first else { return self }
    let rest = path.dropFirst()
    switch self {
    case .optional(let wrapped): return wrapped.descendant(at: path)
    case .array(let element, _):
      return first.intValue == nil ? nil : element.descendant(at: rest)
    case .dictionary(let value, _), .stringKeyed(let value), .intKeyed(let value):
      return value.descendant(at: rest)
    case .object(let fields):
      return fields.first { $0.name == first.stringValue }?.schema.descendant(at: rest)
    case .native(let native): return native.equivalent.descendant(at: path)
    case .scalar, .set: return nil
    }
  }
}

/// A field of an object schema.
struct OracleField: Sendable {
  let name: String
  let schema: OracleSchema
  let access: OracleAccess
}

/// A decoded (or to-be-encoded) value, with doubles and floats as bit patterns
/// so that equality is exact.
indirect enum OracleValue: Hashable, Sendable, CustomStringConvertible {
  case null
  case bool(Bool)
  case string(String)
  case int(Int64)
  case uint(UInt64)
  case double(UInt64)
  case float(UInt32)
  case array([OracleValue])
  case object([String: OracleValue])
  case intObject([Int: OracleValue])
  case set(Set<OracleValue>)
  /// What the reader observed besides the value: the coding paths of the
  /// decoder and containers it used, an unkeyed container's count.
  case observed(String, OracleValue)

  var description: String {
    switch self {
    case .null: "null"
    case .bool(let value): "\(value)"
    case .string(let value): value.debugDescription
    case .int(let value): "\(value)"
    case .uint(let value): "\(value)u"
    case .double(let bits): "\(Double(bitPattern: bits))d"
    case .float(let bits): "\(Float(bitPattern: bits))f"
    case .array(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
    case .object(let members):
      "{"
        + members.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription): \($0.value)" }
        .joined(separator: ", ") + "}"
    case .intObject(let members):
      "{"
        + members.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(
          separator: ", ") + "}"
    case .set(let values): "Set(" + values.map(\.description).sorted().joined(separator: ", ") + ")"
    case .observed(let note, let value): "<\(note)>\(value)"
    }
  }

  /// Where two values first differ, as a path and the two parts there; nil
  /// when they are equal.
  func firstDifference(from other: OracleValue, at path: String = "$") -> String? {
    switch (self, other) {
    case (.observed(let note, let value), .observed(let otherNote, let otherValue)):
      if note != otherNote { return "\(path): <\(note)> vs <\(otherNote)>" }
      return value.firstDifference(from: otherValue, at: path)
    case (.array(let values), .array(let others)) where values.count == others.count:
      for (index, value) in values.enumerated() {
        if let difference = value.firstDifference(from: others[index], at: "\(path)[\(index)]") {
          return difference
        }
      }
      return nil
    case (.object(let members), .object(let others)) where members.keys == others.keys:
      for key in members.keys.sorted() {
        if let difference = members[key]!.firstDifference(
          from: others[key]!, at: "\(path).\(key.debugDescription)")
        {
          return difference
        }
      }
      return nil
    case (.intObject(let members), .intObject(let others)) where members.keys == others.keys:
      for key in members.keys.sorted() {
        if let difference = members[key]!.firstDifference(from: others[key]!, at: "\(path).\(key)")
        {
          return difference
        }
      }
      return nil
    default:
      return self == other ? nil : "\(path): \(self) vs \(other)"
    }
  }

  /// The value with null object members taken out (an optional written with
  /// `encodeIfPresent` is absent, and an absent member reads back as null or
  /// not at all).
  var withoutNullMembers: OracleValue {
    switch self {
    case .observed(let note, let value): .observed(note, value.withoutNullMembers)
    case .array(let values): .array(values.map(\.withoutNullMembers))
    case .object(let members):
      .object(members.filter { $0.value != .null }.mapValues(\.withoutNullMembers))
    case .intObject(let members):
      .intObject(members.filter { $0.value != .null }.mapValues(\.withoutNullMembers))
    default: self
    }
  }

  /// The value without the reader's observations.
  var plain: OracleValue {
    switch self {
    case .observed(_, let value): value.plain
    case .array(let values): .array(values.map(\.plain))
    case .object(let members): .object(members.mapValues(\.plain))
    case .intObject(let members): .intObject(members.mapValues(\.plain))
    case .set(let values): .set(Set(values.map(\.plain)))
    default: self
    }
  }
}

// MARK: - Conversions between Swift values and OracleValue

/// A Swift type that converts to and from `OracleValue`.
protocol OracleCodable: Codable {
  var oracleValue: OracleValue { get }
  init(oracle: OracleValue) throws
}

extension Bool: OracleCodable {
  var oracleValue: OracleValue { .bool(self) }
  init(oracle: OracleValue) throws {
    guard case .bool(let value) = oracle else {
      throw OracleReaderError(description: "not a Bool: \(oracle)")
    }
    self = value
  }
}

extension String: OracleCodable {
  var oracleValue: OracleValue { .string(self) }
  init(oracle: OracleValue) throws {
    guard case .string(let value) = oracle else {
      throw OracleReaderError(description: "not a String: \(oracle)")
    }
    self = value
  }
}

extension Double: OracleCodable {
  var oracleValue: OracleValue { .double(bitPattern) }
  init(oracle: OracleValue) throws {
    guard case .double(let bits) = oracle else {
      throw OracleReaderError(description: "not a Double: \(oracle)")
    }
    self.init(bitPattern: bits)
  }
}

extension Float: OracleCodable {
  var oracleValue: OracleValue { .float(bitPattern) }
  init(oracle: OracleValue) throws {
    guard case .float(let bits) = oracle else {
      throw OracleReaderError(description: "not a Float: \(oracle)")
    }
    self.init(bitPattern: bits)
  }
}

/// Integers of every width, as `.int` (signed) or `.uint` (unsigned).
protocol OracleInteger: OracleCodable, FixedWidthInteger {}

extension OracleInteger {
  var oracleValue: OracleValue { Self.isSigned ? .int(Int64(self)) : .uint(UInt64(self)) }
  init(oracle: OracleValue) throws {
    switch oracle {
    case .int(let value):
      guard let exact = Self(exactly: value) else {
        throw OracleReaderError(description: "\(value)")
      }
      self = exact
    case .uint(let value):
      guard let exact = Self(exactly: value) else {
        throw OracleReaderError(description: "\(value)")
      }
      self = exact
    default: throw OracleReaderError(description: "not an integer: \(oracle)")
    }
  }
}

extension Int: OracleInteger {}
extension Int8: OracleInteger {}
extension Int16: OracleInteger {}
extension Int32: OracleInteger {}
extension Int64: OracleInteger {}
extension UInt: OracleInteger {}
extension UInt8: OracleInteger {}
extension UInt16: OracleInteger {}
extension UInt32: OracleInteger {}
extension UInt64: OracleInteger {}

extension Optional: OracleCodable where Wrapped: OracleCodable {
  var oracleValue: OracleValue { map(\.oracleValue) ?? .null }
  init(oracle: OracleValue) throws {
    self = oracle == .null ? nil : try Wrapped(oracle: oracle)
  }
}

extension Array: OracleCodable where Element: OracleCodable {
  var oracleValue: OracleValue { .array(map(\.oracleValue)) }
  init(oracle: OracleValue) throws {
    guard case .array(let values) = oracle else {
      throw OracleReaderError(description: "not an array: \(oracle)")
    }
    self = try values.map(Element.init(oracle:))
  }
}

extension Set: OracleCodable where Element: OracleCodable {
  var oracleValue: OracleValue { .set(Set<OracleValue>(map(\.oracleValue))) }
  init(oracle: OracleValue) throws {
    guard case .set(let values) = oracle else {
      throw OracleReaderError(description: "not a set: \(oracle)")
    }
    self = Set(try values.map(Element.init(oracle:)))
  }
}

/// The key types of the dictionaries the schemas use.
protocol OracleDictionaryKey: Hashable, Codable, CodingKeyRepresentable {
  static func wrap<V: OracleCodable>(_ members: [Self: V]) -> OracleValue
  static func unwrap(_ value: OracleValue) throws -> [Self: OracleValue]
}

extension String: OracleDictionaryKey {
  static func wrap<V: OracleCodable>(_ members: [String: V]) -> OracleValue {
    .object(members.mapValues(\.oracleValue))
  }
  static func unwrap(_ value: OracleValue) throws -> [String: OracleValue] {
    guard case .object(let members) = value else {
      throw OracleReaderError(description: "not an object: \(value)")
    }
    return members
  }
}

extension Int: OracleDictionaryKey {
  static func wrap<V: OracleCodable>(_ members: [Int: V]) -> OracleValue {
    .intObject(members.mapValues(\.oracleValue))
  }
  static func unwrap(_ value: OracleValue) throws -> [Int: OracleValue] {
    guard case .intObject(let members) = value else {
      throw OracleReaderError(description: "not an int object: \(value)")
    }
    return members
  }
}

extension Dictionary: OracleCodable where Key: OracleDictionaryKey, Value: OracleCodable {
  var oracleValue: OracleValue { Key.wrap(self) }
  init(oracle: OracleValue) throws {
    self = try Key.unwrap(oracle).mapValues(Value.init(oracle:))
  }
}

/// Something done with a Swift type chosen at run time.
protocol OracleTypeVisitor {
  associatedtype Result
  mutating func visit<T: OracleCodable>(_ type: T.Type) throws -> Result
}

/// Writes the value it holds as a Swift type chosen at run time.
protocol OracleWriteVisitor: OracleTypeVisitor where Result == Void {
  var value: OracleValue { get }
  mutating func write<T: Encodable>(_ value: T) throws
}

extension OracleWriteVisitor {
  mutating func visit<T: OracleCodable>(_ type: T.Type) throws {
    try write(try T(oracle: value))
  }
}

// MARK: - Decoding

/// A coding key made at run time.
struct OracleKey: CodingKey, Hashable, Sendable {
  let stringValue: String
  let intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    intValue = nil
  }

  init(intValue: Int) {
    stringValue = "Index \(intValue)"
    self.intValue = intValue
  }
}

/// The root schema, handed to `OracleNode` through `userInfo`.
final class OracleSchemaBox: Sendable {
  static let key = CodingUserInfoKey(rawValue: "oracle.schema")!
  let schema: OracleSchema
  init(_ schema: OracleSchema) { self.schema = schema }
}

/// A coding path as text: keys by string value, indices and integer keys
/// marked with their int value.
func oraclePath(_ path: [any CodingKey]) -> String {
  path.map { key in
    if let int = key.intValue { return "\(key.stringValue)#\(int)" }
    return key.stringValue
  }.joined(separator: "/")
}

/// An error the reader throws when a decoder does something a decoder must
/// not do (such as a coding path that leads nowhere in the schema).
struct OracleReaderError: Error, CustomStringConvertible {
  let description: String
}

/// Decodes any schema: the schema is the root one, followed along the
/// decoder's coding path.
struct OracleNode: Codable {
  let value: OracleValue

  init(value: OracleValue) { self.value = value }

  init(from decoder: any Decoder) throws {
    guard let box = decoder.userInfo[OracleSchemaBox.key] as? OracleSchemaBox else {
      throw OracleReaderError(description: "userInfo did not reach init(from:)")
    }
    let path = decoder.codingPath
    guard let schema = box.schema.descendant(at: path[...]) else {
      throw OracleReaderError(description: "no schema at path \(oraclePath(path))")
    }
    value = .observed("node@" + oraclePath(path), try OracleReader.read(schema, from: decoder))
  }

  /// Encoding needs the schema at hand: see ``OracleInstance``.
  func encode(to encoder: any Encoder) throws {
    throw EncodingError.invalidValue(
      value, .init(codingPath: encoder.codingPath, debugDescription: "encode OracleInstance"))
  }
}

/// A value with its schema, which it encodes through the Encoder protocol.
/// (The schema travels with the value: Foundation's encoders do not give a
/// value encoded into a nested container its whole coding path, so it could
/// not be looked up as the decoder's side does.)
struct OracleInstance: Encodable, Sendable {
  let value: OracleValue
  let schema: OracleSchema

  func encode(to encoder: any Encoder) throws {
    try OracleWriter.write(value, schema, to: encoder)
  }
}

/// Reads values of a schema through the Decoder protocol.
enum OracleReader {
  static func read(_ schema: OracleSchema, from decoder: any Decoder) throws -> OracleValue {
    switch schema {
    case .scalar(let scalar):
      var visitor = SingleValueRead(container: try decoder.singleValueContainer())
      return try scalar.accept(&visitor)
    case .optional(let wrapped):
      if try decoder.singleValueContainer().decodeNil() { return .null }
      return try read(wrapped, from: decoder)
    case .array(let element, let access):
      var container = try decoder.unkeyedContainer()
      return try readArray(element, access, &container)
    case .dictionary(let value, let access):
      return try readDictionary(value, access, try decoder.container(keyedBy: OracleKey.self))
    case .object(let fields):
      return try readObject(fields, try decoder.container(keyedBy: OracleKey.self))
    case .stringKeyed, .intKeyed, .set, .native:
      var visitor = SingleValueRead(container: try decoder.singleValueContainer())
      return try acceptCollection(schema, &visitor)
    }
  }

  /// Calls `visitor` with the Swift collection type a collection schema
  /// stands for.
  static func acceptCollection<V: OracleTypeVisitor>(_ schema: OracleSchema, _ visitor: inout V)
    throws -> V.Result
  {
    switch schema {
    case .stringKeyed: try visitor.visit([String: OracleNode].self)
    case .intKeyed: try visitor.visit([Int: OracleNode].self)
    case .set(.int): try visitor.visit(Set<Int>.self)
    case .set: try visitor.visit(Set<String>.self)
    case .native(let native): try native.accept(&visitor)
    default: throw OracleReaderError(description: "not a collection schema: \(schema)")
    }
  }

  static func readArray(
    _ element: OracleSchema, _ access: OracleAccess, _ container: inout any UnkeyedDecodingContainer
  ) throws -> OracleValue {
    let note =
      "array(\(container.count.map(String.init) ?? "?"))@\(oraclePath(container.codingPath))"
    var values: [OracleValue] = []
    while !container.isAtEnd {
      guard container.currentIndex == values.count else {
        throw OracleReaderError(
          description: "currentIndex \(container.currentIndex) after \(values.count) elements")
      }
      values.append(try readElement(element, access, &container))
    }
    guard container.currentIndex == values.count else {
      throw OracleReaderError(description: "currentIndex \(container.currentIndex) at end")
    }
    return .observed(note, .array(values))
  }

  static func readDictionary(
    _ value: OracleSchema, _ access: OracleAccess, _ container: KeyedDecodingContainer<OracleKey>
  ) throws -> OracleValue {
    // Sorted, so that the first error is the same whatever order allKeys has.
    let keys = container.allKeys.sorted { $0.stringValue < $1.stringValue }
    var members: [String: OracleValue] = [:]
    for key in keys {
      guard container.contains(key) else {
        throw OracleReaderError(description: "allKeys has \(key.stringValue), contains says no")
      }
      members[key.stringValue] = try readMember(value, access, container, key)
    }
    return .observed("dictionary@\(oraclePath(container.codingPath))", .object(members))
  }

  static func readObject(_ fields: [OracleField], _ container: KeyedDecodingContainer<OracleKey>)
    throws -> OracleValue
  {
    var members: [String: OracleValue] = [:]
    for field in fields {
      members[field.name] = try readMember(
        field.schema, field.access, container, OracleKey(stringValue: field.name))
    }
    let keys = container.allKeys.map(\.stringValue).sorted()
    return .observed("object\(keys)@\(oraclePath(container.codingPath))", .object(members))
  }

  static func readMember(
    _ schema: OracleSchema, _ access: OracleAccess, _ container: KeyedDecodingContainer<OracleKey>,
    _ key: OracleKey
  ) throws -> OracleValue {
    switch access {
    case .node:
      if schema.isOptional {
        return try container.decodeIfPresent(OracleNode.self, forKey: key)?.value ?? .null
      }
      return try container.decode(OracleNode.self, forKey: key).value
    case .superDecoder:
      return try read(schema, from: container.superDecoder(forKey: key))
    case .nilCheck where schema.isOptional:
      if !container.contains(key) { return .null }
      if try container.decodeNil(forKey: key) { return .null }
      return try readMember(schema.unwrapped, .typed, container, key)
    case .generic:
      var visitor = KeyedRead(container: container, key: key, ifPresent: schema.isOptional)
      switch schema.unwrapped {
      case .scalar(let scalar): return try scalar.accept(&visitor)
      case .stringKeyed, .intKeyed, .set, .native:
        return try acceptCollection(schema.unwrapped, &visitor)
      default: return try readMember(schema, .typed, container, key)
      }
    case .typed, .nilCheck:
      switch schema {
      case .scalar(let scalar):
        return try TypedRead.decode(scalar, container, key, ifPresent: false)
      case .optional(.scalar(let scalar)):
        return try TypedRead.decode(scalar, container, key, ifPresent: true)
      case .optional(let wrapped):
        if !container.contains(key) { return .null }
        if try container.decodeNil(forKey: key) { return .null }
        return try readMember(wrapped, .typed, container, key)
      case .array(let element, let elementAccess):
        var nested = try container.nestedUnkeyedContainer(forKey: key)
        return try readArray(element, elementAccess, &nested)
      case .dictionary(let value, let valueAccess):
        return try readDictionary(
          value, valueAccess, try container.nestedContainer(keyedBy: OracleKey.self, forKey: key))
      case .object(let fields):
        return try readObject(
          fields, try container.nestedContainer(keyedBy: OracleKey.self, forKey: key))
      case .stringKeyed, .intKeyed, .set, .native:
        var visitor = KeyedRead(container: container, key: key, ifPresent: false)
        return try acceptCollection(schema, &visitor)
      }
    }
  }

  static func readElement(
    _ schema: OracleSchema, _ access: OracleAccess, _ container: inout any UnkeyedDecodingContainer
  ) throws -> OracleValue {
    switch access {
    case .node:
      if schema.isOptional {
        return try container.decodeIfPresent(OracleNode.self)?.value ?? .null
      }
      return try container.decode(OracleNode.self).value
    case .superDecoder:
      return try read(schema, from: container.superDecoder())
    case .nilCheck where schema.isOptional:
      if try container.decodeNil() { return .null }
      return try readElement(schema.unwrapped, .typed, &container)
    case .generic:
      var visitor = UnkeyedRead(container: container, ifPresent: schema.isOptional)
      let value: OracleValue
      switch schema.unwrapped {
      case .scalar(let scalar): value = try scalar.accept(&visitor)
      case .stringKeyed, .intKeyed, .set, .native:
        value = try acceptCollection(schema.unwrapped, &visitor)
      default: return try readElement(schema, .typed, &container)
      }
      container = visitor.container
      return value
    case .typed, .nilCheck:
      switch schema {
      case .scalar(let scalar):
        return try TypedRead.decode(scalar, &container, ifPresent: false)
      case .optional(.scalar(let scalar)):
        return try TypedRead.decode(scalar, &container, ifPresent: true)
      case .optional(let wrapped):
        if try container.decodeNil() { return .null }
        return try readElement(wrapped, .typed, &container)
      case .array(let element, let elementAccess):
        var nested = try container.nestedUnkeyedContainer()
        return try readArray(element, elementAccess, &nested)
      case .dictionary(let value, let valueAccess):
        return try readDictionary(
          value, valueAccess, try container.nestedContainer(keyedBy: OracleKey.self))
      case .object(let fields):
        return try readObject(fields, try container.nestedContainer(keyedBy: OracleKey.self))
      case .stringKeyed, .intKeyed, .set, .native:
        var visitor = UnkeyedRead(container: container, ifPresent: false)
        let value = try acceptCollection(schema, &visitor)
        container = visitor.container
        return value
      }
    }
  }

  /// Reads a value of a Swift type from a single-value container.
  struct SingleValueRead: OracleTypeVisitor {
    let container: any SingleValueDecodingContainer
    func visit<T: OracleCodable>(_ type: T.Type) throws -> OracleValue {
      try container.decode(T.self).oracleValue
    }
  }

  /// Reads a member of a Swift type with the generic keyed method.
  struct KeyedRead: OracleTypeVisitor {
    let container: KeyedDecodingContainer<OracleKey>
    let key: OracleKey
    let ifPresent: Bool
    func visit<T: OracleCodable>(_ type: T.Type) throws -> OracleValue {
      if ifPresent {
        return try container.decodeIfPresent(T.self, forKey: key)?.oracleValue ?? .null
      }
      return try container.decode(T.self, forKey: key).oracleValue
    }
  }

  /// Reads an element of a Swift type with the generic unkeyed method.
  struct UnkeyedRead: OracleTypeVisitor {
    var container: any UnkeyedDecodingContainer
    let ifPresent: Bool
    mutating func visit<T: OracleCodable>(_ type: T.Type) throws -> OracleValue {
      if ifPresent { return try container.decodeIfPresent(T.self)?.oracleValue ?? .null }
      return try container.decode(T.self).oracleValue
    }
  }
}

/// Reads scalars with the container methods for each exact type.
enum TypedRead {
  static func decode(
    _ scalar: OracleScalar, _ c: KeyedDecodingContainer<OracleKey>, _ key: OracleKey,
    ifPresent: Bool
  ) throws -> OracleValue {
    if ifPresent {
      switch scalar {
      case .bool: return try c.decodeIfPresent(Bool.self, forKey: key)?.oracleValue ?? .null
      case .string: return try c.decodeIfPresent(String.self, forKey: key)?.oracleValue ?? .null
      case .double: return try c.decodeIfPresent(Double.self, forKey: key)?.oracleValue ?? .null
      case .float: return try c.decodeIfPresent(Float.self, forKey: key)?.oracleValue ?? .null
      case .int: return try c.decodeIfPresent(Int.self, forKey: key)?.oracleValue ?? .null
      case .int8: return try c.decodeIfPresent(Int8.self, forKey: key)?.oracleValue ?? .null
      case .int16: return try c.decodeIfPresent(Int16.self, forKey: key)?.oracleValue ?? .null
      case .int32: return try c.decodeIfPresent(Int32.self, forKey: key)?.oracleValue ?? .null
      case .int64: return try c.decodeIfPresent(Int64.self, forKey: key)?.oracleValue ?? .null
      case .uint: return try c.decodeIfPresent(UInt.self, forKey: key)?.oracleValue ?? .null
      case .uint8: return try c.decodeIfPresent(UInt8.self, forKey: key)?.oracleValue ?? .null
      case .uint16: return try c.decodeIfPresent(UInt16.self, forKey: key)?.oracleValue ?? .null
      case .uint32: return try c.decodeIfPresent(UInt32.self, forKey: key)?.oracleValue ?? .null
      case .uint64: return try c.decodeIfPresent(UInt64.self, forKey: key)?.oracleValue ?? .null
      }
    }
    switch scalar {
    case .bool: return try c.decode(Bool.self, forKey: key).oracleValue
    case .string: return try c.decode(String.self, forKey: key).oracleValue
    case .double: return try c.decode(Double.self, forKey: key).oracleValue
    case .float: return try c.decode(Float.self, forKey: key).oracleValue
    case .int: return try c.decode(Int.self, forKey: key).oracleValue
    case .int8: return try c.decode(Int8.self, forKey: key).oracleValue
    case .int16: return try c.decode(Int16.self, forKey: key).oracleValue
    case .int32: return try c.decode(Int32.self, forKey: key).oracleValue
    case .int64: return try c.decode(Int64.self, forKey: key).oracleValue
    case .uint: return try c.decode(UInt.self, forKey: key).oracleValue
    case .uint8: return try c.decode(UInt8.self, forKey: key).oracleValue
    case .uint16: return try c.decode(UInt16.self, forKey: key).oracleValue
    case .uint32: return try c.decode(UInt32.self, forKey: key).oracleValue
    case .uint64: return try c.decode(UInt64.self, forKey: key).oracleValue
    }
  }

  static func decode(
    _ scalar: OracleScalar, _ c: inout any UnkeyedDecodingContainer, ifPresent: Bool
  ) throws -> OracleValue {
    if ifPresent {
      switch scalar {
      case .bool: return try c.decodeIfPresent(Bool.self)?.oracleValue ?? .null
      case .string: return try c.decodeIfPresent(String.self)?.oracleValue ?? .null
      case .double: return try c.decodeIfPresent(Double.self)?.oracleValue ?? .null
      case .float: return try c.decodeIfPresent(Float.self)?.oracleValue ?? .null
      case .int: return try c.decodeIfPresent(Int.self)?.oracleValue ?? .null
      case .int8: return try c.decodeIfPresent(Int8.self)?.oracleValue ?? .null
      case .int16: return try c.decodeIfPresent(Int16.self)?.oracleValue ?? .null
      case .int32: return try c.decodeIfPresent(Int32.self)?.oracleValue ?? .null
      case .int64: return try c.decodeIfPresent(Int64.self)?.oracleValue ?? .null
      case .uint: return try c.decodeIfPresent(UInt.self)?.oracleValue ?? .null
      case .uint8: return try c.decodeIfPresent(UInt8.self)?.oracleValue ?? .null
      case .uint16: return try c.decodeIfPresent(UInt16.self)?.oracleValue ?? .null
      case .uint32: return try c.decodeIfPresent(UInt32.self)?.oracleValue ?? .null
      case .uint64: return try c.decodeIfPresent(UInt64.self)?.oracleValue ?? .null
      }
    }
    switch scalar {
    case .bool: return try c.decode(Bool.self).oracleValue
    case .string: return try c.decode(String.self).oracleValue
    case .double: return try c.decode(Double.self).oracleValue
    case .float: return try c.decode(Float.self).oracleValue
    case .int: return try c.decode(Int.self).oracleValue
    case .int8: return try c.decode(Int8.self).oracleValue
    case .int16: return try c.decode(Int16.self).oracleValue
    case .int32: return try c.decode(Int32.self).oracleValue
    case .int64: return try c.decode(Int64.self).oracleValue
    case .uint: return try c.decode(UInt.self).oracleValue
    case .uint8: return try c.decode(UInt8.self).oracleValue
    case .uint16: return try c.decode(UInt16.self).oracleValue
    case .uint32: return try c.decode(UInt32.self).oracleValue
    case .uint64: return try c.decode(UInt64.self).oracleValue
    }
  }
}

// MARK: - Encoding

/// Writes values of a schema through the Encoder protocol, with the same
/// choice of container calls as the reader.
enum OracleWriter {
  static func write(_ value: OracleValue, _ schema: OracleSchema, to encoder: any Encoder) throws {
    switch schema {
    case .scalar(let scalar):
      var visitor = SingleValueWrite(container: encoder.singleValueContainer(), value: value)
      try scalar.accept(&visitor)
    case .optional(let wrapped):
      if value == .null {
        var container = encoder.singleValueContainer()
        try container.encodeNil()
      } else {
        try write(value, wrapped, to: encoder)
      }
    case .array(let element, let access):
      var container = encoder.unkeyedContainer()
      try writeArray(value, element, access, &container)
    case .dictionary(let valueSchema, let access):
      var container = encoder.container(keyedBy: OracleKey.self)
      try writeDictionary(value, valueSchema, access, &container)
    case .object(let fields):
      var container = encoder.container(keyedBy: OracleKey.self)
      try writeObject(value, fields, &container)
    case .stringKeyed, .intKeyed, .set, .native:
      var visitor = SingleValueWrite(container: encoder.singleValueContainer(), value: value)
      try acceptCollection(schema, &visitor)
    }
  }

  static func acceptCollection<V: OracleWriteVisitor>(_ schema: OracleSchema, _ visitor: inout V)
    throws
  {
    switch schema {
    case .stringKeyed(let element):
      try visitor.write(
        try String.unwrap(visitor.value).mapValues { OracleInstance(value: $0, schema: element) })
    case .intKeyed(let element):
      try visitor.write(
        try Int.unwrap(visitor.value).mapValues { OracleInstance(value: $0, schema: element) })
    case .set(.int), .native(.intSet):
      // A Set encodes its elements in its own order, which differs between
      // equal instances: sorted, the output can be compared.
      try visitor.write(try Set<Int>(oracle: visitor.value).sorted())
    case .set, .native(.stringSet):
      try visitor.write(try Set<String>(oracle: visitor.value).sorted())
    case .native(let native): try native.accept(&visitor)
    default: throw OracleReaderError(description: "not a collection schema: \(schema)")
    }
  }

  static func writeArray(
    _ value: OracleValue, _ element: OracleSchema, _ access: OracleAccess,
    _ container: inout any UnkeyedEncodingContainer
  ) throws {
    guard case .array(let values) = value else {
      throw OracleReaderError(description: "not an array: \(value)")
    }
    for (index, item) in values.enumerated() {
      guard container.count == index else {
        throw EncodingError.invalidValue(
          value,
          .init(codingPath: container.codingPath, debugDescription: "count \(container.count)"))
      }
      try writeElement(item, element, access, &container)
    }
  }

  static func writeDictionary(
    _ value: OracleValue, _ schema: OracleSchema, _ access: OracleAccess,
    _ container: inout KeyedEncodingContainer<OracleKey>
  ) throws {
    guard case .object(let members) = value else {
      throw OracleReaderError(description: "not an object: \(value)")
    }
    // Sorted, so that unsorted output is the same on every run.
    for (key, member) in members.sorted(by: { $0.key < $1.key }) {
      try writeMember(member, schema, access, &container, OracleKey(stringValue: key))
    }
  }

  static func writeObject(
    _ value: OracleValue, _ fields: [OracleField],
    _ container: inout KeyedEncodingContainer<OracleKey>
  ) throws {
    guard case .object(let members) = value else {
      throw OracleReaderError(description: "not an object: \(value)")
    }
    // When the first field is an array or object written through a nested
    // container, and others follow, the container is asked for first and
    // filled last: Codable allows containers to be used out of order.
    var deferred: (() throws -> Void)?
    for (index, field) in fields.enumerated() {
      let member = members[field.name] ?? .null
      let key = OracleKey(stringValue: field.name)
      if index == 0, fields.count > 1, field.access == .typed {
        switch field.schema {
        case .array(let element, let elementAccess):
          var nested = container.nestedUnkeyedContainer(forKey: key)
          deferred = { try writeArray(member, element, elementAccess, &nested) }
          continue
        case .object(let nestedFields):
          var nested = container.nestedContainer(keyedBy: OracleKey.self, forKey: key)
          deferred = { try writeObject(member, nestedFields, &nested) }
          continue
        default:
          break
        }
      }
      try writeMember(member, field.schema, field.access, &container, key)
    }
    try deferred?()
  }

  static func writeMember(
    _ value: OracleValue, _ schema: OracleSchema, _ access: OracleAccess,
    _ container: inout KeyedEncodingContainer<OracleKey>, _ key: OracleKey
  ) throws {
    switch access {
    case .node:
      if schema.isOptional {
        try container.encodeIfPresent(
          value == .null ? nil : OracleInstance(value: value, schema: schema.unwrapped), forKey: key
        )
      } else {
        try container.encode(OracleInstance(value: value, schema: schema), forKey: key)
      }
    case .superDecoder:
      try write(value, schema, to: container.superEncoder(forKey: key))
    case .nilCheck where schema.isOptional:
      if value == .null {
        try container.encodeNil(forKey: key)
      } else {
        try writeMember(value, schema.unwrapped, .typed, &container, key)
      }
    case .generic:
      // An absent optional: what encodeIfPresent(nil) writes, nothing.
      if schema.isOptional && value == .null { return }
      var visitor = KeyedWrite(
        container: container, key: key, value: value, ifPresent: schema.isOptional)
      switch schema.unwrapped {
      case .scalar(let scalar): try scalar.accept(&visitor)
      case .stringKeyed, .intKeyed, .set, .native:
        try acceptCollection(schema.unwrapped, &visitor)
      default: return try writeMember(value, schema, .typed, &container, key)
      }
      container = visitor.container
    case .typed, .nilCheck:
      switch schema {
      case .scalar(let scalar):
        try TypedWrite.encode(scalar, value, &container, key, ifPresent: false)
      case .optional(.scalar(let scalar)):
        try TypedWrite.encode(scalar, value, &container, key, ifPresent: true)
      case .optional(let wrapped):
        if value != .null { try writeMember(value, wrapped, .typed, &container, key) }
      case .array(let element, let elementAccess):
        var nested = container.nestedUnkeyedContainer(forKey: key)
        try writeArray(value, element, elementAccess, &nested)
      case .dictionary(let valueSchema, let valueAccess):
        var nested = container.nestedContainer(keyedBy: OracleKey.self, forKey: key)
        try writeDictionary(value, valueSchema, valueAccess, &nested)
      case .object(let fields):
        var nested = container.nestedContainer(keyedBy: OracleKey.self, forKey: key)
        try writeObject(value, fields, &nested)
      case .stringKeyed, .intKeyed, .set, .native:
        var visitor = KeyedWrite(container: container, key: key, value: value, ifPresent: false)
        try acceptCollection(schema, &visitor)
        container = visitor.container
      }
    }
  }

  static func writeElement(
    _ value: OracleValue, _ schema: OracleSchema, _ access: OracleAccess,
    _ container: inout any UnkeyedEncodingContainer
  ) throws {
    switch access {
    case .node:
      if schema.isOptional && value == .null {
        try container.encodeNil()
      } else {
        try container.encode(OracleInstance(value: value, schema: schema))
      }
    case .superDecoder:
      try write(value, schema, to: container.superEncoder())
    case .generic where !schema.isOptional:
      var visitor = UnkeyedWrite(container: container, value: value)
      switch schema {
      case .scalar(let scalar): try scalar.accept(&visitor)
      case .stringKeyed, .intKeyed, .set, .native: try acceptCollection(schema, &visitor)
      default: return try writeElement(value, schema, .typed, &container)
      }
      container = visitor.container
    case .typed, .nilCheck, .generic:
      switch schema {
      case .scalar(let scalar):
        try TypedWrite.encode(scalar, value, &container)
      case .optional(let wrapped):
        if value == .null {
          try container.encodeNil()
        } else {
          try writeElement(value, wrapped, .typed, &container)
        }
      case .array(let element, let elementAccess):
        var nested = container.nestedUnkeyedContainer()
        try writeArray(value, element, elementAccess, &nested)
      case .dictionary(let valueSchema, let valueAccess):
        var nested = container.nestedContainer(keyedBy: OracleKey.self)
        try writeDictionary(value, valueSchema, valueAccess, &nested)
      case .object(let fields):
        var nested = container.nestedContainer(keyedBy: OracleKey.self)
        try writeObject(value, fields, &nested)
      case .stringKeyed, .intKeyed, .set, .native:
        var visitor = UnkeyedWrite(container: container, value: value)
        try acceptCollection(schema, &visitor)
        container = visitor.container
      }
    }
  }

  struct SingleValueWrite: OracleWriteVisitor {
    var container: any SingleValueEncodingContainer
    let value: OracleValue
    mutating func write<T: Encodable>(_ value: T) throws {
      try container.encode(value)
    }
  }

  struct KeyedWrite: OracleWriteVisitor {
    var container: KeyedEncodingContainer<OracleKey>
    let key: OracleKey
    let value: OracleValue
    let ifPresent: Bool
    mutating func visit<T: OracleCodable>(_ type: T.Type) throws {
      if ifPresent && value == .null {
        try container.encodeIfPresent(T?.none, forKey: key)
      } else {
        try write(try T(oracle: value))
      }
    }

    mutating func write<T: Encodable>(_ value: T) throws {
      if ifPresent {
        try container.encodeIfPresent(value, forKey: key)
      } else {
        try container.encode(value, forKey: key)
      }
    }
  }

  struct UnkeyedWrite: OracleWriteVisitor {
    var container: any UnkeyedEncodingContainer
    let value: OracleValue
    mutating func write<T: Encodable>(_ value: T) throws {
      try container.encode(value)
    }
  }
}

extension OracleNode: OracleCodable {
  var oracleValue: OracleValue { value }
  init(oracle: OracleValue) throws { self.init(value: oracle) }
}

/// Writes scalars with the container methods for each exact type.
enum TypedWrite {
  static func encode(
    _ scalar: OracleScalar, _ value: OracleValue, _ c: inout KeyedEncodingContainer<OracleKey>,
    _ key: OracleKey, ifPresent: Bool
  ) throws {
    if ifPresent {
      let absent = value == .null
      switch scalar {
      case .bool: try c.encodeIfPresent(absent ? nil : try Bool(oracle: value), forKey: key)
      case .string: try c.encodeIfPresent(absent ? nil : try String(oracle: value), forKey: key)
      case .double: try c.encodeIfPresent(absent ? nil : try Double(oracle: value), forKey: key)
      case .float: try c.encodeIfPresent(absent ? nil : try Float(oracle: value), forKey: key)
      case .int: try c.encodeIfPresent(absent ? nil : try Int(oracle: value), forKey: key)
      case .int8: try c.encodeIfPresent(absent ? nil : try Int8(oracle: value), forKey: key)
      case .int16: try c.encodeIfPresent(absent ? nil : try Int16(oracle: value), forKey: key)
      case .int32: try c.encodeIfPresent(absent ? nil : try Int32(oracle: value), forKey: key)
      case .int64: try c.encodeIfPresent(absent ? nil : try Int64(oracle: value), forKey: key)
      case .uint: try c.encodeIfPresent(absent ? nil : try UInt(oracle: value), forKey: key)
      case .uint8: try c.encodeIfPresent(absent ? nil : try UInt8(oracle: value), forKey: key)
      case .uint16: try c.encodeIfPresent(absent ? nil : try UInt16(oracle: value), forKey: key)
      case .uint32: try c.encodeIfPresent(absent ? nil : try UInt32(oracle: value), forKey: key)
      case .uint64: try c.encodeIfPresent(absent ? nil : try UInt64(oracle: value), forKey: key)
      }
      return
    }
    switch scalar {
    case .bool: try c.encode(try Bool(oracle: value), forKey: key)
    case .string: try c.encode(try String(oracle: value), forKey: key)
    case .double: try c.encode(try Double(oracle: value), forKey: key)
    case .float: try c.encode(try Float(oracle: value), forKey: key)
    case .int: try c.encode(try Int(oracle: value), forKey: key)
    case .int8: try c.encode(try Int8(oracle: value), forKey: key)
    case .int16: try c.encode(try Int16(oracle: value), forKey: key)
    case .int32: try c.encode(try Int32(oracle: value), forKey: key)
    case .int64: try c.encode(try Int64(oracle: value), forKey: key)
    case .uint: try c.encode(try UInt(oracle: value), forKey: key)
    case .uint8: try c.encode(try UInt8(oracle: value), forKey: key)
    case .uint16: try c.encode(try UInt16(oracle: value), forKey: key)
    case .uint32: try c.encode(try UInt32(oracle: value), forKey: key)
    case .uint64: try c.encode(try UInt64(oracle: value), forKey: key)
    }
  }

  static func encode(
    _ scalar: OracleScalar, _ value: OracleValue, _ c: inout any UnkeyedEncodingContainer
  ) throws {
    switch scalar {
    case .bool: try c.encode(try Bool(oracle: value))
    case .string: try c.encode(try String(oracle: value))
    case .double: try c.encode(try Double(oracle: value))
    case .float: try c.encode(try Float(oracle: value))
    case .int: try c.encode(try Int(oracle: value))
    case .int8: try c.encode(try Int8(oracle: value))
    case .int16: try c.encode(try Int16(oracle: value))
    case .int32: try c.encode(try Int32(oracle: value))
    case .int64: try c.encode(try Int64(oracle: value))
    case .uint: try c.encode(try UInt(oracle: value))
    case .uint8: try c.encode(try UInt8(oracle: value))
    case .uint16: try c.encode(try UInt16(oracle: value))
    case .uint32: try c.encode(try UInt32(oracle: value))
    case .uint64: try c.encode(try UInt64(oracle: value))
    }
  }
}
