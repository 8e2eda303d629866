/// The strings of a string-reference namespace (tag 256) as a writer
/// builds it: numbered in the order they were added, found by their bytes.
///
/// The table keeps its own copy of each string, so the bytes it was given
/// may move or be overwritten afterwards (the encoder writes references
/// over strings in its own output). Lookup is open addressing over a hash
/// of all the bytes and the kind (text or byte string).
struct CBORStringTable {
  /// A string's place in the table; all zeros when free.
  private struct Bucket {
    /// Where the string starts in ``storage``.
    var start: UInt32
    var count: UInt32
    /// The high half of the string's hash (the low bits pick the bucket).
    var hash: UInt32
    /// The string's number plus one, with ``textBit`` for text; 0 when
    /// the bucket is free.
    var tagged: UInt32
  }

  /// What the key cache knows of a name kept for the whole process (a
  /// coding key's written bytes): its number in the table, or -1 when it
  /// never has one.
  private struct KnownName {
    var bytes: UnsafeRawPointer?
    var number: Int
  }

  private static let textBit: UInt32 = 1 << 31
  /// The longest string the table holds, and the most bytes it keeps.
  private static let limit = Int(UInt32.max >> 1)
  private static let knownNameBuckets = 256

  private var buckets: UnsafeMutablePointer<Bucket>
  private var bucketCount: Int
  /// The copies of the strings, one after another.
  private var storage: UnsafeMutableRawPointer
  private var storageCount = 0
  private var storageCapacity: Int
  /// The bucket of each string, by number.
  private var bucketOfNumber: UnsafeMutablePointer<Int>
  /// The number of strings in the table.
  private(set) var count = 0
  /// The names met through ``reference(name:)``, by address.
  private var knownNames: UnsafeMutablePointer<KnownName>
  private var knownNameCount = 0

  /// An empty table; ``deallocate()`` frees what it holds. A table made
  /// with `isUsed` false holds nothing and must not be used.
  init(isUsed: Bool = true) {
    bucketCount = isUsed ? 1024 : 1
    buckets = Self.freeBuckets(bucketCount)
    storageCapacity = isUsed ? 8192 : 0
    storage = .allocate(byteCount: storageCapacity, alignment: 8)
    bucketOfNumber = .allocate(capacity: bucketCount / 2)
    knownNames = .allocate(capacity: isUsed ? Self.knownNameBuckets : 0)
    if isUsed {
      knownNames.initialize(
        repeating: KnownName(bytes: nil, number: 0), count: Self.knownNameBuckets)
    }
  }

  private static func freeBuckets(_ count: Int) -> UnsafeMutablePointer<Bucket> {
    let buckets = UnsafeMutablePointer<Bucket>.allocate(capacity: count)
    UnsafeMutableRawPointer(buckets).initializeMemory(
      as: UInt8.self, repeating: 0, count: count &* MemoryLayout<Bucket>.stride)
    return buckets
  }

  /// Frees the table's memory; the table is not used afterwards.
  func deallocate() {
    buckets.deallocate()
    storage.deallocate()
    bucketOfNumber.deallocate()
    knownNames.deallocate()
  }

  /// ``reference(_:isText:)`` for the text `name`, whose bytes stay where
  /// they are, unchanged, for as long as the table is used (a key kept by
  /// ``EncodedKeyCache``): what the table answers for it is kept by its
  /// address, and found again without reading its bytes. (A string too
  /// short to be added never is: the shortest length only grows.)
  @inline(__always)
  mutating func reference(name: UnsafeRawBufferPointer) -> Int? {
    let address = UInt(bitPattern: name.baseAddress)
    let mask = Self.knownNameBuckets &- 1
    var index = Int(truncatingIfNeeded: (address &* 0x9E37_79B9) >> 16) & mask
    while let bytes = knownNames[index].bytes {
      if bytes == name.baseAddress {
        let number = knownNames[index].number
        return number < 0 ? nil : number
      }
      index = (index &+ 1) & mask
    }
    return referenceAndKnow(name: name, at: index)
  }

  @inline(never)
  private mutating func referenceAndKnow(name: UnsafeRawBufferPointer, at index: Int) -> Int? {
    let countBefore = count
    let number = reference(name, isText: true)
    // Kept while the cache is at most half full.
    if 2 &* (knownNameCount &+ 1) <= Self.knownNameBuckets, let bytes = name.baseAddress {
      knownNames[index] = KnownName(
        bytes: bytes, number: number ?? (count > countBefore ? countBefore : -1))
      knownNameCount &+= 1
    }
    return number
  }

  /// The number of `bytes` in the table, if it has them; otherwise nil,
  /// and the string is added when it is long enough to be referred to:
  /// the rule every reader applies, so that the numbers agree
  /// (``CBORTags/shortestReferencedLength(tableCount:)``).
  @inline(__always)
  mutating func reference(_ bytes: UnsafeRawBufferPointer, isText: Bool) -> Int? {
    // Nothing shorter than three bytes is ever in the table.
    guard bytes.count >= 3, bytes.count <= Self.limit else { return nil }
    return lookUp(bytes.baseAddress!, count: bytes.count, isText: isText)
  }

  private mutating func lookUp(_ bytes: UnsafeRawPointer, count: Int, isText: Bool) -> Int? {
    let fullHash = Self.hash(bytes, count: count, isText: isText)
    let hash = UInt32(truncatingIfNeeded: fullHash >> 32)
    let kind = isText ? Self.textBit : 0
    let mask = bucketCount &- 1
    var index = Int(truncatingIfNeeded: fullHash) & mask
    while buckets[index].tagged != 0 {
      let bucket = buckets[index]
      if bucket.hash == hash, bucket.tagged & Self.textBit == kind, Int(bucket.count) == count,
        ByteComparison.equal(
          (storage + Int(bucket.start)).assumingMemoryBound(to: UInt8.self),
          bytes.assumingMemoryBound(to: UInt8.self), count: count)
      {
        return Int(bucket.tagged & ~Self.textBit) &- 1
      }
      index = (index &+ 1) & mask
    }
    guard count >= CBORTags.shortestReferencedLength(tableCount: self.count),
      storageCount &+ count <= Self.limit, self.count < Self.limit
    else { return nil }
    add(
      bytes, count: count, hash: hash, fullHash: fullHash,
      tagged: UInt32(self.count &+ 1) | kind, at: index)
    return nil
  }

  @inline(never)
  private mutating func add(
    _ bytes: UnsafeRawPointer, count: Int, hash: UInt32, fullHash: UInt64, tagged: UInt32,
    at freeIndex: Int
  ) {
    if storageCount &+ count > storageCapacity {
      storageCapacity = max(2 &* storageCapacity, storageCount &+ count)
      let larger = UnsafeMutableRawPointer.allocate(byteCount: storageCapacity, alignment: 8)
      larger.copyMemory(from: storage, byteCount: storageCount)
      storage.deallocate()
      storage = larger
    }
    (storage + storageCount).copyMemory(from: bytes, byteCount: count)
    buckets[freeIndex] = Bucket(
      start: UInt32(storageCount), count: UInt32(count), hash: hash, tagged: tagged)
    bucketOfNumber[self.count] = freeIndex
    storageCount &+= count
    self.count &+= 1
    if 2 &* self.count >= bucketCount { grow() }
  }

  /// The bytes of string `number`, and whether it is text; nil past the
  /// table. The bytes are good until the next string is added.
  func string(_ number: UInt64) -> (bytes: UnsafeRawBufferPointer, isText: Bool)? {
    guard number < UInt64(count) else { return nil }
    let bucket = buckets[bucketOfNumber[Int(number)]]
    return (
      UnsafeRawBufferPointer(start: storage + Int(bucket.start), count: Int(bucket.count)),
      bucket.tagged & Self.textBit != 0
    )
  }

  /// Twice the buckets (and room for twice the numbers).
  private mutating func grow() {
    let old = buckets
    bucketCount &*= 2
    buckets = Self.freeBuckets(bucketCount)
    let numbers = UnsafeMutablePointer<Int>.allocate(capacity: bucketCount / 2)
    let mask = bucketCount &- 1
    for number in 0..<count {
      let bucket = old[bucketOfNumber[number]]
      let bytes = storage + Int(bucket.start)
      let fullHash = Self.hash(
        bytes, count: Int(bucket.count), isText: bucket.tagged & Self.textBit != 0)
      var index = Int(truncatingIfNeeded: fullHash) & mask
      while buckets[index].tagged != 0 { index = (index &+ 1) & mask }
      buckets[index] = bucket
      numbers[number] = index
    }
    old.deallocate()
    bucketOfNumber.deallocate()
    bucketOfNumber = numbers
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

extension ByteWriter {
  /// Appends tag 25 and `number`.
  @inline(__always)
  mutating func appendCBORStringReference(_ number: Int) {
    append(0xD8, UInt8(CBORTags.stringReference))
    appendCBORHead(major: 0, UInt64(number))
  }

  /// Writes the strings in the items written from `start` on as references
  /// where `table` has them, in place, and adds the others to `table` by
  /// its rule. The items are JSONKit's own (definite lengths); a reference
  /// is always shorter than the string it stands for, so what follows
  /// only moves left.
  mutating func referenceCBORStrings(from start: Int, in table: inout CBORStringTable) {
    let end = count
    let base = freeSpace - end
    let bytes = UnsafeRawBufferPointer(start: base, count: end)
    var position = start
    var kept = start  // the first byte not yet moved to `written`
    var written = start
    while position < end {
      let initial = base.load(fromByteOffset: position, as: UInt8.self)
      let major = initial >> 5
      guard major == 2 || major == 3 else {
        position &+= CBORItemWalker.headSize(initial)
        continue
      }
      let head = CBORItemWalker.head(at: position, in: bytes)
      let stringEnd = head.end &+ Int(head.argument)
      let payload = UnsafeRawBufferPointer(start: base + head.end, count: Int(head.argument))
      if let number = table.reference(payload, isText: major == 3) {
        if written != kept {
          (base + written).copyMemory(from: base + kept, byteCount: position &- kept)
        }
        written &+= position &- kept
        // Written over the string, which is longer (the table's rule).
        written &+= Self.storeCBORHead(
          major: 6, CBORTags.stringReference, at: base + written)
        written &+= Self.storeCBORHead(major: 0, UInt64(number), at: base + written)
        kept = stringEnd
      }
      position = stringEnd
    }
    guard kept != written else { return }
    (base + written).copyMemory(from: base + kept, byteCount: end &- kept)
    truncate(to: written &+ (end &- kept))
  }
}
