import BenchmarkSupport
import Foundation
import JSONKit

/// `JKCBOREncoder`'s options by the names the compare tool gives them.
enum CBOROption {
  static let named: [String: JKCBOREncoder.Options] = [
    "deterministic": .deterministic, "shared-references": .sharedReferences,
    "string-references": .stringReferences,
  ]
}

extension Comparison {
  /// What `JKCBOREncoder`'s options cost and save: for each CBOR sample, the size of
  /// what each option writes beside minified JSON and plain CBOR, and the time of a
  /// fresh encoder with each option against one without, interleaved.
  func cborOptionsSection() throws {
    var sizes = MarkdownTable(
      "input", "JSON KB", "CBOR KB", "string references KB", "÷ JSON", "shared references KB",
      "deterministic KB")
    var times = MarkdownTable(
      "input", "plain", "string references", "× plain", "shared references", "× plain",
      "deterministic", "× plain")
    for sample in try cborSamples() where options.includes("cbor-options/\(sample.name)") {
      progress("cbor-options/\(sample.name)")
      let strings = try sample.encodeCBORWith(.stringReferences)
      let shared = try sample.encodeCBORWith(.sharedReferences)
      let sorted = try sample.encodeCBORWith(.deterministic)
      sizes.append([
        sample.name, Figure.kilobytes(sample.json.count), Figure.kilobytes(sample.cbor.count),
        Figure.kilobytes(strings.count),
        String(format: "%.2f", Double(strings.count) / Double(sample.json.count)),
        Figure.kilobytes(shared.count), Figure.kilobytes(sorted.count),
      ])
      let optionSets: [JKCBOREncoder.Options] = [
        [], .stringReferences, .sharedReferences, .deterministic,
      ]
      let contenders = optionSets.enumerated().map { index, option in
        Contender(name: "option \(index)", run: { consume(try sample.encodeCBORWith(option)) })
      }
      let timings = try Contender.timings(
        contenders, rounds: options.rounds, batchSeconds: options.batchSeconds)
      var row = [sample.name, Figure.milliseconds(timings[0].median)]
      for timing in timings.dropFirst() {
        // Above 1, the option is slower than plain CBOR by that factor.
        row += [Figure.milliseconds(timing.median), Figure.ratio(timing.ratio(to: timings[0]))]
      }
      times.append(row)
    }
    guard !sizes.rows.isEmpty else { return }
    print(
      "### CBOR options: sizes (KB as each writes the model; ÷ JSON = string references' "
        + "size ÷ minified JSON's)\n")
    sizes.print()
    print(
      "\n### CBOR options: encoding time (median per encode with a fresh encoder; "
        + "× plain = the option's time ÷ plain CBOR's)\n")
    times.print()
  }
}
