import Foundation
import Testing

@testable import JSONKit

// MARK: - ISO 8601 dates

extension FoundationParityTests {
  /// Texts in and around the form `.iso8601` reads: ones Foundation reads in its tolerant
  /// ways, ones it refuses, and every one-character slip from them; the same on every run.
  static let iso8601Texts: [String] = {
    var generator = ISO8601TextGenerator(random: SplitMix64(seed: 0x8601_0001))
    var texts = ISO8601TextGenerator.notableTexts
    for _ in 0..<1400 {
      let text = generator.text()
      texts.append(text)
      texts.append(generator.mutated(text))
    }
    return texts
  }()

  /// Dates at the edges Foundation's writing turns on (the reference date, 1970, years 1,
  /// 9999 and 10000, the Gregorian cutover, the clamped range's ends, ±infinity, -0.0, a
  /// fraction either side of a second) and a seeded spread of others.
  static let iso8601Dates: [Date] = {
    var generator = ISO8601TextGenerator(random: SplitMix64(seed: 0x8601_0002))
    let edges = ISO8601TextGenerator.edgeTimes.flatMap { [$0, $0.nextUp, $0.nextDown] }
    let spread = (0..<3000).map { _ in generator.time() }
    return (edges + spread).map { Date(timeIntervalSinceReferenceDate: $0) }
  }()

  /// The value's bits, so that -0.0 and 0.0 differ and NaN equals itself.
  private static func bits(_ date: Date?) -> UInt64? {
    date?.timeIntervalSinceReferenceDate.bitPattern
  }

  @Test func iso8601TextReadsToFoundationsDateOrFailsWhereFoundationFails() {
    // Compared by the bits of the date, so that -0.0 and 0.0 differ.
    Self.expectReadsAsFoundation(
      Self.iso8601Texts, minimum: 1000, ours: { Self.bits(ISO8601DateText.date(from: $0)) },
      theirs: { Self.bits(try? Date.ISO8601FormatStyle().parse($0)) })
  }

  struct Stamp: Codable, Equatable {
    var id: Int
    var when: Date
  }

  /// Decodes `json` with `JSONDecoder` and `JKDecoder`, both set to `.iso8601`, and
  /// expects the same dates to the bit, or the same error at the same path.
  private static func expectSameISO8601Decoding<T: Decodable>(
    _ type: T.Type, _ json: String, dates: (T) -> [Date],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let foundation = JSONDecoder()
    foundation.dateDecodingStrategy = .iso8601
    let jsonKit = JKDecoder()
    jsonKit.dateDecodingStrategy = .iso8601
    let theirs = DecodeParityOutcome {
      try dates(foundation.decode(type, from: Data(json.utf8))).compactMap { bits($0) }
    }
    let ours = DecodeParityOutcome {
      try dates(jsonKit.decode(type, from: Data(json.utf8))).compactMap { bits($0) }
    }
    #expect(ours == theirs, "\(json)", sourceLocation: sourceLocation)
  }

  /// Texts that JSONKit's own rules refuse as strings, whatever the date strategy: U+0000
  /// (the documented difference from Foundation). The reader is compared on them above.
  private static func isRefusedAsAString(_ text: String) -> Bool {
    text.unicodeScalars.contains("\u{0}")
  }

  @Test func jkDecoderReadsISO8601DatesAsJSONDecoderDoes() throws {
    for text in Self.iso8601Texts {
      let literal = String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
      guard !Self.isRefusedAsAString(text) else {
        let decoder = JKDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(throws: DecodingError.self) {
          try decoder.decode([Date].self, from: "[\(literal)]")
        }
        continue
      }
      Self.expectSameISO8601Decoding([Date].self, "[\(literal)]", dates: { $0 })
      Self.expectSameISO8601Decoding(
        Stamp.self, #"{"id":1,"when":\#(literal)}"#, dates: { [$0.when] })
    }
    // Escapes are undone before the date is read.
    for json in [
      #"["\u0032024-05-06T07:08:09Z"]"#, #"["2024-05-06\u005407:08:09Z"]"#,
      #"["2024-05-06T07:08:09\u002b05:30"]"#, #"["2024-05-06T07:08:09Z\/\n"]"#,
      #"["2024-05-06T07:08:09\/"]"#,
    ] {
      Self.expectSameISO8601Decoding([Date].self, json, dates: { $0 })
    }
    // Every readable one, in one document.
    let readable = Self.iso8601Texts.filter {
      !Self.isRefusedAsAString($0) && (try? Date.ISO8601FormatStyle().parse($0)) != nil
    }
    let literals = try readable.map {
      String(decoding: try JSONEncoder().encode($0), as: UTF8.self)
    }
    Self.expectSameISO8601Decoding(
      [Date].self, "[" + literals.joined(separator: ",") + "]", dates: { $0 })
  }

  @Test func iso8601WritingMatchesFoundationsFormatterByteForByte() {
    var buffer = [UInt8](repeating: 0, count: ISO8601DateText.maxLength)
    for date in Self.iso8601Dates {
      let count = buffer.withUnsafeMutableBufferPointer { buffer in
        buffer.baseAddress.flatMap { ISO8601DateText.write(date, to: $0) }
      }
      guard let count else {
        Issue.record("nothing written for \(date.timeIntervalSinceReferenceDate)")
        continue
      }
      #expect(count <= ISO8601DateText.maxLength)
      let ours = String(decoding: buffer[..<count], as: UTF8.self)
      let theirs = date.formatted(Date.ISO8601FormatStyle())
      #expect(ours == theirs, "\(date.timeIntervalSinceReferenceDate)")
    }
  }

  /// Foundation's formatter traps on NaN, so there is no text to match: the writer declines.
  @Test func aNaNDateIsNotWritten() {
    var buffer = [UInt8](repeating: 0, count: ISO8601DateText.maxLength)
    let nan = Date(timeIntervalSince1970: .nan)
    let count = buffer.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.flatMap { ISO8601DateText.write(nan, to: $0) }
    }
    #expect(count == nil)
  }

  /// Where Foundation's encoder stops the process, `JKEncoder` throws, at the
  /// date's path, as it does for a NaN written as a number.
  @Test func aNaNDateMakesJKEncoderThrow() throws {
    struct Stamped: Encodable {
      var at: Date
    }
    let encoder = JKEncoder()
    encoder.dateEncodingStrategy = .iso8601
    let nan = Date(timeIntervalSince1970: .nan)
    do {
      let output = try encoder.encode([
        Stamped(at: Date(timeIntervalSince1970: 0)), Stamped(at: nan),
      ])
      Issue.record("wrote \(String(decoding: output, as: UTF8.self))")
    } catch EncodingError.invalidValue(_, let context) {
      #expect(context.codingPath.map(\.stringValue) == ["Index 1", "at"])
    }
    // A date that is not NaN still writes, after one that failed.
    #expect(
      try encoder.encode([Date(timeIntervalSince1970: 0)])
        == Data(#"["1970-01-01T00:00:00Z"]"#.utf8))
  }

  @Test func jkEncoderWritesISO8601DatesAsJSONEncoderDoes() throws {
    let foundation = JSONEncoder()
    foundation.dateEncodingStrategy = .iso8601
    foundation.outputFormatting = .sortedKeys
    let jsonKit = JKEncoder()
    jsonKit.dateEncodingStrategy = .iso8601
    jsonKit.outputFormatting = .sortedKeys
    let dates = Self.iso8601Dates
    #expect(try jsonKit.encode(dates) == foundation.encode(dates))
    for (index, date) in dates.enumerated() where index % 10 == 0 {
      let stamp = Stamp(id: index, when: date)
      #expect(
        try jsonKit.encode(stamp) == foundation.encode(stamp),
        "\(date.timeIntervalSinceReferenceDate)")
    }
  }
}

/// Seeded texts and instants for the ISO 8601 parity tests.
private struct ISO8601TextGenerator {
  var random: SplitMix64

  /// Forms whose reading is worth naming, each next to its near misses.
  static let notableTexts = [
    "", "2024-05-06T07:08:09Z", "2024-05-06T07:08:09.123Z", "2024-05-06T07:08:09.123456+05:30",
    "2024-05-06T07:08:09+02:00", "2024-05-06T07:08:09+0200", "2024-05-06T07:08:09+02",
    "2024-05-06T07:08:09+2", "2024-05-06T07:08:09-00:00", "2024-05-06T07:08:09+05:30:15",
    "2024-05-06T07:08:09+053015", "2024-05-06T07:08:09+05:", "2024-05-06T07:08:09+",
    "2024-05-06T07:08:09+18:00", "2024-05-06T07:08:09-18:00", "2024-05-06T07:08:09+18:00:01",
    "2024-05-06T07:08:09+01:99", "2024-05-06T07:08:09+123", "2024-05-06T07:08:09+00:00:30",
    "2024-05-06T07:08:09z", "2024-05-06t07:08:09Z", "2024-05-06 07:08:09Z",
    "2024-05-06T07:08Z", "2024-05-06T07:08:09", " 2024-05-06T07:08:09Z",
    "2024-05-06T07:08:09Z ", "2024-05-06T07:08:09Zjunk", "2024-05-06T07:08:09GMT",
    "2024-05-06T07:08:09gmt-08:00", "2024-05-06T07:08:09UTC+1", "2024-05-06T07:08:09UTCx",
    "2024-05-06T07:08:09GMX", "2024-05-06T07:08:09EST", "+2024-05-06T07:08:09Z",
    "-2024-05-06T07:08:09Z", "12024-05-06T07:08:09Z", "2024-005-0006T7:8:9Z",
    "0000000002-01-01T00:00:00Z", "00000000002-01-01T00:00:00Z",
    "2024-05-06T0000000007:08:09Z", "2024-05-06T00000000007:08:09Z",
    "2024-05-06T07:08:09.Z", "2024-05-06T07:08:09.123456789Z",
    "2024-05-06T07:08:09.1234567891Z", "2024-05-06T07:08:09.000000000Z",
    "2024-12-31T23:59:60Z", "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z",
    "2023-02-31T24:00:00Z", "2024-05-06T99:99:99Z", "2024-13-06T07:08:09Z",
    "2024-00-06T07:08:09Z", "2024-05-32T07:08:09Z", "2024-05-00T07:08:09Z",
    "0000-01-01T00:00:00Z", "0000-02-29T00:00:00Z", "0001-01-01T00:00:00Z",
    "1500-02-29T00:00:00Z", "1582-10-04T23:59:59.999999999Z", "1582-10-05T00:00:00Z",
    "1582-10-10T00:00:00Z", "1582-10-14T23:59:59Z", "1582-10-15T00:00:00Z",
    "1969-12-31T23:59:59.999Z", "1970-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
    "10000-01-01T00:00:00Z", "506714-01-01T00:00:00Z", "506715-01-01T00:00:00Z",
    "9999999999-12-31T23:59:59Z", "2024-01-01T2147483647:00:00Z",
    "2024-01-01T2147483648:00:00Z", "2024-01-01T00:2147483648:00Z",
    "2024-01-01T00:00:2147483648Z", "2024-01-01T00:00:2147483647.999999999-18:00",
    "2024-05-06T07:08:09Z\u{0}", "2024-05-06T07:08:09é", "２０２４-05-06T07:08:09Z",
  ]

  /// Instants (seconds since 2001) where the writing changes course.
  static let edgeTimes: [Double] = {
    let since1970 = -Date.timeIntervalBetween1970AndReferenceDate
    // Years 1, 9999 and 10000 begin, and 9999 ends, at these seconds since 1970.
    let years: [Double] = [-62_135_596_800, 253_402_300_799, 253_402_300_800, -62_167_219_200]
    let yearEdges: [Double] = years.flatMap { year -> [Double] in
      let time = year + since1970
      return [time, time - 0.5, time + 0.5]
    }
    let epochs: [Double] = [
      0, -0.0, 0.5, -0.5, 0.999, -0.001, since1970, since1970 - 0.001, since1970 + 0.999,
    ]
    // The Gregorian cutover and the ends of the range Foundation's calendar clamps into.
    let calendarEdges: [Double] = [
      -13_197_600_000, -13_197_600_000.5, -13_197_599_999.5,
      15_927_175_497_600, 15_927_175_497_600.5, -211_845_067_200, -211_845_067_200.5,
    ]
    let extremes: [Double] = [
      .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
      .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 1e15, -1e15,
    ]
    return epochs + yearEdges + calendarEdges + extremes
  }()

  mutating func number(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + random.next(below: range.count)
  }

  mutating func pick(_ choices: [String]) -> String {
    choices[random.next(below: choices.count)]
  }

  /// A fraction in 0..<1.
  mutating func unit() -> Double {
    Double(random.next() >> 11) * 0x1p-53
  }

  /// `value` in decimal, with zeros in front to `width` digits.
  func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  /// A field, mostly as Foundation writes it but now and then short or with extra zeros.
  mutating func field(_ value: Int, _ width: Int) -> String {
    switch random.next(below: 10) {
    case 0: String(value)
    case 1: padded(value, width + number(1...7))
    default: padded(value, width)
    }
  }

  mutating func year() -> Int {
    switch random.next(below: 10) {
    case 0: number(10_000...520_000)
    case 1: number(1500...1600)
    default: number(0...9999)
    }
  }

  mutating func fraction() -> String {
    let count = number(0...12)
    guard count > 0 else { return "" }
    return "." + (0..<count).map { _ in String(random.next(below: 10)) }.joined()
  }

  mutating func zone() -> String {
    switch random.next(below: 6) {
    case 0:
      return pick(["Z", "z", "GMT", "utc", "Gmt", "UTC", "GMTx", "EST", "+", "-", ""])
    case 1, 2:
      // An offset in one of Foundation's spellings, in or out of range.
      let sign = pick(["+", "-"])
      var offset = sign + field(number(0...19), 2)
      if random.next(below: 4) != 0 {
        offset += pick([":", ""]) + field(number(0...99), 2)
        if random.next(below: 3) == 0 {
          offset += pick([":", ""]) + field(number(0...99), 2)
        }
      }
      return pick(["", "GMT", "UTC"]) + offset
    default:
      return "Z"
    }
  }

  /// A timestamp close to the standard form, sometimes with fields out of range.
  mutating func text() -> String {
    let month = random.next(below: 20) == 0 ? number(0...13) : number(1...12)
    let day = random.next(below: 20) == 0 ? number(0...32) : number(1...31)
    let hour = random.next(below: 20) == 0 ? number(0...100_000) : number(0...24)
    var text = "\(field(year(), 4))-\(field(month, 2))-\(field(day, 2))T"
    text += "\(field(hour, 2)):\(field(number(0...60), 2)):\(field(number(0...61), 2))"
    text += fraction() + zone()
    if random.next(below: 10) == 0 {
      text += pick([" ", "x", "Z", "0", ":00"])
    }
    return text
  }

  /// `text` with one character replaced, deleted, doubled or inserted.
  mutating func mutated(_ text: String) -> String {
    var characters = Array(text)
    let alphabet = Array("0123456789-:T.Zz+ tGMUCx\u{0}é\"\\")
    let replacement = alphabet[random.next(below: alphabet.count)]
    guard !characters.isEmpty else { return String(replacement) }
    let index = random.next(below: characters.count)
    switch random.next(below: 4) {
    case 0: characters[index] = replacement
    case 1: characters.remove(at: index)
    case 2: characters.insert(characters[index], at: index)
    default: characters.insert(replacement, at: index)
    }
    return String(characters)
  }

  /// Seconds since 2001: around now and the last few millennia, anywhere Foundation's
  /// calendar reaches, any bit pattern but NaN, or next to a midnight.
  mutating func time() -> Double {
    switch random.next(below: 4) {
    case 0:
      let whole = Double(number(-100_000_000_000...100_000_000_000))
      return whole + unit() - Date.timeIntervalBetween1970AndReferenceDate
    case 1:
      return -3e11 + unit() * 1.7e13
    case 2:
      let time = Double(bitPattern: random.next())
      return time.isNaN ? 0 : time
    default:
      let midnight = Double(number(-2_500_000...2_500_000)) * 86400
      return midnight - [0, 1, 0.001, 0.5][random.next(below: 4)]
    }
  }
}
