import Foundation
import JSONKit
import Testing

@Suite("The Switching from Foundation article's code")
struct SwitchingFromFoundationArticleTests {
  struct Event: Codable, Equatable {
    var eventName: String
    var startsAt: Date
  }

  @Test("After the rename, decoding and encoding give what Foundation gives")
  func rename() throws {
    let data = Data(#"{"event_name": "launch", "starts_at": 1700000000}"#.utf8)

    let decoder = JKDecoder()  // was: JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .secondsSince1970
    let event = try decoder.decode(Event.self, from: data)

    let encoder = JKEncoder()  // was: JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.dateEncodingStrategy = .secondsSince1970
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let bytes = try encoder.encode(event)  // the bytes JSONEncoder writes

    let foundationDecoder = JSONDecoder()
    foundationDecoder.keyDecodingStrategy = .convertFromSnakeCase
    foundationDecoder.dateDecodingStrategy = .secondsSince1970
    #expect(try foundationDecoder.decode(Event.self, from: data) == event)
    #expect(
      event == Event(eventName: "launch", startsAt: Date(timeIntervalSince1970: 1_700_000_000)))
    let foundationEncoder = JSONEncoder()
    foundationEncoder.keyEncodingStrategy = .convertToSnakeCase
    foundationEncoder.dateEncodingStrategy = .secondsSince1970
    foundationEncoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    #expect(try foundationEncoder.encode(event) == bytes)
  }

  @Test("Unknown keys refused on request, and decoding at a JSON Pointer")
  func unknownKeysAndPointers() throws {
    struct Item: Decodable {
      var id: Int
      var name: String
    }
    let decoder = JKDecoder()
    decoder.unknownKeyStrategy = .reject
    let json = #"{"data": {"items": [{"id": 1, "name": "a"}]}, "meta": {"page": 1}}"#
    let items = try decoder.decode([Item].self, from: json, at: "/data/items")
    // one Item; "meta" is validated, but neither decoded nor checked for unknown keys
    let misspelled = #"{"data": {"items": [{"id": 1, "nmae": "a", "name": "a"}]}}"#
    let refused = Result { try decoder.decode([Item].self, from: misspelled, at: "/data/items") }
    // refused is a failure: Unknown key "nmae" at the coding path data.items[0]

    #expect(items.map(\.id) == [1])
    #expect(JKDecoder().unknownKeyStrategy == .ignore)
    guard case .failure(DecodingError.dataCorrupted(let context)) = refused else {
      Issue.record("expected dataCorrupted, got \(refused)")
      return
    }
    #expect(context.debugDescription.hasPrefix("Unknown key \"nmae\""))
    #expect(
      context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == [
        "data", "items", "0",
      ])
  }

  @Test("A trailing comma needs the option, which Foundation does not ask for")
  func trailingComma() throws {
    let decoder = JKDecoder()
    let strict = Result { try decoder.decode([Int].self, from: Data("[1, 2,]".utf8)) }
    // strict is a failure, whose error names the option .trailingCommas
    decoder.parseOptions = .trailingCommas
    let relaxed = try decoder.decode([Int].self, from: Data("[1, 2,]".utf8))  // [1, 2]

    guard case .failure(DecodingError.dataCorrupted(let context)) = strict else {
      Issue.record("expected dataCorrupted, got \(strict)")
      return
    }
    let underlying = try #require(context.underlyingError as? JKParseError)
    #expect(underlying.description.hasPrefix("A trailing comma before ']'"))
    #expect(underlying.description.contains("parseOptions: .trailingCommas"))
    #expect(relaxed == [1, 2])
    #expect(try JSONDecoder().decode([Int].self, from: Data("[1, 2,]".utf8)) == [1, 2])
  }
}
