import Foundation

@testable import JSONKit

// UTF-16 and UTF-32 input.
//
// Selector bits 0–3 are the parse options; bits 4–5 the encoding (UTF-16LE,
// UTF-16BE, UTF-32LE, UTF-32BE); bit 6 a byte order mark first; bit 7 the
// document's bytes taken as they are (ill-formed units and all) rather than
// transcoded from UTF-8 into the encoding. The input is read against the
// standard library's decoding of the same bytes (each ill-formed unit one
// U+FFFD, an incomplete last unit one more), parsed as a `String`.
// Checked for every input:
//
// - well-formed text reads exactly as its reference: the same value, or the
//   same error kind, message, line and column;
// - under `.looseUnicode`, ill-formed text reads as its reference too
//   (values, error kinds, lines and columns);
// - strictly, ill-formed text is accepted only where its reference is, as
//   the same value (it was in trailing text that the options ignore);
// - an error's offset is at a code unit of the input, and the text before
//   it is the reference's text before its error;
// - `JKDecoder` reads `JSONValue` exactly when parsing does, as the same
//   value, and validation agrees with parsing.

let fuzzTargetUsesModels = false
let fuzzTargetSeedsGzip = false
let fuzzTargetSeedsCBOR = false

private let encodings: [(encoding: InputEncoding, mark: [UInt8])] = [
  (.utf16LittleEndian, [0xFF, 0xFE]), (.utf16BigEndian, [0xFE, 0xFF]),
  (.utf32LittleEndian, [0xFF, 0xFE, 0x00, 0x00]), (.utf32BigEndian, [0x00, 0x00, 0xFE, 0xFF]),
]

private let decoders: [JKDecoder] = (0..<16).map { bits in
  let decoder = JKDecoder()
  decoder.parseOptions = JKParseOptions(rawValue: UInt32(bits))
  return decoder
}

/// libFuzzer's entry point: reads one input in a wide encoding and checks it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUTF16(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let input = FuzzInput(data, size) else { return 0 }
  let options = input.parseOptions
  let (encoding, mark) = encodings[Int(input.selector >> 4 & 3)]
  var wide = input.selector & 0x40 != 0 ? mark : []
  if input.selector & 0x80 != 0 {
    wide += input.bytes
  } else {
    guard let text = String(validating: input.document, as: UTF8.self) else { return 0 }
    wide += encode(text, as: encoding)
  }
  let parsed = Result { () throws(JKParseError) in try JSONValue(parsing: wide, options: options) }
  let validated = Result { () throws(JKParseError) in
    try JSONValue.validate(wide, options: options)
  }
  switch (parsed, validated) {
  case (.success, .success): break
  case (.failure(let error), .failure(let other)):
    require(error == other, "parsing and validation fail alike", "\(error)\n\(other)")
  default: violated("parsing and validation agree", "\(parsed)\n\(validated)")
  }
  checkDecoder(wide, options: options, parsed: parsed)

  let (detected, markLength) = wide.withUnsafeBytes { InputEncoding.detect($0) }
  guard detected != .utf8 else { return 0 }
  let (reference, wellFormed) = referenceText(Array(wide[markLength...]), as: detected)
  // A second mark reads as an error; the reference's String would skip it.
  guard reference.unicodeScalars.first != "\u{FEFF}" else {
    guard case .failure = parsed else { violated("a second byte order mark is an error") }
    return 0
  }
  let expected = Result { () throws(JKParseError) in
    try JSONValue(parsing: reference, options: options)
  }
  let loose = options.contains(.looseUnicode)
  switch (parsed, expected) {
  case (.success(let value), .success(let other)):
    require(
      difference(value, other, keyOrder: true) == nil, "wide text reads as its reference",
      difference(value, other, keyOrder: true) ?? "")
  case (.success(let value), .failure(let error)):
    violated("wide text is accepted where its reference is not", "\(value)\n\(error)")
  case (.failure(let error), .success):
    require(!wellFormed && !loose, "wide text is rejected only where it is ill-formed", "\(error)")
  case (.failure(let error), .failure(let other)):
    guard wellFormed || loose else { break }
    require(
      error.kind == other.kind && error.line == other.line && error.column == other.column,
      "wide text fails as its reference does", "\(error)\n\(other)")
    require(
      !wellFormed || error.message == other.message, "the message is the reference's",
      "\(error)\n\(other)")
    checkOffset(of: error, in: wide, markLength: markLength, encoding: detected, reference: other)
  }
  return 0
}

/// `text` in `encoding`, without a byte order mark.
private func encode(_ text: String, as encoding: InputEncoding) -> [UInt8] {
  var bytes: [UInt8] = []
  switch encoding {
  case .utf16LittleEndian, .utf16BigEndian:
    for unit in text.utf16 {
      let pair = [UInt8(truncatingIfNeeded: unit), UInt8(truncatingIfNeeded: unit >> 8)]
      bytes += encoding == .utf16LittleEndian ? pair : pair.reversed()
    }
  default:
    for scalar in text.unicodeScalars {
      let quad = (0..<4).map { UInt8(truncatingIfNeeded: scalar.value >> (8 * $0)) }
      bytes += encoding == .utf32LittleEndian ? quad : quad.reversed()
    }
  }
  return bytes
}

/// The standard library's reading of `bytes` in `encoding`, and whether it
/// needed no U+FFFD; an incomplete last unit is one more U+FFFD.
private func referenceText(_ bytes: [UInt8], as encoding: InputEncoding) -> (String, Bool) {
  let unitSize = encoding.unitSize
  let whole = bytes.count / unitSize * unitSize
  var text: String
  var wellFormed = true
  if unitSize == 2 {
    let units = stride(from: 0, to: whole, by: 2).map { index in
      encoding == .utf16LittleEndian
        ? UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
        : UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
    }
    wellFormed = String(validating: units, as: UTF16.self) != nil
    text = String(decoding: units, as: UTF16.self)
  } else {
    let units = stride(from: 0, to: whole, by: 4).map { index in
      (0..<4).reduce(UInt32(0)) { value, byte in
        let position = encoding == .utf32LittleEndian ? index + 3 - byte : index + byte
        return value << 8 | UInt32(bytes[position])
      }
    }
    wellFormed = units.allSatisfy { Unicode.Scalar($0) != nil }
    text = String(decoding: units, as: UTF32.self)
  }
  if whole < bytes.count {
    text += "\u{FFFD}"
    wellFormed = false
  }
  return (text, wellFormed)
}

/// The error's offset is at a code unit of `wide`, and the text before that
/// unit is the reference's text before its error.
private func checkOffset(
  of error: JKParseError, in wide: [UInt8], markLength: Int, encoding: InputEncoding,
  reference: JKParseError
) {
  let offset = error.offset - markLength
  require(
    offset >= 0 && error.offset <= wide.count, "an error's offset is in the input", "\(error)")
  require(
    offset % encoding.unitSize == 0 || error.offset == wide.count,
    "an error's offset is at a code unit", "\(error.offset)")
  let (before, _) = referenceText(
    Array(wide[markLength..<markLength + offset]), as: encoding)
  require(
    before.utf8.count == reference.offset,
    "the text before an error's offset is the reference's text before its error",
    "\(error)\n\(reference)")
}

/// `JKDecoder` reads `JSONValue` exactly when parsing does, as the same value.
private func checkDecoder(
  _ wide: [UInt8], options: JKParseOptions, parsed: Result<JSONValue, JKParseError>
) {
  let decoded = Result { try decoders[Int(options.rawValue)].decode(JSONValue.self, from: wide) }
  switch (parsed, decoded) {
  case (.success(let value), .success(let other)):
    require(
      difference(value, other, keyOrder: true) == nil, "JKDecoder reads JSONValue as parsing does",
      difference(value, other, keyOrder: true) ?? "")
  case (.failure(let error), .failure(let other)):
    guard let other = other as? DecodingError else {
      violated("JKDecoder throws DecodingError", "\(type(of: other)): \(other)")
    }
    // A syntax error is parsing's error; an integer beyond 64 bits, which
    // the decoder's scan admits for wider types, is JSONValue's to reject,
    // so the scan may go on to a later error.
    if case .dataCorrupted(let context) = other, let scanned = context.underlyingError,
      error.kind != .integerOutOfRange
    {
      require(
        scanned as? JKParseError == error, "JKDecoder fails with parsing's error",
        "\(error)\n\(other)")
    }
  default:
    violated("JKDecoder reads JSONValue exactly when parsing does", "\(parsed)\n\(decoded)")
  }
}
