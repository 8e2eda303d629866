import Foundation
import JSONKit

extension Comparison {
  /// Building the tape without a tree (`JSONValue.validate`) on the literal variants,
  /// interleaved with each other.
  func tapeSection() throws {
    let rows = inputs.filter { !$0.variant.appStyle && options.includes("tape/\($0.variant.name)") }
    guard !rows.isEmpty else { return }
    progress("tape")
    let times = try Contender.medians(
      rows.map { row in Contender(name: row.variant.name) { try JSONValue.validate(row.data) } },
      rounds: options.rounds, batchSeconds: options.batchSeconds)
    var table = MarkdownTable("input", "MB", "JSONValue.validate", "MB/s")
    for (row, time) in zip(rows, times) {
      table.append([
        row.variant.name, Figure.megabytes(row.data.count), Figure.milliseconds(time),
        Figure.megabytesPerSecond(row.data.count, time),
      ])
    }
    print("### Tape build (validation and tape, no values)\n")
    table.print()
  }
}
