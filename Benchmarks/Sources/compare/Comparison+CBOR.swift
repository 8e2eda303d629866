import BenchmarkSupport
import Foundation
import JSONKit
import JSONKitCorpus

extension Comparison {
  /// CBOR beside JSON: each corpus model (and the orders payload) decoded by a fresh
  /// `JKCBORDecoder` from the model's CBOR against a fresh `JKDecoder` from its JSON
  /// and a fresh `PropertyListDecoder` from binary plist, interleaved; and the sizes.
  func cborSection() throws {
    var table = MarkdownTable(
      "input", "JSON KB", "CBOR KB", "plist KB", "JKDecoder() JSON", "JKCBORDecoder() CBOR",
      "CBOR ÷ JSON ×", "PropertyListDecoder() binary", "CBOR ÷ plist ×")
    for sample in try cborSamples() where options.includes("cbor/\(sample.name)") {
      progress("cbor/\(sample.name)")
      let timings = try Contender.timings(
        [
          Contender(name: "json") { try sample.decodeJSON() },
          Contender(name: "cbor") { try sample.decodeCBOR() },
          Contender(name: "plist") { try sample.decodePlist() },
        ], rounds: options.rounds, batchSeconds: options.batchSeconds)
      table.append([
        sample.name, Figure.kilobytes(sample.json.count), Figure.kilobytes(sample.cbor.count),
        Figure.kilobytes(sample.plist.count), Figure.milliseconds(timings[0].median),
        Figure.milliseconds(timings[1].median), Figure.ratio(timings[0].ratio(to: timings[1])),
        Figure.milliseconds(timings[2].median), Figure.ratio(timings[2].ratio(to: timings[1])),
      ])
    }
    guard !table.rows.isEmpty else { return }
    print(
      "### CBOR (median time per decode with a fresh decoder; × = the other's time ÷ "
        + "JKCBORDecoder's; sizes of minified JSON, CBOR and binary plist)\n")
    table.print()
  }

  /// One model's JSON, CBOR and binary plist, and the calls that decode each.
  struct CBORSample {
    let name: String
    let json: Data
    let cbor: Data
    let plist: Data
    let decodeJSON: () throws -> Void
    let decodeCBOR: () throws -> Void
    let decodePlist: () throws -> Void

    init<Model: Codable>(
      _ name: String, _ model: Model.Type, json original: Data, dates: Bool = false
    ) throws {
      let decoder = JKDecoder()
      if dates { decoder.dateDecodingStrategy = .iso8601 }
      let value = try decoder.decode(Model.self, from: original)
      let encoder = JKEncoder()
      if dates { encoder.dateEncodingStrategy = .iso8601 }
      let json = try encoder.encode(value)
      let cbor = CBORValue(try JSONValue(parsing: json)).cborData()
      let plistEncoder = PropertyListEncoder()
      plistEncoder.outputFormat = .binary
      let plist = try plistEncoder.encode(value)
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
    return samples
  }
}

extension InstructionProbe {
  /// The child's side of a CBOR count (the hidden `--cbor-probe` mode): `arguments` are
  /// the sample's name (`twitter`, `citm_catalog`, `canada`, `orders`) and `cbor` or
  /// `json`; one decode with a fresh decoder is counted, after one to warm up.
  ///
  /// By hand: `valgrind --tool=callgrind --toggle-collect='*measuredDecode*'
  /// .build/release/compare --cbor-probe citm_catalog cbor`.
  static func runCBORChild(_ arguments: [String]) throws {
    guard arguments.count == 2, arguments[1] == "cbor" || arguments[1] == "json" else {
      throw ProbeFailure(message: "usage: --cbor-probe SAMPLE cbor|json")
    }
    let comparison = try Comparison(CompareOptions([]))
    guard let sample = try comparison.cborSamples().first(where: { $0.name == arguments[0] })
    else { throw ProbeFailure(message: "no CBOR sample named \(arguments[0])") }
    let decode = arguments[1] == "cbor" ? sample.decodeCBOR : sample.decodeJSON
    try decode()
    try measuredDecode({ _ in try decode() }, Data())
  }
}
