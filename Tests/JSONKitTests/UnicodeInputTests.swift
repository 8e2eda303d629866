import Foundation
import JSONKit
import Testing

/// UTF-16 and UTF-32 input keeps JSONKit's rules: ill-formed text is an
/// error (or U+FFFD under `.looseUnicode`), and every error says where in
/// the text and at which byte of the caller's input.
@Suite("UTF-16 and UTF-32 input")
struct UnicodeInputTests {
  private static func utf16LE(_ text: String) -> [UInt8] {
    Array(text.data(using: .utf16LittleEndian)!)
  }

  private static func utf16BE(_ text: String) -> [UInt8] {
    Array(text.data(using: .utf16BigEndian)!)
  }

  private static func utf32LE(_ text: String) -> [UInt8] {
    Array(text.data(using: .utf32LittleEndian)!)
  }

  private static func parseError(
    _ bytes: [UInt8], options: JKParseOptions = []
  ) -> JKParseError? {
    do {
      _ = try JSONValue(parsing: bytes, options: options)
      return nil
    } catch {
      return error
    }
  }

  @Test func anUnpairedSurrogateIsAnErrorAtItsLineColumnAndOffset() throws {
    // Line 2, after `  "é`: the high surrogate is the text's seventh unit.
    let bytes = Self.utf16LE("[\n  \"é") + [0x3D, 0xD8] + Self.utf16LE("x\"]")
    let error = try #require(Self.parseError(bytes))
    #expect(error.kind == .invalidUTF16)
    #expect((error.line, error.column, error.offset) == (2, 5, 12))
    #expect(error.message == "ill-formed UTF-16LE in a string (unpaired surrogate 0xD83D)")
    // With a byte order mark, the offset counts it.
    let marked = try #require(Self.parseError([0xFF, 0xFE] + bytes))
    #expect((marked.line, marked.column, marked.offset) == (2, 5, 14))
  }

  @Test func aLowSurrogateFirstIsUnpairedToo() throws {
    let bytes = Self.utf16BE("[\"") + [0xDC, 0x00, 0xD8, 0x3D] + Self.utf16BE("\"]")
    let error = try #require(Self.parseError(bytes))
    #expect(error.kind == .invalidUTF16)
    #expect((error.column, error.offset) == (3, 4))
    #expect(error.message.hasSuffix("(unpaired surrogate 0xDC00)"))
    // Each unpaired surrogate is one U+FFFD under .looseUnicode.
    #expect(try JSONValue(parsing: bytes, options: .looseUnicode) == ["\u{FFFD}\u{FFFD}"])
  }

  @Test func looseUnicodeReplacesEachIllFormedUnitWithOneReplacementCharacter() throws {
    let bytes =
      Self.utf16LE("{\"k") + [0x00, 0xD8] + Self.utf16LE("\":\"a") + [0x00, 0xDC]
      + Self.utf16LE("😀\"}")
    #expect(try JSONValue(parsing: bytes, options: .looseUnicode) == ["k\u{FFFD}": "a\u{FFFD}😀"])
    let decoder = JKDecoder()
    decoder.parseOptions = .looseUnicode
    #expect(
      try decoder.decode([String: String].self, from: Data(bytes)) == ["k\u{FFFD}": "a\u{FFFD}😀"])
  }

  @Test func utf32UnitsThatAreNotScalarsAreErrors() throws {
    for unit: UInt32 in [0xD800, 0xDFFF, 0x11_0000, 0xFFFF_FFFF] {
      let bytes =
        Self.utf32LE("[\"") + withUnsafeBytes(of: unit.littleEndian, Array.init)
        + Self.utf32LE("\"]")
      let error = try #require(Self.parseError(bytes), "\(unit)")
      #expect(error.kind == .invalidUTF32)
      #expect((error.line, error.column, error.offset) == (1, 3, 8))
      #expect(try JSONValue(parsing: bytes, options: .looseUnicode) == ["\u{FFFD}"])
    }
  }

  @Test func bytesLeftOverAtTheEndAreAnError() throws {
    let odd = Self.utf16LE("[1]") + [0x20]
    let error = try #require(Self.parseError(odd))
    #expect(error.kind == .textAfterValue)
    #expect(error.offset == 6)
    #expect(error.message.contains("incomplete UTF-16LE code unit (1 byte at the end)"))
    let inString = Self.utf16LE("\"ab") + [0x22]
    #expect(try #require(Self.parseError(inString)).offset == 6)
    // Trailing text is ignored only when the caller asks for it.
    #expect(try JSONValue(parsing: odd, options: .permitTextAfterValidJSON) == [1])
  }

  @Test func aSecondByteOrderMarkIsAnError() throws {
    let error = try #require(Self.parseError([0xFF, 0xFE] + Self.utf16LE("\u{FEFF}[1]")))
    #expect(error.kind == .unexpectedCharacter)
    #expect(error.offset == 2)
    #expect(error.message == "expected a value, found second byte order mark")
  }

  /// JSONKit's rules inside strings hold whatever the encoding.
  @Test func nullCharactersAndNoncharactersAreErrorsAsInUTF8() throws {
    for (text, kind) in [
      ("[\"a\u{0}\"]", JKParseError.Kind.unescapedControlCharacter),
      ("[\"a\u{FFFE}\"]", .noncharacter), ("[\"\\ud800\"]", .unpairedSurrogate),
    ] {
      let utf8 = try #require(Self.parseError(Array(text.utf8)))
      let utf16 = try #require(Self.parseError(Self.utf16BE(text)))
      #expect(utf8.kind == kind && utf16.kind == kind)
      #expect((utf16.line, utf16.column) == (utf8.line, utf8.column))
      #expect(utf16.offset == 2 * utf8.column - 2)
    }
  }

  /// A syntax error deep in a long document: line and column are the
  /// text's; the offset is the byte of the UTF-16 input where the offending
  /// character starts.
  @Test func aSyntaxErrorDeepInUTF16IsPlacedInTheText() throws {
    var text = "[\n"
    for index in 0..<500 { text += "  {\"名前\": \"😀 \(index)\", \"n\": \(index)},\n" }
    text += "  {\"名前\": \"end\", \"n\": 1 2}\n]"
    let utf8 = try #require(Self.parseError(Array(text.utf8)))
    for bytes in [Self.utf16LE(text), Self.utf16BE(text), [0xFE, 0xFF] + Self.utf16BE(text)] {
      let error = try #require(Self.parseError(bytes))
      #expect(error.kind == utf8.kind && error.message == utf8.message)
      #expect((error.line, error.column) == (utf8.line, utf8.column))
      #expect(error.line == 502)
      let unitOffset = bytes.count - Self.utf16LE(text).count
      let before = String(text.utf16.prefix((error.offset - unitOffset) / 2))!
      #expect(before.utf8.count == utf8.offset)
      // The decoder says the same, in its DecodingError.
      do {
        _ = try JKDecoder().decode(JSONValue.self, from: Data(bytes))
        Issue.record("decoded")
      } catch DecodingError.dataCorrupted(let context) {
        #expect(context.underlyingError as? JKParseError == error)
        #expect(context.debugDescription.contains("byte offset \(error.offset)"))
      }
      #expect(throws: error) { try JKSerialization.jsonObject(with: Data(bytes)) }
    }
  }

  /// Codable's errors carry coding paths, which do not depend on the
  /// encoding.
  @Test func codableErrorsAreTheSameInEveryEncoding() throws {
    struct Model: Decodable { var list: [Int] }
    let text = "{\"list\": [1, \"two\"]}"
    func path(_ data: Data) -> [String] {
      let result = Result { try JKDecoder().decode(Model.self, from: data) }
      guard case .failure(DecodingError.typeMismatch(_, let context)) = result else {
        return ["\(result)"]
      }
      return context.codingPath.map(\.stringValue)
    }
    let expected = path(Data(text.utf8))
    #expect(expected == ["list", "Index 1"])
    for encoding in [String.Encoding.utf16, .utf16BigEndian, .utf32LittleEndian, .utf32] {
      #expect(path(text.data(using: encoding)!) == expected, "\(encoding)")
    }
  }

  /// A `String` is text: its UTF-8 is never taken for UTF-16, even when
  /// U+0000 gives it UTF-16's pattern of zero bytes.
  @Test func stringInputIsNeverTakenForUTF16() throws {
    let text = "1\u{0}"
    #expect(try JSONValue(parsing: Array(text.utf8)) == 1)  // bytes 31 00: UTF-16LE "1"
    #expect(throws: JKParseError.self) { try JSONValue(parsing: text) }
    #expect(throws: JKParseError.self) { try JSONValue.validate(text) }
    #expect(throws: DecodingError.self) { try JKDecoder().decode(Int.self, from: text) }
  }

  /// A decoder that a decoded value keeps reads a copy of the text, which
  /// outlives the transcoding buffer.
  @Test func aKeptDecoderOutlivesTheTranscodedText() throws {
    struct Kept: Decodable {
      let decoder: any Decoder
      init(from decoder: any Decoder) throws { self.decoder = decoder }
    }
    let kept = try JKDecoder().decode(Kept.self, from: Data(Self.utf16LE("{\"a\": \"é😀\"}")))
    let churn = try JKDecoder().decode([String].self, from: Data(Self.utf16LE("[\"xxxxxx\"]")))
    #expect(churn == ["xxxxxx"])
    struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }
    let value = try kept.decoder.container(keyedBy: Key.self)
      .decode(String.self, forKey: Key(stringValue: "a"))
    #expect(value == "é😀")
  }

  /// The caller's bytes are read, never written.
  @Test func theInputIsNotChanged() throws {
    let bytes = [0xFF, 0xFE] + Self.utf16LE("[\"é\"]")
    let data = Data(bytes)
    _ = try JKDecoder().decode([String].self, from: data)
    _ = try JSONValue(parsing: data)
    #expect(data == Data(bytes))
  }
}
