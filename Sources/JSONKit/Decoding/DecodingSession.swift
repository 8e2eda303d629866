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
  /// Objects decoded as `[String: V]` under a key strategy: Foundation reads
  /// their keys as written, so coding paths through them name them so too.
  var rawKeyObjects: Set<Int> = []

  init(context: ScanContext, input: UnsafeRawBufferPointer, options: JKDecoder.Options) {
    self.context = context
    absentIndex = context.state.tape.count
    context.state.tape.append(TapeEntry(.null, offset: 0, payload: 0))
    tape = Tape(context: context, input: input)
    entries = tape.entries
    self.options = options
    userInfo = options.userInfo.isEmpty ? [:] : options.userInfo.mapValues { $0 as Any }
    hints = .allocate(capacity: 2 * Self.hintSlots)
    hints.initialize(repeating: -1, count: 2 * Self.hintSlots)
    switch options.keyDecodingStrategy {
    case .convertFromSnakeCase:
      keyNames = context.state.keys.convertedFromSnakeCase()
      convertedNamesCollide = context.state.keys.derivedNamesCollide
    default:
      keyNames = tape.keys
      convertedNamesCollide = false
    }
  }

  deinit {
    hints.deallocate()
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

  /// Types already asked whether they are arrays, with the answer: a
  /// conformance lookup costs far more than scanning this short list, and a
  /// document holds few distinct array types.
  private var arrayConformances: [(type: ObjectIdentifier, array: (any TapeDecodableArray.Type)?)] =
    []

  /// `type` as an array type that decodes straight from the tape, if it is one.
  func arrayConformance(of type: Any.Type) -> (any TapeDecodableArray.Type)? {
    let identifier = ObjectIdentifier(type)
    for known in arrayConformances where known.type == identifier {
      return known.array
    }
    let array = type as? any TapeDecodableArray.Type
    arrayConformances.append((identifier, array))
    return array
  }

  // MARK: - Keyed lookup

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

  /// The lookup that visits every member, for objects with duplicate keys
  /// (where the last one wins) and for per-object key names.
  private func lookupLast(_ name: String, inObject object: Int, end: Int, names: [String]?) -> Int?
  {
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

  /// Every member's key as the key strategy spells it, in order.
  func memberNames(ofObject object: Int) -> [String] {
    memberKeys(ofObject: object).map(keyName)
  }

  /// For the custom key strategy: every member's key as the strategy's
  /// closure maps it, given the path of the object.
  func customKeyNames(ofObject object: Int, path: [any CodingKey]) -> [String] {
    guard case .custom(let transform) = options.keyDecodingStrategy else { return [] }
    return memberKeys(ofObject: object).map { key in
      transform(path + [AnyCodingKey(stringValue: rawKey(entries[key]))]).stringValue
    }
  }

  // MARK: - Coding paths

  /// The coding path of the value at `index`, rebuilt by descending from the
  /// root. Keys are spelled as the key strategy spells them.
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
        path.append(AnyCodingKey(stringValue: pathKeyName(child, object: current, path: path)))
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
  /// keys not converted before; the result is kept with the cache.
  mutating func convertedFromSnakeCase() -> [String] {
    var converted = derivedNames
    derivedNames = []  // so that appending below does not copy
    converted.reserveCapacity(strings.count)
    while converted.count < strings.count {
      let id = converted.count
      let name = SnakeCase.camelCased(strings[id])
      let owner = canonicalIDs[id]
      if let previous = derivedNameOwners.updateValue(owner, forKey: name), previous != owner {
        derivedNameOwners[name] = previous
        derivedNamesCollide = true
      }
      converted.append(name)
    }
    derivedNames = converted
    return converted
  }
}
