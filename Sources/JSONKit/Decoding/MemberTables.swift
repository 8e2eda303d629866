/// The members of large objects by name id, each with the tape index of
/// the last value of that name (the last of duplicates wins): made in one
/// walk of an object, so that any number of lookups in it take linear time
/// in all.
///
/// Every object's table is a span of one array of words, each
/// `nameID << 32 | value` (0 when empty: a value is never at index 0), open
/// addressed and at most half full. Only the tables of the last few
/// objects are kept, so their memory does not grow with the document; the
/// array is kept with the scan context (in ``KeyedDecodingTables``) and reused by the
/// next document.
struct MemberTables {
  /// Where an object's table is: its first word and its size less one (a
  /// power of two less one).
  struct Span {
    let start: Int
    let mask: Int
  }

  /// Every table's words, end to end; grown by doubling, freed with
  /// ``deallocate()``.
  private var words: UnsafeMutablePointer<UInt64>?
  private var count = 0
  private var capacity = 0
  private var spans: [Int: Span] = [:]
  /// The span used last: a container's lookups come in a row.
  private var last = (object: -1, span: Span(start: 0, mask: 0))

  /// The span of the table of the object at `object`, made from its
  /// `members`, of which there are `count`, named by `nameID`, unless made
  /// before.
  @inline(__always)
  mutating func span(
    ofObject object: Int, _ members: @autoclosure () -> ObjectMembers, count: Int,
    nameID: (UInt32) -> UInt32
  ) -> Span {
    if last.object == object { return last.span }
    let span = spans[object] ?? add(object, members(), count: count, nameID: nameID)
    last = (object, span)
    return span
  }

  @inline(never)
  private mutating func add(
    _ object: Int, _ members: ObjectMembers, count: Int, nameID: (UInt32) -> UInt32
  ) -> Span {
    if spans.count >= Self.keptSpans {
      // Decoding visits most objects once and finishes with each before it
      // moves on: starting over keeps memory bounded by the tables of a few
      // objects, not one per object of the document, and an object whose
      // table went is only walked again if it is asked for a key again.
      self.count = 0
      spans.removeAll(keepingCapacity: true)
    }
    var size = 8
    while size < 2 * count { size *= 2 }
    if self.count + size > capacity {
      let grown = max(2 * capacity, self.count + size, 1024)
      let moved = UnsafeMutablePointer<UInt64>.allocate(capacity: grown)
      if let words {
        moved.moveInitialize(from: words, count: self.count)
        words.deallocate()
      }
      words = moved
      capacity = grown
    }
    let span = Span(start: self.count, mask: size - 1)
    let buckets = words.unsafelyUnwrapped + span.start
    buckets.initialize(repeating: 0, count: size)
    self.count += size
    for member in members {
      let id = nameID(member.id)
      var bucket = Self.bucket(of: id, mask: span.mask)
      while buckets[bucket] != 0, buckets[bucket] >> 32 != UInt64(id) {
        bucket = (bucket + 1) & span.mask
      }
      buckets[bucket] = UInt64(id) << 32 | UInt64(truncatingIfNeeded: member.value)
    }
    spans[object] = span
    return span
  }

  /// The tape index of the value of the last member named `nameID` in the
  /// table at `span`.
  @inline(__always)
  func value(for nameID: UInt32, in span: Span) -> Int? {
    // A span is only ever made by `add`, within `words`.
    let buckets = words.unsafelyUnwrapped + span.start
    var bucket = Self.bucket(of: nameID, mask: span.mask)
    while true {
      let word = buckets[bucket]
      if word == 0 { return nil }
      if word >> 32 == UInt64(nameID) { return Int(truncatingIfNeeded: word & 0xFFFF_FFFF) }
      bucket = (bucket + 1) & span.mask
    }
  }

  /// The number of objects whose tables are kept at once.
  static let keptSpans = 64

  /// Tables beyond this many words are freed, not kept for the next
  /// document, so that one huge document does not keep its memory alive.
  static let keptWords = 1 << 16

  /// Forgets every table, keeping the memory of a few for the next document.
  mutating func removeAll() {
    if capacity > Self.keptWords {
      deallocate()
      words = nil
      capacity = 0
    }
    count = 0
    spans.removeAll(keepingCapacity: spans.capacity <= Self.keptWords)
    last = (-1, Span(start: 0, mask: 0))
  }

  /// Frees the tables.
  func deallocate() {
    words?.deallocate()
  }

  @inline(__always)
  private static func bucket(of nameID: UInt32, mask: Int) -> Int {
    Int(truncatingIfNeeded: (UInt64(nameID) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
  }
}
