import Foundation
import Testing

@testable import JSONKit

#if !canImport(Darwin) && canImport(FoundationEssentials)
  // Decimal's layout initializer, public on Apple's platforms.
  @_spi(SwiftCorelibsFoundation) import FoundationEssentials
#endif

// Decimals read from JSON numbers and written back, beside Foundation: the
// values that both read are equal and print alike, the values JSONKit
// refuses are those Decimal cannot hold exactly, and the bytes written are
// `JSONEncoder`'s.

/// A generated JSON number, with its value worked out from how it was made
/// rather than by parsing it.
private struct DecimalNumberCase: CustomStringConvertible {
  var text: String
  var negative: Bool
  /// The significant digits, without leading or trailing zeros; empty for
  /// zero.
  var digits: String
  /// The power of ten of the last of `digits`.
  var exponent: Int
  /// How many digits follow the point.
  var fractionDigits: Int
  /// The exponent as written after `e` (0 without one).
  var writtenExponent: Int

  var description: String { text }

  /// The 39 digits of 2^128 − 1, Decimal's largest significand.
  static let largestSignificand = "340282366920938463463374607431768211455"

  /// Whether the significant digits fit Decimal's 128-bit significand, with
  /// `zeros` more after them.
  func digitsFit(withZeros zeros: Int = 0) -> Bool {
    let count = digits.count + zeros
    let limit = Self.largestSignificand
    guard count == limit.count else { return count < limit.count }
    return digits + String(repeating: "0", count: zeros) <= limit
  }

  /// The exact value as text that `Decimal(string:)` reads without loss, or
  /// nil when Decimal cannot hold it: above the largest exponent, 127, it
  /// holds a value whose significand takes the extra zeros.
  var exactText: String? {
    guard !digits.isEmpty else { return "0" }
    let zeros = max(0, exponent - 127)
    guard exponent >= -128, digitsFit(withZeros: zeros) else { return nil }
    return (negative ? "-" : "") + digits + String(repeating: "0", count: zeros)
      + "e\(exponent - zeros)"
  }

  /// Whether Foundation's parser refuses the number though Decimal holds it:
  /// it checks the exponent before moving trailing zeros into it, counts
  /// every fraction digit against it (from the 129th on it fails), and
  /// gives up on an exponent written beyond ±254, even for zero.
  var beyondFoundationsExponents: Bool {
    let unscaled = writtenExponent - fractionDigits
    return digits.isEmpty || !(-128...127).contains(unscaled) || fractionDigits > 128
      || abs(writtenExponent) > 254
  }

  /// Numbers of every shape: zeros, up to 45 significant digits, the point
  /// anywhere, leading and trailing zeros, exponents from -200 to 200.
  static func generated(count: Int, seed: UInt64) -> [Self] {
    var random = SplitMix64(seed: seed)
    return (0..<count).map { _ in generated(using: &random) }
  }

  private static func generated(using random: inout SplitMix64) -> Self {
    let negative = random.next(below: 3) == 0
    let zeroChance = [0, 3, 8][random.next(below: 3)]
    var digits = ""
    let count = random.next(below: 12) == 0 ? 0 : 1 + random.next(below: 45)
    for index in 0..<count {
      let nonzero = index == 0 || index == count - 1 || random.next(below: 10) >= zeroChance
      digits.append(String(nonzero ? 1 + random.next(below: 9) : 0))
    }
    let trailingZeros = random.next(below: 4) == 0 ? random.next(below: 40) : 0
    let whole = (digits.isEmpty ? "0" : digits) + String(repeating: "0", count: trailingZeros)
    // How many of the digits come before the point; 0 puts "0." and perhaps
    // more zeros before them. A zero has a single digit before any point.
    let integerCount = random.next(below: digits.isEmpty ? 2 : whole.count + 1)
    let leadingZeros = integerCount == 0 && random.next(below: 3) == 0 ? random.next(below: 140) : 0
    var text = negative ? "-" : ""
    var fractionDigits = 0
    if integerCount == 0 {
      text += "0." + String(repeating: "0", count: leadingZeros) + whole
      fractionDigits = leadingZeros + whole.count
    } else {
      text += whole.prefix(integerCount)
      if integerCount < whole.count {
        text += "." + whole.dropFirst(integerCount)
        fractionDigits = whole.count - integerCount
      }
    }
    var writtenExponent = 0
    if random.next(below: 2) == 0 {
      writtenExponent = random.next(below: 401) - 200
      let marker = random.next(below: 2) == 0 ? "e" : "E"
      let plus = writtenExponent >= 0 && random.next(below: 2) == 0 ? "+" : ""
      text += marker + plus + String(writtenExponent)
    }
    return Self(
      text: text, negative: negative, digits: digits,
      exponent: trailingZeros + writtenExponent - fractionDigits, fractionDigits: fractionDigits,
      writtenExponent: writtenExponent)
  }

  /// Numbers at the edges of what Decimal holds, each with its significant
  /// digits and the power of ten of the last.
  static let edges: [Self] = [
    ("0", "", 0), ("-0", "", 0), ("0e5", "", 0), ("-0.00e-300", "", 0), ("100e126", "1", 128),
    ("1e128", "1", 128), ("1e-128", "1", -128), ("10e-129", "1", -128), ("1e-129", "1", -129),
    (largestSignificand, largestSignificand, 0),
    ("-340282366920938463463374607431768211456", "340282366920938463463374607431768211456", 0),
    ("3.40282366920938463463374607431768211455e165", largestSignificand, 127),
    ("3.4e165", "34", 164), ("4e165", "4", 165), ("1234.56", "123456", -2),
  ].map { text, digits, exponent in
    let parts = text.split(separator: "e")
    let fraction = parts[0].split(separator: ".").dropFirst().first?.count ?? 0
    return Self(
      text: text, negative: text.hasPrefix("-"), digits: digits, exponent: exponent,
      fractionDigits: fraction, writtenExponent: parts.count > 1 ? Int(parts[1])! : 0)
  }
}

/// A record with a Decimal and an optional one, as models hold prices.
private struct PricedItem: Codable, Equatable {
  var price: Decimal
  var discount: Decimal?
}

/// A Decimal made from its fields, with the fields kept: its text is
/// `description`'s, except where Foundations differ (see
/// `DecimalDescription`).
private struct DecimalFromFields {
  var value: Decimal
  /// Whether the length says fewer words than are set, or more than eight.
  var lengthDisagrees: Bool

  #if canImport(Darwin)
    /// Lengths the struct's words cover: Foundation before swift-foundation
    /// reads `length` words, past the struct's end beyond eight.
    static let lengths = 9
  #else
    /// Every length the 4-bit field holds.
    static let lengths = 16
  #endif

  init(using random: inout SplitMix64) {
    var words = [UInt16](repeating: 0, count: 8)
    for index in 0..<random.next(below: 9) {
      switch random.next(below: 5) {
      case 0: words[index] = 0
      case 1: words[index] = .max
      default: words[index] = UInt16(truncatingIfNeeded: random.next())
      }
    }
    let used = (words.lastIndex { $0 != 0 } ?? -1) + 1
    let length = random.next(below: 3) == 0 ? random.next(below: Self.lengths) : used
    // A length of 0 means zero or NaN whatever the words hold.
    lengthDisagrees = length > 8 || (length != 0 && length < used)
    let reserved = random.next(below: 2) == 0 ? 0 : UInt32(truncatingIfNeeded: random.next())
    value = Decimal(
      _exponent: Int32(Int8(truncatingIfNeeded: random.next())), _length: UInt32(length),
      _isNegative: UInt32(random.next(below: 2)), _isCompact: UInt32(random.next(below: 2)),
      _reserved: reserved & 0x3FFFF,
      _mantissa: (
        words[0], words[1], words[2], words[3], words[4], words[5], words[6], words[7]
      ))
  }
}

extension FoundationParityTests {
  // MARK: - Reading

  /// `DecimalText` keeps every digit or gives nil; where Decimal holds the
  /// number, `Decimal(string:)` of its exact value agrees in value and text,
  /// and so does `Decimal(string:)` of the number itself wherever
  /// Foundation's parser reads it.
  @Test func decimalTextReadsExactlyWhatDecimalHolds() throws {
    let cases = DecimalNumberCase.edges + DecimalNumberCase.generated(count: 4000, seed: 0xDEC1)
    // How many numbers took each path, so that every one is known to be taken.
    var (exact, refused, onlyFoundationReads, onlyJSONKitReads) = (0, 0, 0, 0)
    for number in cases {
      let ours = Array(number.text.utf8).withUnsafeBytes { DecimalText.exact($0) }
      let foundation = Decimal(string: number.text)
      guard let exactText = number.exactText else {
        refused += 1
        #expect(ours == nil, "\(number)")
        if foundation != nil {
          // Foundation keeps the digits that fit and drops the rest.
          onlyFoundationReads += 1
          #expect(!number.digitsFit(), "\(number)")
        }
        continue
      }
      exact += 1
      let value = try #require(Decimal(string: exactText))
      #expect(ours == value, "\(number)")
      #expect(ours?.description == value.description, "\(number)")
      if let foundation {
        #expect(foundation == value, "\(number)")
        #expect(foundation.description == value.description, "\(number)")
      } else {
        onlyJSONKitReads += 1
        #expect(number.beyondFoundationsExponents, "\(number)")
      }
    }
    #expect(exact > 1000 && refused > 500 && onlyFoundationReads > 100 && onlyJSONKitReads > 100)
  }

  /// `JKDecoder` and `JSONDecoder` agree on every Decimal both read. Where
  /// JSONKit throws by its exactness rule, Foundation either throws too or
  /// keeps the 38 or 39 digits that fit and drops the rest; where only
  /// JSONKit reads a number, Foundation's parser gave up on its exponent
  /// (see `beyondFoundationsExponents`). Foundation's error for a number
  /// has no coding path.
  @Test func decimalsDecodeAsInFoundationOrByTheExactnessRule() throws {
    let cases = DecimalNumberCase.edges + DecimalNumberCase.generated(count: 600, seed: 0xDEC2)
    var outcomes: [String: Int] = [:]
    for number in cases {
      let json = Data("[\(number.text)]".utf8)
      let ours = DecodeParityOutcome { try JKDecoder().decode([Decimal].self, from: json) }
      let theirs = DecodeParityOutcome { try JSONDecoder().decode([Decimal].self, from: json) }
      switch (ours, theirs) {
      case (.value(let ours), .value(let theirs)):
        outcomes["both read", default: 0] += 1
        #expect(ours == theirs, "\(number)")
        #expect(ours.map(\.description) == theirs.map(\.description), "\(number)")
        #expect(number.exactText != nil, "\(number)")
      case (.error(let kind, let path), .value):
        outcomes["only Foundation reads", default: 0] += 1
        #expect(kind == "dataCorrupted" && path.keys.map(\.string) == ["Index 0"], "\(number)")
        #expect(number.exactText == nil && !number.digitsFit(), "\(number)")
      case (.value(let ours), .error(let kind, let path)):
        outcomes["only JSONKit reads", default: 0] += 1
        #expect(kind == "dataCorrupted" && path.keys.isEmpty, "\(number)")
        #expect(number.beyondFoundationsExponents, "\(number)")
        let exact = try #require(number.exactText.flatMap { Decimal(string: $0) }, "\(number)")
        #expect(ours == [exact], "\(number)")
      case (.error(let kind, let path), .error(let theirKind, _)):
        outcomes["neither reads", default: 0] += 1
        #expect(kind == "dataCorrupted" && path.keys.map(\.string) == ["Index 0"], "\(number)")
        #expect(theirKind == "dataCorrupted", "\(number)")
        #expect(number.exactText == nil, "\(number)")
      }
    }
    #expect(outcomes.count == 4 && outcomes.values.allSatisfy { $0 > 20 }, "\(outcomes)")
  }

  /// A Decimal and an optional Decimal in a record read alike, whatever
  /// the number.
  @Test func decimalFieldsDecodeAsInFoundation() throws {
    let numbers = DecimalNumberCase.generated(count: 300, seed: 0xDEC3).filter {
      $0.exactText != nil && !$0.beyondFoundationsExponents
    }
    #expect(numbers.count > 100)
    for (price, discount) in zip(numbers, numbers.reversed()) {
      for json in [
        #"{"price":\#(price),"discount":\#(discount)}"#, #"{"price":\#(price)}"#,
        #"{"discount":null,"price":\#(price)}"#,
      ] {
        let ours = try JKDecoder().decode(PricedItem.self, from: Data(json.utf8))
        let theirs = try JSONDecoder().decode(PricedItem.self, from: Data(json.utf8))
        #expect(ours == theirs, "\(json)")
        #expect(ours.price.description == theirs.price.description, "\(json)")
        #expect(ours.discount?.description == theirs.discount?.description, "\(json)")
      }
    }
  }

  /// A string, `null`, a Boolean or a container where a Decimal belongs
  /// fails with Foundation's error case and coding path.
  @Test func nonNumbersWhereDecimalsBelongFailAsInFoundation() {
    for other in [#""1.5""#, "null", "true", "{}", "[1]"] {
      expectSameDecoding([Decimal].self, "[1,\(other)]")
      expectSameDecoding([Decimal?].self, "[\(other),2.5]")
      expectSameDecoding(PricedItem.self, #"{"price":\#(other),"discount":1}"#)
      expectSameDecoding(PricedItem.self, #"{"price":1,"discount":\#(other)}"#)
      expectSameDecoding([String: PricedItem].self, #"{"a":{"price":2,"discount":\#(other)}}"#)
    }
  }

  // MARK: - Writing

  /// Decimals of every origin (read from text, computed, made from their
  /// fields, Foundation's constants, NaN) are written as `JSONEncoder`
  /// writes them, which is their `description`; `DecimalDescription`
  /// writes that text itself except where Foundations differ.
  @Test func decimalsAreWrittenAsJSONEncoderWritesThem() throws {
    var random = SplitMix64(seed: 0xDEC4)
    var decimals: [Decimal] = [
      .nan, 0, -1, .greatestFiniteMagnitude, .leastFiniteMagnitude, .leastNonzeroMagnitude,
      .leastNormalMagnitude, .pi, Decimal(-0.0), Decimal(Int64.min), Decimal(UInt64.max),
      Decimal(sign: .minus, exponent: 5, significand: 0),
    ]
    // Zero significands of a nonzero length, signed: `-0000`, `-0.000`, `0.0`.
    for (exponent, negative) in [(3, 1), (-3, 1), (-1, 0)] as [(Int32, UInt32)] {
      decimals.append(
        Decimal(
          _exponent: exponent, _length: 1, _isNegative: negative, _isCompact: 0, _reserved: 0,
          _mantissa: (0, 0, 0, 0, 0, 0, 0, 0)))
    }
    var writtenNatively = [Bool](repeating: true, count: decimals.count)
    for number in DecimalNumberCase.generated(count: 1200, seed: 0xDEC5) {
      guard let value = Array(number.text.utf8).withUnsafeBytes({ DecimalText.exact($0) })
      else { continue }
      decimals.append(value)
      writtenNatively.append(true)
    }
    for _ in 0..<600 {
      let left = Self.smallDecimal(using: &random)
      let right = Self.smallDecimal(using: &random)
      decimals += [left + right, left - right, left * right, left / right]
      writtenNatively += [true, true, true, true]
    }
    for _ in 0..<1200 {
      let made = DecimalFromFields(using: &random)
      decimals.append(made.value)
      writtenNatively.append(!made.lengthDisagrees)
    }
    #expect(writtenNatively.contains(false))
    var text = [UInt8](repeating: 0, count: DecimalDescription.maxLength)
    for (decimal, native) in zip(decimals, writtenNatively) {
      let count = text.withUnsafeMutableBytes {
        DecimalDescription.write(decimal, to: $0.baseAddress!)
      }
      #expect((count != nil) == native, "\(decimal)")
      if let count {
        #expect(String(decoding: text[..<count], as: UTF8.self) == decimal.description)
      }
    }
    for start in stride(from: 0, to: decimals.count, by: 500) {
      let chunk = Array(decimals[start..<min(start + 500, decimals.count)])
      let ours = try JKEncoder().encode(chunk)
      let theirs = try JSONEncoder().encode(chunk)
      #expect(ours == theirs, "\(String(decoding: ours, as: UTF8.self))")
    }
    // JSONEncoder writes NaN bare, as its description; so does JKEncoder.
    #expect(try JSONEncoder().encode([Decimal.nan]) == Data("[NaN]".utf8))
    #expect(try JKEncoder().encode([Decimal.nan]) == Data("[NaN]".utf8))
  }

  /// The longest description fits `DecimalDescription.maxLength`.
  @Test func theLongestDecimalTextFitsItsBound() throws {
    let longest = try #require(
      Decimal(string: "-" + DecimalNumberCase.largestSignificand + "e127"))
    let tiny = try #require(Decimal(string: "-1e-128"))
    var text = [UInt8](repeating: 0, count: DecimalDescription.maxLength)
    for decimal in [longest, tiny] {
      let count = text.withUnsafeMutableBytes {
        DecimalDescription.write(decimal, to: $0.baseAddress!)
      }
      #expect(count.map { String(decoding: text[..<$0], as: UTF8.self) } == decimal.description)
    }
    #expect(longest.description.utf8.count == DecimalDescription.maxLength)
  }

  /// A Decimal of up to 23 digits with an exponent within ±20, so that
  /// arithmetic on two of them neither overflows nor underflows.
  private static func smallDecimal(using random: inout SplitMix64) -> Decimal {
    let sign = random.next(below: 3) == 0 ? "-" : ""
    let digits = "\(random.next() % 100_000_000_000)\(random.next() % 1_000_000_000_000)"
    return Decimal(string: "\(sign)\(digits)e\(random.next(below: 41) - 20)") ?? 1
  }
}
