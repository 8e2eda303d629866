import Foundation
import JSONKit
import Testing

/// Corrupt gzip: a truncated, damaged or lying stream, or bytes after its
/// last member, is an error that says what and at which compressed byte,
/// never a value.
@Suite("Corrupt gzip streams")
struct GzipCorruptStreamTests {
  private let text = #"{"name": "gzip", "values": [1, 2, 3, 4.5], "nested": {"ok": true}}"#

  /// The error reading `stream` gives, which must be one in compressed input.
  private func compressedError(
    _ stream: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
  ) -> JKParseError? {
    let error = #expect(throws: JKParseError.self, sourceLocation: sourceLocation) {
      try JSONValue(parsing: stream)
    }
    #expect(error?.isInCompressedInput == true, sourceLocation: sourceLocation)
    #expect(error.map { $0.line == 0 && $0.column == 0 } == true, sourceLocation: sourceLocation)
    return error
  }

  @Test("Every truncation is an error at or before where the stream stops")
  func everyTruncationIsAnError() {
    let stream = GzipStreams.member(text)
    for length in 2..<stream.count {
      let error = compressedError(Array(stream.prefix(length)))
      #expect(error?.kind == .invalidGzip)
      #expect(
        error.map { $0.offset <= length } == true, "length \(length): \(String(describing: error))")
    }
  }

  @Test("A CRC-32 that does not match the data is an error at the trailer")
  func aLyingCRCIsAnError() {
    var stream = GzipStreams.member(text)
    stream[stream.count - 8] ^= 0x01
    let error = compressedError(stream)
    #expect(error?.kind == .invalidGzip && error?.offset == stream.count - 8)
    #expect(error?.message.contains("CRC-32") == true)
  }

  @Test("A length field that does not match the data is an error, however small or large it claims")
  func aLyingLengthIsAnError() {
    let stream = GzipStreams.member(text)
    for claimed: UInt32 in [0, UInt32(text.utf8.count - 1), UInt32(text.utf8.count + 1), .max] {
      var lying = stream
      for index in 0..<4 {
        lying[stream.count - 4 + index] = UInt8(truncatingIfNeeded: claimed >> (8 * index))
      }
      let error = compressedError(lying)
      #expect(error?.kind == .invalidGzip && error?.offset == stream.count - 4)
      #expect(error?.message.contains("length") == true)
    }
  }

  @Test("Bytes after the last member are an error where they begin")
  func trailingBytesAreAnError() {
    let stream = GzipStreams.member(text)
    for tail: [UInt8] in [[0x0A], [0], [0, 0, 0, 0], Array(" [1]".utf8), [0x1F]] {
      let error = compressedError(stream + tail)
      #expect(error?.kind == .invalidGzip && error?.offset == stream.count, "tail \(tail)")
    }
    // Something that starts like another member is read as one, and fails as one.
    let error = compressedError(stream + [0x1F, 0x8B, 8, 0])
    #expect(error?.kind == .invalidGzip && error?.offset == stream.count + 4)
  }

  @Test("A damaged second member is an error inside it")
  func aDamagedSecondMemberIsAnError() {
    let first = GzipStreams.member("[1,")
    var second = GzipStreams.member("2]")
    second[second.count - 5] ^= 0xFF
    let error = compressedError(first + second)
    #expect(error.map { $0.offset >= first.count } == true)
  }

  @Test("A bad header is an error at the field that is wrong")
  func badHeadersAreErrors() {
    let member = GzipStreams.member(text)
    var method = member
    method[2] = 7
    #expect(compressedError(method)?.offset == 2)
    var reserved = member
    reserved[3] = 0x20
    #expect(compressedError(reserved)?.offset == 3)
    var headerCRC = GzipStreams.withHeaderFields(member, flags: GzipStreams.headerCRC)
    headerCRC[10] ^= 0x01
    #expect(compressedError(headerCRC)?.offset == 10)
    let unterminatedName = Array(member.prefix(10)) + Array("name".utf8)
    var named = unterminatedName
    named[3] = GzipStreams.name
    #expect(compressedError(named)?.offset == named.count)
    var extra = Array(member.prefix(10)) + [200, 0, 1, 2]
    extra[3] = GzipStreams.extra
    #expect(compressedError(extra)?.offset == extra.count)
  }

  @Test("Damage anywhere in the compressed data is an error or leaves the value as it was")
  func damageIsNeverAWrongValue() throws {
    let stream = GzipStreams.member(text)
    let expected = try JSONValue(parsing: text)
    for index in 10..<stream.count {
      for flip: UInt8 in [0x01, 0x80, 0xFF] {
        var damaged = stream
        damaged[index] ^= flip
        // Unused padding bits after the final block change nothing.
        if let value = try? JSONValue(parsing: damaged) {
          #expect(value == expected, "byte \(index) ^ \(flip)")
        }
      }
    }
  }

  @Test("JKDecoder reports corrupt gzip as dataCorrupted with the parse error underneath")
  func decoderReportsDataCorrupted() throws {
    var stream = GzipStreams.member(text)
    stream[stream.count - 8] ^= 0x01
    let error = try #require(throws: DecodingError.self) {
      try JKDecoder().decode([String: JSONValue].self, from: stream)
    }
    guard case .dataCorrupted(let context) = error else {
      Issue.record("expected dataCorrupted, got \(error)")
      return
    }
    #expect(context.codingPath.isEmpty)
    #expect(context.debugDescription.contains("not valid gzip-compressed JSON"))
    #expect(context.debugDescription.contains("compressed byte offset \(stream.count - 8)"))
    #expect((context.underlyingError as? JKParseError)?.kind == .invalidGzip)
    #expect(throws: JKParseError.self) { try JKSerialization.jsonObject(with: Data(stream)) }
    #expect(throws: JKParseError.self) { try JSONValue.validate(stream) }
  }
}
