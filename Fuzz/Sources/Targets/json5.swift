import Foundation

@testable import JSONKit

// JSON5 (`.json5`, `allowsJSON5`), trailing commas and the top-level object
// without braces.
//
// Selector bits 0–2 add `.looseUnicode`, `.unicodeNewlines` and
// `.permitTextAfterValidJSON` to `.json5`; bits 3–4 pick the input form as in
// `parse` (`[UInt8]`, `Data`, `String`, a raw buffer). Checked for every input:
//
// - parsing and validation agree, error for error, and an error's position
//   lies in the input;
// - every number on the tape equals the standard library's reading of its
//   text (JSON5's forms too: hexadecimal, `+`, bare decimal points,
//   Infinity, NaN), and container counts and spans are consistent;
// - every string and key is well-formed UTF-8 without U+0000 or
//   noncharacters (unless `.looseUnicode`);
// - input accepted strictly, or with `.trailingCommas` alone, is accepted
//   as the same value in JSON5;
// - `JKDecoder` with `allowsJSON5` reads the same value as parsing does, and
//   with `assumesTopLevelDictionary` reads a top level without braces as the
//   object that wraps it in braces;
// - the value writes as strict JSON that reads back as the same value, or,
//   holding Infinity or NaN, does not write at all.

let fuzzTargetUsesModels = false
let fuzzTargetSeedsGzip = false
let fuzzTargetSeedsCBOR = false

private let decoder: JKDecoder = {
  let decoder = JKDecoder()
  decoder.allowsJSON5 = true
  return decoder
}()

private let bracelessDecoder: JKDecoder = {
  let decoder = JKDecoder()
  decoder.allowsJSON5 = true
  decoder.assumesTopLevelDictionary = true
  return decoder
}()

/// libFuzzer's entry point: parses one input as JSON5 and checks the result.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON5(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let input = FuzzInput(data, size) else { return 0 }
  var options: JKParseOptions = .json5
  if input.selector & 1 != 0 { options.insert(.looseUnicode) }
  if input.selector & 2 != 0 { options.insert(.unicodeNewlines) }
  if input.selector & 4 != 0 { options.insert(.permitTextAfterValidJSON) }
  let form = input.selector >> 3 & 3
  // The String form repairs ill-formed UTF-8 before JSONKit sees it.
  let document =
    form == 2 ? Array(String(decoding: input.document, as: UTF8.self).utf8) : input.bytes

  // The checks below read the bytes as UTF-8 text; bytes that parsing
  // would inflate or transcode are the gzip and utf16 targets' to read.
  if document.starts(with: [0x1F, 0x8B])
    || document.withUnsafeBytes({ InputEncoding.detect($0).encoding }) != .utf8
  {
    return 0
  }
  let parsed = Result { () throws(JKParseError) -> JSONValue in
    switch form {
    case 0: return try JSONValue(parsing: input.bytes, options: options)
    case 1: return try JSONValue(parsing: input.data, options: options)
    case 2:
      return try JSONValue(
        parsing: String(decoding: input.document, as: UTF8.self), options: options)
    default: return try JSONValue(parsing: input.document, options: options)
    }
  }
  let validated = Result { () throws(JKParseError) in
    try JSONValue.validate(document, options: options)
  }
  switch (parsed, validated) {
  case (.failure(let error), .failure(let other)):
    require(error == other, "parsing and validation fail alike", "\(error)\n\(other)")
    require(
      error.offset >= 0 && error.offset <= document.count && error.line >= 1 && error.column >= 1,
      "an error's position lies in the input", "\(error)")
    require(!error.message.isEmpty, "an error says what is wrong")
  case (.success(let value), .success):
    checkJSON5(value, document: document, options: options)
  case (.failure(let error), .success):
    violated("validation accepts what parsing rejects", "\(error)")
  case (.success, .failure(let error)):
    violated("parsing accepts what validation rejects", "\(error)")
  }
  // Strict JSON and trailing commas are subsets of JSON5.
  for subset: JKParseOptions in [[], .trailingCommas] {
    let narrower = options.subtracting(.json5).union(subset)
    guard let value = try? JSONValue(parsing: document, options: narrower) else { continue }
    guard case .success(let json5) = parsed else {
      violated("JSON5 accepts what \(subset) accepts", show(document))
    }
    require(
      difference(value, json5, keyOrder: true) == nil, "JSON5 reads \(subset) input alike",
      difference(value, json5, keyOrder: true) ?? "")
  }
  if !options.contains(.looseUnicode), !options.contains(.unicodeNewlines),
    !options.contains(.permitTextAfterValidJSON)
  {
    checkDecoders(document, parsed: try? parsed.get())
  }
  return 0
}

private func checkJSON5(_ value: JSONValue, document: [UInt8], options: JKParseOptions) {
  document.withUnsafeBytes { input in
    let configuration = ScanConfiguration(options: options)
    do {
      try InputText(utf8: input).withTape(
        configuration: configuration, pool: ScanContextPool(limit: 1)
      ) { tape in
        checkJSON5Entries(of: tape, loose: options.contains(.looseUnicode))
      }
    } catch {
      violated("a tape scans where the value parsed", "\(error)")
    }
  }
  if holdsNonFinite(value) {
    require((try? value.jsonBytes()) == nil, "Infinity and NaN do not write as strict JSON")
    return
  }
  guard let written = try? value.jsonBytes() else { violated("a parsed value can be written") }
  guard let reread = try? JSONValue(parsing: written) else {
    violated("JSON5 writes as strict JSON", show(written))
  }
  require(
    difference(value, reread, keyOrder: true) == nil, "written JSON reads back as the same value",
    difference(value, reread, keyOrder: true) ?? "")
}

private func holdsNonFinite(_ value: JSONValue) -> Bool {
  switch value {
  case .double(let double): return !double.isFinite
  case .array(let elements): return elements.contains(where: holdsNonFinite)
  case .object(let object): return object.contains { holdsNonFinite($0.value) }
  default: return false
  }
}

private func checkJSON5Entries(of tape: Tape, loose: Bool) {
  for index in 0..<tape.count {
    let entry = tape[index]
    switch entry.kind {
    case .int, .uint, .double:
      checkJSON5Number(entry, text: Tape.numberText(of: entry, in: tape.input))
    case .string, .key:
      let bytes = entry.kind == .key ? Array(tape.key(entry).utf8) : Array(tape.stringBytes(entry))
      guard let text = String(validating: bytes, as: UTF8.self) else {
        violated("a string is well-formed UTF-8", show(bytes))
      }
      if !loose {
        for scalar in text.unicodeScalars {
          let value = scalar.value
          require(
            value != 0 && !(0xFDD0...0xFDEF).contains(value) && value & 0xFFFE != 0xFFFE,
            "no U+0000 or noncharacter in a string", show(bytes))
        }
      }
    case .array, .object:
      checkContainer(at: index, of: tape)
    case .null, .true, .false:
      break
    case .bigInteger:
      violated("no big integers on a tape scanned without allowing them")
    case .bytes:
      violated("no byte strings on a tape scanned from JSON")
    case .sharedReference:
      violated("no shared references on a tape scanned from JSON5")
    }
  }
}

/// Reads a number's text the standard library's way, hexadecimal and
/// JSON5's decimal forms included, and compares it with the tape.
private func checkJSON5Number(_ entry: TapeEntry, text bytes: UnsafeRawBufferPointer) {
  var text = String(decoding: bytes, as: UTF8.self)
  let negative = text.hasPrefix("-")
  if text.hasPrefix("+") || negative { text.removeFirst() }
  if text.lowercased().hasPrefix("0x") {
    guard let magnitude = UInt64(text.dropFirst(2), radix: 16) else {
      violated("a hexadecimal number reads as a UInt64", text)
    }
    let expected = negative ? 0 &- magnitude : magnitude
    require(
      entry.payload == expected && (entry.kind == .int || entry.kind == .uint),
      "a hexadecimal integer reads exactly", text)
    require(
      entry.kind == .uint ? !negative && magnitude > UInt64(Int64.max) : true,
      "only positive integers above Int64.max are unsigned", text)
    return
  }
  guard let magnitude = Double(text) else { violated("a number reads as a Double", text) }
  let expected = negative ? -magnitude : magnitude
  switch entry.kind {
  case .int:
    require(
      Int64((negative ? "-" : "") + text) == Int64(bitPattern: entry.payload),
      "an integer reads exactly", text)
  case .uint:
    require(
      !negative && UInt64(text) == entry.payload && entry.payload > UInt64(Int64.max),
      "a UInt64 above Int64.max reads exactly", text)
  default:
    let actual = Double(bitPattern: entry.payload)
    require(
      actual.bitPattern == expected.bitPattern || (actual.isNaN && expected.isNaN),
      "a double is correctly rounded", "\(text): JSONKit \(actual), standard library \(expected)")
    require(
      actual.isNaN ? actual.sign == expected.sign : true, "NaN keeps its sign", text)
  }
}

/// `JKDecoder` reads what parsing reads; with the braces left out, it reads
/// what parsing reads with them put back.
private func checkDecoders(_ document: [UInt8], parsed: JSONValue?) {
  let decoded = try? decoder.decode(JSONValue.self, from: document)
  require((decoded == nil) == (parsed == nil), "JKDecoder accepts what parsing accepts")
  if let decoded, let parsed {
    require(
      difference(decoded, parsed, keyOrder: true) == nil, "JKDecoder reads the parsed value",
      difference(decoded, parsed, keyOrder: true) ?? "")
  }
  // Whitespace or comments and then `{` make an ordinary object.
  let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
  let body = document.starts(with: bom) ? Array(document.dropFirst(3)) : document
  let significant = body.first { ![0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C].contains($0) }
  guard significant != UInt8(ascii: "{"), significant != UInt8(ascii: "/") else { return }
  let braceless = try? bracelessDecoder.decode(JSONValue.self, from: document)
  // A line break ends a line comment before the closing brace.
  let wrapped = try? JSONValue(
    parsing: (document.starts(with: bom) ? bom : []) + [UInt8(ascii: "{")] + body
      + Array("\n}".utf8),
    options: .json5)
  if let braceless {
    guard let wrapped else {
      violated("a top level without braces reads as the object in braces", show(document))
    }
    require(
      difference(braceless, wrapped, keyOrder: true) == nil,
      "a top level without braces is the object in braces",
      difference(braceless, wrapped, keyOrder: true) ?? "")
  } else if wrapped != nil, !document.contains(UInt8(ascii: "{")) {
    violated("the object in braces reads without them", show(document))
  }
}
