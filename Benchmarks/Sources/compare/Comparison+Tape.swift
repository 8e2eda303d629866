import Foundation
import JSONKit
import JSONKitCorpus

extension Comparison {
  /// Building the tape without a tree (a `JKDecoder` decoding a model that asks for
  /// nothing, since `JSONValue.validate` records no tape) on the literal variants and,
  /// after each original, its minified copy (`<corpus>-minified`, keys in declaration
  /// order), which tells what key order costs from what whitespace does; all interleaved.
  func tapeSection() throws {
    var rows: [(name: String, data: Data)] = []
    for (variant, data) in inputs where !variant.appStyle {
      rows.append((variant.name, data))
      if variant.keyOrder == .declaration {
        rows.append(("\(variant.name)-minified", try CorpusVariant.minified(data)))
      }
    }
    rows.removeAll { !options.includes("tape/\($0.name)") }
    guard !rows.isEmpty else { return }
    progress("tape")
    let timings = try Contender.timings(
      rows.map { row in
        let run = ValidateWork.tape.run(row.data)
        return Contender(name: row.name) { try run() }
      },
      rounds: options.rounds, batchSeconds: options.batchSeconds)
    var table = MarkdownTable("input", "MB", "tape build", "MB/s", "spread")
    for (row, time) in zip(rows, timings) {
      table.append([
        row.name, Figure.megabytes(row.data.count), Figure.milliseconds(time.median),
        Figure.megabytesPerSecond(row.data.count, time.median), Figure.percent(time.spread),
      ])
    }
    print("### Tape build (validation and tape, no values)\n")
    table.print()
  }
}
