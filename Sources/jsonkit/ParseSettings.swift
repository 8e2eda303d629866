import JSONKit

/// The parse options `validate`, `format` and `bench` share, mapped one to
/// one onto ``JKParseOptions`` and the nesting limit.
struct ParseSettings {
  /// The extensions to strict JSON to accept.
  var options: JKParseOptions = []
  /// The deepest nesting accepted.
  var maxDepth = 512
  /// Whether gzip input is inflated first, and to at most how much.
  var decompression = JKDecompression.gzip

  /// The options as `--help` lists them.
  static let group = OptionGroup(
    title: "PARSE OPTIONS",
    options: [
      .flag("--comments", "Accept // and /* */ comments."),
      .flag("--unicode-newlines", "Accept U+0085, U+2028, U+2029, VT, FF as whitespace."),
      .flag("--loose-unicode", "Turn invalid Unicode in strings into U+FFFD."),
      .flag("--permit-trailing-text", "Ignore what follows the first complete value."),
      .flag("--trailing-commas", "Accept a comma after the last element or member."),
      .flag("--json5", "Accept JSON5, as Foundation's allowsJSON5 (format writes strict JSON)."),
      .valued(
        "--max-depth", "N",
        "Nest arrays and objects at most N deep (512; N up to \(JSONValue.maxDepthLimit))."),
      .flag("--no-gunzip", "Read gzip input as JSON text (and reject it) rather than inflate it."),
      .valued(
        "--max-inflated-size", "BYTES",
        "Inflate gzip input to at most BYTES of JSON (\(JKDecompression.defaultMaxInflatedSize))."),
    ])

  /// The settings the command line asks for.
  init(_ arguments: Arguments) throws(ToolError) {
    if arguments.has("--comments") { options.insert(.comments) }
    if arguments.has("--unicode-newlines") { options.insert(.unicodeNewlines) }
    if arguments.has("--loose-unicode") { options.insert(.looseUnicode) }
    if arguments.has("--permit-trailing-text") { options.insert(.permitTextAfterValidJSON) }
    if arguments.has("--trailing-commas") { options.insert(.trailingCommas) }
    if arguments.has("--json5") { options.insert(.json5) }
    if let text = arguments.value(of: "--max-depth") {
      guard let depth = Int(text), depth > 0 else {
        throw .usage("--max-depth needs a positive whole number, not '\(text)'")
      }
      // The library never nests deeper than its limit; asking for more
      // would otherwise be silently ignored.
      guard depth <= JSONValue.maxDepthLimit else {
        throw .usage("--max-depth can be at most \(JSONValue.maxDepthLimit), not \(depth)")
      }
      maxDepth = depth
    }
    if let text = arguments.value(of: "--max-inflated-size") {
      guard let size = Int(text), size >= 0 else {
        throw .usage("--max-inflated-size needs a whole number of bytes, not '\(text)'")
      }
      decompression.maxInflatedSize = size
    }
    if arguments.has("--no-gunzip") { decompression.recognizesGzip = false }
  }
}

extension JKParseError {
  /// The error as compilers print theirs, `FILE:LINE:COLUMN: message`, so
  /// that editors and terminals can jump to the place; compressed input,
  /// which has no lines, gets `FILE: message (compressed byte offset N)`.
  func diagnostic(in fileName: String) -> String {
    if isInCompressedInput {
      return "\(fileName): \(message) (compressed byte offset \(offset))"
    }
    return "\(fileName):\(line):\(column): \(message)"
  }
}
