import JSONKit

/// How the tool ends: the exit status of each outcome.
///
/// Statuses combine by taking the worst, so a run over several files exits
/// with the status of its worst file.
enum ExitStatus: Int32, Comparable {
  /// Everything worked and every input was accepted.
  case success = 0
  /// An input is not JSON that JSONKit accepts (or a benchmark failed on it).
  case invalidInput = 1
  /// The command line is wrong, or a file could not be read or written.
  case usageOrSystemError = 2

  static func < (lhs: ExitStatus, rhs: ExitStatus) -> Bool {
    lhs.rawValue < rhs.rawValue
  }
}

/// A failure reported as one line on standard error: `FILE:LINE:COLUMN: message`
/// for input JSONKit rejects, `jsonkit COMMAND: message` for anything else.
struct ToolError: Error {
  /// The status the tool exits with.
  var status: ExitStatus
  /// The line to print, without the `jsonkit: ` prefix.
  var message: String

  /// A mistake on the command line; exits with status 2.
  static func usage(_ message: String) -> ToolError {
    ToolError(status: .usageOrSystemError, message: message)
  }

  /// A file that could not be read or written; exits with status 2.
  static func system(_ message: String) -> ToolError {
    ToolError(status: .usageOrSystemError, message: message)
  }

  /// Input that JSONKit rejects, as `FILE:LINE:COLUMN: message`; exits with status 1.
  static func invalid(_ error: JKParseError, in fileName: String) -> ToolError {
    ToolError(status: .invalidInput, message: error.diagnostic(in: fileName))
  }

  /// An error in line `line` of a JSON Lines input, which was read alone.
  static func invalid(_ error: JKParseError, in fileName: String, line: Int) -> ToolError {
    ToolError(
      status: .invalidInput,
      message: "\(fileName):\(line + error.line - 1):\(error.column): \(error.message)")
  }

  /// Prints the error as one line on standard error: a diagnostic about
  /// the input as it is, anything else after `jsonkit COMMAND: `.
  func report(command: String? = nil) {
    if status == .invalidInput {
      // Empty when each problem has been reported already.
      if !message.isEmpty { Console.writeError("\(message)\n") }
      return
    }
    let prefix = command.map { "jsonkit \($0)" } ?? "jsonkit"
    Console.writeError("\(prefix): \(message)\n")
  }
}
