/// The members of one object on the tape, in order: the one walk over an
/// object that lookups, member tables, `allKeys` and key names share.
///
/// A member is a key entry followed by its value; a container value is
/// stepped over whole through its end index, so the walk takes one step per
/// member, whatever the members hold.
struct ObjectMembers: Sequence, IteratorProtocol {
  /// One member of the object.
  struct Member {
    /// The tape index of the key entry; its value is at `key + 1`.
    let key: Int
    /// The key's id in the key cache.
    let id: UInt32
    /// The tape index after the member's value: the next member's key, or
    /// the object's end.
    let next: Int

    /// The tape index of the member's value.
    @inline(__always)
    var value: Int { key + 1 }
  }

  private let entries: UnsafePointer<TapeEntry>
  private var position: Int
  private let end: Int

  /// The members of the object entry at `object`, starting from the member
  /// whose key is at `start` (the first one by default).
  @inline(__always)
  init(of object: Int, in entries: UnsafePointer<TapeEntry>, from start: Int? = nil) {
    self.entries = entries
    position = start ?? object + 1
    end = entries[object].containerEnd
  }

  @inline(__always)
  mutating func next() -> Member? {
    guard position < end else { return nil }
    let key = position
    let value = entries[key + 1]
    position = value.isContainer ? value.containerEnd : key + 2
    return Member(key: key, id: UInt32(truncatingIfNeeded: entries[key].payload), next: position)
  }
}
