/// Reading the decimal digits of JSON numbers: the scanner's loops over a
/// literal's integer and fraction digits, kept small and separately testable.
enum DecimalDigits {
  @inline(__always)
  static func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }

  /// Reads decimal digits from `start`, folding them into `value` with
  /// wrapping arithmetic (callers that need more than 19 digits re-read
  /// them); returns the index of the first non-digit.
  ///
  /// Eight bytes at a time while eight remain: the digits at the start of
  /// each word are found and converted together (``leadingDigitCount(_:)``,
  /// ``value(ofLeadingDigits:count:)``), so a 17-digit literal takes three
  /// steps instead of seventeen. The result is the same as one digit at a
  /// time, to the last wrapped bit: both compute the digits' value modulo
  /// 2^64.
  @inline(__always)
  static func accumulateDigits(
    _ base: UnsafePointer<UInt8>, from start: Int, end: Int, into value: inout UInt64
  ) -> Int {
    var position = start
    var accumulator = value
    let raw = UnsafeRawPointer(base)
    while position + 8 <= end {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
      let count = leadingDigitCount(word)
      if count == 8 {
        accumulator = accumulator &* 100_000_000 &+ self.value(ofEightDigits: word)
        position += 8
        continue
      }
      if count > 0 {
        accumulator =
          accumulator &* powerOfTen(count) &+ self.value(ofLeadingDigits: word, count: count)
      }
      value = accumulator
      return position + count
    }
    while position < end {
      let digit = base[position] &- UInt8(ascii: "0")
      if digit >= 10 { break }
      accumulator = accumulator &* 10 &+ UInt64(digit)
      position += 1
    }
    value = accumulator
    return position
  }

  /// How many of the eight bytes of `word` (the first in its low byte) are
  /// ASCII digits before the first byte that is not.
  @inline(__always)
  static func leadingDigitCount(_ word: UInt64) -> Int {
    let highs: UInt64 = 0x8080_8080_8080_8080
    // Each lane's low seven bits plus a constant below 0x80 stays within
    // its lane, so no carry crosses lanes; a lane's high bit then tells
    // whether the byte is at least "0", or above "9".
    let low = word & 0x7F7F_7F7F_7F7F_7F7F
    let atLeastZero = low &+ 0x5050_5050_5050_5050
    let aboveNine = low &+ 0x4646_4646_4646_4646
    // Bytes of 0x80 and above are never digits.
    let notDigit = (~atLeastZero | aboveNine | word) & highs
    return notDigit.trailingZeroBitCount >> 3
  }

  /// The value of the first `count` (1 to 7) bytes of `word`, which are
  /// ASCII digits, the first the most significant.
  @inline(__always)
  static func value(ofLeadingDigits word: UInt64, count: Int) -> UInt64 {
    // Move the digits to the top lanes and fill the lanes below with "0"s,
    // whose value is nothing: eight digits that spell the same number.
    let shift = UInt64(truncatingIfNeeded: 64 - 8 * count)
    let digits = (word &<< shift) | (0x3030_3030_3030_3030 &>> (64 &- shift))
    return value(ofEightDigits: digits)
  }

  /// The value of the eight ASCII digits in `word`, the first (in the low
  /// byte) the most significant: pairs of digits, then pairs of pairs, then
  /// the two halves are combined in three rounds of multiplications that
  /// keep every partial sum in its own lane.
  @inline(__always)
  static func value(ofEightDigits word: UInt64) -> UInt64 {
    let lanes = word &- 0x3030_3030_3030_3030
    // Each 16-bit lane: first digit × 10 + second.
    let pairs = (lanes &* 10 &+ lanes >> 8) & 0x00FF_00FF_00FF_00FF
    // Each 32-bit lane: first pair × 100 + second.
    let quads = (pairs &* 100 &+ pairs >> 16) & 0x0000_FFFF_0000_FFFF
    // First quad × 10 000 + second.
    return (quads &* 10_000 &+ quads >> 32) & 0xFFFF_FFFF
  }

  /// 10^`exponent`, for 1 through 7.
  @inline(__always)
  static func powerOfTen(_ exponent: Int) -> UInt64 {
    switch exponent {
    case 1: 10
    case 2: 100
    case 3: 1000
    case 4: 10_000
    case 5: 100_000
    case 6: 1_000_000
    default: 10_000_000
    }
  }

  /// Whether the `count` digits at `digits` (no leading zeros) are at most UInt64.max.
  static func fitsUInt64(_ digits: UnsafePointer<UInt8>, count: Int) -> Bool {
    if count < 20 { return true }
    if count > 20 { return false }
    let limit: StaticString = "18446744073709551615"
    return limit.withUTF8Buffer { limit in
      for index in 0..<20 where digits[index] != limit[index] {
        return digits[index] < limit[index]
      }
      return true
    }
  }

  /// The value of `count` digits that fit UInt64.
  static func parseUInt64(_ digits: UnsafePointer<UInt8>, count: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in 0..<count {
      value = value &* 10 &+ UInt64(digits[index] &- UInt8(ascii: "0"))
    }
    return value
  }
}
