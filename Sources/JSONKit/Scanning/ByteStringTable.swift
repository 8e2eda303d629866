/// A set of byte strings, each with a dense id in the order added: open
/// addressing over their hashes, where a hit is decided by comparing all of
/// the bytes, never the hash alone. ``KeyInterner`` interns the document's keys
/// in one; the decoder's table of the names it is asked for is another.
struct ByteStringTable {
  /// Where one string's bytes are in `bytes`, and its hash.
  private struct Span {
    var start: Int
    var length: Int
    var hash: UInt32
  }

  /// Open-addressed table of `id + 1`, 0 meaning empty; its size is a power
  /// of two, and at most half of it is used.
  private var buckets: [UInt32]
  private var spans: [Span] = []
  /// Every string's bytes, end to end.
  private var bytes: [UInt8] = []

  init() {
    buckets = [UInt32](repeating: 0, count: 64)
  }

  /// The number of strings.
  var count: Int { spans.count }

  /// The number of bytes the strings hold together.
  var byteCount: Int { bytes.count }

  /// The length of the string with id `id`.
  @inline(__always)
  func length(of id: Int) -> Int {
    spans[id].length
  }

  /// The id of the string whose bytes are `key[0..<length]` and whose hash
  /// is `hash` (``KeyInterner/hash(_:length:)`` of those bytes), if it is here.
  @inline(__always)
  func id(of key: UnsafePointer<UInt8>, length: Int, hash: UInt32) -> Int? {
    let mask = buckets.count - 1
    var bucket = Int(truncatingIfNeeded: hash) & mask
    while true {
      let entry = buckets[bucket]
      if entry == 0 { return nil }
      let id = Int(entry - 1)
      let span = spans[id]
      if span.hash == hash, span.length == length, matches(id, key) { return id }
      bucket = (bucket + 1) & mask
    }
  }

  /// Whether the bytes of the string with id `id` equal as many bytes at
  /// `key`.
  @inline(__always)
  func matches(_ id: Int, _ key: UnsafePointer<UInt8>) -> Bool {
    let span = spans[id]
    return bytes.withUnsafeBufferPointer { stored in
      // `span.start + span.length` is within `bytes`.
      ByteComparison.equal(
        stored.baseAddress.unsafelyUnwrapped + span.start, key, count: span.length)
    }
  }

  /// Adds the string `key[0..<length]`, whose hash is `hash` and which is
  /// not here yet, and returns its id.
  mutating func add(_ key: UnsafePointer<UInt8>, length: Int, hash: UInt32) -> Int {
    let id = spans.count
    spans.append(Span(start: bytes.count, length: length, hash: hash))
    bytes.append(contentsOf: UnsafeBufferPointer(start: key, count: length))
    if spans.count * 2 > buckets.count {
      buckets = [UInt32](repeating: 0, count: buckets.count * 2)
      for id in spans.indices { place(id) }
    } else {
      place(id)
    }
    return id
  }

  private mutating func place(_ id: Int) {
    let mask = buckets.count - 1
    var bucket = Int(truncatingIfNeeded: spans[id].hash) & mask
    while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
    buckets[bucket] = UInt32(id + 1)
  }
}
