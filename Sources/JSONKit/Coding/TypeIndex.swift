/// Types numbered in the order they were added, found by their metadata's
/// address: open addressing over a hash of it, at most half full, so that
/// every type added is found in a probe or two whatever the addresses of a
/// program's types. ``CodingKeyTypes`` and ``TypeShapes`` keep what they know
/// of each type in arrays by these numbers.
struct TypeIndex {
  /// The types, by number.
  private var types: [ObjectIdentifier] = []
  /// A type's number plus one, or 0 when empty.
  private var buckets = [Int](repeating: 0, count: 64)

  /// The number of types added.
  var count: Int { types.count }

  /// The number of `identifier`, or nil when it was not added.
  @inline(__always)
  func number(of identifier: ObjectIdentifier) -> Int? {
    let mask = buckets.count - 1
    var bucket = Self.bucket(of: identifier, mask: mask)
    while true {
      let stored = buckets[bucket]
      if stored == 0 { return nil }
      if types[stored - 1] == identifier { return stored - 1 }
      bucket = (bucket + 1) & mask
    }
  }

  /// Adds `identifier`, not added before, and returns its number.
  mutating func add(_ identifier: ObjectIdentifier) -> Int {
    types.append(identifier)
    if 2 * types.count > buckets.count {
      buckets = [Int](repeating: 0, count: 2 * buckets.count)
      for (number, type) in types.enumerated() { place(type, number) }
    } else {
      place(identifier, types.count - 1)
    }
    return types.count - 1
  }

  private mutating func place(_ identifier: ObjectIdentifier, _ number: Int) {
    let mask = buckets.count - 1
    var bucket = Self.bucket(of: identifier, mask: mask)
    while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
    buckets[bucket] = number + 1
  }

  /// The home bucket of a type: the addresses of a module's type metadata
  /// differ in a few middle bits only, so they are mixed (MurmurHash3's
  /// finalizer) before they are masked.
  @inline(__always)
  private static func bucket(of identifier: ObjectIdentifier, mask: Int) -> Int {
    var bits = UInt64(UInt(bitPattern: identifier))
    bits = (bits ^ bits >> 33) &* 0xFF51_AFD7_ED55_8CCD
    bits = (bits ^ bits >> 33) &* 0xC4CE_B9FE_1A85_EC53
    bits ^= bits >> 33
    return Int(truncatingIfNeeded: bits) & mask
  }
}
