import BenchmarkSupport
import Foundation

extension Comparison {
  /// Decoding every variant: `JSONDecoder()` per call through the generic function
  /// against three JKDecoder calls, the least favourable of which is marked.
  func decodeSection() throws {
    var table = MarkdownTable(
      "input", "MB", "JSONDecoder() generic", "JKDecoder() generic",
      "reused JKDecoder generic", "JKDecoder() direct", "least ×", "fresh ÷ reused", "spread")
    for (variant, data) in inputs where options.includes("decode/\(variant.name)") {
      progress("decode/\(variant.name)")
      let calls = DecodeCalls(variant)
      let timings = try Contender.timings(
        [
          Contender(name: "JSONDecoder() generic") { try calls.foundationFresh(data) },
          Contender(name: "generic") { try calls.jsonKitFresh(data) },
          Contender(name: "reused") { try calls.jsonKitReused(data) },
          Contender(name: "direct") { try calls.jsonKitDirect(data) },
        ], rounds: options.rounds, batchSeconds: options.batchSeconds)
      let times = timings.map(\.median)
      let foundation = times[0]
      let ratios = timings.dropFirst().map { timings[0].ratio(to: $0) }
      let least = ratios.indices.min { ratios[$0] < ratios[$1] } ?? 0
      var row = [
        variant.name, Figure.megabytes(data.count),
        "\(Figure.milliseconds(foundation)) · \(Figure.megabytesPerSecond(data.count, foundation))",
      ]
      for (index, time) in times.dropFirst().enumerated() {
        let ratio = Figure.ratio(ratios[index])
        row.append(
          "\(Figure.milliseconds(time)) · \(Figure.megabytesPerSecond(data.count, time)) · "
            + (index == least ? "**\(ratio)**" : ratio))
      }
      row.append("\(Figure.ratio(ratios[least])) \(["generic", "reused", "direct"][least])")
      row.append(Figure.ratio(timings[1].ratio(to: timings[2])))
      row.append(Figure.percent(timings.map(\.spread).max() ?? 0))
      table.append(row)
    }
    guard !table.rows.isEmpty else { return }
    print(
      "### Decode (median time per call · MB/s of input · × = JSONDecoder's time ÷ "
        + "JSONKit's, median over the rounds)\n")
    table.print()
  }
}
