import Foundation
import JSONKit
import JSONKitCorpus

/// `jsonkit bench`: JSONKit against Foundation on the same files, in one process.
enum BenchCommand {
  /// The command's description and entry point.
  static let command = Command(
    name: "bench",
    summary: "Measure JSONKit against Foundation.",
    usage: ["jsonkit bench [OPTIONS] [FILE...]"],
    discussion: """
      Parses each FILE and writes it back, with JSONKit's JSONValue and with
      Foundation's JSONSerialization. Files named twitter.json,
      citm_catalog.json and canada.json are also decoded into their Codable
      models (from JSONKitCorpus) and encoded again, compact and pretty,
      with JKDecoder and JKEncoder against JSONDecoder and JSONEncoder;
      twitter.json is decoded a second time with .convertFromSnakeCase.
      Without FILE, the corpora in Benchmarks/Data are measured, found from
      the current directory or the nearest parent that has them.

      JSONKit and Foundation take turns: each round times one run of each,
      after a warm-up, so that a busy spell of the machine slows both alike;
      each figure is the median of its rounds. MB/s counts input bytes for
      parse and decode, output bytes for write and encode (1 MB = 10^6
      bytes). JK/F is Foundation's time divided by JSONKit's: above 1,
      JSONKit is faster. On a machine busy with other work, --cpu-time
      counts only the time the work had a core. Build with -c release for
      numbers that mean anything:

        swift run -c release jsonkit bench --chart speed.svg

      --chart draws the run as a bar chart: decode and encode throughput
      for each file with Codable models (parse and write for any other),
      each bar labelled with its MB/s and its speed relative to Foundation,
      under the date, the machine and the command.
      """,
    groups: [
      OptionGroup(
        title: "BENCH OPTIONS",
        options: [
          .valued("--iterations", "N", "Time exactly N rounds (default: 5 to 25, ~0.25 s a side)."),
          .valued("--warmup", "N", "Run N times untimed first (default 1)."),
          .flag("--cpu-time", "Time with the thread's CPU clock, not the wall clock."),
          .valued("--chart", "FILE", "Also draw the results as an SVG bar chart in FILE."),
        ])
    ],
    run: run)

  private static func run(_ arguments: Arguments) throws(ToolError) -> ExitStatus {
    var stopwatch = Stopwatch()
    if let text = arguments.value(of: "--iterations") {
      guard let count = Int(text), count > 0 else {
        throw .usage("--iterations needs a positive whole number, not '\(text)'")
      }
      stopwatch.rounds = count
    }
    if let text = arguments.value(of: "--warmup") {
      guard let count = Int(text), count >= 0 else {
        throw .usage("--warmup needs a whole number, not '\(text)'")
      }
      stopwatch.warmUps = count
    }
    stopwatch.cpuTime = arguments.has("--cpu-time")
    let chartPath = arguments.value(of: "--chart")
    if let chartPath { try checkDirectory(of: chartPath) }
    // Everything is read first, so that a missing file stops the run before
    // any time is spent measuring; regular files are mapped, not copied.
    let inputs = try inputs(arguments.operands).map { (input) throws(ToolError) in
      (input, try input.read())
    }
    let rounds =
      switch stopwatch.rounds {
      case 1: "1 timed round"
      case let count?: "median of \(count) interleaved rounds"
      case nil:
        "median of \(Stopwatch.minimumRounds) to \(Stopwatch.maximumRounds) interleaved rounds"
      }
    let warmUps = stopwatch.warmUps == 1 ? "1 warm-up" : "\(stopwatch.warmUps) warm-ups"
    let clock = stopwatch.cpuTime ? "thread CPU time" : "wall-clock time"
    let method = "\(rounds) after \(warmUps), \(clock)"
    Console.write(
      """
      jsonkit \(Tool.version) bench: \(method)
      parse, write: JSONValue vs JSONSerialization
      decode, encode: JKDecoder, JKEncoder vs JSONDecoder, JSONEncoder
      \(buildNote)
      """)
    Console.write(BenchTable.heading)

    var bench = Bench(stopwatch: stopwatch)
    for (input, data) in inputs {
      bench.run(input, data)
    }
    Console.write(bench.table.summary)
    if let chartPath {
      let chart = bench.chart(method: method, command: commandLine)
      try write(BenchChartSVG(chart: chart).document, to: chartPath)
      Console.write("\nChart: \(chartPath)\n")
    }
    return bench.status
  }

  /// Stops before measuring when the chart could not be written afterwards.
  private static func checkDirectory(of path: String) throws(ToolError) {
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      throw .system("cannot write '\(path)': no directory '\(directory)'")
    }
  }

  private static func write(_ text: String, to path: String) throws(ToolError) {
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw .system("cannot write '\(path)': \(error.localizedDescription)")
    }
  }

  /// The command as typed, for the chart: quoted where a shell would need it.
  private static var commandLine: String {
    let words = ["jsonkit"] + CommandLine.arguments.dropFirst()
    return words.map { word in
      let plain =
        !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,+@".contains($0) }
      return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }.joined(separator: " ")
  }

  /// A warning when the numbers come from an unoptimized build.
  private static var buildNote: String {
    #if DEBUG
      "This is a debug build: 'swift run -c release jsonkit bench' gives real numbers.\n\n"
    #else
      "\n"
    #endif
  }

  /// The inputs named on the command line, or the corpora.
  private static func inputs(_ operands: [String]) throws(ToolError) -> [InputFile] {
    if !operands.isEmpty {
      return operands.map(InputFile.init(operand:))
    }
    guard let directory = Corpus.dataDirectory() else {
      throw .usage(
        "no \(Corpus.dataDirectoryPath) in the current directory or its parents; name FILEs")
    }
    return Corpus.allCases.map { InputFile(operand: $0.url(in: directory).path) }
  }
}

/// One run of `jsonkit bench`: the measurements, the table and the outcome.
private struct Bench {
  let stopwatch: Stopwatch
  var table = BenchTable()
  var status = ExitStatus.success
  /// Why measurements failed, printed after the table row that shows them.
  var failures: [String] = []
  /// Every row measured so far, for the chart.
  var rows: [Row] = []
  /// The file being measured, with its size.
  private var file = ""

  /// One task on one file: JSONKit's cell and Foundation's.
  struct Row {
    var file: String
    var task: String
    var jsonKit: BenchTable.Cell
    var foundation: BenchTable.Cell
  }

  /// The coders as the chart names them, in the order they are measured.
  static let coders = ["JSONKit", "Foundation"]

  init(stopwatch: Stopwatch) {
    self.stopwatch = stopwatch
  }

  /// Measures one file: untyped always, typed when its name is a typed corpus's.
  mutating func run(_ input: InputFile, _ data: Data) {
    // Foundation gets only input that JSONKit accepts, so that a row that
    // fails shows a difference between the two, not a broken file.
    do throws(JKParseError) {
      try JSONValue.validate(data)
    } catch {
      ToolError.invalid(error, in: input.displayName).report()
      status = max(status, .invalidInput)
      return
    }
    let name =
      input.isStandardInput
      ? input.displayName : URL(fileURLWithPath: input.operand).lastPathComponent
    let heading = BenchTable.fileLine(name, size: data.count)
    Console.write(heading)
    // The chart names the file as the table does.
    file = heading.trimmingCharacters(in: .newlines)
    untyped(name, data)
    switch Corpus.allCases.first(where: { $0.typed && $0.fileName == name }) {
    case .twitter:
      typed(
        name, data, Twitter.SearchResult.self, snakeCase: TwitterFromSnakeCase.SearchResult.self)
    case .citmCatalog:
      typed(name, data, CITM.Catalog.self, snakeCase: nil as CITM.Catalog.Type?)
    case .canada:
      typed(
        name, data, Canada.FeatureCollection.self, snakeCase: nil as Canada.FeatureCollection.Type?)
    default:
      break
    }
  }

  /// JSONValue against JSONSerialization: parse, then write what was parsed.
  private mutating func untyped(_ name: String, _ data: Data) {
    measure(
      name, "parse",
      jsonKit: {
        blackHole(try JSONValue(parsing: data))
        return data.count
      },
      foundation: {
        blackHole(try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed))
        return data.count
      })
    let value = try? JSONValue(parsing: data)
    let object = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
    measure(
      name, "write",
      jsonKit: {
        guard let value else { throw BenchFailure.noInput }
        return try value.jsonData().count
      },
      foundation: {
        guard let object else { throw BenchFailure.noInput }
        return try JSONSerialization.data(withJSONObject: object, options: .fragmentsAllowed).count
      })
  }

  /// The Codable models: decode (and decode from snake_case), encode compact and pretty.
  private mutating func typed<Model: Codable, SnakeModel: Decodable>(
    _ name: String, _ data: Data, _ model: Model.Type, snakeCase: SnakeModel.Type?
  ) {
    let jkDecoder = JKDecoder()
    let decoder = JSONDecoder()
    measure(
      name, "decode",
      jsonKit: {
        blackHole(try jkDecoder.decode(Model.self, from: data))
        return data.count
      },
      foundation: {
        blackHole(try decoder.decode(Model.self, from: data))
        return data.count
      })

    if let snakeCase {
      let jkSnakeDecoder = JKDecoder()
      jkSnakeDecoder.keyDecodingStrategy = .convertFromSnakeCase
      let snakeDecoder = JSONDecoder()
      snakeDecoder.keyDecodingStrategy = .convertFromSnakeCase
      measure(
        name, "decode snake_case",
        jsonKit: {
          blackHole(try jkSnakeDecoder.decode(snakeCase, from: data))
          return data.count
        },
        foundation: {
          blackHole(try snakeDecoder.decode(snakeCase, from: data))
          return data.count
        })
    }

    // Both encoders get the same value, decoded once, untimed.
    let value = try? decoder.decode(Model.self, from: data)
    for (task, formatting) in [("encode", JKOutputFormatting()), ("encode pretty", .prettyPrinted)]
    {
      let jkEncoder = JKEncoder()
      jkEncoder.outputFormatting = formatting
      let encoder = JSONEncoder()
      encoder.outputFormatting = JSONEncoder.OutputFormatting(rawValue: formatting.rawValue)
      measure(
        name, task,
        jsonKit: {
          guard let value else { throw BenchFailure.noInput }
          return try jkEncoder.encode(value).count
        },
        foundation: {
          guard let value else { throw BenchFailure.noInput }
          return try encoder.encode(value).count
        })
    }
  }

  /// Times both sides of one task and prints its row.
  private mutating func measure(
    _ name: String, _ task: String, jsonKit: @escaping () throws -> Int,
    foundation: @escaping () throws -> Int
  ) {
    let readings = ProgressLine.during("measuring \(name): \(task)") {
      stopwatch.measure([jsonKit, foundation])
    }
    let cells = zip(Self.coders, readings).map { side, reading in
      cell(side, name, task, reading)
    }
    Console.write(table.row(task, jsonKit: cells[0], foundation: cells[1]))
    for failure in failures {
      Console.writeError(failure)
    }
    failures.removeAll()
    rows.append(Row(file: file, task: task, jsonKit: cells[0], foundation: cells[1]))
  }

  private mutating func cell(
    _ side: String, _ name: String, _ task: String,
    _ reading: Result<Stopwatch.Reading, any Error>
  ) -> BenchTable.Cell {
    switch reading {
    case .success(let reading):
      return .measured(median: reading.median, bytes: reading.bytes)
    case .failure(BenchFailure.noInput):
      // The task before already reported why there is nothing to work on.
      status = max(status, .invalidInput)
      return .failed
    case .failure(let error):
      status = max(status, .invalidInput)
      failures.append("jsonkit bench: \(name): \(task) with \(side) failed: \(error)\n")
      return .failed
    }
  }

  /// The run as a chart: Codable decode and encode for each file that has a
  /// model, parse and write for the others, which is all those were measured on.
  func chart(method: String, command: String) -> BenchChart {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
    var build = ""
    #if DEBUG
      build = " (a debug build: its figures mean little)"
    #endif
    var groups: [BenchChart.Group] = []
    var files: [String] = []
    for row in rows where !files.contains(row.file) {
      files.append(row.file)
    }
    for file in files {
      let measured = rows.filter { $0.file == file }
      let typed = measured.contains { $0.task == "decode" }
      let shown = typed ? ["decode", "encode"] : ["parse", "write"]
      let tasks = measured.filter { shown.contains($0.task) }.compactMap(Self.task)
      if !tasks.isEmpty { groups.append(BenchChart.Group(title: file, tasks: tasks)) }
    }
    let tasks = Set(groups.flatMap { $0.tasks.map(\.name) })
    var what: [String] = []
    if tasks.contains("decode") || tasks.contains("encode") {
      what.append("decode, encode: JKDecoder, JKEncoder vs JSONDecoder, JSONEncoder, Codable model")
    }
    if tasks.contains("parse") || tasks.contains("write") {
      what.append("parse, write: JSONValue vs JSONSerialization")
    }
    return BenchChart(
      title: "JSONKit and Foundation: throughput in MB/s, longer is faster",
      notes: [
        "\(formatter.string(from: Date())) · \(Machine.summary)",
        "\(command)\(build)",
        (what + [method]).joined(separator: " · "),
      ],
      coders: Self.coders, baseline: "Foundation", groups: groups)
  }

  /// A row's bars: each side that was measured, with its speed relative to Foundation.
  private static func task(_ result: Row) -> BenchChart.Task? {
    func time(_ cell: BenchTable.Cell) -> Duration? {
      if case .measured(let median, _) = cell, median > .zero { return median }
      return nil
    }
    let baseline = time(result.foundation)
    let bars = zip(coders, [result.jsonKit, result.foundation]).compactMap {
      coder, cell -> BenchChart.Bar? in
      guard case .measured(let median, let bytes) = cell, let own = time(cell) else { return nil }
      return BenchChart.Bar(
        coder: coder, megabytesPerSecond: Double(bytes) / median.seconds / 1e6,
        speedup: baseline.map { $0 / own })
    }
    return bars.isEmpty ? nil : BenchChart.Task(name: result.task, bars: bars)
  }
}

/// A task that cannot run because the step that makes its input failed.
private enum BenchFailure: Error {
  case noInput
}
