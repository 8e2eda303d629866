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

      Each measurement is the median of several timed runs after a warm-up.
      MB/s counts input bytes for parse and decode, output bytes for write
      and encode (1 MB = 10^6 bytes). JK/F is Foundation's time divided by
      JSONKit's: above 1, JSONKit is faster. Build with -c release for
      numbers that mean anything:

        swift run -c release jsonkit bench
      """,
    groups: [
      OptionGroup(
        title: "BENCH OPTIONS",
        options: [
          .valued("--iterations", "N", "Time exactly N runs (default: 5 to 25, ~0.25 s)."),
          .valued("--warmup", "N", "Run N times untimed first (default 1)."),
        ])
    ],
    run: run)

  private static func run(_ arguments: Arguments) throws(ToolError) -> ExitStatus {
    var stopwatch = Stopwatch()
    if let text = arguments.value(of: "--iterations") {
      guard let count = Int(text), count > 0 else {
        throw .usage("--iterations needs a positive whole number, not '\(text)'")
      }
      stopwatch.iterations = count
    }
    if let text = arguments.value(of: "--warmup") {
      guard let count = Int(text), count >= 0 else {
        throw .usage("--warmup needs a whole number, not '\(text)'")
      }
      stopwatch.warmUps = count
    }
    // Everything is read first, so that a missing file stops the run before
    // any time is spent measuring; regular files are mapped, not copied.
    let inputs = try inputs(arguments.operands).map { (input) throws(ToolError) in
      (input, try input.read())
    }
    let runs =
      switch stopwatch.iterations {
      case 1: "1 timed run"
      case let count?: "median of \(count) timed runs"
      case nil: "median of \(Stopwatch.minimumRuns) to \(Stopwatch.maximumRuns) timed runs"
      }
    let warmUps = stopwatch.warmUps == 1 ? "1 warm-up" : "\(stopwatch.warmUps) warm-ups"
    Console.write(
      """
      jsonkit \(Tool.version) bench: \(runs) after \(warmUps)
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
    return bench.status
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
    Console.write(BenchTable.fileLine(name, size: data.count))
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
    _ name: String, _ task: String, jsonKit: () throws -> Int, foundation: () throws -> Int
  ) {
    let cells = ProgressLine.during("measuring \(name): \(task)") {
      (cell("JSONKit", name, task, jsonKit), cell("Foundation", name, task, foundation))
    }
    Console.write(table.row(task, jsonKit: cells.0, foundation: cells.1))
    for failure in failures {
      Console.writeError(failure)
    }
    failures.removeAll()
  }

  private mutating func cell(
    _ side: String, _ name: String, _ task: String, _ body: () throws -> Int
  ) -> BenchTable.Cell {
    do {
      let (median, bytes) = try stopwatch.measure(body)
      return .measured(median: median, bytes: bytes)
    } catch BenchFailure.noInput {
      // The task before already reported why there is nothing to work on.
      status = max(status, .invalidInput)
      return .failed
    } catch {
      status = max(status, .invalidInput)
      failures.append("jsonkit bench: \(name): \(task) with \(side) failed: \(error)\n")
      return .failed
    }
  }
}

/// A task that cannot run because the step that makes its input failed.
private enum BenchFailure: Error {
  case noInput
}
