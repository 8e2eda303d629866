import Foundation
import JSONKit
import Testing

/// A record split across chunks at any byte, inside a multi-byte character,
/// an escape or a number, decodes exactly as if it had arrived whole.
@Suite("Records split across chunks")
struct StreamChunkingTests {
  struct Record: Codable, Equatable {
    var id: Int64
    var name: String
    var score: Double
    var tags: [String]
  }

  /// Records whose every byte is somewhere interesting: escapes (a
  /// surrogate pair among them), astral and other multi-byte characters,
  /// long numbers, CRLF endings and blank lines.
  static let lines = [
    #"{"id":-9223372036854775808,"name":"caf\u00e9 \ud83d\ude00 😀 日本","score":-1.2345678901234567e-300,"tags":["a\"b","\\","\/"]}"#,
    "",
    #"  {"id":9223372036854775807,"name":"\t\u2028𝄞","score":0.1,"tags":[]}  "#,
    #"{"tags":["😀😀"],"score":1.7976931348623157e308,"name":"","id":0}"#,
  ]

  static let jsonLines = Array(lines.joined(separator: "\r\n").utf8)
  static let array = Array(
    ("[\n" + lines.filter { !$0.isEmpty }.joined(separator: ",\n") + "\n]").utf8)

  @Test("JSON Lines cut in two at every byte decode as when whole")
  func jsonLinesAtEveryByte() async throws {
    let whole = try JKDecoder().decodeLines(Record.self, from: Data(Self.jsonLines))
    #expect(whole.count == 3)
    for cut in 0...Self.jsonLines.count {
      let outcome = await StreamOutcome(
        JKDecoder().decodeLines(Record.self, from: ChunkedBytes(Self.jsonLines, cuts: [cut])))
      #expect(outcome.error == nil, "cut at \(cut)")
      #expect(outcome.elements == whole, "cut at \(cut)")
    }
    let bytewise = await StreamOutcome(
      JSONValue.lines(from: ChunkedBytes(Self.jsonLines, every: 1)))
    let values = try Self.lines.filter { !$0.isEmpty }.map { try JSONValue(parsing: $0) }
    #expect(bytewise.elements == values)
  }

  @Test("An array cut in two at every byte gives the elements of the whole array")
  func arrayAtEveryByte() async throws {
    let whole = try JKDecoder().decode([Record].self, from: Data(Self.array))
    #expect(whole.count == 3)
    let values = try JSONValue(parsing: Self.array).arrayValue
    for cut in 0...Self.array.count {
      let chunks = ChunkedBytes(Self.array, cuts: [cut])
      let outcome = await StreamOutcome(JKDecoder().decodeArrayElements(Record.self, from: chunks))
      #expect(outcome.error == nil, "cut at \(cut)")
      #expect(outcome.elements == whole, "cut at \(cut)")
      let valueOutcome = await StreamOutcome(JSONValue.arrayElements(from: chunks))
      #expect(valueOutcome.elements == values, "cut at \(cut)")
    }
    let bytewise = await StreamOutcome(
      JKDecoder().decodeArrayElements(Record.self, from: ChunkedBytes(Self.array, every: 1)))
    #expect(bytewise.elements == whole)
  }

  @Test("A JSON5 array cut in two at every byte gives the elements of the whole array")
  func json5ArrayAtEveryByte() async throws {
    // Brackets, commas and quotes inside single-quoted strings and comments
    // must not end an element; the trailing comma must not start one.
    let text = Array(
      "[ 'a]\\'\",' , {k: ']', \"q\": \"'\"} /* ], */, // ]\n 0x1F,\u{0B}+.5, Infinity, ]".utf8)
    let values = try #require(JSONValue(parsing: text, options: .json5).arrayValue)
    #expect(values.count == 5)
    for cut in 0...text.count {
      let chunks = ChunkedBytes(text, cuts: [cut])
      let outcome = await StreamOutcome(JSONValue.arrayElements(from: chunks, options: .json5))
      #expect(outcome.error == nil, "cut at \(cut)")
      #expect(outcome.elements == values, "cut at \(cut)")
    }
    let decoder = JKDecoder()
    decoder.allowsJSON5 = true
    let strings = await StreamOutcome(
      decoder.decodeArrayElements(
        String.self, from: ChunkedBytes(Array("['a,]', \"b\",]".utf8), every: 1)))
    #expect(strings.error == nil)
    #expect(strings.elements == ["a,]", "b"])
  }

  @Test(
    "Unicode newlines around and between elements are whitespace with the option, at every cut",
    arguments: [JKParseOptions.unicodeNewlines, [.unicodeNewlines, .json5]])
  func unicodeNewlinesAtEveryCut(options: JKParseOptions) async throws {
    // U+0085, U+2028, U+2029, vertical tab and form feed before, inside
    // and after the array, right after a number and a literal (which they
    // end), inside a string (where they are text) and inside containers.
    let text = Array(
      ("\u{2028}\u{85}[\u{2029}1\u{2028},\u{85}-2.5e3\u{2029},\u{0B}{\"a\":\u{2028}[true\u{85}]}"
        + "\u{0C},\u{2029}\"s\u{2028}\u{85}\"\u{2028},null\u{85}]\u{2029}\u{2028}").utf8)
    let values = try #require(JSONValue(parsing: text, options: options).arrayValue)
    #expect(values.count == 5)
    let decoder = JKDecoder()
    decoder.parseOptions = options
    let whole = try decoder.decode([JSONValue].self, from: Data(text))
    for cut in 0...text.count {
      let chunks = ChunkedBytes(text, cuts: [cut])
      let outcome = await StreamOutcome(JSONValue.arrayElements(from: chunks, options: options))
      #expect(outcome.error == nil, "cut at \(cut)")
      #expect(outcome.elements == values, "cut at \(cut)")
      let decoded = await StreamOutcome(decoder.decodeArrayElements(JSONValue.self, from: chunks))
      #expect(decoded.error == nil, "cut at \(cut)")
      #expect(decoded.elements == whole, "cut at \(cut)")
    }
    let bytewise = await StreamOutcome(
      JSONValue.arrayElements(from: ChunkedBytes(text, every: 1), options: options))
    #expect(bytewise.error == nil)
    #expect(bytewise.elements == values)
  }

  @Test("Without the option a Unicode newline in an array stream is an error, as in the document")
  func unicodeNewlinesNeedTheOption() async {
    for text in ["\u{2028}[1]", "[\u{85}1]", "[1\u{2029},2]", "[1,\u{2028}2]", "[1]\u{2029}"] {
      let bytes = Array(text.utf8)
      let whole = Result { () throws(JKParseError) in try JSONValue(parsing: bytes) }
      #expect(throws: JKParseError.self) { try whole.get() }
      for size in [1, bytes.count] {
        let outcome = await StreamOutcome(
          JSONValue.arrayElements(from: ChunkedBytes(bytes, every: size)))
        #expect(outcome.parseError != nil, "\(text.debugDescription) in chunks of \(size)")
      }
    }
  }

  @Test("A trailing comma ends an array stream only when an option accepts it")
  func trailingCommaInArrayStreams() async throws {
    let text = Array("[1,2,]".utf8)
    let strict = await StreamOutcome(JSONValue.arrayElements(from: ChunkedBytes(text, every: 1)))
    #expect(strict.elements == [1, 2])
    #expect(strict.error != nil)
    let accepted = await StreamOutcome(
      JSONValue.arrayElements(from: ChunkedBytes(text, every: 1), options: .trailingCommas))
    #expect(accepted.error == nil)
    #expect(accepted.elements == [1, 2])
  }

  @Test("An error is placed alike however the stream is cut")
  func errorsAtEveryCut() async throws {
    // The third record's name holds an unpaired surrogate escape.
    let bad = Array(
      (Self.lines.joined(separator: "\n") + "\n" + #"{"id":1,"name":"\ud800x","score":1,"tags":[]}"#
        + "\n").utf8)
    let expected = #expect(throws: DecodingError.self) {
      try JKDecoder().decodeLines(Record.self, from: Data(bad))
    }
    guard case .dataCorrupted(let context) = expected,
      let expectedError = context.underlyingError as? JKParseError
    else {
      Issue.record("expected a syntax error")
      return
    }
    #expect(expectedError.line == 5)
    #expect(expectedError.column == 17)
    for cut in stride(from: 0, through: bad.count, by: 3) {
      let outcome = await StreamOutcome(
        JKDecoder().decodeLines(Record.self, from: ChunkedBytes(bad, cuts: [cut, cut + 1])))
      #expect(outcome.elements.count == 3, "cut at \(cut)")
      #expect(outcome.parseError == expectedError, "cut at \(cut)")
    }
  }

  @Test("Random chunkings of a random array decode as the whole array, by either reader")
  func randomChunkings() async throws {
    var values = JSONValueGenerator(seed: 20)
    var generator = SplitMix64(seed: 21)
    for round in 0..<80 {
      // Short arrays and arrays long enough for runs of elements (up to 90).
      let count = Int(generator.next() % (round % 2 == 0 ? 6 : 90))
      let value = JSONValue.array((0..<count).map { _ in values.value(depth: 3) })
      // The generator's strings may hold what JSONKit refuses to write.
      guard let bytes = try? value.jsonBytes() else { continue }
      let chunks = ChunkedBytes(bytes, randomCuts: 5, using: &generator)
      let parsed = await StreamOutcome(JSONValue.arrayElements(from: chunks))
      #expect(parsed.error == nil)
      #expect(parsed.elements == value.arrayValue)
      let decoded = await StreamOutcome(
        JKDecoder().decodeArrayElements(JSONValue.self, from: chunks))
      #expect(decoded.error == nil)
      #expect(decoded.elements == value.arrayValue)
    }
  }

}
