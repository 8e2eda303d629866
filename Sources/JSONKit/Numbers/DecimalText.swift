import Foundation

#if !canImport(Darwin) && canImport(FoundationEssentials)
  // Decimal's layout initializer is public on Apple's platforms; elsewhere
  // swift-foundation offers it to corelibs Foundation as this SPI.
  @_spi(SwiftCorelibsFoundation) import FoundationEssentials
#endif

/// Decimal values that keep every digit of a JSON number.
///
/// The digits the literal's layout finds are read into a 128-bit integer, the zeros that end
/// them move into the exponent, and the Decimal is assembled from those fields
/// directly: no Decimal arithmetic, which costs far more than reading the
/// digits, and no allocation. The fields are those Foundation's own parser
/// leaves after compacting (the significand without trailing zeros, the
/// fewest 16-bit words that hold it, the compact flag set), so a nonzero
/// value equals `Decimal(string:)`'s field for field. A zero is Decimal's
/// zero, every field 0, where Foundation's parser keeps the exponent written
/// on it (`0e5`), which changes neither its value nor its text.
enum DecimalText {
  /// The smallest and largest values of Decimal's exponent, an 8-bit field.
  private static let smallestExponent = -128
  private static let largestExponent = 127

  /// The exact Decimal value of the JSON number `text`, or nil when Decimal
  /// cannot hold it exactly: more significant digits than its 128-bit
  /// significand holds, or an exponent beyond its range.
  ///
  /// A zero of either sign is Decimal's zero, which has no sign.
  static func exact(_ text: UnsafeRawBufferPointer) -> Decimal? {
    let layout = DecimalToDouble.LiteralLayout(text)
    var significand = Significand()
    significand.read(text, layout.integerDigits)
    significand.read(text, layout.fractionDigits)
    guard significand.digitCount > 0 else { return Decimal() }
    guard !significand.overflowed,
      let exponent = exponent(
        layout.exponent, layout.fractionDigits.count, significand.trailingZeros)
    else { return nil }
    return decimal(inRange: significand.value, exponent: exponent, negative: layout.negative)
  }

  /// The exact Decimal value of `magnitude` × 10^`exponent`, negative when
  /// `negative` is set, or nil when Decimal cannot hold it: the Decimal
  /// `exact(_:)` gives for that number written as text (CBOR's decimal
  /// fractions, `[exponent, mantissa]`, are read this way).
  static func exact(magnitude: UInt64, exponent: Int64, negative: Bool) -> Decimal? {
    guard magnitude != 0 else { return Decimal() }
    var significand = magnitude
    var trailingZeros = 0
    while significand % 10 == 0 {
      significand /= 10
      trailingZeros += 1
    }
    guard let written = Int(exactly: exponent),
      let exponent = self.exponent(written, 0, trailingZeros)
    else { return nil }
    return decimal(
      inRange: UInt128Words(high: 0, low: significand), exponent: exponent, negative: negative)
  }

  /// The Decimal of a significand without trailing zeros and its power of
  /// ten, or nil when the exponent is beyond what Decimal holds.
  private static func decimal(inRange significand: UInt128Words, exponent: Int, negative: Bool)
    -> Decimal?
  {
    guard exponent >= smallestExponent else { return nil }
    guard exponent > largestExponent else {
      return decimal(significand, exponent: exponent, negative: negative)
    }
    // `100e126` is 10 × 10^127: above the largest exponent, zeros go back
    // into the significand while it holds them, as Foundation's parser does.
    guard let padded = significand.timesPowerOfTen(exponent - largestExponent) else {
      return nil
    }
    return decimal(padded, exponent: largestExponent, negative: negative)
  }

  /// The power of ten of the significand without its trailing zeros, or nil
  /// when it is too far beyond Int's range to matter.
  private static func exponent(_ written: Int, _ fractionDigits: Int, _ trailingZeros: Int)
    -> Int?
  {
    let (scaled, borrow) = written.subtractingReportingOverflow(fractionDigits)
    let (exponent, carry) = scaled.addingReportingOverflow(trailingZeros)
    return borrow || carry ? nil : exponent
  }

  /// The Decimal with these fields: the significand in the fewest 16-bit
  /// words that hold it, and marked compact, as it has no trailing zeros
  /// unless they keep the exponent in range.
  private static func decimal(_ magnitude: UInt128Words, exponent: Int, negative: Bool)
    -> Decimal
  {
    let low = magnitude.low
    let high = magnitude.high
    return Decimal(
      _exponent: Int32(exponent), _length: UInt32((magnitude.bitWidth + 15) / 16),
      _isNegative: negative ? 1 : 0, _isCompact: 1, _reserved: 0,
      _mantissa: (
        UInt16(truncatingIfNeeded: low), UInt16(truncatingIfNeeded: low >> 16),
        UInt16(truncatingIfNeeded: low >> 32), UInt16(truncatingIfNeeded: low >> 48),
        UInt16(truncatingIfNeeded: high), UInt16(truncatingIfNeeded: high >> 16),
        UInt16(truncatingIfNeeded: high >> 32), UInt16(truncatingIfNeeded: high >> 48)
      ))
  }
}

/// An unsigned 128-bit integer as two words, which every platform JSONKit
/// supports has (`UInt128` needs macOS 15): a Decimal's significand.
struct UInt128Words {
  var high: UInt64 = 0
  var low: UInt64 = 0

  /// The number of bits up to the highest set one (0 for zero).
  var bitWidth: Int {
    high != 0 ? 128 - high.leadingZeroBitCount : 64 - low.leadingZeroBitCount
  }

  /// `self` × `factor` + `addend`, or nil when that does not fit 128 bits.
  func multiplied(by factor: UInt64, adding addend: UInt64) -> UInt128Words? {
    let lowProduct = low.multipliedFullWidth(by: factor)
    let highProduct = high.multipliedFullWidth(by: factor)
    let (sum, carry) = lowProduct.low.addingReportingOverflow(addend)
    // `lowProduct.high` is below `factor`, so adding the carry cannot overflow.
    let (upper, overflow) = highProduct.low.addingReportingOverflow(
      lowProduct.high + (carry ? 1 : 0))
    guard highProduct.high == 0, !overflow else { return nil }
    return UInt128Words(high: upper, low: sum)
  }

  /// `self` × 10^`power`, or nil when that does not fit 128 bits.
  func timesPowerOfTen(_ power: Int) -> UInt128Words? {
    var result = self
    var remaining = power
    while remaining > 0 {
      let step = min(remaining, 19)
      guard let product = result.multiplied(by: powerOfTen(step), adding: 0) else {
        return nil
      }
      result = product
      remaining -= step
    }
    return result
  }
}

/// 10^`power` for a power from 0 through 19, the powers of ten a UInt64
/// holds.
private func powerOfTen(_ power: Int) -> UInt64 {
  var result: UInt64 = 1
  for _ in 0..<power {
    result *= 10
  }
  return result
}

/// The significant digits of a number as they are read: leading zeros
/// skipped, and zeros after the last nonzero digit held back, so that a
/// number's trailing zeros never take room in the significand.
private struct Significand {
  /// The digits from the first nonzero one through the last nonzero one.
  var value = UInt128Words()
  /// How many digits `value` holds; 0 while only zeros have been read.
  var digitCount = 0
  /// The zeros read after the last nonzero digit.
  var trailingZeros = 0
  /// Whether the digits need more than 128 bits.
  var overflowed = false

  /// The 39 digits of 2^128 − 1: no more fit the significand.
  static let maxDigits = 39

  /// Reads the digits at `digits`, offsets into `text` that the literal's
  /// layout found.
  mutating func read(_ text: UnsafeRawBufferPointer, _ digits: Range<Int>) {
    for index in digits {
      append(text[index] &- UInt8(ascii: "0"))
    }
  }

  private mutating func append(_ digit: UInt8) {
    guard digit != 0 else {
      if digitCount > 0 {
        trailingZeros += 1
      }
      return
    }
    // The held-back zeros are digits of the number after all.
    let shift = trailingZeros + 1
    trailingZeros = 0
    let count = digitCount + shift
    digitCount = count
    if count <= 19 {
      // At most 19 digits: below 10^19, so within UInt64.
      let scale = shift == 1 ? 10 : powerOfTen(shift)
      value.low = value.low * scale + UInt64(digit)
    } else if !overflowed {
      appendWide(digit, shift: shift, count: count)
    }
  }

  /// Appends a digit past the 19th, in 128-bit arithmetic.
  private mutating func appendWide(_ digit: UInt8, shift: Int, count: Int) {
    guard count <= Self.maxDigits, let scaled = value.timesPowerOfTen(shift - 1),
      let next = scaled.multiplied(by: 10, adding: UInt64(digit))
    else {
      overflowed = true
      return
    }
    value = next
  }
}
