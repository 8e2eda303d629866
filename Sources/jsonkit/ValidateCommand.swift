import Foundation
import JSONKit

/// `jsonkit validate`: checks files without building any value.
enum ValidateCommand {
  /// The command's description and entry point.
  static let command = Command(
    name: "validate",
    summary: "Check that files are JSON that JSONKit accepts.",
    usage: ["jsonkit validate [OPTIONS] FILE..."],
    discussion: """
      Prints nothing and exits with 0 when every FILE is valid. Each invalid
      FILE gets one line on standard error, FILE:LINE:COLUMN: message, the form
      compilers use, so that editors can jump to the place; the exit status is
      then 1. A FILE that cannot be read is reported the same way as a wrong
      option, with exit status 2, after the other files have been checked.
      Lines and columns count from 1; columns count Unicode characters.

      A gzip-compressed FILE is inflated and its JSON checked, unless
      --no-gunzip is given; a corrupt, truncated or oversized gzip stream is
      reported as FILE: message (compressed byte offset N).
      """,
    groups: [ParseSettings.group],
    run: run)

  private static func run(_ arguments: Arguments) throws(ToolError) -> ExitStatus {
    let settings = try ParseSettings(arguments)
    guard !arguments.operands.isEmpty else {
      throw .usage("no FILE given (use '-' for standard input)")
    }
    var status = ExitStatus.success
    for operand in arguments.operands {
      do throws(ToolError) {
        try validate(InputFile(operand: operand), settings)
      } catch {
        error.report(command: command.name)
        status = max(status, error.status)
      }
    }
    return status
  }

  /// Checks one input.
  private static func validate(_ input: InputFile, _ settings: ParseSettings) throws(ToolError) {
    try ProgressLine.during("validating \(input.displayName)") { () throws(ToolError) in
      let data = try input.read()
      do throws(JKParseError) {
        try JSONValue.validate(
          data, options: settings.options, maxDepth: settings.maxDepth,
          decompression: settings.decompression)
      } catch {
        throw .invalid(error, in: input.displayName)
      }
    }
  }
}
