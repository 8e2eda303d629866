import Foundation

/// Decimal values that keep every digit of a JSON number.
enum DecimalText {
  /// Decimal's significand is a 128-bit integer: it holds every number of
  /// up to 38 digits and those of 39 digits up to this one.
  static let largestSignificand: StaticString = "340282366920938463463374607431768211455"

  /// The exact Decimal value of the JSON number `text`, or nil when Decimal
  /// cannot hold it exactly.
  static func exact(_ text: UnsafeRawBufferPointer) -> Decimal? {
    let layout = DecimalToDouble.LiteralLayout(text)
    var digits: [UInt8] = []
    for index in layout.integerDigits where !(digits.isEmpty && text[index] == UInt8(ascii: "0")) {
      digits.append(text[index])
    }
    for index in layout.fractionDigits where !(digits.isEmpty && text[index] == UInt8(ascii: "0")) {
      digits.append(text[index])
    }
    // Saturated far beyond Decimal's range, so this cannot overflow.
    var exponent = layout.exponent - layout.fractionDigits.count
    while digits.last == UInt8(ascii: "0") {
      digits.removeLast()
      exponent += 1
    }
    if digits.isEmpty {
      return layout.negative ? Decimal(sign: .minus, exponent: 0, significand: 0) : 0
    }
    guard exponent >= -128 else { return nil }
    if exponent > 127 {
      return withTrailingZeros(digits, exponent: exponent, negative: layout.negative)
    }
    guard fitsSignificand(digits) else { return nil }
    var significand = Decimal(0)
    var start = 0
    // Nineteen digits at a time always fit UInt64; each step is exact.
    while start < digits.count {
      let end = min(start + 19, digits.count)
      var chunk: UInt64 = 0
      for digit in digits[start..<end] { chunk = chunk * 10 + UInt64(digit - UInt8(ascii: "0")) }
      var scale = Decimal(1)
      for _ in start..<end { scale *= 10 }
      significand = significand * scale + Decimal(chunk)
      start = end
    }
    return Decimal(
      sign: layout.negative ? .minus : .plus, exponent: exponent, significand: significand)
  }

  /// The value `digits` × 10^`exponent` for an exponent above Decimal's
  /// largest (127), which Decimal still holds exactly when its significand
  /// takes the extra zeros: `100e126` is 10 × 10^127.
  ///
  /// Decimal's arithmetic would strip those zeros again and overflow (as
  /// `Decimal(sign:exponent:significand:)` does); its parser keeps them.
  private static func withTrailingZeros(_ digits: [UInt8], exponent: Int, negative: Bool)
    -> Decimal?
  {
    let zeros = exponent - 127
    guard digits.count + zeros <= largestSignificand.utf8CodeUnitCount else { return nil }
    let significand = digits + repeatElement(UInt8(ascii: "0"), count: zeros)
    guard fitsSignificand(significand) else { return nil }
    let text = (negative ? "-" : "") + String(decoding: significand, as: UTF8.self) + "e127"
    return Decimal(string: text)
  }

  /// Whether the decimal digits (no leading zeros) fit Decimal's 128-bit
  /// significand.
  private static func fitsSignificand(_ digits: [UInt8]) -> Bool {
    let limit = largestSignificand
    guard digits.count == limit.utf8CodeUnitCount else {
      return digits.count < limit.utf8CodeUnitCount
    }
    // Same length: the digits fit unless they come after the limit's.
    return limit.withUTF8Buffer { !$0.lexicographicallyPrecedes(digits) }
  }
}
