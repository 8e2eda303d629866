/// What a coder found for each key of the key types whose values are at most
/// one byte of plain data (``CodingKeyTypes/valueByte(of:)``), by the key's
/// byte, so that a key met before is not asked for its `stringValue` again:
/// a key's name depends on the key alone.
///
/// Each slot (a key type's index in ``CodingKeyTypes``, or more than one slot
/// per index when a coder names keys in more than one way) has a block of
/// 256 payloads and the identity of the type it was filled for: an index is
/// given to another type once the key types are forgotten, and a block of
/// another type is emptied before it is used. The memory is the table's own,
/// so that a look-up through a class retains nothing.
struct KeyValueTable<Payload: BitwiseCopyable>: ~Copyable {
  private var blocks = MovingStack<KeyValueBlock>(capacity: 16)
  private var payloads = MovingStack<Payload?>(capacity: 256)

  /// What was kept for the key of type `type` whose byte is `value`, in
  /// `slot`; nil if nothing was.
  @inline(__always)
  func payload(slot: Int, type: ObjectIdentifier, value: UInt8) -> Payload? {
    guard slot < blocks.count, blocks[slot].type == type else { return nil }
    return payloads[blocks[slot].start &+ Int(value)]
  }

  /// Keeps `payload` for the key of type `type` whose byte is `value`, in
  /// `slot`; a block kept for another type is emptied first.
  @inline(never)
  mutating func keep(_ payload: Payload, slot: Int, type: ObjectIdentifier, value: UInt8) {
    while slot >= blocks.count { blocks.append(KeyValueBlock(type: nil, start: -1)) }
    if blocks[slot].type != type {
      if blocks[slot].start < 0 {
        blocks[slot].start = payloads.count
        for _ in 0..<256 { payloads.append(nil) }
      } else {
        let start = blocks[slot].start
        for offset in 0..<256 { payloads[start &+ offset] = nil }
      }
      blocks[slot].type = type
    }
    payloads[blocks[slot].start &+ Int(value)] = payload
  }
}

/// A slot of a ``KeyValueTable``: the type its block was filled for, and
/// where the block starts among the payloads (-1 before it has one).
struct KeyValueBlock: BitwiseCopyable {
  var type: ObjectIdentifier?
  var start: Int
}
