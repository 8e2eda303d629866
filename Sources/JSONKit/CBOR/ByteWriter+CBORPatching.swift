#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Editing CBOR already written: the encoder writes an array's or a map's
/// head as one byte when it opens, and its count when it closes.
extension ByteWriter {
  /// Sets the head at `offset`, written as one byte, to `count` items of
  /// major type `major`, moving everything after it right when the count
  /// needs a longer head.
  mutating func patchCBORContainerHead(at offset: Int, major: UInt8, count: UInt64) {
    if count < 24 {
      (freeSpace - self.count + offset).storeBytes(of: major << 5 | UInt8(count), as: UInt8.self)
      return
    }
    let extra = count <= 0xFF ? 1 : count <= 0xFFFF ? 2 : count <= 0xFFFF_FFFF ? 4 : 8
    ensureCapacity(extra)
    let base = freeSpace - self.count
    memmove(base + offset + 1 + extra, base + offset + 1, self.count - offset - 1)
    commit(extra)
    _ = Self.storeCBORHead(major: major, count, at: base + offset)
  }
}

/// Steps over CBOR items JSONKit wrote itself (well-formed, definite
/// lengths), to find where each ends without reading it.
enum CBORItemWalker {
  /// The size of the head whose initial byte is `initial`: 1, or 1 and the
  /// one, two, four or eight bytes of its argument.
  @inline(__always)
  static func headSize(_ initial: UInt8) -> Int {
    let info = initial & 31
    return info < 24 ? 1 : 1 &+ 1 &<< Int(info &- 24)
  }

  /// The head at `offset`: its major type, its argument, and where it ends.
  @inline(__always)
  static func head(at offset: Int, in bytes: UnsafeRawBufferPointer)
    -> (major: UInt8, argument: UInt64, end: Int)
  {
    let initial = bytes.load(fromByteOffset: offset, as: UInt8.self)
    let info = initial & 31
    let argument =
      info < 24 ? UInt64(info) : argument(width: 1 &<< Int(info &- 24), after: offset, in: bytes)
    return (initial >> 5, argument, offset + headSize(initial))
  }

  /// The big-endian argument of `width` bytes (1, 2, 4 or 8) that follows
  /// the initial byte at `offset`, which the caller has checked `bytes`
  /// holds.
  @inline(__always)
  static func argument(width: Int, after offset: Int, in bytes: UnsafeRawBufferPointer)
    -> UInt64
  {
    switch width {
    case 1: UInt64(bytes.load(fromByteOffset: offset + 1, as: UInt8.self))
    case 2:
      UInt64(UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 1, as: UInt16.self)))
    case 4:
      UInt64(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 1, as: UInt32.self)))
    default: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 1, as: UInt64.self))
    }
  }

  /// Where the item starting at `offset` ends.
  static func end(ofItemAt offset: Int, in bytes: UnsafeRawBufferPointer) -> Int {
    walk(itemAt: offset, in: bytes).end
  }

  /// Where the item starting at `offset` ends, and whether it holds a map
  /// of more than one member (itself included). Integers, floats and
  /// simple values are stepped over by their initial byte alone.
  static func walk(itemAt offset: Int, in bytes: UnsafeRawBufferPointer)
    -> (end: Int, holdsMapOfMany: Bool)
  {
    let base = bytes.baseAddress!
    var position = offset
    var itemsLeft = 1
    var holdsMapOfMany = false
    while itemsLeft > 0 {
      itemsLeft -= 1
      let initial = base.load(fromByteOffset: position, as: UInt8.self)
      switch initial >> 5 {
      case 0, 1, 7:
        position += headSize(initial)
        continue
      default:
        break
      }
      let head = head(at: position, in: bytes)
      position = head.end
      let argument = Int(truncatingIfNeeded: head.argument)
      switch head.major {
      case 2, 3: position += argument
      case 4: itemsLeft += argument
      case 5:
        itemsLeft += 2 * argument
        if argument > 1 { holdsMapOfMany = true }
      default: itemsLeft += 1  // a tag's content
      }
    }
    return (position, holdsMapOfMany)
  }
}
