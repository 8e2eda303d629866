/// The shortest decimal that reads back to a given `Double` or `Float`, and of those the
/// closest to it: the digits Swift's `description` prints, found without making a `String`.
///
/// The method is Schubfach's (Raffaello Giulietti, "The Schubfach way to render doubles"):
/// scale the value and the two ends of its rounding interval by one power of ten chosen so
/// that the interval is between 1 and 10 units wide, so at most one multiple of ten lies in
/// it (that one is the shortest) and otherwise the shortest candidates are the two integers
/// around the value. The scaled quantities are computed with a 128-bit upper bound of the
/// power and rounded to odd, which keeps every comparison against a whole number exact.
struct ShortestDecimal {
  /// The decimal significand, without trailing zeros.
  var digits: UInt64
  /// The power of ten: the value is `digits` × 10^`exponent`.
  var exponent: Int

  /// The shortest decimal of a finite, nonzero `value`'s magnitude.
  @inline(__always)
  init(magnitudeOf value: Double) {
    let bits = value.bitPattern
    let fraction = bits & (1 << 52 - 1)
    let biasedExponent = Int(truncatingIfNeeded: bits >> 52) & 0x7FF
    if biasedExponent == 0 {
      self.init(significand: fraction, binaryExponent: -1074, regularSpacing: true)
    } else {
      self.init(
        significand: fraction | 1 << 52, binaryExponent: biasedExponent - 1075,
        regularSpacing: fraction != 0 || biasedExponent == 1)
    }
  }

  /// The shortest decimal of a finite, nonzero `value`'s magnitude, as a `Float`: shorter
  /// than the same number's as a `Double` in general.
  @inline(__always)
  init(magnitudeOf value: Float) {
    let bits = UInt64(value.bitPattern)
    let fraction = bits & (1 << 23 - 1)
    let biasedExponent = Int(truncatingIfNeeded: bits >> 23) & 0xFF
    if biasedExponent == 0 {
      self.init(significand: fraction, binaryExponent: -149, regularSpacing: true)
    } else {
      self.init(
        significand: fraction | 1 << 23, binaryExponent: biasedExponent - 150,
        regularSpacing: fraction != 0 || biasedExponent == 1)
    }
  }

  /// The shortest decimal in the rounding interval of c × 2^q, c > 0 with at most 53 bits.
  /// The interval reaches half a unit either side, except below a power of two that is not
  /// the smallest normal (`regularSpacing` false), where the next value down is only half a
  /// unit away, so the interval reaches a quarter unit down. Its ends belong to it when c is
  /// even, as round-to-nearest-even reads them back to c.
  @inline(__always)
  private init(significand c: UInt64, binaryExponent q: Int, regularSpacing: Bool) {
    let excludesEnds: UInt64 = c & 1
    let center = c << 2
    let upper = center + 2
    let lower: UInt64
    let k: Int
    if regularSpacing {
      lower = center - 2
      k = Self.floorLog10(powerOfTwo: q)
    } else {
      lower = center - 1
      k = Self.floorLog10(threeQuartersOfPowerOfTwo: q)
    }
    // Scale by 10^-k. With g normalized to [2^127, 2^128), the product's top word is the
    // scaled value when the operand is shifted left by h, which lies in 1 ... 4.
    let h = q + Self.floorLog2(powerOfTen: -k) + 1
    let g = PowersOfFive.upperBound(-k)
    let scaledCenter = Self.scaleRoundingToOdd(center << h, by: g)
    let scaledLower = Self.scaleRoundingToOdd(lower << h, by: g) + excludesEnds
    let scaledUpper = Self.scaleRoundingToOdd(upper << h, by: g) - excludesEnds
    let s = scaledCenter >> 2

    // A multiple of ten in the interval (at most one fits) is the shortest.
    let tensBelow = s / 10
    let lowTen = tensBelow &* 10
    let lowTenInside = scaledLower <= lowTen << 2
    let highTenInside = (lowTen &+ 10) << 2 <= scaledUpper
    if lowTenInside != highTenInside {
      var digits = highTenInside ? tensBelow &+ 1 : tensBelow
      var exponent = k &+ 1
      while digits % 10 == 0 {
        digits /= 10
        exponent &+= 1
      }
      self.digits = digits
      self.exponent = exponent
      return
    }
    // Otherwise the integer below or above the scaled value, whichever is inside, or the
    // closer (ties to even) when both are.
    let t = s &+ 1
    let sInside = scaledLower <= s << 2
    let tInside = t << 2 <= scaledUpper
    if sInside != tInside {
      digits = sInside ? s : t
    } else {
      let twiceMidpoint = (s &+ t) << 1
      let takeS = scaledCenter < twiceMidpoint || (scaledCenter == twiceMidpoint && s & 1 == 0)
      digits = takeS ? s : t
    }
    exponent = k
  }

  /// The top word of `operand` × g / 2^128, its lowest bit set when any fraction is left (the
  /// word below is not zero): round to odd. What g exceeds the exact power by never reaches
  /// that word, so a whole product reads as whole.
  @inline(__always)
  private static func scaleRoundingToOdd(
    _ operand: UInt64, by g: (high: UInt64, low: UInt64)
  ) -> UInt64 {
    let lowProduct = g.low.multipliedFullWidth(by: operand)
    let highProduct = g.high.multipliedFullWidth(by: operand)
    let (middle, carry) = highProduct.low.addingReportingOverflow(lowProduct.high)
    let top = highProduct.high &+ (carry ? 1 : 0)
    return top | (middle != 0 ? 1 : 0)
  }

  /// floor(q × log10(2)) for |q| <= 2620 (checked by the tests over the range used).
  @inline(__always)
  static func floorLog10(powerOfTwo q: Int) -> Int {
    (q &* 315_653) >> 20
  }

  /// floor(log10(3/4 × 2^q)) for |q| <= 2620 (checked by the tests over the range used).
  @inline(__always)
  static func floorLog10(threeQuartersOfPowerOfTwo q: Int) -> Int {
    (q &* 315_653 &- 131_237) >> 20
  }

  /// floor(k × log2(10)) for |k| <= 1233 (checked by the tests over the range used).
  @inline(__always)
  static func floorLog2(powerOfTen k: Int) -> Int {
    (k &* 1_741_647) >> 19
  }
}
