import BenchmarkSupport
import Foundation
import JSONKitCorpus

extension Comparison {
  /// Instruction counts of one warm decode per decoder and variant, under callgrind
  /// (`--instructions` only: slow, and valgrind must be installed).
  func instructionSection() throws {
    guard options.instructions else { return }
    let rows = inputs.filter { options.includes("instructions/\($0.variant.name)") }
    guard !rows.isEmpty else { return }
    guard InstructionProbe.valgrind != nil else {
      print("### Instructions of one decode\n\nNot measured: valgrind is not on the PATH.\n")
      return
    }
    var table = MarkdownTable(
      "input", "JSONDecoder()", "JKDecoder()", "reused JKDecoder", "×", "fresh ÷ reused",
      "JKDecoder() rejecting unknown keys", "reject ÷ ignore")
    for (variant, data) in rows {
      progress("instructions/\(variant.name)")
      let file = try scratchFile(variant.name, data)
      let counts = try [.foundation, .jsonKit, .jsonKitReused].map {
        try InstructionProbe.count($0, variant, input: file, scratch: scratch)
      }
      // A model that does not read every key of its corpus fails under
      // `.reject`, whose count would then be of an error.
      let rejecting =
        (try? DecodeCalls(variant).jsonKitRejecting(data)) == nil
        ? nil
        : try InstructionProbe.count(.jsonKitRejecting, variant, input: file, scratch: scratch)
      func millions(_ count: Int) -> String { Figure.significant(Double(count) / 1e6) + " M" }
      table.append([
        variant.name, millions(counts[0]), millions(counts[1]), millions(counts[2]),
        Figure.ratio(Double(counts[0]) / Double(counts[1])),
        Figure.ratio(Double(counts[1]) / Double(counts[2])),
        rejecting.map(millions) ?? "model skips keys",
        rejecting.map { Figure.ratio(Double($0) / Double(counts[1])) } ?? "–",
      ])
    }
    print(
      "### Instructions of one warm decode (callgrind; × = JSONDecoder()'s ÷ JKDecoder()'s)\n")
    table.print()
  }
}
