import Foundation
import JSONKit
import Testing

/// JSON5 and trailing commas through `JSONValue`, the `Any` bridge and
/// `JKDecoder`, and the errors strict parsing gives for each construct.
/// (What Foundation does with the same text is in the parity suite.)
@Suite("JSON5 and trailing commas")
struct JSON5Tests {
  private func parse(_ text: String, _ options: JKParseOptions = .json5) throws -> JSONValue {
    try JSONValue(parsing: text, options: options)
  }

  private func error(_ text: String, _ options: JKParseOptions = []) -> JKParseError? {
    do {
      _ = try JSONValue(parsing: text, options: options)
    } catch {
      return error
    }
    return nil
  }

  // MARK: - Values

  @Test func json5NumbersBecomeTheValuesTheySpell() throws {
    let value = try parse(
      "[0x1F, -0x10, 0xFFFFFFFFFFFFFFFF, -0x8000000000000000, -0x0, +7, .5, 5., +.5e1, -5.]")
    #expect(
      value == [
        .int(31), .int(-16), .uint(UInt64.max), .int(Int64.min), .int(0), .int(7), .double(0.5),
        .double(5), .double(5), .double(-5),
      ])
    // A decimal point makes a Double, as `5.0` does.
    guard case .array(let elements) = value, case .double = elements[7] else {
      Issue.record("5. is not a double: \(value)")
      return
    }
  }

  @Test func infinityAndNaNAreDoublesThatStrictJSONCannotWrite() throws {
    let value = try parse("[Infinity, -Infinity, +Infinity, NaN, -NaN]")
    guard case .array(let elements) = value, elements.count == 5 else {
      Issue.record("\(value)")
      return
    }
    let doubles = elements.compactMap { element -> Double? in
      if case .double(let double) = element { return double }
      return nil
    }
    #expect(
      doubles.map(\.bitPattern) == [
        Double.infinity.bitPattern, (-Double.infinity).bitPattern, Double.infinity.bitPattern,
        Double.nan.bitPattern, (-Double.nan).bitPattern,
      ])
    #expect(throws: (any Error).self) { try value.jsonBytes() }
  }

  @Test func theAnyBridgeReadsJSON5AndTrailingCommas() throws {
    let object = try JKSerialization.jsonObject(
      with: Data("{a: 0x10, 'b': [Infinity, .5,], c: 'x\\'y',}".utf8), options: .json5)
    let dictionary = try #require(object as? [String: Any])
    #expect((dictionary["a"] as? NSNumber)?.intValue == 16)
    let numbers = try #require(dictionary["b"] as? [NSNumber])
    #expect(numbers.map(\.doubleValue) == [.infinity, 0.5])
    #expect(dictionary["c"] as? String == "x'y")
    let commas = try JKSerialization.jsonObject(
      with: Data(#"{"a": [1,],}"#.utf8), options: .trailingCommas)
    #expect((commas as? [String: [Int]]) == ["a": [1]])
    #expect(throws: JKParseError.self) {
      try JKSerialization.jsonObject(with: Data(#"{"a": [1,],}"#.utf8))
    }
  }

  @Test func json5KeysAndStringsDecodeAsQuotedOnes() throws {
    let value = try parse(
      "{a: 1, $b: 2, _c: 3, été: 4, 'd e': 'x\\x41\\'', \"f\": \"\\'\", g: 'l1\\\nl2'}")
    #expect(
      value == [
        "a": 1, "$b": 2, "_c": 3, "été": 4, "d e": "xA'", "f": "'", "g": "l1\nl2",
      ])
  }

  // MARK: - JSONKit's rules inside JSON5

  @Test func hexadecimalIntegersMustFitSixtyFourBits() throws {
    for text in ["0x10000000000000000", "-0x8000000000000001", "-0xFFFFFFFFFFFFFFFF"] {
      #expect(error(text, .json5)?.kind == .integerOutOfRange, "\(text)")
    }
    // Not even a type that holds more takes them, as in Foundation.
    let decoder = JKDecoder()
    decoder.allowsJSON5 = true
    #expect(throws: DecodingError.self) {
      try decoder.decode(Int128.self, from: Data("0x10000000000000000".utf8))
    }
    #expect(try decoder.decode(Int128.self, from: Data("-0x8000000000000000".utf8)) == -1 << 63)
  }

  @Test func infinityAndNaNAreNoIntegersAndNoDecimals() throws {
    let decoder = JKDecoder()
    decoder.allowsJSON5 = true
    for text in ["Infinity", "-Infinity", "NaN"] {
      #expect(throws: DecodingError.self) { try decoder.decode(Int.self, from: Data(text.utf8)) }
      #expect(throws: DecodingError.self) {
        try decoder.decode(Decimal.self, from: Data(text.utf8))
      }
    }
    #expect(try decoder.decode(Decimal.self, from: Data("[.5]".utf8).dropFirst().dropLast()) == 0.5)
  }

  @Test func json5StringsKeepTheUnicodeRules() {
    #expect(error(#"'\x00'"#, .json5)?.kind == .nullCharacter)
    #expect(error(#"'\uFDEF'"#, .json5)?.kind == .noncharacter)
    #expect(error(#"{'\uD800': 1}"#, .json5)?.kind == .unpairedSurrogate)
    #expect((try? parse(#"'\x00'"#, [.json5, .looseUnicode])) == "\u{FFFD}")
  }

  // MARK: - Strict errors

  /// Each JSON5 construct, read strictly: the error says what it found and
  /// where, and names the option that accepts it.
  @Test(arguments: [
    ("{a: 1}", 1, 2, "an unquoted key, which is JSON5 syntax, accepted with allowsJSON5 / .json5"),
    ("{'a': 1}", 1, 2, "a single-quoted key, which is JSON5 syntax"),
    ("['a']", 1, 2, "a single-quoted string is JSON5 syntax"),
    ("[\n  0x1F]", 2, 3, "a hexadecimal number is JSON5 syntax"),
    ("[+1]", 1, 2, "a number with an explicit '+' is JSON5 syntax"),
    ("[.5]", 1, 2, "a number with a leading decimal point is JSON5 syntax"),
    ("[5.]", 1, 4, "a number with a trailing decimal point is JSON5 syntax"),
    ("[Infinity]", 1, 2, "Infinity is JSON5 syntax"),
    ("[-Infinity]", 1, 3, "Infinity is JSON5 syntax"),
    ("[NaN]", 1, 2, "NaN is JSON5 syntax"),
    (#"["\x41"]"#, 1, 3, "invalid escape '\\x' in a string; the escape is JSON5 syntax"),
    (#"["\'"]"#, 1, 3, "the escape is JSON5 syntax"),
    ("[\"a\\\nb\"]", 1, 4, "the escape is JSON5 syntax"),
    ("[1] // c", 1, 5, "comments are accepted with parseOptions: .comments (or .json5)"),
    ("[1, /* c */ 2]", 1, 5, "comments are accepted with parseOptions: .comments (or .json5)"),
    ("[1,\u{0B}2]", 1, 4, "vertical tab and form feed are whitespace with .unicodeNewlines"),
    (
      "[1, 2,]", 1, 7,
      "a trailing comma before ']' is accepted only with parseOptions: .trailingCommas (or .json5)"
    ),
    (
      "{\"a\": 1,\n}", 2, 1,
      "a trailing comma before '}' is accepted only with parseOptions: .trailingCommas"
    ),
  ])
  func strictErrorsNameTheConstructAndTheOption(
    _ text: String, _ line: Int, _ column: Int, _ message: String
  ) throws {
    let failure = try #require(error(text))
    #expect(failure.message.contains(message), "\(failure.message)")
    #expect(failure.line == line && failure.column == column, "\(failure)")
  }

  @Test func jkDecoderSyntaxErrorsNameTheSwitch() throws {
    do {
      _ = try JKDecoder().decode([String: Int].self, from: Data("{a: 1}".utf8))
      Issue.record("accepted")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.debugDescription.contains("allowsJSON5"))
      #expect(context.debugDescription.contains("line 1, column 2"))
    }
  }

  @Test func trailingCommasAcceptOneCommaAfterTheLastElementOnly() throws {
    #expect(try parse("[1, [2,], {\"a\": 3,},]", .trailingCommas) == [1, [2], ["a": 3]])
    for text in ["[1,,]", "[,]", "[,1]", "{,}", #"{"a": 1,,}"#] {
      #expect(error(text, .trailingCommas) != nil, "\(text)")
      #expect(error(text, .json5) != nil, "\(text)")
    }
    // Trailing commas are not JSON5's other syntax.
    #expect(error("{a: 1,}", .trailingCommas)?.message.contains("unquoted key") == true)
  }

  @Test func json5WithoutTheOptionLeavesStrictJSONAsItWas() throws {
    let strict = #"{"a": [1, -0, 1.5e3, "x\u00e9"], "b": {}}"#
    #expect(try parse(strict) == (try parse(strict, [])))
    #expect(try parse(strict, .trailingCommas) == (try parse(strict, [])))
  }

  // MARK: - The top-level object without braces

  @Test func topLevelDictionaryIsOnlyForObjects() throws {
    let decoder = JKDecoder()
    decoder.assumesTopLevelDictionary = true
    #expect(try decoder.decode([String: Int].self, from: Data()) == [:])
    #expect(
      try decoder.decode([String: Int].self, from: Data(#""a": 1, "b": 2"#.utf8)) == [
        "a": 1, "b": 2,
      ])
    for text in [#""a": 1}"#, "[1]", "1", #""a""#] {
      #expect(throws: DecodingError.self, "\(text)") {
        try decoder.decode([String: Int].self, from: Data(text.utf8))
      }
    }
    do {
      _ = try decoder.decode([String: Int].self, from: Data(#""a": 1}"#.utf8))
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.debugDescription.contains("no opening brace"))
      #expect(context.debugDescription.contains("column 7"))
    }
  }
}
