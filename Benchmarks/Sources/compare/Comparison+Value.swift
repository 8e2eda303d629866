import BenchmarkSupport
import Foundation
import JSONKit
import JSONKitCorpus

extension Comparison {
  /// The untyped path on each original corpus: parsing into `JSONSerialization`'s
  /// objects against `JSONValue` (and the `Any` bridge `JKSerialization`), and writing
  /// them back with the same options on both sides; all interleaved. With
  /// `--instructions`, the instructions of each under callgrind.
  func valueSection() throws {
    let corpora = inputs.filter { $0.variant.keyOrder == .declaration && !$0.variant.appStyle }
    try valueParseTable(corpora.filter { options.includes("value-parse/\($0.variant.name)") })
    try valueWriteTable(corpora)
    try valueInstructionTable(
      corpora.filter { options.includes("instructions/value-\($0.variant.name)") })
  }

  private func valueParseTable(_ rows: [(variant: CorpusVariant, data: Data)]) throws {
    guard !rows.isEmpty else { return }
    var table = MarkdownTable(
      "input", "MB", "JSONSerialization.jsonObject", "JSONValue(parsing:)",
      "JKSerialization.jsonObject", "spread")
    for (variant, data) in rows {
      progress("value-parse/\(variant.name)")
      let timings = try Contender.timings(
        ValueWork.parsing.map { work in
          let run = work.run(data, [])
          return Contender(name: work.rawValue) { try run() }
        }, rounds: options.rounds, batchSeconds: options.batchSeconds)
      table.append(Self.valueRow([variant.name, Figure.megabytes(data.count)], data, timings))
    }
    print(
      "### Parse untyped (median time per call · MB/s of input · × = JSONSerialization's "
        + "time ÷ JSONKit's, median over the rounds)\n")
    table.print()
  }

  private func valueWriteTable(_ corpora: [(variant: CorpusVariant, data: Data)]) throws {
    var table = MarkdownTable(
      "input", "options", "MB out", "JSONSerialization.data", "JSONValue.jsonData",
      "JKSerialization.data", "bytes = Foundation's", "spread")
    for (variant, data) in corpora {
      for format in ValueFormat.allCases
      where options.includes("value-write/\(variant.name)\(format.suffix)") {
        progress("value-write/\(variant.name)\(format.suffix)")
        let written = ValueWork.writing.map { $0.run(data, format.options) }
        let timings = try Contender.timings(
          zip(ValueWork.writing, written).map { work, run in
            Contender(name: work.rawValue) { try run() }
          }, rounds: options.rounds, batchSeconds: options.batchSeconds)
        let output = try ValueWork.output(data, format.options)
        var row = Self.valueRow(
          [variant.name, format.name, Figure.megabytes(output.foundation.count)],
          output.foundation, timings)
        // Only sorted keys make Foundation's output deterministic.
        row.insert(
          format.options.contains(.sortedKeys)
            ? (output.foundation == output.jsonKit ? "yes" : "**no**") : "–",
          at: row.count - 1)
        table.append(row)
      }
    }
    guard !table.rows.isEmpty else { return }
    print(
      "### Write untyped (median time per call · MB/s of output · × = "
        + "JSONSerialization's time ÷ JSONKit's, median over the rounds; same options on "
        + "both sides)\n")
    table.print()
  }

  /// `leading`, then Foundation's time and each JSONKit contender's with its ratio, then
  /// the largest spread.
  private static func valueRow(_ leading: [String], _ data: Data, _ timings: [Timing])
    -> [String]
  {
    var row = leading
    row.append(
      "\(Figure.milliseconds(timings[0].median)) · "
        + Figure.megabytesPerSecond(data.count, timings[0].median))
    for timing in timings.dropFirst() {
      row.append(
        "\(Figure.milliseconds(timing.median)) · "
          + "\(Figure.megabytesPerSecond(data.count, timing.median)) · "
          + "**\(Figure.ratio(timings[0].ratio(to: timing)))**")
    }
    row.append(Figure.percent(timings.map(\.spread).max() ?? 0))
    return row
  }

  private func valueInstructionTable(_ rows: [(variant: CorpusVariant, data: Data)]) throws {
    guard options.instructions, !rows.isEmpty else { return }
    guard InstructionProbe.valgrind != nil else {
      print("### Instructions of untyped parsing and writing\n\nNot measured: no valgrind.\n")
      return
    }
    let works: [(ValueWork, ValueFormat)] =
      ValueWork.parsing.prefix(2).map { ($0, .compact) }
      + ValueFormat.allCases.prefix(2).flatMap { format in
        ValueWork.writing.prefix(2).map { ($0, format) }
      }
    var table = MarkdownTable(
      "input", "jsonObject", "JSONValue(parsing:)", "×", "data", "jsonData", "×",
      "data sorted", "jsonData sorted", "×")
    for (variant, data) in rows {
      progress("instructions/value-\(variant.name)")
      let file = try scratchFile(variant.name, data)
      let counts = try works.map { work, format in
        try InstructionProbe.count(
          child: ["--value-probe", work.rawValue, format.name, file.path],
          collecting: "measuredDecode",
          name: "value.\(variant.name).\(work.rawValue).\(format.name)", scratch: scratch)
      }
      var row = [variant.name]
      for pair in stride(from: 0, to: counts.count, by: 2) {
        row += [
          Self.millions(counts[pair]), Self.millions(counts[pair + 1]),
          Figure.ratio(Double(counts[pair]) / Double(counts[pair + 1])),
        ]
      }
      table.append(row)
    }
    print(
      "### Instructions of one warm untyped parse and write (callgrind; × = Foundation's ÷ "
        + "JSONKit's)\n")
    table.print()
  }

  private static func millions(_ count: Int) -> String {
    Figure.significant(Double(count) / 1e6) + " M"
  }
}

/// One call on the untyped path, named on a probe's command line.
enum ValueWork: String, CaseIterable {
  case foundationParse = "jsonObject"
  case valueParse = "JSONValue"
  case bridgeParse = "JKSerialization.jsonObject"
  case foundationWrite = "data"
  case valueWrite = "jsonData"
  case bridgeWrite = "JKSerialization.data"

  /// Foundation's parse first, then JSONKit's.
  static let parsing: [ValueWork] = [.foundationParse, .valueParse, .bridgeParse]
  /// Foundation's write first, then JSONKit's.
  static let writing: [ValueWork] = [.foundationWrite, .valueWrite, .bridgeWrite]

  /// One call of the work on the corpus `data`, whose tree (for writing) is made now.
  func run(_ data: Data, _ options: JKOutputFormatting) -> () throws -> Void {
    switch self {
    case .foundationParse:
      return { consume(try JSONSerialization.jsonObject(with: data)) }
    case .valueParse:
      return { consume(try JSONValue(parsing: data)) }
    case .bridgeParse:
      return { consume(try JKSerialization.jsonObject(with: data)) }
    case .foundationWrite:
      let object = try! JSONSerialization.jsonObject(with: data)
      let foundationOptions = ValueFormat.foundation(options)
      return {
        consume(try JSONSerialization.data(withJSONObject: object, options: foundationOptions))
      }
    case .valueWrite:
      let value = try! JSONValue(parsing: data)
      return { consume(try value.jsonData(options: options)) }
    case .bridgeWrite:
      // JKSerialization's own objects: Foundation's hold NSDecimalNumbers for doubles of
      // 17 digits, which JSONValue, holding numbers without loss, does not take.
      let object = try! JKSerialization.jsonObject(with: data)
      return { consume(try JKSerialization.data(withJSONObject: object, options: options)) }
    }
  }

  /// What Foundation and `JSONValue` write for `data` with `options`.
  static func output(_ data: Data, _ options: JKOutputFormatting) throws
    -> (foundation: Data, jsonKit: Data)
  {
    (
      try JSONSerialization.data(
        withJSONObject: try JSONSerialization.jsonObject(with: data),
        options: ValueFormat.foundation(options)),
      try JSONValue(parsing: data).jsonData(options: options)
    )
  }

  /// The child's side of an instruction probe: `arguments` are the work, the format's
  /// name and the file.
  static func runChild(_ arguments: [String]) throws {
    guard arguments.count == 3, let work = ValueWork(rawValue: arguments[0]),
      let format = ValueFormat.allCases.first(where: { $0.name == arguments[1] })
    else { throw ProbeFailure(message: "usage: --value-probe WORK FORMAT FILE") }
    let data = try Data(contentsOf: URL(fileURLWithPath: arguments[2]))
    let run = work.run(data, format.options)
    try run()
    try measuredDecode({ _ in try run() }, data)
  }
}

/// The output options both writers are measured with.
enum ValueFormat: CaseIterable {
  case compact, sorted, prettySorted

  var name: String {
    switch self {
    case .compact: "[]"
    case .sorted: "sorted"
    case .prettySorted: "pretty sorted"
    }
  }

  /// The suffix of the row's name for `--filter`.
  var suffix: String {
    switch self {
    case .compact: ""
    case .sorted: "-sorted"
    case .prettySorted: "-pretty-sorted"
    }
  }

  var options: JKOutputFormatting {
    switch self {
    case .compact: []
    case .sorted: [.sortedKeys]
    case .prettySorted: [.prettyPrinted, .sortedKeys]
    }
  }

  /// The `JSONSerialization` options that mean `options`.
  static func foundation(_ options: JKOutputFormatting) -> JSONSerialization.WritingOptions {
    var result: JSONSerialization.WritingOptions = []
    if options.contains(.sortedKeys) { result.insert(.sortedKeys) }
    if options.contains(.prettyPrinted) { result.insert(.prettyPrinted) }
    return result
  }
}
