/// Writing CBOR's heads, strings and floats in preferred serialization
/// (RFC 8949 §4.1): every argument in its shortest form, every float in the
/// shortest precision that holds it exactly.
extension ByteWriter {
  /// Writes the head of major type `major` (0 to 7) with `argument` in its
  /// shortest form.
  @inline(__always)
  mutating func appendCBORHead(major: UInt8, _ argument: UInt64) {
    ensureCapacity(9)
    commit(Self.storeCBORHead(major: major, argument, at: freeSpace))
  }

  /// Stores the head of major type `major` with `argument` in its shortest
  /// form at `out`, which has room for it (at most 9 bytes), and returns
  /// its size.
  @inline(__always)
  static func storeCBORHead(major: UInt8, _ argument: UInt64, at out: UnsafeMutableRawPointer)
    -> Int
  {
    let type = major << 5
    if argument < 24 {
      out.storeBytes(of: type | UInt8(argument), as: UInt8.self)
      return 1
    } else if argument <= 0xFF {
      out.storeBytes(of: type | 24, as: UInt8.self)
      out.storeBytes(of: UInt8(argument), toByteOffset: 1, as: UInt8.self)
      return 2
    } else if argument <= 0xFFFF {
      out.storeBytes(of: type | 25, as: UInt8.self)
      out.storeBytes(of: UInt16(argument).bigEndian, toByteOffset: 1, as: UInt16.self)
      return 3
    } else if argument <= 0xFFFF_FFFF {
      out.storeBytes(of: type | 26, as: UInt8.self)
      out.storeBytes(of: UInt32(argument).bigEndian, toByteOffset: 1, as: UInt32.self)
      return 5
    } else {
      out.storeBytes(of: type | 27, as: UInt8.self)
      out.storeBytes(of: argument.bigEndian, toByteOffset: 1, as: UInt64.self)
      return 9
    }
  }

  /// Writes `value` as an unsigned or a negative integer.
  @inline(__always)
  mutating func appendCBORInteger(_ value: Int64) {
    if value >= 0 {
      appendCBORHead(major: 0, UInt64(value))
    } else {
      appendCBORHead(major: 1, UInt64(bitPattern: -1 - value))
    }
  }

  /// Writes `text` as a text string.
  mutating func appendCBORText(_ text: String) {
    var text = text
    text.withUTF8 { utf8 in
      appendCBORHead(major: 3, UInt64(utf8.count))
      append(UnsafeRawPointer(utf8.baseAddress ?? UnsafePointer(bitPattern: 1)!), count: utf8.count)
    }
  }

  /// Writes `bytes` as a byte string.
  mutating func appendCBORBytes(_ bytes: UnsafeRawBufferPointer) {
    appendCBORHead(major: 2, UInt64(bytes.count))
    if let base = bytes.baseAddress { append(base, count: bytes.count) }
  }

  /// Writes `value` as a half-, single- or double-precision float, the
  /// shortest that holds it exactly (a NaN keeps its payload).
  mutating func appendCBORFloat(_ value: Double) {
    ensureCapacity(9)
    let out = freeSpace
    if let half = HalfPrecision.bits(exactly: value) {
      out.storeBytes(of: 0xF9, as: UInt8.self)
      out.storeBytes(of: half.bigEndian, toByteOffset: 1, as: UInt16.self)
      commit(3)
    } else if let single = Self.singleBits(exactly: value) {
      out.storeBytes(of: 0xFA, as: UInt8.self)
      out.storeBytes(of: single.bigEndian, toByteOffset: 1, as: UInt32.self)
      commit(5)
    } else {
      out.storeBytes(of: 0xFB, as: UInt8.self)
      out.storeBytes(of: value.bitPattern.bigEndian, toByteOffset: 1, as: UInt64.self)
      commit(9)
    }
  }

  /// The single-precision bits that hold `value` exactly, if any.
  private static func singleBits(exactly value: Double) -> UInt32? {
    if value.isNaN {
      let pattern = value.bitPattern
      guard pattern & (1 << 29 - 1) == 0 else { return nil }
      let sign = UInt32(truncatingIfNeeded: pattern >> 32) & 0x8000_0000
      return sign | 0x7F80_0000 | UInt32(truncatingIfNeeded: pattern >> 29) & 0x7F_FFFF
    }
    let single = Float(value)
    return Double(single) == value ? single.bitPattern : nil
  }
}
