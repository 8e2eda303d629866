import BenchmarkSupport
import Foundation
import JSONKit
import JSONKitCorpus

extension Comparison {
  /// gzip beside plain JSON on the typed corpora, interleaved: decoding the same text
  /// plain and gzip-compressed (JSONDecoder, which has no gzip, on the plain text), and
  /// encoding it plain and compressed at levels 6 and 1. Rows `gzip-decode/…` and
  /// `gzip-encode/…`.
  func gzipSection() throws {
    var decodeTable = MarkdownTable(
      "input", "MB plain", "MB gzip", "JSONDecoder plain", "JKDecoder plain", "JKDecoder gzip",
      "gzip ÷ plain", "spread")
    var encodeTable = MarkdownTable(
      "input", "JSONEncoder plain", "JKEncoder plain", "JKEncoder gzip 6", "JKEncoder gzip 1",
      "gzip 6 ÷ plain", "spread")
    for (variant, data) in inputs where variant.keyOrder == .declaration && !variant.appStyle {
      let calls = try GzipCalls(variant, data)
      if options.includes("gzip-decode/\(variant.name)") {
        progress("gzip-decode/\(variant.name)")
        let timings = try Contender.timings(
          [
            Contender(name: "JSONDecoder plain") { try calls.decode.foundationReused(calls.text) },
            Contender(name: "JKDecoder plain") { try calls.decode.jsonKitReused(calls.text) },
            Contender(name: "JKDecoder gzip") { try calls.decode.jsonKitReused(calls.gzip) },
          ], rounds: options.rounds, batchSeconds: options.batchSeconds)
        let times = timings.map(\.median)
        decodeTable.append([
          variant.name, Figure.megabytes(calls.text.count), Figure.megabytes(calls.gzip.count),
          Figure.milliseconds(times[0]),
          "\(Figure.milliseconds(times[1])) · \(Figure.ratio(timings[0].ratio(to: timings[1])))",
          "\(Figure.milliseconds(times[2])) · \(Figure.ratio(timings[0].ratio(to: timings[2])))",
          Figure.ratio(timings[2].ratio(to: timings[1])),
          Figure.percent(timings.map(\.spread).max() ?? 0),
        ])
      }
      if options.includes("gzip-encode/\(variant.name)") {
        progress("gzip-encode/\(variant.name)")
        let timings = try Contender.timings(
          [
            Contender(name: "JSONEncoder plain") { try calls.encodeFoundation() },
            Contender(name: "JKEncoder plain") { try calls.encodePlain() },
            Contender(name: "JKEncoder gzip 6") { try calls.encodeGzip() },
            Contender(name: "JKEncoder gzip 1") { try calls.encodeFastGzip() },
          ], rounds: options.rounds, batchSeconds: options.batchSeconds)
        let times = timings.map(\.median)
        var row = [variant.name, Figure.milliseconds(times[0])]
        for index in 1..<4 {
          row.append(
            "\(Figure.milliseconds(times[index])) · "
              + Figure.ratio(timings[0].ratio(to: timings[index])))
        }
        row.append(Figure.ratio(timings[2].ratio(to: timings[1])))
        row.append(Figure.percent(timings.map(\.spread).max() ?? 0))
        encodeTable.append(row)
      }
    }
    if !decodeTable.rows.isEmpty {
      print(
        "### gzip decode (median time per call · × = JSONDecoder's time on the plain text ÷ "
          + "JSONKit's; the same text, as JKEncoder writes it, plain and gzip level 6)\n")
      decodeTable.print()
    }
    if !encodeTable.rows.isEmpty {
      print("### gzip encode (median time per call · × = JSONEncoder's time ÷ JSONKit's)\n")
      encodeTable.print()
    }
  }
}

/// One typed corpus's model, its text as JKEncoder writes it, that text gzip-compressed,
/// and the calls that decode and encode them.
private struct GzipCalls {
  let decode: DecodeCalls
  let text: Data
  let gzip: Data
  let encodeFoundation: () throws -> Void
  let encodePlain: () throws -> Void
  let encodeGzip: () throws -> Void
  let encodeFastGzip: () throws -> Void

  init(_ variant: CorpusVariant, _ data: Data) throws {
    let decode = DecodeCalls(variant)
    switch variant.corpus {
    case .twitter: self = try Self(decode, Twitter.SearchResult.self, data)
    case .citmCatalog: self = try Self(decode, CITM.Catalog.self, data)
    default: self = try Self(decode, Canada.FeatureCollection.self, data)
    }
  }

  private init<Model: Codable>(_ decode: DecodeCalls, _ type: Model.Type, _ data: Data) throws {
    let model = try JSONDecoder().decode(type, from: data)
    let foundation = JSONEncoder()
    let plain = JKEncoder()
    let gzip = JKEncoder()
    gzip.compression = .gzip
    let fastGzip = JKEncoder()
    fastGzip.compression = .gzip(level: 1)
    self.decode = decode
    text = try plain.encode(model)
    self.gzip = try gzip.encode(model)
    encodeFoundation = { consume(try foundation.encode(model)) }
    encodePlain = { consume(try plain.encode(model)) }
    encodeGzip = { consume(try gzip.encode(model)) }
    encodeFastGzip = { consume(try fastGzip.encode(model)) }
  }
}
