/// Correctly rounded conversion of decimal numbers to `Double`.
///
/// A JSON number such as `-12.50e+3` names an exact decimal value; the scanner needs the `Double`
/// nearest to it, the one with the even significand on an exact tie, and an error when the value
/// is out of range. JSONKit does this itself, without `strtod`, Foundation or `Double(String)`,
/// so that the result is the same on every platform and never depends on a C library.
///
/// Most decimals fall strictly between two doubles, and the rounding depends on which side of
/// the midpoint between them the decimal lies. Midpoints have up to 768 significant digits, and
/// a decimal can agree with one in all of them, so no fixed precision is always enough; but
/// nearly every number is far from a midpoint, and a few bits beyond the 53 of a double settle
/// it. The conversion therefore tries three layers, each exact when it answers, cheapest first:
///
/// 1. **Exact arithmetic** (`exactProduct`). When the significand has at most 53 bits and the
///    decimal exponent is within ±22, the significand and the power of ten are both exact
///    doubles, and a single IEEE multiplication or division, which rounds correctly by
///    definition, gives the answer. This covers short literals such as `0.5` or `12.25`.
/// 2. **Eisel–Lemire** (`eiselLemire`). The significand, normalized to 64 bits, is multiplied by
///    a 128-bit approximation of 5^q (`PowersOfFive`); the power 2^q of 10^q only moves the
///    binary exponent. The error of the approximation is one-sided and smaller than one unit in
///    the last place of the 128-bit product, so unless the bits below the 54 that matter are
///    all ones or all zeros, they decide the rounding exactly; when they are all zeros because
///    the value is an exact binary fraction, dividing out 5^-q settles it. This covers the
///    15-to-17-digit numbers that JSON writers emit, in a few nanoseconds.
///    When more than 19 digits were written, the value lies strictly between w × 10^q and
///    (w + 1) × 10^q for the 19 leading digits w; rounding is monotonic, so when both ends give
///    the same double, so does everything between them.
/// 3. **Exact comparison** (`exactConversion(text:)`). The decimal is compared with the
///    midpoint next to a candidate double using big-integer arithmetic, over all its digits.
///    This always answers, in about a microsecond; it is only reached for literals of more than
///    19 digits lying close to a midpoint, such as a midpoint written out in full.
///
/// Results are carried as IEEE bit patterns of the magnitude: 0 means the value rounds to zero
/// and `infinityBits` that it rounds to infinity; the sign is applied last.
enum DecimalToDouble {
  /// The result of a conversion.
  enum Outcome: Equatable {
    /// The nearest double, ties to even. Subnormal numbers are values; a zero literal gives
    /// a zero of the literal's sign.
    case value(Double)
    /// The magnitude rounds to infinity: it is at least
    /// `Double.greatestFiniteMagnitude` plus half a unit in its last place.
    case overflow
    /// The literal is not zero, but its magnitude rounds to zero: it is at most half of
    /// `Double.leastNonzeroMagnitude`.
    case underflow
  }

  /// The bit pattern of positive infinity; results at or above it overflow.
  static let infinityBits: UInt64 = 0x7FF0_0000_0000_0000

  /// Converts a number the scanner has already split into its leading digits and exponent.
  ///
  /// - Parameters:
  ///   - significand: The first (at most 19) significant decimal digits, leading zeros skipped.
  ///   - exponent: The power of ten such that the value is `significand` × 10^`exponent`.
  ///     Anything beyond ±100 000 is certain overflow, underflow or zero.
  ///   - negative: Whether the literal starts with `-`.
  ///   - truncated: Whether nonzero digits followed the kept ones, so that the value lies
  ///     strictly between `significand` × 10^`exponent` and (`significand` + 1) × 10^`exponent`.
  ///   - text: The complete literal, grammar already validated, for the exact layer.
  static func convert(
    significand: UInt64, exponent: Int, negative: Bool, truncated: Bool,
    text: UnsafeRawBufferPointer
  ) -> Outcome {
    if significand == 0 {
      return .value(negative ? -0.0 : 0.0)
    }
    if !truncated, let magnitude = exactProduct(significand, exponent) {
      return .value(negative ? -magnitude : magnitude)
    }
    if let bits = eiselLemire(significand, exponent) {
      if !truncated {
        return outcome(bits: bits, negative: negative)
      }
      if significand < UInt64.max, eiselLemire(significand + 1, exponent) == bits {
        return outcome(bits: bits, negative: negative)
      }
    }
    return exactConversion(text: text)
  }

  /// Converts a whole validated JSON number literal, such as `-12.50e+3`.
  static func convert(text: UnsafeRawBufferPointer) -> Outcome {
    let layout = LiteralLayout(text)
    var significand: UInt64 = 0
    var kept = 0
    var exponent = layout.exponent
    var truncated = false
    for index in layout.integerDigits {
      let digit = UInt64(LiteralLayout.byte(in: text, at: index) &- UInt8(ascii: "0"))
      if kept == 0 && digit == 0 {
        continue
      }
      if kept < 19 {
        significand = significand * 10 + digit
        kept += 1
      } else {
        exponent += 1
        truncated = truncated || digit != 0
      }
    }
    for index in layout.fractionDigits {
      let digit = UInt64(LiteralLayout.byte(in: text, at: index) &- UInt8(ascii: "0"))
      if kept == 0 && digit == 0 {
        exponent -= 1
      } else if kept < 19 {
        significand = significand * 10 + digit
        kept += 1
        exponent -= 1
      } else {
        truncated = truncated || digit != 0
      }
    }
    return convert(
      significand: significand, exponent: exponent, negative: layout.negative,
      truncated: truncated, text: text)
  }

  // MARK: - Layer 1: exact arithmetic

  /// 10^0 ... 10^22: the powers of ten that are exact doubles (5^22 < 2^53).
  private static let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// significand × 10^exponent when both factors are exact doubles, so that the one rounding
  /// of the IEEE multiplication or division is the only rounding; nil otherwise.
  @inline(__always)
  static func exactProduct(_ significand: UInt64, _ exponent: Int) -> Double? {
    guard significand <= 1 << 53, exponent >= -22, exponent <= 22 else {
      return nil
    }
    let value = Double(significand)
    return exponent >= 0
      ? value * exactPowersOfTen[exponent]
      : value / exactPowersOfTen[-exponent]
  }

  // MARK: - Layer 2: Eisel–Lemire

  /// The bit pattern of the magnitude nearest to significand × 10^exponent (0 when it rounds
  /// to zero, `infinityBits` when it rounds to infinity), or nil when the 128-bit product
  /// lies too close to a rounding boundary to decide. `significand` must not be zero.
  @inline(__always)
  static func eiselLemire(_ significand: UInt64, _ exponent: Int) -> UInt64? {
    let estimate = eiselLemireEstimate(significand, exponent)
    return estimate.isCertain ? estimate.bits : nil
  }

  /// The Eisel–Lemire result and whether it is proven correct. When it is not, the bits are
  /// still within one unit in the last place, which makes them a good starting candidate for
  /// the exact layer.
  ///
  /// With w the normalized significand (top bit set) and T the table entry for q, the exact
  /// product X = w × 5^q × 2^(127 - s) (s = floor(q log2 5)) is known within one unit of
  /// 2^64 from the top 128 bits of w × T, and only in one direction (see `PowersOfFive`).
  /// The double needs 54 leading bits of X (53 plus one to round with); when the bits below
  /// those cannot move them, the estimate is certain.
  ///
  /// Rounding half up from those 54 bits is right except on an exact tie, which needs
  /// w × 10^q to be a dyadic number with 54 significant bits. For 0 <= q <= 27, T is exact
  /// (5^q < 2^64), so is the product, and a tie shows as a rounding bit followed by zeros.
  /// For q < 0, a dyadic value has w divisible by 5^-q, and then the one-sided error of T
  /// stays below the product's last bit: the bits below the 54 are exactly zero, which is
  /// reported as uncertain, and settled exactly by dividing by 5^-q.
  @inline(__always)
  static func eiselLemireEstimate(
    _ significand: UInt64, _ exponent: Int
  ) -> (bits: UInt64, isCertain: Bool) {
    if exponent < PowersOfFive.minExponent {
      return (0, true)
    }
    if exponent > PowersOfFive.maxExponent {
      return (infinityBits, true)
    }
    let leadingZeros = significand.leadingZeroBitCount
    let normalized = significand << leadingZeros
    let power = PowersOfFive.approximation(exponent)
    var (high, low) = normalized.multipliedFullWidth(by: power.high)
    if high & 0x1FF == 0x1FF {
      // The low half of T can carry into the bits that are kept: add its contribution.
      // w × T < 2^192, so the carry never leaves `high`.
      let (sum, carry) = low.addingReportingOverflow(
        normalized.multipliedFullWidth(by: power.low).high)
      low = sum
      high &+= carry ? 1 : 0
    }
    // high has its top bit at 63 or 62; keep 54 bits.
    let upperBit = Int(high >> 63)
    let droppedCount = 9 + upperBit
    let droppedMask: UInt64 = (1 << droppedCount) - 1
    let kept = high >> droppedCount
    let droppedHigh = high & droppedMask
    // For q >= 0 the exact X lies in [product, product + 2) units of 2^64 (and equals the
    // product for q <= 27); for q < 0 it lies in (product - 1, product + 1). Only these bit
    // patterns leave a boundary in reach.
    let isCertain: Bool
    if exponent >= 0 {
      isCertain = exponent <= 27 || droppedHigh != droppedMask || low != UInt64.max
    } else {
      isCertain = droppedHigh != 0 || low != 0
      if !isCertain, exponent >= -27, let bits = dyadicBits(significand, exponent) {
        return (bits, true)
      }
    }
    let isTie =
      exponent >= 0 && exponent <= 27 && droppedHigh == 0 && low == 0 && kept & 1 == 1
    // The magnitude is kept × 2^binaryExponent, with kept in [2^53, 2^54).
    let binaryExponent = 1 + droppedCount + exponent + ((exponent * 152_170) >> 16) - leadingZeros
    let biasedExponent = binaryExponent + 1075
    if biasedExponent >= 0 {
      var mantissa = (kept + 1) >> 1
      if isTie && (kept >> 1) & 1 == 0 {
        mantissa = kept >> 1
      }
      // A mantissa of 2^53 after rounding up carries into the exponent field, as it should.
      let bits = UInt64(biasedExponent) << 52 + mantissa
      return (min(bits, infinityBits), isCertain)
    }
    // Subnormal: shift right so that the unit is 2^-1075, then round half up (there are
    // no exact ties this small).
    let shift = -biasedExponent
    guard shift < 64 else {
      return (0, isCertain)
    }
    return (((kept >> shift) + 1) >> 1, isCertain)
  }

  /// For -27 <= exponent <= -1, the exact result when 5^-exponent divides the significand
  /// (the value is then an integer times 2^exponent, possibly an exact tie); nil otherwise.
  /// Literals with trailing zeros, such as `1.0000000000000000000`, come this way.
  private static func dyadicBits(_ significand: UInt64, _ exponent: Int) -> UInt64? {
    var divisor: UInt64 = 1
    for _ in exponent..<0 {
      divisor *= 5
    }
    guard significand % divisor == 0 else {
      return nil
    }
    // The integer conversion rounds correctly, ties to even; scaling by 2^exponent (at
    // least 2^-27) is exact.
    let scale = Double(sign: .plus, exponent: exponent, significand: 1)
    return (Double(significand / divisor) * scale).bitPattern
  }

  // MARK: - Results

  /// The outcome for the magnitude `bits` of a nonzero literal.
  static func outcome(bits: UInt64, negative: Bool) -> Outcome {
    if bits == 0 {
      return .underflow
    }
    if bits >= infinityBits {
      return .overflow
    }
    let sign: UInt64 = negative ? 1 << 63 : 0
    return .value(Double(bitPattern: bits | sign))
  }
}

extension DecimalToDouble {
  /// Where the parts of a validated JSON number literal lie: `-`? int (`.` frac)? (`e` exp)?
  struct LiteralLayout {
    /// Whether the literal starts with `-`.
    var negative = false
    /// The offsets of the digits before the decimal point.
    var integerDigits: Range<Int> = 0..<0
    /// The offsets of the digits after the decimal point (empty without one).
    var fractionDigits: Range<Int> = 0..<0
    /// The value written after `e` or `E` (0 without one), saturated to ±`exponentLimit`.
    var exponent = 0

    /// Beyond any exponent that can matter, yet small enough that adding the digit count of
    /// a literal to it never overflows `Int`.
    static let exponentLimit = 1 << 40

    /// Finds the parts of `text`. Reading stops at the first byte that does not fit the
    /// grammar, so a malformed literal cannot read out of bounds.
    init(_ text: UnsafeRawBufferPointer) {
      var index = 0
      if Self.byte(in: text, at: index) == UInt8(ascii: "-") {
        negative = true
        index += 1
      }
      let integerStart = index
      while Self.isDigit(Self.byte(in: text, at: index)) {
        index += 1
      }
      integerDigits = integerStart..<index
      if Self.byte(in: text, at: index) == UInt8(ascii: ".") {
        index += 1
        let fractionStart = index
        while Self.isDigit(Self.byte(in: text, at: index)) {
          index += 1
        }
        fractionDigits = fractionStart..<index
      } else {
        fractionDigits = index..<index
      }
      let marker = Self.byte(in: text, at: index)
      if marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
        index += 1
        var exponentNegative = false
        let sign = Self.byte(in: text, at: index)
        if sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
          exponentNegative = sign == UInt8(ascii: "-")
          index += 1
        }
        var magnitude = 0
        while Self.isDigit(Self.byte(in: text, at: index)) {
          let digit = Int(Self.byte(in: text, at: index) &- UInt8(ascii: "0"))
          magnitude = min(magnitude * 10 + digit, Self.exponentLimit)
          index += 1
        }
        exponent = exponentNegative ? -magnitude : magnitude
      }
    }

    /// The byte at `index`, or 0 past the end.
    @inline(__always)
    static func byte(in text: UnsafeRawBufferPointer, at index: Int) -> UInt8 {
      index < text.count ? text[index] : 0
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool {
      byte &- UInt8(ascii: "0") < 10
    }
  }
}
