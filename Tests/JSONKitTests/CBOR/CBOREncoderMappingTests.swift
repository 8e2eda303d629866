import Foundation
import JSONKit
import Testing

/// What each Swift type becomes in CBOR, byte for byte.
@Suite("CBOR encoder: the mapping of types to items")
struct CBOREncoderMappingTests {
  @Test("Integers of every width take their shortest head")
  func integers() throws {
    #expect(try CBOREncoding.hex(0) == "00")
    #expect(try CBOREncoding.hex(23) == "17")
    #expect(try CBOREncoding.hex(24) == "1818")
    #expect(try CBOREncoding.hex(-1) == "20")
    #expect(try CBOREncoding.hex(-25) == "3818")
    #expect(try CBOREncoding.hex(Int8.min) == "387f")
    #expect(try CBOREncoding.hex(UInt16(1000)) == "1903e8")
    #expect(try CBOREncoding.hex(Int32(-1_000_000)) == "3a000f423f")
    #expect(try CBOREncoding.hex(UInt64.max) == "1bffffffffffffffff")
    #expect(try CBOREncoding.hex(Int64.min) == "3b7fffffffffffffff")
    #expect(try CBOREncoding.hex([UInt8(1), 200]) == "820118c8")
    #expect(try CBOREncoding.hex([1, -1, 1000]) == "8301201903e8")
  }

  @Test("Int128 and UInt128 are plain integers within 64 bits, bignums beyond")
  func wideIntegers() throws {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    #expect(try CBOREncoding.hex(Int128(-5)) == "24")
    #expect(try CBOREncoding.hex(Int128(UInt64.max)) == "1bffffffffffffffff")
    #expect(try CBOREncoding.hex(-Int128(UInt64.max) - 1) == "3bffffffffffffffff")
    #expect(try CBOREncoding.hex(Int128(1) << 64) == "c249010000000000000000")
    #expect(try CBOREncoding.hex(-(Int128(1) << 64) - 1) == "c349010000000000000000")
    #expect(try CBOREncoding.hex(UInt128.max) == "c250" + String(repeating: "ff", count: 16))
    #expect(try CBOREncoding.hex([UInt128(5)]) == "8105")
  }

  @Test("Floats take the shortest exact precision; NaN and infinities are plain floats")
  func floats() throws {
    #expect(try CBOREncoding.hex(1.5) == "f93e00")
    #expect(try CBOREncoding.hex(-0.0) == "f98000")
    #expect(try CBOREncoding.hex(Double.nan) == "f97e00")
    #expect(try CBOREncoding.hex(-Double.infinity) == "f9fc00")
    #expect(try CBOREncoding.hex(Float(0.1)) == "fa3dcccccd")
    #expect(try CBOREncoding.hex(0.1) == "fb3fb999999999999a")
    #expect(try CBOREncoding.hex([Float.infinity]) == "81f97c00")
    #expect(try CBOREncoding.hex([[1.0, 2.5]]) == "8182f93c00f94100")
  }

  @Test("Booleans, nil, strings and Data")
  func simpleValues() throws {
    #expect(try CBOREncoding.hex(true) == "f5")
    #expect(try CBOREncoding.hex([false]) == "81f4")
    #expect(try CBOREncoding.hex([Int?.none]) == "81f6")
    #expect(try CBOREncoding.hex("IETF") == "6449455446")
    #expect(try CBOREncoding.hex("\u{00FC}") == "62c3bc")
    #expect(try CBOREncoding.hex(Data([1, 2, 3])) == "43010203")
    #expect(try CBOREncoding.hex(Data()) == "40")
  }

  @Test("Date is tag 1: an integer when whole, else a float")
  func dates() throws {
    #expect(try CBOREncoding.hex(Date(timeIntervalSince1970: 1_363_896_240)) == "c11a514b67b0")
    #expect(
      try CBOREncoding.hex(Date(timeIntervalSince1970: 1_363_896_240.5)) == "c1fb41d452d9ec200000")
    #expect(try CBOREncoding.hex(Date(timeIntervalSince1970: -1)) == "c120")
    #expect(try CBOREncoding.hex(Date(timeIntervalSince1970: 1e300)) == "c1fb7e37e43c8800759c")
  }

  @Test("UUID is tag 37 on its 16 bytes")
  func uuids() throws {
    let uuid = try #require(UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF"))
    #expect(try CBOREncoding.hex(uuid) == "d8255000112233445566778899aabbccddeeff")
  }

  @Test("Decimal is tag 4, [exponent, mantissa]; NaN throws")
  func decimals() throws {
    #expect(try CBOREncoding.hex(try #require(Decimal(string: "1234.56"))) == "c482211a0001e240")
    #expect(try CBOREncoding.hex(try #require(Decimal(string: "-1234.56"))) == "c482213a0001e23f")
    #expect(try CBOREncoding.hex(Decimal(0)) == "c4820000")
    let big = try #require(Decimal(string: "18446744073709551616"))  // 2^64
    #expect(try CBOREncoding.hex(big) == "c48200c249010000000000000000")
    #expect(throws: EncodingError.self) { try JKCBOREncoder().encode(["x": Decimal.nan]) }
  }

  @Test("Any Decimal's tag 4 holds its exponent and reads back as the same Decimal")
  func decimalsOfEveryShape() throws {
    var generator = SystemRandomNumberGenerator()
    var samples: [Decimal] = [Decimal(0), -Decimal(0), Decimal.greatestFiniteMagnitude]
    for _ in 0..<2_000 {
      let digits = String(
        (0..<Int.random(in: 1...38, using: &generator)).map { _ in
          "0123456789".randomElement(using: &generator)!
        })
      let significand = try #require(Decimal(string: digits))
      samples.append(
        Decimal(
          sign: Bool.random(using: &generator) ? .minus : .plus,
          exponent: Int.random(in: -100...90, using: &generator), significand: significand))
    }
    for decimal in samples {
      let bytes = try JKCBOREncoder().encodeToBytes(decimal)
      guard case .tagged(4, let pair) = try CBORValue(cbor: bytes) else {
        Issue.record("\(decimal) is not tag 4: \(CBORBytes.hex(bytes))")
        continue
      }
      #expect(pair[0] == CBORValue(Int64(decimal.exponent)), "\(decimal)")
      #expect(try JKCBORDecoder().decode(Decimal.self, from: bytes) == decimal, "\(decimal)")
    }
  }

  @Test("URL is tag 32 on its absolute string")
  func urls() throws {
    let url = try #require(URL(string: "https://example.com/a?b=c"))
    let text = CBORBytes.hex(CBORValue.text("https://example.com/a?b=c").cborBytes())
    #expect(try CBOREncoding.hex(url) == "d820" + text)
  }

  @Test("Key strategies rename text keys; integer keys stay integers, the custom one unasked")
  func keyStrategiesAndIntegerKeys() throws {
    struct Model: Encodable {
      var userName = "a"
      var byNumber: [Int: String] = [7: "b"]
    }
    let encoder = JKCBOREncoder()
    encoder.keyEncodingStrategy = .custom { path in
      // An integer key it were asked about would come out as "ASKED".
      let last = path.last!
      return CodingKeyText(last.intValue == nil ? last.stringValue.uppercased() : "ASKED")
    }
    let item = try CBORValue(cbor: try encoder.encodeToBytes(Model()))
    #expect(item == ["USERNAME": "a", "BYNUMBER": [7: "b"]])
  }

  private struct CodingKeyText: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ text: String) { stringValue = text }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  @Test("Integer-keyed dictionaries are maps with integer keys")
  func integerKeys() throws {
    #expect(try CBOREncoding.hex([1: "a"]) == "a1016161")
    #expect(try CBOREncoding.hex([-1: "b"]) == "a1206162")
    let many = Dictionary(uniqueKeysWithValues: (0..<30).map { ($0, $0) })
    let read = try CBORValue(cbor: JKCBOREncoder().encodeToBytes(many))
    guard case .map(let pairs) = read else {
      Issue.record("not a map")
      return
    }
    #expect(pairs.count == 30)
    #expect(pairs.allSatisfy { $0.key == $0.value })
  }

  @Test("String-keyed dictionaries keep their keys under a key strategy; coding keys convert")
  func keyStrategies() throws {
    struct Model: Encodable {
      var myURLValue = 1
      var members = ["someKey": 2]
    }
    let encoder = JKCBOREncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    let expected = CBORValue.map([
      (.text("my_url_value"), 1), (.text("members"), .map([(.text("someKey"), 2)])),
    ])
    #expect(try CBOREncoding.hex(Model(), encoder) == CBORBytes.hex(expected.cborBytes()))
    let json = JKEncoder()
    json.keyEncodingStrategy = .convertToSnakeCase
    let (ours, theirs) = try CBOREncoding.ourAndJSONs(Model(), encoder, json)
    #expect(ours == theirs)

    encoder.keyEncodingStrategy = .custom { path in
      AnyKey(stringValue: path.last!.stringValue.uppercased() + "\(path.count)")
    }
    json.keyEncodingStrategy = encoder.keyEncodingStrategy
    let (custom, customJSON) = try CBOREncoding.ourAndJSONs(Model(), encoder, json)
    #expect(custom == customJSON)
  }

  @Test(".selfDescribed starts the output with tag 55799")
  func selfDescribed() throws {
    let encoder = JKCBOREncoder()
    encoder.options = .selfDescribed
    #expect(try CBOREncoding.hex([1], encoder) == "d9d9f78101")
    #expect(encoder.copy().options == .selfDescribed)
  }

  private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
