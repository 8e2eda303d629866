import Foundation
import JSONKit
import Testing

/// JSON Lines read whole or from a stream: line endings, blank lines,
/// errors naming the line, every option inside each record.
@Suite("JSON Lines decoding")
struct JSONLinesDecodingTests {
  struct Point: Codable, Equatable {
    var x: Int
    var y: Int
  }

  private func decodeWhole(_ text: String) throws -> [Point] {
    try JKDecoder().decodeLines(Point.self, from: Data(text.utf8))
  }

  private func decodeStream(_ text: String) async -> StreamOutcome<Point> {
    await StreamOutcome(
      JKDecoder().decodeLines(Point.self, from: ChunkedBytes(Array(text.utf8), every: 3)))
  }

  @Test("Lines end in LF or CRLF and the last line may lack its newline")
  func lineEndings() async throws {
    let expected = [Point(x: 1, y: 2), Point(x: 3, y: 4), Point(x: 5, y: 6)]
    for text in [
      "{\"x\":1,\"y\":2}\n{\"x\":3,\"y\":4}\n{\"x\":5,\"y\":6}\n",
      "{\"x\":1,\"y\":2}\r\n{\"x\":3,\"y\":4}\r\n{\"x\":5,\"y\":6}",
      "{\"x\":1,\"y\":2}\n{\"x\":3,\"y\":4}\r\n{\"x\":5,\"y\":6}\r\n",
    ] {
      #expect(try decodeWhole(text) == expected)
      let outcome = await decodeStream(text)
      #expect(outcome.elements == expected)
      #expect(outcome.error == nil)
    }
  }

  /// A record that counts its instances alive, to see that every record
  /// decoded before an error is released.
  final class Counted: Decodable {
    nonisolated(unsafe) static var alive = 0
    let x: Int

    init(from decoder: any Decoder) throws {
      x = try decoder.container(keyedBy: JSONLinesDecodingTests.CodingKeys.self).decode(
        Int.self, forKey: .x)
      Self.alive += 1
    }

    deinit { Self.alive -= 1 }
  }

  enum CodingKeys: String, CodingKey { case x }

  @Test("Many records are all delivered in order, and an error releases those read before it")
  func manyRecords() throws {
    for count in [0, 1, 15, 16, 17, 100, 1000] {
      let lines = (0..<count).map { "{\"x\":\($0),\"y\":\(-$0)}" }
      let records = try decodeWhole(lines.joined(separator: "\n") + "\n\n")
      #expect(records == (0..<count).map { Point(x: $0, y: -$0) })
    }
    let before = Counted.alive
    let text = (0..<40).map { "{\"x\":\($0)}\n" }.joined() + "{\"x\":\"41\"}\n"
    #expect(throws: DecodingError.self) {
      try JKDecoder().decodeLines(Counted.self, from: Data(text.utf8))
    }
    #expect(Counted.alive == before)
    let valid = (0..<30).map { "{\"x\":\($0)}\n" }.joined()
    let records = try JKDecoder().decodeLines(Counted.self, from: Data(valid.utf8))
    #expect(records.map(\.x) == Array(0..<30))
    #expect(Counted.alive == before + 30)
  }

  @Test("Lines of only whitespace are skipped, and an empty input has no records")
  func blankLines() async throws {
    let text = "\n  \t\n{\"x\":1,\"y\":2}\n\r\n \r\n{\"x\":3,\"y\":4}\n\n"
    #expect(try decodeWhole(text) == [Point(x: 1, y: 2), Point(x: 3, y: 4)])
    #expect(await decodeStream(text).elements == [Point(x: 1, y: 2), Point(x: 3, y: 4)])
    #expect(try decodeWhole("").isEmpty)
    #expect(try decodeWhole("\n\n").isEmpty)
    let empty = await decodeStream("")
    #expect(empty.elements.isEmpty && empty.error == nil)
  }

  @Test("A line holding two values or half a value is an error naming its line and column")
  func badLines() async throws {
    let text = "{\"x\":1,\"y\":2}\n{\"x\":3,\"y\":4} {\"x\":5,\"y\":6}\n{\"x\":7,\"y\":8}\n"
    #expect {
      try decodeWhole(text)
    } throws: { error in
      guard case .dataCorrupted(let context) = error as? DecodingError,
        let parseError = context.underlyingError as? JKParseError
      else { return false }
      return parseError.kind == .textAfterValue && parseError.line == 2
        && parseError.column == 15 && parseError.offset == 28
        && context.debugDescription.contains("line 2, column 15")
    }
    let outcome = await decodeStream(text)
    #expect(outcome.elements == [Point(x: 1, y: 2)])
    #expect(outcome.parseError?.line == 2)
    #expect(outcome.parseError?.column == 15)
    #expect(outcome.parseError?.offset == 28)

    let split = "{\"x\":1,\"y\":2}\n{\"x\":3,\n\"y\":4}\n"
    let splitOutcome = await decodeStream(split)
    #expect(splitOutcome.elements == [Point(x: 1, y: 2)])
    #expect(splitOutcome.parseError?.kind == .unexpectedEndOfInput)
    #expect(splitOutcome.parseError?.line == 2)
  }

  @Test("A record that does not fit its model keeps Foundation's error case and names its line")
  func modelErrors() async throws {
    let text = "{\"x\":1,\"y\":2}\n\n{\"x\":3,\"y\":\"four\"}\n{\"x\":5,\"y\":6}\n"
    #expect {
      try decodeWhole(text)
    } throws: { error in
      guard case .typeMismatch(_, let context) = error as? DecodingError else { return false }
      return context.codingPath.map(\.stringValue) == ["y"]
        && context.debugDescription.contains("line 3, byte offset 15")
    }
    let outcome = await decodeStream(text)
    #expect(outcome.elements == [Point(x: 1, y: 2)])
    guard case .typeMismatch(_, let context) = outcome.error as? DecodingError else {
      Issue.record("expected a type mismatch, got \(String(describing: outcome.error))")
      return
    }
    #expect(context.debugDescription.contains("line 3"))
  }

  @Test("Each record is read with the decoder's options and strategies")
  func optionsHoldInsideRecords() throws {
    struct Named: Decodable, Equatable {
      var firstName: String
    }
    let decoder = JKDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.parseOptions = .comments
    let text = "{\"first_name\":\"a\"} // one\n// a line of only a comment\n{\"first_name\":\"b\"}"
    let records = try decoder.decodeLines(Named.self, from: Data(text.utf8))
    #expect(records == [Named(firstName: "a"), Named(firstName: "b")])
    // Strict by default: a comment is an error on its line.
    #expect(throws: DecodingError.self) {
      try JKDecoder().decodeLines(Named.self, from: Data(text.utf8))
    }
  }

  @Test("A block comment cannot span lines, since a record is one line")
  func recordIsOneLine() {
    let decoder = JKDecoder()
    decoder.parseOptions = .comments
    let text = "{\"x\":1,\"y\":2} /* begins\nends */\n"
    #expect {
      try decoder.decodeLines(Point.self, from: Data(text.utf8))
    } throws: { error in
      guard case .dataCorrupted(let context) = error as? DecodingError else { return false }
      return (context.underlyingError as? JKParseError)?.kind == .unterminated
    }
  }

  @Test("Ill-formed UTF-8 inside a record is an error at the stream's offset")
  func strictUnicode() async {
    var bytes = Array("{\"x\":1,\"y\":2}\n[\"ok\",\"".utf8)
    bytes += [0xC3, 0x28]
    bytes += Array("\"]\n".utf8)
    let outcome = await StreamOutcome(
      JSONValue.lines(from: ChunkedBytes(bytes, every: 1)))
    #expect(outcome.elements == [["x": 1, "y": 2]])
    #expect((outcome.error as? JKParseError)?.kind == .invalidUTF8)
    #expect((outcome.error as? JKParseError)?.offset == 21)
    #expect((outcome.error as? JKParseError)?.line == 2)
  }

  @Test("JSON Lines from single bytes decode as from chunks")
  func singleBytes() async {
    let text = "{\"x\":1,\"y\":2}\r\n\n{\"x\":3,\"y\":4}"
    let outcome = await StreamOutcome(
      JKDecoder().decodeLines(Point.self, from: SingleBytes(bytes: Array(text.utf8))))
    #expect(outcome.elements == [Point(x: 1, y: 2), Point(x: 3, y: 4)])
    #expect(outcome.error == nil)
  }

  @Test("Data chunks and array slice chunks are read alike")
  func chunkTypes() async {
    let text = Array("{\"x\":1,\"y\":2}\n{\"x\":3,\"y\":4}\n".utf8)
    let chunks = ChunkedBytes(text, every: 5)
    let asData = chunks.map { Data($0) }
    let asSlices = chunks.map { $0[...] }
    let expected = [Point(x: 1, y: 2), Point(x: 3, y: 4)]
    #expect(
      await StreamOutcome(JKDecoder().decodeLines(Point.self, from: asData)).elements == expected)
    #expect(
      await StreamOutcome(JKDecoder().decodeLines(Point.self, from: asSlices)).elements == expected)
  }

  @Test("Records can be read on the main actor")
  @MainActor
  func mainActor() async throws {
    var points: [Point] = []
    let chunks = ChunkedBytes(Array("{\"x\":1,\"y\":2}\n".utf8), every: 4)
    for try await point in JKDecoder().decodeLines(Point.self, from: chunks) {
      points.append(point)
    }
    #expect(points == [Point(x: 1, y: 2)])
  }
}
