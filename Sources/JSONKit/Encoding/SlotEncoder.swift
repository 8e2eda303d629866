/// The `Encoder` JSONKit hands to `encode(to:)`: a session and the slot the
/// value goes into. It is also its own single-value container.
///
/// Three words in all, so passing it as `any Encoder` stores it inline in the
/// existential: descending into a nested value allocates nothing.
struct SlotEncoder: Encoder, SingleValueEncodingContainer {
  let session: EncodingSession
  let slot: EncodingSlot

  var codingPath: [any CodingKey] {
    session.codingPath(of: slot)
  }

  var userInfo: [CodingUserInfoKey: Any] {
    session.userInfo
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    session.keyedContainer(session.openContainer(in: slot, isObject: true), keyedBy: type)
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    EncoderUnkeyedContainer(
      session: session, container: session.openContainer(in: slot, isObject: false))
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    self
  }

  // MARK: - SingleValueEncodingContainer

  mutating func encodeNil() throws {
    session.writeScalar(into: slot) { $0.append("null") }
  }

  mutating func encode(_ value: Bool) throws {
    session.writeScalar(into: slot) { $0.append(value ? "true" : "false") }
  }

  // A string is refused once written, and a non-conforming float's text
  // may be: what was written is taken out again, as for a failed value.

  mutating func encode(_ value: String) throws {
    try session.discardingOnError(slot) {
      try session.writeScalar(into: slot) { try $0.writeQuotedChecked(value) }
    }
  }

  mutating func encode(_ value: Double) throws {
    if value.isFinite { return try session.write(value, into: slot) }
    try session.discardingOnError(slot) { try session.write(value, into: slot) }
  }

  mutating func encode(_ value: Float) throws {
    if value.isFinite { return try session.write(value, into: slot) }
    try session.discardingOnError(slot) { try session.write(value, into: slot) }
  }

  mutating func encode(_ value: Int) throws {
    session.writeScalar(into: slot) { $0.write(integer: value) }
  }

  mutating func encode(_ value: Int8) throws {
    session.writeScalar(into: slot) { $0.write(integer: value) }
  }

  mutating func encode(_ value: Int16) throws {
    session.writeScalar(into: slot) { $0.write(integer: value) }
  }

  mutating func encode(_ value: Int32) throws {
    session.writeScalar(into: slot) { $0.write(integer: value) }
  }

  mutating func encode(_ value: Int64) throws {
    session.writeScalar(into: slot) { $0.write(integer: value) }
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: Int128) throws {
    session.writeScalar(into: slot) { $0.write(value) }
  }

  mutating func encode(_ value: UInt) throws {
    session.writeScalar(into: slot) { $0.write(integer: value) }
  }

  mutating func encode(_ value: UInt8) throws {
    session.writeScalar(into: slot) { $0.write(integer: value) }
  }

  mutating func encode(_ value: UInt16) throws {
    session.writeScalar(into: slot) { $0.write(integer: value) }
  }

  mutating func encode(_ value: UInt32) throws {
    session.writeScalar(into: slot) { $0.write(integer: value) }
  }

  mutating func encode(_ value: UInt64) throws {
    session.writeScalar(into: slot) { $0.write(integer: value) }
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: UInt128) throws {
    session.writeScalar(into: slot) { $0.write(value) }
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try session.encodeSingleValue(value, into: slot)
  }
}
