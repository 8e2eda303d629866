/// A stack of plain values in memory of its own, for the records a coder
/// keeps per open container or member, which it changes on every value.
///
/// An `Array` reached through a class or a pointer asks whether its buffer
/// is uniquely referenced before each change, since the compiler cannot
/// prove that nothing else shares it; a coder writing an object's member
/// changes its records four or five times. This stack is never shared (it
/// cannot be copied), so a change is a store. Indices are checked as an
/// array's are.
struct PlainStack<Element: BitwiseCopyable>: ~Copyable {
  private var base: UnsafeMutablePointer<Element>
  /// The number of elements.
  private(set) var count = 0
  /// The number of elements the memory has room for.
  private(set) var capacity: Int

  /// An empty stack with room for `capacity` elements.
  init(capacity: Int) {
    self.capacity = max(capacity, 1)
    base = .allocate(capacity: self.capacity)
  }

  deinit {
    base.deallocate()
  }

  /// The element at `index`, which must be less than ``count``.
  @inline(__always)
  subscript(index: Int) -> Element {
    unsafeAddress {
      precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "index out of range")
      return UnsafePointer(base + index)
    }
    unsafeMutableAddress {
      precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "index out of range")
      return base + index
    }
  }

  /// Whether the stack is empty.
  @inline(__always)
  var isEmpty: Bool { count == 0 }

  /// The top element, if any.
  @inline(__always)
  var last: Element? { count > 0 ? base[count &- 1] : nil }

  /// The elements, bottom-most first, copied into an array.
  var elements: [Element] {
    Array(UnsafeBufferPointer(start: base, count: count))
  }

  /// Puts `element` on top.
  @inline(__always)
  mutating func append(_ element: Element) {
    if count == capacity { grow() }
    (base + count).initialize(to: element)
    count &+= 1
  }

  /// Removes the top element and returns it; the stack must not be empty.
  @inline(__always)
  @discardableResult
  mutating func removeLast() -> Element {
    precondition(count > 0, "removeLast from an empty stack")
    count &-= 1
    return base[count]
  }

  /// Removes the top `n` elements; there must be as many.
  @inline(__always)
  mutating func removeLast(_ n: Int) {
    precondition(n >= 0 && n <= count, "removing more elements than there are")
    count &-= n
  }

  /// Removes every element, keeping the memory.
  @inline(__always)
  mutating func removeAll() {
    count = 0
  }

  /// Removes every element, and lets go of the memory if it has room for
  /// more than `limit` elements (a large document's, which is not kept idle).
  mutating func empty(keepingCapacityUpTo limit: Int) {
    count = 0
    guard capacity > limit else { return }
    base.deallocate()
    capacity = 16
    base = .allocate(capacity: capacity)
  }

  @inline(never)
  private mutating func grow() {
    let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
    grown.initialize(from: base, count: count)
    base.deallocate()
    base = grown
    capacity *= 2
  }
}
