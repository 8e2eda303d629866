import Foundation
import JSONKitCorpus

/// Foundation's JSONSerialization, JSONDecoder and JSONEncoder on the typed corpora.
/// Decoders and encoders are made once, outside the measured region, and reused.
func foundationBenchmarks() {
  for corpus in [Corpus.twitter, .citmCatalog, .canada] {
    readBenchmark("Parse", corpus, "JSONSerialization") {
      try JSONSerialization.jsonObject(with: $0)
    }
    writeBenchmark(
      "Write", corpus, "JSONSerialization",
      prepare: { try JSONSerialization.jsonObject(with: $0) },
      write: { try JSONSerialization.data(withJSONObject: $0) })
  }
  foundationCodableBenchmarks(
    .twitter, Twitter.SearchResult.self, TwitterFromSnakeCase.SearchResult.self)
  foundationCodableBenchmarks(.citmCatalog, CITM.Catalog.self, CITM.Catalog.self)
  foundationCodableBenchmarks(.canada, Canada.FeatureCollection.self, Canada.FeatureCollection.self)

  let decoder = JSONDecoder()
  for megabytes in scaleSizes {
    scaleBenchmark(megabytes, "JSONSerialization") {
      try JSONSerialization.jsonObject(with: $0)
    }
    scaleBenchmark(megabytes, "JSONDecoder") {
      try decoder.decode([Records.Record].self, from: $0)
    }
  }
}

/// Decodes `corpus` into `Model` (default keys) and `SnakeModel`
/// (`.convertFromSnakeCase`), and encodes `Model` compact and pretty-printed.
private func foundationCodableBenchmarks<Model: Codable, SnakeModel: Decodable>(
  _ corpus: Corpus, _ model: Model.Type, _ snakeModel: SnakeModel.Type
) {
  let decoder = JSONDecoder()
  readBenchmark("Decode", corpus, "JSONDecoder") { try decoder.decode(Model.self, from: $0) }

  let snakeDecoder = JSONDecoder()
  snakeDecoder.keyDecodingStrategy = .convertFromSnakeCase
  readBenchmark("DecodeSnakeCase", corpus, "JSONDecoder") {
    try snakeDecoder.decode(SnakeModel.self, from: $0)
  }

  let encoder = JSONEncoder()
  writeBenchmark(
    "Encode", corpus, "JSONEncoder",
    prepare: { try decoder.decode(Model.self, from: $0) },
    write: { try encoder.encode($0) })

  let prettyEncoder = JSONEncoder()
  prettyEncoder.outputFormatting = .prettyPrinted
  writeBenchmark(
    "EncodePretty", corpus, "JSONEncoder",
    prepare: { try decoder.decode(Model.self, from: $0) },
    write: { try prettyEncoder.encode($0) })
}
