import Foundation
import JSONKit
import JSONKitCorpus

/// JSONKit's twins of the Foundation benchmarks: the same operations on the same
/// bytes, so that each pair sorts together. `Parse/<corpus>/JSONValue.validate` checks
/// the input without recording anything (full validation, no tape, no values);
/// `Parse/<corpus>/JSONValue` builds the tape and the tree.
/// Decoders and encoders are made once and reused, as with Foundation.
func jsonKitBenchmarks() {
  for corpus in [Corpus.twitter, .citmCatalog, .canada] {
    readBenchmark("Parse", corpus, "JSONValue.validate") { try JSONValue.validate($0) }
    readBenchmark("Parse", corpus, "JSONValue") { try JSONValue(parsing: $0) }
    writeBenchmark(
      "Write", corpus, "JSONValue",
      prepare: { try JSONValue(parsing: $0) },
      write: { try $0.jsonData() })
  }
  jsonKitCodableBenchmarks(
    .twitter, Twitter.SearchResult.self, TwitterFromSnakeCase.SearchResult.self)
  jsonKitCodableBenchmarks(.citmCatalog, CITM.Catalog.self, CITM.Catalog.self)
  jsonKitCodableBenchmarks(.canada, Canada.FeatureCollection.self, Canada.FeatureCollection.self)

  let decoder = JKDecoder()
  for megabytes in scaleSizes {
    scaleBenchmark(megabytes, "JSONValue.validate") { try JSONValue.validate($0) }
    scaleBenchmark(megabytes, "JSONValue") { try JSONValue(parsing: $0) }
    scaleBenchmark(megabytes, "JKDecoder") { try decoder.decode([Records.Record].self, from: $0) }
  }
}

/// Decodes `corpus` into `Model` (default keys) and `SnakeModel`
/// (`.convertFromSnakeCase`), and encodes `Model` compact and pretty-printed.
private func jsonKitCodableBenchmarks<Model: Codable, SnakeModel: Decodable>(
  _ corpus: Corpus, _ model: Model.Type, _ snakeModel: SnakeModel.Type
) {
  let decoder = JKDecoder()
  readBenchmark("Decode", corpus, "JKDecoder") { try decoder.decode(Model.self, from: $0) }

  let snakeDecoder = JKDecoder()
  snakeDecoder.keyDecodingStrategy = .convertFromSnakeCase
  readBenchmark("DecodeSnakeCase", corpus, "JKDecoder") {
    try snakeDecoder.decode(SnakeModel.self, from: $0)
  }

  let encoder = JKEncoder()
  writeBenchmark(
    "Encode", corpus, "JKEncoder",
    prepare: { try decoder.decode(Model.self, from: $0) },
    write: { try encoder.encode($0) })

  let prettyEncoder = JKEncoder()
  prettyEncoder.outputFormatting = .prettyPrinted
  writeBenchmark(
    "EncodePretty", corpus, "JKEncoder",
    prepare: { try decoder.decode(Model.self, from: $0) },
    write: { try prettyEncoder.encode($0) })
}
