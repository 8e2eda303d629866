import Foundation
import Testing

@testable import JSONKit

// MARK: - UUIDs

extension FoundationParityTests {
  /// Texts in and around the form `UUID(uuidString:)` reads: canonical ones in
  /// both cases, the C scanner's tolerances (white space, signs, one-digit
  /// bytes, `0x`, a NUL after the 36th character), near misses of each, and
  /// seeded slips and noise; the same on every run.
  static let uuidTexts: [String] = {
    var generator = UUIDTextGenerator(random: SplitMix64(seed: 0x0BAD_CAFE_0001))
    var texts = UUIDTextGenerator.notableTexts + UUIDTextGenerator.hexPrefixTexts
    for _ in 0..<1200 {
      let text = generator.canonical()
      texts.append(text)
      texts.append(generator.mutated(text))
      texts.append(generator.mutated(generator.mutated(text)))
    }
    for _ in 0..<1200 {
      texts.append(generator.noise())
    }
    return texts
  }()

  @Test func uuidTextReadsAsUUIDStringInitializerDoes() {
    Self.expectReadsAsFoundation(
      Self.uuidTexts, minimum: 1000, ours: { UUIDText.uuid(from: $0) },
      theirs: { UUID(uuidString: $0) })
  }

  /// Each character of a canonical text replaced by every byte: ASCII as
  /// text Foundation reads too, and each byte above 0x7F alone, which no
  /// `String` holds and which nothing in the scan accepts.
  @Test func everyByteAtEveryPositionReadsAsUUIDStringInitializerDoes() {
    Self.expectEveryByteAtEveryPositionReadsAsFoundation(
      ["E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "00ff00FF-0a0B-c0D0-e0F0-0123456789aB"],
      ours: { UUIDText.uuid(from: $0) }, theirs: { UUID(uuidString: $0) })
  }

  @Test func uuidTextWritesUUIDStringsBytes() {
    var random = SplitMix64(seed: 0x0BAD_CAFE_0002)
    var uuids = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))]
    uuids.append(UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!)
    uuids.append(UUID(uuidString: "09AF09af-9A0F-a9f0-0a9F-F9A00A9FF9A0")!)
    for _ in 0..<3000 {
      uuids.append(UUIDTextGenerator.randomUUID(&random))
    }
    var buffer = [UInt8](repeating: 0, count: UUIDText.length)
    for uuid in uuids {
      buffer.withUnsafeMutableBufferPointer { UUIDText.write(uuid, to: $0.baseAddress!) }
      #expect(String(decoding: buffer, as: UTF8.self) == uuid.uuidString)
    }
  }

  struct Identified: Codable, Equatable {
    var id: UUID
    var parent: UUID?
  }

  @Test func jkDecoderReadsUUIDsAsJSONDecoderDoes() throws {
    // JSONKit refuses U+0000 in any string (README, "Switching from
    // Foundation"), so texts holding it are left to the test after this.
    let texts = Self.uuidTexts.filter { !$0.contains("\u{0}") }
    var random = SplitMix64(seed: 0x0BAD_CAFE_0003)
    for (index, text) in texts.enumerated() where index % 4 == 0 {
      let literal = try Self.jsonLiteral(text)
      Self.expectSameDecodingAndMessage([UUID].self, "[\(literal)]")
      let valid = try Self.jsonLiteral(UUIDTextGenerator.randomUUID(&random).uuidString)
      Self.expectSameDecodingAndMessage([UUID].self, "[\(valid),\(literal)]")
      Self.expectSameDecodingAndMessage([UUID?].self, "[null,\(literal)]")
      Self.expectSameDecodingAndMessage(Identified.self, #"{"id":\#(literal)}"#)
      Self.expectSameDecodingAndMessage(Identified.self, #"{"id":\#(valid),"parent":\#(literal)}"#)
      Self.expectSameDecodingAndMessage(UUID.self, literal)
    }
    // Every readable text in one document.
    let readable = try texts.filter { UUID(uuidString: $0) != nil }.map(Self.jsonLiteral)
    #expect(readable.count > 1000)
    Self.expectSameDecodingAndMessage([UUID].self, "[" + readable.joined(separator: ",") + "]")
    // Escapes are undone before the text is read.
    for json in [
      #"["\u0045621E1F8-C36C-495A-93FC-0C247A3E6E5F"]"#,
      #"["E621E1F8\u002dC36C-495A-93FC-0C247A3E6E5F"]"#,
      #"["\tE621E1F8-C36C-495A-93FC-0C247A3E6E5F"]"#, #"["\t621E1F8-C36C-495A-93FC-0C247A3E6E5F"]"#,
      #"["E621E1F8-C36C-495A-93FC-0C247A3E6E5F\n"]"#, #"["E621E1F8-C36C-495A-93FC-0C247A3E6E\/F"]"#,
    ] {
      Self.expectSameDecodingAndMessage([UUID].self, json)
    }
  }

  @Test func aValueThatIsNoStringFailsAsInJSONDecoderWhereAUUIDIsExpected() {
    let valid = #""E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#
    for other in ["null", "0", "1.5", "-7", "true", "[]", "{}", "[\(valid)]"] {
      Self.expectSameDecodingAndMessage([UUID].self, "[\(other)]")
      Self.expectSameDecodingAndMessage([UUID].self, "[\(valid),\(other)]")
      Self.expectSameDecodingAndMessage([UUID?].self, "[\(valid),\(other)]")
      Self.expectSameDecodingAndMessage(Identified.self, #"{"id":\#(other)}"#)
      Self.expectSameDecodingAndMessage(Identified.self, #"{"id":\#(valid),"parent":\#(other)}"#)
      Self.expectSameDecodingAndMessage(UUID.self, other)
    }
    Self.expectSameDecodingAndMessage(Identified.self, #"{"parent":\#(valid)}"#)
    Self.expectSameDecodingAndMessage(Identified.self, #"{"id":\#(valid),"parent":null}"#)
  }

  /// Foundation reads a text whose 37th character is U+0000 as the UUID
  /// before it; JSONKit refuses U+0000 in any string, a listed difference.
  @Test func aUUIDTextHoldingUPlus0000IsRefusedByJSONKitOnly() throws {
    let json = #"["E621E1F8-C36C-495A-93FC-0C247A3E6E5F\u0000"]"#
    let theirs = try JSONDecoder().decode([UUID].self, from: Data(json.utf8))
    #expect(theirs == [UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!])
    #expect(throws: DecodingError.self) {
      try JKDecoder().decode([UUID].self, from: Data(json.utf8))
    }
  }

  @Test func jkEncoderWritesUUIDsAsJSONEncoderDoes() throws {
    var random = SplitMix64(seed: 0x0BAD_CAFE_0004)
    let uuids = (0..<500).map { _ in UUIDTextGenerator.randomUUID(&random) }
    let identified = (0..<100).map { index in
      Identified(id: uuids[index], parent: index % 3 == 0 ? nil : uuids[index + 100])
    }
    for formatting in Self.foundationTypeFormattings {
      let (foundation, jsonKit) = Self.encoderPair(formatting)
      #expect(try jsonKit.encode(uuids) == foundation.encode(uuids), "\(formatting.rawValue)")
      #expect(try jsonKit.encode(uuids[0]) == foundation.encode(uuids[0]))
      let optionals = uuids.prefix(20).enumerated().map { $0 % 2 == 0 ? nil : $1 }
      #expect(try jsonKit.encode(optionals) == foundation.encode(optionals))
      // Foundation orders the keys of an object only when sorting them.
      guard formatting.contains(.sortedKeys) else { continue }
      #expect(
        try jsonKit.encode(identified) == foundation.encode(identified), "\(formatting.rawValue)")
      let byName = Dictionary(uniqueKeysWithValues: uuids.prefix(50).map { ($0.uuidString, $0) })
      #expect(try jsonKit.encode(byName) == foundation.encode(byName))
    }
  }

  // MARK: - Support

  /// The output settings the encoders are compared under for Foundation's
  /// value types (here and in the base64 tests).
  static let foundationTypeFormattings: [JKOutputFormatting] = [
    [], [.prettyPrinted], [.withoutEscapingSlashes], [.sortedKeys],
    [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes],
  ]

  /// A `JSONEncoder` and a `JKEncoder` set to `formatting`.
  static func encoderPair(_ formatting: JKOutputFormatting) -> (JSONEncoder, JKEncoder) {
    let foundation = JSONEncoder()
    foundation.outputFormatting = JSONEncoder.OutputFormatting(rawValue: formatting.rawValue)
    let jsonKit = JKEncoder()
    jsonKit.outputFormatting = formatting
    return (foundation, jsonKit)
  }

  /// `text` as a JSON string literal, escaped as `JSONEncoder` escapes it.
  static func jsonLiteral(_ text: String) throws -> String {
    String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
  }

}

/// Seeded UUID texts for the UUID parity tests.
private struct UUIDTextGenerator {
  var random: SplitMix64

  /// Forms whose reading is worth naming, each next to its near misses.
  static let notableTexts = [
    "", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f",
    "E621e1f8-C36c-495A-93fC-0c247A3E6e5F", "00000000-0000-0000-0000-000000000000",
    "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}",
    "urn:uuid:E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8C36C495A93FC0C247A3E6E5F",
    "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F0",
    "E621E1F8-C36C-495A-93FC0-C247A3E6E5F", "E621E1F8C-36C-495A-93FC-0C247A3E6E5F",
    " E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F ",
    " 621E1F8-C36C-495A-93FC-0C247A3E6E5F", "\t621E1F8-C36C-495A-93FC-0C247A3E6E5F",
    "\n621E1F8-C36C-495A-93FC-0C247A3E6E5F", "\u{B}621E1F8-C36C-495A-93FC-0C247A3E6E5F",
    "\u{C}621E1F8-C36C-495A-93FC-0C247A3E6E5F", "\r621E1F8-C36C-495A-93FC-0C247A3E6E5F",
    "\u{85}621E1F8-C36C-495A-93FC-0C247A3E6E5F", "\u{A0}621E1F8-C36C-495A-93FC-0C247A3E6E5F",
    "E 21E1F8-C36C-495A-93FC-0C247A3E6E5F", "E6 1E1F8-C36C-495A-93FC-0C247A3E6E5F",
    "E621E1F8- 36C-495A-93FC-0C247A3E6E5F", "E621E1F8 -C36C-495A-93FC-0C247A3E6E5F",
    "E621E1F8-C36C-495A-93FC-0C247A3E6E F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5 ",
    "E621E1F8-C36C-495A-93FC-0C247A3E6E 5", "  21E1F8-C36C-495A-93FC-0C247A3E6E5F",
    "+621E1F8-C36C-495A-93FC-0C247A3E6E5F", "-621E1F8-C36C-495A-93FC-0C247A3E6E5F",
    "E+21E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-+36C-495A-93FC-0C247A3E6E5F",
    "E621E1F8-C36C-495A-93FC-0C247A3E6E-F", "E621E1F8-C36C-495A-93FC-0C247A3E6E+F",
    "E621E1F8-C36C-495A-93FC-0C247A3E6E-0", "E621E1F8-C36C-495A-93FC-0C247A3E6E+-",
    "E621E1F8-C36C-495A-93FC-0C247A3E6E--", "E621E1F8-C36C-495A-93FC-0C247A3E6E+",
    "+0x1E1F8-C36C-495A-93FC-0C247A3E6E5F", "- 21E1F8-C36C-495A-93FC-0C247A3E6E5F",
    " -21E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F\u{0}",
    "E621E1F8-C36C-495A-93FC-0C247A3E6E5F\u{0}junk", "E621E1F8-C36C-495A-93FC-0C247A3E6E5\u{0}",
    "E621E1F8-C36C-495A\u{0}93FC-0C247A3E6E5F", "\u{0}E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
    "E621E1F8-C36C-495A-93FC-0C247A3E6E5F\n", "E621E1F8-C36C-495A-93FC-0C247A3E6E5G",
    "E621E1F8-C36C-495A-93FC-0C247A3E6E5g", "É621E1F8-C36C-495A-93FC-0C247A3E6E5F",
    "Ｅ621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8–C36C-495A-93FC-0C247A3E6E5F",
    "E621E1F8-C36C-495A-93FC-0C247A3E6E5F😀", "E621E1F8-C36C-495A-93FC-0C247A3E6😀",
    "E621E1F8_C36C_495A_93FC_0C247A3E6E5F", "E621-E1F8-C36C-495A-93FC-0C247A3E6E5F",
  ]

  /// Texts whose reading differs between C libraries: glibc reads `0x` as
  /// a whole byte's text, BSD's (Apple's) leaves the `x` and fails.
  static let hexPrefixTexts = [
    "0x21E1F8-C36C-495A-93FC-0C247A3E6E5F", "0X21E1F8-C36C-495A-93FC-0C247A3E6E5F",
    "E621E1F8-C36C-495A-93FC-0C247A3E6E0x", "E621E1F8-0x6C-495A-93FC-0C247A3E6E5F",
    "E621E1F8-C36C-495A-93FC-0C247A3E60x5", "E621E1F8-C36C-495A-93FC-0C247A3E6Ex5",
    " 0x1E1F8-C36C-495A-93FC-0C247A3E6E5F", "0x0x0x0x-0x0x-0X0X-0x0x-0x0x0x0x0x0x",
  ]

  /// A random UUID, any bits (not only version 4's).
  static func randomUUID(_ random: inout SplitMix64) -> UUID {
    let high = random.next()
    let low = random.next()
    func byte(_ word: UInt64, _ index: Int) -> UInt8 {
      UInt8(truncatingIfNeeded: word >> (56 - 8 * index))
    }
    return UUID(
      uuid: (
        byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5),
        byte(high, 6), byte(high, 7), byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3),
        byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)
      ))
  }

  /// A canonical text, its letters in upper, lower or mixed case.
  mutating func canonical() -> String {
    let text = Self.randomUUID(&random).uuidString
    switch random.next(below: 3) {
    case 0: return text
    case 1: return text.lowercased()
    default:
      return String(text.map { random.next(below: 2) == 0 ? Character($0.lowercased()) : $0 })
    }
  }

  /// Characters the scan treats specially, and some it does not.
  private static let slips: [Character] = [
    " ", "\t", "\n", "\r", "\u{B}", "\u{C}", "\u{0}", "+", "-", "0", "x", "X", "f", "F", "9",
    "g", "{", "}", "é", "\u{85}",
  ]

  /// `text` with one slip: a character replaced or removed, or one (a sign,
  /// space or zero among them) inserted, twice as often.
  mutating func mutated(_ text: String) -> String {
    random.slipped(text, slips: Self.slips, choices: 4)
  }

  /// Up to 40 characters drawn mostly from hex digits, with the scan's
  /// special characters among them.
  mutating func noise() -> String {
    let hex = Array("0123456789abcdefABCDEF")
    let length = 30 + random.next(below: 11)
    return String(
      (0..<length).map { index -> Character in
        if [8, 13, 18, 23].contains(index), random.next(below: 4) != 0 { return "-" }
        return random.next(below: 5) == 0
          ? Self.slips[random.next(below: Self.slips.count)] : hex[random.next(below: hex.count)]
      })
  }
}
