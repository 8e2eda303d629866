// Layer 3 of DecimalToDouble: exact comparison with big integers.
//
// Every double b below infinity has a successor b⁺ (the next bit pattern), and the decimal
// rounds to b exactly when it lies between the midpoint below b and the midpoint above it
// (with ties going to the even bit pattern). Each midpoint is a dyadic number,
// odd × 2^e, so comparing the decimal D × 10^E with it is a comparison of two integers
// once the powers of five and of two are moved to the side where they are nonnegative.
// Starting from the Eisel–Lemire estimate, which is within one step of the answer, the
// search moves up or down until both neighbouring midpoints are on the right sides.

extension DecimalToDouble {
  /// The number of significant digits kept; later nonzero digits only set a sticky flag.
  ///
  /// Enough because a midpoint between doubles has at most 768 significant digits: when the
  /// kept digits differ from a midpoint, they differ within the first 769, and the dropped
  /// tail (less than one unit of the last kept digit) cannot cross it; when they equal it,
  /// the sticky flag says the true value is above.
  static let maxExactDigits = 800

  /// The exactly rounded value of a validated JSON number literal, from all its digits.
  /// Always right, and slow (microseconds): used when the fast layers cannot decide.
  static func exactConversion(text: UnsafeRawBufferPointer) -> Outcome {
    let layout = LiteralLayout(text)
    let (digits, exponent, sticky) = significantDigits(of: text, layout: layout)
    guard !digits.isEmpty else {
      return .value(layout.negative ? -0.0 : 0.0)
    }

    // The value lies in [10^(count + exponent - 1), 10^(count + exponent)).
    let count = digits.count
    if count + exponent - 1 > 308 {
      return .overflow
    }
    if count + exponent < -324 {
      return .underflow
    }

    var leading: UInt64 = 0
    let leadingCount = min(count, 19)
    for digit in digits[0..<leadingCount] {
      leading = leading * 10 + UInt64(digit)
    }
    let candidate = eiselLemireEstimate(leading, exponent + count - leadingCount).bits
    let decimal = ExactDecimal(digits: digits, exponent: exponent, sticky: sticky)
    let bits = decimal.nearestBits(from: min(candidate, infinityBits))
    return outcome(bits: bits, negative: layout.negative)
  }
}

extension DecimalToDouble {
  /// The significant digits of a validated literal (leading and trailing zeros dropped, at
  /// most `maxExactDigits` kept) and the exponent that goes with them; `sticky` when nonzero
  /// digits were dropped.
  fileprivate static func significantDigits(
    of text: UnsafeRawBufferPointer, layout: LiteralLayout
  ) -> (digits: [UInt8], exponent: Int, sticky: Bool) {
    var digits: [UInt8] = []
    var exponent = layout.exponent
    var sticky = false
    for index in layout.integerDigits {
      let digit = LiteralLayout.byte(in: text, at: index) &- UInt8(ascii: "0")
      if digits.isEmpty && digit == 0 {
        continue
      }
      if digits.count < maxExactDigits {
        digits.append(digit)
      } else {
        exponent += 1
        sticky = sticky || digit != 0
      }
    }
    for index in layout.fractionDigits {
      let digit = LiteralLayout.byte(in: text, at: index) &- UInt8(ascii: "0")
      if digits.isEmpty && digit == 0 {
        exponent -= 1
      } else if digits.count < maxExactDigits {
        digits.append(digit)
        exponent -= 1
      } else {
        sticky = sticky || digit != 0
      }
    }
    while digits.last == 0 {
      digits.removeLast()
      exponent += 1
    }
    return (digits, exponent, sticky)
  }

  /// -1, 0 or 1 as the magnitude of the validated literal `text` is below, equal to or
  /// above `value`, a finite nonnegative double. Exact, over all the digits; slow.
  ///
  /// A narrower type (Float) rounds the literal itself rather than its nearest double: when
  /// that double lies exactly halfway between two Floats, this says which way to go.
  static func compareMagnitude(of text: UnsafeRawBufferPointer, with value: Double) -> Int {
    let (digits, exponent, sticky) = significantDigits(of: text, layout: LiteralLayout(text))
    guard !digits.isEmpty else {
      return value == 0 ? 0 : -1
    }
    guard value != 0 else {
      return 1
    }
    let bits = value.bitPattern
    let fieldExponent = Int(bits >> 52)
    let fraction = bits & ((1 << 52) - 1)
    let significand = fieldExponent == 0 ? fraction : fraction | (1 << 52)
    let unitExponent = fieldExponent == 0 ? -1074 : fieldExponent - 1075
    let decimal = ExactDecimal(digits: digits, exponent: exponent, sticky: sticky)
    return decimal.compare(withOdd: significand, timesPowerOfTwo: unitExponent)
  }
}

/// A positive decimal D × 10^E (plus a sticky amount smaller than one unit of D's last digit,
/// when digits were dropped), prepared for exact comparisons with dyadic numbers.
private struct ExactDecimal {
  /// D × 5^max(E, 0).
  private let scaledDigits: BigUInt
  /// 5^max(-E, 0), the factor that moves to the other side when E is negative.
  private let powerOfFive: BigUInt
  /// E, whose power of two stays to be balanced against the midpoint's.
  private let exponent: Int
  /// Whether nonzero digits were dropped after D.
  private let sticky: Bool

  init(digits: [UInt8], exponent: Int, sticky: Bool) {
    var scaled = BigUInt(decimalDigits: digits)
    var power = BigUInt(1)
    if exponent >= 0 {
      scaled.multiplyByPowerOfFive(exponent)
    } else {
      power.multiplyByPowerOfFive(-exponent)
    }
    scaledDigits = scaled
    powerOfFive = power
    self.exponent = exponent
    self.sticky = sticky
  }

  /// The bit pattern of the nearest double, from 0 (rounds to zero) to `infinityBits`
  /// (rounds to infinity), searching from `candidate`.
  func nearestBits(from candidate: UInt64) -> UInt64 {
    var bits = candidate
    while true {
      if bits < DecimalToDouble.infinityBits {
        let order = compareWithMidpoint(above: bits)
        // On a tie the even bit pattern wins: if bits is odd, its successor is even.
        if order > 0 || (order == 0 && bits & 1 == 1) {
          bits += 1
          continue
        }
      }
      if bits > 0 {
        let order = compareWithMidpoint(above: bits - 1)
        if order < 0 || (order == 0 && bits & 1 == 1) {
          bits -= 1
          continue
        }
      }
      return bits
    }
  }

  /// -1, 0 or 1 as the decimal is below, at or above the midpoint between the double with
  /// bit pattern `bits` (finite, nonnegative) and the next one.
  private func compareWithMidpoint(above bits: UInt64) -> Int {
    let fieldExponent = Int(bits >> 52)
    let fraction = bits & ((1 << 52) - 1)
    // The double is significand × 2^unitExponent; the midpoint is (2 significand + 1) ×
    // 2^(unitExponent - 1).
    let significand = fieldExponent == 0 ? fraction : fraction | (1 << 52)
    let unitExponent = fieldExponent == 0 ? -1074 : fieldExponent - 1075
    return compare(withOdd: 2 * significand + 1, timesPowerOfTwo: unitExponent - 1)
  }

  /// -1, 0 or 1 as the decimal is below, equal to or above odd × 2^twos (`odd` may be
  /// any nonzero integer).
  fileprivate func compare(withOdd odd: UInt64, timesPowerOfTwo twos: Int) -> Int {
    // D × 5^E × 2^E against odd × 2^twos, with each power of five on the side where it
    // is a whole number, and the smaller power of two divided out of both sides.
    var left = scaledDigits
    var right = powerOfFive
    right.multiplyAdd(multiplier: odd, addend: 0)
    if exponent > twos {
      left.shiftLeft(by: exponent - twos)
    } else {
      right.shiftLeft(by: twos - exponent)
    }
    if left < right {
      return -1
    }
    if left == right {
      return sticky ? 1 : 0
    }
    return 1
  }
}
