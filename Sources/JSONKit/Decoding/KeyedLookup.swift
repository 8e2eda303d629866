import Foundation

/// Finding the members of the document's objects by key, for keyed
/// containers and for the walks that name or check members.
///
/// For every key strategy but `.custom`, members are compared by name id
/// (see ``KeyIDNames``), with hints that make reading keys in the document's
/// order cost a comparison or two per key; under `.custom`, by the names the
/// strategy's closure gives each object's members.
///
/// Its session holds it as a constant, and what lookups change lives in
/// storage it points at (the scan context's ``KeyedDecodingTables``), so that a
/// lookup through it costs no exclusivity check and no reference counting.
/// A class, so that the methods that are not inlined take one reference,
/// not a copy of every field.
final class KeyedLookup {
  /// Objects with more members than this are searched through a table of
  /// their members' name ids (``MemberTables``) rather than scanned, so that
  /// reading every member of a large object takes linear time.
  static let tableThreshold = 16

  // The fields that change from one document to the next (a stream's
  // records share one session) are unchecked: one decode at a time uses
  // the lookup, and its methods are the hot path of keyed decoding.
  @exclusivity(unchecked) private var entries: UnsafePointer<TapeEntry>
  /// How the key strategy names keys (for every strategy but `.custom`).
  private let naming: KeyIDNames.Naming
  /// The `.custom` key strategy's closure, under that strategy.
  private let transform: (([any CodingKey]) -> any CodingKey)?
  /// Per key id, the name compared with `CodingKey.stringValue` and its
  /// name id: made once per distinct key and kept with the scan context.
  @exclusivity(unchecked) private var names: KeyIDNames
  /// The names the keys were asked for, with their name ids.
  private let keyTables: KeyedDecodingTables
  /// Per object (hashed into a few buckets), three words: the object's index;
  /// where the last lookup in it left off, since models usually read keys in
  /// the order the JSON lists them, so that the next key is most often the
  /// next member; and the name asked for last in it, from which
  /// ``AskedKeyNames`` predicts the next. The storage is ``KeyedDecodingTables/hints``,
  /// of which a lookup clears the buckets its objects reach: all of them, or
  /// in a document of fewer entries than buckets, one per entry.
  private let hints: UnsafeMutablePointer<Int>
  /// Whether keys not equal as written share a name (see ``KeyIDNames``).
  @exclusivity(unchecked) private(set) var hasSharedNames = false
  /// The names under the `.custom` key strategy; nil under every other.
  @exclusivity(unchecked) private var custom: CustomMemberNames?

  /// Lookups in the `count` entries at `entries`, whose keys are cached
  /// in `context`, by the names that `strategy` gives them, with the scan
  /// context's `tables`.
  init(
    entries: UnsafePointer<TapeEntry>, count: Int, context: ScanContext,
    strategy: JSONDecoder.KeyDecodingStrategy, tables: KeyedDecodingTables
  ) {
    self.entries = entries
    if case .convertFromSnakeCase = strategy {
      naming = .fromSnakeCase
    } else {
      naming = .asWritten
    }
    if case .custom(let transform) = strategy {
      self.transform = transform
    } else {
      transform = nil
    }
    keyTables = tables
    hints = tables.hints
    names = keyTables.names(naming, updatedFrom: context.state.keys)
    hasSharedNames = names.hasSharedNames
    beginDocument(entries: entries, count: count, context: context)
  }

  /// Lets go of the custom names of the document just decoded, which hold
  /// the key cache's array of keys (see
  /// ``DecodingSession/setAsideDocument()``).
  func setAsideDocument() {
    custom = nil
  }

  /// Readies lookups in the next document scanned into `context` (a
  /// stream's next record): its `count` entries at `entries`. Nothing found
  /// in the document before is kept.
  func beginDocument(entries: UnsafePointer<TapeEntry>, count: Int, context: ScanContext) {
    self.entries = entries
    if let transform {
      custom = CustomMemberNames(transform: transform, keys: context.state.keys.strings)
    }
    hints.initialize(repeating: -1, count: 3 * Swift.min(count, KeyedDecodingTables.hintBuckets))
    keyTables.memberTables.removeAll()
    // The scan adds keys to the cache, never changes one (a cache that is
    // emptied goes with its context's tables and sessions), so names are
    // made only for a document that brought new keys; the names held here
    // are let go of first, so that the tables name them in place rather
    // than in a copy of everything named so far.
    if names.count != context.state.keys.count {
      names = KeyIDNames(naming: naming)
      names = keyTables.names(naming, updatedFrom: context.state.keys)
      hasSharedNames = names.hasSharedNames
    }
  }

  /// The members of the object at `object`, in order.
  @inline(__always)
  func members(ofObject object: Int) -> ObjectMembers {
    ObjectMembers(of: object, in: entries)
  }

  /// Readies lookups by coding keys of the key type at `keyType` in
  /// ``CodingKeyTypes`` in the object at `object`, and says whether they must find
  /// the last of members with equal names: when it has duplicate keys, or
  /// keys that the key strategy converts to one name (`a_b` and `aB`).
  @inline(__always)
  func beginLookups(inObject object: Int, keyType: Int) -> Bool {
    let bucket = 3 * (object & (KeyedDecodingTables.hintBuckets - 1))
    hints[bucket] = object
    hints[bucket + 1] = object + 1
    hints[bucket + 2] = AskedKeyNames.start(forKeyType: keyType)
    if entries[object].flags & TapeEntry.hasDuplicateKeys != 0 { return true }
    return hasSharedNames && hasSharedName(inObject: object)
  }

  /// Whether a member of the object at `object` has a name that keys not
  /// equal as written share.
  private func hasSharedName(inObject object: Int) -> Bool {
    members(ofObject: object).contains { names.isShared($0.id) }
  }

  /// Finds the value for `name` among the members of the object at
  /// `object`, the last of equal names when `findsLast`.
  ///
  /// `name` becomes a name id (predicted from the name asked for before it,
  /// see ``AskedKeyNames``), and members are compared by name id: first the
  /// member after the previous match (models usually read keys in the order
  /// the JSON lists them), then the others, so that no order of keys costs
  /// more than a few integer comparisons per member.
  @inline(__always)
  func lookup(_ name: String, inObject object: Int, findsLast: Bool) -> Int? {
    lookup(inObject: object, findsLast: findsLast) { previous in
      keyTables.nameID(of: name, after: previous, naming)
    }
  }

  /// ``lookup(_:inObject:findsLast:)`` for a key whose values are at most one
  /// byte of plain data, `value` being its byte, of the key type at
  /// `keyType` in ``CodingKeyTypes`` (below
  /// ``CodingKeyTypes/namedByValueLimit``), whose identity is `type`: the
  /// key's name, `name()`, is asked for only when the key was not met before
  /// under this index, or its name was then no member's (see
  /// ``AskedKeyNames/nameID(ofKeyValue:keyType:type:in:name:)``).
  @inline(__always)
  func lookup(
    keyValue value: UInt8, keyType: Int, type: ObjectIdentifier, name: () -> String,
    inObject object: Int, findsLast: Bool
  ) -> Int? {
    lookup(inObject: object, findsLast: findsLast) { _ in
      keyTables.nameID(ofKeyValue: value, keyType: keyType, type: type, naming, name: name)
    }
  }

  /// Finds the value of the member whose name id `nameID` gives (with what
  /// to pass as `previous` next, from the `previous` passed to it) among
  /// the members of the object at `object`, the last of equal names when
  /// `findsLast`.
  @inline(__always)
  private func lookup(
    inObject object: Int, findsLast: Bool,
    _ nameID: (_ previous: Int) -> (nameID: UInt32, entry: Int)
  ) -> Int? {
    let bucket = 3 * (object & (KeyedDecodingTables.hintBuckets - 1))
    let known = hints[bucket] == object
    let (nameID, asked) = nameID(known ? hints[bucket + 2] : -1)
    if !known {
      hints[bucket] = object
      hints[bucket + 1] = object + 1
    }
    hints[bucket + 2] = asked
    guard nameID != KeyIDNames.none else { return nil }
    if !findsLast {
      let hinted = hints[bucket + 1]
      if hinted < entries[object].containerEnd,
        self.nameID(ofKey: UInt32(truncatingIfNeeded: entries[hinted].payload)) == nameID
      {
        hints[bucket + 1] = indexAfter(hinted + 1)
        return hinted + 1
      }
    }
    return search(nameID, inObject: object, findsLast: findsLast)
  }

  /// Finds the value of the member named by `nameID` in the object at
  /// `object` when it is not the member the hint points at: through the
  /// object's member table if it is large, else by scanning its members.
  private func search(_ nameID: UInt32, inObject object: Int, findsLast: Bool) -> Int? {
    let bucket = 3 * (object & (KeyedDecodingTables.hintBuckets - 1))
    if entries[object].childCount > Self.tableThreshold {
      let span = keyTables.memberTables.span(
        ofObject: object, members(ofObject: object), count: entries[object].childCount
      ) { names.nameIDs[Int($0)] }
      guard let value = keyTables.memberTables.value(for: nameID, in: span) else { return nil }
      if !findsLast { hints[bucket + 1] = indexAfter(value) }
      return value
    }
    var found: Int?
    for member in members(ofObject: object) where names.nameIDs[Int(member.id)] == nameID {
      if findsLast {
        found = member.value
      } else {
        hints[bucket + 1] = member.next
        return member.value
      }
    }
    return found
  }

  /// The tape index after the value at `index`.
  @inline(__always)
  private func indexAfter(_ index: Int) -> Int {
    let entry = entries[index]
    return entry.isContainer ? entry.containerEnd : index + 1
  }

  /// The name of the key entry at `index` as the key strategy spells it
  /// (for every strategy but `.custom`).
  @inline(__always)
  func keyName(_ index: Int) -> String {
    names.names[Int(truncatingIfNeeded: entries[index].payload)]
  }

  /// The name id of key `id` (for every strategy but `.custom`): members
  /// with equal name ids have equal names.
  @inline(__always)
  func nameID(ofKey id: UInt32) -> UInt32 {
    names.nameIDs[Int(id)]
  }

  /// The name of key `id` as the key strategy spells it (for every
  /// strategy but `.custom`).
  @inline(__always)
  func name(ofKey id: UInt32) -> String {
    names.names[Int(id)]
  }

  /// Every member's name as the key strategy names it, in order: what
  /// keyed containers compare coding keys with. The path of the object is
  /// asked for only by the custom strategy.
  func memberNames(ofObject object: Int, path: @autoclosure () -> [any CodingKey]) -> [String] {
    if let custom { return custom.names(ofMembers: members(ofObject: object), path: path()) }
    return members(ofObject: object).map { keyName($0.key) }
  }

  // MARK: - The custom key strategy

  /// Under the custom key strategy, the names of the members of the object
  /// at `object`, kept for a container over it, which passes what this
  /// returns to ``lookup(_:inObject:customNames:)``: the strategy's closure
  /// maps each member's key, given the path of the object.
  func keepCustomNames(ofObject object: Int, path: [any CodingKey]) -> Int {
    let custom = self.custom.unsafelyUnwrapped
    return custom.keep(custom.names(ofMembers: members(ofObject: object), path: path))
  }

  /// Finds the value for `name` among the members of the object at
  /// `object`, named by the custom key strategy as kept in `customNames` by
  /// ``keepCustomNames(ofObject:path:)``; the last of equal names.
  func lookup(_ name: String, inObject object: Int, customNames list: Int) -> Int? {
    let custom = self.custom.unsafelyUnwrapped
    let names = custom.lists[list]
    if entries[object].childCount > Self.tableThreshold {
      return custom.memberTable(ofObject: object, members(ofObject: object), names: names)[name]
    }
    var found: Int?
    for (member, memberName) in zip(members(ofObject: object), names) where memberName == name {
      found = member.value
    }
    return found
  }

  /// The names of the members kept as `list` by
  /// ``keepCustomNames(ofObject:path:)``.
  func customNames(_ list: Int) -> [String] {
    custom.unsafelyUnwrapped.lists[list]
  }
}
