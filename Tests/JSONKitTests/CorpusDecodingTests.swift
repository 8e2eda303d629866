import Foundation
import JSONKit
import JSONKitCorpus
import Testing

/// The benchmark corpora decoded by JKDecoder: the typed models equal what
/// Foundation's JSONDecoder makes of them, and the untyped `JSONValue` equals
/// what JSONKit's own parser makes.
@Suite("Corpus decoding")
struct CorpusDecodingTests {
  private func bytes(_ corpus: Corpus) throws -> Data {
    try corpus.data(in: try #require(Corpus.dataDirectory(nearSourceFile: #filePath)))
  }

  /// Decodes `corpus` as `type` with both decoders, and with JKDecoder from
  /// every kind of input and a second time from its key cache.
  private func expectSameModel<Model: Decodable & Equatable>(
    _ type: Model.Type, _ corpus: Corpus,
    keys: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let data = try bytes(corpus)
    let foundation = JSONDecoder()
    foundation.keyDecodingStrategy = keys
    let expected = try foundation.decode(type, from: data)
    let decoder = JKDecoder()
    decoder.keyDecodingStrategy = keys
    #expect(try decoder.decode(type, from: data) == expected, sourceLocation: sourceLocation)
    #expect(try decoder.decode(type, from: data) == expected, sourceLocation: sourceLocation)
    #expect(
      try decoder.decode(type, from: [UInt8](data)) == expected, sourceLocation: sourceLocation)
    #expect(
      try decoder.decode(type, from: String(decoding: data, as: UTF8.self)) == expected,
      sourceLocation: sourceLocation)
    let fromBuffer = try data.withUnsafeBytes { try decoder.decode(type, from: $0) }
    #expect(fromBuffer == expected, sourceLocation: sourceLocation)
  }

  @Test func twitter() throws {
    try expectSameModel(Twitter.SearchResult.self, .twitter)
  }

  @Test func twitterFromSnakeCase() throws {
    try expectSameModel(
      TwitterFromSnakeCase.SearchResult.self, .twitter, keys: .convertFromSnakeCase)
  }

  @Test func citmCatalog() throws {
    try expectSameModel(CITM.Catalog.self, .citmCatalog)
    try expectSameModel(CITM.Catalog.self, .citmCatalog, keys: .convertFromSnakeCase)
  }

  @Test func canada() throws {
    try expectSameModel(Canada.FeatureCollection.self, .canada)
  }

  /// The members of a top-level object, each decoded as a `JSONValue`.
  struct Members: Decodable {
    var members: [String: JSONValue]
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: OracleKey.self)
      members = [:]
      for key in container.allKeys {
        members[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
      }
    }
  }

  @Test(arguments: [Corpus.twitter, .citmCatalog, .canada])
  func untypedValues(_ corpus: Corpus) throws {
    let data = try bytes(corpus)
    let parsed = try JSONValue(parsing: data)
    #expect(try JKDecoder().decode(JSONValue.self, from: data) == parsed)
    // Below the root too, where the decoder starts from a member.
    guard case .object(let object) = parsed else {
      Issue.record("\(corpus.fileName) is not an object")
      return
    }
    let members = try JKDecoder().decode(Members.self, from: data).members
    #expect(members.count == object.count)
    for member in object {
      #expect(members[member.key] == member.value, "\(member.key)")
    }
  }
}
