import Foundation
import JSONKitCorpus

extension Comparison {
  /// The peak memory growth of one decode per library, each in a fresh child process.
  func memorySection() throws {
    let rows = inputs.filter {
      $0.variant.keyOrder == .declaration && options.includes("memory/\($0.variant.name)")
    }
    guard !rows.isEmpty else { return }
    guard MemoryProbe.available else {
      print("### Peak memory of one decode\n\nNot measured: no /proc/self/status here.\n")
      return
    }
    var table = MarkdownTable("input", "MB", "JSONDecoder()", "JKDecoder()", "JSONKit ÷ Foundation")
    for (variant, data) in rows {
      progress("memory/\(variant.name)")
      let file = try scratchFile(variant.name, data)
      let foundation = try MemoryProbe.growth(.foundation, variant, input: file)
      let jsonKit = try MemoryProbe.growth(.jsonKit, variant, input: file)
      table.append([
        variant.name, Figure.megabytes(data.count), Figure.megabytes(foundation) + " MB",
        Figure.megabytes(jsonKit) + " MB", Figure.ratio(Double(jsonKit) / Double(foundation)),
      ])
    }
    print("### Peak memory growth of one decode (MB = 10⁶ bytes; a child process each)\n")
    table.print()
  }
}
