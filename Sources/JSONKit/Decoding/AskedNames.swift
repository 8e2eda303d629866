/// The names keyed lookups were asked for (`CodingKey.stringValue`), by
/// their UTF-8 bytes, each with its name id in one ``KeyNames``: a lookup
/// hashes a few bytes instead of a `String`, and the same names are asked
/// for object after object.
///
/// A hit is decided by comparing all of the name's bytes, never the hash
/// alone. Bytes that equal no name asked for before are looked up as a
/// `String` in the ``KeyNames`` (so "K" finds a key spelled U+212A KELVIN
/// SIGN, which Swift holds equal to it) and remembered under those bytes.
struct AskedNames {
  private struct Entry {
    var hash: UInt32
    /// The name id, or ``KeyNames/none``.
    var nameID: UInt32
    /// For ``KeyNames/none``: how many keys were named when it was found,
    /// since a name no key had may come with keys named later.
    var namedCount: Int
    var start: Int
    var length: Int
  }

  /// Open-addressed table of `entry index + 1`, 0 meaning empty; its size is
  /// a power of two.
  private var slots = [UInt32](repeating: 0, count: 64)
  private var entries: [Entry] = []
  /// Every name's bytes, end to end.
  private var bytes: [UInt8] = []

  /// Beyond these bounds the names are forgotten before one more is added:
  /// a program may ask for names taken from its input (`allKeys`), which
  /// must not grow the table without limit.
  static let nameLimit = 1 << 12
  static let byteLimit = 1 << 18

  /// The name id of `name` in `names`, or ``KeyNames/none``.
  @inline(__always)
  mutating func nameID(of name: String, in names: KeyNames) -> UInt32 {
    let found = name.utf8.withContiguousStorageIfAvailable { utf8 -> UInt32 in
      guard let base = utf8.baseAddress, utf8.count > 0 else { return names.nameID(ofName: name) }
      return nameID(of: base, length: utf8.count, name, in: names)
    }
    // Only a bridged string has no contiguous UTF-8.
    return found ?? names.nameID(ofName: name)
  }

  @inline(__always)
  private mutating func nameID(
    of key: UnsafePointer<UInt8>, length: Int, _ name: String, in names: KeyNames
  ) -> UInt32 {
    let hash = KeyCache.hash(key, length: length)
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let entry = slots[slot]
      if entry == 0 { break }
      let index = Int(entry - 1)
      let candidate = entries[index]
      if candidate.hash == hash, candidate.length == length, matches(candidate, key) {
        if candidate.nameID != KeyNames.none || candidate.namedCount == names.count {
          return candidate.nameID
        }
        let nameID = names.nameID(ofName: name)
        entries[index].nameID = nameID
        entries[index].namedCount = names.count
        return nameID
      }
      slot = (slot + 1) & mask
    }
    return insert(key, length: length, hash: hash, name, in: names)
  }

  @inline(__always)
  private func matches(_ entry: Entry, _ key: UnsafePointer<UInt8>) -> Bool {
    bytes.withUnsafeBufferPointer { stored in
      // `entry.start + entry.length` is within `bytes`.
      ByteComparison.equal(
        stored.baseAddress.unsafelyUnwrapped + entry.start, key, count: entry.length)
    }
  }

  @inline(never)
  private mutating func insert(
    _ key: UnsafePointer<UInt8>, length: Int, hash: UInt32, _ name: String, in names: KeyNames
  ) -> UInt32 {
    if entries.count >= Self.nameLimit || bytes.count + length > Self.byteLimit {
      self = AskedNames()
    }
    let nameID = names.nameID(ofName: name)
    entries.append(
      Entry(hash: hash, nameID: nameID, namedCount: names.count, start: bytes.count, length: length)
    )
    bytes.append(contentsOf: UnsafeBufferPointer(start: key, count: length))
    if entries.count * 2 > slots.count {
      slots = [UInt32](repeating: 0, count: slots.count * 2)
      let mask = slots.count - 1
      for (index, entry) in entries.enumerated() {
        var slot = Int(truncatingIfNeeded: entry.hash) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = UInt32(index + 1)
      }
    } else {
      let mask = slots.count - 1
      var slot = Int(truncatingIfNeeded: hash) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = UInt32(entries.count)
    }
    return nameID
  }
}
