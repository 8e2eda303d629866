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
      table.append(
        [variant.name, Figure.megabytes(data.count)]
          + ratioCells(timings, bytes: data.count, names: ["generic", "reused", "direct"]))
    }
    guard !table.rows.isEmpty else { return }
    print(
      "### Decode (median time per call · MB/s of input · × = JSONDecoder's time ÷ "
        + "JSONKit's, median over the rounds)\n")
    table.print()
  }

  /// The cells of one row of timings, Foundation's first: its time and rate, then each
  /// of JSONKit's contenders (`names`) with its ratio, the least favourable marked; then
  /// the least ratio, the first contender's time over the second's (fresh ÷ reused), and
  /// the largest spread. Rates are of `bytes`.
  func ratioCells(_ timings: [Timing], bytes: Int, names: [String]) -> [String] {
    let times = timings.map(\.median)
    let ratios = timings.dropFirst().map { timings[0].ratio(to: $0) }
    let least = ratios.indices.min { ratios[$0] < ratios[$1] } ?? 0
    var cells = [
      "\(Figure.milliseconds(times[0])) · \(Figure.megabytesPerSecond(bytes, times[0]))"
    ]
    for (index, time) in times.dropFirst().enumerated() {
      let ratio = Figure.ratio(ratios[index])
      cells.append(
        "\(Figure.milliseconds(time)) · \(Figure.megabytesPerSecond(bytes, time)) · "
          + (index == least ? "**\(ratio)**" : ratio))
    }
    cells.append("\(Figure.ratio(ratios[least])) \(names[least])")
    cells.append(Figure.ratio(timings[1].ratio(to: timings[2])))
    cells.append(Figure.percent(timings.map(\.spread).max() ?? 0))
    return cells
  }
}

extension Comparison {
  /// What `unknownKeyStrategy = .reject` costs: a fresh JKDecoder that ignores unknown
  /// keys against one that rejects them, interleaved, on the variants whose models read
  /// every key of their corpus.
  func rejectSection() throws {
    var table = MarkdownTable("input", "JKDecoder() ignoring", "JKDecoder() rejecting", "cost")
    for (variant, data) in inputs where options.includes("reject/\(variant.name)") {
      let calls = DecodeCalls(variant)
      guard (try? calls.jsonKitRejecting(data)) != nil else { continue }
      progress("reject/\(variant.name)")
      let timings = try Contender.timings(
        [
          Contender(name: "ignore") { try calls.jsonKitFresh(data) },
          Contender(name: "reject") { try calls.jsonKitRejecting(data) },
        ], rounds: options.rounds, batchSeconds: options.batchSeconds)
      table.append([
        variant.name, Figure.milliseconds(timings[0].median),
        Figure.milliseconds(timings[1].median), Figure.ratio(timings[1].ratio(to: timings[0])),
      ])
    }
    guard !table.rows.isEmpty else { return }
    print(
      "### Unknown keys rejected (median time per call; cost = rejecting's time ÷ "
        + "ignoring's)\n")
    table.print()
  }
}
