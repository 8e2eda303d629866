import Foundation

@testable import JSONKit

// The readers and writers of Foundation's value types, on any bytes.
//
// The document's bytes are the text of a string (or, for `Decimal`, of a
// number) that each reader reads; the selector is unused. Checked for every
// input:
//
// - no reader reads outside the bytes or traps, whatever they are;
// - on valid UTF-8, each reader gives Foundation's answer:
//   `Date.ISO8601FormatStyle().parse`, `UUID(uuidString:)` and
//   `Data(base64Encoded:)` (value to the bit, or nil where it throws or
//   gives nil);
// - on a JSON number that both read, `DecimalText.exact` gives
//   `Decimal(string:)`'s value with its description;
// - what is read writes back as Foundation writes it: the date as
//   `JSONEncoder`'s `.iso8601` text, the UUID as `uuidString`, the data as
//   `base64EncodedString()`, the Decimal as `description`.

let fuzzTargetUsesModels = false
let fuzzTargetSeedsGzip = false
let fuzzTargetSeedsCBOR = false

/// libFuzzer's entry point: reads the bytes as each value type's text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzValues(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let input = FuzzInput(data, size) else { return 0 }
  let bytes = input.document.assumingMemoryBound(to: UInt8.self)
  let date = ISO8601DateText.date(from: bytes)
  let uuid = UUIDText.uuid(from: bytes)
  let base64 = Base64Text.decode(bytes)
  checkWriters(date: date, uuid: uuid, data: base64)
  guard let text = String(validating: input.document, as: UTF8.self) else { return 0 }
  let theirDate = try? Date.ISO8601FormatStyle().parse(text)
  require(
    date?.timeIntervalSinceReferenceDate.bitPattern
      == theirDate?.timeIntervalSinceReferenceDate.bitPattern,
    "a date reads as Foundation's parser reads it", "\(text.debugDescription)")
  require(uuid == UUID(uuidString: text), "a UUID reads as Foundation's", text.debugDescription)
  require(
    base64 == Data(base64Encoded: text), "base64 reads as Foundation's", text.debugDescription)
  // A number's text alone, as the scanner hands it over: no white space.
  let numberBytes = Set("0123456789+-.eE".utf8)
  if text.utf8.allSatisfy(numberBytes.contains), (try? JSONValue(parsing: text))?.isNumber == true {
    // Where Foundation's reader refuses a number that Decimal holds
    // (`0e200`, `1e128`), JSONKit reads it: a documented difference.
    if let decimal = DecimalText.exact(input.document), let theirs = Decimal(string: text) {
      require(
        theirs == decimal && theirs.description == decimal.description,
        "a Decimal is Decimal(string:)'s value", text.debugDescription)
    }
  }
  return 0
}

/// What was read writes back as Foundation writes it.
private func checkWriters(date: Date?, uuid: UUID?, data: Data?) {
  withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { buffer in
    let out = buffer.baseAddress!
    if let date, let count = ISO8601DateText.write(date, to: out) {
      require(
        String(decoding: UnsafeBufferPointer(start: out, count: count), as: UTF8.self)
          == date.formatted(Date.ISO8601FormatStyle()),
        "a date writes as Foundation's formatter writes it", "\(date)")
    }
    if let uuid {
      UUIDText.write(uuid, to: out)
      require(
        String(decoding: UnsafeBufferPointer(start: out, count: UUIDText.length), as: UTF8.self)
          == uuid.uuidString, "a UUID writes as uuidString", "\(uuid)")
    }
  }
  if let data, let length = Base64Text.maxEncodedLength(data.count, escapingSlashes: false) {
    let written = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
      count = data.withUnsafeBytes {
        Base64Text.encode($0, escapingSlashes: false, to: buffer.baseAddress!)
      }
    }
    require(
      String(decoding: written, as: UTF8.self) == data.base64EncodedString(),
      "data writes as base64EncodedString()", "\(Array(data))")
  }
}

extension JSONValue {
  /// Whether the value is a number.
  fileprivate var isNumber: Bool {
    switch self {
    case .int, .uint, .double: true
    default: false
    }
  }
}
