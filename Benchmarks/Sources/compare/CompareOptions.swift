import Foundation

/// What the command line asks for.
struct CompareOptions {
  /// Rounds of every interleaved comparison; each figure is the median over them.
  var rounds = 20
  /// Rows run only when their name (`decode/twitter-sorted`, `tape/canada`,
  /// `memory/citm_catalog`, `linear/twitter-x16`, `gzip-decode/twitter`, `gzip-encode/canada`,
  /// `value-parse/canada`, `value-write/twitter-sorted`, `encode/citm_catalog`,
  /// `types-decode/uuid`, `types-encode/orders`, `reject/citm_catalog`, `cbor/orders`, `streams/speed`,
  /// `instructions/canada`)
  /// contains a match.
  var filter: Regex<AnyRegexOutput>?
  /// How long one contender's batch of calls should take, in seconds.
  var batchSeconds = 0.02
  /// Whether to count instructions under callgrind as well.
  var instructions = false

  static let usage = """
    usage: compare [--rounds N] [--filter REGEX] [--batch-ms MS] [--instructions]

    Foundation's JSONDecoder and JSONKit's JKDecoder interleaved in one process, on
    every corpus variant; then encoding, Foundation's value types (dates, UUIDs,
    decimals, data, URLs, generated orders, GitHub events) both ways, small documents
    one per call both ways, CBOR beside JSON and binary plists, tape building,
    the memory of one decode (each in a child process), growth with input size, and
    gzip beside plain JSON. Prints Markdown tables.

      --rounds N       rounds per comparison; figures are medians over them (default 20)
      --filter REGEX   only rows whose name contains a match, such as 'twitter' or
                       '^decode/canada' (names: decode/…, tape/…, memory/…,
                       linear/…, gzip-decode/…, gzip-encode/…, value-parse/…,
                       value-write/…, encode/…, types-decode/…, types-encode/…,
                       small-decode/…, small-encode/…, reject/…, cbor/…, streams/…,
                       instructions/…)
      --batch-ms MS    how long one contender's batch of calls takes (default 20)
      --instructions   also count the instructions of one decode under callgrind
                       (needs valgrind; minutes more; rows instructions/…)
    """

  /// Reads the arguments after the executable's name; exits with the usage on a
  /// mistake or `--help`.
  init(_ arguments: [String]) {
    var remaining = arguments[...]
    func value(_ option: String) -> String {
      guard let value = remaining.popFirst() else { Self.fail("\(option) needs a value") }
      return value
    }
    while let argument = remaining.popFirst() {
      switch argument {
      case "--rounds":
        guard let rounds = Int(value(argument)), rounds > 0 else {
          Self.fail("--rounds needs a positive whole number")
        }
        self.rounds = rounds
      case "--filter":
        let pattern = value(argument)
        do { filter = try Regex(pattern) } catch { Self.fail("--filter: \(error)") }
      case "--batch-ms":
        guard let milliseconds = Double(value(argument)), milliseconds > 0 else {
          Self.fail("--batch-ms needs a positive number")
        }
        batchSeconds = milliseconds / 1000
      case "--instructions":
        instructions = true
      case "--help", "-h":
        print(Self.usage)
        exit(0)
      default:
        Self.fail("unknown argument \(argument)")
      }
    }
  }

  /// Whether the row called `name` is to run.
  func includes(_ name: String) -> Bool {
    guard let filter else { return true }
    return name.contains(filter)
  }

  private static func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("compare: \(message)\n\n\(usage)\n".utf8))
    exit(2)
  }
}
