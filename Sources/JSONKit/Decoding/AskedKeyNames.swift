/// The names keyed lookups were asked for (`CodingKey.stringValue`), each
/// with its name id in one ``KeyIDNames``: the same names are asked for
/// object after object, in the same order (a model's `init(from:)` reads its
/// keys in the order it lists them), whatever the order of the JSON's keys.
///
/// So each name asked for remembers the name asked for after it the last
/// time, and a lookup that names the predicted name (equal as a `String`:
/// usually the very same literal, so the comparison costs next to nothing)
/// takes its name id without hashing. Any other name is found by its UTF-8
/// bytes in a hash table, where a hit is decided by comparing all of the
/// bytes, never the hash alone; bytes not asked for before are looked up as
/// a `String` in the ``KeyIDNames`` (so "K" finds a key spelled U+212A KELVIN
/// SIGN, which Swift holds equal to it) and remembered.
struct AskedKeyNames: ~Copyable {
  private struct Entry {
    /// The name id, or ``KeyIDNames/none``.
    var nameID: UInt32
    /// For ``KeyIDNames/none``: how many keys were named when it was found,
    /// since a name no key had may come with keys named later.
    var namedCount: Int
    /// The entry of the name asked for next, in the same object, the last
    /// time, or -1.
    var successor: Int
  }

  /// Every name's bytes; an entry's index is its id there.
  private var table = ByteStringTable()
  private var entries: [Entry] = []
  /// Per entry, the name as it was asked for.
  private var names: [String] = []
  /// Per key type (by its index in ``CodingKeyTypes``), the entry of the name
  /// asked for first in an object the last time, or -1.
  private var firsts: [Int] = []
  /// Per key type (by its index in ``CodingKeyTypes``) whose values are at
  /// most one byte of plain data, the entry of the name each key asked for,
  /// by the key's byte.
  private var entriesByValue = KeyValueTable<Int32>()

  /// Beyond these bounds the names are forgotten before one more is added:
  /// a program may ask for names taken from its input (`allKeys`), which
  /// must not grow the table without limit.
  static let nameLimit = 1 << 12
  static let byteLimit = 1 << 18

  /// What to pass as `previous` with the first name asked for in an object
  /// by coding keys of the key type at `keyType` in ``CodingKeyTypes``.
  @inline(__always)
  static func start(forKeyType keyType: Int) -> Int {
    -2 - keyType
  }

  /// The name id of `name` in `keyNames` (or ``KeyIDNames/none``), and its
  /// entry, to pass as `previous` with the next name asked for in the same
  /// object; `previous` is ``start(forKeyType:)`` for an object's first name, or
  /// -1 for no prediction.
  @inline(__always)
  mutating func nameID(of name: String, after previous: Int, in keyNames: KeyIDNames) -> (
    nameID: UInt32, entry: Int
  ) {
    // An entry index kept from before the names were forgotten may be out
    // of range or stand for another name now: the comparison decides.
    let predicted =
      previous >= 0
      ? (previous < entries.count ? entries[previous].successor : -1)
      : previous == -1 || -2 - previous >= firsts.count ? -1 : firsts[-2 - previous]
    if predicted >= 0, predicted < names.count, names[predicted] == name {
      let entry = entries[predicted]
      if entry.nameID != KeyIDNames.none || entry.namedCount == keyNames.count {
        return (entry.nameID, predicted)
      }
    }
    return find(name, after: previous, in: keyNames)
  }

  /// ``nameID(of:after:in:)`` for a key of a type at `keyType` in
  /// ``CodingKeyTypes`` (below ``CodingKeyTypes/namedByValueLimit``; whose
  /// identity is `type`) whose values are at most one byte of plain data,
  /// `value` being the key's byte: found by that byte when the key was met
  /// before, else (or when no member's key had its name then and keys were
  /// named since) by `name()`, its name.
  @inline(__always)
  mutating func nameID(
    ofKeyValue value: UInt8, keyType: Int, type: ObjectIdentifier, in keyNames: KeyIDNames,
    name: () -> String
  ) -> (nameID: UInt32, entry: Int) {
    if let kept = entriesByValue.payload(slot: keyType, type: type, value: value) {
      let index = Int(kept)
      let entry = entries[index]
      if entry.nameID != KeyIDNames.none || entry.namedCount == keyNames.count {
        return (entry.nameID, index)
      }
    }
    return findKeyValue(value, keyType: keyType, type: type, in: keyNames, name: name())
  }

  /// ``nameID(ofKeyValue:keyType:type:in:name:)`` for a key not met before
  /// (or whose name no key had then): found by `name`, and kept by its byte.
  @inline(never)
  private mutating func findKeyValue(
    _ value: UInt8, keyType: Int, type: ObjectIdentifier, in keyNames: KeyIDNames, name: String
  ) -> (nameID: UInt32, entry: Int) {
    let found = find(name, after: -1, in: keyNames)
    entriesByValue.keep(Int32(found.entry), slot: keyType, type: type, value: value)
    return found
  }

  @inline(never)
  private mutating func find(_ name: String, after previous: Int, in keyNames: KeyIDNames) -> (
    nameID: UInt32, entry: Int
  ) {
    var utf8Name = name
    // Only a bridged string is not UTF-8 already; it is made so once here.
    let index = utf8Name.withUTF8 { utf8 in
      // No byte is read at the address of an empty name.
      entry(of: utf8.baseAddress ?? UnsafePointer(bitPattern: 1)!, length: utf8.count, name)
    }
    let named = entries[index]
    if named.namedCount < 0 || named.nameID == KeyIDNames.none && named.namedCount != keyNames.count
    {
      // New, or a name no key had, which may come with keys named since.
      entries[index].nameID = keyNames.nameID(ofName: name)
      entries[index].namedCount = keyNames.count
    }
    if previous < -1 {
      let keyType = -2 - previous
      if keyType >= firsts.count {
        firsts.append(contentsOf: repeatElement(-1, count: keyType + 1 - firsts.count))
      }
      firsts[keyType] = index
    } else if previous >= 0, previous < entries.count {
      entries[previous].successor = index
    }
    return (entries[index].nameID, index)
  }

  /// The entry of the name whose UTF-8 bytes are `key[0..<length]`, added
  /// (not yet named: `namedCount` -1) if new.
  private mutating func entry(of key: UnsafePointer<UInt8>, length: Int, _ name: String) -> Int {
    let hash = KeyInterner.hash(key, length: length)
    if let index = table.id(of: key, length: length, hash: hash) { return index }
    if table.count >= Self.nameLimit || table.byteCount + length > Self.byteLimit {
      self = AskedKeyNames()
    }
    entries.append(Entry(nameID: KeyIDNames.none, namedCount: -1, successor: -1))
    names.append(name)
    return table.add(key, length: length, hash: hash)
  }
}
