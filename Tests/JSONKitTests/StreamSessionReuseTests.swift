import Foundation
import JSONKit
import Testing

/// A stream's records share one scan context and one decoding session, which
/// begins each record afresh: nothing of one record may reach the next, and a
/// record whose model keeps its decoder keeps its own document.
@Suite("One session for a stream's records")
struct StreamSessionReuseTests {
  /// Keeps its decoder, and reads its `value` member only when asked, after
  /// the stream has moved on.
  private struct KeepsDecoder: Decodable {
    let id: Int
    let decoder: any Decoder

    private enum CodingKeys: String, CodingKey { case id, value }

    init(from decoder: any Decoder) throws {
      id = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .id)
      self.decoder = decoder
    }

    func value() throws -> String {
      try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .value)
    }
  }

  private struct Record: Decodable, Equatable {
    let id: Int
    let value: String
  }

  /// Every way of reading `lines` as records of `type`: whole, from chunks of
  /// a few bytes, and as the elements of one array from chunks.
  private func everyWay<T: Decodable>(
    _ type: T.Type, _ lines: [String], _ decoder: JKDecoder = JKDecoder()
  ) async throws -> [[T]] {
    let text = lines.joined(separator: "\n") + "\n"
    let array = "[" + lines.joined(separator: ",\n") + "]"
    let whole = try decoder.decodeLines(type, from: Data(text.utf8))
    let chunked = await StreamOutcome(
      decoder.decodeLines(type, from: ChunkedBytes(Array(text.utf8), every: 7)))
    let elements = await StreamOutcome(
      decoder.decodeArrayElements(type, from: ChunkedBytes(Array(array.utf8), every: 5)))
    if let error = chunked.error ?? elements.error { throw error }
    return [whole, chunked.elements, elements.elements]
  }

  @Test("A record whose model keeps its decoder keeps its own values while later records decode")
  func keptDecoderKeepsItsRecord() async throws {
    let lines = (0..<50).map {
      #"{"id":\#($0),"value":"v\#($0)-\#(String(repeating: "x", count: $0))"}"#
    }
    for records in try await everyWay(KeepsDecoder.self, lines) {
      #expect(records.count == 50)
      for (index, record) in records.enumerated() {
        #expect(record.id == index)
        #expect(try record.value() == "v\(index)-\(String(repeating: "x", count: index))")
      }
    }
  }

  /// Keeps its keyed container, and reads its `value` through it only when
  /// asked, after the stream has moved on.
  private struct KeepsContainer: Decodable {
    let id: Int
    let container: KeyedDecodingContainer<CodingKeys>

    enum CodingKeys: String, CodingKey { case id, value }

    init(from decoder: any Decoder) throws {
      container = try decoder.container(keyedBy: CodingKeys.self)
      id = try container.decode(Int.self, forKey: .id)
    }

    func value() throws -> String { try container.decode(String.self, forKey: .value) }
  }

  /// A tree whose nodes share one key type, so that a record holds several
  /// containers of it at once.
  private struct Node: Decodable, Equatable {
    let name: String
    let children: [Node]
  }

  @Test(
    "A record whose model keeps its keyed container keeps its own values while later records decode"
  )
  func keptContainerKeepsItsRecord() async throws {
    // Every third record keeps its container; the others let it go, so that
    // the stream gives containers out again between kept ones.
    struct Mixed: Decodable {
      let kept: KeepsContainer?
      let plain: Record?
      init(from decoder: any Decoder) throws {
        let id = try decoder.container(keyedBy: KeepsContainer.CodingKeys.self)
          .decode(Int.self, forKey: .id)
        kept = id % 3 == 0 ? try KeepsContainer(from: decoder) : nil
        plain = id % 3 == 0 ? nil : try Record(from: decoder)
      }
    }
    let lines = (0..<60).map { #"{"id":\#($0),"value":"v\#($0)"}"# }
    for records in try await everyWay(Mixed.self, lines) {
      #expect(records.count == 60)
      for (index, record) in records.enumerated() {
        if let kept = record.kept {
          #expect(kept.id == index)
          #expect(try kept.value() == "v\(index)")
        } else {
          #expect(record.plain == Record(id: index, value: "v\(index)"))
        }
      }
    }
  }

  @Test("Trees of one key type decode record after record as Foundation decodes each line")
  func nestedContainersOfOneKeyType() async throws {
    var generator = SplitMix64(seed: 5)
    func node(_ depth: Int) -> String {
      let count = depth == 0 ? 0 : Int(generator.next() % 4)
      let children = (0..<count).map { _ in node(depth - 1) }
      return
        #"{"name":"n\#(generator.next() % 100)","children":[\#(children.joined(separator: ","))]}"#
    }
    let lines = (0..<80).map { _ in node(Int(generator.next() % 5)) }
    let expected = try lines.map { try JSONDecoder().decode(Node.self, from: Data($0.utf8)) }
    for records in try await everyWay(Node.self, lines) {
      #expect(records == expected)
    }
  }

  @Test(
    "Records that bring new keys, shared names and duplicates decode as Foundation decodes each line"
  )
  func recordsWithChangingKeysMatchFoundation() async throws {
    var lines: [String] = []
    var generator = SplitMix64(seed: 11)
    for id in 0..<120 {
      // Keys met for the first time in later records, keys that snake case
      // converts to one name, and duplicate keys (the last one counts).
      let extra = (0..<Int(generator.next() % 4)).map { #""k\#(id)_\#($0)":\#($0)"# }
      let shared = id % 5 == 0 ? #","user_name":"a","userName":"b""# : ""
      let duplicate = id % 7 == 0 ? #","count":1,"count":2"# : #","count":\#(id)"#
      lines.append(
        #"{"id":\#(id)\#(shared)\#(duplicate),"#
          + extra.joined(separator: ",") + (extra.isEmpty ? "" : ",") + #""tail":"t\#(id)"}"#)
    }
    for strategy in [JSONDecoder.KeyDecodingStrategy.useDefaultKeys, .convertFromSnakeCase] {
      let foundation = JSONDecoder()
      foundation.keyDecodingStrategy = strategy
      // Foundation's answer, with JSONKit's rule for duplicate keys (README:
      // the last one wins, where Foundation keeps the first).
      let expected = try lines.map { line in
        var record = try foundation.decode([String: JSONValue].self, from: Data(line.utf8))
        if line.contains(#""count":1,"count":2"#) { record["count"] = 2 }
        return record
      }
      let decoder = JKDecoder()
      decoder.keyDecodingStrategy = strategy
      for records in try await everyWay([String: JSONValue].self, lines, decoder) {
        #expect(records.count == expected.count)
        for (record, line) in zip(zip(records, expected), lines) where record.0 != record.1 {
          Issue.record("\(line): \(record.0) against Foundation's \(record.1)")
        }
      }
    }
  }

  @Test("A failure caught inside one record leaves no coding path behind for the next")
  func caughtFailuresDoNotReachTheNextRecord() async throws {
    /// Tries its `count` as an `Int` and falls back to a `String`, which
    /// builds a coding path for the error it catches.
    struct Lenient: Decodable, Equatable {
      let count: String
      let items: [Int]
      private enum CodingKeys: String, CodingKey { case count, items }
      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let number = try? container.decode(Int.self, forKey: .count) {
          count = String(number)
        } else {
          count = try container.decode(String.self, forKey: .count)
        }
        items = try container.decode([Int].self, forKey: .items)
      }
    }
    let good = [#"{"count":"many","items":[1,2]}"#, #"{"count":3,"items":[]}"#]
    let bad = #"{"count":4,"items":[1,"two"]}"#
    let text = Data((good + good + [bad]).joined(separator: "\n").utf8)
    let foundation = #expect(throws: DecodingError.self) {
      for line in (good + good + [bad]) {
        _ = try JSONDecoder().decode(Lenient.self, from: Data(line.utf8))
      }
    }
    let jsonKit = #expect(throws: DecodingError.self) {
      try JKDecoder().decodeLines(Lenient.self, from: text)
    }
    guard case .typeMismatch(_, let expected) = foundation,
      case .typeMismatch(_, let context) = jsonKit
    else {
      Issue.record("expected typeMismatch from both: \(String(describing: jsonKit))")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == expected.codingPath.map(\.stringValue))
    #expect(context.codingPath.map(\.intValue) == expected.codingPath.map(\.intValue))
    #expect(context.debugDescription.contains("line 5"))
    let records = try JKDecoder().decodeLines(
      Lenient.self, from: Data((good + good).joined(separator: "\n").utf8))
    #expect(records.map(\.count) == ["many", "3", "many", "3"])
  }

  @Test("Unknown keys are checked per record when they are refused")
  func unknownKeysAreCheckedPerRecord() async throws {
    let decoder = JKDecoder()
    decoder.unknownKeyStrategy = .reject
    let lines = [
      #"{"id":1,"value":"a"}"#, #"{"id":2,"value":"b"}"#, #"{"id":3,"value":"c","extra":0}"#,
    ]
    #expect(
      try decoder.decodeLines(Record.self, from: Data(lines[0..<2].joined(separator: "\n").utf8))
        .count == 2)
    let error = #expect(throws: DecodingError.self) {
      try decoder.decodeLines(Record.self, from: Data(lines.joined(separator: "\n").utf8))
    }
    #expect(String(describing: error).contains("extra"))
    #expect(String(describing: error).contains("line 3"))
  }

  @Test("A stream whose keys outgrow the key cache decodes every record")
  func keysBeyondTheCacheLimit() async throws {
    // 70 records of 1,000 keys never seen before: 70,000 keys, more than one
    // scan context's key cache keeps, so that the stream trades its context
    // for a fresh one part-way.
    let lines = (0..<70).map { record in
      "{" + (0..<1_000).map { #""r\#(record)k\#($0)":\#($0)"# }.joined(separator: ",") + "}"
    }
    let text = Data((lines.joined(separator: "\n") + "\n").utf8)
    let records = try JKDecoder().decodeLines([String: Int].self, from: text)
    #expect(records.count == 70)
    for (index, record) in records.enumerated() {
      #expect(record.count == 1_000)
      #expect(record["r\(index)k999"] == 999)
      #expect(record["r\(index)k0"] == 0)
    }
  }

  @Test("JSONValue streams give each record's own value, across keys that outgrow the key cache")
  func valueStreamsAcrossTheKeyCacheLimit() async throws {
    let lines = (0..<70).map { record in
      "{"
        + (0..<1_000).map { #""v\#(record)k\#($0)":[\#($0),"s\#(record)"]"# }.joined(separator: ",")
        + "}"
    }
    let expected = try lines.map { try JSONValue(parsing: $0) }
    let text = Array((lines.joined(separator: "\n") + "\n").utf8)
    let array = Array(("[" + lines.joined(separator: ",") + "]").utf8)
    let fromLines = await StreamOutcome(JSONValue.lines(from: ChunkedBytes(text, every: 4096)))
    let fromArray = await StreamOutcome(
      JSONValue.arrayElements(from: ChunkedBytes(array, every: 4096)))
    #expect(fromLines.error == nil)
    #expect(fromArray.error == nil)
    #expect(fromLines.elements == expected)
    #expect(fromArray.elements == expected)
  }

  @Test("A sequence reads with the options its decoder had when it was made")
  func optionsAreThoseOfTheSequencesMaking() async throws {
    struct Snake: Decodable, Equatable { let userName: String }
    let decoder = JKDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let text = Array(#"{"user_name":"ada"}"#.utf8) + [0x0A]
    let sequence = decoder.decodeLines(Snake.self, from: ChunkedBytes(text, every: 3))
    decoder.keyDecodingStrategy = .useDefaultKeys
    let outcome = await StreamOutcome(sequence)
    #expect(outcome.error == nil)
    #expect(outcome.elements == [Snake(userName: "ada")])
  }
}
