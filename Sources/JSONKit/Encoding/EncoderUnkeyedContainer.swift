/// An unkeyed container writing one JSON array.
struct EncoderUnkeyedContainer: UnkeyedEncodingContainer {
  let session: EncodingSession
  let container: Int

  var codingPath: [any CodingKey] {
    session.codingPath(ofContainer: container)
  }

  var count: Int {
    session.count(of: container)
  }

  /// Begins the next element and returns the slot for it.
  @inline(__always)
  private func element() -> EncodingSlot {
    session.beginElement(of: container).slot
  }

  /// ``element()``, also returning where the element's text starts, so
  /// that it can be taken out if its value fails.
  @inline(__always)
  private func discardableElement() -> (slot: EncodingSlot, start: Int) {
    session.beginElement(of: container)
  }

  /// Takes out the element whose value failed with `error`, and returns the
  /// error.
  private func discarding(_ element: (slot: EncodingSlot, start: Int), _ error: any Error)
    -> any Error
  {
    session.discardMember(element.slot, startingAt: element.start)
    return error
  }

  mutating func encodeNil() throws {
    session.writeScalar(into: element()) { $0.append("null") }
  }

  mutating func encode(_ value: Bool) throws {
    session.writeScalar(into: element()) { $0.append(value ? "true" : "false") }
  }

  mutating func encode(_ value: String) throws {
    let element = discardableElement()
    do {
      try session.writeScalar(into: element.slot) { try $0.writeQuotedChecked(value) }
    } catch {
      throw discarding(element, error)
    }
  }

  mutating func encode(_ value: Double) throws {
    let element = discardableElement()
    do { try session.write(value, into: element.slot) } catch { throw discarding(element, error) }
  }

  mutating func encode(_ value: Float) throws {
    let element = discardableElement()
    do { try session.write(value, into: element.slot) } catch { throw discarding(element, error) }
  }

  mutating func encode(_ value: Int) throws {
    session.writeScalar(into: element()) { $0.write(integer: value) }
  }

  mutating func encode(_ value: Int8) throws {
    session.writeScalar(into: element()) { $0.write(integer: value) }
  }

  mutating func encode(_ value: Int16) throws {
    session.writeScalar(into: element()) { $0.write(integer: value) }
  }

  mutating func encode(_ value: Int32) throws {
    session.writeScalar(into: element()) { $0.write(integer: value) }
  }

  mutating func encode(_ value: Int64) throws {
    session.writeScalar(into: element()) { $0.write(integer: value) }
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: Int128) throws {
    session.writeScalar(into: element()) { $0.write(value) }
  }

  mutating func encode(_ value: UInt) throws {
    session.writeScalar(into: element()) { $0.write(integer: value) }
  }

  mutating func encode(_ value: UInt8) throws {
    session.writeScalar(into: element()) { $0.write(integer: value) }
  }

  mutating func encode(_ value: UInt16) throws {
    session.writeScalar(into: element()) { $0.write(integer: value) }
  }

  mutating func encode(_ value: UInt32) throws {
    session.writeScalar(into: element()) { $0.write(integer: value) }
  }

  mutating func encode(_ value: UInt64) throws {
    session.writeScalar(into: element()) { $0.write(integer: value) }
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: UInt128) throws {
    session.writeScalar(into: element()) { $0.write(value) }
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let element = discardableElementOutOfLine()
    do {
      try session.encode(value, into: element.slot)
    } catch {
      session.discardMemberOfEncodedValue(element.slot, startingAt: element.start)
      throw error
    }
  }

  /// ``discardableElement()`` out of line, for values that may nest (see
  /// `EncoderKeyedContainer.discardableMemberOutOfLine(_:)`).
  @inline(never)
  private func discardableElementOutOfLine() -> (slot: EncodingSlot, start: Int) {
    discardableElement()
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = session.openContainer(in: element(), isObject: true, isNested: true)
    return session.keyedContainer(nested, keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = session.openContainer(in: element(), isObject: false, isNested: true)
    return EncoderUnkeyedContainer(session: session, container: nested)
  }

  mutating func superEncoder() -> any Encoder {
    // Foundation adds the super-encoder's element (at the index it had when
    // asked for) only when the super-encoder is released, so until then its
    // `count` leaves it out. When that happens depends on ARC, not on the
    // code, so the element is begun, and counted, here.
    SlotEncoder(session: session, slot: element())
  }
}
