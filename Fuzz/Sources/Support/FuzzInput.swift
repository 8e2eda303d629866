import Foundation

@testable import JSONKit

/// One fuzzer input: a selector byte that picks the options to run with, and
/// the document itself (everything after it).
///
/// Every target reads its options from the selector, so that the fuzzer
/// explores the options as it explores the bytes, and a crashing input
/// replays with the options that crashed it.
struct FuzzInput {
  let selector: UInt8
  let document: UnsafeRawBufferPointer

  init?(_ data: UnsafePointer<UInt8>?, _ size: Int) {
    guard let data, size >= 1 else { return nil }
    selector = data[0]
    document = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
  }

  /// Bits 0–3: the parse options, one bit per option.
  var parseOptions: JKParseOptions {
    JKParseOptions(rawValue: UInt32(selector & 0x0F))
  }

  /// The bytes as an array (a copy, for the APIs that take one).
  var bytes: [UInt8] { Array(document) }

  /// The bytes as `Data` (a copy).
  var data: Data { Data(document) }
}

/// Every combination of the output options.
let allOutputFormattings: [JKOutputFormatting] = (0..<16).map { bits in
  var formatting: JKOutputFormatting = []
  if bits & 1 != 0 { formatting.insert(.prettyPrinted) }
  if bits & 2 != 0 { formatting.insert(.sortedKeys) }
  if bits & 4 != 0 { formatting.insert(.withoutEscapingSlashes) }
  if bits & 8 != 0 { formatting.insert(.escapeUnicode) }
  return formatting
}

/// Stops the run: libFuzzer saves the input that got here as a crash.
///
/// The message says which property broke; the input replays it.
func violated(_ property: String, _ details: @autoclosure () -> String = "") -> Never {
  let text = details()
  FileHandle.standardError.write(Data("\nJSONKit fuzz: \(property)\n\(text)\n".utf8))
  fatalError(property)
}

/// Checks `condition`, stopping the run with `property` when it is false.
@inline(__always)
func require(
  _ condition: @autoclosure () -> Bool, _ property: String,
  _ details: @autoclosure () -> String = ""
) {
  if !condition() { violated(property, details()) }
}

/// A printable form of some bytes, for messages.
func show(_ bytes: some Sequence<UInt8>, limit: Int = 400) -> String {
  var text = ""
  for byte in bytes.prefix(limit) {
    if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") {
      text.unicodeScalars.append(Unicode.Scalar(byte))
    } else {
      text += "\\x" + String(byte, radix: 16)
    }
  }
  return text
}
