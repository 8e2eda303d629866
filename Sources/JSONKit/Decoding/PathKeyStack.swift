/// The keys that led, through keyed containers, into the values being
/// decoded now, innermost last: a coding path rebuilt from the tape names
/// each such member by the caller's own key (its type, its `intValue`), as
/// Foundation's paths do.
///
/// An entry does not copy its key: it points at the key in the frame of the
/// container call that pushed it, which pops it before that frame ends. So a
/// push and a pop cost a few stores, with no allocation or reference
/// counting, whatever the key's type; a key is copied out only when a path
/// is built. So a decoder that a model keeps past its `init(from:)` names
/// such members by their strings, as the document spells them.
struct PathKeyStack {
  private struct Entry {
    /// The tape index of the member value the key led to.
    let value: Int
    let key: UnsafeRawPointer
    let type: any CodingKey.Type
  }

  private var entries: UnsafeMutablePointer<Entry>?
  private var count = 0
  private var capacity = 0

  /// Pushes `key`, found at `pointer` until it is popped, as the key that
  /// led to the member value at `value`.
  @inline(__always)
  mutating func push<K: CodingKey>(_ pointer: UnsafePointer<K>, forValue value: Int) {
    if count == capacity { grow() }
    entries.unsafelyUnwrapped[count] = Entry(
      value: value, key: UnsafeRawPointer(pointer), type: K.self)
    count += 1
  }

  /// Pops the key pushed last.
  @inline(__always)
  mutating func pop() {
    count -= 1
  }

  @inline(never)
  private mutating func grow() {
    let larger = UnsafeMutablePointer<Entry>.allocate(capacity: max(16, 2 * capacity))
    if let entries {
      larger.moveInitialize(from: entries, count: count)
      entries.deallocate()
    }
    entries = larger
    capacity = max(16, 2 * capacity)
  }

  /// The key that led to the member value at `value`, if one being decoded
  /// now was reached by a key.
  func key(forValue value: Int) -> (any CodingKey)? {
    guard let entries else { return nil }
    var index = count - 1
    while index >= 0 {
      if entries[index].value == value {
        return Self.load(entries[index].type, from: entries[index].key)
      }
      index -= 1
    }
    return nil
  }

  private static func load<K: CodingKey>(_ type: K.Type, from pointer: UnsafeRawPointer)
    -> any CodingKey
  {
    pointer.assumingMemoryBound(to: K.self).pointee
  }

  /// Empties the stack, keeping its storage.
  mutating func removeAll() {
    count = 0
  }

  /// Frees the entries; the stack is empty again.
  mutating func deallocate() {
    entries?.deallocate()
    entries = nil
    count = 0
    capacity = 0
  }
}
