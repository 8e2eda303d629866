import Foundation
import JSONKit

/// `jsonkit format`: parses JSON and writes it (or the value a JSON Pointer
/// names in it) again, compact or pretty.
enum FormatCommand {
  /// The command's description and entry point.
  static let command = Command(
    name: "format",
    summary: "Rewrite JSON compactly or pretty-printed.",
    usage: [
      "jsonkit format [OPTIONS] [--pointer POINTER] [FILE | -]",
      "jsonkit format [OPTIONS] --in-place FILE...",
      "jsonkit format --lines [OPTIONS] [--pointer POINTER] [FILE | -]",
    ],
    discussion: """
      Parses FILE (standard input when there is none, or for '-') and writes
      it to standard output, compact unless --pretty is given, followed by a
      line break. Numbers are written back exactly (integers as they were,
      doubles in their shortest round-tripping form); a key repeated in an
      object keeps its last value. '/' is written as itself unless
      --escape-slashes asks for Foundation's '\\/'.

      With --pointer, only the value that POINTER, an RFC 6901 JSON Pointer,
      names is written, as the whole document would be; the whole FILE is
      still checked. '/data/items' names the member "items" of the member
      "data", '/items/0' the first element of "items" and '' the whole
      document; in a key, '~1' stands for '/' and '~0' for '~'. When POINTER
      names nothing, FILE: message says where it leaves the document and the
      exit status is 1; a malformed POINTER is a usage error (exit status 2).
      --pointer cannot be used with --in-place.

      With --in-place each FILE is replaced by its formatted text: the text
      goes to a temporary file in the same directory, which takes the
      original's permissions and is renamed over it, so the original is never
      left half-written. A FILE that is not valid is reported as by
      'jsonkit validate' and left untouched, as is one already formatted. A
      FILE that is not a regular file (or a symbolic link to one), such as a
      named pipe or a device, is refused with exit status 2 and left as it is.

      With --lines the input is JSON Lines, read in chunks: each record is
      written compactly on a line of its own, blank lines are dropped, and the
      first bad line (or one longer than --max-record-size bytes, 64 MiB) is
      reported as by 'jsonkit validate' and ends the output with exit status
      1. --pretty cannot be used with --lines, since a JSON Lines record must
      stay on one line. Each line is read as UTF-8, as JSON Lines requires and
      as JSONKit's JSON Lines readers read it: never as UTF-16 or UTF-32.
      With --pointer each record is written as the value POINTER names in it,
      and a record in which it names nothing (FILE:LINE: message) ends the
      output as a bad line does.

      gzip-compressed input is inflated first (unless --no-gunzip), with
      --lines a chunk at a time. With --gzip the output is the formatted text
      compressed as one gzip member, without the final line break.

      CBOR (RFC 8949), JSONKit's binary format, converts both ways: --to cbor
      writes the document as CBOR ('jsonkit format --to cbor in.json >
      out.cbor'), and a FILE whose name ends in .cbor, or that starts with the
      self-described CBOR tag, or that --from cbor names, is read as CBOR and
      written as JSON ('jsonkit format out.cbor'). CBOR is read strictly; an
      item JSON cannot hold (a byte string, a tag, NaN) is reported with the
      JSON Pointer of its place, exit status 1. --to diagnostic prints CBOR
      in RFC 8949's diagnostic notation. With --to cbor, --deterministic
      orders every map's keys by their encoded bytes (RFC 8949 §4.2.1), so
      that equal documents give equal bytes, --string-references writes
      each repeated string once and then as a reference (tags 256 and 25),
      and --shared-references each array or map that occurs more than once
      with equal contents, where that is smaller (tags 28 and 29); CBOR input
      may hold both kinds of reference. The JSON output options apply to
      JSON output only; CBOR cannot be used with --lines, --in-place or
      --gzip.
      """,
    groups: [
      OptionGroup(
        title: "OUTPUT OPTIONS",
        options: [
          .flag("--pretty", "One member or element per line, indented two spaces."),
          .flag("--sort-keys", "Write object members sorted by key."),
          .flag("--escape-unicode", "Write non-ASCII characters as \\uXXXX escapes."),
          .flag("--escape-slashes", "Write '/' as '\\/', as Foundation does."),
          .flag("--no-escape-slashes", "Write '/' as it is (the default)."),
          .flag("--in-place", "Replace each FILE rather than print it."),
          .flag("--lines", "Read and write JSON Lines, one record per line."),
          PointerOption.spec("Write only the value this JSON Pointer names."),
          LineReader.maxRecordSizeOption,
          .flag("--gzip", "Compress the output with gzip (level 6)."),
          .valued("--gzip-level", "N", "Compress the output with gzip at level N, 0 to 9."),
        ] + FormatConversion.options),
      ParseSettings.group,
    ],
    run: run)

  private static func run(_ arguments: Arguments) throws(ToolError) -> ExitStatus {
    let settings = try ParseSettings(arguments)
    let formatting = outputFormatting(arguments)
    let compression = try compression(arguments)
    let maxLineLength = try LineReader.maxLineLength(arguments)
    let pointer = try PointerOption.pointer(arguments)
    var operands = arguments.operands
    let outputFormat = try FormatConversion.outputFormat(arguments)
    _ = try FormatConversion.cborOptions(arguments, for: outputFormat)
    if outputFormat != .json || arguments.value(of: "--from") == "cbor" {
      for option in ["--lines", "--in-place", "--gzip", "--gzip-level"] where arguments.has(option)
      {
        throw .usage("\(option) cannot be used with CBOR")
      }
    }
    if arguments.has("--lines") {
      guard !arguments.has("--pretty") else {
        throw .usage("--pretty cannot be used with --lines: a JSON Lines record stays on one line")
      }
      guard !arguments.has("--in-place") else {
        throw .usage("--in-place cannot be used with --lines")
      }
      guard compression == .none else {
        throw .usage("--gzip cannot be used with --lines: each record is written as a line of text")
      }
    }
    if arguments.has("--in-place") {
      guard pointer == nil else {
        throw .usage("--pointer cannot be used with --in-place: it would replace FILE with a part")
      }
      guard !operands.isEmpty else { throw .usage("--in-place needs at least one FILE") }
      guard !operands.contains("-") else {
        throw .usage("--in-place cannot rewrite standard input")
      }
    } else {
      if operands.isEmpty { operands = ["-"] }
      guard operands.count == 1 else {
        throw .usage("one FILE at a time without --in-place (got \(operands.count))")
      }
    }

    var status = ExitStatus.success
    for operand in operands {
      do throws(ToolError) {
        let input = InputFile(operand: operand)
        if arguments.has("--lines") {
          let reader = LineReader(
            input: input, maxLineLength: maxLineLength, decompression: settings.decompression)
          try formatLines(reader, settings, formatting, pointer)
        } else if arguments.has("--in-place") {
          try formatInPlace(input, settings, formatting, compression)
        } else {
          let output = try convert(
            input, arguments, outputFormat, settings, formatting, compression, pointer)
          try OutputFile.writeStandardOutput(output)
        }
      } catch {
        error.report(command: command.name)
        status = max(status, error.status)
      }
    }
    return status
  }

  /// The library's output options the command line asks for.
  static func outputFormatting(_ arguments: Arguments) -> JKOutputFormatting {
    var formatting: JKOutputFormatting = []
    if arguments.has("--pretty") { formatting.insert(.prettyPrinted) }
    if arguments.has("--sort-keys") { formatting.insert(.sortedKeys) }
    if arguments.has("--escape-unicode") { formatting.insert(.escapeUnicode) }
    // A formatting tool leaves '/' alone unless asked: '\/' only helps JSON
    // pasted into an HTML <script>.
    if arguments.lastOf("--escape-slashes", "--no-escape-slashes") != "--escape-slashes" {
      formatting.insert(.withoutEscapingSlashes)
    }
    return formatting
  }

  /// The compression `--gzip` and `--gzip-level` ask for.
  static func compression(_ arguments: Arguments) throws(ToolError) -> JKCompression {
    if let text = arguments.value(of: "--gzip-level") {
      guard let level = Int(text), (0...9).contains(level) else {
        throw .usage("--gzip-level needs a level from 0 to 9, not '\(text)'")
      }
      return .gzip(level: level)
    }
    return arguments.has("--gzip") ? .gzip : .none
  }

  private static let lineBreak = Data([0x0A])

  /// The output's pieces for JSON `data` read from `input`: the formatted
  /// text (of the value `pointer` names, if any) and a line break, or the
  /// text compressed.
  private static func format(
    _ input: InputFile, _ data: Data, _ settings: ParseSettings,
    _ formatting: JKOutputFormatting, _ compression: JKCompression, _ pointer: JSONPointer? = nil
  ) throws(ToolError) -> [Data] {
    try ProgressLine.during("formatting \(input.displayName)") { () throws(ToolError) in
      let value = try parse(input, data, settings, pointer)
      return try write(value, input.displayName, formatting, compression)
    }
  }

  /// The JSON value in `data` (or the one `pointer` names in it).
  private static func parse(
    _ input: InputFile, _ data: Data, _ settings: ParseSettings, _ pointer: JSONPointer?
  ) throws(ToolError) -> JSONValue {
    var value: JSONValue
    do throws(JKParseError) {
      value = try JSONValue(
        parsing: data, options: settings.options, maxDepth: settings.maxDepth,
        decompression: settings.decompression)
    } catch {
      throw .invalid(error, in: input.displayName)
    }
    if let pointer {
      value = try PointerOption.resolve(pointer, in: value, file: input.displayName)
    }
    return value
  }

  /// `value` as JSON text and a line break, or the text compressed.
  private static func write(
    _ value: JSONValue, _ name: String, _ formatting: JKOutputFormatting,
    _ compression: JKCompression
  ) throws(ToolError) -> [Data] {
    do {
      let text = try value.jsonData(options: formatting, compression: compression)
      return compression == .none ? [text, lineBreak] : [text]
    } catch {
      // Parsed JSON holds no NaN or infinity, so this is not expected.
      throw ToolError(status: .invalidInput, message: "cannot write \(name): \(error)")
    }
  }

  /// The output for `input`, read as JSON or CBOR and written as
  /// `outputFormat` asks.
  private static func convert(
    _ input: InputFile, _ arguments: Arguments, _ outputFormat: FormatConversion.Format,
    _ settings: ParseSettings, _ formatting: JKOutputFormatting, _ compression: JKCompression,
    _ pointer: JSONPointer?
  ) throws(ToolError) -> [Data] {
    let data = try input.read()
    let inputFormat = try FormatConversion.inputFormat(arguments, input, data)
    if inputFormat == .json && outputFormat == .json {
      return try format(input, data, settings, formatting, compression, pointer)
    }
    let name = input.displayName
    var item: CBORValue
    if inputFormat == .cbor {
      item = try FormatConversion.readCBOR(data, name: name)
      if outputFormat == .json || pointer != nil {
        var value = try FormatConversion.json(of: item, name: name)
        if let pointer { value = try PointerOption.resolve(pointer, in: value, file: name) }
        if outputFormat == .json { return try write(value, name, formatting, compression) }
        item = CBORValue(value)
      }
    } else {
      item = CBORValue(try parse(input, data, settings, pointer))
    }
    let options = try FormatConversion.cborOptions(arguments, for: outputFormat)
    return FormatConversion.output(item, as: outputFormat, options: options)
  }

  /// Replaces a file with its formatted text, unless it already is that text.
  private static func formatInPlace(
    _ input: InputFile, _ settings: ParseSettings, _ formatting: JKOutputFormatting,
    _ compression: JKCompression
  ) throws(ToolError) {
    // Before reading: opening a named pipe would wait for a writer.
    try OutputFile.checkReplaceable(input.operand)
    let original = try input.read()
    let output = try format(input, original, settings, formatting, compression)
    let alreadyFormatted =
      original.count == output.reduce(0) { $0 + $1.count } && original == output.reduce(Data(), +)
    guard !alreadyFormatted else { return }
    try OutputFile.replace(input.operand, with: output)
  }

  /// Writes each record of a JSON Lines input (or the value `pointer` names
  /// in it) compactly on its own line, until the first bad line.
  private static func formatLines(
    _ reader: LineReader, _ settings: ParseSettings, _ formatting: JKOutputFormatting,
    _ pointer: JSONPointer?
  ) throws(ToolError) {
    var reader = reader
    let name = reader.input.displayName
    var output = Data()
    do throws(ToolError) {
      try ProgressLine.during("formatting \(name)", counting: reader.progress) {
        () throws(ToolError) in
        try reader.forEachLine { line, number throws(ToolError) in
          let bytes = try line.get()
          let record: JSONValue?
          do throws(JKParseError) {
            record = try JSONValue.jsonLinesRecord(
              bytes, options: settings.options, maxDepth: settings.maxDepth)
          } catch {
            throw .invalid(error, in: name, line: number)
          }
          guard var value = record else { return true }
          if let pointer {
            value = try PointerOption.resolve(pointer, in: value, file: name, line: number)
          }
          do {
            output += try value.jsonData(options: formatting)
            output.append(0x0A)
          } catch {
            throw ToolError(status: .invalidInput, message: "cannot write \(name): \(error)")
          }
          if output.count >= 1 << 20 {
            try OutputFile.writeStandardOutput([output])
            output.removeAll(keepingCapacity: true)
          }
          return true
        }
      }
    } catch {
      // The records before a bad line are written, then the line reported.
      if error.status == .invalidInput { try OutputFile.writeStandardOutput([output]) }
      throw error
    }
    try OutputFile.writeStandardOutput([output])
  }
}
