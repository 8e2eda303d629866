import Foundation
import JSONKit

// Decoding with `JKDecoder`, into the nested model and into `JSONValue`.
//
// Selector bits 0–3 are the parse options; bit 4 `.convertFromSnakeCase`;
// bits 5–6 the date strategy (deferred, seconds, milliseconds, ISO 8601);
// bit 7 `.deferredToData` and NaN and the infinities from strings. One
// decoder per selector lives for the whole run, so its key cache carries
// over from input to input. Checked for every input:
//
// - decoding `JSONValue` succeeds exactly when parsing does, with the same
//   value (its keys converted under `.convertFromSnakeCase`), and twice in a
//   row gives the same value (cold and warm cache);
// - decoding the model, an array of it, an enum and a dictionary returns a
//   value or throws a `DecodingError`, never anything else;
// - decoding an array of Doubles succeeds only where parsing does: JSONKit's
//   number rule (no integer beyond 64 bits) holds through a Double too.

let fuzzTargetUsesModels = true
let fuzzTargetSeedsGzip = false
let fuzzTargetSeedsCBOR = false

private let decoders: [JKDecoder] = (0..<256).map { bits in
  let decoder = JKDecoder()
  decoder.parseOptions = JKParseOptions(rawValue: UInt32(bits & 0x0F))
  if bits & 0x10 != 0 { decoder.keyDecodingStrategy = .convertFromSnakeCase }
  switch bits >> 5 & 3 {
  case 0: decoder.dateDecodingStrategy = .deferredToDate
  case 1: decoder.dateDecodingStrategy = .secondsSince1970
  case 2: decoder.dateDecodingStrategy = .millisecondsSince1970
  default: decoder.dateDecodingStrategy = .iso8601
  }
  if bits & 0x80 != 0 {
    decoder.dataDecodingStrategy = .deferredToData
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
  }
  return decoder
}

/// libFuzzer's entry point: decodes one input every way.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let input = FuzzInput(data, size) else { return 0 }
  let decoder = decoders[Int(input.selector)]
  let bytes = input.data

  let snakeCase = input.selector & 0x10 != 0
  let parsed = Result {
    let value = try JSONValue(parsing: input.document, options: input.parseOptions)
    return snakeCase ? snakeCaseConverted(value) : value
  }
  let decoded = Result { try decoder.decode(JSONValue.self, from: bytes) }
  switch (parsed, decoded) {
  case (.success(let value), .success(let other)):
    require(
      difference(value, other, keyOrder: true) == nil, "JKDecoder reads JSONValue as parsing does",
      difference(value, other, keyOrder: true) ?? "")
    let again = Result { try decoder.decode(JSONValue.self, from: bytes) }
    guard case .success(let third) = again, difference(other, third, keyOrder: true) == nil else {
      violated("decoding twice gives the same value")
    }
  case (.failure, .failure(let error)):
    requireDecodingError(error)
  case (.success, .failure(let error)):
    violated("JKDecoder rejects what parsing accepts", "\(error)")
  case (.failure(let error), .success):
    violated("JKDecoder accepts what parsing rejects", "\(error)")
  }

  let doubles = Result { try decoder.decode([Double].self, from: bytes) }
  switch (parsed, doubles) {
  case (.failure(let error), .success):
    violated("JKDecoder reads [Double] where parsing rejects", "\(error)")
  case (_, .failure(let error)):
    requireDecodingError(error)
  case (.success, .success):
    break
  }

  attempt { try decoder.decode(FuzzModel.self, from: bytes) }
  attempt { try decoder.decode([FuzzModel].self, from: bytes) }
  attempt { try decoder.decode(Shape.self, from: bytes) }
  attempt { try decoder.decode([String: JSONValue].self, from: bytes) }
  attempt { try input.bytes.withUnsafeBytes { try decoder.decode([Shape?].self, from: $0) } }
  return 0
}

/// Runs a decode, which may fail only with a `DecodingError`.
private func attempt<T>(_ body: () throws -> T) {
  do {
    _ = try body()
  } catch {
    requireDecodingError(error)
  }
}

private func requireDecodingError(_ error: any Error) {
  guard let error = error as? DecodingError else {
    violated("JKDecoder throws DecodingError", "\(type(of: error)): \(error)")
  }
  _ = String(describing: error)
  switch error {
  case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
    .valueNotFound(_, let context):
    _ = context.codingPath.map(\.stringValue)
  @unknown default:
    break
  }
}
