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
  /// How the key strategy names keys (for every strategy but `.custom`).
  private let naming: KeyNames.Naming
  /// Per key id, the name compared with `CodingKey.stringValue` and its
  /// name id: made once per distinct key and kept with the scan context.
  private let names: KeyNames
  /// The names the keys were asked for, with their name ids.
  private let keyTables: KeyTables
  /// The shapes of the types decoded with this session's scan context.
  private let typeShapes: TypeShapes
  /// Whether keys not equal as written share a name (see ``KeyNames``).
  let hasSharedNames: Bool
  let options: JKDecoder.Options
  let userInfo: [CodingUserInfoKey: Any]
  /// The scan context the tape lives in; kept alive as long as the session.
  let context: ScanContext
  /// The index of a `null` entry past the document, read by decoders of
  /// absent values (`superDecoder(forKey:)` for a missing key).
  let absentIndex: Int
  /// Per object (hashed into a few slots), three words: the object's index;
  /// where the last lookup in it left off, since models usually read keys in
  /// the order the JSON lists them, so that the next key is most often the
  /// next member; and the name asked for last in it, from which
  /// ``AskedNames`` predicts the next. The storage is ``KeyTables/hints``,
  /// of which a session clears the slots its objects reach: all of them, or
  /// in a document of fewer entries than slots, one per entry.
  private let hints: UnsafeMutablePointer<Int>
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
  /// What the models asked about in each object, when unknown keys are
  /// rejected; nil when they are ignored.
  let unknownKeys: UnknownKeyCheck?

  init(context: ScanContext, input: UnsafeRawBufferPointer, options: JKDecoder.Options) {
    self.context = context
    absentIndex = context.state.tape.count
    context.state.tape.append(TapeEntry(.null, offset: 0, payload: 0))
    tape = Tape(context: context, input: input)
    entries = tape.entries
    self.options = options
    userInfo = options.userInfo.isEmpty ? [:] : options.userInfo.mapValues { $0 as Any }
    descentKeys = .allocate(capacity: 1)
    descentKeys.initialize(to: DescentKeys())
    unknownKeys =
      options.unknownKeyStrategy == .reject ? UnknownKeyCheck(count: absentIndex + 1) : nil
    if case .convertFromSnakeCase = options.keyDecodingStrategy {
      naming = .fromSnakeCase
    } else {
      naming = .asWritten
    }
    keyTables = KeyTables.of(context)
    typeShapes = keyTables.typeShapes
    hints = keyTables.hints
    hints.initialize(repeating: -1, count: 3 * Swift.min(absentIndex, KeyTables.hintSlots))
    keyTables.memberTables.removeAll()
    keyedObjects = keyTables.spareKeyedObjects
    keyTables.spareKeyedObjects = []
    names = keyTables.names(naming, updatedFrom: context.state.keys)
    hasSharedNames = names.hasSharedNames
  }

  deinit {
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
    if options.binaryTape { return binaryNumberText(entry) }
    return String(decoding: numberBytes(entry), as: UTF8.self)
  }

  /// A number of a binary tape, which has no literal, in decimal: an
  /// integer, a float as it prints, or a bignum's digits.
  @inline(never)
  private func binaryNumberText(_ entry: TapeEntry) -> String {
    switch entry.kind {
    case .int: return String(Int64(bitPattern: entry.payload))
    case .uint: return String(entry.payload)
    case .double: return "\(Double(bitPattern: entry.payload))"
    case .bytes:
      let negative = entry.flags & TapeEntry.negativeBignum != 0
      return BignumText.decimal(tape.stringBytes(entry), negative: negative)
        ?? "a bignum of \(entry.payload) bytes"
    default: return "?"
    }
  }

  /// The bytes of a number entry as written.
  func numberBytes(_ entry: TapeEntry) -> UnsafeRawBufferPointer {
    Tape.numberText(of: entry, in: tape.input)
  }

  /// `body` applied to the number entry's text in JSON's grammar: as
  /// written, or a JSON5 literal rewritten (`.5` as `0.5`). Nil for
  /// hexadecimal integers, `Infinity` and `NaN`, which JSON cannot spell.
  func withJSONNumberBytes<R>(_ entry: TapeEntry, _ body: (UnsafeRawBufferPointer) -> R?) -> R? {
    let bytes = numberBytes(entry)
    guard entry.flags & TapeEntry.json5Number != 0 else { return body(bytes) }
    guard let text = JSON5NumberText.jsonText(bytes) else { return nil }
    return text.withUnsafeBytes(body)
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

  /// The shape of `type`, looked up once per scan context (see
  /// ``TypeShapes``).
  @inline(__always)
  func shape(of type: Any.Type) -> TypeShape {
    typeShapes.shape(of: type)
  }

  /// `type` as an array type that decodes straight from the tape, if it is one.
  func arrayConformance(of type: Any.Type) -> (any TapeDecodableArray.Type)? {
    if case .array(let array) = shape(of: type) { return array }
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
  /// their members' name ids (``MemberTables``) rather than scanned, so that
  /// reading every member of a large object takes linear time.
  static let tableThreshold = 16

  /// The members of the object at `object`, in order.
  @inline(__always)
  func members(ofObject object: Int) -> ObjectMembers {
    ObjectMembers(of: object, in: entries)
  }

  /// The object each keyed container reads and how it finds members, by
  /// the container's slot (see ``SpareKeyedContainer``).
  @exclusivity(unchecked) var keyedObjects: [KeyedObjectState] = []

  /// Whether the makers may keep containers of this session to give out
  /// again: until its `decode` call ends.
  @exclusivity(unchecked) private(set) var keepsSpareContainers = true

  /// Lets go of the containers the makers keep to give out again (see
  /// ``SpareKeyedContainer``), which hold this session, and keeps none from
  /// now on: called when a decode ends, before asking whether a decoder
  /// outlives it (a container kept past it must not make a cycle).
  func dropSpareContainers() {
    keepsSpareContainers = false
    keyTables.keyTypes.dropSpareContainers()
  }

  /// Gives the storage of ``keyedObjects`` to the scan context's tables for
  /// the next session: called when a decode ends and no decoder or
  /// container of this session is left.
  func giveBackStorage() {
    keyedObjects.removeAll(keepingCapacity: true)
    swap(&keyedObjects, &keyTables.spareKeyedObjects)
  }

  /// A keyed container by `Key` over the object of `decoder`, made by the
  /// maker kept for `Key` (see ``KeyTypes``).
  @inline(__always)
  func keyedContainer<Key: CodingKey>(_ decoder: TapeDecoder, keyedBy key: Key.Type)
    -> KeyedDecodingContainer<Key>
  {
    let (index, maker) = keyTables.keyTypes.keyType(key) { TapeKeyedContainer<Key>.maker() }
    unknownKeys?.reads(decoder.index)
    return maker.container(decoder, keyType: index)
  }

  /// Readies lookups by coding keys of the key type at `keyType` in
  /// ``KeyTypes`` in the object at `object`, and says whether they must find
  /// the last of members with equal names: when it has duplicate keys, or
  /// keys that the key strategy converts to one name (`a_b` and `aB`).
  @inline(__always)
  func beginLookups(inObject object: Int, keyType: Int) -> Bool {
    let slot = 3 * (object & (KeyTables.hintSlots - 1))
    hints[slot] = object
    hints[slot + 1] = object + 1
    hints[slot + 2] = AskedNames.start(forKeyType: keyType)
    if entries[object].flags & TapeEntry.hasDuplicateKeys != 0 { return true }
    return hasSharedNames && hasSharedName(inObject: object)
  }

  private func hasSharedName(inObject object: Int) -> Bool {
    members(ofObject: object).contains { names.isShared($0.id) }
  }

  /// Finds the value for `name` among the members of the object at
  /// `object`, the last of equal names when `findsLast`.
  ///
  /// `name` becomes a name id (predicted from the name asked for before it,
  /// see ``AskedNames``), and members are compared by name id: first the
  /// member after the previous match (models usually read keys in the order
  /// the JSON lists them), then the others, so that no order of keys costs
  /// more than a few integer comparisons per member.
  @inline(__always)
  func lookup(_ name: String, inObject object: Int, findsLast: Bool) -> Int? {
    let slot = 3 * (object & (KeyTables.hintSlots - 1))
    let known = hints[slot] == object
    let (nameID, asked) = keyTables.nameID(of: name, after: known ? hints[slot + 2] : -1, naming)
    if !known {
      hints[slot] = object
      hints[slot + 1] = object + 1
    }
    hints[slot + 2] = asked
    guard nameID != KeyNames.none else { return nil }
    if !findsLast {
      let hinted = hints[slot + 1]
      if hinted < entries[object].containerEnd,
        self.nameID(ofKey: UInt32(truncatingIfNeeded: entries[hinted].payload)) == nameID
      {
        hints[slot + 1] = indexAfter(hinted + 1)
        return hinted + 1
      }
    }
    return search(nameID, inObject: object, findsLast: findsLast)
  }

  private func search(_ nameID: UInt32, inObject object: Int, findsLast: Bool) -> Int? {
    let slot = 3 * (object & (KeyTables.hintSlots - 1))
    if entries[object].childCount > Self.tableThreshold {
      let span = keyTables.memberTables.span(
        ofObject: object, members(ofObject: object), count: entries[object].childCount
      ) { names.nameIDs[Int($0)] }
      guard let value = keyTables.memberTables.value(for: nameID, in: span) else { return nil }
      if !findsLast { hints[slot + 1] = indexAfter(value) }
      return value
    }
    var found: Int?
    for member in members(ofObject: object) where names.nameIDs[Int(member.id)] == nameID {
      if findsLast {
        found = member.value
      } else {
        hints[slot + 1] = member.next
        return member.value
      }
    }
    return found
  }

  /// Finds the value for `name` among the members of the object at
  /// `object`, given every member's name (`.custom` key strategy, whose
  /// closure names keys per object); the last of equal names.
  func lookup(_ name: String, inObject object: Int, customNames: [String]) -> Int? {
    if entries[object].childCount > Self.tableThreshold {
      return customMemberTable(ofObject: object, names: customNames)[name]
    }
    var found: Int?
    for (member, memberName) in zip(members(ofObject: object), customNames) where memberName == name
    {
      found = member.value
    }
    return found
  }

  /// The lists of member names that the custom key strategy gave the
  /// containers made so far, which name them by index: so that a container
  /// holds no reference but the session.
  private var customNameLists: [[String]] = []

  /// Keeps `names`, a container's member names under the custom key
  /// strategy, returning what the container passes to ``customNames(_:)``.
  func keepCustomNames(_ names: [String]) -> Int {
    customNameLists.append(names)
    return customNameLists.count - 1
  }

  /// The member names kept as `list` by ``keepCustomNames(_:)``.
  func customNames(_ list: Int) -> [String] {
    customNameLists[list]
  }

  /// Per large object that needed one, its member table by custom names,
  /// with the names it was made from; emptied when it holds many, since
  /// decoding visits most objects once.
  private var customMemberTables: [Int: (names: [String], table: [String: Int])] = [:]

  /// The custom names of the members of the object at `object`, each with
  /// the tape index of the last value of that name.
  @inline(never)
  private func customMemberTable(ofObject object: Int, names: [String]) -> [String: Int] {
    // The names may differ between containers over one object (the
    // closure sees the object's path, which a dictionary decode spells
    // otherwise), so a table made from them serves the same names only.
    if let cached = customMemberTables[object], Self.same(cached.names, names) {
      return cached.table
    }
    var table: [String: Int] = [:]
    table.reserveCapacity(entries[object].childCount)
    for (member, name) in zip(members(ofObject: object), names) {
      table[name] = member.value
    }
    if customMemberTables.count >= 64 { customMemberTables.removeAll(keepingCapacity: true) }
    // The table keeps the names, so their storage is not reused while it
    // is compared by address.
    customMemberTables[object] = (names, table)
    return table
  }

  /// Whether two arrays of names share their storage.
  private static func same(_ a: [String], _ b: [String]) -> Bool {
    a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { a.baseAddress == $0.baseAddress }
    }
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
    if case .custom = options.keyDecodingStrategy {
      return customKeyNames(ofObject: object, path: path())
    }
    return members(ofObject: object).map { keyName($0.key) }
  }

  /// The tape index of element `position` of the array at `array`, which
  /// has more elements than that.
  func elementIndex(_ position: Int, inArray array: Int) -> Int {
    var element = array + 1
    for _ in 0..<position {
      element = indexAfter(element)
    }
    return element
  }

  /// For the custom key strategy: every member's key as the strategy's
  /// closure maps it, given the path of the object.
  func customKeyNames(ofObject object: Int, path: [any CodingKey]) -> [String] {
    guard case .custom(let transform) = options.keyDecodingStrategy else { return [] }
    return members(ofObject: object).map { member in
      transform(path + [AnyCodingKey(stringValue: tape.keys[Int(member.id)])]).stringValue
    }
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
        var members = ObjectMembers(of: current, in: entries, from: child)
        while let member = members.next(), member.next <= index {
          child = member.next
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
    return keyName(key)
  }
}
