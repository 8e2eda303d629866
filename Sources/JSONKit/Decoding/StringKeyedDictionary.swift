/// Dictionaries with `String` keys, which Foundation decodes member by
/// member with the keys as written, whatever the key strategy.
protocol StringKeyedDictionary {
  /// The dictionary as a container's member.
  static func decode(from session: DecodingSession, at index: Int) throws -> Self
  /// The dictionary at `depth`, as for
  /// ``DecodingSession/unwrap(_:at:path:depth:)``.
  static func decode(from session: DecodingSession, at index: Int, depth: Int) throws -> Self
  /// The dictionary as the standard library's `init(from:)` decodes it with
  /// the default key strategy, for an object whose names do not repeat.
  static func decodeMembers(from session: DecodingSession, at index: Int) throws -> Self
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Decodable {
  static func decode(from session: DecodingSession, at index: Int) throws -> Self {
    try decode(from: session, at: index, depth: 1)
  }

  static func decode(from session: DecodingSession, at index: Int, depth: Int) throws -> Self {
    try filledByValueType(from: session, at: index, depth: depth)
  }

  static func decodeMembers(from session: DecodingSession, at index: Int) throws -> Self {
    try filledByValueType(from: session, at: index, depth: nil)
  }

  /// ``filled(from:at:depth:)``, by code written for the value type where
  /// it is a common one: dictionary operations reached through this
  /// conformance run unspecialized and look up the dictionary's metadata
  /// for every member.
  private static func filledByValueType(
    from session: DecodingSession, at index: Int, depth: Int?
  ) throws -> Self {
    if Value.self == Int.self {
      return session.reinterpret(
        try [String: Int].filled(from: session, at: index, depth: depth), as: Self.self)
    }
    if Value.self == String.self {
      return session.reinterpret(
        try [String: String].filled(from: session, at: index, depth: depth), as: Self.self)
    }
    if Value.self == Double.self {
      return session.reinterpret(
        try [String: Double].filled(from: session, at: index, depth: depth), as: Self.self)
    }
    if Value.self == Bool.self {
      return session.reinterpret(
        try [String: Bool].filled(from: session, at: index, depth: depth), as: Self.self)
    }
    return try filled(from: session, at: index, depth: depth)
  }

  /// The object at `index` as this dictionary: with a `depth`, as
  /// ``decode(from:at:depth:)`` reads it (under a key strategy); without,
  /// as ``decodeMembers(from:at:)`` does.
  @inline(__always)
  private static func filled(from session: DecodingSession, at index: Int, depth: Int?)
    throws -> Self
  {
    let object = session[index]
    var result: [String: Value] = [:]
    result.reserveCapacity(object.childCount)
    guard let depth else {
      // The standard library's `init(from:)` asks a keyed container for
      // every key, in the document's order, and decodes each member by it;
      // the same, member by member, with the capacity known.
      for member in session.keyedLookup.members(ofObject: index) {
        let name = session.rawKey(session[member.key])
        let memberKey = DictionaryMemberKey(stringValue: name)
        result[name] = try session.unwrap(
          Value.self, at: member.value, key: memberKey,
          path: session.codingPaths.path(to: index) + [memberKey])
      }
      return result
    }
    // Only while this decode runs: once it is over (even by a failure that a
    // `try?` swallows), the object may be decoded otherwise, with its keys
    // converted.
    let marked = session.codingPaths.rawKeyObjects.insert(index).inserted
    defer { if marked { session.codingPaths.rawKeyObjects.remove(index) } }
    for member in session.keyedLookup.members(ofObject: index) {
      let name = session.rawKey(session[member.key])
      // Foundation decodes the members with the decoder that asked for the
      // dictionary, so they lie a key deeper below it.
      result[name] = try session.unwrap(
        Value.self, at: member.value,
        path: session.codingPaths.path(to: index) + [AnyCodingKey(stringValue: name)],
        depth: depth + 1)
    }
    return result
  }
}

/// The key by which the standard library's `Dictionary.init(from:)` asks
/// for a member of a `[String: V]`: its name, and, as the standard
/// library's key has it, that name read as an `Int` when it is one.
struct DictionaryMemberKey: CodingKey {
  let stringValue: String

  init(stringValue: String) {
    self.stringValue = stringValue
  }

  init(intValue: Int) {
    stringValue = String(intValue)
  }

  /// Read only when a coding path is asked for.
  var intValue: Int? { Int(stringValue) }
}
