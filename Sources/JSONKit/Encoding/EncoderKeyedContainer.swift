/// A keyed container writing one JSON object.
struct EncoderKeyedContainer<Key: CodingKey>: EncoderKeyedContainerMaking {
  let session: EncodingSession
  /// Where the number of the object written is kept in the session's
  /// `keyedContainerObjects`, so that the container can be given out again
  /// for another object (see ``SpareKeyedContainer``).
  let objectIndex: Int

  init(session: EncodingSession, objectIndex: Int) {
    self.session = session
    self.objectIndex = objectIndex
  }

  /// The number of the object written.
  @inline(__always)
  var container: Int { session.keyedContainerObjects[objectIndex].container }

  /// The index of `Key` in the session's key types.
  @inline(__always)
  private var keyType: Int { session.keyedContainerObjects[objectIndex].keyType }

  /// The maker of this type's containers, which the session keeps per key
  /// type.
  @inline(never)
  static func maker() -> KeyedEncodingContainerMaker<Key> {
    EncoderContainerMaker<Self>()
  }

  var codingPath: [any CodingKey] {
    session.codingPath(ofContainer: container)
  }

  /// Begins the member `key` and returns the slot for its value.
  @inline(__always)
  private func member(_ key: some CodingKey) -> EncodingSlot {
    session.beginMember(
      of: container, key: key, name: session.name(of: key, keyType: keyType, in: container))
  }

  /// ``member(_:)``, also returning where the member's text starts, so
  /// that it can be taken out if its value fails.
  @inline(__always)
  private func discardableMember(_ key: some CodingKey) -> (slot: EncodingSlot, start: Int) {
    session.beginDiscardableMember(
      of: container, key: key, name: session.name(of: key, keyType: keyType, in: container))
  }

  /// Takes out the member whose value failed with `error`, and returns the
  /// error.
  private func discarding(_ member: (slot: EncodingSlot, start: Int), _ error: any Error)
    -> any Error
  {
    session.discardMember(member.slot, startingAt: member.start)
    return error
  }

  mutating func encodeNil(forKey key: Key) throws {
    session.writeScalar(into: member(key)) { $0.append("null") }
  }

  mutating func encode(_ value: Bool, forKey key: Key) throws {
    session.writeScalar(into: member(key)) { $0.append(value ? "true" : "false") }
  }

  mutating func encode(_ value: String, forKey key: Key) throws {
    let member = discardableMember(key)
    do {
      try session.writeScalar(into: member.slot) { try $0.writeQuotedChecked(value) }
    } catch {
      throw discarding(member, error)
    }
  }

  mutating func encode(_ value: Double, forKey key: Key) throws {
    let member = discardableMember(key)
    do { try session.write(value, into: member.slot) } catch { throw discarding(member, error) }
  }

  mutating func encode(_ value: Float, forKey key: Key) throws {
    let member = discardableMember(key)
    do { try session.write(value, into: member.slot) } catch { throw discarding(member, error) }
  }

  mutating func encode(_ value: Int, forKey key: Key) throws {
    session.writeScalar(into: member(key)) { $0.write(integer: value) }
  }

  mutating func encode(_ value: Int8, forKey key: Key) throws {
    session.writeScalar(into: member(key)) { $0.write(integer: value) }
  }

  mutating func encode(_ value: Int16, forKey key: Key) throws {
    session.writeScalar(into: member(key)) { $0.write(integer: value) }
  }

  mutating func encode(_ value: Int32, forKey key: Key) throws {
    session.writeScalar(into: member(key)) { $0.write(integer: value) }
  }

  mutating func encode(_ value: Int64, forKey key: Key) throws {
    session.writeScalar(into: member(key)) { $0.write(integer: value) }
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: Int128, forKey key: Key) throws {
    session.writeScalar(into: member(key)) { $0.write(value) }
  }

  mutating func encode(_ value: UInt, forKey key: Key) throws {
    session.writeScalar(into: member(key)) { $0.write(integer: value) }
  }

  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    session.writeScalar(into: member(key)) { $0.write(integer: value) }
  }

  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    session.writeScalar(into: member(key)) { $0.write(integer: value) }
  }

  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    session.writeScalar(into: member(key)) { $0.write(integer: value) }
  }

  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    session.writeScalar(into: member(key)) { $0.write(integer: value) }
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: UInt128, forKey key: Key) throws {
    session.writeScalar(into: member(key)) { $0.write(value) }
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    let member = discardableMemberOutOfLine(key)
    do {
      try session.encode(value, into: member.slot)
    } catch {
      session.discardMemberOfEncodedValue(member.slot, startingAt: member.start)
      throw error
    }
  }

  /// ``discardableMember(_:)`` out of line, for values that may nest: the
  /// work of beginning a member then stays out of the frame that waits for
  /// the value, one frame per level of nesting, so that the default
  /// `maxDepth` of a recursive model fits a small stack.
  @inline(never)
  private func discardableMemberOutOfLine(_ key: Key) -> (slot: EncodingSlot, start: Int) {
    discardableMember(key)
  }

  /// Begins the member `key` for a nested container, which shares an object
  /// or array already written for `key`, as in Foundation.
  private func containerMember(_ key: Key) -> EncodingSlot {
    session.beginContainerMember(
      of: container, key: key, name: session.name(of: key, keyType: keyType, in: container))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = session.openContainer(in: containerMember(key), isObject: true, isNested: true)
    return session.keyedContainer(nested, keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = session.openContainer(in: containerMember(key), isObject: false, isNested: true)
    return EncoderUnkeyedContainer(session: session, container: nested)
  }

  /// Begins the member `key` for a super encoder.
  private func superEncoderMember(_ key: some CodingKey) -> EncodingSlot {
    session.beginSuperEncoderMember(
      of: container, key: key, name: session.name(of: key, in: container))
  }

  mutating func superEncoder() -> any Encoder {
    SlotEncoder(session: session, slot: superEncoderMember(AnyCodingKey(stringValue: "super")))
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    SlotEncoder(session: session, slot: superEncoderMember(key))
  }
}
