import Foundation
import JSONKit

/// `jsonkit validate`: checks files without building any value.
enum ValidateCommand {
  /// The command's description and entry point.
  static let command = Command(
    name: "validate",
    summary: "Check that files are JSON that JSONKit accepts.",
    usage: ["jsonkit validate [OPTIONS] FILE...", "jsonkit validate --lines [OPTIONS] FILE..."],
    discussion: """
      Prints nothing and exits with 0 when every FILE is valid. Each invalid
      FILE gets one line on standard error, FILE:LINE:COLUMN: message, the form
      compilers use, so that editors can jump to the place; the exit status is
      then 1. A FILE that cannot be read is reported the same way as a wrong
      option, with exit status 2, after the other files have been checked.
      Lines and columns count from 1; columns count Unicode characters.
      FILE may be UTF-8, UTF-16 or UTF-32, told apart by a byte order mark
      or by the zero bytes of its first characters, as Foundation does.

      With --lines each FILE is JSON Lines: one value per line, blank lines
      skipped. Every bad line gets its own FILE:LINE:COLUMN: message, and the
      file is read in chunks, so that a file larger than memory can be checked.
      A line longer than --max-record-size bytes (64 MiB) is reported as bad
      and skipped. Each line is read as UTF-8, as JSON Lines requires and as
      JSONKit's JSON Lines readers read it: never as UTF-16 or UTF-32.

      A gzip-compressed FILE is inflated and its JSON checked, unless
      --no-gunzip is given; with --lines it is inflated a chunk at a time.
      A corrupt, truncated or oversized gzip stream is reported as
      FILE: message (compressed byte offset N).
      """,
    groups: [
      OptionGroup(
        title: "INPUT OPTIONS",
        options: [
          .flag("--lines", "Each FILE is JSON Lines: check every line."),
          LineReader.maxRecordSizeOption,
        ]),
      ParseSettings.group,
    ],
    run: run)

  private static func run(_ arguments: Arguments) throws(ToolError) -> ExitStatus {
    let settings = try ParseSettings(arguments)
    let maxLineLength = try LineReader.maxLineLength(arguments)
    guard !arguments.operands.isEmpty else {
      throw .usage("no FILE given (use '-' for standard input)")
    }
    var status = ExitStatus.success
    for operand in arguments.operands {
      do throws(ToolError) {
        if arguments.has("--lines") {
          let reader = LineReader(
            input: InputFile(operand: operand), maxLineLength: maxLineLength,
            decompression: settings.decompression)
          try validateLines(reader, settings)
        } else {
          try validate(InputFile(operand: operand), settings)
        }
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

  /// Checks every line of a JSON Lines input, reporting each bad one.
  private static func validateLines(_ reader: LineReader, _ settings: ParseSettings)
    throws(ToolError)
  {
    var reader = reader
    let name = reader.input.displayName
    var invalid = false
    try ProgressLine.during("validating \(name)", counting: reader.progress) {
      () throws(ToolError) in
      try reader.forEachLine { line, number throws(ToolError) in
        do throws(ToolError) {
          let bytes = try line.get()
          do throws(JKParseError) {
            try JSONValue.validateJSONLinesRecord(
              bytes, options: settings.options, maxDepth: settings.maxDepth)
          } catch {
            throw .invalid(error, in: name, line: number)
          }
        } catch {
          error.report()
          invalid = true
        }
        return true
      }
    }
    if invalid { throw ToolError(status: .invalidInput, message: "") }
  }
}
