@testable import JSONKit

/// Direct access to the scanner for tests of the tape itself.
enum TestScan {
  /// Scans `bytes`, after the input stage has read them (UTF-16 and UTF-32
  /// transcoded), and returns a copy of the tape entries.
  static func documentTape(_ bytes: [UInt8]) throws -> [TapeEntry] {
    try bytes.withUnsafeBytes { input in
      try InputText.withUTF8(input) { try tape(Array($0.utf8)) }
    }
  }

  /// Scans `bytes` and returns a copy of the tape entries.
  static func tape(
    _ bytes: [UInt8], options: JKParseOptions = [], maxDepth: Int = 512, bigIntegers: Bool = false
  ) throws -> [TapeEntry] {
    let configuration = ScanConfiguration(
      options: options, maxDepth: maxDepth, allowsBigIntegers: bigIntegers)
    return try bytes.withUnsafeBytes { input in
      try InputText(utf8: input).withTape(
        configuration: configuration, pool: ScanContextPool(limit: 1)
      ) {
        Array(UnsafeBufferPointer(start: $0.entries, count: $0.count))
      }
    }
  }
}
