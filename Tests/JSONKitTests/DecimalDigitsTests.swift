import Foundation
import Testing

@testable import JSONKit

/// The scanner reads a number's digits eight at a time; each test compares
/// that with reading them one at a time.
@Suite("Decimal digits")
struct DecimalDigitsTests {
  @Test func leadingDigitCountStopsAtTheFirstByteThatIsNotADigit() {
    // Every byte value in every lane, after digits and before digits.
    for lane in 0..<8 {
      for byte in 0...255 {
        var bytes = [UInt8](repeating: UInt8(ascii: "7"), count: 8)
        bytes[lane] = UInt8(byte)
        let word = Self.word(bytes)
        #expect(DecimalDigits.leadingDigitCount(word) == Self.countDigits(bytes), "\(bytes)")
      }
    }
    var random = SplitMix64(seed: 0xD161_7500)
    for _ in 0..<20_000 {
      // Mostly digits, so that long runs occur.
      let bytes = (0..<8).map { _ in
        random.next() % 4 == 0
          ? UInt8(truncatingIfNeeded: random.next()) : UInt8(ascii: "0") + UInt8(random.next() % 10)
      }
      #expect(
        DecimalDigits.leadingDigitCount(Self.word(bytes)) == Self.countDigits(bytes), "\(bytes)")
    }
  }

  @Test func eightDigitsAndTheirPrefixesHaveTheirDecimalValue() {
    var random = SplitMix64(seed: 0x8D16_1775)
    let samples = ["00000000", "99999999", "12345678", "90000001", "00000009"]
    var inputs = samples.map { Array($0.utf8) }
    for _ in 0..<5000 {
      inputs.append((0..<8).map { _ in UInt8(ascii: "0") + UInt8(random.next() % 10) })
    }
    for digits in inputs {
      let word = Self.word(digits)
      #expect(DecimalDigits.value(ofEightDigits: word) == Self.value(digits[...]), "\(digits)")
      for count in 1..<8 {
        // The bytes after the prefix are anything but digits to the reader.
        var bytes = digits
        bytes[count] = UInt8(ascii: ".")
        #expect(
          DecimalDigits.value(ofLeadingDigits: Self.word(bytes), count: count)
            == Self.value(digits[..<count]), "\(digits) \(count)")
      }
    }
  }

  @Test func accumulatingDigitsMatchesReadingThemOneAtATime() {
    var random = SplitMix64(seed: 0xACC0_0001)
    for length in 0...45 {
      for _ in 0..<40 {
        let digits = (0..<length).map { _ in UInt8(ascii: "0") + UInt8(random.next() % 10) }
        let start = Int(random.next() % 3)
        let prefix = [UInt8](repeating: UInt8(ascii: "5"), count: start)
        // Followed by the end of the input, or by a byte that ends a number.
        let followers: [[UInt8]] = [[], Array(".5".utf8), Array("e7".utf8), Array(",1]".utf8)]
        for follower in followers {
          let bytes = prefix + digits + follower
          let initial = random.next() % 1000
          bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
            var value = initial
            let end = DecimalDigits.accumulateDigits(
              base, from: start, end: buffer.count, into: &value)
            #expect(end == start + length, "\(bytes)")
            var expected = initial
            for digit in digits { expected = expected &* 10 &+ UInt64(digit - UInt8(ascii: "0")) }
            #expect(value == expected, "\(bytes)")
          }
        }
      }
    }
  }

  @Test func longLiteralsThroughTheDecoderRoundCorrectly() throws {
    // The digits read eight at a time feed the conversion; Double(String)
    // rounds correctly, so it is the oracle.
    var random = SplitMix64(seed: 0x5CA1_AB1E)
    var literals = [
      "0.1", "-65.613616999999977", "43.420273000000009", "123456789012345678",
      "1234567890123456789.5", "12345678901234567890123e-10", "0.00000000000000000000001234",
      "9007199254740993.0", "9007199254740993.00000000000000000001", "2.2250738585072011e-308",
      "4.9406564584124654e-324", "1.7976931348623157e308", "1e-7", "100000000.00000001",
      // Halfway between two doubles, and just either side: ties go to even.
      "1.00000000000000011102230246251565404236316680908203125",
      "1.00000000000000011102230246251565404236316680908203124",
      "1.00000000000000011102230246251565404236316680908203126",
      "0.500000000000000166533453693773481063544750213623046875",
      "2.4703282292062328e-324",
      "2.4703282292062327208828439643411068618252990130716238221279284125033775364e-324",
      "1.79769313486231580793728971405303415079934132710037826e308",
      "123456789012345678901234567890e-300", "0.000000000000000000000000000000000000001e-270",
    ]
    for _ in 0..<3000 {
      let integerDigits = Int(random.next() % 12)
      let fractionDigits = Int(random.next() % 28) + 1
      var literal = random.next() % 2 == 0 ? "-" : ""
      literal += integerDigits == 0 ? "0" : String(random.next() % 9 + 1)
      for _ in 1..<max(integerDigits, 1) { literal += String(random.next() % 10) }
      literal += "."
      for _ in 0..<fractionDigits { literal += String(random.next() % 10) }
      if random.next() % 3 == 0 { literal += "e" + String(Int(random.next() % 60) - 30) }
      literals.append(literal)
    }
    let json = "[" + literals.joined(separator: ",") + "]"
    let decoded = try JKDecoder().decode([Double].self, from: Data(json.utf8))
    let foundation = try JSONDecoder().decode([Double].self, from: Data(json.utf8))
    for (index, literal) in literals.enumerated() {
      #expect(decoded[index].bitPattern == Double(literal)?.bitPattern, "\(literal)")
      #expect(decoded[index].bitPattern == foundation[index].bitPattern, "\(literal)")
    }
  }

  private static func word(_ bytes: [UInt8]) -> UInt64 {
    bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
  }

  private static func countDigits(_ bytes: [UInt8]) -> Int {
    bytes.firstIndex { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? bytes.count
  }

  private static func value(_ digits: ArraySlice<UInt8>) -> UInt64 {
    digits.reduce(0) { $0 * 10 + UInt64($1 - UInt8(ascii: "0")) }
  }
}
