import Foundation
import Testing

@testable import JSONKit

/// The standard library's `Double(String)` rounds correctly (it reaches the C library's
/// `strtod`), so it is the oracle for every conversion here.
@Suite("Decimal to Double")
struct DecimalToDoubleTests {
  // MARK: - The table

  @Test func powersOfFiveTableMatchesExactArithmetic() {
    var power = Natural(1)
    for q in 0...PowersOfFive.maxExponent {
      let width = power.bitWidth
      let entry = Natural(PowersOfFive.approximation(q))
      #expect(entry.bitWidth == 128, "5^\(q)")
      #expect((q * 152_170) >> 16 == width - 1, "floor(log2 5^\(q))")
      if width <= 128 {
        #expect(entry == power.shiftedLeft(128 - width), "5^\(q) is exact")
      } else {
        // Truncated: entry × 2^(width - 128) <= 5^q < (entry + 1) × 2^(width - 128).
        let excess = width - 128
        #expect(entry.shiftedLeft(excess) <= power, "5^\(q)")
        #expect(power < (entry + Natural(1)).shiftedLeft(excess), "5^\(q)")
      }
      power.multiply(by: 5)
    }
    var divisor = Natural(5)
    for negated in 1...(-PowersOfFive.minExponent) {
      let q = -negated
      let width = divisor.bitWidth
      let entry = Natural(PowersOfFive.approximation(q))
      #expect(entry.bitWidth == 128, "5^\(q)")
      #expect((q * 152_170) >> 16 == -width, "floor(log2 5^\(q))")
      // Rounded up: entry = floor(2^(127 + width) / 5^-q) + 1, that is
      // 2^(127 + width) < entry × 5^-q <= 2^(127 + width) + 5^-q.
      let scaled = Natural(1).shiftedLeft(127 + width)
      let product = entry * divisor
      #expect(scaled < product, "5^\(q)")
      #expect(product <= scaled + divisor, "5^\(q)")
      divisor.multiply(by: 5)
    }
  }

  @Test func bigIntegerBasics() {
    var value = BigUInt(
      decimalDigits: Array("340282366920938463463374607431768211456".utf8).map {
        $0 - UInt8(ascii: "0")
      })
    var expected = BigUInt(1)
    expected.shiftLeft(by: 128)
    #expect(value == expected)
    value.multiplyByPowerOfFive(30)
    expected.multiplyAdd(multiplier: 7_450_580_596_923_828_125, addend: 0)
    expected.multiplyAdd(multiplier: 125, addend: 0)
    #expect(value == expected)
    #expect(BigUInt(decimalDigits: [0, 0]).isZero)
    #expect(BigUInt(7) < BigUInt(8))
    #expect(!(expected < expected))
  }

  // MARK: - Chosen cases

  @Test func knownHardCases() {
    let literals = [
      "9007199254740993", "9007199254740993.0", "9007199254740995e0",
      "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308",
      "1e23", "8.98846567431158e307", "4.9406564584124654e-324",
      "2.4703282292062327e-324", "2.4703282292062328e-324",
      "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
      "-1.7976931348623159e308", "0.1", "0.3", "1e-5", "123456789012345678901234567890",
      "7.2057594037927933e16", "1448997445238699", "3.0e-324", "2.225073858507201e-308",
      "4.35679e-10", "-65.613616999999977", "43.420273000000009", "1.00000000000000011102230246",
      "5e-324", "1e-324", "1e-400", "1e309", "1e308", "179769313486231580793728971405301e276",
    ]
    let failures = literals.filter { !same(convert($0), oracle($0)) }
    #expect(failures.isEmpty, "\(failures)")

    #expect(convert("9007199254740993") == .value(9_007_199_254_740_992))
    #expect(convert("2.4703282292062327e-324") == .underflow)
    #expect(convert("2.4703282292062328e-324") == .value(Double.leastNonzeroMagnitude))
    #expect(convert("4.9406564584124654e-324") == .value(Double.leastNonzeroMagnitude))
    #expect(convert("1.7976931348623158e308") == .value(Double.greatestFiniteMagnitude))
    #expect(convert("1.7976931348623159e308") == .overflow)
  }

  @Test func zerosKeepTheirSign() {
    for literal in ["0", "0.0", "0e5", "0.000e-999999999999", "0E+100000"] {
      #expect(bits(convert(literal)) == 0, "\(literal)")
    }
    for literal in ["-0", "-0.0", "-0e-5", "-0.00000e999999"] {
      #expect(bits(convert(literal)) == (-0.0).bitPattern, "\(literal)")
    }
  }

  @Test func outOfRangeOutcomes() {
    let cases: [(String, DecimalToDouble.Outcome)] = [
      ("1e309", .overflow), ("-1e309", .overflow), ("1e100000", .overflow),
      ("-9.9e99999999999999999999", .overflow),
      ("1" + String(repeating: "0", count: 400), .overflow),
      ("1e-400", .underflow), ("-1e-400", .underflow), ("1e-100000", .underflow),
      ("2e-99999999999999999999999", .underflow),
      ("0." + String(repeating: "0", count: 1000) + "1", .underflow),
      ("1" + String(repeating: "0", count: 5000) + "e-5000", .value(1)),
      ("0." + String(repeating: "0", count: 5000) + "25e5001", .value(2.5)),
    ]
    for (literal, expected) in cases {
      #expect(convert(literal) == expected, "\(literal.prefix(40))")
      #expect(exact(literal) == expected, "\(literal.prefix(40))")
    }
    // The scanner saturates exponents; anything past ±100 000 is decided by its sign.
    let text = "1"
    for (exponent, truncated) in [(100_001, false), (Int.max / 4, true)] {
      #expect(scanned(text, 1, exponent, truncated) == .overflow)
      #expect(scanned(text, 9_999_999_999_999_999_999, -exponent, truncated) == .underflow)
    }
    #expect(bits(scanned("-0", 0, 100_001, false)) == (-0.0).bitPattern)
  }

  @Test func underflowBoundary() {
    // Half the smallest subnormal, 2^-1075, written out in full: exactly a tie with zero,
    // which wins as the even neighbour; anything above it rounds to the smallest subnormal.
    let half = Natural.powerOfFive(1075).decimal
    let tie = "0." + String(repeating: "0", count: 1075 - half.count) + half
    #expect(convert(tie) == .underflow)
    #expect(convert(tie + "0000000000001") == .value(Double.leastNonzeroMagnitude))
    #expect(
      convert(tie + String(repeating: "0", count: 1000) + "1")
        == .value(Double.leastNonzeroMagnitude))
    #expect(convert("-" + tie + "1") == .value(-Double.leastNonzeroMagnitude))
    let below = String(tie.dropLast()) + "4" + String(repeating: "9", count: 300)
    #expect(convert(below) == .underflow)
  }

  // MARK: - Random decimals

  @Test func randomShortDecimals() {
    var random = SplitMix64(seed: 1)
    var failures: [String] = []
    for _ in 0..<20_000 {
      let literal = randomLiteral(digitCount: Int.random(in: 1...19, using: &random), &random)
      check(literal, &failures)
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
  }

  @Test func randomLongDecimals() {
    var random = SplitMix64(seed: 2)
    var failures: [String] = []
    for round in 0..<3_000 {
      let count =
        round % 4 == 0
        ? Int.random(in: 20...800, using: &random) : Int.random(in: 20...60, using: &random)
      check(randomLiteral(digitCount: count, &random), &failures)
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
  }

  @Test func decimalsNearDoubles() {
    // The 17 significant digits of a random double, with random digits after them: the
    // interesting region where 19 kept digits do not always decide.
    var random = SplitMix64(seed: 3)
    var failures: [String] = []
    for _ in 0..<5_000 {
      let value = Double(bitPattern: randomFiniteBits(&random))
      let (digits, exponent) = seventeenDigits(value)
      var tail = ""
      for _ in 0..<Int.random(in: 0...30, using: &random) {
        tail.append(Character(String(Int.random(in: 0...9, using: &random))))
      }
      let literal = format(
        digits: digits + tail, exponent: exponent - tail.count, style: random.next())
      check(literal, &failures)
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
  }

  @Test func exactHalfwayCases() {
    // The midpoint between a double and the next one, written exactly, must round to the
    // even one; a tiny bit above or below it must round up or down.
    var random = SplitMix64(seed: 4)
    var failures: [String] = []
    var patterns: [UInt64] = [
      0, 1, 2, 3, (1 << 52) - 1, 1 << 52, 0x7FEF_FFFF_FFFF_FFFF, 0x7FEF_FFFF_FFFF_FFFE,
    ]
    patterns += [0x4340_0000_0000_0000, 0x433F_FFFF_FFFF_FFFF, 0x3FF0_0000_0000_0000]
    // Midpoints with one to five binary fraction digits, written with few decimal digits: the
    // exact ties that short literals such as 4503599627370496.5 can express.
    for field: UInt64 in 0x42E...0x434 {
      let even = random.next() & ((1 << 52) - 2)
      patterns += [
        field << 52, field << 52 | 0xF_FFFF_FFFF_FFFE, field << 52 | even, field << 52 | even | 1,
      ]
    }
    for _ in 0..<400 {
      patterns.append(randomFiniteBits(&random))
    }
    for pattern in patterns {
      let (digits, exponent) = midpointAbove(pattern)
      let style = random.next()
      let cases = [
        format(digits: digits, exponent: exponent, style: style),
        format(digits: digits + "0000000000000000000001", exponent: exponent - 22, style: style),
        format(
          digits: decremented(digits) + "99999999999999999999", exponent: exponent - 20,
          style: style),
        format(
          digits: digits + String(repeating: "0", count: 900) + "1", exponent: exponent - 901,
          style: style),
      ]
      for literal in cases {
        check(literal, &failures)
        check("-" + literal, &failures)
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(3))")
  }

  @Test func boundaryRegions() {
    // Around the largest double, the subnormal/normal boundary and the smallest subnormals.
    var random = SplitMix64(seed: 5)
    var failures: [String] = []
    let anchors: [UInt64] = [0x7FEF_FFFF_FFFF_FFFF, 1 << 52, 1, 0x10_0000]
    for anchor in anchors {
      for _ in 0..<500 {
        let offset = random.next() % 64
        let pattern = anchor > offset ? anchor - offset : anchor + offset
        let value = Double(bitPattern: pattern)
        let (digits, exponent) = seventeenDigits(value)
        let last = digits.last!.wholeNumberValue!
        let nudged =
          String(digits.dropLast()) + String((last + Int.random(in: 1...9, using: &random)) % 10)
        check(format(digits: nudged, exponent: exponent, style: random.next()), &failures)
        check(format(digits: digits, exponent: exponent, style: random.next()), &failures)
      }
    }
    // Decimals spread over both edges of the range, including far outside it.
    for _ in 0..<2_000 {
      let top = Bool.random(using: &random)
      let count = Int.random(in: 1...25, using: &random)
      let magnitude =
        top
        ? Int.random(in: 305...312, using: &random) : Int.random(in: -330 ... -305, using: &random)
      check(
        format(
          digits: randomDigits(count, &random), exponent: magnitude - count, style: random.next()),
        &failures)
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
  }

  // MARK: - Round trips

  @Test func everyDoubleRoundTrips() {
    var random = SplitMix64(seed: 6)
    var failures: [String] = []
    for _ in 0..<20_000 {
      let value = Double(bitPattern: randomFiniteBits(&random) | (random.next() & (1 << 63)))
      for literal in [value.description, String(format: "%.16e", value)] {
        guard case .value(let result) = convert(literal), result.bitPattern == value.bitPattern
        else {
          failures.append(literal)
          continue
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
  }

  // MARK: - Each layer on its own

  @Test func exactLayerAgreesWithOracle() {
    var random = SplitMix64(seed: 7)
    var failures: [String] = []
    for round in 0..<3_000 {
      let literal: String
      switch round % 3 {
      case 0: literal = randomLiteral(digitCount: Int.random(in: 1...19, using: &random), &random)
      case 1: literal = randomLiteral(digitCount: Int.random(in: 20...300, using: &random), &random)
      default: literal = Double(bitPattern: randomFiniteBits(&random)).description
      }
      if !same(exact(literal), oracle(literal)) {
        failures.append(literal)
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
  }

  @Test func fastLayersAreRightWhenTheyAnswer() {
    var random = SplitMix64(seed: 8)
    var failures: [String] = []
    var eiselLemireAnswers = 0
    for _ in 0..<20_000 {
      let significand = random.next() >> Int.random(in: 0...63, using: &random) | 1
      let exponent = Int.random(in: -350...315, using: &random)
      let literal = "\(significand)e\(exponent)"
      let expected = oracle(literal)
      if let value = DecimalToDouble.exactProduct(significand, exponent),
        !same(.value(value), expected)
      {
        failures.append("exact \(literal)")
      }
      if let bits = DecimalToDouble.eiselLemire(significand, exponent) {
        eiselLemireAnswers += 1
        if !same(DecimalToDouble.outcome(bits: bits, negative: false), expected) {
          failures.append("Eisel–Lemire \(literal)")
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
    #expect(eiselLemireAnswers > 19_900)
  }

  @Test func dyadicValuesAreDecidedWithoutTheExactLayer() {
    // significand × 10^-k with 5^k dividing the significand is n × 2^-k: exactly representable
    // values written with trailing zeros, and for k <= 4 exact ties such as 4503599627370496.5.
    var random = SplitMix64(seed: 9)
    var failures: [String] = []
    for k in 1...27 {
      var power: UInt64 = 1
      for _ in 0..<k {
        power *= 5
      }
      for round in 0..<200 {
        var multiple = random.next() % (UInt64.max / power) + 1
        if round % 2 == 0 && k <= 4 {
          // A 54-bit odd number: halfway between two doubles.
          multiple = (random.next() >> 10) | (1 << 53) | 1
        }
        let significand = multiple * power
        let literal = "\(significand)e-\(k)"
        let decided = DecimalToDouble.eiselLemire(significand, -k)
        if decided.map({ DecimalToDouble.outcome(bits: $0, negative: false) }) != oracle(literal) {
          failures.append(literal)
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
  }
}

// MARK: - Conversions under test and the oracle

private func withText<T>(_ literal: String, _ body: (UnsafeRawBufferPointer) -> T) -> T {
  var literal = literal
  return literal.withUTF8 { body(UnsafeRawBufferPointer($0)) }
}

private func convert(_ literal: String) -> DecimalToDouble.Outcome {
  withText(literal) { DecimalToDouble.convert(text: $0) }
}

private func exact(_ literal: String) -> DecimalToDouble.Outcome {
  withText(literal) { DecimalToDouble.exactConversion(text: $0) }
}

private func scanned(
  _ literal: String, _ significand: UInt64, _ exponent: Int, _ truncated: Bool
) -> DecimalToDouble.Outcome {
  withText(literal) {
    DecimalToDouble.convert(
      significand: significand, exponent: exponent, negative: literal.hasPrefix("-"),
      truncated: truncated, text: $0)
  }
}

private func oracle(_ literal: String) -> DecimalToDouble.Outcome {
  guard let value = Double(literal) else {
    Issue.record("the oracle rejects \(literal.prefix(40))")
    return .overflow
  }
  if value.isInfinite {
    return .overflow
  }
  let significand = literal.prefix { $0 != "e" && $0 != "E" }
  if value == 0 && significand.contains(where: { "123456789".contains($0) }) {
    return .underflow
  }
  return .value(value)
}

private func same(_ lhs: DecimalToDouble.Outcome, _ rhs: DecimalToDouble.Outcome) -> Bool {
  bits(lhs) == bits(rhs) && lhs == rhs
}

private func bits(_ outcome: DecimalToDouble.Outcome) -> UInt64? {
  if case .value(let value) = outcome {
    return value.bitPattern
  }
  return nil
}

/// Records `literal` unless the full conversion and the oracle agree.
private func check(_ literal: String, _ failures: inout [String]) {
  if !same(convert(literal), oracle(literal)) {
    failures.append(literal)
  }
}

// MARK: - Generating literals

/// A positive finite bit pattern, drawn uniformly from the whole range.
private func randomFiniteBits(_ random: inout SplitMix64) -> UInt64 {
  while true {
    let pattern = random.next() & 0x7FFF_FFFF_FFFF_FFFF
    if pattern < DecimalToDouble.infinityBits && pattern != 0 {
      return pattern
    }
  }
}

/// `count` random decimal digits, the first nonzero.
private func randomDigits(_ count: Int, _ random: inout SplitMix64) -> String {
  var digits = String(Int.random(in: 1...9, using: &random))
  for _ in 1..<count {
    digits += String(Int.random(in: 0...9, using: &random))
  }
  return digits
}

/// A random literal with `digitCount` significant digits, anywhere from far below the
/// smallest subnormal to far above the largest double, in a random style and sign.
private func randomLiteral(digitCount: Int, _ random: inout SplitMix64) -> String {
  let magnitude = Int.random(in: -345...312, using: &random)
  let literal = format(
    digits: randomDigits(digitCount, &random), exponent: magnitude - digitCount,
    style: random.next())
  return Bool.random(using: &random) ? "-" + literal : literal
}

/// The literal for digits × 10^exponent (digits without leading zeros), in one of several
/// equivalent JSON spellings chosen by `style`.
private func format(digits: String, exponent: Int, style: UInt64) -> String {
  switch style % 4 {
  case 0:
    return "\(digits)e\(exponent)"
  case 1:
    let scientific = exponent + digits.count - 1
    let fraction = digits.dropFirst()
    let sign = scientific < 0 ? "-" : (style & 8 == 0 ? "+" : "")
    let padding = style & 16 == 0 ? "" : "00"
    return
      "\(digits.prefix(1))\(fraction.isEmpty ? "" : ".")\(fraction)E\(sign)\(padding)\(abs(scientific))"
  default:
    // Plain positional notation, when it stays reasonably short.
    if exponent >= 0 {
      guard exponent <= 400 else { return "\(digits)e+\(exponent)" }
      return digits + String(repeating: "0", count: exponent) + (style & 8 == 0 ? ".0" : "")
    }
    let point = digits.count + exponent
    if point > 0 {
      return "\(digits.prefix(point)).\(digits.dropFirst(point))"
    }
    guard -point <= 1200 else { return "\(digits)e\(exponent)" }
    return "0." + String(repeating: "0", count: -point) + digits
  }
}

/// The digits and exponent of `value` (positive) rounded to 17 significant digits.
private func seventeenDigits(_ value: Double) -> (digits: String, exponent: Int) {
  let text = String(format: "%.16e", value)
  let parts = text.split(separator: "e")
  let digits = parts[0].replacingOccurrences(of: ".", with: "")
  return (digits, Int(parts[1])! - 16)
}

/// The exact decimal digits and exponent of the midpoint between the double with bit pattern
/// `pattern` and the next one up.
private func midpointAbove(_ pattern: UInt64) -> (digits: String, exponent: Int) {
  let field = Int(pattern >> 52)
  let fraction = pattern & ((1 << 52) - 1)
  let significand = field == 0 ? fraction : fraction | (1 << 52)
  let twos = (field == 0 ? -1074 : field - 1075) - 1
  let odd = Natural(2 * significand + 1)
  if twos >= 0 {
    return (odd.shiftedLeft(twos).decimal, 0)
  }
  // odd × 2^twos = odd × 5^-twos × 10^twos
  return ((odd * Natural.powerOfFive(-twos)).decimal, twos)
}

/// The decimal digit string one less (`digits` must not be "0" and must not end in
/// a way that leaves a leading zero unless it is a single digit).
private func decremented(_ digits: String) -> String {
  var characters = Array(digits)
  var index = characters.count - 1
  while characters[index] == "0" {
    characters[index] = "9"
    index -= 1
  }
  characters[index] = Character(String(characters[index].wholeNumberValue! - 1))
  let result = String(characters).drop { $0 == "0" }
  return result.isEmpty ? "0" : String(result)
}

// MARK: - A small independent big integer

/// Natural numbers in base 2^32, written separately from the library's `BigUInt` so that
/// the table check does not trust the code it checks.
private struct Natural: Comparable {
  var limbs: [UInt32]

  init(_ value: UInt64) {
    limbs = [UInt32(truncatingIfNeeded: value), UInt32(value >> 32)]
    normalize()
  }

  init(_ halves: (high: UInt64, low: UInt64)) {
    limbs = [halves.low, halves.high].flatMap {
      [UInt32(truncatingIfNeeded: $0), UInt32($0 >> 32)]
    }
    normalize()
  }

  var bitWidth: Int {
    guard let top = limbs.last else { return 0 }
    return 32 * limbs.count - top.leadingZeroBitCount
  }

  var decimal: String {
    var value = self
    var chunks: [UInt32] = []
    while !value.limbs.isEmpty {
      chunks.append(value.divide(by: 1_000_000_000))
    }
    guard let first = chunks.popLast() else { return "0" }
    return String(first)
      + chunks.reversed().map {
        let text = String($0)
        return String(repeating: "0", count: 9 - text.count) + text
      }.joined()
  }

  mutating func multiply(by factor: UInt32) {
    var carry: UInt64 = 0
    for index in limbs.indices {
      let product = UInt64(limbs[index]) * UInt64(factor) + carry
      limbs[index] = UInt32(truncatingIfNeeded: product)
      carry = product >> 32
    }
    if carry != 0 {
      limbs.append(UInt32(carry))
    }
    normalize()
  }

  /// Divides in place and returns the remainder.
  mutating func divide(by divisor: UInt32) -> UInt32 {
    var remainder: UInt64 = 0
    for index in limbs.indices.reversed() {
      let current = remainder << 32 | UInt64(limbs[index])
      limbs[index] = UInt32(current / UInt64(divisor))
      remainder = current % UInt64(divisor)
    }
    normalize()
    return UInt32(remainder)
  }

  static func powerOfFive(_ exponent: Int) -> Natural {
    var result = Natural(1)
    for _ in 0..<exponent / 13 {
      result.multiply(by: 1_220_703_125)  // 5^13
    }
    for _ in 0..<exponent % 13 {
      result.multiply(by: 5)
    }
    return result
  }

  func shiftedLeft(_ count: Int) -> Natural {
    var result = self
    result.limbs.insert(contentsOf: repeatElement(0, count: count / 32), at: 0)
    result.multiply(by: 1 << (count % 32))
    return result
  }

  static func + (lhs: Natural, rhs: Natural) -> Natural {
    var result = Natural(0)
    var carry: UInt64 = 0
    for index in 0..<max(lhs.limbs.count, rhs.limbs.count) {
      let left = index < lhs.limbs.count ? UInt64(lhs.limbs[index]) : 0
      let right = index < rhs.limbs.count ? UInt64(rhs.limbs[index]) : 0
      let sum = left + right + carry
      result.limbs.append(UInt32(truncatingIfNeeded: sum))
      carry = sum >> 32
    }
    result.limbs.append(UInt32(carry))
    result.normalize()
    return result
  }

  static func * (lhs: Natural, rhs: Natural) -> Natural {
    var result = Natural(0)
    result.limbs = Array(repeating: 0, count: lhs.limbs.count + rhs.limbs.count + 1)
    for (i, left) in lhs.limbs.enumerated() {
      var carry: UInt64 = 0
      for (j, right) in rhs.limbs.enumerated() {
        let sum = UInt64(left) * UInt64(right) + UInt64(result.limbs[i + j]) + carry
        result.limbs[i + j] = UInt32(truncatingIfNeeded: sum)
        carry = sum >> 32
      }
      var index = i + rhs.limbs.count
      while carry != 0 {
        let sum = UInt64(result.limbs[index]) + carry
        result.limbs[index] = UInt32(truncatingIfNeeded: sum)
        carry = sum >> 32
        index += 1
      }
    }
    result.normalize()
    return result
  }

  static func < (lhs: Natural, rhs: Natural) -> Bool {
    if lhs.limbs.count != rhs.limbs.count {
      return lhs.limbs.count < rhs.limbs.count
    }
    for index in lhs.limbs.indices.reversed() where lhs.limbs[index] != rhs.limbs[index] {
      return lhs.limbs[index] < rhs.limbs[index]
    }
    return false
  }

  private mutating func normalize() {
    while limbs.last == 0 {
      limbs.removeLast()
    }
  }
}
