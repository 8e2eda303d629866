import Foundation
import JSONKit
import Testing

/// JSON Lines decoded by JSONKit, whole and streamed, against the text
/// split into lines and each line decoded by Foundation's `JSONDecoder`.
extension FoundationParityTests {
  private struct Status: Codable, Equatable {
    var id: Int
    var text: String
    var user: User?
    var retweets: [Int]

    struct User: Codable, Equatable {
      var name: String
      var followers: UInt64
    }
  }

  /// Foundation line by line: split at `\n`, skip blank lines, decode each.
  private func foundationLines(_ data: Data) throws -> [Status] {
    try data.split(separator: 0x0A, omittingEmptySubsequences: false)
      .filter { line in !line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }
      .map { try JSONDecoder().decode(Status.self, from: Data($0)) }
  }

  @Test("JSON Lines decode as Foundation decodes each line")
  func jsonLinesMatchFoundationLineByLine() async throws {
    var lines: [String] = []
    var generator = SplitMix64(seed: 7)
    for id in 0..<200 {
      let user =
        generator.next() % 3 == 0
        ? "null" : #"{"name":"u\u00e9\#(id) 😀","followers":\#(generator.next())}"#
      let text = ["plain", "esc\\\"aped\\n", "日本語", "\\ud83d\\ude00"][id % 4]
      let retweets = (0..<Int(generator.next() % 4)).map { _ in String(generator.next() % 1000) }
      lines.append(
        #"{"id":\#(id),"text":"\#(text)","user":\#(user),"retweets":[\#(retweets.joined(separator: ","))]}"#
      )
      if id % 17 == 0 { lines.append("  ") }
    }
    let data = Data((lines.joined(separator: "\r\n") + "\n").utf8)
    let expected = try foundationLines(data)
    #expect(expected.count == 200)
    #expect(try JKDecoder().decodeLines(Status.self, from: data) == expected)
    let streamed = await StreamOutcome(
      JKDecoder().decodeLines(Status.self, from: ChunkedBytes(Array(data), every: 4096)))
    #expect(streamed.error == nil)
    #expect(streamed.elements == expected)
  }

  @Test("A JSON Lines model error has Foundation's case and coding path for that line")
  func jsonLinesModelErrorMatchesFoundation() throws {
    let data = Data(
      (#"{"id":1,"text":"a","retweets":[]}"# + "\n"
        + #"{"id":2,"text":"b","user":{"name":"n","followers":"many"},"retweets":[]}"# + "\n").utf8)
    let foundation = #expect(throws: DecodingError.self) { try foundationLines(data) }
    let jsonKit = #expect(throws: DecodingError.self) {
      try JKDecoder().decodeLines(Status.self, from: data)
    }
    guard case .typeMismatch(_, let foundationContext) = foundation,
      case .typeMismatch(_, let context) = jsonKit
    else {
      Issue.record("expected typeMismatch from both: \(String(describing: jsonKit))")
      return
    }
    #expect(ParityPath(context.codingPath) == ParityPath(foundationContext.codingPath))
    #expect(context.debugDescription.contains("line 2"))
  }
}
