import Foundation
import JSONKit
import Testing

/// JSON5 (`allowsJSON5`), the top-level object without braces
/// (`assumesTopLevelDictionary`) and trailing commas: every construct run
/// through `JSONDecoder` and `JKDecoder`, set alike, with the same value or
/// an error from both. Foundation reads a string's or a number's text only
/// when the model asks for it, so each model reads every value.
extension FoundationParityTests {
  /// A Double compared by its bits, so that NaN equals NaN and −0 differs from 0.
  struct DoubleBits: Decodable, Equatable, CustomStringConvertible {
    let bits: UInt64
    init(from decoder: any Decoder) throws {
      bits = try decoder.singleValueContainer().decode(Double.self).bitPattern
    }
    var description: String { "\(Double(bitPattern: bits)) (\(String(bits, radix: 16)))" }
  }

  /// A Float compared by its bits.
  struct FloatBits: Decodable, Equatable, CustomStringConvertible {
    let bits: UInt32
    init(from decoder: any Decoder) throws {
      bits = try decoder.singleValueContainer().decode(Float.self).bitPattern
    }
    var description: String { "\(Float(bitPattern: bits)) (\(String(bits, radix: 16)))" }
  }

  /// Decodes `json` as `type` with both decoders reading JSON5 (and, with
  /// `topLevel`, assuming a top-level dictionary) and expects the same value
  /// or the same error at the same path.
  @discardableResult
  private func expectSameJSON5<T: Decodable & Equatable>(
    _ type: T.Type, _ json: [UInt8], json5: Bool = true, topLevel: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> DecodeParityOutcome<T> {
    let foundation = JSONDecoder()
    foundation.allowsJSON5 = json5
    foundation.assumesTopLevelDictionary = topLevel
    let jsonKit = JKDecoder()
    jsonKit.allowsJSON5 = json5
    jsonKit.assumesTopLevelDictionary = topLevel
    let theirs = DecodeParityOutcome {
      try foundation.decode(type, from: FoundationInput.data(json))
    }
    let ours = DecodeParityOutcome { try jsonKit.decode(type, from: Data(json)) }
    let text = String(decoding: json, as: UTF8.self).debugDescription
    #expect(theirs == ours, "\(text) as \(T.self)", sourceLocation: sourceLocation)
    return ours
  }

  @discardableResult
  private func expectSameJSON5<T: Decodable & Equatable>(
    _ type: T.Type, _ json: String, json5: Bool = true, topLevel: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> DecodeParityOutcome<T> {
    expectSameJSON5(
      type, Array(json.utf8), json5: json5, topLevel: topLevel, sourceLocation: sourceLocation)
  }

  /// Expects both decoders to accept `json` (checked by the caller's list
  /// being of accepted forms), with the same value.
  private func expectSameJSON5Value<T: Decodable & Equatable>(
    _ type: T.Type, _ json: String, topLevel: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let outcome = expectSameJSON5(type, json, topLevel: topLevel, sourceLocation: sourceLocation)
    if case .error = outcome {
      Issue.record(
        "\(json.debugDescription) as \(T.self): \(outcome)", sourceLocation: sourceLocation)
    }
  }

  /// Expects both decoders to reject `json`. The errors are not compared:
  /// Foundation finds a bad string or number only when the model reads it,
  /// at the value's coding path, where JSONKit validates the whole input
  /// first and reports a syntax error at the root.
  private func expectBothRejectJSON5<T: Decodable & Equatable>(
    _ type: T.Type, _ json: [UInt8], json5: Bool = true, topLevel: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let foundation = JSONDecoder()
    foundation.allowsJSON5 = json5
    foundation.assumesTopLevelDictionary = topLevel
    let jsonKit = JKDecoder()
    jsonKit.allowsJSON5 = json5
    jsonKit.assumesTopLevelDictionary = topLevel
    let text = String(decoding: json, as: UTF8.self).debugDescription
    #expect(throws: (any Error).self, "\(text) as \(T.self)", sourceLocation: sourceLocation) {
      try foundation.decode(type, from: FoundationInput.data(json))
    }
    #expect(throws: DecodingError.self, "\(text) as \(T.self)", sourceLocation: sourceLocation) {
      try jsonKit.decode(type, from: Data(json))
    }
  }

  private func expectBothRejectJSON5<T: Decodable & Equatable>(
    _ type: T.Type, _ json: String, json5: Bool = true, topLevel: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    expectBothRejectJSON5(
      type, Array(json.utf8), json5: json5, topLevel: topLevel, sourceLocation: sourceLocation)
  }

  // MARK: - Accepted

  @Test func json5CommentsReadAsFoundationReadsThem() {
    for json in [
      "// before\n{\"a\": 1 /* after a value */, /* before a key */ \"b\": 2} // after",
      "/** stars **/ {\"a\": /* before a value */ 1, \"b\" /* before the colon */ : 2,}",
      "{\"a\": 1, \"b\": 2}\r// CR ends a line comment\r\n/* a block\n over lines */",
      "{a: 1, b: 2, // a trailing comma, then a comment\n}",
    ] {
      expectSameJSON5Value([String: Int].self, json)
    }
  }

  @Test func json5TrailingCommasReadAsFoundationReadsThem() {
    for json in ["[1, 2,]", "[1, [2,],]", "[1,\n 2 , \n ]", "[[],]"] {
      expectSameJSON5Value([JSONValue].self, json)
    }
    for json in [#"{"a": 1,}"#, "{a: {b: 1,},}", "{'a': [1,],}"] {
      expectSameJSON5Value([String: JSONValue].self, json)
    }
  }

  @Test func json5UnquotedKeysReadAsFoundationReadsThem() {
    for json in [
      "{a: 1, $: 2, _: 3, a1: 4, $_a_1: 5, A: 6}",
      "{été: 1, Ⅰ: 2, a\u{301}: 3, a\u{200C}b: 4, a\u{203F}b: 5, \u{1D400}: 6, ǅ: 7, ʰ: 8}",
      "{true: 1, false: 2, null: 3, Infinity: 4, NaN: 5}",
      "{a : 1, b\n:2, c/* here */: 3}",
    ] {
      expectSameJSON5Value([String: Int].self, json)
    }
  }

  @Test func json5SingleQuotedStringsAndKeysReadAsFoundationReadsThem() {
    for json in [
      #"{'a': 'x', "b": 'say "hi"', 'c': "it\'s", 'd': 'it\'s', 'e': '\u00e9\n', 'f': ''}"#,
      "{'é😀': 'é😀', 'a\\\"b': 'c\\/d'}",
    ] {
      expectSameJSON5Value([String: String].self, json)
    }
  }

  @Test func json5HexadecimalIntegersReadAsFoundationReadsThem() {
    expectSameJSON5Value([Int].self, "[0x1F, 0X1a, 0xabcdef, -0x10, +0x10, 0x0, -0x0, 0x00FF]")
    expectSameJSON5Value([Int].self, "[0x7FFFFFFFFFFFFFFF, -0x8000000000000000, 0x1e3]")
    expectSameJSON5Value([Int8].self, "[0x7F, -0x80]")
    expectSameJSON5Value([UInt64].self, "[0xFFFFFFFFFFFFFFFF, 0x8000000000000000]")
    expectSameJSON5Value([DoubleBits].self, "[0x1F, -0x10, 0x1e3, -0x0, 0x20000000000000]")
    expectSameJSON5Value([FloatBits].self, "[0x10, -0x1000000]")
    expectSameJSON5Value([Decimal].self, "[0x1F, -0x10, 0xFFFFFFFFFFFFFFFF]")
  }

  @Test func json5DecimalPointsAndPlusSignsReadAsFoundationReadsThem() {
    expectSameJSON5Value(
      [DoubleBits].self,
      "[.5, -.5, +.5, 5., -5., +5., 5.e3, .5e-1, 0., -0., +0, +1.5e2, 1E+2, .0, 0.1, +.1e1]")
    expectSameJSON5Value([FloatBits].self, "[.5, 5., +1.25, -.1]")
    expectSameJSON5Value([Int].self, "[5., 5.e3, +7, +0, -0., +1e2]")
    expectSameJSON5Value([UInt8].self, "[+255, 255.]")
    expectSameJSON5Value([Decimal].self, "[.5, 5., +1.25, -.125e2]")
    expectSameJSON5Value([DoubleBits].self, "[+9007199254740993, +18446744073709551615]")
  }

  @Test func json5InfinityAndNaNReadAsFoundationReadsThem() {
    expectSameJSON5Value(
      [DoubleBits].self, "[Infinity, -Infinity, +Infinity, NaN, -NaN, +NaN]")
    expectSameJSON5Value([FloatBits].self, "[Infinity, -Infinity, +Infinity, NaN, -NaN, +NaN]")
    for json in ["Infinity", "-Infinity", "NaN", "-NaN"] {
      expectBothRejectJSON5(Int.self, json)
      expectBothRejectJSON5(UInt8.self, json)
    }
  }

  @Test func json5EscapesReadAsFoundationReadsThem() {
    for json in [
      #"["\x41\x7F\xe9\xFF", '\x41\'', "\'", "a\/b\u00e9"]"#,
      "[\"line\\\ncontinued\", 'cr\\\rcontinued', \"crlf\\\r\ncontinued\", 'lf\\\n']",
      #"["\uD83D\uDE00", '\uD83D\uDE00']"#,
    ] {
      expectSameJSON5Value([String].self, json)
    }
  }

  @Test func json5WhitespaceReadsAsFoundationReadsIt() {
    expectSameJSON5Value([Int].self, "\u{0B}[1,\u{0C}2\u{0B},\t3\r\n]\u{0C}")
    expectSameJSON5Value([Int].self, "\u{FEFF}[1]")
  }

  @Test func json5DocumentOfEveryConstructReadsAsFoundationReadsIt() {
    struct Model: Decodable, Equatable {
      var name: String
      var size: Int
      var mask: UInt64
      var ratio: DoubleBits
      var limits: [DoubleBits]
      var tags: [String]
      var nested: [String: Int]
    }
    expectSameJSON5Value(
      Model.self,
      """
      // A configuration file.
      {
        name: 'Widget \\'One\\'',  /* single quotes */
        size: +0x20,
        mask: 0xFFFFFFFFFFFFFFFF,
        ratio: .75,
        limits: [-Infinity, 5., NaN,],
        tags: ["a\\x42c", 'multi\\
      line',],
        nested: {$x: 1, _y: -0x1, 'z': +3,},
      }
      """)
  }

  // MARK: - Rejected

  @Test func malformedJSON5IsRejectedByBoth() {
    for json in [
      "[1,,]", "[,]", "[,1]", "[1 2]", "[1//x]", "/*c*/", "//c", "[1]/*x", "[1]/",
      "['abc]", "['a\nb']", "[0x]", "[0xG]", "[0x1.8]", "[.]", "[-.]", "[+]", "[1.e]", "[1e]",
      "[Infinit]", "[inf]", "[nan]", "[00]", "[07]", "[+-1]", "[--1]", "[1_000]", "[0b1]",
      "[00x1]", "[1x2]", "[1e5.5]", "[.e1]", "[Infinityx]",
    ] {
      expectBothRejectJSON5([JSONValue].self, json)
      expectBothRejectJSON5([DoubleBits].self, json)
    }
    for json in [
      "{1a: 1}", "{a-b: 1}", "{a b: 1}", "{a: 1 b: 2}", "{,}", "{a: 1,,}", "{😀: 1}", "{: 1}",
      "{a: 1", "{'a: 1}", "{a}", "{a:}",
    ] {
      expectBothRejectJSON5([String: Int].self, json)
    }
    for json in [
      #"["\v"]"#, #"["\0"]"#, #"["\a"]"#, #"["\q"]"#, #"["\8"]"#, #"["\x4"]"#, #"["\x4g"]"#,
      #"["\x00"]"#, #"['\u0000']"#, #"["\ud800"]"#, "[\"a\\\u{2028}b\"]", "[\"a\nb\"]",
      "[\"a\tb\"]",
    ] {
      expectBothRejectJSON5([String].self, json)
    }
    // Unicode spaces are whitespace in JSON5's specification, not in
    // Foundation's reader.
    for space in ["\u{A0}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{3000}", "\u{2001}", "\u{85}"] {
      expectBothRejectJSON5([Int].self, "[1,\(space)2]")
    }
  }

  @Test func integersBeyondTheirTypeAreRejectedByBoth() {
    expectBothRejectJSON5(UInt64.self, "0x10000000000000000")
    expectBothRejectJSON5(Int.self, "0xFFFFFFFFFFFFFFFF")
    expectBothRejectJSON5(Int8.self, "0x80")
    expectBothRejectJSON5(Int8.self, "-0x81")
    expectBothRejectJSON5(UInt8.self, "-0x1")
    expectBothRejectJSON5(Int.self, ".5")
    expectBothRejectJSON5(Int.self, "+1.5")
    // Foundation reads a hexadecimal number into a Double only exactly.
    expectBothRejectJSON5(DoubleBits.self, "0xFFFFFFFFFFFFFFFF")
    expectBothRejectJSON5(DoubleBits.self, "0x20000000000001")
    expectBothRejectJSON5(FloatBits.self, "0x1000001")
    expectBothRejectJSON5(DoubleBits.self, "1e400")
  }

  // MARK: - The top-level object without braces

  @Test func topLevelDictionaryReadsAsFoundationReadsIt() {
    for json in [
      "a: 1, b: 2", "a: 1,", "'a': 1", #""a": 1"#, "", "   ", "// nothing\n", "{a: 1}",
      " {a: 1} ", "a: 1 // end", "\u{FEFF}a: 1", "/* c */ a /* d */ : 1",
    ] {
      expectSameJSON5Value([String: Int].self, json, topLevel: true)
    }
    expectSameJSON5Value([String: [String: Int]].self, "a: {b: 1}, c: {}", topLevel: true)
    for json in ["a: 1}", "{a: 1},", "a: 1 b: 2", "[1]", "1", "a: 1,}", "a", "a:", "}", "a: 1,,"] {
      expectBothRejectJSON5([String: Int].self, json, topLevel: true)
    }
  }

  /// Foundation reads a top level without braces in strict JSON too.
  @Test func topLevelDictionaryWithoutJSON5ReadsAsFoundationReadsIt() {
    for json in [#""a": 1, "b": 2"#, #""a": 1 "#, "", " ", #"{"a": 1}"#] {
      let outcome = expectSameJSON5([String: Int].self, json, json5: false, topLevel: true)
      if case .error = outcome { Issue.record("\(json) rejected") }
    }
    for json in ["a: 1", #""a": 1}"#, "// c\n\"a\": 1", #"[1]"#] {
      expectBothRejectJSON5([String: Int].self, json, json5: false, topLevel: true)
    }
  }

  /// A trailing comma at the end of the braceless object follows JSONKit's
  /// rule for trailing commas: accepted with JSON5 or `.trailingCommas`.
  @Test func topLevelDictionaryTrailingCommaFollowsTheTrailingCommaRule() throws {
    let json = Data(#""a": 1,"#.utf8)
    #expect(try JSONDecoder().decodeTopLevel(json) == ["a": 1])
    let decoder = JKDecoder()
    decoder.assumesTopLevelDictionary = true
    #expect(throws: DecodingError.self) { try decoder.decode([String: Int].self, from: json) }
    decoder.parseOptions = .trailingCommas
    #expect(try decoder.decode([String: Int].self, from: json) == ["a": 1])
  }

  // MARK: - Trailing commas without JSON5

  /// Foundation's strict reader accepts trailing commas; JSONKit's does with
  /// `.trailingCommas`, to the same values, and both reject the rest.
  @Test func trailingCommasOptionReadsAsFoundationStrictDecoderReadsThem() throws {
    let decoder = JKDecoder()
    decoder.parseOptions = .trailingCommas
    for json in [
      "[1,]", "[1, 2 ,\n]", "[[1,], [],]", #"{"a": 1,}"#, #"{"a": [1,], "b": {"c": 2,},}"#,
      #"{"a": {},}"#,
    ] {
      let theirs = DecodeParityOutcome {
        try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
      }
      let ours = DecodeParityOutcome { try decoder.decode(JSONValue.self, from: Data(json.utf8)) }
      #expect(theirs == ours, "\(json)")
      #expect(throws: DecodingError.self, "\(json)") {
        try JKDecoder().decode(JSONValue.self, from: Data(json.utf8))
      }
    }
    for json in ["[1,,]", "[,]", "[,1]", "{,}", #"{"a": 1,,}"#, #"{,"a": 1}"#, "[1,]]"] {
      #expect(throws: (any Error).self, "\(json)") {
        try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
      }
      #expect(throws: DecodingError.self, "\(json)") {
        try decoder.decode(JSONValue.self, from: Data(json.utf8))
      }
    }
  }

  // MARK: - Documented differences

  /// JSONKit's Unicode rules hold inside JSON5 text: Foundation accepts a
  /// noncharacter and repairs ill-formed UTF-8 in a single-quoted string;
  /// JSONKit rejects both, as in JSON.
  @Test func json5KeepsJSONKitsUnicodeRules() throws {
    let decoder = JKDecoder()
    decoder.allowsJSON5 = true
    let foundation = JSONDecoder()
    foundation.allowsJSON5 = true
    for (json, kind) in [
      (Array(#"['\uFFFE']"#.utf8), JKParseError.Kind.noncharacter),
      ([0x5B, 0x27, 0xEF, 0xB7, 0x90, 0x27, 0x5D], .noncharacter),
    ] {
      #expect(throws: Never.self, "\(json)") {
        _ = try foundation.decode([String].self, from: Data(json))
      }
      #expect(parseErrorKind(of: { try decoder.decode([String].self, from: Data(json)) }) == kind)
    }
    // Foundation skips a comment's bytes unread.
    let comment = Array("[1]/* ".utf8) + [0xC3, 0x28] + Array(" */".utf8)
    #expect(try foundation.decode([Int].self, from: Data(comment)) == [1])
    #expect(
      parseErrorKind(of: { try decoder.decode([Int].self, from: Data(comment)) }) == .invalidUTF8)
    // Ill-formed UTF-8 in a string is rejected by both.
    expectBothRejectJSON5([String].self, [0x5B, 0x27, 0xFF, 0x27, 0x5D])
    // U+0000 is rejected by both.
    expectBothRejectJSON5([String].self, #"['\u0000']"#)
  }

  /// Foundation keeps an escape in an unquoted key as its text
  /// (`{\u0061: 1}` has the key `\u0061`), where JSON5 means `a`; JSONKit
  /// asks for quotes rather than pick either meaning without a word.
  @Test func escapesInUnquotedKeysAreErrorsNotText() throws {
    let foundation = JSONDecoder()
    foundation.allowsJSON5 = true
    #expect(
      try foundation.decode([String: Int].self, from: Data(#"{\u0061: 1}"#.utf8)) == [#"\u0061"#: 1]
    )
    let decoder = JKDecoder()
    decoder.allowsJSON5 = true
    for json in [#"{\u0061: 1}"#, #"{a\u0062: 1}"#, #"{a\x41: 1}"#] {
      let error = parseError(of: { try decoder.decode([String: Int].self, from: Data(json.utf8)) })
      #expect(error?.kind == .invalidEscape, "\(json)")
      #expect(error?.message.contains("write the key in quotes") == true, "\(json)")
    }
    #expect(try decoder.decode([String: Int].self, from: Data(#"{'\u0061': 1}"#.utf8)) == ["a": 1])
  }

  /// Numbers Foundation reads in ways JSONKit's number rules do not allow:
  /// a hexadecimal float read as an integer (`0x1p3` as 8), Infinity and NaN
  /// as a Decimal (each becomes NaN), a number that underflows to zero read
  /// as an integer. JSONKit throws.
  @Test func json5NumbersFoundationReadsLooselyAreErrors() throws {
    let foundation = JSONDecoder()
    foundation.allowsJSON5 = true
    let decoder = JKDecoder()
    decoder.allowsJSON5 = true
    #expect(try foundation.decode(Int.self, from: Data("0x1p3".utf8)) == 8)
    #expect(throws: DecodingError.self) { try decoder.decode(Int.self, from: Data("0x1p3".utf8)) }
    for json in ["Infinity", "-Infinity", "NaN"] {
      #expect(try foundation.decode(Decimal.self, from: Data(json.utf8)).isNaN)
      #expect(throws: DecodingError.self) {
        try decoder.decode(Decimal.self, from: Data(json.utf8))
      }
    }
    // JSONKit's rule for integer literals beyond 64 bits holds with a `+` too.
    #expect(
      try foundation.decode(Double.self, from: FoundationInput.data("+18446744073709551616".utf8))
        == 0x1p64)
    #expect(throws: DecodingError.self) {
      try decoder.decode(Double.self, from: Data("+18446744073709551616".utf8))
    }
    #expect(try decoder.decode(Int128.self, from: Data("+18446744073709551616".utf8)) == 1 << 64)
    #expect(try foundation.decode(Int.self, from: Data("1e-400".utf8)) == 0)
    #expect(throws: DecodingError.self) { try decoder.decode(Int.self, from: Data("1e-400".utf8)) }
  }

  private func parseError(of body: () throws -> Any) -> JKParseError? {
    do {
      _ = try body()
    } catch DecodingError.dataCorrupted(let context) {
      return context.underlyingError as? JKParseError
    } catch {}
    return nil
  }

  private func parseErrorKind(of body: () throws -> Any) -> JKParseError.Kind? {
    parseError(of: body)?.kind
  }
}

extension JSONDecoder {
  /// `[String: Int]` from a top level without braces.
  fileprivate func decodeTopLevel(_ data: Data) throws -> [String: Int] {
    assumesTopLevelDictionary = true
    return try decode([String: Int].self, from: data)
  }
}
