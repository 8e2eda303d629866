import JSONKit
import Testing

/// RFC 8949 Appendix A: each example's bytes, read, give its value and its
/// diagnostic notation; the value, written, gives the bytes again, unless
/// the example shows a form that is not preferred serialization (a float
/// wider than it needs, an indefinite length).
@Suite("CBOR: the examples of RFC 8949 Appendix A")
struct CBORAppendixATests {
  /// One example: its value, its diagnostic notation, its bytes in hex, and
  /// whether those bytes are what writing the value gives.
  struct Example: CustomTestStringConvertible, Sendable {
    let value: CBORValue
    let diagnostic: String
    let hex: String
    let isPreferred: Bool

    init(_ value: CBORValue, _ diagnostic: String, _ hex: String, preferred: Bool = true) {
      self.value = value
      self.diagnostic = diagnostic
      self.hex = hex
      self.isPreferred = preferred
    }

    var testDescription: String { "\(diagnostic) = \(hex)" }
    var bytes: [UInt8] { CBORBytes.fromHex(hex) }
  }

  static let bignum65: CBORValue = .tagged(2, .bytes([1, 0, 0, 0, 0, 0, 0, 0, 0]))

  static let examples: [Example] = [
    Example(0, "0", "00"),
    Example(1, "1", "01"),
    Example(10, "10", "0a"),
    Example(23, "23", "17"),
    Example(24, "24", "1818"),
    Example(25, "25", "1819"),
    Example(100, "100", "1864"),
    Example(1000, "1000", "1903e8"),
    Example(1_000_000, "1000000", "1a000f4240"),
    Example(1_000_000_000_000, "1000000000000", "1b000000e8d4a51000"),
    Example(.unsigned(.max), "18446744073709551615", "1bffffffffffffffff"),
    Example(bignum65, "2(h'010000000000000000')", "c249010000000000000000"),
    Example(.negative(.max), "-18446744073709551616", "3bffffffffffffffff"),
    Example(
      .tagged(3, .bytes([1, 0, 0, 0, 0, 0, 0, 0, 0])), "3(h'010000000000000000')",
      "c349010000000000000000"),
    Example(-1, "-1", "20"),
    Example(-10, "-10", "29"),
    Example(-100, "-100", "3863"),
    Example(-1000, "-1000", "3903e7"),
    Example(0.0, "0.0", "f90000"),
    Example(-0.0, "-0.0", "f98000"),
    Example(1.0, "1.0", "f93c00"),
    Example(1.1, "1.1", "fb3ff199999999999a"),
    Example(1.5, "1.5", "f93e00"),
    Example(65504.0, "65504.0", "f97bff"),
    Example(100000.0, "100000.0", "fa47c35000"),
    Example(3.4028234663852886e+38, "3.4028234663852886e+38", "fa7f7fffff"),
    Example(1.0e+300, "1.0e+300", "fb7e37e43c8800759c"),
    Example(5.960464477539063e-8, "5.960464477539063e-8", "f90001"),
    Example(0.00006103515625, "6.103515625e-5", "f90400"),
    Example(-4.0, "-4.0", "f9c400"),
    Example(-4.1, "-4.1", "fbc010666666666666"),
    Example(.float(.infinity), "Infinity", "f97c00"),
    Example(.float(.nan), "NaN", "f97e00"),
    Example(.float(-.infinity), "-Infinity", "f9fc00"),
    Example(.float(.infinity), "Infinity", "fa7f800000", preferred: false),
    Example(.float(.nan), "NaN", "fa7fc00000", preferred: false),
    Example(.float(-.infinity), "-Infinity", "faff800000", preferred: false),
    Example(.float(.infinity), "Infinity", "fb7ff0000000000000", preferred: false),
    Example(.float(.nan), "NaN", "fb7ff8000000000000", preferred: false),
    Example(.float(-.infinity), "-Infinity", "fbfff0000000000000", preferred: false),
    Example(false, "false", "f4"),
    Example(true, "true", "f5"),
    Example(nil, "null", "f6"),
    Example(.undefined, "undefined", "f7"),
    Example(.simple(16), "simple(16)", "f0"),
    Example(.simple(255), "simple(255)", "f8ff"),
    Example(
      .tagged(0, "2013-03-21T20:04:00Z"), "0(\"2013-03-21T20:04:00Z\")",
      "c074323031332d30332d32315432303a30343a30305a"),
    Example(.tagged(1, 1_363_896_240), "1(1363896240)", "c11a514b67b0"),
    Example(.tagged(1, 1_363_896_240.5), "1(1363896240.5)", "c1fb41d452d9ec200000"),
    Example(.tagged(23, .bytes([1, 2, 3, 4])), "23(h'01020304')", "d74401020304"),
    Example(
      .tagged(24, .bytes([0x64, 0x49, 0x45, 0x54, 0x46])), "24(h'6449455446')", "d818456449455446"),
    Example(
      .tagged(32, "http://www.example.com"), "32(\"http://www.example.com\")",
      "d82076687474703a2f2f7777772e6578616d706c652e636f6d"),
    Example(.bytes([]), "h''", "40"),
    Example(.bytes([1, 2, 3, 4]), "h'01020304'", "4401020304"),
    Example("", "\"\"", "60"),
    Example("a", "\"a\"", "6161"),
    Example("IETF", "\"IETF\"", "6449455446"),
    Example("\"\\", "\"\\\"\\\\\"", "62225c"),
    Example("\u{00FC}", "\"\u{00FC}\"", "62c3bc"),
    Example("\u{6C34}", "\"\u{6C34}\"", "63e6b0b4"),
    Example("\u{10151}", "\"\u{10151}\"", "64f0908591"),
    Example([], "[]", "80"),
    Example([1, 2, 3], "[1, 2, 3]", "83010203"),
    Example([1, [2, 3], [4, 5]], "[1, [2, 3], [4, 5]]", "8301820203820405"),
    Example(
      .array((1...25).map { CBORValue(Int64($0)) }),
      "[" + (1...25).map(String.init).joined(separator: ", ") + "]",
      "98190102030405060708090a0b0c0d0e0f101112131415161718181819"),
    Example([:], "{}", "a0"),
    Example([1: 2, 3: 4], "{1: 2, 3: 4}", "a201020304"),
    Example(["a": 1, "b": [2, 3]], "{\"a\": 1, \"b\": [2, 3]}", "a26161016162820203"),
    Example(["a", ["b": "c"]], "[\"a\", {\"b\": \"c\"}]", "826161a161626163"),
    Example(
      ["a": "A", "b": "B", "c": "C", "d": "D", "e": "E"],
      "{\"a\": \"A\", \"b\": \"B\", \"c\": \"C\", \"d\": \"D\", \"e\": \"E\"}",
      "a56161614161626142616361436164614461656145"),
    Example(.bytes([1, 2, 3, 4, 5]), "h'0102030405'", "5f42010243030405ff", preferred: false),
    Example("streaming", "\"streaming\"", "7f657374726561646d696e67ff", preferred: false),
    Example([], "[]", "9fff", preferred: false),
    Example(
      [1, [2, 3], [4, 5]], "[1, [2, 3], [4, 5]]", "9f018202039f0405ffff", preferred: false),
    Example([1, [2, 3], [4, 5]], "[1, [2, 3], [4, 5]]", "9f01820203820405ff", preferred: false),
    Example([1, [2, 3], [4, 5]], "[1, [2, 3], [4, 5]]", "83018202039f0405ff", preferred: false),
    Example([1, [2, 3], [4, 5]], "[1, [2, 3], [4, 5]]", "83019f0203ff820405", preferred: false),
    Example(
      .array((1...25).map { CBORValue(Int64($0)) }),
      "[" + (1...25).map(String.init).joined(separator: ", ") + "]",
      "9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff", preferred: false),
    Example(
      ["a": 1, "b": [2, 3]], "{\"a\": 1, \"b\": [2, 3]}", "bf61610161629f0203ffff",
      preferred: false),
    Example(["a", ["b": "c"]], "[\"a\", {\"b\": \"c\"}]", "826161bf61626163ff", preferred: false),
    Example(
      ["Fun": true, "Amt": -2], "{\"Fun\": true, \"Amt\": -2}", "bf6346756ef563416d7421ff",
      preferred: false),
  ]

  @Test("Each example's bytes read as its value", arguments: examples)
  func readsTheValue(_ example: Example) throws {
    let value = try CBORValue(cbor: example.bytes)
    #expect(value == example.value)
    #expect(value.description == example.diagnostic)
  }

  @Test(
    "Each example in preferred serialization is what writing its value gives",
    arguments: examples.filter(\.isPreferred))
  func writesTheBytes(_ example: Example) {
    #expect(CBORBytes.hex(example.value.cborBytes()) == example.hex)
  }
}

/// Hexadecimal text and bytes, both ways, for the CBOR suites.
enum CBORBytes {
  /// The bytes whose lowercase or uppercase hexadecimal digits `hex` holds.
  static func fromHex(_ hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var digits = hex.utf8.makeIterator()
    while let high = digits.next(), let low = digits.next() {
      bytes.append(UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)!)
    }
    return bytes
  }

  /// `bytes` as lowercase hexadecimal digits.
  static func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
  }
}
