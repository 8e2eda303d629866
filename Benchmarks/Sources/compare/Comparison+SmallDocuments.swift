import BenchmarkSupport
import Foundation
import JSONKit
import JSONKitCorpus

extension Comparison {
  /// Documents of a few hundred bytes to a few kilobytes, one per call, as a server
  /// decodes request bodies: 1,000 different documents of one model, each decoded by a
  /// fresh `JSONDecoder`, a fresh `JKDecoder` and one reused `JKDecoder`, through the
  /// generic function, interleaved. Rows `small-decode/<sample>`; times are per document.
  func smallDocumentsSection() throws {
    var table = MarkdownTable(
      "one document of", "bytes (mean)", "Foundation fresh", "JSONKit fresh generic",
      "JSONKit reused generic", "least ×", "fresh ÷ reused", "spread")
    let samples: [(String, () throws -> SmallDocuments)] = [
      ("record", { try SmallDocuments.records() }),
      ("order", { try SmallDocuments(Orders.sample(count: 1_000)) }),
      ("github-event", { try SmallDocuments(GitHubEvents.sample(in: BenchmarkData.directory)) }),
    ]
    var encodeTable = MarkdownTable(
      "one value of", "bytes out (mean)", "Foundation fresh", "JSONKit fresh generic",
      "JSONKit reused generic", "least ×", "fresh ÷ reused", "spread")
    for (name, make) in samples {
      let decodes = options.includes("small-decode/\(name)")
      let encodes = options.includes("small-encode/\(name)")
      guard decodes || encodes else { continue }
      let documents = try make()
      let perDocument = documents.bytes / documents.count
      if decodes {
        progress("small-decode/\(name)")
        table.append(
          [name, "\(perDocument)"]
            + (try cells(
              documents.decodeFoundationFresh, documents.decodeJSONKitFresh,
              documents.decodeJSONKitReused, count: documents.count, bytes: perDocument)))
      }
      if encodes {
        progress("small-encode/\(name)")
        encodeTable.append(
          [name, "\(perDocument)"]
            + (try cells(
              documents.encodeFoundationFresh, documents.encodeJSONKitFresh,
              documents.encodeJSONKitReused, count: documents.count, bytes: perDocument)))
      }
    }
    if !table.rows.isEmpty {
      print(
        "### Small documents, one per call (median time per document · MB/s · × = "
          + "JSONDecoder's time ÷ JSONKit's; 1,000 different documents of each model, "
          + "coders made with the sample's strategies, all through the generic function)\n")
      table.print()
    }
    if !encodeTable.rows.isEmpty {
      print(
        "### Small values, one encode per call (median time per value · MB/s of output · × = "
          + "JSONEncoder's time ÷ JSONKit's; the same 1,000 values, compact output, coders "
          + "made with the sample's strategies, all through the generic function)\n")
      encodeTable.print()
    }
  }
}

extension Comparison {
  /// The cells of a row that times Foundation's `foundation`, JSONKit's `fresh` and
  /// `reused`, each a run over `count` documents or values, interleaved; times are per
  /// document, of `bytes` bytes each.
  fileprivate func cells(
    _ foundation: @escaping () throws -> Void, _ fresh: @escaping () throws -> Void,
    _ reused: @escaping () throws -> Void, count: Int, bytes: Int
  ) throws -> [String] {
    let timings = try Contender.timings(
      [
        Contender(name: "Foundation fresh", run: foundation),
        Contender(name: "fresh", run: fresh),
        Contender(name: "reused", run: reused),
      ], rounds: options.rounds, batchSeconds: options.batchSeconds
    ).map { Timing($0.samples.map { $0 / Double(count) }) }
    return ratioCells(timings, bytes: bytes, names: ["fresh", "reused"])
  }
}

/// Documents of one model, each its own JSON, and the calls that decode them all,
/// one call each, and that encode the values they hold, one call each.
struct SmallDocuments {
  let count: Int
  /// The bytes of all the documents.
  let bytes: Int
  let decodeFoundationFresh: () throws -> Void
  let decodeJSONKitFresh: () throws -> Void
  let decodeJSONKitReused: () throws -> Void
  let encodeFoundationFresh: () throws -> Void
  let encodeJSONKitFresh: () throws -> Void
  let encodeJSONKitReused: () throws -> Void

  /// The elements of `sample`'s array, each written alone by `JSONEncoder` with the
  /// sample's strategies (at most 1,000 of them).
  init<Element: Codable>(_ sample: CodableSample<[Element]>) throws {
    let encoder = JSONEncoder()
    sample.strategies.configure(encoder)
    let documents = try sample.value.prefix(1_000).map { try encoder.encode($0) }
    try self.init(documents, as: Element.self, strategies: sample.strategies)
  }

  /// 1,000 of the streams' small records (about 120 bytes each).
  static func records() throws -> SmallDocuments {
    let lines = Data(SmallRecords.sample(count: 1_000).lines)
    return try SmallDocuments(
      lines.split(separator: 0x0A).map { Data($0) }, as: SmallRecords.Record.self,
      strategies: .iso8601)
  }

  private init<Element: Codable>(
    _ documents: [Data], as type: Element.Type, strategies: CodingStrategies
  ) throws {
    count = documents.count
    bytes = documents.reduce(0) { $0 + $1.count }
    let foundationDecoder = strategies.foundationDecoder
    let jsonKitDecoder = strategies.jsonKitDecoder
    let reused = jsonKitDecoder()
    decodeFoundationFresh = {
      for document in documents { consume(try decode(type, document, with: foundationDecoder())) }
    }
    decodeJSONKitFresh = {
      for document in documents { consume(try decode(type, document, with: jsonKitDecoder())) }
    }
    decodeJSONKitReused = {
      for document in documents { consume(try decode(type, document, with: reused)) }
    }
    let foundation = strategies.foundationDecoder()
    let values = try documents.map { try foundation.decode(type, from: $0) }
    let reusedEncoder = strategies.jsonKitEncoder()
    encodeFoundationFresh = {
      for value in values { consume(try encode(value, with: strategies.foundationEncoder())) }
    }
    encodeJSONKitFresh = {
      for value in values { consume(try encode(value, with: strategies.jsonKitEncoder())) }
    }
    encodeJSONKitReused = {
      for value in values { consume(try encode(value, with: reusedEncoder)) }
    }
  }
}
