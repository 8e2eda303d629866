import Foundation
import JSONKit
import JSONKitCorpus
import Testing

/// Writing gzip: `JKEncoder`, `JSONValue`'s writer and the `Any` bridge
/// compress on request into one gzip member that inflates to exactly the
/// text they write without compression.
@Suite("Writing gzip")
struct GzipWritingTests {
  /// Checks that `stream` is one plain gzip member (no optional fields, no
  /// time, deflate) holding `text`.
  private func expectMember(
    _ stream: [UInt8], holding text: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(
      Array(stream.prefix(8)) == [0x1F, 0x8B, 8, 0, 0, 0, 0, 0], sourceLocation: sourceLocation)
    #expect(try GzipStreams.inflate(stream) == text, sourceLocation: sourceLocation)
    let trailer = stream.suffix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    #expect(
      trailer == UInt64(text.count) << 32 | UInt64(GzipStreams.crc32(text)),
      sourceLocation: sourceLocation)
  }

  private func roundTrip<Model: Codable & Equatable>(
    _ type: Model.Type, _ corpus: Corpus, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let model = try JSONDecoder().decode(type, from: Data(try GzipStreams.corpus(corpus)))
    let encoder = JKEncoder()
    let plain = try encoder.encodeToBytes(model)
    encoder.compression = .gzip
    let compressed = try encoder.encode(model)
    #expect(compressed.count < plain.count / 2, sourceLocation: sourceLocation)
    try expectMember([UInt8](compressed), holding: plain, sourceLocation: sourceLocation)
    #expect(try JKDecoder().decode(type, from: compressed) == model, sourceLocation: sourceLocation)
  }

  @Test("The typed corpora encode to gzip and decode back")
  func typedCorporaRoundTrip() throws {
    try roundTrip(Twitter.SearchResult.self, .twitter)
    try roundTrip(CITM.Catalog.self, .citmCatalog)
    try roundTrip(Canada.FeatureCollection.self, .canada)
  }

  @Test("Every corpus writes to gzip from JSONValue and reads back", arguments: Corpus.allCases)
  func everyCorpusRoundTripsAsJSONValue(_ corpus: Corpus) throws {
    let value = try JSONValue(parsing: try GzipStreams.corpus(corpus))
    let plain = try value.jsonBytes(options: .sortedKeys)
    let compressed = try value.jsonBytes(options: .sortedKeys, compression: .gzip(level: 1))
    try expectMember(compressed, holding: plain)
    #expect(try JSONValue(parsing: compressed) == value)
  }

  @Test("Every level from 0 to 9 writes gzip that reads back")
  func everyLevelReadsBack() throws {
    let value = try JSONValue(parsing: try GzipStreams.corpus(.githubEvents))
    let plain = try value.jsonBytes()
    var sizes: [Int] = []
    for level in 0...9 {
      let data = try value.jsonData(compression: .gzip(level: level))
      try expectMember([UInt8](data), holding: plain)
      sizes.append(data.count)
    }
    // Level 0 stores; level 9 is no larger than level 1.
    #expect(sizes[0] > plain.count && sizes[9] <= sizes[1])
    #expect(JKCompression.gzip.gzipLevel == 6 && JKCompression.none.gzipLevel == nil)
  }

  @Test("Every encoder output compresses, appending one member to a buffer")
  func everyEncoderOutputCompresses() throws {
    let encoder = JKEncoder()
    encoder.compression = .gzip
    let value = ["b": [1, 2], "a": [3]]
    encoder.outputFormatting = .sortedKeys
    let text = Array(#"{"a":[3],"b":[1,2]}"#.utf8)
    try expectMember(try encoder.encodeToBytes(value), holding: text)
    try expectMember([UInt8](try encoder.encode(value)), holding: text)
    var buffer: [UInt8] = []
    try encoder.encode(value, appendingTo: &buffer)
    try encoder.encode(value, appendingTo: &buffer)
    #expect(try GzipStreams.inflate(buffer) == text + text)
  }

  @Test("The Any bridge writes gzip on request")
  func theBridgeWritesGzip() throws {
    let data = try JKSerialization.data(
      withJSONObject: ["k": [1, "x"]], options: [], compression: .gzip)
    try expectMember([UInt8](data), holding: Array(#"{"k":[1,"x"]}"#.utf8))
    #expect(try JKSerialization.jsonObject(with: data) is [String: Any])
  }

  @Test("Equal JSON compresses to equal bytes")
  func outputIsDeterministic() throws {
    let value: JSONValue = ["list": [1, 2, 3], "text": "repeat repeat repeat"]
    #expect(try value.jsonBytes(compression: .gzip) == (try value.jsonBytes(compression: .gzip)))
    #expect(try value.jsonData(compression: .gzip) == Data(try value.jsonBytes(compression: .gzip)))
  }

  @Test("An empty text compresses to a member that reads back empty")
  func emptyTextCompresses() throws {
    try expectMember(GzipStreams.member(""), holding: [])
  }

  @Test("An encoding error stays an encoding error when compressing")
  func encodingErrorsStay() {
    let encoder = JKEncoder()
    encoder.compression = .gzip
    #expect(throws: EncodingError.self) { try encoder.encode([Double.nan]) }
  }
}
