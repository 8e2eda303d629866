import Foundation
import Testing

@testable import JSONKit

/// The inflated size limit: a small stream that inflates to a lot stops at
/// the limit, using no more memory than it; the limit counts every member.
@Suite("Inflated size limit")
struct GzipSizeLimitTests {
  /// 16 MiB of JSON (an array and spaces) in about 16 KiB of gzip.
  private static let bomb: [UInt8] = {
    var text = [UInt8](repeating: 0x20, count: 16 << 20)
    text[0] = UInt8(ascii: "[")
    text[text.count - 1] = UInt8(ascii: "]")
    return GzipStreams.member(text, level: 9)
  }()

  @Test("A decompression bomb stops with an error at the limit")
  func aBombStopsAtTheLimit() throws {
    #expect(Self.bomb.count < 32 << 10)
    let limit = 1 << 20
    let error = try #require(throws: JKParseError.self) {
      try JSONValue(parsing: Self.bomb, decompression: .gzip(maxInflatedSize: limit))
    }
    #expect(error.kind == .inflatedTooLarge && error.isInCompressedInput)
    #expect(error.offset > 0 && error.offset < Self.bomb.count)
    #expect(error.message.contains("\(limit) bytes"))
    let decoder = JKDecoder()
    decoder.decompression = .gzip(maxInflatedSize: limit)
    let decodingError = try #require(throws: DecodingError.self) {
      try decoder.decode([Int].self, from: Self.bomb)
    }
    guard case .dataCorrupted(let context) = decodingError else {
      Issue.record("expected dataCorrupted, got \(decodingError)")
      return
    }
    #expect((context.underlyingError as? JKParseError)?.kind == .inflatedTooLarge)
  }

  @Test("Under the default limit the bomb is read, as the JSON it is")
  func theDefaultLimitReadsLargeText() throws {
    #expect(try JSONValue(parsing: Self.bomb) == [])
  }

  @Test("Text exactly at the limit is read; one byte more is an error")
  func theLimitIsExact() throws {
    let text = Array(("[\"" + String(repeating: "x", count: 1000) + "\"]").utf8)
    let stream = GzipStreams.member(text)
    #expect(try GzipStreams.inflate(stream, limit: text.count) == Array(text))
    let error = try #require(throws: JKParseError.self) {
      try GzipStreams.inflate(stream, limit: text.count - 1)
    }
    #expect(error.kind == .inflatedTooLarge)
    #expect(
      try JSONValue(parsing: stream, decompression: .gzip(maxInflatedSize: text.count))
        == (try JSONValue(parsing: text)))
  }

  @Test("The limit counts the text of every member together")
  func theLimitCountsEveryMember() {
    let member = GzipStreams.member("[" + String(repeating: " ", count: 598) + "]")
    let stream = member + member
    #expect(throws: JKParseError.self) {
      try GzipStreams.inflate(stream, limit: 1000)
    }
    #expect((try? GzipStreams.inflate(stream, limit: 1200))?.count == 1200)
  }

  @Test("A zero or negative limit admits only empty members")
  func aZeroLimitAdmitsOnlyEmptyMembers() throws {
    #expect(try GzipStreams.inflate(GzipStreams.member(""), limit: 0) == [])
    let error = #expect(throws: JKParseError.self) {
      try JSONValue(parsing: GzipStreams.member("[]"), decompression: .gzip(maxInflatedSize: -5))
    }
    #expect(error?.kind == .inflatedTooLarge)
  }

  @Test("Memory grows with the text inflated, never to the limit up front, never past it")
  func memoryFollowsTheText() throws {
    let small = GzipStreams.member("[1, 2, 3]")
    try small.withUnsafeBytes { bytes in
      let text = try GzipReader.inflate(bytes, limit: 1 << 30)
      defer { text.deallocate() }
      #expect(text.capacity <= 64 << 10)
    }
    let large = GzipStreams.member([UInt8](repeating: 0x20, count: 300_000))
    try large.withUnsafeBytes { bytes in
      let text = try GzipReader.inflate(bytes, limit: 300_000)
      defer { text.deallocate() }
      #expect(text.count == 300_000 && text.capacity <= 300_001)
    }
  }
}
