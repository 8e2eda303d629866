import Foundation

/// The members of a JSON object: unique `String` keys, each with a
/// ``JSONValue``, in the order they were added.
///
/// `JSONObject` behaves like a dictionary that remembers its order. Setting a
/// key that is present replaces its value in place; setting a new key appends
/// it; setting `nil` removes it:
///
/// ```swift
/// var object: JSONObject = ["name": "Ada", "born": 1815]
/// object["born"] = 1816      // same position
/// object["field"] = "maths"  // appended
/// object["name"] = nil       // removed
/// // object.keys == ["born", "field"]
/// ```
///
/// Keys are compared with `String`'s `==`, which treats canonically
/// equivalent spellings (`"é"` as one scalar or as `"e"` and a combining
/// accent) as the same key, as Swift's `Dictionary` and Foundation's
/// `JSONEncoder` do.
///
/// Two objects are equal when they hold the same keys with equal values, in
/// any order. Iterating yields `(key:value:)` pairs in order.
///
/// Lookups search small objects linearly and larger ones through an index
/// built on first use, so looking up every key of an object with thousands
/// of members costs time proportional to its size, not its square.
public struct JSONObject: Sendable {
  /// A member of an object: its key and its value.
  public typealias Element = (key: String, value: JSONValue)

  /// A member as the object stores it. A struct rather than the `Element`
  /// tuple: an array of tuples is destroyed through the runtime's generic
  /// tuple code, one metadata-driven call per field, which made freeing a
  /// parsed document cost more than a third of parsing it.
  struct Member {
    var key: String
    var value: JSONValue
  }

  /// The members in order; their keys are unique.
  private(set) var members: [Member]

  /// Present exactly when there are more than `linearSearchLimit` members.
  private var keyIndex: KeyIndex?

  /// Up to this many members, a linear search beats hashing the key.
  static let linearSearchLimit = 16

  /// Creates an empty object.
  public init() {
    members = []
    keyIndex = nil
  }

  /// Creates an object from key-value pairs in order.
  ///
  /// When a key occurs more than once, the last value wins and keeps the
  /// position of the key's first occurrence, as JSONKit's parser treats
  /// duplicate keys.
  ///
  /// ```swift
  /// let object = JSONObject([("a", 1), ("b", 2), ("a", 3)])
  /// // {"a":3,"b":2}
  /// ```
  public init(_ pairs: some Sequence<(String, JSONValue)>) {
    self.init()
    members.reserveCapacity(pairs.underestimatedCount)
    for (key, value) in pairs {
      self[key] = value
    }
  }

  /// Creates an object from members whose keys are already unique.
  ///
  /// The caller guarantees that no two keys are equal under `String`'s `==`
  /// (so byte-wise distinct keys that are canonically equivalent count as
  /// equal). Only debug builds check it; a duplicate breaks lookups.
  init(uniqueKeysWithValues members: [Member]) {
    assert(Set(members.lazy.map(\.key)).count == members.count, "duplicate keys in JSONObject")
    self.members = members
    self.keyIndex = members.count > Self.linearSearchLimit ? KeyIndex() : nil
  }

  /// The keys, in order.
  public var keys: [String] {
    members.map(\.key)
  }

  /// The values, in the order of their keys.
  public var values: [JSONValue] {
    members.map(\.value)
  }

  /// The value for `key`, or `nil` if the object has no such key.
  ///
  /// Setting a value replaces the value of an existing key where it stands,
  /// or appends the key; setting `nil` removes the key.
  public subscript(key: String) -> JSONValue? {
    get {
      index(forKey: key).map { members[$0].value }
    }
    set {
      if let newValue {
        if let position = index(forKey: key) {
          members[position].value = newValue
        } else {
          append(key: key, value: newValue)
        }
      } else {
        removeValue(forKey: key)
      }
    }
  }

  /// The position of `key` among the members, or `nil` if it is absent.
  public func index(forKey key: String) -> Int? {
    if let keyIndex {
      return keyIndex.position(of: key, in: members)
    }
    for position in members.indices where members[position].key == key {
      return position
    }
    return nil
  }

  /// Removes `key` and returns its value, or returns `nil` if it is absent.
  /// The remaining members keep their order.
  @discardableResult
  public mutating func removeValue(forKey key: String) -> JSONValue? {
    guard let position = index(forKey: key) else { return nil }
    let removed = members.remove(at: position).value
    if members.count <= Self.linearSearchLimit {
      keyIndex = nil
    } else if isKnownUniquelyReferenced(&keyIndex) {
      keyIndex?.invalidateUnshared()
    } else {
      keyIndex = KeyIndex()
    }
    return removed
  }

  private mutating func append(key: String, value: JSONValue) {
    members.append(Member(key: key, value: value))
    if keyIndex == nil {
      if members.count > Self.linearSearchLimit {
        keyIndex = KeyIndex()
      }
    } else if isKnownUniquelyReferenced(&keyIndex) {
      keyIndex?.recordUnshared(key: key, at: members.count - 1)
    } else {
      // Another copy of this object shares the index: leave it to that copy.
      keyIndex = KeyIndex()
    }
  }

  /// The member positions in the order of their keys' UTF-8 bytes, or `nil`
  /// when that is the members' own order.
  func positionsSortedByKey() -> [Int]? {
    if members.count < 2 {
      return nil
    }
    if members.count <= 4 {
      // Too few keys to repay computing prefixes.
      if members.indices.dropFirst().allSatisfy({
        ByteWriter.keyPrecedes(members[$0 - 1].key, members[$0].key)
      }) {
        return nil
      }
      return members.indices.sorted { ByteWriter.keyPrecedes(members[$0].key, members[$1].key) }
    }
    // Most keys differ in their first sixteen bytes, so comparing those as
    // two integers settles most comparisons without touching the strings.
    var entries: [(prefix: SortPrefix, position: Int)] = []
    entries.reserveCapacity(members.count)
    for position in members.indices {
      entries.append((SortPrefix(members[position].key), position))
    }
    if entries.indices.dropFirst().allSatisfy({ !(entries[$0].prefix <= entries[$0 - 1].prefix) }) {
      return nil
    }
    entries.sort { left, right in
      if left.prefix != right.prefix {
        return left.prefix < right.prefix
      }
      return ByteWriter.keyPrecedes(members[left.position].key, members[right.position].key)
    }
    return entries.map(\.position)
  }

  /// The first sixteen UTF-8 bytes of a key as two big-endian integers,
  /// zero-padded, so that integer order is byte order for keys that differ
  /// there.
  private struct SortPrefix: Equatable, Comparable {
    var high: UInt64 = 0
    var low: UInt64 = 0

    init(_ key: String) {
      var key = key
      key.withUTF8 { bytes in
        for index in 0..<Swift.min(bytes.count, 16) {
          let shift = 56 &- 8 &* UInt64(index & 7)
          if index < 8 {
            high |= UInt64(bytes[index]) << shift
          } else {
            low |= UInt64(bytes[index]) << shift
          }
        }
      }
    }

    static func < (lhs: SortPrefix, rhs: SortPrefix) -> Bool {
      (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }
  }
}

/// A key-to-position table for a large object, built on its first lookup.
///
/// Copies of an object share one `KeyIndex` until one of them adds or
/// removes a key; that copy then takes a fresh one. Changing a value moves no
/// key, so it keeps the shared table valid. Lookups through shared copies may
/// run on many threads at once, so building and reading the table takes the
/// lock; changes made while the index is uniquely referenced need none.
private final class KeyIndex: @unchecked Sendable {
  private var table: [String: Int]?

  /// Locks that all indexes share, each index taking the one its address
  /// picks: a lock of its own cost every large object two allocations more
  /// when it was made, looked up or not. Nothing is done under a lock but
  /// building or reading one table, so sharing one can only make a thread
  /// wait, never deadlock.
  private static let locks = (0..<16).map { _ in NSLock() }

  private var lock: NSLock {
    Self.locks[Int(bitPattern: UInt(bitPattern: ObjectIdentifier(self).hashValue) >> 5 & 15)]
  }

  func position(of key: String, in members: [JSONObject.Member]) -> Int? {
    let lock = self.lock
    lock.lock()
    defer { lock.unlock() }
    if table == nil {
      var built = [String: Int](minimumCapacity: members.count)
      for (position, member) in members.enumerated() {
        built[member.key] = position
      }
      table = built
    }
    return table?[key]
  }

  func recordUnshared(key: String, at position: Int) {
    table?[key] = position
  }

  func invalidateUnshared() {
    table = nil
  }
}

extension JSONObject: RandomAccessCollection {
  /// The position of the first member.
  public var startIndex: Int { 0 }

  /// The position after the last member.
  public var endIndex: Int { members.count }

  /// The number of members.
  public var count: Int { members.count }

  /// Whether the object has no members.
  public var isEmpty: Bool { members.isEmpty }

  /// The member at `position`.
  public subscript(position: Int) -> Element {
    let member = members[position]
    return (member.key, member.value)
  }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  /// Creates an object from a dictionary literal, keeping the literal's order.
  ///
  /// ```swift
  /// let object: JSONObject = ["id": 7, "tags": ["a", "b"]]
  /// ```
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self.init(elements)
  }
}

extension JSONObject: Hashable {
  /// Whether both objects have the same keys with equal values, in any order.
  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    JSONValue.containersEqual(.object(lhs), .object(rhs))
  }

  /// Hashes the members without regard to their order.
  public func hash(into hasher: inout Hasher) {
    hash(into: &hasher, depth: JSONValue.hashedDepth)
  }

  func hash(into hasher: inout Hasher, depth: Int) {
    hasher.combine(members.count)
    guard depth > 0 else { return }
    var sum = 0
    for member in members {
      var memberHasher = Hasher()
      memberHasher.combine(member.key)
      member.value.hash(into: &memberHasher, depth: depth - 1)
      sum &+= memberHasher.finalize()
    }
    hasher.combine(sum)
  }
}
