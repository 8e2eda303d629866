import Foundation
import Testing

@testable import JSONKit

@Suite("String escaping")
struct StringEscapingTests {
  static func foundationQuoted(_ string: String, slashes: Bool = true) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = slashes ? [] : [.withoutEscapingSlashes]
    return String(decoding: try encoder.encode(string), as: UTF8.self)
  }

  @Test func rulesAsWritten() {
    #expect(JSONValue.quote("") == #""""#)
    #expect(JSONValue.quote(#"a"b\c/d"#) == #""a\"b\\c\/d""#)
    #expect(JSONValue.quote("\u{8}\u{9}\u{A}\u{C}\u{D}") == #""\b\t\n\f\r""#)
    #expect(
      JSONValue.quote("\u{0}\u{1}\u{B}\u{E}\u{1B}\u{1F}")
        == #""\u0000\u0001\u000b\u000e\u001b\u001f""#)
    // DEL, the line and paragraph separators, a BOM and all other non-ASCII
    // characters stay raw UTF-8.
    #expect(
      JSONValue.quote("\u{7F}\u{80}\u{2028}\u{2029}\u{FEFF}é😀")
        == "\"\u{7F}\u{80}\u{2028}\u{2029}\u{FEFF}é😀\"")
    #expect(JSONValue.quote("a/b", options: .withoutEscapingSlashes) == #""a/b""#)
    #expect(JSONValue.escape(#"x"/"#) == #"x\"\/"#)
    #expect(JSONValue.escape("plain") == "plain")
  }

  @Test func everyASCIICharacterMatchesJSONEncoder() throws {
    for byte in UInt8(0)...0x7F {
      let string = String(UnicodeScalar(byte))
      #expect(JSONValue.quote(string) == (try Self.foundationQuoted(string)), "byte \(byte)")
      #expect(
        JSONValue.quote(string, options: .withoutEscapingSlashes)
          == (try Self.foundationQuoted(string, slashes: false)), "byte \(byte)")
    }
  }

  /// An escape at every offset of strings up to two 16-byte blocks and a
  /// word long, so that the vector search, the word-at-a-time search and
  /// the tail are each checked at every lane.
  @Test func escapesAtEveryOffsetMatchJSONEncoder() throws {
    let specials: [Character] = [
      "\"", "\\", "/", "\n", "\u{1}", "\u{1F}", "é", "\u{7F}", " ", "~", "\u{F8FF}", "😀",
    ]
    for length in 1...41 {
      for offset in 0..<length {
        for special in specials {
          var characters = Array(repeating: Character("a"), count: length)
          characters[offset] = special
          let string = String(characters)
          for slashes in [true, false] {
            let options: JKOutputFormatting = slashes ? [] : .withoutEscapingSlashes
            #expect(
              JSONValue.quote(string, options: options)
                == (try Self.foundationQuoted(string, slashes: slashes)))
          }
        }
      }
    }
  }

  @Test func randomStringsMatchJSONEncoder() throws {
    var generator = JSONValueGenerator(seed: 2028)
    for _ in 0..<3000 {
      let string = generator.string()
      #expect(JSONValue.quote(string) == (try Self.foundationQuoted(string)))
    }
  }

  @Test func escapeUnicodeSpellsNonASCIIInHex() {
    #expect(JSONValue.quote("é", options: .escapeUnicode) == #""\u00e9""#)
    #expect(JSONValue.quote("\u{7F}\u{80}", options: .escapeUnicode) == "\"\u{7F}\\u0080\"")
    #expect(JSONValue.quote("\u{2028}\u{FFFF}", options: .escapeUnicode) == #""\u2028\uffff""#)
    #expect(JSONValue.quote("😀", options: .escapeUnicode) == #""\ud83d\ude00""#)
    #expect(
      JSONValue.quote("\u{10000}\u{10FFFF}", options: .escapeUnicode)
        == #""\ud800\udc00\udbff\udfff""#)
    #expect(JSONValue.quote("a/\n", options: .escapeUnicode) == #""a\/\n""#)
    #expect(
      JSONValue.quote("a/é", options: [.escapeUnicode, .withoutEscapingSlashes]) == #""a/\u00e9""#)
  }

  /// `.escapeUnicode` output is ASCII and reads back, through Foundation's
  /// parser, as exactly the scalars written.
  @Test func escapeUnicodeRoundTripsThroughJSONSerialization() throws {
    var generator = JSONValueGenerator(seed: 0x10_FFFF)
    for _ in 0..<2000 {
      let string = generator.string()
      let quoted = JSONValue.quote(string, options: .escapeUnicode)
      #expect(quoted.utf8.allSatisfy { $0 < 0x80 })
      let parsed = try JSONSerialization.jsonObject(
        with: Data(quoted.utf8), options: .fragmentsAllowed)
      let back = try #require(parsed as? String)
      #expect(Array(back.unicodeScalars) == Array(string.unicodeScalars))
    }
  }

  @Test func stringValuesAndKeysAreEscapedInDocuments() throws {
    let value: JSONValue = ["a/\"b": ["\u{1}/é"]]
    #expect(try value.jsonString() == #"{"a\/\"b":["\u0001\/é"]}"#)
    #expect(
      try value.jsonString(options: [.escapeUnicode, .withoutEscapingSlashes])
        == #"{"a/\"b":["\u0001/\u00e9"]}"#)
  }

  @Test func longStringsCrossBufferGrowth() {
    let string = String(repeating: "abc/é\"", count: 5000)
    let expected = "\"" + String(repeating: #"abc\/é\""#, count: 5000) + "\""
    #expect(JSONValue.quote(string) == expected)
  }

  /// The bytes that stop the searches, or border on those that do.
  private static let interesting: [UInt8] = [
    0x00, 0x1F, 0x20, 0x21, 0x22, 0x2E, 0x2F, 0x30, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xBF, 0xEE,
    0xEF, 0xF0, 0xF4, 0xFF,
  ]

  /// Whether the searches stop at `byte`: it needs an escape, or it is a
  /// lead byte from 0xEF up, which every noncharacter starts with.
  private static func needsEscape(_ byte: UInt8, slashes: Bool, nonASCII: Bool) -> Bool {
    byte < 0x20 || byte == 0x22 || byte == 0x5C || (slashes && byte == 0x2F)
      || (nonASCII && byte >= 0x80) || byte >= 0xEF
  }

  /// The word-at-a-time search against a byte-by-byte one, on random bytes
  /// where every lane and every kind of match occurs (lead bytes from 0xEF
  /// up stop it too: they start every noncharacter).
  @Test func wordSearchAgreesWithByteSearch() {
    var random = SplitMix64(seed: 8)
    for _ in 0..<5000 {
      let length = Int.random(in: 0...24, using: &random)
      let bytes = (0..<length).map { _ in
        Bool.random(using: &random)
          ? UInt8(ascii: "a") : Self.interesting.randomElement(using: &random)!
      }
      let from = Int.random(in: 0...length, using: &random)
      for slashes in [true, false] {
        for nonASCII in [true, false] {
          let expected =
            bytes[from...].firstIndex {
              Self.needsEscape($0, slashes: slashes, nonASCII: nonASCII)
            } ?? length
          let found = bytes.withUnsafeBytes { buffer in
            Self.offsetOfFirstByteNeedingEscape(
              in: buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, from: from, to: length,
              escapingSlashes: slashes, escapingNonASCII: nonASCII)
          }
          #expect(found == expected, "\(bytes) from \(from)")
        }
      }
    }
  }

  /// A scalar JSONKit's reader rejects is found at every offset of strings
  /// up to two 16-byte blocks and a word long, by each search.
  @Test func unreadableScalarsAreFoundAtEveryOffset() {
    let unreadable: [Unicode.Scalar] = [0, 0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF, 0x10_FFFE].map {
      Unicode.Scalar($0)!
    }
    for length in 1...41 {
      for offset in 0..<length {
        for scalar in unreadable {
          var scalars = Array(repeating: Unicode.Scalar(UInt8(ascii: "a")), count: length)
          scalars[offset] = scalar
          var string = ""
          string.unicodeScalars.append(contentsOf: scalars)
          #expect(throws: EncodingError.self, "\(length) \(offset) \(scalar.value)") {
            try JKEncoder().encode([string])
          }
        }
      }
    }
  }

  /// The sixteen-byte search (`ByteWriter.firstEscapeLane`) against a
  /// byte-by-byte one, on random blocks where every lane and every kind of
  /// match occurs, and on blocks with no match.
  @Test func vectorSearchAgreesWithByteSearch() {
    var random = SplitMix64(seed: 16)
    for round in 0..<20_000 {
      // One block in four is plain, the rest hold interesting bytes.
      let odds = round % 4 == 0 ? 0 : Int.random(in: 1...8, using: &random)
      let bytes = (0..<16).map { _ in
        Int.random(in: 0..<16, using: &random) < odds
          ? Self.interesting.randomElement(using: &random)!
          : UInt8.random(in: 0x23...0x7E, using: &random)
      }
      let block = bytes.withUnsafeBytes { $0.loadUnaligned(as: SIMD16<Int8>.self) }
      for slashes in [true, false] {
        for nonASCII in [true, false] {
          let expected =
            bytes.firstIndex { Self.needsEscape($0, slashes: slashes, nonASCII: nonASCII) } ?? 16
          let found = ByteWriter.firstEscapeLane(
            block, escapingSlashes: slashes, escapingNonASCII: nonASCII)
          #expect(found == expected, "\(bytes)")
        }
      }
    }
  }

  /// The offset of the first byte in `start[from..<end]` that needs an escape
  /// or starts a sequence that may be a noncharacter (a lead byte of 0xEF or
  /// above), or `end`.
  ///
  /// Eight bytes at a time with `ByteWriter.escapeHits`, which the writer
  /// uses: the search this test holds against a byte-by-byte one.
  @inline(__always)
  private static func offsetOfFirstByteNeedingEscape(
    in start: UnsafeRawPointer, from: Int, to end: Int,
    escapingSlashes: Bool, escapingNonASCII: Bool
  ) -> Int {
    let highest: UInt8 = escapingNonASCII ? 0x80 : 0xEF
    var position = from
    while position &+ 8 <= end {
      let word = UInt64(
        littleEndian: start.loadUnaligned(fromByteOffset: position, as: UInt64.self))
      let hits = ByteWriter.escapeHits(
        word, escapingSlashes: escapingSlashes, escapingNonASCII: escapingNonASCII)
      if hits != 0 {
        return position &+ hits.trailingZeroBitCount >> 3
      }
      position &+= 8
    }
    while position < end {
      let byte = start.load(fromByteOffset: position, as: UInt8.self)
      if byte < 0x20 || byte == 0x22 || byte == 0x5C || (byte == 0x2F && escapingSlashes)
        || byte >= highest
      {
        return position
      }
      position &+= 1
    }
    return end
  }
}
