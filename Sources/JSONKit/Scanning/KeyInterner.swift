/// Interns object keys: equal key bytes get one id and one `String`, made
/// once and reused across objects and, when the owner keeps the cache, across
/// documents.
///
/// A lookup hashes the key's bytes and then compares all of them with the
/// candidate's: a hash match alone never counts as a hit, so two keys whose
/// hashes collide still get distinct ids.
struct KeyInterner {
  /// Every key's bytes, by id.
  private var table: ByteStringTable
  /// Per id: the key that followed it, and whether it is verbatim.
  private var records: [Record] = []
  /// The id of the key interned last in the current document, or `noKey`.
  private var previous = KeyInterner.noKey
  /// The id of the first key of the last document, or `noKey`.
  private var firstKey = KeyInterner.noKey
  /// Per id: the key as a `String`.
  private(set) var strings: [String] = []
  /// Per id: the id of the first key equal to it as a `String`. Distinct
  /// bytes can spell equal Strings (canonically equivalent spellings such
  /// as "é" and "e\u{301}"); such keys are one key to Swift, so they are
  /// duplicates of each other in an object.
  private(set) var canonicalIDs: [UInt32] = []
  /// The first id of each distinct `String`.
  private var idsByString: [String: UInt32] = [:]
  /// A cache that has grown past these bounds is emptied before its next
  /// document, so that hostile input cannot make it grow without limit.
  static let keyLimit = 1 << 16
  static let byteLimit = 1 << 22

  /// What the cache knows of one key besides its `String`.
  private struct Record {
    /// The id of the key interned right after this one the last time, or
    /// `noKey`.
    var successor: UInt32
    /// Whether the key's bytes hold no quote, backslash or control
    /// character, so that the same bytes in the input, followed by a quote,
    /// are exactly this key written without escapes.
    var isVerbatim: Bool
  }

  /// No key: the `previous` of a document's first key, the successor of a
  /// key not yet followed by one.
  static let noKey = UInt32.max

  init() {
    table = ByteStringTable()
  }

  /// The number of distinct keys.
  var count: Int { strings.count }

  /// Whether the cache has grown beyond what it keeps between documents.
  var isOversized: Bool { strings.count > Self.keyLimit || table.byteCount > Self.byteLimit }

  /// Forgets every key.
  mutating func removeAll() {
    self = KeyInterner()
  }

  /// Readies the key prediction for a new document.
  mutating func beginDocument() {
    previous = Self.noKey
  }

  /// The key predicted to come next, if the input at `start` (just after a
  /// key's opening quote) spells it without escapes and closes it with a
  /// quote: its id and the length of its bytes.
  ///
  /// Documents repeat the same keys in the same order (an array of records
  /// of one shape), so the key that followed the previous key last time is
  /// usually the next one. A hit is decided by comparing all of the key's
  /// bytes, and it needs no hashing, no probing and no validation: the
  /// cached bytes were validated when the key was first interned, and
  /// validating equal bytes again cannot give another answer.
  @inline(__always)
  mutating func predictedKey(
    in input: UnsafePointer<UInt8>, at start: Int, end: Int
  ) -> (id: UInt32, length: Int)? {
    let predicted = previous == Self.noKey ? firstKey : records[Int(previous)].successor
    guard predicted != Self.noKey else { return nil }
    let length = table.length(of: Int(predicted))
    guard records[Int(predicted)].isVerbatim, length < end - start,
      input[start + length] == UInt8(ascii: "\""),
      table.matches(Int(predicted), input + start)
    else { return nil }
    previous = predicted
    return (predicted, length)
  }

  /// The id of the key whose UTF-8 bytes are `key[0..<length]`, when it is
  /// the key predicted to come next (see ``predictedKey(in:at:end:)``), for
  /// formats whose keys have a known length: one comparison, no hashing.
  @inline(__always)
  mutating func predictedKey(_ key: UnsafePointer<UInt8>, length: Int) -> UInt32? {
    let predicted = previous == Self.noKey ? firstKey : records[Int(previous)].successor
    guard predicted != Self.noKey, table.length(of: Int(predicted)) == length,
      table.matches(Int(predicted), key)
    else { return nil }
    previous = predicted
    return predicted
  }

  /// The id of the key at `start` (just after a key's opening quote),
  /// added if new, when the input spells it in plain ASCII without escapes
  /// and closes it with a quote before the input's last eight bytes: its id
  /// and the length of its bytes. Nil for any other key, which the caller
  /// scans in full.
  ///
  /// One pass finds the closing quote and hashes the key eight bytes at a
  /// time, so a key that the prediction missed (keys sorted, shuffled, or in
  /// another order than last time) costs one probe and one comparison more
  /// than a predicted one, and a key not seen before is added without a
  /// second scan. Plain ASCII bytes need no validation; a hit is decided by
  /// comparing all of them.
  @inline(__always)
  mutating func plainKey(
    in input: UnsafePointer<UInt8>, at start: Int, end: Int
  ) -> (id: UInt32, length: Int)? {
    let raw = UnsafeRawPointer(input)
    var state = Self.hashSeed
    var position = start
    while position + 8 <= end {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
      let special = ScanPrimitives.specialByteMask(word)
      if special == 0 {
        state = Self.mix(state, word)
        position += 8
        continue
      }
      let offset = special.trailingZeroBitCount >> 3
      guard input[position + offset] == UInt8(ascii: "\"") else { return nil }
      // The bytes before the quote, as the key's last word: the lanes from
      // the quote on are cleared.
      let tail = offset == 0 ? 0 : word & (UInt64.max >> (64 - 8 * offset))
      let length = position + offset - start
      let hash = Self.finish(state, tail: tail, length: length)
      let key = input + start
      let id =
        table.id(of: key, length: length, hash: hash).map { UInt32(truncatingIfNeeded: $0) }
        ?? insert(key, length: length, hash: hash)
      follow(with: id)
      return (id, length)
    }
    return nil
  }

  /// The id of the key whose UTF-8 bytes are `key[0..<length]`, adding it if new.
  @inline(__always)
  mutating func intern(_ key: UnsafePointer<UInt8>, length: Int) -> UInt32 {
    intern(key, length: length) {}
  }

  /// The id of the key whose UTF-8 bytes are `key[0..<length]`, adding it
  /// if new once `validate` accepts it, for readers that check a key's
  /// bytes only when it is new: every key the interner holds was checked
  /// when it was added, so equal bytes need no check.
  @inline(__always)
  mutating func intern<Failure: Error>(
    _ key: UnsafePointer<UInt8>, length: Int, validatingNew validate: () throws(Failure) -> Void
  ) throws(Failure) -> UInt32 {
    let hash = Self.hash(key, length: length)
    let id: UInt32
    if let found = table.id(of: key, length: length, hash: hash) {
      id = UInt32(found)
    } else {
      try validate()
      id = insert(key, length: length, hash: hash)
    }
    follow(with: id)
    return id
  }

  /// Records that `id` came next, for the prediction.
  @inline(__always)
  private mutating func follow(with id: UInt32) {
    if previous == Self.noKey {
      firstKey = id
    } else {
      records[Int(previous)].successor = id
    }
    previous = id
  }

  @inline(never)
  private mutating func insert(_ key: UnsafePointer<UInt8>, length: Int, hash: UInt32) -> UInt32 {
    let id = UInt32(table.add(key, length: length, hash: hash))
    let keyBytes = UnsafeBufferPointer(start: key, count: length)
    let isVerbatim = !keyBytes.contains {
      $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20
    }
    records.append(Record(successor: Self.noKey, isVerbatim: isVerbatim))
    // The scanner hands over only validated (or repaired) UTF-8.
    let string = String(decoding: keyBytes, as: UTF8.self)
    strings.append(string)
    if let equal = idsByString[string] {
      canonicalIDs.append(equal)
    } else {
      idsByString[string] = id
      canonicalIDs.append(id)
    }
    return id
  }

  /// A fast, well-mixing hash of a short byte string (keys are mostly under
  /// 16 bytes); its quality matters only for speed, never for correctness.
  ///
  /// Whole little-endian words are mixed in order, then the last zero to
  /// seven bytes as one word whose missing lanes are zero, then the length:
  /// so that ``plainKey(in:at:end:)`` can hash a key while it looks for
  /// the key's end, before it knows the length.
  @inline(__always)
  static func hash(_ key: UnsafePointer<UInt8>, length: Int) -> UInt32 {
    let raw = UnsafeRawPointer(key)
    var state = hashSeed
    var index = 0
    while index + 8 <= length {
      state = mix(
        state, UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
      index += 8
    }
    let rest = length - index
    let tail: UInt64
    if rest == 0 {
      tail = 0
    } else if length >= 8 {
      // The last full word, overlapping the one before, shifted down to the rest.
      tail =
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self))
        >> (64 - 8 * UInt64(rest))
    } else if length >= 4 {
      // Two words that overlap, as ``ByteComparison`` reads them.
      tail =
        UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
        | UInt64(
          UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)))
        << (8 * UInt64(length - 4))
    } else {
      tail =
        UInt64(key[0]) | UInt64(key[length >> 1]) << (8 * UInt64(length >> 1))
        | UInt64(key[length - 1]) << (8 * UInt64(length - 1))
    }
    return finish(state, tail: tail, length: length)
  }

  private static let hashSeed: UInt64 = 0x9E37_79B9_7F4A_7C15

  /// One whole word of a key mixed into the hash.
  @inline(__always)
  private static func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
    let mixed = (state ^ word) &* 0xBF58_476D_1CE4_E5B9
    return mixed ^ (mixed >> 31)
  }

  /// The hash, from the state after the whole words, the last word (zero to
  /// seven bytes, the missing lanes zero) and the length.
  @inline(__always)
  private static func finish(_ state: UInt64, tail: UInt64, length: Int) -> UInt32 {
    var mixed = (state ^ tail) &* 0x94D0_49BB_1331_11EB
    mixed ^= UInt64(truncatingIfNeeded: length) &* 0xD6E8_FEB8_6659_FD93
    mixed ^= mixed >> 29
    return UInt32(truncatingIfNeeded: mixed ^ (mixed >> 32))
  }
}

/// Byte-string comparison without a C library call.
enum ByteComparison {
  /// Whether `count` bytes at `a` equal those at `b`.
  ///
  /// Whole words at a time: the last word (or, under eight bytes, the last
  /// four, two or one) overlaps the one before it rather than going byte by
  /// byte, and never reads outside the `count` bytes.
  @inline(__always)
  static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
    let left = UnsafeRawPointer(a)
    let right = UnsafeRawPointer(b)
    if count >= 8 {
      var index = 0
      while index + 8 < count {
        if left.loadUnaligned(fromByteOffset: index, as: UInt64.self)
          != right.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        {
          return false
        }
        index += 8
      }
      return left.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        == right.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }
    if count >= 4 {
      return left.loadUnaligned(as: UInt32.self) == right.loadUnaligned(as: UInt32.self)
        && left.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
          == right.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
    }
    if count >= 2 {
      return left.loadUnaligned(as: UInt16.self) == right.loadUnaligned(as: UInt16.self)
        && a[count - 1] == b[count - 1]
    }
    return count == 0 || a[0] == b[0]
  }
}
