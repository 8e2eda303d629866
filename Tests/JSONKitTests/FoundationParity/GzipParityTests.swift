import Foundation
import JSONKit
import Testing

/// gzip input: Foundation has no gzip, so `JSONDecoder` rejects it as data
/// that is not JSON. `JKDecoder` with recognition off does the same; by
/// default it inflates it, the documented difference.
extension FoundationParityTests {
  /// The error case and coding path a decode of `data` throws, or nil.
  private func corruptedPath(_ body: () throws -> Void) -> ParityPath? {
    do {
      try body()
    } catch DecodingError.dataCorrupted(let context) {
      return ParityPath(context.codingPath)
    } catch {
      Issue.record("expected dataCorrupted, got \(error)")
    }
    return nil
  }

  @Test("gzip is not JSON to JSONDecoder, nor to JKDecoder with recognition off")
  func gzipIsNotJSONWithRecognitionOff() throws {
    let data = Data(GzipStreams.member(#"{"a": [1, 2]}"#))
    let decoder = JKDecoder()
    decoder.decompression = .disabled
    let foundation = corruptedPath {
      _ = try JSONDecoder().decode([String: [Int]].self, from: data)
    }
    let jsonKit = corruptedPath { _ = try decoder.decode([String: [Int]].self, from: data) }
    #expect(foundation != nil && foundation == jsonKit)
    #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: data) }
    #expect(throws: JKParseError.self) {
      try JKSerialization.jsonObject(with: data, decompression: .disabled)
    }
  }

  @Test("By default JKDecoder reads gzip as the JSON that JSONDecoder reads once inflated")
  func gzipIsReadAsItsJSONByDefault() throws {
    let text = #"{"a": [1, 2], "b": {"c": "d"}}"#
    let data = Data(GzipStreams.member(text))
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(Nested.self, from: data) }
    #expect(
      try JKDecoder().decode(Nested.self, from: data)
        == (try JSONDecoder().decode(Nested.self, from: Data(text.utf8))))
  }
}

private struct Nested: Decodable, Equatable {
  var a: [Int]
  var b: [String: String]
}
