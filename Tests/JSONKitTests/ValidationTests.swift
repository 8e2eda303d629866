import Foundation
import Testing

@testable import JSONKit

/// `JSONValue.validate` scans without recording a tape: every input, under
/// every option and limit, gets the same answer from it as from parsing, and
/// the same error (kind, message and place).
@Suite("Validation without a tape")
struct ValidationTests {
  /// Each option alone, and combinations that meet in the scanner.
  static let optionSets: [JKParseOptions] = [
    [], .comments, .unicodeNewlines, .looseUnicode, .permitTextAfterValidJSON, .trailingCommas,
    .json5, [.json5, .looseUnicode, .permitTextAfterValidJSON],
    [.comments, .unicodeNewlines, .trailingCommas, .looseUnicode],
  ]

  /// Inputs for every construct the options decide on, valid and not.
  static let constructs: [String] = [
    #"{"a": [1, 2.5, -0, 1e400, 1e-400, true, false, null, "x\u00e9\ud83d\ude00"]}"#,
    #"[0x1F, -0x10, 0xFFFFFFFFFFFFFFFF, -0x8000000000000000, -0x0, +7, .5, 5., +.5e1, -5.]"#,
    "[Infinity, -Infinity, +Infinity, NaN, -NaN, +NaN, Infinit, NaX]",
    "{a: 0x10, 'b': [Infinity, .5,], c: 'x\\'y', $_d1: 1, é: 2, \\u0061: 3}",
    "{'a\\x41\\x00': 'line\\\ncontinued', \"q\": 'it\\'s'}",
    "[1, 2,]", "{\"a\": 1,}", "[,]", "[1,,]", "{,}", "{\"a\":1,,}",
    "[1] // comment", "[1 /* block */, 2]", "[1 /* never closed", "// only a comment",
    "[1,\u{2028}2,\u{85}3,\u{2029}4]", "[1,\u{0B}2\u{0C}]",
    "[1] trailing", "{} {}", "[1]]", "\"a\" \"b\"",
    "[\"\\uFFFE\", \"\\uFDD0\", \"\\uDBFF\\uDFFF\"]", "[\"\\uD800\"]", "[\"\\uDC00x\"]",
    "[\"\\uD800\\u0041\"]",
    "[\"\\u0000\"]", "[\"\\x41\"]", "[\"\\v\"]", "[\"\\u12\"]", "[\"tab\there\"]",
    "[18446744073709551615, 18446744073709551616, -9223372036854775808, -9223372036854775809]",
    "[12345678901234567890123, -12345678901234567890123, 1.7976931348623157e308, 1.8e308]",
    "[4.9e-324, 2.4e-324, 2.5e-324, 0e-999999, 0.0000000000000000000000000001e-300]",
    "[123456789012345678901234567890e-350, 1e280, 1e-280, 9999999999999999999e289, 1e309]",
    "[01, 1., .1, 1e, 1e+, -, -a, 0x, 0xG, 00]",
    "{\"a\" 1}", "{\"a\":}", "{1: 2}", "{\"a\":1 \"b\":2}", "[1 2]", "[", "{", "{\"a\"", "\"abc",
    "tru", "nul", "falsy", "[true, false, null, nulll]", "",
    "  \n\t ", "\u{FEFF}[1]", "[\u{FEFF}1]", "a: 1, b: [2]", "}", "{\"x\": {\"y\": }}",
  ]

  /// Raw bytes a Swift string literal cannot hold: noncharacters and
  /// ill-formed UTF-8, in strings, keys and comments.
  static let rawConstructs: [[UInt8]] = [
    [0x5B, 0x22, 0xEF, 0xBF, 0xBE, 0x22, 0x5D], [0x5B, 0x22, 0xEF, 0xB7, 0x90, 0x22, 0x5D],
    [0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D], [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D],
    [0x5B, 0x31, 0x5D, 0x2F, 0x2F, 0xC3, 0x0A], [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D],
    [0x5B, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x5D], [0x5B, 0x27, 0xC0, 0xAF, 0x27, 0x5D],
  ]

  /// Every construct's bytes.
  static var allConstructs: [[UInt8]] { constructs.map { Array($0.utf8) } + rawConstructs }

  /// The outcome of parsing or of validation: nil when accepted.
  private static func outcome(_ body: () throws(JKParseError) -> Void) -> JKParseError? {
    do {
      try body()
      return nil
    } catch {
      return error
    }
  }

  private static func expectSameAnswer(
    _ bytes: [UInt8], _ options: JKParseOptions, maxDepth: Int = 512,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let parsed = outcome { () throws(JKParseError) in
      _ = try JSONValue(parsing: bytes, options: options, maxDepth: maxDepth)
    }
    let validated = outcome { () throws(JKParseError) in
      try JSONValue.validate(bytes, options: options, maxDepth: maxDepth)
    }
    #expect(
      validated == parsed,
      "\(String(decoding: bytes.prefix(80), as: UTF8.self).debugDescription) with \(options)",
      sourceLocation: sourceLocation)
  }

  @Test(arguments: ConformanceTests.cases)
  func everyConformanceCaseGetsParsingsAnswerUnderEveryOption(_ testCase: ConformanceTests.Case)
    throws
  {
    let bytes = try Fixtures.bytes("test_parsing", testCase.file)
    for options in Self.optionSets { Self.expectSameAnswer(bytes, options) }
  }

  @Test func everyConstructAndEachOfItsPrefixesGetsParsingsAnswer() {
    for bytes in Self.allConstructs {
      for length in 0...bytes.count {
        for options in Self.optionSets { Self.expectSameAnswer(Array(bytes[..<length]), options) }
      }
    }
  }

  @Test func randomlyDamagedDocumentsGetParsingsAnswer() {
    var random = SplitMix64(seed: 0x5EED_0F_7A9E)
    let alphabet = Array("{}[]:,\"'\\/*.+-0123456789eExuIN \n\u{0B}tfnl".utf8) + [0x80, 0xC3, 0xFF]
    for original in Self.allConstructs where !original.isEmpty {
      for _ in 0..<40 {
        var bytes = original
        for _ in 0...Int(random.next() % 3) {
          let position = Int(random.next() % UInt64(bytes.count))
          bytes[position] = alphabet[Int(random.next() % UInt64(alphabet.count))]
        }
        for options in Self.optionSets { Self.expectSameAnswer(bytes, options) }
      }
    }
  }

  @Test func theNestingLimitIsParsingsAtEveryDepth() {
    for depth in [1, 2, 511, 512, 513, 1024, 1025] {
      let arrays =
        Array(repeating: UInt8(ascii: "["), count: depth)
        + Array(repeating: UInt8(ascii: "]"), count: depth)
      let objects =
        Array(String(repeating: "{\"a\":", count: depth).utf8) + [0x31]
        + Array(repeating: UInt8(ascii: "}"), count: depth)
      for maxDepth in [1, 512, 2000] {
        Self.expectSameAnswer(arrays, [], maxDepth: maxDepth)
        Self.expectSameAnswer(objects, .json5, maxDepth: maxDepth)
      }
    }
  }

  @Test func utf16AndGzipInputGetParsingsAnswerAtTheSameOffsets() {
    for text in ["[1, \"é\", {\"a\": tru}]", "{\"a\": [1, 2]}", "[\"\\uD800\"]"] {
      var utf16: [UInt8] = []
      for unit in text.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
      Self.expectSameAnswer(utf16, [])
      Self.expectSameAnswer(GzipStreams.member(text), [])
    }
  }

  /// Below the public entry points: every configuration the scanner takes,
  /// including those only `JKDecoder` sets.
  @Test func theScannersTwoRecordingsAgreeUnderDecoderConfigurations() {
    let inputs =
      Self.allConstructs
      + ["\"a\": 1, \"b\": 2", "a: 1, b: [2]", "{\"a\":1}"].map { Array($0.utf8) }
    for bytes in inputs {
      for options in Self.optionSets {
        for (bigIntegers, braceless) in [
          (false, false), (true, false), (false, true), (true, true),
        ] {
          let configuration = ScanConfiguration(
            options: options, maxDepth: 512, allowsBigIntegers: bigIntegers,
            assumesTopLevelDictionary: braceless)
          let results = bytes.withUnsafeBytes { input in
            let context = ScanContext()
            let scanned = Self.outcome { () throws(JKParseError) in
              try Scanner.scan(input, into: context, configuration: configuration)
            }
            let validated = Self.outcome { () throws(JKParseError) in
              try Scanner.validate(input, with: context, configuration: configuration)
            }
            return (scanned, validated)
          }
          #expect(
            results.0 == results.1,
            "\(String(decoding: bytes, as: UTF8.self).debugDescription) with \(options)")
        }
      }
    }
  }

  @Test func validationWritesNoTapeNoArenaAndNoKeys() throws {
    let text = #"{"key": ["a\n", "é", 1.5, {"other": 'single'}], unquoted: 0x1}"#
    let context = ScanContext()
    try Array(text.utf8).withUnsafeBytes { input in
      try Scanner.validate(
        input, with: context, configuration: ScanConfiguration(options: .json5))
    }
    #expect(context.state.tape.count == 0)
    #expect(context.state.arena.count == 0)
    #expect(context.state.keys.count == 0)
    #expect(context.state.keyStack.count == 0)
  }
}
