import Foundation
import JSONKit
import JSONKitCorpus

extension Comparison {
  /// `JSONValue.validate`, which records nothing, against building the tape that parsing
  /// and decoding read (a `JKDecoder` decoding a model that asks for nothing), on each
  /// original corpus and its minified copy, interleaved; then the peak memory growth of
  /// one call of each, in a child process each.
  func validateSection() throws {
    var rows: [(name: String, data: Data)] = []
    for (variant, data) in inputs where variant.keyOrder == .declaration && !variant.appStyle {
      rows.append((variant.name, data))
      rows.append(("\(variant.name)-minified", try CorpusVariant.minified(data)))
    }
    rows.removeAll { !options.includes("validate/\($0.name)") }
    guard !rows.isEmpty else { return }
    var table = MarkdownTable(
      "input", "MB", "tape build", "JSONValue.validate", "validate ÷ tape time",
      "tape peak", "validate peak", "spread")
    for row in rows {
      progress("validate/\(row.name)")
      let timings = try Contender.timings(
        ValidateWork.allCases.map { work in
          let run = work.run(row.data)
          return Contender(name: work.rawValue) { try run() }
        }, rounds: options.rounds, batchSeconds: options.batchSeconds)
      var peaks = ["–", "–"]
      if MemoryProbe.available {
        let file = try scratchFile(row.name, row.data)
        peaks = try ValidateWork.allCases.map { work in
          Figure.megabytes(try work.peakGrowth(input: file)) + " MB"
        }
      }
      table.append(
        [row.name, Figure.megabytes(row.data.count)]
          + timings.map {
            "\(Figure.milliseconds($0.median)) · "
              + Figure.megabytesPerSecond(row.data.count, $0.median)
          }
          + [Figure.ratio(timings[1].median / timings[0].median)] + peaks
          + [Figure.percent(timings.map(\.spread).max() ?? 0)])
    }
    print(
      "### Validation without a tape (median time per call · MB/s of input; peak memory "
        + "growth of one call, MB = 10⁶ bytes, a child process each)\n")
    table.print()
  }
}

/// What the validation rows measure, named on a memory probe's command line.
enum ValidateWork: String, CaseIterable {
  /// The tape that parsing and decoding read, built by a `JKDecoder` for a model that
  /// reads nothing from it.
  case tape
  /// `JSONValue.validate`, which records nothing.
  case validate

  /// A model that asks the decoder for nothing, so that decoding it is the tape build.
  private struct NothingAsked: Decodable {
    init(from decoder: any Decoder) throws {}
  }

  /// One call of the work on `data`.
  func run(_ data: Data) -> () throws -> Void {
    switch self {
    case .tape:
      let decoder = JKDecoder()
      return { _ = try decoder.decode(NothingAsked.self, from: data) }
    case .validate:
      return { try JSONValue.validate(data) }
    }
  }

  /// The peak memory growth in bytes of one call on the file at `input`: the median of
  /// three child processes.
  func peakGrowth(input: URL) throws -> Int {
    let growths = try (0..<3).map { _ in
      let text = try ProbeDecoder.output(
        of: ProbeDecoder.executable(), ["--validate-memory-probe", rawValue, input.path])
      guard let growth = Double(text) else {
        throw ProbeFailure(message: "validate memory probe printed \(text)")
      }
      return growth
    }
    return Int(middle(of: growths))
  }

  /// The child's side: `arguments` are the work and the file. Prints the growth in bytes.
  static func runChild(_ arguments: [String]) throws {
    guard arguments.count == 2, let work = ValidateWork(rawValue: arguments[0]) else {
      throw ProbeFailure(message: "usage: --validate-memory-probe WORK FILE")
    }
    let data = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
    let run = work.run(data)
    MemoryProbe.resetPeak()
    let before = try MemoryProbe.kilobytes("VmHWM")
    // Through the instruction probes' marker, so that callgrind can count this call too.
    try measuredDecode({ _ in try run() }, data)
    let after = try MemoryProbe.kilobytes("VmHWM")
    print((after - before) * 1024)
  }
}
