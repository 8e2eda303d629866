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
