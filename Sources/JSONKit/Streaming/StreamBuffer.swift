/// The bytes of a stream that have arrived but are not yet done with: the
/// record being framed and whatever came after it.
///
/// Positions are stream offsets (bytes from the start of the stream), so
/// that a framer's bookkeeping survives the buffer dropping what lies
/// before the record it is working on. Memory grows only to hold the
/// largest record plus one chunk.
struct StreamBuffer {
  private(set) var storage: UnsafeMutablePointer<UInt8>
  private(set) var capacity: Int
  /// How many bytes of `storage` hold data.
  private(set) var count = 0
  /// The stream offset of `storage[0]`.
  private(set) var origin = 0

  init(capacity: Int = 1 << 16) {
    self.capacity = max(capacity, 16)
    storage = .allocate(capacity: self.capacity)
  }

  /// The stream offset just past the last byte that has arrived.
  var end: Int { origin + count }

  /// The byte at stream offset `offset`, which must be held.
  subscript(offset: Int) -> UInt8 {
    storage[offset - origin]
  }

  /// The held bytes from stream offset `start` up to `stop`; valid until
  /// the buffer next changes.
  func bytes(from start: Int, to stop: Int) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: storage + (start - origin), count: stop - start)
  }

  /// Drops the bytes before stream offset `offset`, moving the rest to the
  /// front.
  mutating func discard(upTo offset: Int) {
    let dropped = offset - origin
    guard dropped > 0 else { return }
    let kept = count - dropped
    if kept > 0 { storage.update(from: storage + dropped, count: kept) }
    count = kept
    origin = offset
  }

  /// Appends `bytes` at the end.
  mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard let source = bytes.baseAddress, bytes.count > 0 else { return }
    reserve(bytes.count)
    (storage + count).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    count += bytes.count
  }

  /// Appends one byte at the end.
  mutating func append(_ byte: UInt8) {
    reserve(1)
    storage[count] = byte
    count += 1
  }

  /// Appends a chunk, in one copy when its bytes are contiguous.
  mutating func append<Chunk: Sequence>(contentsOf chunk: Chunk) where Chunk.Element == UInt8 {
    let copied: Void? = chunk.withContiguousStorageIfAvailable {
      append(UnsafeRawBufferPointer($0))
    }
    if copied != nil { return }
    reserve(chunk.underestimatedCount)
    for byte in chunk { append(byte) }
  }

  /// The memory after the bytes held, at least `least` bytes of it, for a
  /// source to store bytes in before ``didAppend(_:)`` counts them.
  mutating func freeSpace(atLeast least: Int) -> UnsafeMutableRawBufferPointer {
    reserve(least)
    return UnsafeMutableRawBufferPointer(start: storage + count, count: capacity - count)
  }

  /// Counts `stored` bytes stored at the start of ``freeSpace(atLeast:)``.
  mutating func didAppend(_ stored: Int) {
    count += stored
  }

  private mutating func reserve(_ extra: Int) {
    guard count + extra > capacity else { return }
    var newCapacity = capacity
    while newCapacity < count + extra { newCapacity *= 2 }
    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    grown.update(from: storage, count: count)
    storage.deallocate()
    storage = grown
    capacity = newCapacity
  }

  func deallocate() {
    storage.deallocate()
  }
}
