import BenchmarkSupport
import Foundation

extension Comparison {
  /// Foundation's value types and the payloads made of them (`SampleCalls.all`): each
  /// decoded and encoded by a fresh Foundation coder against a fresh and a reused JSONKit
  /// one, all through the generic functions, interleaved. Rows `types-decode/<sample>` and
  /// `types-encode/<sample>`.
  func typesSection() throws {
    var decodeTable = MarkdownTable(
      "value type", "count · MB", "Foundation fresh", "JSONKit fresh generic",
      "JSONKit reused generic", "least ×", "fresh ÷ reused", "spread")
    var encodeTable = MarkdownTable(
      "value type", "count · MB out", "Foundation fresh", "JSONKit fresh generic",
      "JSONKit reused generic", "least ×", "fresh ÷ reused", "spread", "bytes (sorted keys)")
    for (name, make) in SampleCalls.all {
      let decodes = options.includes("types-decode/\(name)")
      let encodes = options.includes("types-encode/\(name)")
      guard decodes || encodes else { continue }
      let calls = try make()
      precondition(calls.name == name, "sample \(calls.name) listed as \(name)")
      if decodes {
        progress("types-decode/\(name)")
        let json = calls.json
        let timings = try Contender.timings(
          [
            Contender(name: "Foundation fresh") { try calls.decodeFoundationFresh(json) },
            Contender(name: "fresh") { try calls.decodeJSONKitFresh(json) },
            Contender(name: "reused") { try calls.decodeJSONKitReused(json) },
          ], rounds: options.rounds, batchSeconds: options.batchSeconds)
        decodeTable.append(
          [name, Self.countAndSize(calls.count, json.count)]
            + ratioCells(timings, bytes: json.count, names: ["fresh", "reused"]))
      }
      if encodes {
        progress("types-encode/\(name)")
        let timings = try Contender.timings(
          [
            Contender(name: "Foundation fresh") { consume(try calls.encodeFoundationFresh()) },
            Contender(name: "fresh") { consume(try calls.encodeJSONKitFresh()) },
            Contender(name: "reused") { consume(try calls.encodeJSONKitReused()) },
          ], rounds: options.rounds, batchSeconds: options.batchSeconds)
        let size = try calls.encodeJSONKitFresh().count
        let sorted = try calls.sortedOutputs()
        encodeTable.append(
          [name, Self.countAndSize(calls.count, size)]
            + ratioCells(timings, bytes: size, names: ["fresh", "reused"])
            + [sorted.foundation == sorted.jsonKit ? "= Foundation's" : "**differ**"])
      }
    }
    if !decodeTable.rows.isEmpty {
      print(
        "### Foundation's value types, decode (median time per call · MB/s of input · × = "
          + "JSONDecoder's time ÷ JSONKit's, median over the rounds; coders made with the "
          + "sample's strategies, all through the generic function)\n")
      decodeTable.print()
    }
    if !encodeTable.rows.isEmpty {
      print(
        "### Foundation's value types, encode (median time per call · MB/s of output · × = "
          + "JSONEncoder's time ÷ JSONKit's, median over the rounds; compact output; bytes "
          + "compared with JSONEncoder's with `.sortedKeys` on both sides)\n")
      encodeTable.print()
    }
  }

  /// `20,000 · 0.460`: how many values, and the MB (10⁶ bytes) of JSON they make.
  private static func countAndSize(_ count: Int, _ bytes: Int) -> String {
    "\(count.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) · "
      + Figure.megabytes(bytes)
  }
}
