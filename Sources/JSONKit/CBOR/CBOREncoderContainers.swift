import Foundation

/// The `Encoder` ``JKCBOREncoder`` hands to `encode(to:)`: a session and
/// the slot the value goes into. It is also its own single-value container.
struct CBORSlotEncoder: Encoder, SingleValueEncodingContainer {
  let session: CBOREncodingSession
  let slot: CBORSlot

  var codingPath: [any CodingKey] { session.codingPath(of: slot) }
  var userInfo: [CodingUserInfoKey: Any] { session.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    session.keyedContainer(session.openMap(in: slot, keyedBy: type), keyedBy: type)
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    CBORUnkeyedContainer(session: session, container: session.openContainer(in: slot, isMap: false))
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  mutating func encodeNil() throws {
    session.writeItem(into: slot, holdsNoStrings: true) { $0.append(0xF6) }
  }
  mutating func encode(_ value: Bool) throws { session.write(value, into: slot) }
  mutating func encode(_ value: String) throws { session.write(value, into: slot) }
  mutating func encode(_ value: Double) throws { session.write(value, into: slot) }
  mutating func encode(_ value: Float) throws { session.write(Double(value), into: slot) }
  mutating func encode(_ value: Int) throws { session.write(Int64(value), into: slot) }
  mutating func encode(_ value: Int8) throws { session.write(Int64(value), into: slot) }
  mutating func encode(_ value: Int16) throws { session.write(Int64(value), into: slot) }
  mutating func encode(_ value: Int32) throws { session.write(Int64(value), into: slot) }
  mutating func encode(_ value: Int64) throws { session.write(value, into: slot) }
  mutating func encode(_ value: UInt) throws { session.write(UInt64(value), into: slot) }
  mutating func encode(_ value: UInt8) throws { session.write(UInt64(value), into: slot) }
  mutating func encode(_ value: UInt16) throws { session.write(UInt64(value), into: slot) }
  mutating func encode(_ value: UInt32) throws { session.write(UInt64(value), into: slot) }
  mutating func encode(_ value: UInt64) throws { session.write(value, into: slot) }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: Int128) throws { session.write(value, into: slot) }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: UInt128) throws { session.write(value, into: slot) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try session.encodeSingleValue(value, into: slot)
  }
}

/// A keyed container writing one CBOR map.
struct CBORKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let session: CBOREncodingSession
  /// Where the number of the map written is kept in the session's
  /// `keyedContainerMaps`, so that the container can be given out again for
  /// another map.
  let mapIndex: Int

  /// The number of the map written.
  @inline(__always)
  var container: Int { session.keyedContainerMaps[mapIndex] }

  var codingPath: [any CodingKey] { session.codingPath(ofContainer: container) }

  @inline(__always)
  private func member(_ key: Key) -> CBORSlot {
    session.beginMember(of: container, key: key)
  }

  mutating func encodeNil(forKey key: Key) throws {
    session.writeItem(into: member(key), holdsNoStrings: true) { $0.append(0xF6) }
  }

  /// Writes a scalar under `key`.
  @inline(__always)
  private func put<Value: CBORScalar>(_ value: Value, _ key: Key) {
    value.write(into: member(key), of: session)
  }

  /// Writes a scalar under `key` unless it is nil.
  @inline(__always)
  private func put<Value: CBORScalar>(_ value: Value?, _ key: Key) {
    if let value { value.write(into: member(key), of: session) }
  }

  mutating func encode(_ value: Bool, forKey key: Key) throws { put(value, key) }
  mutating func encode(_ value: String, forKey key: Key) throws { put(value, key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { put(value, key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { put(value, key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { put(value, key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { put(value, key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { put(value, key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { put(value, key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { put(value, key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { put(value, key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { put(value, key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { put(value, key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { put(value, key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { put(value, key) }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: Int128, forKey key: Key) throws { put(value, key) }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: UInt128, forKey key: Key) throws { put(value, key) }

  // Optionals are written here rather than by the protocol's default
  // implementations, which look up the metadata of `Optional<T>` for every
  // member.

  mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { put(value, key) }
  mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { put(value, key) }
  mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { put(value, key) }
  mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { put(value, key) }
  mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { put(value, key) }
  mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { put(value, key) }
  mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { put(value, key) }
  mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { put(value, key) }
  mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { put(value, key) }
  mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { put(value, key) }
  mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { put(value, key) }
  mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { put(value, key) }
  mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { put(value, key) }
  mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { put(value, key) }

  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) }
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try session.encode(value, intoMember: memberOutOfLine(key))
  }

  /// ``member(_:)`` out of line, for values that may nest, so that the
  /// frame that waits for the value stays small.
  @inline(never)
  private func memberOutOfLine(_ key: Key) -> CBORSlot {
    member(key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let slot = session.beginMember(of: container, key: key, keepingValue: true)
    return session.keyedContainer(
      session.openContainer(in: slot, isMap: true, isNested: true), keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let slot = session.beginMember(of: container, key: key, keepingValue: true)
    return CBORUnkeyedContainer(
      session: session, container: session.openContainer(in: slot, isMap: false, isNested: true))
  }

  mutating func superEncoder() -> any Encoder {
    CBORSlotEncoder(
      session: session,
      slot: session.beginMember(of: container, key: AnyCodingKey(stringValue: "super")))
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    CBORSlotEncoder(session: session, slot: member(key))
  }
}

/// What makes ``CBORKeyedContainer``s by one key type, kept per key type
/// in the session, giving out again a container no code holds any more
/// (see ``SpareKeyedContainer``).
final class CBORKeyedContainerMaker<Key: CodingKey>: TypedSpareKeyedContainer<
  KeyedEncodingContainer<Key>
>
{
  /// A maker for the session to keep, made out of line.
  @inline(never)
  static func make() -> CBORKeyedContainerMaker<Key> { CBORKeyedContainerMaker<Key>() }

  func container(_ session: CBOREncodingSession, _ container: Int) -> KeyedEncodingContainer<Key> {
    self.container(
      for: container, in: &session.keyedContainerMaps, of: session,
      keeps: session.keepsSpareContainers
    ) { KeyedEncodingContainer(CBORKeyedContainer<Key>(session: session, mapIndex: $0)) }
  }
}

/// An unkeyed container writing one CBOR array.
struct CBORUnkeyedContainer: UnkeyedEncodingContainer {
  let session: CBOREncodingSession
  let container: Int

  var codingPath: [any CodingKey] { session.codingPath(ofContainer: container) }
  var count: Int { session.count(of: container) }

  @inline(__always)
  private func element() -> CBORSlot { session.beginElement(of: container) }

  mutating func encodeNil() throws {
    session.writeItem(into: element(), holdsNoStrings: true) { $0.append(0xF6) }
  }
  mutating func encode(_ value: Bool) throws { session.write(value, into: element()) }
  mutating func encode(_ value: String) throws { session.write(value, into: element()) }
  mutating func encode(_ value: Double) throws { session.write(value, into: element()) }
  mutating func encode(_ value: Float) throws { session.write(Double(value), into: element()) }
  mutating func encode(_ value: Int) throws { session.write(Int64(value), into: element()) }
  mutating func encode(_ value: Int8) throws { session.write(Int64(value), into: element()) }
  mutating func encode(_ value: Int16) throws { session.write(Int64(value), into: element()) }
  mutating func encode(_ value: Int32) throws { session.write(Int64(value), into: element()) }
  mutating func encode(_ value: Int64) throws { session.write(value, into: element()) }
  mutating func encode(_ value: UInt) throws { session.write(UInt64(value), into: element()) }
  mutating func encode(_ value: UInt8) throws { session.write(UInt64(value), into: element()) }
  mutating func encode(_ value: UInt16) throws { session.write(UInt64(value), into: element()) }
  mutating func encode(_ value: UInt32) throws { session.write(UInt64(value), into: element()) }
  mutating func encode(_ value: UInt64) throws { session.write(value, into: element()) }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: Int128) throws { session.write(value, into: element()) }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: UInt128) throws { session.write(value, into: element()) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try session.encode(value, intoMember: elementOutOfLine())
  }

  @inline(never)
  private func elementOutOfLine() -> CBORSlot { element() }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    session.keyedContainer(
      session.openContainer(in: element(), isMap: true, isNested: true), keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    CBORUnkeyedContainer(
      session: session,
      container: session.openContainer(in: element(), isMap: false, isNested: true))
  }

  mutating func superEncoder() -> any Encoder {
    CBORSlotEncoder(session: session, slot: element())
  }
}
