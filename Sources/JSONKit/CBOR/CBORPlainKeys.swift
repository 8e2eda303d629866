/// The key cache's entries of the coding keys of plain-data types, found by
/// the key's type and bits, for one encode: a plain-data key (a `CodingKeys`
/// enum above all) is its bits, so its string and int value are the same
/// each time it is met, and once its entry is found it is found again
/// without asking the key for either.
///
/// Only keys without an int value are kept, so that a key found here needs
/// no coding key stored for its paths. The table is direct-mapped: a key
/// that meets another in its place replaces it.
struct CBORPlainKeys {
  private struct Slot {
    var type: UInt = 0
    var bits: UInt64 = 0
    var entry: UnsafeMutablePointer<EncodedKeyCache.Entry>?
  }

  private static let capacity = 256
  private var slots: UnsafeMutablePointer<Slot>?

  /// Whether keys of `Key` can be kept: plain data of 0, 1, 2, 4 or 8
  /// bytes.
  @inline(__always)
  static func keeps<Key: CodingKey>(_ type: Key.Type) -> Bool {
    let size = MemoryLayout<Key>.size
    return size <= 8 && size & (size &- 1) == 0 && _isPOD(Key.self)
  }

  /// The bits of `key`, a key of a type that ``keeps(_:)``, with its type.
  @inline(__always)
  static func identity<Key: CodingKey>(of key: Key) -> (type: UInt, bits: UInt64) {
    let bits: UInt64
    switch MemoryLayout<Key>.size {
    case 0: bits = 0
    case 1: bits = UInt64(unsafeBitCast(key, to: UInt8.self))
    case 2: bits = UInt64(unsafeBitCast(key, to: UInt16.self))
    case 4: bits = UInt64(unsafeBitCast(key, to: UInt32.self))
    default: bits = unsafeBitCast(key, to: UInt64.self)
    }
    return (UInt(bitPattern: ObjectIdentifier(Key.self)), bits)
  }

  @inline(__always)
  private static func place(of identity: (type: UInt, bits: UInt64)) -> Int {
    Int(
      truncatingIfNeeded: ((UInt64(identity.type) ^ identity.bits) &* 0x9E37_79B9_7F4A_7C15) >> 56)
  }

  /// The entry kept for the key of `identity`, if any.
  @inline(__always)
  func entry(of identity: (type: UInt, bits: UInt64)) -> UnsafeMutablePointer<
    EncodedKeyCache.Entry
  >? {
    guard let slots else { return nil }
    let slot = slots[Self.place(of: identity)]
    guard slot.type == identity.type, slot.bits == identity.bits else { return nil }
    return slot.entry
  }

  /// Keeps `entry` for the key of `identity`, which has no int value.
  mutating func keep(
    _ entry: UnsafeMutablePointer<EncodedKeyCache.Entry>, for identity: (type: UInt, bits: UInt64)
  ) {
    if slots == nil {
      let made = UnsafeMutablePointer<Slot>.allocate(capacity: Self.capacity)
      made.initialize(repeating: Slot(), count: Self.capacity)
      slots = made
    }
    slots.unsafelyUnwrapped[Self.place(of: identity)] = Slot(
      type: identity.type, bits: identity.bits, entry: entry)
  }

  /// Frees the table.
  mutating func deallocate() {
    slots?.deallocate()
    slots = nil
  }
}
