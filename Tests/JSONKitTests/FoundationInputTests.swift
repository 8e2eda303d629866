import Foundation
import Testing

/// The JSON5 input parity tests hand to Foundation's `JSONDecoder` ends where
/// its `strtod` stops reading, so that a number ending the input is read the
/// same whatever memory follows it.
@Suite struct FoundationInputTests {
  @Test func foundationInputHoldsTheBytesWithANulJustPastThem() {
    for count in 0...80 {
      let bytes = (0..<count).map { UInt8(ascii: "1") + UInt8($0 % 9) }
      let data = FoundationInput.data(bytes)
      #expect(Array(data) == bytes)
      let past = data.withUnsafeBytes { buffer in
        buffer.baseAddress.map { $0.load(fromByteOffset: count, as: UInt8.self) }
      }
      #expect(past ?? 0 == 0, "\(count) bytes")
    }
  }

  /// Numbers that send `JSONDecoder` reading JSON5 to `strtod`, each the
  /// whole input; with a digit in memory just after them, these stop the
  /// process.
  @Test func aTopLevelJSON5NumberEndingFoundationInputIsReadFromItsBytesOnly() throws {
    let decoder = JSONDecoder()
    decoder.allowsJSON5 = true
    #expect(throws: DecodingError.self) {
      try decoder.decode(UInt64.self, from: FoundationInput.data("0x10000000000000000".utf8))
    }
    let data = FoundationInput.data("12345678901234567.5".utf8)
    #expect(try decoder.decode(Double.self, from: data) == 12_345_678_901_234_567.5)
    #expect(try decoder.decode(Float.self, from: data) == 12_345_678_901_234_567.5)
  }
}
