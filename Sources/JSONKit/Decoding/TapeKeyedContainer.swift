/// A keyed container over one object on the tape.
///
/// Lookups try the member after the previous match first, then find the
/// member by its name id, whatever the order of the object's keys (see
/// ``KeyedLookup/lookup(_:inObject:findsLast:)``); unknown members are
/// never decoded, only skipped.
struct TapeKeyedContainer<Key: CodingKey>: TapeKeyedContainerMaking {
  let session: DecodingSession
  /// Where the container's object and lookup state are kept in the
  /// session, so that the container can be given out again for another
  /// object (see ``SpareKeyedContainer``). Copying the container, which the
  /// standard library's container box does for most calls, retains the
  /// session alone.
  let stateIndex: Int

  /// The maker of this type's containers, which ``CodingKeyTypes`` keeps.
  @inline(never)
  static func maker() -> KeyedContainerMaker<Key> {
    ContainerMaker<Self>()
  }

  init(session: DecodingSession, stateIndex: Int) {
    self.session = session
    self.stateIndex = stateIndex
  }

  /// The object read and how its members are found.
  @inline(__always)
  private var state: KeyedObjectState { session.keyedObjects[stateIndex] }

  /// The tape index of the object read.
  @inline(__always)
  private var object: Int { state.object }

  /// How the object's members are found.
  @inline(__always)
  private var names: KeyedObjectState.MemberNames { state.names }

  var codingPath: [any CodingKey] {
    session.codingPaths.path(to: object)
  }

  var allKeys: [Key] {
    session.unknownKeys?.readsAll(object)
    var keys: [Key] = []
    keys.reserveCapacity(session[object].childCount)
    switch names {
    case .custom(let list):
      var seen = Set<String>()
      for name in session.keyedLookup.customNames(list) where seen.insert(name).inserted {
        if let key = Key(stringValue: name) { keys.append(key) }
      }
    case .byID(let findsLast):
      // Equal names have equal name ids: the first member of each name
      // stands for it, as the last one's value does.
      var seen = Set<UInt32>()
      for member in session.keyedLookup.members(ofObject: object) {
        if findsLast, !seen.insert(session.keyedLookup.nameID(ofKey: member.id)).inserted {
          continue
        }
        if let key = Key(stringValue: session.keyedLookup.name(ofKey: member.id)) {
          keys.append(key)
        }
      }
    }
    return keys
  }

  func contains(_ key: Key) -> Bool {
    lookup(key) != nil
  }

  @inline(__always)
  private func lookup(_ key: Key) -> Int? {
    // Synthesized coding keys are enums without payloads: one byte (none
    // for one case), which tells the key, and so its name, apart.
    let state = self.state
    guard state.keyType < CodingKeyTypes.namedByValueLimit,
      let value = CodingKeyTypes.valueByte(of: key), case .byID(let findsLast) = state.names
    else { return lookup(key.stringValue) }
    let found = session.keyedLookup.lookup(
      keyValue: value, keyType: state.keyType,
      type: ObjectIdentifier(Key.self), name: { key.stringValue }, inObject: state.object,
      findsLast: findsLast)
    if let unknownKeys = session.unknownKeys, let found { unknownKeys.found(found) }
    return found
  }

  @inline(__always)
  private func lookup(_ name: String) -> Int? {
    let state = self.state
    let found: Int?
    switch state.names {
    case .byID(let findsLast):
      found = session.keyedLookup.lookup(name, inObject: state.object, findsLast: findsLast)
    case .custom(let list):
      found = session.keyedLookup.lookup(name, inObject: state.object, customNames: list)
    }
    // Under `.reject`, what was found is known (see ``UnknownKeyCheck``).
    if let unknownKeys = session.unknownKeys, let found { unknownKeys.found(found) }
    return found
  }

  /// The tape index of the value for `key`, or `keyNotFound`.
  @inline(__always)
  private func valueIndex(_ key: Key) throws -> Int {
    guard let index = lookup(key) else {
      throw DecodingErrors.keyNotFound(key, path: codingPath)
    }
    return index
  }

  /// The tape index of the value for `key` unless it is absent or null.
  @inline(__always)
  private func presentIndex(_ key: Key) -> Int? {
    guard let index = lookup(key), session[index].kind != .null else { return nil }
    return index
  }

  private func path(_ key: Key) -> [any CodingKey] {
    codingPath + [key]
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    session[try valueIndex(key)].kind == .null
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    let i = try valueIndex(key)
    return try session.bool(at: i, path: path(key))
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    guard let i = presentIndex(key) else { return nil }
    return try session.bool(at: i, path: path(key))
  }

  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    let i = try valueIndex(key)
    return try session.string(at: i, path: path(key))
  }

  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    guard let i = presentIndex(key) else { return nil }
    return try session.string(at: i, path: path(key))
  }

  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    let i = try valueIndex(key)
    return try session.double(at: i, path: path(key))
  }

  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    guard let i = presentIndex(key) else { return nil }
    return try session.double(at: i, path: path(key))
  }

  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    let i = try valueIndex(key)
    return try session.float(at: i, path: path(key))
  }

  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
    guard let i = presentIndex(key) else { return nil }
    return try session.float(at: i, path: path(key))
  }

  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    let i = try valueIndex(key)
    return try session.integer(type, at: i, path: path(key))
  }

  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    guard let i = presentIndex(key) else { return nil }
    return try session.integer(type, at: i, path: path(key))
  }

  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    let i = try valueIndex(key)
    return try session.integer(type, at: i, path: path(key))
  }

  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
    guard let i = presentIndex(key) else { return nil }
    return try session.integer(type, at: i, path: path(key))
  }

  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    let i = try valueIndex(key)
    return try session.integer(type, at: i, path: path(key))
  }

  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
    guard let i = presentIndex(key) else { return nil }
    return try session.integer(type, at: i, path: path(key))
  }

  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    let i = try valueIndex(key)
    return try session.integer(type, at: i, path: path(key))
  }

  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
    guard let i = presentIndex(key) else { return nil }
    return try session.integer(type, at: i, path: path(key))
  }

  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    let i = try valueIndex(key)
    return try session.integer(type, at: i, path: path(key))
  }

  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    guard let i = presentIndex(key) else { return nil }
    return try session.integer(type, at: i, path: path(key))
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
    let i = try valueIndex(key)
    return try session.integer(type, at: i, path: path(key))
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
    guard let i = presentIndex(key) else { return nil }
    return try session.integer(type, at: i, path: path(key))
  }

  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    let i = try valueIndex(key)
    return try session.integer(type, at: i, path: path(key))
  }

  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
    guard let i = presentIndex(key) else { return nil }
    return try session.integer(type, at: i, path: path(key))
  }

  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    let i = try valueIndex(key)
    return try session.integer(type, at: i, path: path(key))
  }

  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
    guard let i = presentIndex(key) else { return nil }
    return try session.integer(type, at: i, path: path(key))
  }

  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    let i = try valueIndex(key)
    return try session.integer(type, at: i, path: path(key))
  }

  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
    guard let i = presentIndex(key) else { return nil }
    return try session.integer(type, at: i, path: path(key))
  }

  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    let i = try valueIndex(key)
    return try session.integer(type, at: i, path: path(key))
  }

  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
    guard let i = presentIndex(key) else { return nil }
    return try session.integer(type, at: i, path: path(key))
  }

  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    let i = try valueIndex(key)
    return try session.integer(type, at: i, path: path(key))
  }

  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
    guard let i = presentIndex(key) else { return nil }
    return try session.integer(type, at: i, path: path(key))
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
    let i = try valueIndex(key)
    return try session.integer(type, at: i, path: path(key))
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
    guard let i = presentIndex(key) else { return nil }
    return try session.integer(type, at: i, path: path(key))
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    let i = try valueIndex(key)
    return try session.unwrap(type, at: i, key: key, path: path(key))
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let i = presentIndex(key) else { return nil }
    return try session.unwrap(type, at: i, key: key, path: path(key))
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try memberDecoder(try valueIndex(key), key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try memberDecoder(try valueIndex(key), key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    superDecoder(AnyCodingKey(stringValue: "super"))
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    superDecoder(key)
  }

  /// A decoder for the member `key`, or for `null` when it is absent, as
  /// Foundation does.
  private func superDecoder(_ key: any CodingKey) -> TapeDecoder {
    if let index = lookup(key.stringValue) {
      // What the super decoder's user reads of an object is checked with
      // this container's object; reading nothing leaves it all unknown.
      if let unknownKeys = session.unknownKeys, session[index].kind == .object {
        unknownKeys.reads(index)
      }
      return memberDecoder(index, key)
    }
    return TapeDecoder(
      session: session, index: session.absentIndex, explicitPath: codingPath + [key])
  }

  /// A decoder for the member value at `index`, which outlives this call:
  /// the session keeps `key` for the paths through it.
  private func memberDecoder(_ index: Int, _ key: any CodingKey) -> TapeDecoder {
    session.codingPaths.remember(key, forValue: index)
    return TapeDecoder(session: session, index: index)
  }
}

/// The object a keyed container reads and how its members are found, kept
/// in the session by the index the container holds.
struct KeyedObjectState {
  /// The tape index of the object.
  let object: Int
  /// How its members are found.
  let names: MemberNames
  /// The index in ``CodingKeyTypes`` of the key type that reads it.
  let keyType: Int

  enum MemberNames {
    /// By name id; `findsLast` when two members share a name, so that
    /// lookups must find the last.
    case byID(findsLast: Bool)
    /// Under the custom key strategy: the session's list of the names of
    /// the members (see ``KeyedLookup/keepCustomNames(ofObject:path:)``); lookups
    /// find the last of equal names.
    case custom(list: Int)
  }

  /// The state for reading the object of `decoder` by keys of the key type
  /// at `keyType` in ``CodingKeyTypes``, with its lookups readied.
  init(_ decoder: TapeDecoder, keyType: Int) {
    let session = decoder.session
    object = decoder.index
    self.keyType = keyType
    if case .custom = session.options.keyDecodingStrategy {
      names = .custom(
        list: session.keyedLookup.keepCustomNames(ofObject: object, path: decoder.codingPath))
    } else {
      names = .byID(
        findsLast: session.keyedLookup.beginLookups(inObject: object, keyType: keyType))
    }
  }
}
