import Foundation

/// The written form of coding keys, made once per process and shared by
/// `JKEncoder` and `JKCBOREncoder`: each key's quoted bytes, the
/// fingerprint streaming finds duplicate keys with, and the prefix sorted
/// keys are ordered by.
///
/// A key is found by the bits of its `String` value, not by its contents:
/// an entry keeps its string alive, so a string with the same bits has the
/// same storage, and the same contents. A synthesized `CodingKeys` enum
/// returns a literal from `stringValue`, the same bits on every call, so
/// every member after the first finds its bytes without reading the key.
///
/// There is one cache per key strategy whose names depend on the key alone:
/// ``shared`` writes keys as they are, ``snakeCased`` as `.convertToSnakeCase`
/// converts them. An entry is found by the key's string and holds the name
/// written for it, so a converted key costs what any other does once its
/// conversion is kept. (A custom strategy's names depend on the coding path,
/// so they are never kept.)
///
/// Only keys of plain-data `CodingKey` types (enums, and structs of plain
/// values) whose `stringValue` gives the same bits twice are kept: a key
/// built anew on each call would never be found again. A kept name is
/// printable ASCII without `"`, `\` or `/`, so that its bytes are the same
/// for every output option; other names are written, and escaped, as they
/// come. The process-wide table is bounded: once a bucket's neighbourhood is
/// full, a key that hashes there is written as it comes.
///
/// Thread safety: each `encode` call reads from a snapshot of the table
/// taken under the lock when the call starts (the table is a value, so the
/// snapshot never changes under it), and adds a new key to the shared table
/// under the lock and to its own snapshot. Entries are never freed or
/// changed once made, so a pointer to one stays valid in every snapshot.
final class EncodedKeyCache: @unchecked Sendable {
  // Unchecked: `table` is only touched with `lock` held; the entries it
  // points to are immutable.
  private let lock = NSLock()
  private var table = Table()

  /// The cache every encoder shares for keys written as they are.
  static let shared = EncodedKeyCache()

  /// The cache every encoder shares for keys converted to snake_case: found
  /// by the key's string, holding the converted name's bytes.
  static let snakeCased = EncodedKeyCache()

  /// The longest key kept, in bytes.
  static let longestKey = 64

  /// A key's written form; made once, never changed or freed.
  struct Entry {
    /// The key's string, kept alive so that its bits stay its own.
    let key: String
    /// The bits of `key` (``EncodedKeyCache/bits(_:)``).
    let keyBits: (UInt64, UInt64)
    /// The name written for the key: the key itself, or its conversion.
    let name: String
    let fingerprint: UInt64
    let sortPrefix: UInt64
    /// The name between double quotes.
    let quoted: UnsafeMutableRawPointer
    let quotedCount: Int
  }

  /// Open-addressed buckets holding entry pointers, keyed by string bits.
  struct Table {
    static let bucketCount = 1024
    /// How many buckets from its home a key may be placed.
    static let probeLimit = 8
    var buckets = [UnsafeMutablePointer<Entry>?](repeating: nil, count: bucketCount)

    /// The entry for the string with bits `bits`, if any.
    @inline(__always)
    func find(_ bits: (UInt64, UInt64)) -> UnsafeMutablePointer<Entry>? {
      var index = Self.home(bits)
      for _ in 0..<Self.probeLimit {
        guard let entry = buckets[index] else { return nil }
        if EncodedKeyCache.bits(of: entry) == bits { return entry }
        index = (index &+ 1) & (Self.bucketCount &- 1)
      }
      return nil
    }

    /// Puts `entry` in the first free bucket near its home; returns the entry
    /// already there for the same bits, or nil when there is no room.
    mutating func insert(_ entry: UnsafeMutablePointer<Entry>) -> UnsafeMutablePointer<Entry>? {
      let bits = EncodedKeyCache.bits(of: entry)
      var index = Self.home(bits)
      for _ in 0..<Self.probeLimit {
        guard let existing = buckets[index] else {
          buckets[index] = entry
          return entry
        }
        if EncodedKeyCache.bits(of: existing) == bits { return existing }
        index = (index &+ 1) & (Self.bucketCount &- 1)
      }
      return nil
    }

    @inline(__always)
    private static func home(_ bits: (UInt64, UInt64)) -> Int {
      let mixed = (bits.0 ^ (bits.1 &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
      return Int(truncatingIfNeeded: mixed >> 54) & (bucketCount &- 1)
    }
  }

  /// The table as it is now, for one `encode` call to read without a lock.
  func snapshot() -> Table {
    lock.lock()
    defer { lock.unlock() }
    return table
  }

  /// The entry for the key string `key`, written as `name` (which
  /// ``isCacheable(_:)`` accepts), made now and added to the shared table
  /// unless one for the same bits is there (which is then returned); nil
  /// when the table has no room near its bucket.
  func add(_ key: String, writtenAs name: String) -> UnsafeMutablePointer<Entry>? {
    let entry = Self.makeEntry(key, writtenAs: name)
    lock.lock()
    let kept = table.insert(entry)
    lock.unlock()
    if kept != entry { Self.free(entry) }
    return kept
  }

  // MARK: - Entries

  /// Whether `name` may be kept: short printable ASCII that no output
  /// option escapes.
  static func isCacheable(_ name: String) -> Bool {
    let utf8 = name.utf8
    guard utf8.count <= longestKey, MemoryLayout<String>.size == 16 else { return false }
    return utf8.allSatisfy { byte in
      byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C && byte != 0x2F
    }
  }

  /// Whether the name of `first` comes before that of `second` in sorted-keys
  /// order (``ByteWriter/keyPrecedes(_:_:)``), read from their quoted
  /// bytes, which hold each name as it is (``isCacheable(_:)``).
  @inline(__always)
  static func namePrecedes(
    _ first: UnsafeMutablePointer<Entry>, _ second: UnsafeMutablePointer<Entry>
  )
    -> Bool
  {
    let firstCount = first.pointee.quotedCount &- 2
    let secondCount = second.pointee.quotedCount &- 2
    let common = min(firstCount, secondCount)
    if common > 0 {
      let order = memcmp(first.pointee.quoted + 1, second.pointee.quoted + 1, common)
      if order != 0 { return order < 0 }
    }
    return firstCount < secondCount
  }

  /// The raw bits of a string value: equal for two strings that share
  /// storage (or are the same small string).
  @inline(__always)
  static func bits(_ string: String) -> (UInt64, UInt64) {
    withUnsafeBytes(of: string) {
      ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    }
  }

  /// The bits of an entry's key string.
  @inline(__always)
  static func bits(of entry: UnsafeMutablePointer<Entry>) -> (UInt64, UInt64) {
    entry.pointee.keyBits
  }

  private static func makeEntry(_ key: String, writtenAs name: String)
    -> UnsafeMutablePointer<Entry>
  {
    let count = name.utf8.count
    let quoted = UnsafeMutableRawPointer.allocate(byteCount: count + 2, alignment: 1)
    quoted.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
    var prefix: UInt64 = 0
    for (index, byte) in name.utf8.enumerated() {
      quoted.storeBytes(of: byte, toByteOffset: index + 1, as: UInt8.self)
      if index < 8 { prefix |= UInt64(byte) << (56 - 8 * UInt64(index)) }
    }
    quoted.storeBytes(of: UInt8(ascii: "\""), toByteOffset: count + 1, as: UInt8.self)
    let fingerprint = ByteWriter.fingerprint(
      of: UnsafeRawBufferPointer(start: quoted, count: count + 2))
    let entry = UnsafeMutablePointer<Entry>.allocate(capacity: 1)
    entry.initialize(
      to: Entry(
        key: key, keyBits: bits(key), name: name, fingerprint: fingerprint, sortPrefix: prefix,
        quoted: quoted, quotedCount: count + 2))
    return entry
  }

  private static func free(_ entry: UnsafeMutablePointer<Entry>) {
    entry.pointee.quoted.deallocate()
    entry.deinitialize(count: 1)
    entry.deallocate()
  }
}
