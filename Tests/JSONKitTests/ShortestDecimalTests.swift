import Foundation
import JSONKitCorpus
import Testing

@testable import JSONKit

/// The shortest-decimal writer against the text `description` gives (without its trailing
/// ".0"), which is what `JSONEncoder` writes for a `Double` or a `Float`.
@Suite("Shortest decimal")
struct ShortestDecimalTests {
  static func written(_ value: Double) -> String {
    var writer = ByteWriter(capacity: 1)
    writer.writeFinite(value)
    return writer.finishString()
  }

  static func written(_ value: Float) -> String {
    var writer = ByteWriter(capacity: 1)
    writer.writeFinite(value)
    return writer.finishString()
  }

  static func described<T: CustomStringConvertible>(_ value: T) -> String {
    let text = value.description
    return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
  }

  static var boundaryDoubles: [Double] {
    var values: [Double] = [
      0, .leastNonzeroMagnitude, .leastNormalMagnitude, .leastNormalMagnitude.nextDown,
      .leastNormalMagnitude.nextUp, .greatestFiniteMagnitude, .greatestFiniteMagnitude.nextDown,
      Double(bitPattern: 2), 2.2250738585072014e-308, 1.7976931348623157e308, 0.1, 0.2, 0.3,
      1.0 / 3,
      2.0 / 3, 123.456, 0x1p53.nextDown, 0x1p53, 0x1p53.nextUp,
      0x1p54, 4_503_599_627_370_497, 1e23, 8.41e21, Double(bitPattern: 5),
    ]
    // Every power of two, with its neighbours: the irregular spacing below each.
    for exponent in -1074...1023 {
      let power = Double(sign: .plus, exponent: exponent, significand: 1)
      values += [power, power.nextDown, power.nextUp]
    }
    // Every power of ten in range, with its neighbours.
    for exponent in -323...308 {
      let power = Double("1e\(exponent)")!
      values += [power, power.nextDown, power.nextUp]
    }
    // Around where the layout switches, and short values on either side.
    for pivot in [1e15, 1e16, 1e17, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 0x1p53] {
      var below = pivot
      var above = pivot
      for _ in 0..<20 {
        below = below.nextDown
        above = above.nextUp
        values += [below, above]
      }
      for digit in 1...9 {
        values += [pivot * Double(digit), pivot * (Double(digit) + 0.5)]
      }
    }
    // Integers up to and past 2^53.
    for shift in 0...64 {
      let base = Double(sign: .plus, exponent: shift, significand: 1)
      for offset: Double in [-3, -2, -1, 0, 1, 2, 3] {
        values.append(base + offset)
      }
    }
    for digits in 1...17 {
      values.append(Double(String(repeating: "9", count: digits))!)
    }
    var subnormal: UInt64 = 1
    while subnormal < 1 << 52 {
      values += [Double(bitPattern: subnormal), Double(bitPattern: subnormal &* 3)]
      subnormal <<= 1
    }
    return values + values.map { -$0 }
  }

  static var boundaryFloats: [Float] {
    var values: [Float] = [
      0, .leastNonzeroMagnitude, .leastNormalMagnitude, .leastNormalMagnitude.nextDown,
      .greatestFiniteMagnitude, .greatestFiniteMagnitude.nextDown, 0.1, 0.2, 0.3, 1.0 / 3,
      16_777_216, 16_777_218, 33_554_432, 8_388_609, Float(bitPattern: 2), 3.4028235e38,
    ]
    for exponent in -149...127 {
      let power = Float(sign: .plus, exponent: exponent, significand: 1)
      values += [power, power.nextDown, power.nextUp]
    }
    for exponent in -45...38 {
      let power = Float("1e\(exponent)")!
      values += [power, power.nextDown, power.nextUp]
    }
    for pivot: Float in [1e7, 1e8, 1e15, 1e16, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 0x1p24] {
      var below = pivot
      var above = pivot
      for _ in 0..<20 {
        below = below.nextDown
        above = above.nextUp
        values += [below, above]
      }
    }
    for shift in 0...32 {
      let base = Float(sign: .plus, exponent: shift, significand: 1)
      for offset: Float in [-2, -1, 0, 1, 2] {
        values.append(base + offset)
      }
    }
    return values + values.map { -$0 }
  }

  @Test func boundaryDoublesAreWrittenAsDescriptionWritesThem() {
    for value in Self.boundaryDoubles where value.isFinite {
      #expect(Self.written(value) == Self.described(value), "\(value.bitPattern)")
    }
  }

  @Test func boundaryFloatsAreWrittenAsDescriptionWritesThem() {
    for value in Self.boundaryFloats where value.isFinite {
      #expect(Self.written(value) == Self.described(value), "\(value.bitPattern)")
    }
  }

  @Test func aSampleOfBoundaryValuesIsWrittenAsJSONEncoderWritesIt() throws {
    let doubles: [Double] = [
      -0.0, .leastNonzeroMagnitude, 1.7976931348623157e308, 1e15, 1e16, 1e-4, 1e-5, 1e-7, 0x1p53,
      0x1p53 + 2,
      -2.2250738585072014e-308, 0.1,
    ]
    let floats: [Float] = [
      -0.0, .leastNonzeroMagnitude, 3.4028235e38, 16_777_216, 33_554_432, 1e-5, 0.1,
    ]
    #expect(try JKEncoder().encode(doubles) == JSONEncoder().encode(doubles))
    #expect(try JKEncoder().encode(floats) == JSONEncoder().encode(floats))
  }

  @Test func randomDoubleBitPatternsAreWrittenAsDescriptionWritesThem() {
    var random = SplitMix64(seed: 0x5C4B_F0AC)
    Self.expectWrittenAsDescribed(
      { Double(bitPattern: random.next()) }, written: Self.written, described: Self.described)
  }

  @Test func randomFloatBitPatternsAreWrittenAsDescriptionWritesThem() {
    var random = SplitMix64(seed: 0xF10A_75C4)
    Self.expectWrittenAsDescribed(
      { Float(bitPattern: UInt32(truncatingIfNeeded: random.next())) }, written: Self.written,
      described: Self.described)
  }

  /// Checks 200,000 finite values from `next`, reporting at most about twenty
  /// mismatches by bit pattern.
  private static func expectWrittenAsDescribed<Value: BinaryFloatingPoint>(
    _ next: () -> Value, written: (Value) -> String, described: (Value) -> String
  ) {
    var checked = 0
    var mismatches = 0
    while checked < 200_000 {
      let value = next()
      guard value.isFinite else { continue }
      checked += 1
      if written(value) != described(value) {
        mismatches += 1
        #expect(written(value) == described(value), "\(value)")
        if mismatches > 20 { break }
      }
    }
    #expect(mismatches == 0)
  }

  @Test func logarithmShortcutsAreExactOverTheRangeUsed() {
    // No q × log10(2) or k × log2(10) in range comes within 1e-6 of a whole number
    // (checked here), far more than a Double's rounding error, so `floor` of the
    // floating-point product is exact.
    func exactFloor(_ product: Double) -> Int {
      let floor = product.rounded(.down)
      #expect(min(product - floor, floor + 1 - product) > 1e-6 || product == floor)
      return Int(floor)
    }
    for q in -1100...1100 {
      #expect(ShortestDecimal.floorLog10(powerOfTwo: q) == exactFloor(Double(q) * log10(2.0)))
      if q != 0 {
        #expect(
          ShortestDecimal.floorLog10(threeQuartersOfPowerOfTwo: q)
            == exactFloor(Double(q) * log10(2.0) + log10(0.75)), "\(q)")
      }
    }
    for k in -350...350 {
      #expect(ShortestDecimal.floorLog2(powerOfTen: k) == exactFloor(Double(k) * log2(10.0)))
    }
  }

  @Test func powersOfFiveUpperBoundsLieJustAboveTheExactPowers() {
    for q in 0...PowersOfFive.maxUpperBoundExponent {
      let bound = PowersOfFive.upperBound(q)
      let (low, borrow) = bound.low.subtractingReportingOverflow(1)
      let truncated = (high: bound.high &- (borrow ? 1 : 0), low: low)
      if q <= PowersOfFive.maxExponent {
        #expect(truncated == PowersOfFive.approximation(q), "5^\(q)")
        continue
      }
      // Truncated: entry × 2^excess <= 5^q < (entry + 1) × 2^excess.
      let excess = ((q * 152_170) >> 16) + 1 - 128
      var power = BigUInt(1)
      power.multiplyByPowerOfFive(q)
      var entry = BigUInt(truncated.high)
      entry.shiftLeft(by: 64)
      entry.multiplyAdd(multiplier: 1, addend: truncated.low)
      var next = entry
      next.multiplyAdd(multiplier: 1, addend: 1)
      entry.shiftLeft(by: excess)
      next.shiftLeft(by: excess)
      #expect(!(power < entry), "5^\(q)")
      #expect(power < next, "5^\(q)")
      #expect(bound.high >> 63 == 1, "5^\(q) normalized")
    }
    for q in PowersOfFive.minExponent..<0 {
      #expect(PowersOfFive.upperBound(q) == PowersOfFive.approximation(q))
    }
  }
}
