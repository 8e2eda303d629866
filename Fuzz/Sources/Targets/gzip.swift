import Foundation

@testable import JSONKit

// gzip input, read by `JSONValue`, validation and `JKDecoder`.
//
// Selector bit 0 chooses what the document is. When set, it is a gzip
// stream as it stands (or anything else), read with an inflated size limit
// of 4 KiB (bit 7 set) or 1 MiB. When clear, it is JSON text that the
// target compresses at a level chosen by bits 1–3 and then alters as bits
// 4–6 say: not at all, split into two members, truncated, a byte changed,
// a byte appended, its length or CRC-32 made to lie, or read with a limit
// one byte short. Checked for every input:
//
// - parsing, validation and `JKDecoder` agree, error for error (JKDecoder
//   with the parse error underneath, for errors in the compressed stream);
// - an error in the compressed stream has its offset in the stream and no
//   line or column, and only gzip input has one;
// - what reads without error (or with an error in the JSON) is what the
//   inflated text reads as, inflated within the limit;
// - the compressed text reads as the text itself; two members read as one;
//   a truncated stream, a byte after the last member, a lying length or
//   CRC-32, or text over the limit is an error at the right place; a
//   changed byte is an error or changes nothing.

let fuzzTargetUsesModels = false
let fuzzTargetSeedsGzip = true
let fuzzTargetSeedsCBOR = false

private let levels = [0, 1, 2, 3, 5, 6, 8, 9]

/// A decoder that inflates up to `limit` bytes; the usual limits' decoders
/// live for the whole run, so that their key caches carry over.
private func decoder(limit: Int) -> JKDecoder {
  if let decoder = decoders[limit] { return decoder }
  let decoder = JKDecoder()
  decoder.decompression = .gzip(maxInflatedSize: limit)
  return decoder
}

private let decoders: [Int: JKDecoder] = [4096, 1 << 20, 1 << 30].reduce(into: [:]) {
  let decoder = JKDecoder()
  decoder.decompression = .gzip(maxInflatedSize: $1)
  $0[$1] = decoder
}

/// libFuzzer's entry point: reads one stream, or compresses and alters one text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGzip(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let input = FuzzInput(data, size) else { return 0 }
  if input.selector & 1 != 0 {
    checkStream(input.bytes, limit: input.selector & 0x80 != 0 ? 4096 : 1 << 20)
  } else {
    checkCompressedText(input.bytes, selector: input.selector)
  }
  return 0
}

private typealias Outcome = Result<JSONValue, JKParseError>

/// Reads `stream` every way and checks that the ways agree with each other
/// and with the text JSONKit's inflater makes of it.
@discardableResult
private func checkStream(_ stream: [UInt8], limit: Int) -> Outcome {
  let decompression = JKDecompression.gzip(maxInflatedSize: limit)
  let parsed = Result { () throws(JKParseError) in
    try JSONValue(parsing: stream, decompression: decompression)
  }
  let validated = Result { () throws(JKParseError) in
    try JSONValue.validate(stream, decompression: decompression)
  }
  let decoded = Result { try decoder(limit: limit).decode(JSONValue.self, from: stream) }
  switch (parsed, validated, decoded) {
  case (.success(let value), .success, .success(let other)):
    require(
      difference(value, other, keyOrder: true) == nil, "JKDecoder reads gzip as parsing does")
  case (.failure(let error), .failure(let other), .failure(let decoding)):
    require(error == other, "parsing and validation fail alike", "\(error)\n\(other)")
    // JKDecoder reports some JSON errors (a number beyond 64 bits) with a
    // coding path instead; an error in the compressed stream is its own.
    require(decoding is DecodingError, "JKDecoder throws DecodingError", "\(decoding)")
    if error.isInCompressedInput {
      guard case DecodingError.dataCorrupted(let context) = decoding,
        context.underlyingError as? JKParseError == error
      else {
        violated("JKDecoder fails with the parse error underneath", "\(decoding)\n\(error)")
      }
    }
    checkError(error, in: stream)
  default:
    violated("parsing, validation and JKDecoder agree", "\(parsed)\n\(validated)\n\(decoded)")
  }

  let isGzip = stream.count >= 2 && stream[0] == 0x1F && stream[1] == 0x8B
  guard isGzip else { return parsed }
  switch (Result { () throws(JKParseError) in try inflate(stream, limit: limit) }, parsed) {
  case (.success(let text), _):
    require(text.count <= limit, "inflated text stays within the limit")
    let plain = Result { () throws(JKParseError) in
      try JSONValue(parsing: text, decompression: .disabled)
    }
    require(same(plain, parsed), "gzip reads as its inflated text", "\(plain)\n\(parsed)")
  case (.failure(let error), .failure(let other)):
    require(error == other, "an inflation error is the reader's error", "\(error)\n\(other)")
  case (.failure(let error), .success):
    violated("a stream that does not inflate is not read", "\(error)")
  }
  return parsed
}

private func checkError(_ error: JKParseError, in stream: [UInt8]) {
  _ = error.description
  guard error.isInCompressedInput else { return }
  require(
    stream.count >= 2 && stream[0] == 0x1F && stream[1] == 0x8B,
    "only gzip input has errors in compressed input")
  require(error.offset >= 0 && error.offset <= stream.count, "a compressed offset is in the stream")
  require(error.line == 0 && error.column == 0, "compressed input has no lines")
  require(!error.message.isEmpty, "an error says what is wrong")
}

/// Compresses `text`, alters the stream as the selector says and checks
/// what reading it gives.
private func checkCompressedText(_ text: [UInt8], selector: UInt8) {
  let level = levels[Int(selector >> 1 & 7)]
  let expected = Result { () throws(JKParseError) in
    try JSONValue(parsing: text, decompression: .disabled)
  }
  let stream = member(text[...], level: level)
  require(
    (try? inflate(stream, limit: text.count)) == text, "compressed text inflates to itself")
  // A position that the fuzzer moves by changing the text.
  let seed = text.reduce(UInt64(0xCBF2_9CE4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
  let limit = 1 << 30

  switch selector >> 4 & 7 {
  case 0:
    require(same(checkStream(stream, limit: limit), expected), "gzip reads as the text itself")
  case 1:
    let cut = text.isEmpty ? 0 : Int(seed % UInt64(text.count + 1))
    let members = member(text[..<cut], level: level) + member(text[cut...], level: 1)
    require(same(checkStream(members, limit: limit), expected), "two members read as one text")
  case 2:
    let length = 2 + Int(seed % UInt64(stream.count - 2))
    let outcome = checkStream(Array(stream.prefix(length)), limit: limit)
    requireCompressedError(outcome, .invalidGzip, atMost: length, "a truncated stream is an error")
  case 3:
    var changed = stream
    changed[Int(seed % UInt64(stream.count))] ^= UInt8(truncatingIfNeeded: seed >> 32) | 1
    let outcome = checkStream(changed, limit: limit)
    if case .success = outcome {
      require(same(outcome, expected), "a changed byte is an error or changes nothing")
    }
  case 4:
    let outcome = checkStream(stream + [UInt8(truncatingIfNeeded: seed)], limit: limit)
    requireCompressedError(
      outcome, .invalidGzip, at: stream.count, "a byte after the last member is an error")
  case 5:
    var lying = stream
    lying[stream.count - 4] &+= 1 + UInt8(truncatingIfNeeded: seed % 255)
    requireCompressedError(
      checkStream(lying, limit: limit), .invalidGzip, at: stream.count - 4,
      "a lying length is an error")
  case 6:
    var lying = stream
    lying[stream.count - 8 + Int(seed % 4)] ^= UInt8(truncatingIfNeeded: seed >> 8) | 1
    requireCompressedError(
      checkStream(lying, limit: limit), .invalidGzip, at: stream.count - 8,
      "a lying CRC-32 is an error")
  default:
    require(
      same(checkStream(stream, limit: text.count), expected), "text exactly at the limit reads")
    if !text.isEmpty {
      requireCompressedError(
        checkStream(stream, limit: text.count - 1), .inflatedTooLarge, atMost: stream.count,
        "text over the limit is an error")
    }
  }
}

private func requireCompressedError(
  _ outcome: Outcome, _ kind: JKParseError.Kind, at offset: Int? = nil, atMost bound: Int? = nil,
  _ property: String
) {
  guard case .failure(let error) = outcome, error.kind == kind else {
    violated(property, "\(outcome)")
  }
  if let offset { require(error.offset == offset, property, "\(error)") }
  if let bound { require(error.offset <= bound, property, "\(error)") }
}

/// Whether two outcomes are the same value or the same error.
private func same(_ left: Outcome, _ right: Outcome) -> Bool {
  switch (left, right) {
  case (.success(let value), .success(let other)):
    return difference(value, other, keyOrder: true) == nil
  case (.failure(let error), .failure(let other)):
    return error == other
  default:
    return false
  }
}

private func member(_ text: ArraySlice<UInt8>, level: Int) -> [UInt8] {
  GzipSeeds.member(text, level: level)
}

private func inflate(_ stream: [UInt8], limit: Int) throws(JKParseError) -> [UInt8] {
  try stream.withUnsafeBytes { bytes in
    Result { () throws(JKParseError) in
      let text = try GzipReader.inflate(bytes, limit: limit)
      defer { text.deallocate() }
      return Array(text.bytes)
    }
  }.get()
}
