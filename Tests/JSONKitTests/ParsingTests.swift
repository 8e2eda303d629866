import Foundation
import JSONKit
import Testing

/// `JSONValue(parsing:)`: the values JSONKit's rules give, its options, and
/// every input type.
@Suite("Parsing JSONValue")
struct ParsingTests {
  private func parse(_ text: String, _ options: JKParseOptions = []) throws -> JSONValue {
    try JSONValue(parsing: text, options: options)
  }

  private func parse(bytes: [UInt8], _ options: JKParseOptions = []) throws -> JSONValue {
    try JSONValue(parsing: bytes, options: options)
  }

  @Test func everyInputTypeGivesTheSameValue() throws {
    let text = #"{"a":[1,-2,3.5,"x\u00e9",true,false,null],"b":{}}"#
    let expected: JSONValue = ["a": [1, -2, 3.5, "xé", true, false, nil], "b": [:]]
    #expect(try parse(text) == expected)
    #expect(try JSONValue(parsing: Data(text.utf8)) == expected)
    #expect(try JSONValue(parsing: Array(text.utf8)) == expected)
    let fromBuffer = try Array(text.utf8).withUnsafeBytes { try JSONValue(parsing: $0) }
    #expect(fromBuffer == expected)
    // A Data slice that does not start at index 0.
    let sliced = Data(("xx" + text).utf8).dropFirst(2)
    #expect(try JSONValue(parsing: sliced) == expected)
  }

  @Test func objectsKeepInputOrder() throws {
    let value = try parse(#"{"z":1,"a":2,"m":3}"#)
    #expect(value.objectValue?.keys == ["z", "a", "m"])
  }

  @Test func duplicateKeysLastWinsInFirstPlace() throws {
    let value = try parse(#"{"a":1,"b":2,"a":3}"#)
    #expect(value.objectValue?.keys == ["a", "b"])
    #expect(value["a"] == .int(3))
  }

  @Test func integersKeepTheirExactValue() throws {
    #expect(try parse("9223372036854775807") == .int(.max))
    #expect(try parse("-9223372036854775808") == .int(.min))
    let big = try parse("18446744073709551615")
    guard case .uint(let value) = big else {
      Issue.record("expected .uint, got \(big)")
      return
    }
    #expect(value == .max)
    guard case .int = try parse("9223372036854775806") else {
      Issue.record("integers that fit Int64 are .int")
      return
    }
  }

  @Test func negativeZeroIsADouble() throws {
    guard case .double(let value) = try parse("-0") else {
      Issue.record("-0 is not a double")
      return
    }
    #expect(value == 0 && value.sign == .minus)
    guard case .int(0) = try parse("0") else {
      Issue.record("0 is an integer")
      return
    }
  }

  @Test func doublesAreCorrectlyRounded() throws {
    for text in [
      "0.1", "1e23", "2.2250738585072011e-308", "4.9406564584124654e-324", "1.7976931348623157e308",
      "9007199254740993.0", "0.30000000000000004", "123456789012345678901234567890e-10",
    ] {
      #expect(try parse(text) == .double(Double(text)!), "\(text)")
    }
  }

  @Test func byteOrderMark() throws {
    #expect(try parse(bytes: [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == [1])
    #expect(throws: JKParseError.self) { try parse(bytes: [0xEF, 0xBB] + Array("[1]".utf8)) }
  }

  @Test func whitespaceIsStrict() throws {
    #expect(try parse(" \t\r\n[ 1 ,\n2 ] \r\n") == [1, 2])
    for text in ["[1,\u{0B}2]", "[1,\u{0C}2]", "[1,\u{A0}2]", "[1,\u{2028}2]", "[1,\u{85}2]"] {
      #expect(throws: JKParseError.self, "\(text.unicodeScalars.map(\.value))") { try parse(text) }
    }
  }

  @Test func unicodeNewlinesOption() throws {
    for text in ["[1,\u{0B}2]", "[1,\u{0C}2]", "[1,\u{2028}2]", "[1,\u{2029}2]", "[1,\u{85}2]"] {
      #expect(try parse(text, .unicodeNewlines) == [1, 2])
    }
    // Only between tokens: inside strings they are ordinary characters.
    #expect(try parse("[\"\u{2028}\"]", .unicodeNewlines) == ["\u{2028}"])
    #expect(throws: JKParseError.self) { try parse("[1,\u{A0}2]", .unicodeNewlines) }
  }

  @Test func commentsOption() throws {
    let text = """
      // leading
      { /* before key */ "a" /* after key */ : // line
        [1, /* inside */ 2] /* end */ }
      // trailing
      """
    #expect(try parse(text, .comments) == ["a": [1, 2]])
    #expect(throws: JKParseError.self) { try parse(text) }
    #expect(try parse("\"// not a comment\"", .comments) == "// not a comment")
    #expect(try parse("[1]//", .comments) == [1])
    #expect(throws: JKParseError.self) { try parse("[1] /* open", .comments) }
    #expect(throws: JKParseError.self) { try parse("[1] / 2", .comments) }
  }

  @Test func permitTextAfterValidJSON() throws {
    #expect(try parse("[1] trailing garbage", .permitTextAfterValidJSON) == [1])
    #expect(try parse("{} {}", .permitTextAfterValidJSON) == [:])
    #expect(throws: JKParseError.self) { try parse("[1] x") }
    #expect(throws: JKParseError.self) { try parse("[1 x", .permitTextAfterValidJSON) }
  }

  @Test func looseUnicodeReplacesEachMaximalSubpart() throws {
    let cases: [([UInt8], String)] = [
      ([0xFF], "\u{FFFD}"),
      ([0xC0, 0xAF], "\u{FFFD}\u{FFFD}"),
      ([0xE0, 0x80, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}"),
      ([0xED, 0xA0, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}"),
      ([0xF4, 0x90, 0x80, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
      ([0xE2, 0x82], "\u{FFFD}"),
      ([0xE2, 0x82, 0x41], "\u{FFFD}A"),
      ([0xF0, 0x9F, 0x98], "\u{FFFD}"),
      ([0x61, 0x80, 0x80, 0x62], "a\u{FFFD}\u{FFFD}b"),
      ([0xEF, 0xBF, 0xBF], "\u{FFFD}"),
      ([0xEF, 0xB7, 0x90], "\u{FFFD}"),
    ]
    for (bytes, expected) in cases {
      let input = [0x22] + bytes + [0x22]
      #expect(throws: JKParseError.self) { try parse(bytes: input) }
      #expect(try parse(bytes: input, .looseUnicode) == .string(expected), "\(bytes)")
    }
    // The standard library's own repair agrees on ill-formed UTF-8.
    let mixed: [UInt8] = [
      0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, 0x80, 0xBF, 0x64,
    ]
    #expect(
      try parse(bytes: [0x22] + mixed + [0x22], .looseUnicode)
        == .string(String(decoding: mixed, as: UTF8.self)))
  }

  @Test func looseUnicodeReplacesEscapes() throws {
    #expect(try parse(#""\u0000""#, .looseUnicode) == "\u{FFFD}")
    #expect(try parse(#""\uD800x""#, .looseUnicode) == "\u{FFFD}x")
    #expect(try parse(#""\uDC00\uD800""#, .looseUnicode) == "\u{FFFD}\u{FFFD}")
    #expect(try parse(#""\uD800\u0041""#, .looseUnicode) == "\u{FFFD}A")
    #expect(try parse(#""\uFDD0\uFFFE""#, .looseUnicode) == "\u{FFFD}\u{FFFD}")
    #expect(try parse(#""\uD83D\uDE00""#) == "😀")
    // Keys are repaired the same way, and equal repaired keys are one key.
    let value = try parse(
      bytes: Array(#"{"a\#u{1}":1}"#.utf8).map { $0 == 1 ? 0xFF : $0 }, .looseUnicode)
    #expect(value.objectValue?.keys == ["a\u{FFFD}"])
  }

  @Test func escapes() throws {
    #expect(try parse(#""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC""#) == "\"\\/\u{8}\u{C}\n\r\tAé€")
  }

  @Test func nestingLimitIsSettable() throws {
    let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    #expect(throws: JKParseError.self) { try JSONValue(parsing: deep) }
    var value = try JSONValue(parsing: deep, maxDepth: 600)
    var depth = 0
    while case .array(let inner) = value, let first = inner.first {
      value = first
      depth += 1
    }
    #expect(depth == 599)
  }

  @Test func validate() throws {
    try JSONValue.validate(Data("[1, {\"a\": null}]".utf8))
    try JSONValue.validate("// c\n1", options: .comments)
    #expect(throws: JKParseError.self) { try JSONValue.validate("[1,]") }
    #expect(throws: JKParseError.self) { try JSONValue.validate([UInt8]()) }
  }

  @Test func theInputIsNotMutated() throws {
    let bytes = Array(#"{"k\n":"v\u00e9","x":[1e5, "\ud83d\ude00"]}"#.utf8)
    let copy = bytes
    _ = try JSONValue(parsing: bytes)
    _ = try JKDecoder().decode(JSONValue.self, from: bytes)
    #expect(bytes == copy)
  }
}

/// JSONKit's answer for each of JSONTestSuite's `test_transform` inputs,
/// whose interpretation differs between parsers.
@Suite("Conformance: JSONTestSuite transforms")
struct TransformTests {
  private func parse(_ file: String, _ options: JKParseOptions = []) throws -> JSONValue {
    try JSONValue(parsing: Fixtures.bytes("test_transform", file), options: options)
  }

  private func rejects(_ file: String) throws -> JKParseError.Kind? {
    do {
      _ = try parse(file)
      return nil
    } catch {
      return (error as? JKParseError)?.kind
    }
  }

  @Test func allTransformFilesArePinned() throws {
    let files = try FileManager.default.contentsOfDirectory(
      atPath: Fixtures.suite("test_transform").path)
    #expect(files.count == 22)
  }

  /// Compared by their debug text, which tells `.int`, `.uint` and
  /// `.double` apart (`==` compares numbers by value across the cases).
  @Test func numbers() throws {
    func text(_ file: String) throws -> String { try parse(file).debugDescription }
    #expect(try text("number_-9223372036854775808.json") == "[-9223372036854775808]")
    #expect(try parse("number_-9223372036854775808.json") == [.int(.min)])
    #expect(try rejects("number_-9223372036854775809.json") == .integerOutOfRange)
    #expect(try text("number_1.0.json") == "[1.0]")
    #expect(try text("number_1.000000000000000005.json") == "[1.0]")
    #expect(try text("number_1000000000000000.json") == "[1000000000000000]")
    #expect(try parse("number_1000000000000000.json") == [.int(1_000_000_000_000_000)])
    #expect(try parse("number_10000000000000000999.json") == [.uint(10_000_000_000_000_000_999)])
    #expect(try text("number_10000000000000000999.json") == "[10000000000000000999]")
    #expect(try rejects("number_1e-999.json") == .numberUnderflow)
    #expect(try text("number_1e6.json") == "[1000000.0]")
    #expect(try parse("number_9223372036854775807.json") == [.int(.max)])
    #expect(try parse("number_9223372036854775808.json") == [.uint(9_223_372_036_854_775_808)])
    #expect(try text("number_9223372036854775808.json") == "[9223372036854775808]")
  }

  @Test func keys() throws {
    // NFC and NFD spellings are one key to Swift's String, so they are
    // duplicates: the last value wins, under the first spelling.
    let nfc = "\u{E9}"
    let nfd = "e\u{301}"
    for (file, first, last) in [
      ("object_key_nfc_nfd.json", nfc, "NFD"), ("object_key_nfd_nfc.json", nfd, "NFC"),
    ] {
      let object = try #require(try parse(file).objectValue)
      #expect(object.count == 1)
      #expect(object.keys.map { Array($0.unicodeScalars) } == [Array(first.unicodeScalars)])
      #expect(object[nfc] == .string(last))
      #expect(object[nfd] == .string(last))
    }
    #expect(try parse("object_same_key_different_values.json") == ["a": 2])
    #expect(try parse("object_same_key_same_value.json") == ["a": 1])
    let unclear = try #require(try parse("object_same_key_unclear_values.json")["a"])
    guard case .double(let zero) = unclear else {
      Issue.record("-0 is a double; got \(unclear)")
      return
    }
    #expect(zero.sign == .minus)
  }

  @Test func invalidCodePoints() throws {
    let files = [
      "string_1_escaped_invalid_codepoint.json", "string_1_invalid_codepoint.json",
      "string_2_escaped_invalid_codepoints.json", "string_2_invalid_codepoints.json",
      "string_3_escaped_invalid_codepoints.json", "string_3_invalid_codepoints.json",
    ]
    let replacements = [1, 3, 2, 6, 3, 9]
    for (file, count) in zip(files, replacements) {
      let kind = try rejects(file)
      #expect(kind == .unpairedSurrogate || kind == .invalidUTF8, "\(file)")
      let value = try parse(file, .looseUnicode)
      #expect(value == [.string(String(repeating: "\u{FFFD}", count: count))], "\(file)")
    }
    #expect(try rejects("string_with_escaped_NULL.json") == .nullCharacter)
    #expect(try parse("string_with_escaped_NULL.json", .looseUnicode) == ["A\u{FFFD}B"])
  }
}
