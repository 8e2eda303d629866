/// A growable run of trivial values in manually managed memory.
///
/// The scanner appends to its tape, arena and stacks millions of times per
/// document; this type keeps each append to a compare and a store, without the
/// uniqueness and bounds checks of `Array`. It is a plain struct holding a
/// pointer: exactly one copy may be used at a time, and its owner
/// (``ScanContext``) deallocates it.
struct GrowableBuffer<Element: BitwiseCopyable> {
  /// The first element.
  private(set) var base: UnsafeMutablePointer<Element>
  /// How many elements fit before the buffer must grow.
  private(set) var capacity: Int
  /// How many elements are in use.
  var count = 0

  /// Allocates room for `capacity` elements (at least one).
  init(capacity: Int) {
    self.capacity = max(capacity, 1)
    base = .allocate(capacity: self.capacity)
  }

  /// Appends one element, growing geometrically when full.
  @inline(__always)
  mutating func append(_ element: Element) {
    if count == capacity { grow(toHold: count + 1) }
    base[count] = element
    count += 1
  }

  /// Makes room for at least `extra` more elements and returns a pointer to
  /// the first of them; the caller writes them and then adds to `count`.
  @inline(__always)
  mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<Element> {
    if capacity - count < extra { grow(toHold: count + extra) }
    return base + count
  }

  /// Moves the elements into a block at least twice as large.
  @inline(never)
  mutating func grow(toHold needed: Int) {
    let newCapacity = max(needed, capacity &* 2)
    let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
    newBase.moveInitialize(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  /// Shrinks a buffer that grew far beyond `limit` back to `limit`, so that
  /// one huge document does not pin its memory for the owner's lifetime.
  mutating func trim(to limit: Int) {
    count = 0
    guard capacity > limit else { return }
    base.deallocate()
    capacity = max(limit, 1)
    base = .allocate(capacity: capacity)
  }

  /// Frees the memory; the buffer must not be used afterwards.
  func deallocate() {
    base.deallocate()
  }
}
