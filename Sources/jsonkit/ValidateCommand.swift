import Foundation
import JSONKit

/// `jsonkit validate`: checks files, building no value unless `--pointer`
/// asks for one in each.
enum ValidateCommand {
  /// The command's description and entry point.
  static let command = Command(
    name: "validate",
    summary: "Check that files are JSON that JSONKit accepts.",
    usage: [
      "jsonkit validate [OPTIONS] [--pointer POINTER] FILE...",
      "jsonkit validate --lines [OPTIONS] [--pointer POINTER] FILE...",
    ],
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

      With --pointer, each FILE (with --lines, each record) must also hold
      the value that POINTER, an RFC 6901 JSON Pointer, names: '/data/items'
      names the member "items" of the member "data", '/items/0' the first
      element of "items" and '' the whole document; in a key, '~1' stands for
      '/' and '~0' for '~'. A FILE in which it names nothing gets one line,
      FILE: message (with --lines, FILE:LINE: message), saying where the
      pointer leaves the document, and the exit status is 1; a malformed
      POINTER is a usage error (exit status 2). The values are then built in
      memory, not only checked.

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
          PointerOption.spec("Also require a value where this JSON Pointer points."),
        ]),
      ParseSettings.group,
    ],
    run: run)

  private static func run(_ arguments: Arguments) throws(ToolError) -> ExitStatus {
    let settings = try ParseSettings(arguments)
    let maxLineLength = try LineReader.maxLineLength(arguments)
    let pointer = try PointerOption.pointer(arguments)
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
          try validateLines(reader, settings, pointer)
        } else {
          try validate(InputFile(operand: operand), settings, pointer)
        }
      } catch {
        error.report(command: command.name)
        status = max(status, error.status)
      }
    }
    return status
  }

  /// Checks one input, and that `pointer` names a value in it.
  private static func validate(
    _ input: InputFile, _ settings: ParseSettings, _ pointer: JSONPointer?
  ) throws(ToolError) {
    try ProgressLine.during("validating \(input.displayName)") { () throws(ToolError) in
      let data = try input.read()
      let value: JSONValue
      do throws(JKParseError) {
        guard pointer != nil else {
          try JSONValue.validate(
            data, options: settings.options, maxDepth: settings.maxDepth,
            decompression: settings.decompression)
          return
        }
        value = try JSONValue(
          parsing: data, options: settings.options, maxDepth: settings.maxDepth,
          decompression: settings.decompression)
      } catch {
        throw .invalid(error, in: input.displayName)
      }
      if let pointer {
        _ = try PointerOption.resolve(pointer, in: value, file: input.displayName)
      }
    }
  }

  /// Checks every line of a JSON Lines input, and that `pointer` names a
  /// value in each record, reporting each bad one.
  private static func validateLines(
    _ reader: LineReader, _ settings: ParseSettings, _ pointer: JSONPointer?
  ) throws(ToolError) {
    var reader = reader
    let name = reader.input.displayName
    var invalid = false
    try ProgressLine.during("validating \(name)", counting: reader.progress) {
      () throws(ToolError) in
      try reader.forEachLine { line, number throws(ToolError) in
        do throws(ToolError) {
          let bytes = try line.get()
          let record: JSONValue?
          do throws(JKParseError) {
            guard pointer != nil else {
              try JSONValue.validateJSONLinesRecord(
                bytes, options: settings.options, maxDepth: settings.maxDepth)
              return true
            }
            record = try JSONValue.jsonLinesRecord(
              bytes, options: settings.options, maxDepth: settings.maxDepth)
          } catch {
            throw .invalid(error, in: name, line: number)
          }
          if let pointer, let record {
            _ = try PointerOption.resolve(pointer, in: record, file: name, line: number)
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
