import BenchmarkSupport
import Foundation
import JSONKit
import JSONKitCorpus

extension Comparison {
  /// CBOR beside JSON: each corpus model (and the orders payload) decoded by a fresh
  /// `JKCBORDecoder` from the model's CBOR against a fresh `JKDecoder` from its JSON
  /// and a fresh `PropertyListDecoder` from binary plist, interleaved; then encoded by a
  /// fresh `JKCBOREncoder`, `JKEncoder` and `PropertyListEncoder` the same way; and the
  /// sizes of what each writes.
  func cborSection() throws {
    var decodes = MarkdownTable(
      "input", "JSON KB", "CBOR KB", "CBOR ÷ JSON size", "plist KB", "JKDecoder() JSON",
      "JKCBORDecoder() CBOR", "CBOR ÷ JSON ×", "PropertyListDecoder() binary",
      "CBOR ÷ plist ×")
    var encodes = MarkdownTable(
      "input", "JKEncoder() JSON", "JKCBOREncoder() CBOR", "CBOR ÷ JSON ×",
      "PropertyListEncoder() binary", "CBOR ÷ plist ×")
    for sample in try cborSamples() where options.includes("cbor/\(sample.name)") {
      progress("cbor/\(sample.name)")
      let decoding = try timeInterleaved(sample.decodeJSON, sample.decodeCBOR, sample.decodePlist)
      decodes.append(
        [
          sample.name, Figure.kilobytes(sample.json.count), Figure.kilobytes(sample.cbor.count),
          String(format: "%.2f", Double(sample.cbor.count) / Double(sample.json.count)),
          Figure.kilobytes(sample.plist.count),
        ] + decoding)
      let encoding = try timeInterleaved(sample.encodeJSON, sample.encodeCBOR, sample.encodePlist)
      encodes.append([sample.name] + encoding)
    }
    guard !decodes.rows.isEmpty else { return }
    print(
      "### CBOR decoding (median time per decode with a fresh decoder; × = the other's "
        + "time ÷ JKCBORDecoder's; sizes of minified JSON, CBOR and binary plist as each "
        + "encoder writes them)\n")
    decodes.print()
    print(
      "\n### CBOR encoding (median time per encode with a fresh encoder; × = the other's "
        + "time ÷ JKCBOREncoder's)\n")
    encodes.print()
  }

  /// The JSON, CBOR and plist calls timed interleaved, as table cells: the JSON call's
  /// median, the CBOR call's, the JSON call's time ÷ the CBOR call's, the plist call's
  /// median, and its time ÷ the CBOR call's.
  private func timeInterleaved(
    _ json: @escaping () throws -> Void, _ cbor: @escaping () throws -> Void,
    _ plist: @escaping () throws -> Void
  ) throws -> [String] {
    let timings = try Contender.timings(
      [
        Contender(name: "json", run: json), Contender(name: "cbor", run: cbor),
        Contender(name: "plist", run: plist),
      ], rounds: options.rounds, batchSeconds: options.batchSeconds)
    return [
      Figure.milliseconds(timings[0].median), Figure.milliseconds(timings[1].median),
      Figure.ratio(timings[0].ratio(to: timings[1])), Figure.milliseconds(timings[2].median),
      Figure.ratio(timings[2].ratio(to: timings[1])),
    ]
  }

  /// One model's JSON, CBOR and binary plist, as JSONKit's and Foundation's encoders
  /// write them, and the calls that decode and encode each with a fresh coder.
  struct CBORSample {
    let name: String
    let json: Data
    let cbor: Data
    let plist: Data
    let decodeJSON: () throws -> Void
    let decodeCBOR: () throws -> Void
    let decodePlist: () throws -> Void
    let encodeJSON: () throws -> Void
    let encodeCBOR: () throws -> Void
    let encodePlist: () throws -> Void
    /// What a fresh `JKCBOREncoder` with these options writes for the model.
    let encodeCBORWith: (JKCBOREncoder.Options) throws -> Data

    init<Model: Codable>(
      _ name: String, _ model: Model.Type, json original: Data, dates: Bool = false
    ) throws {
      let decoder = JKDecoder()
      if dates { decoder.dateDecodingStrategy = .iso8601 }
      let value = try decoder.decode(Model.self, from: original)
      let makeEncoder = {
        let encoder = JKEncoder()
        if dates { encoder.dateEncodingStrategy = .iso8601 }
        return encoder
      }
      let makePlistEncoder = {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return encoder
      }
      let json = try makeEncoder().encode(value)
      let cbor = try JKCBOREncoder().encode(value)
      let plist = try makePlistEncoder().encode(value)
      self.name = name
      self.json = json
      self.cbor = cbor
      self.plist = plist
      decodeJSON = {
        let decoder = JKDecoder()
        if dates { decoder.dateDecodingStrategy = .iso8601 }
        consume(try decoder.decode(Model.self, from: json))
      }
      decodeCBOR = { consume(try JKCBORDecoder().decode(Model.self, from: cbor)) }
      decodePlist = { consume(try PropertyListDecoder().decode(Model.self, from: plist)) }
      encodeJSON = { consume(try makeEncoder().encode(value)) }
      encodeCBOR = { consume(try JKCBOREncoder().encode(value)) }
      encodePlist = { consume(try makePlistEncoder().encode(value)) }
      encodeCBORWith = { options in
        let encoder = JKCBOREncoder()
        encoder.options = options
        return try encoder.encode(value)
      }
    }
  }

  /// The samples: the three typed corpora and the orders payload.
  func cborSamples() throws -> [CBORSample] {
    var samples: [CBORSample] = []
    for (variant, data) in inputs where variant.keyOrder == .declaration && !variant.appStyle {
      switch variant.corpus {
      case .twitter:
        samples.append(try CBORSample("twitter", Twitter.SearchResult.self, json: data))
      case .citmCatalog:
        samples.append(try CBORSample("citm_catalog", CITM.Catalog.self, json: data))
      case .canada:
        samples.append(try CBORSample("canada", Canada.FeatureCollection.self, json: data))
      default: break
      }
    }
    let orders = try Orders.sample()
    samples.append(try CBORSample("orders", [Orders.Order].self, json: orders.json, dates: true))
    samples.append(
      try CBORSample(
        "small-records", [SmallRecords.Record].self,
        json: Data(SmallRecords.sample(count: 10_000).array)))
    return samples
  }
}

extension InstructionProbe {
  /// The child's side of a CBOR count (the hidden `--cbor-probe` mode): `arguments` are
  /// the sample's name (`twitter`, `citm_catalog`, `canada`, `orders`), `cbor` or
  /// `json`, and optionally `encode`; one decode (or encode) with a fresh coder is
  /// counted, after one to warm up.
  ///
  /// An encode may name one of `JKCBOREncoder`'s options after `encode`:
  /// `deterministic`, `shared-references` or `string-references`.
  ///
  /// By hand: `valgrind --tool=callgrind --toggle-collect='*measuredDecode*'
  /// .build/release/compare --cbor-probe citm_catalog cbor [encode [OPTION]]`.
  static func runCBORChild(_ arguments: [String]) throws {
    let usage = "usage: --cbor-probe SAMPLE cbor|json [encode [OPTION]]"
    guard (2...4).contains(arguments.count), arguments.count == 2 || arguments[2] == "encode",
      arguments[1] == "cbor" || arguments[1] == "json"
    else {
      throw ProbeFailure(message: usage)
    }
    if arguments.count == 4 {
      guard let option = CBOROption.named[arguments[3]] else { throw ProbeFailure(message: usage) }
      let comparison = try Comparison(CompareOptions([]))
      guard let sample = try comparison.cborSamples().first(where: { $0.name == arguments[0] })
      else { throw ProbeFailure(message: "no CBOR sample named \(arguments[0])") }
      let encode = { consume(try sample.encodeCBORWith(option)) }
      try encode()
      try measuredDecode({ _ in try encode() }, Data())
      return
    }
    let comparison = try Comparison(CompareOptions([]))
    guard let sample = try comparison.cborSamples().first(where: { $0.name == arguments[0] })
    else { throw ProbeFailure(message: "no CBOR sample named \(arguments[0])") }
    let decode =
      arguments.count == 3
      ? (arguments[1] == "cbor" ? sample.encodeCBOR : sample.encodeJSON)
      : (arguments[1] == "cbor" ? sample.decodeCBOR : sample.decodeJSON)
    try decode()
    try measuredDecode({ _ in try decode() }, Data())
  }
}
