import Foundation

/// Everything one `decode` call shares: the scanned tape, the strategies in
/// force, and the bookkeeping that makes keyed lookups fast.
///
/// Decoders and containers are small structs that point at a session and a
/// tape index, so descending into a nested value allocates nothing. The
/// coding path is not tracked as decoding descends: when an error (or a
/// caller) asks for it, it is rebuilt from the tape by walking from the root
/// to the index, which costs nothing on the success path.
final class DecodingSession {
  /// The scanned document. Its input pointer is replaced by an owned copy
  /// if a decoder outlives the `decode` call (see ``detach()``).
  private(set) var tape: Tape
  let entries: UnsafePointer<TapeEntry>
  /// Per key id, the spelling compared with `CodingKey.stringValue`: the key
  /// as written, or converted once per distinct key by the key strategy.
  private let keyNames: [String]
  /// Whether two different keys convert to one name under the key strategy
  /// (`a_b` and `aB`), so that an object's converted names may repeat.
  let convertedNamesCollide: Bool
  /// Per key id, when ``convertedNamesCollide``: whether another key converts
  /// to its name. Only objects with such a member need per-object names.
  private let keyNameIsShared: [Bool]
  let options: JKDecoder.Options
  let userInfo: [CodingUserInfoKey: Any]
  /// The scan context the tape lives in; kept alive as long as the session.
  let context: ScanContext
  /// The index of a `null` entry past the document, read by decoders of
  /// absent values (`superDecoder(forKey:)` for a missing key).
  let absentIndex: Int
  /// Where the last successful lookup in an object left off, per object
  /// (hashed into a few slots): models usually read keys in the order the
  /// JSON lists them, so the next key is most often the next entry.
  private let hints: UnsafeMutablePointer<Int>
  private static let hintSlots = 64
  private var ownedInput: UnsafeMutableRawBufferPointer?
  /// Objects being decoded as `[String: V]` under a key strategy: Foundation
  /// reads their keys as written, so coding paths through them name them so
  /// too while they decode.
  var rawKeyObjects: Set<Int> = []
  /// The keys that led, through a keyed container, into the values whose
  /// `init(from:)` (or array, dictionary or strategy) is running now: coding
  /// paths through them hold the caller's key, as Foundation's do. Behind a
  /// pointer, as `hints`, so that pushing costs no exclusivity check.
  private let descentKeys: UnsafeMutablePointer<DescentKeys>
  /// The keys that nested containers and super decoders were asked for by.
  private var containerKeys = RememberedKeys()

  init(context: ScanContext, input: UnsafeRawBufferPointer, options: JKDecoder.Options) {
    self.context = context
    absentIndex = context.state.tape.count
    context.state.tape.append(TapeEntry(.null, offset: 0, payload: 0))
    tape = Tape(context: context, input: input)
    entries = tape.entries
    self.options = options
    userInfo = options.userInfo.isEmpty ? [:] : options.userInfo.mapValues { $0 as Any }
    hints = .allocate(capacity: 2 * Self.hintSlots)
    descentKeys = .allocate(capacity: 1)
    descentKeys.initialize(to: DescentKeys())
    hints.initialize(repeating: -1, count: 2 * Self.hintSlots)
    switch options.keyDecodingStrategy {
    case .convertFromSnakeCase:
      (keyNames, keyNameIsShared) = context.state.keys.convertedFromSnakeCase()
    default:
      keyNames = tape.keys
      keyNameIsShared = []
    }
    convertedNamesCollide = !keyNameIsShared.isEmpty
  }

  deinit {
    hints.deallocate()
    descentKeys.pointee.deallocate()
    descentKeys.deallocate()
    ownedInput?.deallocate()
  }

  /// Makes the session independent of the caller's input, for a decoder that
  /// a decoded value kept: the input is copied (the scan context already
  /// belongs to the session, which its pool never sees again).
  func detach() {
    guard ownedInput == nil else { return }
    let input = tape.input
    let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(input.count, 1), alignment: 8)
    copy.copyMemory(from: input)
    ownedInput = copy
    tape = Tape(context: context, input: UnsafeRawBufferPointer(rebasing: copy[0..<input.count]))
  }

  // MARK: - Tape access

  @inline(__always)
  subscript(index: Int) -> TapeEntry {
    entries[index]
  }

  @inline(__always)
  func indexAfter(_ index: Int) -> Int {
    let entry = entries[index]
    return entry.isContainer ? entry.containerEnd : index + 1
  }

  @inline(__always)
  func string(_ entry: TapeEntry) -> String {
    tape.string(entry)
  }

  /// The raw key (as written in the JSON) of a key entry.
  func rawKey(_ entry: TapeEntry) -> String {
    tape.key(entry)
  }

  /// The text of a number entry as written.
  func numberText(_ entry: TapeEntry) -> String {
    String(decoding: numberBytes(entry), as: UTF8.self)
  }

  /// The bytes of a number entry as written.
  func numberBytes(_ entry: TapeEntry) -> UnsafeRawBufferPointer {
    Tape.numberText(of: entry, in: tape.input)
  }

  // MARK: - Conformances

  /// What ``unwrap(_:at:path:)`` does with a type, beyond reading the
  /// leaves and the types Foundation reads specially.
  enum TypeShape {
    /// An array, decoded straight from the tape.
    case array(any TapeDecodableArray.Type)
    /// A dictionary with `String` keys, decoded member by member.
    case dictionary(any StringKeyedDictionary.Type)
    /// A leaf or a type Foundation reads specially.
    case special
    /// A type decoded by its `init(from:)` alone.
    case initializerOnly
  }

  /// Types already asked about, with their shape: a conformance lookup
  /// costs far more than scanning this short list, and a document holds few
  /// distinct types. Only this session touches it, one call at a time, so
  /// its accesses need no run-time exclusivity checks.
  @exclusivity(unchecked)
  private var shapes: [(type: ObjectIdentifier, shape: TypeShape)] = []

  /// The shape of `type`, looked up once per session.
  func shape(of type: Any.Type) -> TypeShape {
    let identifier = ObjectIdentifier(type)
    for known in shapes where known.type == identifier {
      return known.shape
    }
    let shape: TypeShape
    if Self.isReadSpecially(type) {
      shape = .special
    } else if let array = type as? any TapeDecodableArray.Type {
      shape = .array(array)
    } else if let dictionary = type as? any StringKeyedDictionary.Type {
      shape = .dictionary(dictionary)
    } else {
      shape = .initializerOnly
    }
    shapes.append((identifier, shape))
    return shape
  }

  /// `type` as an array type that decodes straight from the tape, if it is one.
  func arrayConformance(of type: Any.Type) -> (any TapeDecodableArray.Type)? {
    if case .array(let array) = shape(of: type) { return array }
    return nil
  }

  /// `type` as a dictionary with `String` keys, if it is one.
  func dictionaryConformance(of type: Any.Type) -> (any StringKeyedDictionary.Type)? {
    if case .dictionary(let dictionary) = shape(of: type) { return dictionary }
    return nil
  }

  /// Whether ``unwrap(_:at:path:)`` decodes every value of `type` by its
  /// `init(from:)` alone: then an array of them can call the initializer
  /// for each element without unwrap's checks.
  func decodesByInitializerOnly(_ type: Any.Type) -> Bool {
    if case .initializerOnly = shape(of: type) { return true }
    return false
  }

  // MARK: - Keyed lookup

  /// Objects with more members than this are searched through a table of
  /// their names (``memberTable(ofObject:names:)``) when a lookup must find
  /// the last of equal names; smaller ones are scanned, which costs less
  /// than building a table.
  static let tableThreshold = 16

  /// Finds the value for `name` among the members of the object at
  /// `object`; `names` overrides the per-id key names (the custom key
  /// strategy computes them per object, in member order).
  @inline(__always)
  func lookup(_ name: String, inObject object: Int, names: [String]?) -> Int? {
    let entry = entries[object]
    let end = entry.containerEnd
    if let names { return lookupLast(name, inObject: object, end: end, names: names) }
    if entry.flags & TapeEntry.hasDuplicateKeys != 0 {
      return lookupLast(name, inObject: object, end: end, names: nil)
    }
    // The expected position first.
    let slot = 2 * (object & (Self.hintSlots - 1))
    if hints[slot] == object {
      let hinted = hints[slot + 1]
      if hinted < end, keyName(hinted) == name {
        hints[slot + 1] = indexAfter(hinted + 1)
        return hinted + 1
      }
    }
    var key = object + 1
    while key < end {
      let valueIndex = key + 1
      let next = indexAfter(valueIndex)
      if keyName(key) == name {
        hints[slot] = object
        hints[slot + 1] = next
        return valueIndex
      }
      key = next
    }
    return nil
  }

  /// The lookup that finds the last member of a name, for objects with
  /// duplicate keys and for per-object key names: a scan of a small object,
  /// a table of a large one.
  @inline(__always)
  private func lookupLast(_ name: String, inObject object: Int, end: Int, names: [String]?)
    -> Int?
  {
    if entries[object].childCount > Self.tableThreshold {
      return memberTable(ofObject: object, names: names)[name]
    }
    var found: Int?
    var key = object + 1
    var ordinal = 0
    while key < end {
      if (names?[ordinal] ?? keyName(key)) == name { found = key + 1 }
      key = indexAfter(key + 1)
      ordinal += 1
    }
    return found
  }

  /// Per large object that needed one, its member table, with the custom
  /// key strategy's names it was made from; emptied when it holds many,
  /// since decoding visits most objects once.
  private var memberTables: [Int: (customNames: [String]?, table: [String: Int])] = [:]

  /// The names of the members of the object at `object` (`names`, or the
  /// per-id names), each with the tape index of the last value of that
  /// name; made once per object, so that reading every member of a large
  /// object takes linear time.
  @inline(never)
  private func memberTable(ofObject object: Int, names: [String]?) -> [String: Int] {
    // Under the other strategies `names`, if any, are the per-id names. The
    // custom strategy's may differ between containers over one object (its
    // closure sees the object's path, which a dictionary decode spells
    // otherwise), so a table made from them serves the same names only.
    var customNames: [String]?
    if case .custom = options.keyDecodingStrategy { customNames = names }
    if let cached = memberTables[object], Self.same(cached.customNames, customNames) {
      return cached.table
    }
    var table: [String: Int] = [:]
    table.reserveCapacity(entries[object].childCount)
    var key = object + 1
    var ordinal = 0
    while key < entries[object].containerEnd {
      table[customNames?[ordinal] ?? keyName(key)] = key + 1
      key = indexAfter(key + 1)
      ordinal += 1
    }
    if memberTables.count >= 64 { memberTables.removeAll(keepingCapacity: true) }
    // The table keeps the names, so their storage is not reused while it
    // is compared by address.
    memberTables[object] = (customNames, table)
    return table
  }

  /// Whether two arrays of names are both absent or share their storage.
  private static func same(_ a: [String]?, _ b: [String]?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { a.baseAddress == $0.baseAddress }
    }
  }

  /// The name of the key entry at `index` as the key strategy spells it
  /// (for every strategy but `.custom`).
  @inline(__always)
  func keyName(_ index: Int) -> String {
    keyNames[Int(truncatingIfNeeded: entries[index].payload)]
  }

  /// The key entries of the object at `object`, in order.
  func memberKeys(ofObject object: Int) -> [Int] {
    let entry = entries[object]
    var keys: [Int] = []
    keys.reserveCapacity(entry.childCount)
    var key = object + 1
    while key < entry.containerEnd {
      keys.append(key)
      key = indexAfter(key + 1)
    }
    return keys
  }

  /// For the custom key strategy: every member's key as the strategy's
  /// closure maps it, given the path of the object.
  func customKeyNames(ofObject object: Int, path: [any CodingKey]) -> [String] {
    guard case .custom(let transform) = options.keyDecodingStrategy else { return [] }
    return memberKeys(ofObject: object).map { key in
      transform(path + [AnyCodingKey(stringValue: rawKey(entries[key]))]).stringValue
    }
  }

  /// When a member of the object at `object` converts to a name that
  /// another key converts to too (`a_b` and `aB`): every member's converted
  /// name, so that lookups find the last of equal names; otherwise nil, and
  /// lookups use the per-id names.
  func sharedKeyNames(ofObject object: Int) -> [String]? {
    let keys = memberKeys(ofObject: object)
    guard
      keys.contains(where: { keyNameIsShared[Int(truncatingIfNeeded: entries[$0].payload)] })
    else { return nil }
    return keys.map(keyName)
  }

  // MARK: - Coding paths

  /// Decodes `T` from the member value at `index` of an object, which a
  /// keyed container was asked for by `key`: as ``unwrap(_:at:path:)``, with
  /// `key` in the coding paths of whatever decodes the value.
  func unwrap<T: Decodable, K: CodingKey>(
    _ type: T.Type, at index: Int, key: K, path: @autoclosure () -> [any CodingKey]
  ) throws -> T {
    try withUnsafePointer(to: key) { key in
      // The key stays where it is while the value decodes, so the stack
      // points at it rather than copying it.
      descentKeys.pointee.push(key, forValue: index)
      defer { descentKeys.pointee.pop() }
      return try unwrap(type, at: index, path: path())
    }
  }

  /// Remembers that a nested container or super decoder was asked for by
  /// `key` for the value at `value`.
  func remember(_ key: any CodingKey, forValue value: Int) {
    containerKeys.remember(key, forValue: value)
  }

  /// The key the caller gave for the member value at `value`, if a keyed
  /// container was asked for it by a key.
  private func givenKey(forValue value: Int) -> (any CodingKey)? {
    if let key = descentKeys.pointee.key(forValue: value) { return key }
    return containerKeys.isEmpty ? nil : containerKeys.key(forValue: value)
  }

  /// The coding path of the value at `index`, rebuilt by descending from the
  /// root. An object's member is named by the key the caller gave for it
  /// (see ``unwrap(_:at:key:path:)``), or else as the key strategy spells it.
  func codingPath(to index: Int) -> [any CodingKey] {
    var path: [any CodingKey] = []
    var current = 0
    var level = 0
    while current != index, current < absentIndex {
      let entry = entries[current]
      guard entry.isContainer, index < entry.containerEnd else { break }
      var child = current + 1
      var ordinal = 0
      // Resume where the last walk through this container stopped, if that
      // is not past the value sought.
      if level < pathHints.count, pathHints[level].container == current,
        pathHints[level].child <= index
      {
        child = pathHints[level].child
        ordinal = pathHints[level].ordinal
      }
      if entry.kind == .array {
        while indexAfter(child) <= index {
          child = indexAfter(child)
          ordinal += 1
        }
      } else {
        while indexAfter(child + 1) <= index {
          child = indexAfter(child + 1)
          ordinal += 1
        }
      }
      let hint = (container: current, child: child, ordinal: ordinal)
      if level < pathHints.count {
        pathHints[level] = hint
      } else {
        pathHints.append(hint)
      }
      level += 1
      if entry.kind == .array {
        path.append(AnyCodingKey(intValue: ordinal))
        current = child
      } else {
        if let key = givenKey(forValue: child + 1) {
          path.append(key)
        } else {
          path.append(AnyCodingKey(stringValue: pathKeyName(child, object: current, path: path)))
        }
        current = child + 1
      }
    }
    return path
  }

  /// Per level of the coding paths rebuilt so far: the container walked at
  /// that level and the child (with its ordinal) where the walk stopped.
  /// Decoding visits values in order, so the next path asked for (say, by a
  /// `try?` that fails on every element of an array) usually resumes there:
  /// without this, each path would walk every earlier sibling again, and
  /// failing on all of a large array's elements would take quadratic time.
  private var pathHints: [(container: Int, child: Int, ordinal: Int)] = []

  private func pathKeyName(_ key: Int, object: Int, path: [any CodingKey]) -> String {
    if !rawKeyObjects.isEmpty, rawKeyObjects.contains(object) {
      return rawKey(entries[key])
    }
    if case .custom(let transform) = options.keyDecodingStrategy {
      return transform(path + [AnyCodingKey(stringValue: rawKey(entries[key]))]).stringValue
    }
    return keyNames[Int(truncatingIfNeeded: entries[key].payload)]
  }
}

extension KeyCache {
  /// Every key converted by Foundation's snake_case rule, converting only
  /// keys not converted before, and per key whether another key converts
  /// to the same name (empty while no two do); both are kept with the cache.
  mutating func convertedFromSnakeCase() -> (names: [String], isShared: [Bool]) {
    var converted = derivedNames
    derivedNames = []  // so that appending below does not copy
    converted.reserveCapacity(strings.count)
    var newlyShared = false
    while converted.count < strings.count {
      let id = converted.count
      let name = SnakeCase.camelCased(strings[id])
      let owner = canonicalIDs[id]
      if let previous = derivedNameOwners.updateValue(owner, forKey: name), previous != owner {
        derivedNameOwners[name] = previous
        if sharedDerivedNames.insert(name).inserted { newlyShared = true }
      }
      converted.append(name)
    }
    derivedNames = converted
    if newlyShared {
      // Keys converted earlier may have just gained a twin.
      derivedNameIsShared = converted.map(sharedDerivedNames.contains)
    } else if !sharedDerivedNames.isEmpty {
      for name in converted[derivedNameIsShared.count...] {
        derivedNameIsShared.append(sharedDerivedNames.contains(name))
      }
    }
    return (converted, derivedNameIsShared)
  }
}
