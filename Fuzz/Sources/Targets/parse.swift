import Foundation

@testable import JSONKit

// Parsing to `JSONValue`.
//
// Selector bits 0–3 are the parse options; bits 4–5 the nesting limit
// (512, 1, 16, or `.max`); bits 6–7 the input form (`[UInt8]`, `Data`,
// `String`, a raw buffer). Checked for every input:
//
// - parsing and validation agree, error for error;
// - an error's position lies in the input;
// - every number, string and key on the tape matches an independent
//   reading of the text, and container counts and spans are consistent;
// - no value is deeper than the limit;
// - input accepted strictly is accepted, as the same value, with every
//   option on;
// - the value writes compactly and reads back as the same value.
//
// gzip recognition is off here, so that every position is one in the
// input; the `gzip` target reads gzip.

let fuzzTargetUsesModels = false
let fuzzTargetSeedsGzip = false
let fuzzTargetSeedsCBOR = false

private let depthLimits = [512, 1, 16, Int.max]

/// libFuzzer's entry point: parses one input and checks the result.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParse(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let input = FuzzInput(data, size) else { return 0 }
  let options = input.parseOptions
  let maxDepth = depthLimits[Int(input.selector >> 4 & 3)]
  let form = input.selector >> 6
  // The String form repairs ill-formed UTF-8 before JSONKit sees it.
  let document =
    form == 2 ? Array(String(decoding: input.document, as: UTF8.self).utf8) : input.bytes
  // A String is never taken for UTF-16, but its bytes can be, and the
  // checks below read the bytes (the utf16 target covers wide input).
  if form == 2, document.withUnsafeBytes({ InputEncoding.detect($0).encoding }) != .utf8 {
    return 0
  }

  let parsed = Result { () throws(JKParseError) -> JSONValue in
    switch form {
    case 0:
      return try JSONValue(
        parsing: input.bytes, options: options, maxDepth: maxDepth, decompression: .disabled)
    case 1:
      return try JSONValue(
        parsing: input.data, options: options, maxDepth: maxDepth, decompression: .disabled)
    case 2:
      let text = String(decoding: input.document, as: UTF8.self)
      return try JSONValue(parsing: text, options: options, maxDepth: maxDepth)
    default:
      return try JSONValue(
        parsing: input.document, options: options, maxDepth: maxDepth, decompression: .disabled)
    }
  }
  let validated = Result { () throws(JKParseError) in
    try JSONValue.validate(
      document, options: options, maxDepth: maxDepth, decompression: .disabled)
  }

  switch (parsed, validated) {
  case (.failure(let error), .failure(let other)):
    require(error == other, "parsing and validation fail alike", "\(error)\n\(other)")
    checkPosition(of: error, in: document)
    _ = error.description
  case (.success(let value), .success):
    checkAccepted(value, document: document, options: options, maxDepth: maxDepth)
  case (.failure(let error), .success):
    violated("validation accepts what parsing rejects", "\(error)")
  case (.success, .failure(let error)):
    violated("parsing accepts what validation rejects", "\(error)")
  }
  return 0
}

private func checkPosition(of error: JKParseError, in document: [UInt8]) {
  require(error.offset >= 0 && error.offset <= document.count, "an error's offset is in the input")
  require(error.line >= 1 && error.column >= 1, "lines and columns count from 1")
  let breaks = document.prefix(error.offset).filter { $0 == 0x0A || $0 == 0x0D }.count
  require(error.line - 1 <= breaks, "an error's line is at most the line breaks before it")
  require(!error.message.isEmpty, "an error says what is wrong")
}

private func checkAccepted(
  _ value: JSONValue, document: [UInt8], options: JKParseOptions, maxDepth: Int
) {
  document.withUnsafeBytes { checkTape(of: $0, options: options, maxDepth: maxDepth) }
  require(depth(of: value) <= maxDepth, "no value is deeper than the limit")
  _ = value.description
  _ = value.debugDescription

  if !options.isEmpty {
    switch Result(catching: { try JSONValue(parsing: document, maxDepth: maxDepth) }) {
    case .success(let strict):
      require(
        difference(strict, value, keyOrder: true) == nil,
        "options change nothing about strictly valid input",
        difference(strict, value, keyOrder: true) ?? "")
    case .failure:
      break
    }
  }
  // Options only ever accept more.
  let everything: JKParseOptions = [
    .comments, .unicodeNewlines, .looseUnicode, .permitTextAfterValidJSON,
  ]
  require(
    (try? JSONValue.validate(document, options: everything, maxDepth: maxDepth)) != nil,
    "every option together accepts what fewer options accept")

  guard let written = try? value.jsonBytes() else {
    violated("a parsed value can be written")
  }
  guard let reread = try? JSONValue(parsing: written, maxDepth: maxDepth) else {
    violated("written text parses strictly", show(written))
  }
  require(
    difference(value, reread, keyOrder: true) == nil, "written text reads back as the same value",
    difference(value, reread, keyOrder: true) ?? "")
}
