/// The strings of a string-reference namespace (tag 256) as a writer
/// builds it: numbered in the order they were added, found by their bytes.
///
/// The table keeps its own copy of each string, so the bytes it was given
/// may move or be overwritten afterwards (the encoder writes references
/// over strings in its own output). Lookup is open addressing over a hash
/// of all the bytes and the kind (text or byte string).
final class CBORStringTable {
  private struct Slot {
    /// Where the string starts in ``storage``.
    var start: Int
    var count: Int
    var hash: UInt64
    /// The string's number plus one, with ``textBit`` for text; 0 when
    /// the slot is free.
    var tagged: Int
  }

  private static let textBit = 1 << 62
  private static let free = Slot(start: 0, count: 0, hash: 0, tagged: 0)

  private var slots: UnsafeMutablePointer<Slot>
  private var slotCount: Int
  /// The copies of the strings, one after another.
  private var storage: UnsafeMutableRawPointer
  private var storageCount = 0
  private var storageCapacity: Int
  /// The slot of each string, by number.
  private var slotOfNumber: [Int] = []

  /// The number of strings in the table.
  var count: Int { slotOfNumber.count }

  init() {
    slotCount = 256
    slots = .allocate(capacity: slotCount)
    slots.initialize(repeating: Self.free, count: slotCount)
    storageCapacity = 4096
    storage = .allocate(byteCount: storageCapacity, alignment: 8)
  }

  deinit {
    slots.deallocate()
    storage.deallocate()
  }

  /// The number of `bytes` in the table, if it has them; otherwise nil,
  /// and the string is added when it is long enough to be referred to:
  /// the rule every reader applies, so that the numbers agree
  /// (``CBORTags/shortestReferencedLength(tableCount:)``).
  @inline(__always)
  func reference(_ bytes: UnsafeRawBufferPointer, isText: Bool) -> Int? {
    // Nothing shorter than three bytes is ever in the table.
    guard bytes.count >= 3 else { return nil }
    return lookUp(bytes.baseAddress!, count: bytes.count, isText: isText)
  }

  private func lookUp(_ bytes: UnsafeRawPointer, count: Int, isText: Bool) -> Int? {
    let hash = Self.hash(bytes, count: count, isText: isText)
    let kind = isText ? Self.textBit : 0
    let mask = slotCount &- 1
    var index = Int(truncatingIfNeeded: hash) & mask
    while slots[index].tagged != 0 {
      let slot = slots[index]
      if slot.hash == hash, slot.tagged & Self.textBit == kind, slot.count == count,
        Self.equal(storage + slot.start, bytes, count: count)
      {
        return slot.tagged & ~Self.textBit &- 1
      }
      index = (index &+ 1) & mask
    }
    guard count >= CBORTags.shortestReferencedLength(tableCount: self.count) else { return nil }
    add(bytes, count: count, hash: hash, tagged: (self.count &+ 1) | kind, at: index)
    return nil
  }

  @inline(never)
  private func add(
    _ bytes: UnsafeRawPointer, count: Int, hash: UInt64, tagged: Int, at freeIndex: Int
  ) {
    if storageCount &+ count > storageCapacity {
      storageCapacity = max(2 &* storageCapacity, storageCount &+ count)
      let larger = UnsafeMutableRawPointer.allocate(byteCount: storageCapacity, alignment: 8)
      larger.copyMemory(from: storage, byteCount: storageCount)
      storage.deallocate()
      storage = larger
    }
    (storage + storageCount).copyMemory(from: bytes, byteCount: count)
    slots[freeIndex] = Slot(start: storageCount, count: count, hash: hash, tagged: tagged)
    slotOfNumber.append(freeIndex)
    storageCount &+= count
    if 2 &* self.count > slotCount { grow() }
  }

  /// The bytes of string `number`, and whether it is text; nil past the
  /// table. The bytes are good until the next string is added.
  func string(_ number: UInt64) -> (bytes: UnsafeRawBufferPointer, isText: Bool)? {
    guard number < UInt64(count) else { return nil }
    let slot = slots[slotOfNumber[Int(number)]]
    return (
      UnsafeRawBufferPointer(start: storage + slot.start, count: slot.count),
      slot.tagged & Self.textBit != 0
    )
  }

  private func grow() {
    let old = slots
    slotCount &*= 2
    slots = .allocate(capacity: slotCount)
    slots.initialize(repeating: Self.free, count: slotCount)
    let mask = slotCount &- 1
    for number in 0..<slotOfNumber.count {
      let slot = old[slotOfNumber[number]]
      var index = Int(truncatingIfNeeded: slot.hash) & mask
      while slots[index].tagged != 0 { index = (index &+ 1) & mask }
      slots[index] = slot
      slotOfNumber[number] = index
    }
    old.deallocate()
  }

  /// Whether `count` bytes at `a` and `b` are equal, a word at a time.
  @inline(__always)
  private static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
    if count >= 8 {
      var offset = 0
      while offset &+ 8 < count {
        if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        {
          return false
        }
        offset &+= 8
      }
      return a.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        == b.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    }
    if count >= 4 {
      return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
        && a.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
          == b.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
    }
    var offset = 0
    while offset < count {
      if a.load(fromByteOffset: offset, as: UInt8.self)
        != b.load(fromByteOffset: offset, as: UInt8.self)
      {
        return false
      }
      offset &+= 1
    }
    return true
  }

  /// A hash of every byte, the length and the kind. Strings of 8 bytes or
  /// more are read a word at a time, the last word overlapping the one
  /// before; shorter ones in one or two loads.
  @inline(__always)
  private static func hash(_ bytes: UnsafeRawPointer, count: Int, isText: Bool) -> UInt64 {
    let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    var hash = UInt64(truncatingIfNeeded: count) &* 0xFF51_AFD7_ED55_8CCD
    if isText { hash ^= 0xC4CE_B9FE_1A85_EC53 }
    if count >= 8 {
      var offset = 0
      while offset &+ 8 < count {
        hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
        hash ^= hash >> 29
        offset &+= 8
      }
      hash ^= bytes.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    } else if count >= 4 {
      let first = UInt64(bytes.loadUnaligned(as: UInt32.self))
      let last = UInt64(bytes.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
      hash ^= first << 32 | last
    } else {
      var offset = 0
      while offset < count {
        hash ^= UInt64(bytes.load(fromByteOffset: offset, as: UInt8.self)) << (8 &* offset)
        offset &+= 1
      }
    }
    hash = (hash ^ hash >> 32) &* multiplier
    return hash ^ hash >> 29
  }
}
