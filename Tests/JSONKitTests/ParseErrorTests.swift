import Testing

@testable import JSONKit

/// Errors say what went wrong and where: kind, offset, line, column, excerpt.
@Suite("Parse errors")
struct ParseErrorTests {
  private func failure(
    _ bytes: [UInt8], options: JKParseOptions = [], maxDepth: Int = 512
  ) -> JKParseError? {
    do {
      _ = try TestScan.tape(bytes, options: options, maxDepth: maxDepth)
      return nil
    } catch let error as JKParseError {
      return error
    } catch {
      Issue.record("unexpected error type \(error)")
      return nil
    }
  }

  private func failure(_ text: String, options: JKParseOptions = []) -> JKParseError? {
    failure(Array(text.utf8), options: options)
  }

  @Test(arguments: [
    ("", JKParseError.Kind.emptyInput, 0),
    ("  \n ", .emptyInput, 4),
    ("[1, 2", .unexpectedEndOfInput, 5),
    ("[1 2]", .unexpectedCharacter, 3),
    ("{\"a\" 1}", .unexpectedCharacter, 5),
    ("{\"a\"1}", .unexpectedCharacter, 4),
    ("{\"a\" \n\t;1}", .unexpectedCharacter, 7),
    ("{\"a\"", .unexpectedEndOfInput, 4),
    ("{\"a\"  ", .unexpectedEndOfInput, 6),
    ("{\"a\":1,}", .unexpectedCharacter, 7),
    ("[1,]", .unexpectedCharacter, 3),
    ("{1:2}", .unexpectedCharacter, 1),
    ("[tru]", .invalidLiteral, 1),
    ("nul", .invalidLiteral, 0),
    ("[01]", .invalidNumber, 1),
    ("[1.]", .invalidNumber, 3),
    ("[-]", .invalidNumber, 2),
    ("[1e+]", .invalidNumber, 4),
    ("[.5]", .unexpectedCharacter, 1),
    ("[+1]", .unexpectedCharacter, 1),
    ("18446744073709551616", .integerOutOfRange, 0),
    ("[-9223372036854775809]", .integerOutOfRange, 1),
    ("[1e400]", .numberOverflow, 1),
    ("[-1e400]", .numberOverflow, 1),
    ("[1e-400]", .numberUnderflow, 1),
    ("[\"a\tb\"]", .unescapedControlCharacter, 3),
    ("[\"\\x\"]", .invalidEscape, 2),
    ("[\"\\u12G4\"]", .invalidEscape, 2),
    ("[\"\\uD800\"]", .unpairedSurrogate, 2),
    ("[\"\\uDC00\\uD800\"]", .unpairedSurrogate, 2),
    ("[\"\\uD800\\u0041\"]", .unpairedSurrogate, 2),
    ("\"\\u0000\"", .nullCharacter, 1),
    ("\"\\uFDD0\"", .noncharacter, 1),
    ("\"\\uFFFF\"", .noncharacter, 1),
    ("\"\\uD83F\\uDFFE\"", .noncharacter, 1),
    ("[\"abc", .unterminated, 1),
    ("[1] x", .textAfterValue, 4),
    ("[1][2]", .textAfterValue, 3),
  ])
  func kindAndOffset(_ text: String, _ kind: JKParseError.Kind, _ offset: Int) throws {
    let error = try #require(failure(text), "\(text) was accepted")
    #expect(error.kind == kind, "\(text): \(error)")
    #expect(error.offset == offset, "\(text): \(error)")
  }

  @Test func whitespaceAndCommentsMaySeparateAKeyFromItsColon() throws {
    for text in [
      "{\"a\":1}", "{\"a\" :1}", "{\"a\"\n\t\r :1}", "{\"a\"/* c */:1}", "{\"a\"// c\n:1}",
    ] {
      let value = try JSONValue(parsing: text, options: .comments)
      #expect(value == ["a": 1], "\(text)")
    }
    #expect(failure("{\"a\"/* c */:1}")?.offset == 4)
  }

  @Test func illFormedUTF8() throws {
    for bytes: [UInt8] in [
      [0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
      [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22], [0x22, 0x80, 0x22],
    ] {
      let error = try #require(failure(bytes))
      #expect(error.kind == .invalidUTF8)
      #expect(error.offset == 1)
    }
  }

  @Test func rawNoncharacters() throws {
    // U+FDD0, U+FDEF, U+FFFE, U+FFFF, U+1FFFE, U+10FFFF written raw.
    for scalar: [UInt8] in [
      [0xEF, 0xB7, 0x90], [0xEF, 0xB7, 0xAF], [0xEF, 0xBF, 0xBE], [0xEF, 0xBF, 0xBF],
      [0xF0, 0x9F, 0xBF, 0xBE], [0xF4, 0x8F, 0xBF, 0xBF],
    ] {
      let error = try #require(failure([0x5B, 0x22] + scalar + [0x22, 0x5D]))
      #expect(error.kind == .noncharacter)
      #expect(error.offset == 2)
    }
    // Their neighbours are ordinary characters.
    for scalar: [UInt8] in [
      [0xEF, 0xB7, 0x8F], [0xEF, 0xB7, 0xB0], [0xEF, 0xBF, 0xBD], [0xF0, 0x9F, 0xBF, 0xBD],
    ] {
      #expect(failure([0x22] + scalar + [0x22]) == nil)
    }
  }

  /// Within a run of multibyte characters, the bad one is found where it is.
  @Test func badSequenceAfterARunOfMultibyteCharacters() throws {
    let run = Array("日本語é".utf8)  // 11 bytes after the quote
    for (bad, kind): ([UInt8], JKParseError.Kind) in [
      ([0xFF], .invalidUTF8), ([0xE6, 0x97], .invalidUTF8), ([0xEF, 0xBF, 0xBF], .noncharacter),
      ([0xED, 0xA0, 0x80], .invalidUTF8), ([0x01], .unescapedControlCharacter),
    ] {
      let error = try #require(failure([0x22] + run + bad + run + [0x22]), "\(bad)")
      #expect(error.kind == kind, "\(bad)")
      #expect(error.offset == 1 + run.count, "\(bad)")
    }
    #expect(failure([0x22] + run + run + [0x22]) == nil)
    #expect(try #require(failure([0x22] + run)).kind == .unterminated)
    #expect(try #require(failure([0x22] + run + [0xE6])).kind == .invalidUTF8)
  }

  @Test func rawNullIsAControlCharacter() throws {
    let error = try #require(failure([0x22, 0x00, 0x22]))
    #expect(error.kind == .unescapedControlCharacter)
  }

  @Test func lineAndColumn() throws {
    let text = "{\n  \"name\": \"Zoë\",\r\n  \"n\": tru\n}"
    let error = try #require(failure(text))
    #expect(error.kind == .invalidLiteral)
    #expect(error.line == 3)
    #expect(error.column == 8)
    #expect(error.excerpt == "  \"n\": tru")
    #expect(
      error.description
        == "Invalid literal, expected 'true' around line 3, column 8 (byte offset 28) near   \"n\": tru"
    )
  }

  @Test func columnsCountScalarsNotBytes() throws {
    let error = try #require(failure("[\"日本\", x]"))
    #expect(error.offset == 11)
    #expect(error.column == 8)
  }

  @Test func excerptIsClippedAndVisible() throws {
    let long =
      "[" + String(repeating: "1,", count: 40) + "\u{1}" + String(repeating: ",1", count: 40) + "]"
    let error = try #require(failure(long))
    #expect(error.kind == .unexpectedCharacter)
    #expect(error.excerpt.contains("\\u{1}"))
    #expect(error.excerpt.count <= 2 * SourcePosition.excerptRadius + 5)
  }

  @Test func nestingLimit() throws {
    let deep =
      [UInt8](repeating: UInt8(ascii: "["), count: 513)
      + [UInt8](repeating: UInt8(ascii: "]"), count: 513)
    let error = try #require(failure(deep))
    #expect(error.kind == .tooDeeplyNested)
    #expect(error.offset == 512)
    #expect(try TestScan.tape(deep, maxDepth: 513).count == 513)
    let deepObjects = Array(String(repeating: "{\"a\":", count: 600).utf8)
    #expect(failure(deepObjects)?.kind == .tooDeeplyNested)
  }

  @Test func aMillionOpenBracketsIsAnErrorNotACrash() throws {
    let arrays = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
    #expect(failure(arrays)?.kind == .tooDeeplyNested)
    // With the limit lifted, the scanner still uses no call stack per level.
    #expect(failure(arrays, maxDepth: .max)?.kind == .unexpectedEndOfInput)
    let objects = Array(String(repeating: "{\"k\":", count: 1_000_000).utf8)
    #expect(failure(objects, maxDepth: .max)?.kind == .unexpectedEndOfInput)
    let closed = arrays + [UInt8](repeating: UInt8(ascii: "]"), count: 1_000_000)
    #expect(try TestScan.tape(closed, maxDepth: .max).count == 1_000_000)
  }

  @Test func everyKindHasAMessage() throws {
    let error = try #require(failure("[1,,2]"))
    #expect(error.message == "expected a value, found ','")
  }
}
