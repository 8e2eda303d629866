/// The scanner's byte-level loops, kept small and separately testable.
enum ScanPrimitives {
  /// Eight bytes at once: the mask has the high bit set in the lane of every
  /// byte that ends a run of plain string bytes (a quote, a backslash, a
  /// control character, or any non-ASCII byte). Lanes above the first flagged
  /// one may be flagged falsely by a borrow; only the lowest is ever used.
  @inline(__always)
  static func specialByteMask(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quotes = word ^ (ones &* 0x22)
    let backslashes = word ^ (ones &* 0x5C)
    let hasQuote = (quotes &- ones) & ~quotes
    let hasBackslash = (backslashes &- ones) & ~backslashes
    let hasControl = word &- (ones &* 0x20)
    return (hasQuote | hasBackslash | hasControl | word) & highs
  }

  /// Sixteen bytes at once: the index (0 to 15) of the first that is a
  /// quote, a backslash, a control character or non-ASCII, or 16 if none is.
  /// Read as signed, a byte of 0x80 or more is below 0x20. The compares are
  /// vector instructions; the mask's two halves are read as words (the
  /// standard library's `any` is a generic reduction that is not always made
  /// one instruction).
  @inline(__always)
  static func firstSpecialByte(_ bytes: SIMD16<Int8>) -> Int {
    let quotes = SIMD16<Int8>(repeating: 0x22)
    let backslashes = SIMD16<Int8>(repeating: 0x5C)
    let spaces = SIMD16<Int8>(repeating: 0x20)
    let special = (bytes .== quotes) .| (bytes .== backslashes) .| (bytes .< spaces)
    let halves = unsafeBitCast(special, to: SIMD2<UInt64>.self)
    if halves[0] != 0 { return halves[0].littleEndian.trailingZeroBitCount >> 3 }
    return 8 &+ halves[1].littleEndian.trailingZeroBitCount >> 3
  }

  /// The index of the first byte at or after `start` that is a quote, a
  /// backslash, a control character or non-ASCII, or `end` if there is none.
  ///
  /// Most strings end within eight bytes, which one word answers. Past it,
  /// sixteen bytes are tested at a time.
  @inline(__always)
  static func skipPlainStringBytes(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) -> Int {
    var position = start
    let raw = UnsafeRawPointer(base)
    if position &+ 8 <= end {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
      let mask = specialByteMask(word)
      if mask != 0 { return position &+ mask.trailingZeroBitCount >> 3 }
      position &+= 8
      while position &+ 16 <= end {
        let bytes = raw.loadUnaligned(fromByteOffset: position, as: SIMD16<Int8>.self)
        let first = firstSpecialByte(bytes)
        if first < 16 { return position &+ first }
        position &+= 16
      }
    }
    while position + 8 <= end {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
      let mask = specialByteMask(word)
      if mask != 0 { return position + mask.trailingZeroBitCount >> 3 }
      position += 8
    }
    while position < end {
      let byte = base[position]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 {
        return position
      }
      position += 1
    }
    return position
  }

  /// The index of the first byte at or after `start` that is not a space.
  @inline(__always)
  static func skipSpaces(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) -> Int {
    var position = start
    let raw = UnsafeRawPointer(base)
    while position + 8 <= end {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
      let others = word ^ 0x2020_2020_2020_2020
      if others != 0 { return position + others.trailingZeroBitCount >> 3 }
      position += 8
    }
    while position < end, base[position] == 0x20 { position += 1 }
    return position
  }

  /// Writes `scalar` as UTF-8 at `destination` (room for four bytes) and
  /// returns how many bytes it took.
  @inline(__always)
  static func encodeUTF8(_ scalar: UInt32, into destination: UnsafeMutablePointer<UInt8>) -> Int {
    switch scalar {
    case 0..<0x80:
      destination[0] = UInt8(scalar)
      return 1
    case 0x80..<0x800:
      destination[0] = UInt8(0xC0 | scalar >> 6)
      destination[1] = UInt8(0x80 | scalar & 0x3F)
      return 2
    case 0x800..<0x10000:
      destination[0] = UInt8(0xE0 | scalar >> 12)
      destination[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
      destination[2] = UInt8(0x80 | scalar & 0x3F)
      return 3
    default:
      destination[0] = UInt8(0xF0 | scalar >> 18)
      destination[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
      destination[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
      destination[3] = UInt8(0x80 | scalar & 0x3F)
      return 4
    }
  }
}
