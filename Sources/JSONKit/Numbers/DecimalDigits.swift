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
  @inline(__always)
  static func accumulateDigits(
    _ base: UnsafePointer<UInt8>, from start: Int, end: Int, into value: inout UInt64
  ) -> Int {
    var position = start
    var accumulator = value
    while position < end {
      let digit = base[position] &- UInt8(ascii: "0")
      if digit >= 10 { break }
      accumulator = accumulator &* 10 &+ UInt64(digit)
      position += 1
    }
    value = accumulator
    return position
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
