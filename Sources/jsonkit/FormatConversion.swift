import Foundation
import JSONKit

/// `jsonkit format --from` and `--to`: reading CBOR as well as JSON, and
/// writing CBOR or its diagnostic notation as well as JSON.
enum FormatConversion {
  /// What the input or the output is.
  enum Format: String {
    /// JSON text.
    case json
    /// CBOR (RFC 8949) bytes.
    case cbor
    /// CBOR's diagnostic notation, as text (output only).
    case diagnostic
  }

  /// The options, for the command's help.
  static let options: [OptionSpec] = [
    .valued("--from", "FORMAT", "Read FILE as json or cbor (default: by its name and bytes)."),
    .valued("--to", "FORMAT", "Write json (the default), cbor, or diagnostic notation."),
    .flag("--deterministic", "With --to cbor: order every map's keys by their bytes."),
    .flag(
      "--string-references", "With --to cbor: write repeated strings once, then as references."),
    .flag(
      "--shared-references",
      "With --to cbor: write repeated arrays and maps once, then as references."),
  ]

  /// The CBOR options the flags ask for; an error when they are given
  /// without `--to cbor`.
  static func cborOptions(_ arguments: Arguments, for format: Format) throws(ToolError)
    -> JKCBOREncoder.Options
  {
    var options: JKCBOREncoder.Options = []
    if arguments.has("--deterministic") { options.insert(.deterministic) }
    if arguments.has("--string-references") { options.insert(.stringReferences) }
    if arguments.has("--shared-references") { options.insert(.sharedReferences) }
    if !options.isEmpty && format != .cbor {
      throw .usage("--deterministic, --string-references and --shared-references need --to cbor")
    }
    return options
  }

  /// The bytes the self-described CBOR tag (55799) starts with.
  private static let selfDescribedPrefix: [UInt8] = [0xD9, 0xD9, 0xF7]

  /// The input format `--from` names, or the one `input` looks like: CBOR
  /// for a name ending in `.cbor` or bytes starting with tag 55799.
  static func inputFormat(
    _ arguments: Arguments, _ input: InputFile, _ data: Data
  ) throws(ToolError) -> Format {
    if let text = arguments.value(of: "--from") {
      guard let format = Format(rawValue: text), format != .diagnostic else {
        throw .usage("--from needs json or cbor, not '\(text)'")
      }
      return format
    }
    if input.operand.lowercased().hasSuffix(".cbor") || data.starts(with: selfDescribedPrefix) {
      return .cbor
    }
    return .json
  }

  /// The output format `--to` names.
  static func outputFormat(_ arguments: Arguments) throws(ToolError) -> Format {
    guard let text = arguments.value(of: "--to") else { return .json }
    guard let format = Format(rawValue: text) else {
      throw .usage("--to needs json, cbor or diagnostic, not '\(text)'")
    }
    return format
  }

  /// The CBOR item in `data`, or the error that says what is wrong and at
  /// which byte.
  static func readCBOR(_ data: Data, name: String) throws(ToolError) -> CBORValue {
    do {
      return try CBORValue(cbor: data)
    } catch let error as JKCBORError {
      throw ToolError(
        status: .invalidInput, message: "\(name): byte \(error.offset): \(error.message)")
    } catch {
      throw ToolError(status: .invalidInput, message: "\(name): \(error)")
    }
  }

  /// The JSON value that holds what `item` holds, or the error that names
  /// the first place JSON cannot.
  static func json(of item: CBORValue, name: String) throws(ToolError) -> JSONValue {
    do throws(JSONValue.CBORConversionError) {
      return try JSONValue(item)
    } catch {
      throw ToolError(status: .invalidInput, message: "\(name): \(error.description)")
    }
  }

  /// The output's bytes for `item` in `format` (CBOR or diagnostic
  /// notation, with a line break).
  static func output(_ item: CBORValue, as format: Format, options: JKCBOREncoder.Options = [])
    -> [Data]
  {
    guard format == .cbor else { return [Data(item.description.utf8), Data([0x0A])] }
    guard options.contains(.sharedReferences) else { return [item.cborData(options: options)] }
    // Shared values are numbered in output order: maps are put in their
    // deterministic order first, which sharing keeps (keys are never shared).
    var options = options
    let item = options.remove(.deterministic) == nil ? item : ValueSharing.sortingMaps(item)
    options.remove(.sharedReferences)
    return [ValueSharing.shared(item).cborData(options: options)]
  }
}
