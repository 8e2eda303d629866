import Foundation
import JSONKit

extension Comparison {
  /// Building the tape without a tree (`JSONValue.validate`) on the literal variants,
  /// interleaved with each other.
  func tapeSection() throws {
    let rows = inputs.filter { !$0.variant.appStyle && options.includes("tape/\($0.variant.name)") }
    guard !rows.isEmpty else { return }
    progress("tape")
    let timings = try Contender.timings(
      rows.map { row in Contender(name: row.variant.name) { try JSONValue.validate(row.data) } },
      rounds: options.rounds, batchSeconds: options.batchSeconds)
    var table = MarkdownTable("input", "MB", "JSONValue.validate", "MB/s", "spread")
    for (row, time) in zip(rows, timings) {
      table.append([
        row.variant.name, Figure.megabytes(row.data.count), Figure.milliseconds(time.median),
        Figure.megabytesPerSecond(row.data.count, time.median),
        Figure.percent(time.spread),
      ])
    }
    print("### Tape build (validation and tape, no values)\n")
    table.print()
  }
}
