import Foundation

/// Optionals, decoded straight from the tape as the standard library's
/// `Optional.init(from:)` decodes them: `nil` for a null, otherwise the
/// wrapped value as a single-value container reads it.
///
/// Code reached through a conformance is not specialised for `Wrapped`, and
/// `Optional.init(from:)` asks for a single-value container and looks up
/// `Optional<Wrapped>`'s metadata for every value; an array of optionals
/// reads its elements here instead, with its arrays of optional strings and
/// numbers read by code written for them.
protocol TapeDecodableOptional {
  /// The optional at `index`.
  static func decode(from session: DecodingSession, at index: Int) throws -> Self
  /// The array at `index`, whose elements are of this optional type.
  static func decodeArray(from session: DecodingSession, at index: Int) throws -> [Self]
}

extension Optional: TapeDecodableOptional where Wrapped: Decodable {
  @inline(__always)
  static func decode(from session: DecodingSession, at index: Int) throws -> Self {
    // `decodeNil()`, then `decode(Wrapped.self)` of the decoder's own
    // single-value container, with its path.
    if session[index].kind == .null { return nil }
    return try session.unwrap(
      Wrapped.self, at: index, path: session.codingPaths.path(to: index), depth: 0)
  }

  static func decodeArray(from session: DecodingSession, at index: Int) throws -> [Self] {
    switch LeafKind.scalar(Wrapped.self) {
    case .string: return try optionals(String.self, from: session, at: index)
    case .int: return try optionals(Int.self, from: session, at: index)
    case .int64: return try optionals(Int64.self, from: session, at: index)
    case .double: return try optionals(Double.self, from: session, at: index)
    case .bool: return try optionals(Bool.self, from: session, at: index)
    default:
      return try session.elements(at: index) { position, _ in
        try decode(from: session, at: position)
      }
    }
  }

  /// The elements of the array at `index` as `[Leaf?]`, which `[Self]`
  /// is, read by code specialised for `Leaf`.
  @inline(__always)
  private static func optionals<Leaf: Decodable>(
    _ leaf: Leaf.Type, from session: DecodingSession, at index: Int
  ) throws -> [Self] {
    let values: [Leaf?] = try session.elements(at: index) { position, _ in
      try Leaf?.decode(from: session, at: position)
    }
    return session.reinterpret(values, as: [Self].self)
  }
}

/// Sets, decoded straight from the tape as the standard library's
/// `Set.init(from:)` decodes them: the elements of an array, each read as
/// an unkeyed container reads it, inserted in order, so that of equal
/// elements the first is kept.
///
/// `Set.init(from:)`, reached through a conformance, inserts through code
/// not specialised for the element type, which looks up the set's generic
/// metadata on every insertion; sets of strings, integers and UUIDs are
/// built here by code written for them.
protocol TapeDecodableSet {
  /// The set at `index`, which is an array.
  static func decode(from session: DecodingSession, at index: Int) throws -> Self
}

extension Set: TapeDecodableSet where Element: Decodable {
  static func decode(from session: DecodingSession, at index: Int) throws -> Self {
    if Element.self == String.self { return try set(of: String.self, from: session, at: index) }
    if Element.self == Int.self { return try set(of: Int.self, from: session, at: index) }
    if Element.self == Int64.self { return try set(of: Int64.self, from: session, at: index) }
    if Element.self == UUID.self { return try set(of: UUID.self, from: session, at: index) }
    return inserting(try [Element].decode(from: session, at: index))
  }

  /// The set at `index` of `Member`, which `Element` is, read by code
  /// specialised for it.
  @inline(__always)
  private static func set<Member: Decodable & Hashable>(
    of member: Member.Type, from session: DecodingSession, at index: Int
  ) throws -> Self {
    let members = Set<Member>.inserting(try [Member].decode(from: session, at: index))
    return session.reinterpret(members, as: Self.self)
  }

  /// A set of `elements` inserted in order: the first of equal elements
  /// stays, as `Set.init(from:)` keeps it.
  @inline(__always)
  private static func inserting(_ elements: [Element]) -> Self {
    var set = Self(minimumCapacity: elements.count)
    for element in elements { set.insert(element) }
    return set
  }
}
