/// A stack in memory of its own, whose top elements leave it by moving into
/// their new home (an array, an object's members): no retain, release or
/// copy per element, as popping one `Array` into another would pay.
///
/// It also holds the records a coder changes on every value (the encoder's
/// open containers and members), read and changed in place through its
/// subscript: an `Array` reached through a class or a pointer asks whether
/// its buffer is uniquely referenced before each change, since the compiler
/// cannot prove that nothing else shares it, and a member changes its records
/// four or five times. Indices are checked as an array's are.
///
/// Non-copyable, so that exactly one owner deinitializes what is left on it,
/// which is what happens when building stops at an error; and never shared,
/// so that a change is a store.
struct MovingStack<Element>: ~Copyable {
  private var base: UnsafeMutablePointer<Element>
  /// The number of elements on the stack.
  private(set) var count = 0
  private var capacity: Int

  init(capacity: Int) {
    self.capacity = max(capacity, 8)
    base = UnsafeMutablePointer<Element>.allocate(capacity: self.capacity)
  }

  deinit {
    base.deinitialize(count: count)
    base.deallocate()
  }

  /// Puts `element` on top.
  @inline(__always)
  mutating func push(_ element: consuming Element) {
    if count == capacity { grow() }
    (base + count).initialize(to: element)
    count &+= 1
  }

  /// Removes the top element and returns it. The stack must not be empty.
  @inline(__always)
  mutating func pop() -> Element {
    count &-= 1
    return (base + count).move()
  }

  /// The top element. The stack must not be empty.
  @inline(__always)
  var top: Element {
    _read { yield base[count &- 1] }
  }

  /// Removes the top `n` elements (at least one), calling `body` with the
  /// first of them, bottom-most first; `body` must move every one of them
  /// out (or deinitialize it).
  @inline(__always)
  mutating func popMoving<R>(_ n: Int, _ body: (UnsafeMutablePointer<Element>) -> R) -> R {
    count &-= n
    return body(base + count)
  }

  /// The top `n` elements as an array, bottom-most first, removed from the
  /// stack.
  @inline(__always)
  mutating func popArray(_ n: Int) -> [Element] {
    popMoving(n) { [Element](MovedElements(from: $0, count: n)) }
  }

  /// Every element as an array, bottom-most first, moved out in one block;
  /// the stack is left empty. For code not specialized for `Element`, where
  /// filling an array from ``MovedElements`` would move each element
  /// through its witnesses and optionals.
  mutating func popAllAsArray() -> [Element] {
    let moved = count
    count = 0
    return [Element](unsafeUninitializedCapacity: moved) { buffer, initialized in
      buffer.baseAddress.unsafelyUnwrapped.moveInitialize(from: base, count: moved)
      initialized = moved
    }
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

  /// A copy of the top element, if any.
  @inline(__always)
  var last: Element? { count > 0 ? base[count &- 1] : nil }

  /// The elements, bottom-most first, copied into an array.
  var elements: [Element] {
    Array(UnsafeBufferPointer(start: base, count: count))
  }

  /// Puts `element` on top (``push(_:)``).
  @inline(__always)
  mutating func append(_ element: consuming Element) {
    push(element)
  }

  /// Removes the top element and returns it; the stack must not be empty.
  @inline(__always)
  @discardableResult
  mutating func removeLast() -> Element {
    precondition(count > 0, "removeLast from an empty stack")
    return pop()
  }

  /// Removes the top `n` elements; there must be as many.
  @inline(__always)
  mutating func removeLast(_ n: Int) {
    precondition(n >= 0 && n <= count, "removing more elements than there are")
    count &-= n
    (base + count).deinitialize(count: n)
  }

  /// Removes every element, keeping the memory.
  @inline(__always)
  mutating func removeAll() {
    removeLast(count)
  }

  /// Removes every element, and lets go of the memory if it has room for
  /// more than `limit` elements (a large document's, which is not kept idle).
  mutating func empty(keepingCapacityUpTo limit: Int) {
    removeAll()
    guard capacity > limit else { return }
    base.deallocate()
    capacity = 16
    base = .allocate(capacity: capacity)
  }

  @inline(never)
  private mutating func grow() {
    let newCapacity = capacity * 2
    let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
    newBase.moveInitialize(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }
}

/// Elements moved out of memory one by one, as a sequence that knows its
/// length.
///
/// `Array.init` fills an array from it with exactly `count` capacity
/// through code specialized for `Element`, where
/// `Array(unsafeUninitializedCapacity:)` allocates through an unspecialized
/// runtime call that looks up the storage type's metadata every time: for
/// the small arrays JSON is full of, that look-up cost more than the rest of
/// making the array.
struct MovedElements<Element>: Sequence, IteratorProtocol {
  private var position: UnsafeMutablePointer<Element>
  private let end: UnsafeMutablePointer<Element>

  /// The `count` elements from `start` on, which the sequence moves out as
  /// it is iterated: it must be iterated to its end exactly once.
  init(from start: UnsafeMutablePointer<Element>, count: Int) {
    position = start
    end = start + count
  }

  var underestimatedCount: Int { end - position }

  @inline(__always)
  mutating func next() -> Element? {
    guard position != end else { return nil }
    defer { position += 1 }
    return position.move()
  }
}
