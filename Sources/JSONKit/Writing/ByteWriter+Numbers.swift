// Numbers are written as Foundation's JSONEncoder writes them: integers in
// plain decimal, and binary floating-point values as the shortest decimal that
// reads back to the same value, laid out as Swift's `description` lays it out
// but without a trailing ".0": 1.0 is `1`, -0.0 is `-0`, 1e16 is `1e+16`,
// 1e-7 is `1e-07`. The digits come from `ShortestDecimal`, straight into the
// output, with no `String` in between.

extension ByteWriter {
  // MARK: - Integers

  /// Writes `value` in decimal.
  mutating func write(_ value: UInt64) {
    ensureCapacity(20)
    let digits = Self.decimalDigitCount(value)
    Self.storeDigits(of: value, count: digits, at: freeSpace)
    commit(digits)
  }

  /// Writes `value` in decimal, with a leading `-` when negative.
  mutating func write(_ value: Int64) {
    if value < 0 {
      append(UInt8(ascii: "-"))
    }
    write(value.magnitude)
  }

  /// Writes any standard integer of 64 bits or fewer in decimal.
  @inline(__always)
  mutating func write<T: FixedWidthInteger>(integer value: T) {
    if T.isSigned {
      write(Int64(value))
    } else {
      write(UInt64(value))
    }
  }

  /// Writes `value` in decimal.
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func write(_ value: UInt128) {
    if let small = UInt64(exactly: value) {
      write(small)
      return
    }
    // Split into base-10^19 limbs: the largest UInt128 has 39 digits, so at
    // most one limb above the two low ones, and it fits a UInt64.
    let limb: UInt128 = 10_000_000_000_000_000_000
    let low = UInt64(value % limb)
    let rest = value / limb
    if let middle = UInt64(exactly: rest) {
      write(middle)
    } else {
      write(UInt64(rest / limb))
      writeNineteenDigits(UInt64(rest % limb))
    }
    writeNineteenDigits(low)
  }

  /// Writes `value` in decimal, with a leading `-` when negative.
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func write(_ value: Int128) {
    if value < 0 {
      append(UInt8(ascii: "-"))
    }
    write(value.magnitude)
  }

  private mutating func writeNineteenDigits(_ value: UInt64) {
    ensureCapacity(19)
    Self.storeDigits(of: value, count: 19, at: freeSpace)
    commit(19)
  }

  /// The number of decimal digits of `value` (1 for zero).
  @inline(__always)
  static func decimalDigitCount(_ value: UInt64) -> Int {
    // `| 1` changes no digit count (every power of ten above 1 is even) and
    // makes zero count as one digit. 1233 / 4096 is just above log10(2), so
    // `guess` is the digit count or one less.
    let bits = 64 &- (value | 1).leadingZeroBitCount
    let guess = (bits &* 1233) >> 12
    return value | 1 >= powersOfTen[guess] ? guess &+ 1 : guess
  }

  private static let powersOfTen: [UInt64] = [
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000,
    1_000_000_000, 10_000_000_000, 100_000_000_000, 1_000_000_000_000,
    10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
    10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000,
    10_000_000_000_000_000_000,
  ]

  /// Stores the low `count` decimal digits of `value`, zero-padded, at
  /// `destination`, two digits per division.
  @inline(__always)
  static func storeDigits(
    of value: UInt64, count: Int, at destination: UnsafeMutableRawPointer
  ) {
    var value = value
    var end = count
    while end >= 2 {
      let pair = UInt8(truncatingIfNeeded: value % 100)
      value /= 100
      end &-= 2
      // pair / 10 for pair < 100, without a division.
      let tens = UInt8(truncatingIfNeeded: (UInt16(pair) &* 103) >> 10)
      destination.storeBytes(of: 0x30 &+ tens, toByteOffset: end, as: UInt8.self)
      destination.storeBytes(
        of: 0x30 &+ (pair &- tens &* 10), toByteOffset: end &+ 1, as: UInt8.self)
    }
    if end == 1 {
      destination.storeBytes(
        of: 0x30 &+ UInt8(truncatingIfNeeded: value % 10), toByteOffset: 0, as: UInt8.self)
    }
  }

  // MARK: - Floating point

  /// Writes a finite `Double` as `JSONEncoder` does. The caller rejects NaN
  /// and infinities first.
  mutating func writeFinite(_ value: Double) {
    if value == 0 {
      writeZero(negative: value.sign == .minus)
      return
    }
    // Swift's `description` switches to exponent form below 1e-4 and above
    // 2^53, where consecutive doubles stop being consecutive integers.
    writeShortest(
      ShortestDecimal(magnitudeOf: value), negative: value.sign == .minus,
      positional: value.magnitude <= 0x1p53)
  }

  /// Writes a finite `Float` as `JSONEncoder` does: the shortest decimal that
  /// reads back to the same `Float`.
  mutating func writeFinite(_ value: Float) {
    if value == 0 {
      writeZero(negative: value.sign == .minus)
      return
    }
    writeShortest(
      ShortestDecimal(magnitudeOf: value), negative: value.sign == .minus,
      positional: value.magnitude <= 0x1p24)
  }

  private mutating func writeZero(negative: Bool) {
    if negative {
      append(UInt8(ascii: "-"), UInt8(ascii: "0"))
    } else {
      append(UInt8(ascii: "0"))
    }
  }

  /// Writes `decimal` in the layout of Swift's `description` without its
  /// trailing ".0": positional (`123.45`, `0.00012`, `100`) when `positional`
  /// allows it and the leading digit's power of ten is at least -4, otherwise
  /// one digit before the point and a signed exponent of at least two digits
  /// (`1.5e-07`, `1e+16`, `5e-324`).
  @inline(__always)
  private mutating func writeShortest(
    _ decimal: ShortestDecimal, negative: Bool, positional: Bool
  ) {
    // The longest text is 24 bytes (sign, 17 digits, point, "e-324"), but the
    // digits are stored and moved eight bytes at a time, which may touch bytes
    // past the text's end (later overwritten or left uncommitted).
    ensureCapacity(48)
    var cursor = freeSpace
    if negative {
      cursor.storeBytes(of: UInt8(ascii: "-"), as: UInt8.self)
      cursor += 1
    }
    let digits = decimal.digits
    let count = Self.decimalDigitCount(digits)
    // The power of ten of the leading digit.
    let leading = decimal.exponent &+ count &- 1
    if positional && leading >= -4 {
      if leading < 0 {
        // "0." and up to three zeros before the digits.
        cursor.storeBytes(of: (0x3030_3030_3030_2E30 as UInt64).littleEndian, as: UInt64.self)
        Self.storeShortDigits(of: digits, count: count, at: cursor + (1 &- leading))
        cursor += 1 &- leading &+ count
      } else if count <= leading &+ 1 {
        // A whole number: the zeros cut from the digits come back.
        Self.storeShortDigits(of: digits, count: count, at: cursor)
        var index = count
        while index <= leading {
          cursor.storeBytes(of: UInt8(ascii: "0"), toByteOffset: index, as: UInt8.self)
          index &+= 1
        }
        cursor += leading &+ 1
      } else {
        Self.storeShortDigits(of: digits, count: count, at: cursor)
        Self.insertPoint(at: cursor + (leading &+ 1))
        cursor += count &+ 1
      }
    } else {
      Self.storeShortDigits(of: digits, count: count, at: cursor)
      if count == 1 {
        cursor += 1
      } else {
        Self.insertPoint(at: cursor + 1)
        cursor += count &+ 1
      }
      cursor.storeBytes(of: UInt8(ascii: "e"), as: UInt8.self)
      cursor.storeBytes(
        of: leading < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"), toByteOffset: 1, as: UInt8.self)
      let magnitude = UInt64(leading.magnitude)
      let exponentDigits = magnitude < 100 ? 2 : 3
      Self.storeDigits(of: magnitude, count: exponentDigits, at: cursor + 2)
      cursor += 2 &+ exponentDigits
    }
    commit(cursor - freeSpace)
  }

  /// Moves the (at most 16) digits from `position` one byte on and puts a
  /// point in their place.
  @inline(__always)
  private static func insertPoint(at position: UnsafeMutableRawPointer) {
    let first = position.loadUnaligned(as: UInt64.self)
    let second = position.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    position.storeBytes(of: first, toByteOffset: 1, as: UInt64.self)
    position.storeBytes(of: second, toByteOffset: 9, as: UInt64.self)
    position.storeBytes(of: UInt8(ascii: "."), as: UInt8.self)
  }

  /// Stores the `count` (at most 20) decimal digits of `value` at
  /// `destination`, eight at a time. It may write up to eight bytes past the
  /// last digit.
  @inline(__always)
  private static func storeShortDigits(
    of value: UInt64, count: Int, at destination: UnsafeMutableRawPointer
  ) {
    if count <= 8 {
      storeLeadingDigits(of: value, count: count, at: destination)
    } else if count <= 16 {
      let high = value / 100_000_000
      storeLeadingDigits(of: high, count: count &- 8, at: destination)
      storeEightDigits(of: value &- high &* 100_000_000, at: destination + (count &- 8))
    } else {
      let high = value / 100_000_000
      let top = high / 100_000_000
      storeLeadingDigits(of: top, count: count &- 16, at: destination)
      storeEightDigits(of: high &- top &* 100_000_000, at: destination + (count &- 16))
      storeEightDigits(of: value &- high &* 100_000_000, at: destination + (count &- 8))
    }
  }

  /// Stores the `count` (1 to 8) digits of `value` < 10^count at
  /// `destination`, and zero bytes after them up to eight bytes in all.
  @inline(__always)
  private static func storeLeadingDigits(
    of value: UInt64, count: Int, at destination: UnsafeMutableRawPointer
  ) {
    // The eight digits' word starts with 8 - count zeros; shifting them out
    // (the first byte is the lowest) leaves the digits at the front.
    let word = eightDigitWord(value) >> UInt64(truncatingIfNeeded: (8 &- count) &* 8)
    destination.storeBytes(of: word.littleEndian, as: UInt64.self)
  }

  @inline(__always)
  private static func storeEightDigits(of value: UInt64, at destination: UnsafeMutableRawPointer) {
    destination.storeBytes(of: eightDigitWord(value).littleEndian, as: UInt64.self)
  }

  /// The eight ASCII digits of `value` < 10^8, zero-padded, the first digit in
  /// the lowest byte: the halves, quarters and single digits are split in
  /// parallel lanes of one word, each division a multiplication and a shift
  /// exact for the lane's range.
  @inline(__always)
  private static func eightDigitWord(_ value: UInt64) -> UInt64 {
    let upperFour = value / 10_000
    // Two 32-bit lanes below 10,000: x / 100 is (x × 10486) >> 20 there.
    let fours = upperFour | (value &- upperFour &* 10_000) << 32
    let upperTwos = ((fours &* 10_486) >> 20) & 0x0000_007F_0000_007F
    // Four 16-bit lanes below 100: x / 10 is (x × 103) >> 10 there.
    let twos = upperTwos | (fours &- upperTwos &* 100) << 16
    let tens = ((twos &* 103) >> 10) & 0x000F_000F_000F_000F
    let ones = tens | (twos &- tens &* 10) << 8
    return ones | 0x3030_3030_3030_3030
  }
}
