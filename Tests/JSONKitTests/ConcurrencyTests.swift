import Foundation
import JSONKit
import JSONKitCorpus
import Testing

/// One `JKDecoder` and one `JKEncoder` shared by many concurrent tasks give
/// the answers serial use gives, errors included, while their caches fill,
/// empty and refill. (Run under ThreadSanitizer by the CI script.)
@Suite("Concurrency")
struct ConcurrencyTests {
  /// Documents with many distinct keys (so that the decoder's key cache and
  /// its snake_case conversions grow as tasks race), and some that are not
  /// JSON or do not fit the model.
  private static func documents() throws -> [Data] {
    var generator = JSONValueGenerator(seed: 0xC0C0)
    let encoder = JKEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    var documents: [Data] = []
    for index in 0..<24 {
      let model = PropertyModel.random(using: &generator, depth: 1).withoutUntypedValues()
      encoder.outputFormatting = index % 2 == 0 ? [] : [.prettyPrinted, .sortedKeys]
      documents.append(try encoder.encode(model))
    }
    documents += [
      Data(#"{"id":1,"small":300}"#.utf8), Data("[1,".utf8), Data(#"{"id":"x"}"#.utf8),
      Data([0x7B, 0xFF, 0x7D]), Data(),
    ]
    let directory = try #require(Corpus.dataDirectory(nearSourceFile: #filePath))
    documents.append(try Corpus.twitter.data(in: directory))
    return documents
  }

  /// What one decode gives: the value (as JSON text) or the error.
  private static func outcome(_ decoder: JKDecoder, _ data: Data) -> String {
    do {
      if data.count > 100_000 {
        let result = try decoder.decode(TwitterFromSnakeCase.SearchResult.self, from: data)
        return "\(result.statuses.count) \(result.statuses.last?.user.screenName ?? "")"
      }
      let model = try decoder.decode(PropertyModel.self, from: data)
      // Sorted, since dictionaries with equal contents may iterate in
      // different orders.
      let encoder = JKEncoder()
      encoder.outputFormatting = .sortedKeys
      encoder.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
      return String(decoding: try encoder.encode(model), as: UTF8.self)
    } catch {
      return "\(error)"
    }
  }

  private static func decoder() -> JKDecoder {
    let decoder = JKDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return decoder
  }

  @Test func oneDecoderSharedByManyTasks() async throws {
    let documents = try Self.documents()
    let serial = documents.map { Self.outcome(Self.decoder(), $0) }
    let shared = Self.decoder()
    let results = await withTaskGroup(of: [(Int, String)].self) { group in
      for task in 0..<12 {
        group.addTask {
          var results: [(Int, String)] = []
          for step in 0..<documents.count * 2 {
            // Each task visits the documents in its own order.
            let index = (step * (task + 1) + task) % documents.count
            results.append((index, Self.outcome(shared, documents[index])))
            if task == 0, step % 7 == 0 { shared.clearCache() }
          }
          return results
        }
      }
      var all: [(Int, String)] = []
      for await results in group { all += results }
      return all
    }
    #expect(results.count == 12 * documents.count * 2)
    for (index, outcome) in results {
      #expect(outcome == serial[index], "document \(index)")
    }
  }

  @Test func oneEncoderSharedByManyTasks() async throws {
    var generator = JSONValueGenerator(seed: 0xE0C0)
    let models = (0..<32).map { _ in PropertyModel.random(using: &generator, depth: 1) }
    let shared = JKEncoder()
    shared.outputFormatting = [.prettyPrinted, .sortedKeys]
    shared.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    let serial = try models.map { try shared.encode($0) }
    let results = try await withThrowingTaskGroup(of: [(Int, Data)].self) { group in
      for task in 0..<12 {
        group.addTask {
          try (0..<models.count * 2).map { step in
            let index = (step * (task + 1) + task) % models.count
            return (index, try shared.encode(models[index]))
          }
        }
      }
      var all: [(Int, Data)] = []
      for try await results in group { all += results }
      return all
    }
    #expect(results.count == 12 * models.count * 2)
    for (index, data) in results {
      #expect(data == serial[index], "model \(index)")
    }
  }

  /// `JSONValue` parsing shares one pool of scan contexts among all callers.
  @Test func parsingFromManyTasks() async throws {
    let documents = try Self.documents()
    let serial = documents.map { try? JSONValue(parsing: $0) }
    let results = await withTaskGroup(of: [(Int, JSONValue?)].self) { group in
      for task in 0..<12 {
        group.addTask {
          (0..<documents.count).map { step in
            let index = (step * 5 + task) % documents.count
            return (index, try? JSONValue(parsing: documents[index]))
          }
        }
      }
      var all: [(Int, JSONValue?)] = []
      for await results in group { all += results }
      return all
    }
    for (index, value) in results {
      #expect(value == serial[index], "document \(index)")
    }
  }
}
