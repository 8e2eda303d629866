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
    let type = major << 5
    if count < 24 {
      (freeSpace - self.count + offset).storeBytes(of: type | UInt8(count), as: UInt8.self)
      return
    }
    let extra: Int
    if count <= 0xFF {
      extra = 1
    } else if count <= 0xFFFF {
      extra = 2
    } else if count <= 0xFFFF_FFFF {
      extra = 4
    } else {
      extra = 8
    }
    ensureCapacity(extra)
    let base = freeSpace - self.count
    memmove(base + offset + 1 + extra, base + offset + 1, self.count - offset - 1)
    commit(extra)
    let head = base + offset
    switch extra {
    case 1:
      head.storeBytes(of: type | 24, as: UInt8.self)
      head.storeBytes(of: UInt8(count), toByteOffset: 1, as: UInt8.self)
    case 2:
      head.storeBytes(of: type | 25, as: UInt8.self)
      head.storeBytes(of: UInt16(count).bigEndian, toByteOffset: 1, as: UInt16.self)
    case 4:
      head.storeBytes(of: type | 26, as: UInt8.self)
      head.storeBytes(of: UInt32(count).bigEndian, toByteOffset: 1, as: UInt32.self)
    default:
      head.storeBytes(of: type | 27, as: UInt8.self)
      head.storeBytes(of: count.bigEndian, toByteOffset: 1, as: UInt64.self)
    }
  }
}

/// Steps over CBOR items JSONKit wrote itself (well-formed, definite
/// lengths), to find where each ends without reading it.
enum CBORItemWalker {
  /// The head at `offset`: its major type, its argument, and where it ends.
  static func head(at offset: Int, in bytes: UnsafeRawBufferPointer)
    -> (major: UInt8, argument: UInt64, end: Int)
  {
    let initial = bytes[offset]
    let info = initial & 31
    var argument = UInt64(info)
    var end = offset + 1
    let size: Int
    switch info {
    case 24: size = 1
    case 25: size = 2
    case 26: size = 4
    case 27: size = 8
    default: size = 0
    }
    if size > 0 {
      argument = 0
      for index in 0..<size { argument = argument << 8 | UInt64(bytes[end + index]) }
      end += size
    }
    return (initial >> 5, argument, end)
  }

  /// Where the item starting at `offset` ends.
  static func end(ofItemAt offset: Int, in bytes: UnsafeRawBufferPointer) -> Int {
    var position = offset
    var itemsLeft = 1
    while itemsLeft > 0 {
      itemsLeft -= 1
      let head = head(at: position, in: bytes)
      position = head.end
      switch head.major {
      case 2, 3: position += Int(head.argument)
      case 4: itemsLeft += Int(head.argument)
      case 5: itemsLeft += 2 * Int(head.argument)
      case 6: itemsLeft += 1
      default: break
      }
    }
    return position
  }
}
