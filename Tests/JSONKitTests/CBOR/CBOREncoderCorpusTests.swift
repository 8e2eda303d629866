import Foundation
import JSONKit
import JSONKitCorpus
import Testing

/// The corpus models, encoded as CBOR, against what JKEncoder writes for
/// them as JSON converted to CBOR.
@Suite("CBOR encoder: corpus models against JKEncoder")
struct CBOREncoderCorpusTests {
  @Test("Twitter, citm_catalog and canada encode as their JSON converts")
  func corpusModels() throws {
    let directory = try #require(Corpus.dataDirectory(nearSourceFile: #filePath))
    let decoder = JKDecoder()
    let twitter = try decoder.decode(
      Twitter.SearchResult.self, from: Corpus.twitter.data(in: directory))
    let catalog = try decoder.decode(
      CITM.Catalog.self, from: Corpus.citmCatalog.data(in: directory))
    let canada = try decoder.decode(
      Canada.FeatureCollection.self, from: Corpus.canada.data(in: directory))
    try expectSame(twitter)
    try expectSame(catalog)
    try expectSame(canada)
  }

  @Test("Under .convertToSnakeCase, keys convert as JKEncoder converts them")
  func snakeCaseCorpus() throws {
    let directory = try #require(Corpus.dataDirectory(nearSourceFile: #filePath))
    let catalog = try JKDecoder().decode(
      CITM.Catalog.self, from: Corpus.citmCatalog.data(in: directory))
    let encoder = JKCBOREncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    let json = JKEncoder()
    json.keyEncodingStrategy = .convertToSnakeCase
    let (ours, theirs) = try CBOREncoding.ourAndJSONs(catalog, encoder, json)
    #expect(ours.count == theirs.count)
    #expect(ours.elementsEqual(theirs))
  }

  @Test("Generated Codable models encode as their JSON converts", arguments: [1, 2, 3] as [UInt64])
  func generatedModels(seed: UInt64) throws {
    var generator = OracleGenerator(seed: seed)
    for index in 0..<150 {
      let schema =
        generator.chance(80)
        ? generator.object(depth: 3, level: 0) : generator.schema(depth: 3, level: 0)
      let value = generator.value(for: schema, strict: false)
      let instance = OracleInstance(value: value, schema: schema)
      let json: [UInt8]
      do {
        json = try JKEncoder().encodeToBytes(instance)
      } catch {
        // What JSON refuses (NaN, a value that encodes nothing at the top)
        // is no oracle; CBOR must still write well-formed bytes or throw.
        if let bytes = try? JKCBOREncoder().encodeToBytes(instance) {
          _ = try CBORValue(cbor: bytes)
        }
        continue
      }
      _ = json
      let (ours, theirs) = try CBOREncoding.ourAndJSONs(instance, singleFloats: true)
      #expect(ours == theirs, "seed \(seed) case \(index)\nschema: \(schema)\nvalue: \(value)")
    }
  }

  private func expectSame<T: Encodable>(_ model: T) throws {
    let bytes = try JKCBOREncoder().encodeToBytes(model)
    _ = try CBORValue(cbor: bytes)
    let (ours, expected) = try CBOREncoding.ourAndJSONs(model)
    let difference =
      ours.indices.first { $0 >= expected.count || ours[$0] != expected[$0] } ?? ours.count
    let near = CBORBytes.hex(
      Array(ours[max(0, difference - 24)..<min(ours.count, difference + 24)]))
    let theirs = CBORBytes.hex(
      Array(expected[max(0, difference - 24)..<min(expected.count, difference + 24)]))
    #expect(ours == expected, "\(T.self) differs at \(difference): \(near) against \(theirs)")
    #expect(Data(bytes) == (try JKCBOREncoder().encode(model)), "\(T.self)")
    var appended: [UInt8] = [7]
    try JKCBOREncoder().encode(model, appendingTo: &appended)
    #expect(appended.elementsEqual([7] + bytes), "\(T.self)")
  }
}
