import Foundation
import JSONKit
import Testing

/// `decodeArrayElements` lets the scanner find where elements end, in runs
/// of the elements a chunk holds; an element a run cannot take whole (cut
/// off by a chunk's end, too long, in error) is read on its own. Whatever
/// the cut, the elements, their errors and the places of those errors are
/// those of decoding the whole array.
@Suite("Array elements framed by the scanner")
struct ElementRunTests {
  struct Item: Codable, Equatable {
    var id: Int
    var name: String
    var tags: [String]
    var score: Double?
  }

  /// Items as one array, with the whitespace between and inside elements
  /// that `spacing` picks (none, spaces, line feeds, CRLF, tabs).
  private static func array(count: Int, spacing: Int) -> [UInt8] {
    let gaps = ["", " ", "\n", "\r\n  ", "\t \n"]
    let gap = gaps[spacing % gaps.count]
    let items = (0..<count).map { index in
      #"{"id":\#(index),\#(gap)"name":"item \"\#(index)\" é😀","tags":[\#(gap)"a",\#(gap)"b"]"#
        + (index % 3 == 0 ? "}" : #","score":\#(Double(index) / 4)}"#)
    }
    return Array(("[" + gap + items.joined(separator: gap + "," + gap) + gap + "]" + gap).utf8)
  }

  @Test("Arrays cut every way decode as the whole array", arguments: 0..<5)
  func cuts(spacing: Int) async throws {
    let bytes = Self.array(count: 150, spacing: spacing)
    let whole = try JKDecoder().decode([Item].self, from: Data(bytes))
    #expect(whole == (try JSONDecoder().decode([Item].self, from: Data(bytes))))
    for size in [1, 5, 64, 999, 4096, bytes.count] {
      let outcome = await StreamOutcome(
        JKDecoder().decodeArrayElements(Item.self, from: ChunkedBytes(bytes, every: size)))
      #expect(outcome.error == nil, "chunks of \(size)")
      #expect(outcome.elements == whole, "chunks of \(size)")
    }
  }

  /// Text for each kind of bad element, put in place of item 70. A value
  /// with text after it where a comma belongs is delivered before the
  /// error, as it is whole.
  static let badElements: [(String, String)] = [
    ("a number too large", #"{"id":1e999,"name":"x","tags":[]}"#),
    ("a bad literal", #"{"id":1,"name":"x","tags":[],"score":nul}"#),
    ("an unpaired surrogate", #"{"id":1,"name":"\ud800x","tags":[]}"#),
    ("a control character", "{\"id\":1,\"name\":\"a\u{01}\",\"tags\":[]}"),
    ("a missing comma", #"{"id":1,"name":"x","tags":[]} {"id":2}"#),
    ("an unclosed object", #"{"id":1,"name":"x","tags":[]]"#),
    ("a byte order mark", "\u{FEFF}{\"id\":1,\"name\":\"x\",\"tags\":[]}"),
    ("a missing key", #"{"id":1,"tags":[]}"#),
    ("a mistyped value", #"{"id":"1","name":"x","tags":[]}"#),
    ("a number for a string", #"{"id":1,"name":2,"tags":[]}"#),
  ]

  @Test("A bad element is reported as decoding the whole array reports it", arguments: 0..<10)
  func badElement(kind: Int) async throws {
    let (label, element) = Self.badElements[kind]
    for spacing in [0, 3] {
      let good = Self.array(count: 120, spacing: spacing)
      let items = try JKDecoder().decode([JSONValue].self, from: Data(good))
      let pieces = try items.map { String(decoding: try $0.jsonBytes(), as: UTF8.self) }
      let gap = spacing == 0 ? "" : "\r\n  "
      let text = Array(
        ("[" + gap + (pieces[..<70] + [element] + pieces[71...]).joined(separator: "," + gap)
          + "]").utf8)
      let whole = #expect(throws: DecodingError.self) {
        try JKDecoder().decode([Item].self, from: Data(text))
      }
      for size in [7, 1000, text.count] {
        let outcome = await StreamOutcome(
          JKDecoder().decodeArrayElements(Item.self, from: ChunkedBytes(text, every: size)))
        let delivered = label == "a missing comma" ? 71 : 70
        #expect(outcome.elements.count == delivered, "\(label), chunks of \(size)")
        #expect(
          outcome.error.map(LocatedError.init) == whole.map(LocatedError.init),
          "\(label), chunks of \(size)")
      }
    }
  }

  @Test(
    "JSONValue.arrayElements reports a bad element as parsing the whole array does",
    arguments: 0..<7)
  func badValue(kind: Int) async throws {
    let (label, element) = Self.badElements[kind]
    let good = try JSONValue(parsing: Data(Self.array(count: 120, spacing: 3)))
    let pieces = try (good.arrayValue ?? []).map {
      String(decoding: try $0.jsonBytes(), as: UTF8.self)
    }
    let text = Array(
      ("[\n" + (pieces[..<70] + [element] + pieces[71...]).joined(separator: ",\r\n") + "]").utf8)
    let whole = #expect(throws: JKParseError.self) { try JSONValue(parsing: Data(text)) }
    for size in [7, 1000, text.count] {
      let outcome = await StreamOutcome(
        JSONValue.arrayElements(from: ChunkedBytes(text, every: size)))
      let delivered = label == "a missing comma" ? 71 : 70
      #expect(outcome.elements.count == delivered, "\(label), chunks of \(size)")
      #expect(outcome.elements.prefix(70) == (good.arrayValue ?? []).prefix(70))
      let error = outcome.parseError
      #expect(error?.kind == whole?.kind, "\(label), chunks of \(size)")
      #expect(error?.offset == whole?.offset, "\(label), chunks of \(size)")
      #expect(error?.line == whole?.line, "\(label), chunks of \(size)")
      #expect(error?.column == whole?.column, "\(label), chunks of \(size)")
    }
  }

  @Test("An error's column counts the scalars of a long line of non-ASCII text")
  func columnsAfterNonASCII() async throws {
    // Strings of 2-, 3- and 4-byte characters on one line, then a bad one.
    let strings = (0..<900).map { index in
      "\"" + String(repeating: ["é", "€", "😀", "a"][index % 4], count: index % 13 + 1) + "\""
    }
    let text = Array(("[" + strings.joined(separator: ",") + ",\"bad\\x\"]").utf8)
    let whole = #expect(throws: JKParseError.self) { try JSONValue(parsing: Data(text)) }
    #expect(whole?.line == 1)
    for size in [5, 333, 4096, text.count] {
      let values = await StreamOutcome(
        JSONValue.arrayElements(from: ChunkedBytes(text, every: size)))
      #expect(values.elements.count == 900)
      #expect(values.parseError?.column == whole?.column, "chunks of \(size)")
      #expect(values.parseError?.offset == whole?.offset, "chunks of \(size)")
      let decoded = await StreamOutcome(
        JKDecoder().decodeArrayElements(String.self, from: ChunkedBytes(text, every: size)))
      #expect(decoded.elements.count == 900)
      #expect(decoded.parseError?.column == whole?.column, "chunks of \(size)")
    }
  }

  @Test("An element longer than the limit is refused in a run as on its own")
  func limit() async throws {
    let short = #"{"id":1,"name":"x","tags":[]}"#
    let long = #"{"id":2,"name":"\#(String(repeating: "y", count: 100))","tags":[]}"#
    let text = Array(
      ("[" + Array(repeating: short, count: 20).joined(separator: ",") + "," + long
        + "," + short + "]").utf8)
    for size in [3, 200, text.count] {
      let outcome = await StreamOutcome(
        JKDecoder().decodeArrayElements(
          Item.self, from: ChunkedBytes(text, every: size), maxRecordSize: short.utf8.count + 10))
      #expect(outcome.elements.count == 20, "chunks of \(size)")
      #expect(outcome.parseError?.kind == .inputTooLarge, "chunks of \(size)")
      #expect(outcome.parseError?.message.contains("array element 20") == true)
      let fits = await StreamOutcome(
        JKDecoder().decodeArrayElements(
          Item.self, from: ChunkedBytes(text, every: size), maxRecordSize: long.utf8.count))
      #expect(fits.error == nil)
      #expect(fits.elements.count == 22)
    }
  }

  @Test("A trailing comma ends the array only with the option, after a run as after one element")
  func trailingComma() async throws {
    let text = Array("[1, 2 ,3,\n ]".utf8)
    for size in [1, 4, text.count] {
      let refused = await StreamOutcome(
        JKDecoder().decodeArrayElements(Int.self, from: ChunkedBytes(text, every: size)))
      #expect(refused.elements == [1, 2, 3])
      #expect(refused.parseError?.offset == 11, "chunks of \(size)")
      let decoder = JKDecoder()
      decoder.parseOptions = .trailingCommas
      let accepted = await StreamOutcome(
        decoder.decodeArrayElements(Int.self, from: ChunkedBytes(text, every: size)))
      #expect(accepted.error == nil)
      #expect(accepted.elements == [1, 2, 3])
    }
  }
}

/// A decoding error reduced to what a test compares: its case, coding
/// path, place in the input, and for a syntax error its kind and place (a
/// syntax error between a stream's elements comes as the ``JKParseError``
/// alone).
private struct LocatedError: Equatable {
  var summary: String
  var place: String

  init(_ error: any Error) {
    guard let error = error as? DecodingError else {
      let parse = error as? JKParseError
      place = "\(parse?.offset ?? -1):\(parse?.line ?? -1):\(parse?.column ?? -1)"
      summary = "corrupted [] \(String(describing: parse?.kind)) \(place)"
      return
    }
    let location = error.jsonLocation
    place = "\(location?.offset ?? -1):\(location?.line ?? -1):\(location?.column ?? -1)"
    switch error {
    case .dataCorrupted(let context):
      let parse = context.underlyingError as? JKParseError
      summary =
        "corrupted \(ParityPath(context.codingPath)) \(String(describing: parse?.kind)) "
        + "\(parse?.offset ?? -1):\(parse?.line ?? -1):\(parse?.column ?? -1)"
    case .keyNotFound(let key, let context):
      summary = "keyNotFound \(key.stringValue) \(ParityPath(context.codingPath))"
    case .typeMismatch(let type, let context):
      summary = "typeMismatch \(type) \(ParityPath(context.codingPath))"
    case .valueNotFound(let type, let context):
      summary = "valueNotFound \(type) \(ParityPath(context.codingPath))"
    @unknown default:
      summary = "\(error)"
    }
  }
}

/// A record read from an async sequence of bytes is delivered as soon as
/// its last byte has arrived, before any byte after it: the gathering of
/// bytes follows strings and brackets so that only an element's real end
/// ends a fill.
@Suite("Records from async bytes come as soon as they are whole")
struct ByteStreamLatencyTests {
  /// Each piece, then the element it completes; the bytes after a piece
  /// are sent only once that element has come.
  static let pieces: [(String, JSONValue)] = [
    (#"[{"a":"x,]}\"","b":[1,{"c":2}]}"#, ["a": "x,]}\"", "b": [1, ["c": 2]]]),
    (#", "str,[ing]""#, "str,[ing]"),
    (", [1, [2, 3]]", [1, [2, 3]]),
    (", 123", 123),  // a number ends only at the comma after it
    (", true", true),
    (", {}", [:]),
  ]

  @Test(
    "Each element comes when its bytes have arrived", .timeLimit(.minutes(1)),
    arguments: [false, true])
  func elements(decoder: Bool) async throws {
    let (stream, continuation) = AsyncStream<UInt8>.makeStream()
    let sequence =
      decoder
      ? JKDecoder().decodeArrayElements(JSONValue.self, from: stream)
      : JSONValue.arrayElements(from: stream)
    var iterator = sequence.makeAsyncIterator()
    var pending: [JSONValue] = []
    for (piece, value) in Self.pieces {
      for byte in piece.utf8 { continuation.yield(byte) }
      pending.append(value)
      // A number or literal is whole only when the comma after it comes,
      // with the next piece.
      if case .int = value { continue }
      if case .bool = value { continue }
      for expected in pending { #expect(try await iterator.next() == expected) }
      pending.removeAll()
    }
    for byte in ",\"end\"]".utf8 { continuation.yield(byte) }
    continuation.finish()
    #expect(try await iterator.next() == "end")
    #expect(try await iterator.next() == nil)
  }

  @Test("Comments and JSON5 strings still let each element come", .timeLimit(.minutes(1)))
  func commentsAndJSON5() async throws {
    let (stream, continuation) = AsyncStream<UInt8>.makeStream()
    var iterator = JSONValue.arrayElements(from: stream, options: .json5).makeAsyncIterator()
    for byte in "[ /* { [ */ {a: '}', b: 1}".utf8 { continuation.yield(byte) }
    #expect(try await iterator.next() == ["a": "}", "b": 1])
    for byte in ", 'x' // ]\n".utf8 { continuation.yield(byte) }
    #expect(try await iterator.next() == "x")
    // A string after a comment comes at its closing quote.
    for byte in ", /* , */ \"y\"".utf8 { continuation.yield(byte) }
    #expect(try await iterator.next() == "y")
    for byte in ", [2]]".utf8 { continuation.yield(byte) }
    continuation.finish()
    #expect(try await iterator.next() == [2])
    #expect(try await iterator.next() == nil)
  }

  @Test("A number or literal comes at the line break after it", .timeLimit(.minutes(1)))
  func scalarsAtLineBreaks() async throws {
    let (stream, continuation) = AsyncStream<UInt8>.makeStream()
    var iterator = JKDecoder().decodeArrayElements(JSONValue.self, from: stream)
      .makeAsyncIterator()
    for byte in "[\n  1\n".utf8 { continuation.yield(byte) }
    #expect(try await iterator.next() == 1)
    for byte in "  , true\r\n".utf8 { continuation.yield(byte) }
    #expect(try await iterator.next() == true)
    for byte in "]".utf8 { continuation.yield(byte) }
    continuation.finish()
    #expect(try await iterator.next() == nil)
  }

  /// Chunks, then an error of the caller's own: here a `JKParseError`.
  struct FailingChunks: AsyncSequence {
    typealias Element = [UInt8]
    let error: JKParseError

    struct AsyncIterator: AsyncIteratorProtocol {
      var sent = false
      let error: JKParseError
      mutating func next() async throws -> [UInt8]? {
        if sent { throw error }
        sent = true
        return Array("[1, 2,".utf8)
      }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(error: error) }
  }

  @Test("What the caller's sequence throws comes as it was thrown, even a JKParseError")
  func sourceErrors() async throws {
    let thrown = try #require(#expect(throws: JKParseError.self) { try JSONValue(parsing: "{") })
    let outcome = await StreamOutcome(
      JKDecoder().decodeArrayElements(Int.self, from: FailingChunks(error: thrown)))
    #expect(outcome.elements == [1, 2])
    #expect(outcome.error as? JKParseError == thrown)
  }

  @Test("Each line comes when its line feed has arrived", .timeLimit(.minutes(1)))
  func lines() async throws {
    let (stream, continuation) = AsyncStream<UInt8>.makeStream()
    var iterator = JKDecoder().decodeLines(JSONValue.self, from: stream).makeAsyncIterator()
    for line in [#"{"a":"b,}]\n"}"#, "[1, 2]", "3"] {
      for byte in (line + "\n").utf8 { continuation.yield(byte) }
      #expect(try await iterator.next() == (try JSONValue(parsing: line)))
    }
    continuation.finish()
    #expect(try await iterator.next() == nil)
  }
}

extension ElementRunTests {
  @Test("Under .looseUnicode, an error's column counts ill-formed bytes as the whole input does")
  func columnsAfterIllFormedBytes() async throws {
    // Stray continuation bytes and a cut-off sequence, each a column of
    // its own in an error's place, then a bad element on the same line.
    var text = Array(#"["a"#.utf8) + [0x80, 0x80, 0xBF] + Array(#"",""#.utf8) + [0xE2, 0x82]
    text += Array(#"","é😀",{"x":1},"bad\x"]"#.utf8)
    let whole = #expect(throws: JKParseError.self) {
      try JSONValue(parsing: Data(text), options: .looseUnicode)
    }
    #expect(whole?.line == 1)
    for size in [1, 3, 7, text.count] {
      let values = await StreamOutcome(
        JSONValue.arrayElements(from: ChunkedBytes(text, every: size), options: .looseUnicode))
      #expect(values.elements.count == 4, "chunks of \(size)")
      #expect(values.parseError?.offset == whole?.offset, "chunks of \(size)")
      #expect(values.parseError?.column == whole?.column, "chunks of \(size)")
      let decoder = JKDecoder()
      decoder.parseOptions = .looseUnicode
      let decoded = await StreamOutcome(
        decoder.decodeArrayElements(JSONValue.self, from: ChunkedBytes(text, every: size)))
      #expect(decoded.elements.count == 4, "chunks of \(size)")
      #expect(decoded.parseError?.column == whole?.column, "chunks of \(size)")
    }
  }
}
