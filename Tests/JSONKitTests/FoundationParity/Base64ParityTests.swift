import Foundation
import Testing

@testable import JSONKit

// MARK: - Base64 data

extension FoundationParityTests {
  /// Texts in and around the form `Data(base64Encoded:)` reads: encodings of
  /// seeded bytes, the same with their padding cut, doubled or moved, with a
  /// character changed, dropped or added, and every short text over a few
  /// telling characters; the same on every run.
  static let base64Texts: [String] =
    Base64TextGenerator.notableTexts
    + Base64TextGenerator.shortTexts + base64GeneratedTexts

  /// The texts decoded end to end: the named ones, a sample of the short
  /// ones, and the seeded ones, fewer than the whole set, for time.
  static let base64DecodingTexts: [String] = {
    let short = Base64TextGenerator.shortTexts.enumerated().filter { $0.offset % 16 == 0 }
    let texts = Base64TextGenerator.notableTexts + short.map(\.element) + base64GeneratedTexts
    // JSONKit refuses U+0000 in any string (README, "Switching from
    // Foundation"); Foundation refuses it in base64 too, but as base64.
    return texts.filter { !$0.contains("\u{0}") }
  }()

  /// Encodings of seeded bytes of each length below 48, and of lengths
  /// around the 64 bytes past which output is decoded into the heap rather
  /// than the stack, each also repadded and with one and two slips.
  private static let base64GeneratedTexts: [String] = {
    var generator = Base64TextGenerator(random: SplitMix64(seed: 0xB64_0001))
    var texts: [String] = []
    for length in Array(0..<48) + [62, 63, 64, 65, 66, 67, 100, 1_000, 4_099] {
      for _ in 0..<12 {
        let text = generator.encoding(length: length)
        texts.append(text)
        texts.append(generator.repadded(text))
        texts.append(generator.mutated(text))
        texts.append(generator.mutated(generator.mutated(text)))
      }
    }
    return texts
  }()

  @Test func base64TextDecodesAsDataBase64InitializerDoes() {
    Self.expectReadsAsFoundation(
      Self.base64Texts, minimum: 1500, ours: { Base64Text.decode($0) },
      theirs: { Data(base64Encoded: $0) })
  }

  /// Each character of an encoding replaced by every ASCII byte, and by
  /// every byte above 0x7F alone, which no `String` holds and no alphabet
  /// has.
  @Test func everyByteAtEveryPositionDecodesAsDataBase64InitializerDoes() {
    Self.expectEveryByteAtEveryPositionReadsAsFoundation(
      ["QUJDRA==", "/+9w", "YWI=", "SGVsbG8sIHdvcmxkIQ=="], ours: { Base64Text.decode($0) },
      theirs: { Data(base64Encoded: $0) })
  }

  @Test func base64TextEncodesAsBase64EncodedStringDoes() {
    var generator = Base64TextGenerator(random: SplitMix64(seed: 0xB64_0002))
    var inputs: [[UInt8]] = []
    for length in 0...200 {
      inputs.append(generator.bytes(length: length))
      inputs.append(generator.bytes(length: length, slashy: true))
    }
    for length in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 63, 64, 65, 300] {
      inputs.append([UInt8](repeating: 0xFF, count: length))  // all `/`
      inputs.append([UInt8](repeating: 0xFB, count: length))  // `+` and `/`
    }
    inputs.append(generator.bytes(length: 100_000))
    inputs.append(generator.bytes(length: 100_001, slashy: true))
    for input in inputs {
      let theirs = Data(input).base64EncodedString()
      #expect(Self.base64Encoded(input, escapingSlashes: false) == theirs, "\(input.count) bytes")
      #expect(
        Self.base64Encoded(input, escapingSlashes: true)
          == theirs.replacingOccurrences(of: "/", with: "\\/"), "\(input.count) bytes")
    }
  }

  @Test func theBase64LengthBoundHoldsAndNeverTraps() {
    for count in 0...30 {
      let plain = Base64Text.maxEncodedLength(count, escapingSlashes: false)
      #expect(plain == (count + 2) / 3 * 4)
      // The bound is reached: bytes 0xFF make as many `/` as can be.
      let worst = Self.base64Encoded([UInt8](repeating: 0xFF, count: count), escapingSlashes: true)
      #expect(Base64Text.maxEncodedLength(count, escapingSlashes: true) == worst.utf8.count)
    }
    for count in [Int.max, Int.max - 1, Int.max / 2, Int.max / 4 * 3, Int.max / 8 * 3, -1, .min] {
      for escaping in [false, true] {
        if let length = Base64Text.maxEncodedLength(count, escapingSlashes: escaping) {
          #expect(count >= 0 && length >= count)
        }
      }
    }
    #expect(Base64Text.maxEncodedLength(Int.max, escapingSlashes: false) == nil)
    #expect(Base64Text.maxEncodedLength(Int.max / 4 * 3, escapingSlashes: true) == nil)
    #expect(Base64Text.maxEncodedLength(Int.max / 4 * 3, escapingSlashes: false) != nil)
    #expect(Base64Text.maxEncodedLength(-1, escapingSlashes: false) == nil)
  }

  struct Attachment: Codable, Equatable {
    var name: String
    var bytes: Data
    var thumbnail: Data?
  }

  @Test func jkDecoderReadsBase64DataAsJSONDecoderDoes() throws {
    let texts = Self.base64DecodingTexts
    for (index, text) in texts.enumerated() where index % 3 == 0 {
      let literal = try Self.jsonLiteral(text)
      Self.expectSameDecodingAndMessage([Data].self, "[\(literal)]")
      Self.expectSameDecodingAndMessage([Data].self, #"["QUJD",\#(literal)]"#)
      Self.expectSameDecodingAndMessage([Data?].self, "[null,\(literal)]")
      Self.expectSameDecodingAndMessage(Attachment.self, #"{"name":"a","bytes":\#(literal)}"#)
      Self.expectSameDecodingAndMessage(
        Attachment.self, #"{"name":"a","bytes":"","thumbnail":\#(literal)}"#)
      Self.expectSameDecodingAndMessage(Data.self, literal)
    }
    // Every readable text in one document.
    let readable = try texts.filter { Data(base64Encoded: $0) != nil }
      .map(Self.jsonLiteral)
    #expect(readable.count > 1000)
    Self.expectSameDecodingAndMessage([Data].self, "[" + readable.joined(separator: ",") + "]")
    // Escapes are undone before the text is read; long text too.
    var generator = Base64TextGenerator(random: SplitMix64(seed: 0xB64_0003))
    let long = Data(generator.bytes(length: 100_000, slashy: true)).base64EncodedString()
    for json in [
      #"["\/\/\/\/"]"#, #"["QUJ\u0044"]"#, #"["QQ\u003d\u003d"]"#, #"["QUJD\n"]"#,
      #"["QU\tJD"]"#, "[\"\(long)\"]", "[\"\(long)=\"]", "[\"\(long.dropLast())\"]",
      "[\"\(long.replacingOccurrences(of: "/", with: "\\/"))\"]",
    ] {
      Self.expectSameDecodingAndMessage([Data].self, json)
    }
  }

  @Test func aValueThatIsNoStringFailsAsInJSONDecoderWhereBase64DataIsExpected() {
    for other in ["null", "0", "12", "-1.5", "false", "[]", "[65]", "{}"] {
      Self.expectSameDecodingAndMessage([Data].self, "[\(other)]")
      Self.expectSameDecodingAndMessage([Data].self, #"["QUJD",\#(other)]"#)
      Self.expectSameDecodingAndMessage([Data?].self, #"["QUJD",\#(other)]"#)
      Self.expectSameDecodingAndMessage(Attachment.self, #"{"name":"a","bytes":\#(other)}"#)
      Self.expectSameDecodingAndMessage(
        Attachment.self, #"{"name":"a","bytes":"","thumbnail":\#(other)}"#)
      Self.expectSameDecodingAndMessage(Data.self, other)
    }
    Self.expectSameDecodingAndMessage(Attachment.self, #"{"name":"a"}"#)
  }

  @Test func jkEncoderWritesBase64DataAsJSONEncoderDoes() throws {
    var generator = Base64TextGenerator(random: SplitMix64(seed: 0xB64_0004))
    var blobs = (0..<120).map { Data(generator.bytes(length: $0, slashy: $0 % 2 == 0)) }
    blobs.append(Data(repeating: 0xFF, count: 999))  // 1332 `/`
    blobs.append(Data(generator.bytes(length: 50_000, slashy: true)))
    let attachments = blobs.prefix(60).enumerated().map { index, bytes in
      Attachment(
        name: "n\(index)", bytes: bytes, thumbnail: index % 3 == 0 ? nil : blobs[index + 1])
    }
    for formatting in Self.foundationTypeFormattings {
      let (foundation, jsonKit) = Self.encoderPair(formatting)
      #expect(try jsonKit.encode(blobs) == foundation.encode(blobs), "\(formatting.rawValue)")
      for blob in blobs.prefix(8) + blobs.suffix(2) {
        #expect(try jsonKit.encode(blob) == foundation.encode(blob), "\(formatting.rawValue)")
      }
      let optionals = blobs.prefix(20).enumerated().map { $0 % 2 == 0 ? nil : $1 }
      #expect(try jsonKit.encode(optionals) == foundation.encode(optionals))
      // Foundation orders the keys of an object only when sorting them.
      guard formatting.contains(.sortedKeys) else { continue }
      #expect(try jsonKit.encode(attachments) == foundation.encode(attachments))
    }
  }

  // MARK: - Support

  /// What `Base64Text.encode` writes for `bytes`, as text; it must stay
  /// within the bound, which the bytes after it check.
  static func base64Encoded(_ bytes: [UInt8], escapingSlashes: Bool) -> String {
    guard let bound = Base64Text.maxEncodedLength(bytes.count, escapingSlashes: escapingSlashes)
    else {
      Issue.record("no bound for \(bytes.count) bytes")
      return ""
    }
    let guardBytes = 16
    var buffer = [UInt8](repeating: 0xEE, count: bound + guardBytes)
    let count = bytes.withUnsafeBytes { input in
      buffer.withUnsafeMutableBufferPointer { output in
        Base64Text.encode(input, escapingSlashes: escapingSlashes, to: output.baseAddress!)
      }
    }
    #expect(count <= bound)
    #expect(buffer[bound...].allSatisfy { $0 == 0xEE }, "written past the bound")
    return String(decoding: buffer[..<count], as: UTF8.self)
  }

}

/// Seeded base64 texts and bytes for the base64 parity tests.
private struct Base64TextGenerator {
  var random: SplitMix64

  /// Forms whose reading is worth naming, each next to its near misses.
  static let notableTexts = [
    "", "=", "==", "===", "====", "=====", "========", "QQ", "QQ=", "QQ==", "QR==", "QQ===",
    "QQ==========", "QUI", "QUI=", "QUJ=", "QUJD", "QUJD=", "QUJD==", "QUJD====", "QQ=A",
    "QU=D", "QUJDQQ=A", "QUJD=A==", "QUJDQ=A=", "Q", "Q=", "Q==", "Q===", "QUJDQ", "QUJDQ===",
    "=QQ=", "==QQ", "QQ==QQ==", "QUJD QQ==", " QUJD", "QUJD ", "QUJD\n", "QUJD\r\n",
    "QUJD\tQQ==", "-_-_", "+/+/", "////", "_w==", "/w==", "//8=", "QUJDé", "QUJD\u{FFFD}",
    "QUJD\u{0}", "QQ\u{0}=", "QUJ\u{0}", "ＱＵＪＤ", "Zm9vYmFy", "Zm9vYmE=", "Zm9vYg==",
    "Zm9vYg", "Zm9vYmE", "Zm9=YmFy", "Zm9vYmFy=", "Zm9vYmFy====", "A===", "AA==", "AAA=",
    "AAAA", "AB==", "AAB=", "QR=A", "Q=A=", "QQ=\u{85}",
  ]

  /// Every text of up to 5 characters over `A`, `Q`, `w`, `/`, `=` and
  /// `-`: each padding and trailing-bit case in a short form.
  static let shortTexts: [String] = {
    let characters = Array("AQw/=-")
    var texts = [""]
    var last = [""]
    for _ in 1...5 {
      last = last.flatMap { text in characters.map { text + String($0) } }
      texts += last
    }
    return texts
  }()

  /// `length` seeded bytes; with `slashy`, a third of them 0xFF, which
  /// makes `/` in the text.
  mutating func bytes(length: Int, slashy: Bool = false) -> [UInt8] {
    (0..<length).map { _ in
      slashy && random.next(below: 3) == 0
        ? 0xFF : UInt8(truncatingIfNeeded: random.next())
    }
  }

  /// The encoding of `length` seeded bytes.
  mutating func encoding(length: Int) -> String {
    Data(bytes(length: length, slashy: random.next(below: 2) == 0)).base64EncodedString()
  }

  /// `text` with its padding taken off, lengthened, or moved inside.
  mutating func repadded(_ text: String) -> String {
    let bare = String(text.reversed().drop { $0 == "=" }.reversed())
    let pads = String(repeating: "=", count: random.next(below: 6))
    guard random.next(below: 3) == 0, !bare.isEmpty else { return bare + pads }
    var characters = Array(bare)
    characters.insert(contentsOf: pads, at: random.next(below: characters.count + 1))
    return String(characters)
  }

  /// Characters to slip in: ASCII of every kind, and some beyond.
  private static let slips: [Character] =
    (0..<128).map { Character(Unicode.Scalar(UInt8($0))) } + ["é", "\u{85}", "\u{FFFD}", "😀"]

  /// `text` with one slip: a character replaced, added or removed.
  mutating func mutated(_ text: String) -> String {
    random.slipped(text, slips: Self.slips)
  }
}
