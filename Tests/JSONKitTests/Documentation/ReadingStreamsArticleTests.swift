import Foundation
import JSONKit
import Testing

@Suite("The Streams article's code")
struct ReadingStreamsArticleTests {
  struct Event: Codable, Equatable {
    var id: Int
    var kind: String
  }

  static let text = "{\"id\": 1, \"kind\": \"open\"}\n{\"id\": 2, \"kind\": \"close\"}\n"
  static let expected = [Event(id: 1, kind: "open"), Event(id: 2, kind: "close")]

  @Test("JSON Lines in memory decode to every record")
  func linesInMemory() throws {
    struct Event: Codable, Equatable {
      var id: Int
      var kind: String
    }
    let data = Data("{\"id\": 1, \"kind\": \"open\"}\n{\"id\": 2, \"kind\": \"close\"}\n".utf8)
    let events: [Event] = try JKDecoder().decodeLines(Event.self, from: data)

    #expect(events.map(\.id) == [1, 2])
    #expect(events.map(\.kind) == ["open", "close"])
  }

  @Test("JSON Lines and array elements arrive one at a time from chunks cut anywhere")
  func asyncSources() async throws {
    let chunks = ChunkedBytes(Array(Self.text.utf8), every: 5)
    let arrayChunks = ChunkedBytes(
      Array(#"[{"id": 1, "kind": "open"}, {"id": 2, "kind": "close"}]"#.utf8), every: 3)

    let decoder = JKDecoder()
    var received: [Event] = []
    for try await event in decoder.decodeLines(Event.self, from: chunks) {
      received.append(event)
    }

    var elements: [Event] = []
    for try await event in decoder.decodeArrayElements(Event.self, from: arrayChunks) {
      elements.append(event)
    }

    #expect(received == Self.expected)
    #expect(elements == Self.expected)
    var values: [JSONValue] = []
    for try await value in JSONValue.lines(from: chunks) {
      values.append(value)
    }
    #expect(values.map { $0["kind"] } == ["open", "close"])
  }

  @Test("Writing JSON Lines puts each value on its own line")
  func writing() throws {
    let events = Self.expected
    let lines = try JKEncoder().encodeLines(events)
    // {"id":1,"kind":"open"}
    // {"id":2,"kind":"close"}

    #expect(
      String(decoding: lines, as: UTF8.self)
        == "{\"id\":1,\"kind\":\"open\"}\n{\"id\":2,\"kind\":\"close\"}\n")
    let pretty = JKEncoder()
    pretty.outputFormatting = .prettyPrinted
    #expect(throws: EncodingError.self) { try pretty.encodeLines(Self.expected) }
  }
}
