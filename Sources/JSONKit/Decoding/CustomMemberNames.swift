/// The names that the `.custom` key strategy's closure gives the members of
/// objects, which it names per object (it sees the object's path): the
/// lists that keyed containers read by, and the tables that find a member
/// of a large object by them.
final class CustomMemberNames {
  /// The strategy's closure.
  private let transform: ([any CodingKey]) -> any CodingKey
  /// Per key id, the key as written.
  private let keys: [String]

  /// The lists of member names given to the containers made so far, which
  /// name them by index: so that a container holds no reference but the
  /// session.
  private(set) var lists: [[String]] = []

  /// Per large object that needed one, its member table by custom names,
  /// with the names it was made from; emptied when it holds many, since
  /// decoding visits most objects once.
  private var memberTables: [Int: (names: [String], table: [String: Int])] = [:]

  /// Names by `transform` for the keys `keys` (by key id, as written).
  init(transform: @escaping ([any CodingKey]) -> any CodingKey, keys: [String]) {
    self.transform = transform
    self.keys = keys
  }

  /// Every member's key as the closure maps it, given the path of the
  /// object.
  func names(ofMembers members: ObjectMembers, path: [any CodingKey]) -> [String] {
    members.map { member in
      transform(path + [AnyCodingKey(stringValue: keys[Int(member.id)])]).stringValue
    }
  }

  /// Keeps `names`, a container's member names, returning their index in
  /// ``lists``.
  func keep(_ names: [String]) -> Int {
    lists.append(names)
    return lists.count - 1
  }

  /// The names `names` of `members`, the members of the object at `object`,
  /// each with the tape index of the last value of that name.
  @inline(never)
  func memberTable(ofObject object: Int, _ members: ObjectMembers, names: [String]) -> [String: Int]
  {
    // The names may differ between containers over one object (the
    // closure sees the object's path, which a dictionary decode spells
    // otherwise), so a table made from them serves the same names only.
    if let cached = memberTables[object], Self.same(cached.names, names) {
      return cached.table
    }
    var table: [String: Int] = [:]
    table.reserveCapacity(names.count)
    for (member, name) in zip(members, names) {
      table[name] = member.value
    }
    if memberTables.count >= 64 { memberTables.removeAll(keepingCapacity: true) }
    // The table keeps the names, so their storage is not reused while it
    // is compared by address.
    memberTables[object] = (names, table)
    return table
  }

  /// Whether two arrays of names share their storage.
  private static func same(_ a: [String], _ b: [String]) -> Bool {
    a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { a.baseAddress == $0.baseAddress }
    }
  }
}
