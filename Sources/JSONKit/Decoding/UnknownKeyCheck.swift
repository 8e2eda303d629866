/// What ``JKDecoder/UnknownKeyStrategy/reject`` takes: which members of
/// each object a model asked about, and the check that it asked about all
/// of them once its `init(from:)` has returned.
///
/// Only a session that rejects unknown keys has one, and only its keyed
/// containers are ``KeyCheckingContainer``s, so decoding that ignores
/// unknown keys runs exactly as without it.
///
/// An object is checked when the decode of the value that holds it
/// succeeds: the `init(from:)` of the object itself, or of the nearest value
/// around it that the decoder decoded (a nested keyed container, or a
/// superclass's object behind `superDecoder()`, is read by its parent's
/// `init(from:)`). Objects inside a value whose decode failed are forgotten,
/// so that a model that swallows an element's error with `try?` is not told
/// about keys of the element it dropped.
final class UnknownKeyCheck {
  /// What was asked about in one object.
  private enum Asked {
    /// These names, as `CodingKey.stringValue`s.
    case names(Set<String>)
    /// Every member, through `allKeys`.
    case all
  }

  /// Per object read through a keyed container, what was asked about in it.
  private var asked: [Int: Asked] = [:]
  /// The objects read through keyed containers and not checked yet.
  private var pending: [Int] = []
  /// The values whose decode is running, each checked when its outermost
  /// decode returns.
  private var running: Set<Int> = []

  /// Notes that a keyed container reads the object at `object`.
  func reads(_ object: Int) {
    if asked[object] == nil {
      asked[object] = .names([])
      pending.append(object)
    }
  }

  /// Notes that `name` was asked for in the object at `object`.
  func asked(_ name: String, inObject object: Int) {
    guard case .names(var names) = asked[object] else { return }
    // Emptied first, so that the set is not copied to insert into it.
    asked[object] = .all
    names.insert(name)
    asked[object] = .names(names)
  }

  /// Notes that every member of the object at `object` was asked for.
  func askedAll(inObject object: Int) {
    asked[object] = .all
  }

  /// Runs `decode`, the decode of the value at `index`, and then checks the
  /// objects read inside it, unless a decode of the same value is running
  /// already, which checks them when it returns.
  @inline(never)
  func checking<T>(_ index: Int, in session: DecodingSession, _ decode: () throws -> T) throws
    -> T
  {
    guard running.insert(index).inserted else { return try decode() }
    defer { running.remove(index) }
    let end = session.indexAfter(index)
    let value: T
    do {
      value = try decode()
    } catch {
      forget(from: index, to: end)
      throw error
    }
    try check(from: index, to: end, in: session)
    return value
  }

  /// Checks every object still unchecked, when the whole decode succeeded.
  func checkRest(in session: DecodingSession) throws {
    try check(from: 0, to: Int.max, in: session)
  }

  private func forget(from start: Int, to end: Int) {
    pending.removeAll { object in
      guard object >= start, object < end else { return false }
      asked[object] = nil
      return true
    }
  }

  private func check(from start: Int, to end: Int, in session: DecodingSession) throws {
    var inside: [Int] = []
    pending.removeAll { object in
      guard object >= start, object < end else { return false }
      inside.append(object)
      return true
    }
    for object in inside.sorted() {
      guard case .names(let names) = asked.removeValue(forKey: object) else { continue }
      if let key = session.firstMember(ofObject: object, notIn: names) {
        throw DecodingErrors.unknownKey(
          session.rawKey(session[key]), path: session.codingPath(to: object), keyAt: key)
      }
    }
  }
}

extension DecodingSession {
  /// The tape index of the key of the first member of the object at
  /// `object` whose name, as the key strategy names it, is not in `names`.
  func firstMember(ofObject object: Int, notIn names: Set<String>) -> Int? {
    if case .custom = options.keyDecodingStrategy {
      let named = customKeyNames(ofObject: object, path: codingPath(to: object))
      return zip(members(ofObject: object), named).first { !names.contains($1) }?.0.key
    }
    return members(ofObject: object).first { !names.contains(keyName($0.key)) }?.key
  }

  /// Decodes `type` by its `init(from:)` from the value at `index`, and
  /// when unknown keys are rejected, checks the objects read inside it.
  @inline(__always)
  func initialize<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
    guard let unknownKeys else {
      return try type.init(from: TapeDecoder(session: self, index: index))
    }
    return try unknownKeys.checking(index, in: self) {
      try type.init(from: TapeDecoder(session: self, index: index))
    }
  }
}

/// A keyed container that notes every key it is asked about before asking
/// the container it wraps: the keyed containers of a session that rejects
/// unknown keys (see ``UnknownKeyCheck``).
struct KeyCheckingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let base: KeyedDecodingContainer<Key>
  let check: UnknownKeyCheck
  let object: Int

  init(_ base: KeyedDecodingContainer<Key>, check: UnknownKeyCheck, object: Int) {
    self.base = base
    self.check = check
    self.object = object
    check.reads(object)
  }

  /// `key`, noted as asked for.
  private func asked(_ key: Key) -> Key {
    check.asked(key.stringValue, inObject: object)
    return key
  }

  var codingPath: [any CodingKey] { base.codingPath }

  var allKeys: [Key] {
    check.askedAll(inObject: object)
    return base.allKeys
  }

  func contains(_ key: Key) -> Bool {
    base.contains(asked(key))
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    try base.decodeNil(forKey: asked(key))
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try base.decode(type, forKey: asked(key))
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try base.decodeIfPresent(type, forKey: asked(key))
  }

  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try base.decode(type, forKey: asked(key))
  }

  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try base.decodeIfPresent(type, forKey: asked(key))
  }

  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try base.decode(type, forKey: asked(key))
  }

  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try base.decodeIfPresent(type, forKey: asked(key))
  }

  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try base.decode(type, forKey: asked(key))
  }

  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
    try base.decodeIfPresent(type, forKey: asked(key))
  }

  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try base.decode(type, forKey: asked(key))
  }

  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try base.decodeIfPresent(type, forKey: asked(key))
  }

  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try base.decode(type, forKey: asked(key))
  }

  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
    try base.decodeIfPresent(type, forKey: asked(key))
  }

  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try base.decode(type, forKey: asked(key))
  }

  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
    try base.decodeIfPresent(type, forKey: asked(key))
  }

  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try base.decode(type, forKey: asked(key))
  }

  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
    try base.decodeIfPresent(type, forKey: asked(key))
  }

  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try base.decode(type, forKey: asked(key))
  }

  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    try base.decodeIfPresent(type, forKey: asked(key))
  }

  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try base.decode(type, forKey: asked(key))
  }

  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
    try base.decodeIfPresent(type, forKey: asked(key))
  }

  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try base.decode(type, forKey: asked(key))
  }

  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
    try base.decodeIfPresent(type, forKey: asked(key))
  }

  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try base.decode(type, forKey: asked(key))
  }

  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
    try base.decodeIfPresent(type, forKey: asked(key))
  }

  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try base.decode(type, forKey: asked(key))
  }

  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
    try base.decodeIfPresent(type, forKey: asked(key))
  }

  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try base.decode(type, forKey: asked(key))
  }

  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
    try base.decodeIfPresent(type, forKey: asked(key))
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
    try base.decode(type, forKey: asked(key))
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
    try base.decodeIfPresent(type, forKey: asked(key))
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
    try base.decode(type, forKey: asked(key))
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
    try base.decodeIfPresent(type, forKey: asked(key))
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try base.decode(type, forKey: asked(key))
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    try base.decodeIfPresent(type, forKey: asked(key))
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try base.nestedContainer(keyedBy: type, forKey: asked(key))
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try base.nestedUnkeyedContainer(forKey: asked(key))
  }

  func superDecoder() throws -> any Decoder {
    check.asked("super", inObject: object)
    return try base.superDecoder()
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    try base.superDecoder(forKey: asked(key))
  }
}
