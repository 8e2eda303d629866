import Foundation
import JSONKit
import JSONKitCorpus
import Testing

/// Reading gzip: every reader inflates input that begins with gzip's
/// signature, as gzip(1) and Python write it, member after member, whatever
/// optional header fields it carries; with recognition off it is not JSON.
@Suite("Reading gzip")
struct GzipReadingTests {
  @Test(
    "Files written by gzip(1) and Python read as the corpus they compress",
    arguments: [
      ("citm_catalog.json.gz", Corpus.citmCatalog), ("twitter.json.gz", .twitter),
      ("github_events.multimember.json.gz", .githubEvents),
    ])
  func fixturesReadAsTheirCorpus(_ file: String, _ corpus: Corpus) throws {
    let compressed = try GzipStreams.fixture(file)
    let plain = try GzipStreams.corpus(corpus)
    #expect(try GzipStreams.inflate(compressed) == plain)
    let expected = try JSONValue(parsing: plain)
    #expect(try JSONValue(parsing: compressed) == expected)
    #expect(try JSONValue(parsing: Data(compressed)) == expected)
    #expect(try compressed.withUnsafeBytes { try JSONValue(parsing: $0) } == expected)
    #expect(try JKDecoder().decode(JSONValue.self, from: compressed) == expected)
    let object = try JKSerialization.jsonObject(with: Data(compressed))
    #expect(try JSONValue(foundationObject: object) == expected)
    try JSONValue.validate(compressed)
  }

  @Test("The typed corpora decode from gzip as Foundation decodes their plain text")
  func typedCorporaDecodeAsFoundationDecodesThem() throws {
    let twitter = try GzipStreams.fixture("twitter.json.gz")
    #expect(
      try JKDecoder().decode(Twitter.SearchResult.self, from: Data(twitter))
        == (try JSONDecoder().decode(
          Twitter.SearchResult.self, from: Data(try GzipStreams.corpus(.twitter)))))
    let citm = try GzipStreams.fixture("citm_catalog.json.gz")
    #expect(
      try JKDecoder().decode(CITM.Catalog.self, from: citm)
        == (try JSONDecoder().decode(
          CITM.Catalog.self, from: Data(try GzipStreams.corpus(.citmCatalog)))))
  }

  @Test("Every JKDecoder entry point inflates gzip")
  func everyDecoderEntryPointInflates() throws {
    let stream = GzipStreams.member(#"{"id": 7, "tags": ["a", "b"]}"#)
    let expected = Tagged(id: 7, tags: ["a", "b"])
    let decoder = JKDecoder()
    #expect(try decoder.decode(Tagged.self, from: stream) == expected)
    #expect(try decoder.decode(Tagged.self, from: Data(stream)) == expected)
    #expect(try stream.withUnsafeBytes { try decoder.decode(Tagged.self, from: $0) } == expected)
    #expect(
      try decoder.decode(Tagged.self, from: Data(stream), configuration: Tagged.Prefix(text: "x"))
        == Tagged(id: 7, tags: ["xa", "xb"]))
  }

  @Test("Concatenated members read as one text, even when a token spans two")
  func concatenatedMembersReadAsOneText() throws {
    let pieces = [#"{"ab"#, "", #"c": 12"#, #"3, "d": [tr"#, "ue]}"]
    let stream = pieces.flatMap { GzipStreams.member($0) }
    #expect(try JSONValue(parsing: stream) == ["abc": 123, "d": [true]])
    #expect(try JKDecoder().decode([String: JSONValue].self, from: stream)["abc"] == 123)
    #expect(try GzipStreams.inflate(stream) == Array(pieces.joined().utf8))
  }

  @Test("Optional header fields (extra, name, comment, header CRC) are read past")
  func headerFieldsAreReadPast() throws {
    let member = GzipStreams.member("[1, 2.5, \"three\"]")
    for flags in UInt8(0)..<32 where flags & 1 == 0 {
      let stream = GzipStreams.withHeaderFields(member, flags: flags)
      #expect(try JSONValue(parsing: stream) == [1, 2.5, "three"], "flags \(flags)")
    }
    // The FTEXT hint changes nothing.
    var text = member
    text[3] = 0x01
    #expect(try JSONValue(parsing: text) == [1, 2.5, "three"])
  }

  @Test("An error in the JSON inside says where in the inflated text")
  func errorsInsideSayWhereInTheText() throws {
    let stream = GzipStreams.member("{\"a\": 1,\n \"b\": tru}")
    let error = try #require(throws: JKParseError.self) { try JSONValue(parsing: stream) }
    #expect(error.kind == .invalidLiteral)
    #expect((error.line, error.column, error.offset) == (2, 7, 15))
    #expect(!error.isInCompressedInput)
    #expect(error.description.contains("around line 2, column 7"))
  }

  @Test("With recognition off, gzip is not JSON, as for any reader without gzip")
  func recognitionOffMakesGzipNotJSON() throws {
    let stream = GzipStreams.member("[1]")
    let error = try #require(throws: JKParseError.self) {
      try JSONValue(parsing: stream, decompression: .disabled)
    }
    #expect(error.kind == .unexpectedCharacter && error.offset == 0 && error.line == 1)
    #expect(throws: JKParseError.self) {
      try JSONValue.validate(stream, decompression: .disabled)
    }
    #expect(throws: JKParseError.self) {
      try JKSerialization.jsonObject(with: Data(stream), decompression: .disabled)
    }
    let decoder = JKDecoder()
    decoder.decompression = .disabled
    let decodingError = try #require(throws: DecodingError.self) {
      try decoder.decode([Int].self, from: stream)
    }
    guard case .dataCorrupted(let context) = decodingError else {
      Issue.record("expected dataCorrupted, got \(decodingError)")
      return
    }
    #expect(context.debugDescription.hasPrefix("The given data was not valid JSON."))
    #expect((context.underlyingError as? JKParseError)?.kind == .unexpectedCharacter)
  }

  @Test("A lone 1F byte, or 1F not followed by 8B, is still a syntax error")
  func halfASignatureIsNotGzip() {
    for bytes: [UInt8] in [[0x1F], [0x1F, 0x8A], [0x20, 0x1F, 0x8B]] {
      let error = #expect(throws: JKParseError.self) { try JSONValue(parsing: bytes) }
      #expect(error?.isInCompressedInput == false)
    }
  }

  @Test("Text is never taken for gzip: its signature is not UTF-8")
  func textIsNeverGzip() {
    let text = String(decoding: [0x1F, 0x8B, 0x08], as: UTF8.self)
    let error = #expect(throws: JKParseError.self) { try JSONValue(parsing: text) }
    #expect(error?.kind == .unexpectedCharacter)
  }
}

/// A small model decoded from gzip, with a configuration that prefixes its tags.
private struct Tagged: Decodable, DecodableWithConfiguration, Equatable {
  struct Prefix {
    var text: String
  }

  var id: Int
  var tags: [String]

  init(id: Int, tags: [String]) {
    self.id = id
    self.tags = tags
  }

  init(from decoder: any Decoder, configuration: Prefix) throws {
    let plain = try Tagged(from: decoder)
    self.init(id: plain.id, tags: plain.tags.map { configuration.text + $0 })
  }
}
