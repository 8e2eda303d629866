import Foundation
import JSONKit
import Testing

@Suite("The gzip article's code")
struct GzipArticleTests {
  /// Made per use: a `Data` kept in a static is reported as a leak by
  /// LeakSanitizer when the process exits.
  static var gzipped: Data { Data(GzipStreams.member(#"{"a": 1, "b": 2}"#)) }

  @Test("gzip input is inflated within the limit, or read as text when disabled")
  func reading() throws {
    let gzipped = Self.gzipped
    let decoder = JKDecoder()
    let fromGzip = try decoder.decode([String: Int].self, from: gzipped)  // inflated, then decoded
    decoder.decompression = .gzip(maxInflatedSize: 64 << 20)  // at most 64 MiB of JSON
    decoder.decompression = .disabled  // gzip is "not valid JSON", as in Foundation

    #expect(fromGzip == ["a": 1, "b": 2])
    #expect(JKDecompression.defaultMaxInflatedSize == 1 << 30)
    #expect(throws: DecodingError.self) { try decoder.decode([String: Int].self, from: gzipped) }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([String: Int].self, from: gzipped)
    }
  }

  @Test("Written gzip is one member that reads back, the same bytes every time")
  func writing() throws {
    let encoder = JKEncoder()
    encoder.compression = .gzip  // level 6; .gzip(level: 1) is faster, 9 smallest
    let body = try encoder.encode(["count": 3])
    let bytes = try JSONValue.array([1, 2, 3]).jsonBytes(compression: .gzip(level: 9))

    #expect(try GzipStreams.inflate(Array(body)) == Array(#"{"count":3}"#.utf8))
    #expect(try GzipStreams.inflate(bytes) == Array("[1,2,3]".utf8))
    #expect(try encoder.encode(["count": 3]) == body)
  }

  @Test("A limit smaller than the text stops inflation with an error")
  func limit() throws {
    let gzipped = Self.gzipped
    let limited = Result {
      try JSONValue(parsing: gzipped, decompression: .gzip(maxInflatedSize: 4))
    }
    // limited is a failure: JKParseError of kind .inflatedTooLarge

    guard case .failure(let failure) = limited, let error = failure as? JKParseError else {
      Issue.record("expected an error, got \(limited)")
      return
    }
    #expect(error.kind == .inflatedTooLarge)
    #expect(error.isInCompressedInput)
  }
}
