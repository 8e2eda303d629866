/// Interns object keys: equal key bytes get one id and one `String`, made
/// once and reused across objects and, when the owner keeps the cache, across
/// documents.
///
/// A lookup hashes the key's bytes and then compares all of them with the
/// candidate's: a hash match alone never counts as a hit, so two keys whose
/// hashes collide still get distinct ids.
struct KeyCache {
  /// Open-addressed table of `id + 1`, 0 meaning empty; its size is a power of two.
  private var slots: [UInt32]
  /// Per id: the key's hash, its start in `bytes`, and its length.
  private var hashes: [UInt32] = []
  private var starts: [Int] = []
  private var lengths: [Int] = []
  /// Every key's bytes, end to end.
  private var bytes: [UInt8] = []
  /// Per id: the key as a `String`.
  private(set) var strings: [String] = []
  /// Per id: the id of the first key equal to it as a `String`. Distinct
  /// bytes can spell equal Strings (canonically equivalent spellings such
  /// as "é" and "e\u{301}"); such keys are one key to Swift, so they are
  /// duplicates of each other in an object.
  private(set) var canonicalIDs: [UInt32] = []
  /// The first id of each distinct `String`.
  private var idsByString: [String: UInt32] = [:]
  /// Per id, for the ids converted so far: another spelling of the key that a
  /// consumer derived once (such as a key strategy's conversion) and keeps
  /// with the cache, so that it is emptied along with it.
  var derivedNames: [String] = []
  /// For the derived names: the canonical id of the first key given each one.
  var derivedNameOwners: [String: UInt32] = [:]
  /// Whether two keys that are not equal as Strings have equal derived names,
  /// so that one object could hold both.
  var derivedNamesCollide = false

  /// A cache that has grown past these bounds is emptied before its next
  /// document, so that hostile input cannot make it grow without limit.
  static let keyLimit = 1 << 16
  static let byteLimit = 1 << 22

  init() {
    slots = Array(repeating: 0, count: 64)
  }

  /// The number of distinct keys.
  var count: Int { strings.count }

  /// Whether the cache has grown beyond what it keeps between documents.
  var isOversized: Bool { strings.count > Self.keyLimit || bytes.count > Self.byteLimit }

  /// Forgets every key.
  mutating func removeAll() {
    self = KeyCache()
  }

  /// The id of the key whose UTF-8 bytes are `key[0..<length]`, adding it if new.
  @inline(__always)
  mutating func intern(_ key: UnsafePointer<UInt8>, length: Int) -> UInt32 {
    let hash = Self.hash(key, length: length)
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let entry = slots[slot]
      if entry == 0 { break }
      let id = Int(entry - 1)
      if hashes[id] == hash, lengths[id] == length, matches(id: id, key, length: length) {
        return entry - 1
      }
      slot = (slot + 1) & mask
    }
    return insert(key, length: length, hash: hash, slot: slot)
  }

  /// Whether the stored bytes of `id` equal `key[0..<length]`.
  @inline(__always)
  private func matches(id: Int, _ key: UnsafePointer<UInt8>, length: Int) -> Bool {
    bytes.withUnsafeBufferPointer { stored in
      // Lengths are equal and `starts[id] + length` is within `bytes`.
      ByteComparison.equal(stored.baseAddress.unsafelyUnwrapped + starts[id], key, count: length)
    }
  }

  @inline(never)
  private mutating func insert(
    _ key: UnsafePointer<UInt8>, length: Int, hash: UInt32, slot: Int
  ) -> UInt32 {
    let id = UInt32(strings.count)
    let keyBytes = UnsafeBufferPointer(start: key, count: length)
    hashes.append(hash)
    starts.append(bytes.count)
    lengths.append(length)
    bytes.append(contentsOf: keyBytes)
    // The scanner hands over only validated (or repaired) UTF-8.
    let string = String(decoding: keyBytes, as: UTF8.self)
    strings.append(string)
    if let equal = idsByString[string] {
      canonicalIDs.append(equal)
    } else {
      idsByString[string] = id
      canonicalIDs.append(id)
    }
    slots[slot] = id + 1
    if strings.count * 2 > slots.count { rehash(capacity: slots.count * 2) }
    return id
  }

  private mutating func rehash(capacity: Int) {
    slots = Array(repeating: 0, count: capacity)
    let mask = capacity - 1
    for id in hashes.indices {
      var slot = Int(hashes[id]) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = UInt32(id + 1)
    }
  }

  /// The UTF-8 bytes of the key with id `id`.
  func withBytes<R>(of id: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try bytes.withUnsafeBufferPointer { stored in
      try body(UnsafeBufferPointer(rebasing: stored[starts[id]..<starts[id] + lengths[id]]))
    }
  }

  /// A fast, well-mixing hash of a short byte string (keys are mostly under
  /// 16 bytes); its quality matters only for speed, never for correctness.
  @inline(__always)
  static func hash(_ key: UnsafePointer<UInt8>, length: Int) -> UInt32 {
    let raw = UnsafeRawPointer(key)
    var state = UInt64(truncatingIfNeeded: length) &* 0x9E37_79B9_7F4A_7C15
    var index = 0
    while index + 8 <= length {
      state =
        (state ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
        &* 0xBF58_476D_1CE4_E5B9
      state ^= state >> 31
      index += 8
    }
    if index < length {
      var tail: UInt64 = 0
      if length >= 8 {
        // Overlap the last full word instead of reading byte by byte.
        tail = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self))
      } else {
        while index < length {
          tail = tail << 8 | UInt64(key[index])
          index += 1
        }
      }
      state = (state ^ tail) &* 0x94D0_49BB_1331_11EB
    }
    state ^= state >> 29
    return UInt32(truncatingIfNeeded: state ^ (state >> 32))
  }
}

/// Byte-string comparison without a C library call.
enum ByteComparison {
  /// Whether `count` bytes at `a` equal those at `b`.
  @inline(__always)
  static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
    let left = UnsafeRawPointer(a)
    let right = UnsafeRawPointer(b)
    var index = 0
    while index + 8 <= count {
      if left.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        != right.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      {
        return false
      }
      index += 8
    }
    while index < count {
      if a[index] != b[index] { return false }
      index += 1
    }
    return true
  }
}
