import Foundation
import JSONKit
import Testing

/// A stream's records are scanned onto one tape a batch at a time (up to 64
/// records or 16 KiB), then decoded: each record must still decode, and
/// fail, exactly as if it were read alone, wherever it falls in a batch.
@Suite("Records read in batches")
struct StreamBatchTests {
  struct Item: Codable, Equatable {
    var id: Int
    var name: String
  }

  /// Every way of reading `lines` as records: whole, from chunks of
  /// `chunk` bytes (large ones let batches fill; chunks of three bytes hold
  /// at most one whole record, so every batch is of one), and as the
  /// elements of one array from such chunks.
  private func outcomes(
    _ lines: [String], chunk: Int = 4096, _ decoder: JKDecoder = JKDecoder()
  ) async -> [(elements: [Item], error: (any Error)?)] {
    let text = lines.joined(separator: "\n") + "\n"
    let array = "[" + lines.joined(separator: ",\n") + "]"
    var whole: (elements: [Item], error: (any Error)?) = ([], nil)
    do {
      whole.elements = try decoder.decodeLines(Item.self, from: Data(text.utf8))
    } catch {
      whole.error = error
    }
    let chunked = await StreamOutcome(
      decoder.decodeLines(Item.self, from: ChunkedBytes(Array(text.utf8), every: chunk)))
    let elements = await StreamOutcome(
      decoder.decodeArrayElements(Item.self, from: ChunkedBytes(Array(array.utf8), every: chunk)))
    return [whole, (chunked.elements, chunked.error), (elements.elements, elements.error)]
  }

  /// What reading `lines` gives with every record read alone: the text
  /// read whole with every line but the one at `kept` blanked out (the same
  /// bytes at the same offsets, one record left), and the streams from
  /// chunks of three bytes.
  private func alone(
    _ kept: Int, of lines: [String], _ decoder: JKDecoder = JKDecoder()
  ) async -> [(elements: [Item], error: (any Error)?)] {
    let blanked = lines.enumerated().map { index, line in
      index == kept ? line : String(repeating: " ", count: line.utf8.count)
    }
    let whole = await outcomes(blanked, decoder)[0]
    let streams = await outcomes(lines, chunk: 3, decoder)
    return [whole, streams[1], streams[2]]
  }

  private static let badRecords = [
    #"{"id":7,"name":"a"} {"id":8}"#,  // two values on one line
    #"{"id":"seven","name":"a"}"#,  // a type mismatch
    #"{"id":7}"#,  // a missing key
    #"{"id":7,"name":"a\u00"}"#,  // a bad escape
  ]

  @Test(
    "A bad record anywhere in or between batches fails as it fails alone, after the records before it",
    arguments: [0, 1, 62, 63, 64, 65, 127, 128, 129, 200], badRecords)
  func badRecordAnywhere(position: Int, bad: String) async throws {
    var lines = (0..<240).map { #"{"id":\#($0),"name":"n\#($0)"}"# }
    lines[position] = bad
    let alone = await alone(position, of: lines)
    for (index, outcome) in await outcomes(lines).enumerated() {
      // Read whole, nothing is delivered; streamed, everything before it is.
      if index > 0 {
        #expect(
          outcome.elements.prefix(position)
            == (0..<position).map { Item(id: $0, name: "n\($0)") }[...])
      }
      #expect(outcome.elements == alone[index].elements)
      let error = try #require(outcome.error)
      let aloneError = try #require(alone[index].error)
      if index == 2, bad == Self.badRecords[0] {
        // The framer's error, not a record's: its excerpt shows what the
        // chunks had brought, but it is at the same place. Both are a
        // DecodingError, as the decoder throws.
        guard case .dataCorrupted(let context) = error as? DecodingError,
          case .dataCorrupted(let contextAlone) = aloneError as? DecodingError
        else {
          Issue.record("expected DecodingError.dataCorrupted, got \(error) and \(aloneError)")
          continue
        }
        let parsed = try #require(context.underlyingError as? JKParseError)
        let parsedAlone = try #require(contextAlone.underlyingError as? JKParseError)
        #expect(parsed.kind == parsedAlone.kind)
        #expect(parsed.offset == parsedAlone.offset)
        #expect(parsed.line == parsedAlone.line && parsed.column == parsedAlone.column)
      } else {
        #expect(String(describing: error) == String(describing: aloneError))
      }
    }
  }

  @Test("Lines holding only a comment are skipped wherever they fall in a batch")
  func commentLines() async throws {
    let decoder = JKDecoder()
    decoder.parseOptions = [.comments]
    var lines: [String] = []
    var expected: [Item] = []
    for id in 0..<300 {
      if id % 37 == 5 || id % 64 == 0 {
        lines.append("// a note about record \(id)")
      } else {
        lines.append(#"{"id":\#(id),"name":"n\#(id)"} /* fine */"#)
        expected.append(Item(id: id, name: "n\(id)"))
      }
    }
    let text = lines.joined(separator: "\n") + "\n"
    #expect(try decoder.decodeLines(Item.self, from: Data(text.utf8)) == expected)
    let chunked = await StreamOutcome(
      decoder.decodeLines(Item.self, from: ChunkedBytes(Array(text.utf8), every: 8192)))
    #expect(chunked.error == nil)
    #expect(chunked.elements == expected)
  }

  @Test("Strings and keys that need unescaping decode as Foundation decodes each line")
  func escapedStrings() async throws {
    struct Escaped: Codable, Equatable {
      var text: String
      var other: [String: Int]
    }
    let lines = (0..<200).map { id in
      let text = String(repeating: #"a\"b\\c\u00e9\ud83d\ude00"#, count: id % 7)
      return #"{"te\u0078t":"\#(text)\n\#(id)","other":{"k\#(id % 5)\t":\#(id)}}"#
    }
    let text = lines.joined(separator: "\n") + "\n"
    let foundation = try lines.map { try JSONDecoder().decode(Escaped.self, from: Data($0.utf8)) }
    #expect(try JKDecoder().decodeLines(Escaped.self, from: Data(text.utf8)) == foundation)
    let chunked = await StreamOutcome(
      JKDecoder().decodeLines(Escaped.self, from: ChunkedBytes(Array(text.utf8), every: 5000)))
    #expect(chunked.error == nil)
    #expect(chunked.elements == foundation)
  }

  @Test("Records longer than a batch's bytes, among short ones, decode in order")
  func longRecords() async throws {
    let lines = (0..<120).map { id in
      let length = id % 10 == 3 ? 40_000 : id % 3
      return #"{"id":\#(id),"name":"\#(String(repeating: "x", count: length))"}"#
    }
    let expected = (0..<120).map { id in
      Item(id: id, name: String(repeating: "x", count: id % 10 == 3 ? 40_000 : id % 3))
    }
    for outcome in await outcomes(lines) {
      #expect(outcome.error == nil)
      #expect(outcome.elements == expected)
    }
  }

  @Test("An unknown key in one record of a batch is refused with that record's line")
  func unknownKeyInBatch() async throws {
    let decoder = JKDecoder()
    decoder.unknownKeyStrategy = .reject
    var lines = (0..<100).map { #"{"id":\#($0),"name":"n\#($0)"}"# }
    lines[70] = #"{"id":70,"name":"n70","extra":true}"#
    let alone = await alone(70, of: lines, decoder)
    for (index, outcome) in await outcomes(lines, decoder).enumerated() {
      #expect(outcome.elements == (index == 0 ? [] : (0..<70).map { Item(id: $0, name: "n\($0)") }))
      let error = try #require(outcome.error)
      #expect(String(describing: error) == String(describing: try #require(alone[index].error)))
      #expect(String(describing: error).contains("extra"))
    }
  }

  /// The values and ending error of `sequence`, with the error as text.
  private func values(_ sequence: JKRecordSequence<JSONValue>) async -> ([JSONValue], String?) {
    let outcome = await StreamOutcome(sequence)
    return (outcome.elements, outcome.error.map { String(describing: $0) })
  }

  @Test(
    "JSONValue streams read a batch as they read each record alone",
    arguments: [0, 63, 64, 65, 150], badRecords + [#"// only a comment"#, ""])
  func valueStreams(position: Int, bad: String) async {
    var lines = (0..<200).map { #"{"id":\#($0),"tags":["a\u00e9",\#($0 % 3 == 0)]}"# }
    lines[position] = bad
    let text = Array((lines.joined(separator: "\n") + "\n").utf8)
    let array = Array(("[" + lines.joined(separator: ",\n") + "]").utf8)
    for options: JKParseOptions in [[], [.comments]] {
      let batched = await values(
        JSONValue.lines(from: ChunkedBytes(text, every: 4096), options: options))
      let alone = await values(
        JSONValue.lines(from: ChunkedBytes(text, every: 3), options: options))
      #expect(batched.0 == alone.0)
      #expect(batched.1 == alone.1)
      #expect(batched.0.count >= position)
      let elements = await values(
        JSONValue.arrayElements(from: ChunkedBytes(array, every: 4096), options: options))
      let elementsAlone = await values(
        JSONValue.arrayElements(from: ChunkedBytes(array, every: 3), options: options))
      #expect(elements.0 == elementsAlone.0)
      #expect((elements.1 == nil) == (elementsAlone.1 == nil))
    }
  }

  /// Keeps its decoder, to read a nested member through it later.
  private struct KeepsDecoder: Decodable {
    let id: Int
    let decoder: any Decoder

    private enum CodingKeys: String, CodingKey { case id, inner }
    private enum InnerKeys: String, CodingKey { case list }

    init(from decoder: any Decoder) throws {
      id = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .id)
      self.decoder = decoder
    }

    /// The third element of `inner.list` as an `Int`, read through the
    /// decoder kept.
    func third() throws -> Int {
      var list = try decoder.container(keyedBy: CodingKeys.self)
        .nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
        .nestedUnkeyedContainer(forKey: .list)
      _ = try list.decode(Int.self)
      _ = try list.decode(Int.self)
      return try list.decode(Int.self)
    }
  }

  @Test("A decoder kept from a record of a batch reads its own record, with its own coding paths")
  func keptDecoders() async throws {
    // Every record's third element is an Int but in record 41, where it is
    // a string: the error names the path within that record.
    let lines = (0..<100).map { id in
      let third = id == 41 ? #""x""# : "\(id * 10)"
      return #"{"id":\#(id),"inner":{"list":[1,2,\#(third)]}}"#
    }
    let text = lines.joined(separator: "\n") + "\n"
    let whole = try JKDecoder().decodeLines(KeepsDecoder.self, from: Data(text.utf8))
    let chunked = await StreamOutcome(
      JKDecoder().decodeLines(KeepsDecoder.self, from: ChunkedBytes(Array(text.utf8), every: 4096)))
    #expect(chunked.error == nil)
    for records in [whole, chunked.elements] {
      #expect(records.map(\.id) == Array(0..<100))
      for record in records where record.id != 41 {
        #expect(try record.third() == record.id * 10)
      }
      #expect {
        try records[41].third()
      } throws: { error in
        guard case .typeMismatch(_, let context) = error as? DecodingError else { return false }
        return context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
          == ["inner", "list", "2"]
      }
    }
  }

  @Test("Cancelling ends a batched stream at the next record, even its last, and ends it for good")
  func cancellation() async throws {
    // Twenty records arrive in one chunk, the tenth bad: cancelling after
    // the third ends the stream with CancellationError, and nothing (not
    // the bad record's error, already read in the batch) comes after it.
    var lines = (0..<20).map { #"{"id":\#($0),"name":"n"}"# }
    lines[9] = #"{"id":"bad","name":"n"}"#
    let text = Array((lines.joined(separator: "\n") + "\n").utf8)
    let afterCancel = await Task {
      var iterator = JKDecoder().decodeLines(Item.self, from: ChunkedBytes(text, every: 1 << 20))
        .makeAsyncIterator()
      var results: [String] = []
      for _ in 0..<3 { _ = try? await iterator.next() }
      withUnsafeCurrentTask { $0?.cancel() }
      for _ in 0..<3 {
        do {
          results.append(try await iterator.next() == nil ? "nil" : "record")
        } catch {
          results.append(error is CancellationError ? "cancelled" : "error")
        }
      }
      return results
    }.value
    #expect(afterCancel == ["cancelled", "nil", "nil"])

    // A stream's last record, with no newline after it: a task cancelled
    // once it has it still learns of the cancellation.
    let last = await Task {
      var iterator = JKDecoder().decodeLines(
        Item.self, from: ChunkedBytes(Array(#"{"id":1,"name":"n"}"#.utf8), every: 100)
      ).makeAsyncIterator()
      _ = try? await iterator.next()
      withUnsafeCurrentTask { $0?.cancel() }
      do {
        _ = try await iterator.next()
        return false
      } catch {
        return error is CancellationError
      }
    }.value
    #expect(last)
  }
}

extension StreamBatchTests {
  /// The state of a top-level object written without braces belongs to one
  /// record: a record after one such object, in the same batch, reads as it
  /// would alone.
  @Test(
    "A batch's records without top-level braces read as each alone",
    arguments: [false, true])
  func bracelessRecordsReadAsEachAlone(json5: Bool) async throws {
    let decoder = JKDecoder()
    decoder.assumesTopLevelDictionary = true
    decoder.allowsJSON5 = json5
    let batches = [
      [#""a":1"#, #""b":2}"#],
      [#""a":1"#, #"{"b":2}"#],
      [#"// note"#, #""b":2}"#],
      [#""a":1"#, #""b":2"#, #"{"c":3}"#],
    ]
    for lines in batches {
      var alone: [String] = []
      for line in lines {
        do {
          alone.append("\(try decoder.decode([String: Int].self, from: Data(line.utf8)))")
        } catch {
          alone.append("error \(Self.place(of: error))")
        }
      }
      let text = Data((lines.joined(separator: "\n") + "\n").utf8)
      var batched: [String] = []
      do {
        for value in try decoder.decodeLines([String: Int].self, from: text) {
          batched.append("\(value)")
        }
      } catch {
        batched.append("error \(Self.place(of: error))")
      }
      // Every record's value, or the first record's error.
      let expected = alone.first { $0.hasPrefix("error") }.map { [$0] } ?? alone
      #expect(batched == expected, "\(lines), json5: \(json5)")
    }
  }

  /// The kind and column of the parse error under `error`: a record's
  /// column is the same read alone or in a batch.
  private static func place(of error: any Error) -> String {
    var parse = error as? JKParseError
    if case DecodingError.dataCorrupted(let context) = error {
      parse = context.underlyingError as? JKParseError
    }
    guard let parse else { return "\(type(of: error))" }
    return "\(parse.kind) column \(parse.column)"
  }
}
