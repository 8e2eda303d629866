import Foundation
import JSONKit
import JSONKitCorpus
import Testing

/// `JKCBORDecoder` reads into Codable models what `JKDecoder` reads from the
/// same document's JSON, and CBOR's own types (tags, byte strings, bignums)
/// into Foundation's; what it cannot read is an error that says where.
@Suite("CBOR: JKCBORDecoder")
struct CBORDecoderTests {
  /// The CBOR of JSON `data`, converted item for item.
  static func cbor(ofJSON data: Data) throws -> [UInt8] {
    CBORValue(try JSONValue(parsing: data)).cborBytes()
  }

  private func expectSameModel<Model: Decodable & Equatable>(
    _ type: Model.Type, _ corpus: Corpus, keys: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
  ) throws {
    let data = try corpus.data(in: try #require(Corpus.dataDirectory(nearSourceFile: #filePath)))
    let json = JKDecoder()
    json.keyDecodingStrategy = keys
    let decoder = JKCBORDecoder()
    decoder.keyDecodingStrategy = keys
    let bytes = try Self.cbor(ofJSON: data)
    let expected = try json.decode(type, from: data)
    #expect(try decoder.decode(type, from: bytes) == expected)
    #expect(try decoder.decode(type, from: Data(bytes)) == expected)
  }

  @Test func corpusModelsReadAsFromJSON() throws {
    try expectSameModel(Twitter.SearchResult.self, .twitter)
    try expectSameModel(
      TwitterFromSnakeCase.SearchResult.self, .twitter, keys: .convertFromSnakeCase)
    try expectSameModel(CITM.Catalog.self, .citmCatalog)
    try expectSameModel(Canada.FeatureCollection.self, .canada)
  }

  @Test("Orders with UUIDs, dates, decimals and URLs as text read as from JSON")
  func ordersAsText() throws {
    let sample = try Orders.sample(count: 50)
    let json = JKDecoder()
    json.dateDecodingStrategy = .iso8601
    let expected = try json.decode([Orders.Order].self, from: sample.json)
    let bytes = try Self.cbor(ofJSON: sample.json)
    #expect(try JKCBORDecoder().decode([Orders.Order].self, from: bytes) == expected)
  }

  struct Typed: Codable, Equatable {
    var date: Date
    var id: UUID
    var price: Decimal
    var link: URL
    var blob: Data
    var big: Int128
    var small: Int8
    var ratio: Float
    var missing: Int?
  }

  @Test("Tags and byte strings read as Foundation's types")
  func tagsAsFoundationTypes() throws {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    let uuid = UUID(uuidString: "F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6")!
    let item: CBORValue = [
      "date": .tagged(1, 1_363_896_240.5),
      "id": .tagged(37, .bytes(withUnsafeBytes(of: uuid.uuid) { Array($0) })),
      "price": .tagged(4, [-2, 123456]),
      "link": .tagged(32, "http://www.example.com"),
      "blob": .bytes([0, 1, 255]),
      "big": .tagged(3, .bytes([1, 0, 0, 0, 0, 0, 0, 0, 0])),
      "small": -128,
      "ratio": 1.5,
      "missing": nil,
    ]
    let value = try JKCBORDecoder().decode(Typed.self, from: item.cborBytes())
    #expect(value.date == Date(timeIntervalSince1970: 1_363_896_240.5))
    #expect(value.id == uuid)
    #expect(value.price == Decimal(string: "1234.56"))
    #expect(value.link == URL(string: "http://www.example.com"))
    #expect(value.blob == Data([0, 1, 255]))
    #expect(value.big == -(Int128(1) << 64) - 1)
    #expect(value.small == -128)
    #expect(value.ratio == 1.5)
    #expect(value.missing == nil)
  }

  @Test("A decimal fraction reads as the Decimal its text reads as, fields and all")
  func decimalFractionsAsTheirText() throws {
    var generator = SystemRandomNumberGenerator()
    var pairs: [(Int64, Int64)] = [
      (0, 5), (150, -2), (-150, -2), (Int64.max, 0), (Int64.min, 0), (1, 127), (100, 126),
      (10, 127), (1, -128), (10, -129), (1, -129), (1, 128), (7, .max), (7, .min),
    ]
    for _ in 0..<2_000 {
      let mantissa = Int64.random(in: .min ... .max, using: &generator) >> Int.random(in: 0..<63)
      pairs.append((mantissa, Int64.random(in: -150...150, using: &generator)))
    }
    for (mantissa, exponent) in pairs {
      let bytes = CBORValue.tagged(4, [CBORValue(exponent), CBORValue(mantissa)]).cborBytes()
      let text = "\(mantissa)e\(exponent)"
      let expected = try? JKDecoder().decode(Decimal.self, from: Data(text.utf8))
      let read = try? JKCBORDecoder().decode(Decimal.self, from: bytes)
      #expect(read == expected, "\(text)")
      #expect(read?.description == expected?.description, "\(text)")
    }
  }

  @Test(
    "A decimal fraction's exponent or mantissa under another tag is refused, as the reader refuses it"
  )
  func decimalFractionPartsUnderTags() throws {
    let refused: [[UInt8]] = [
      [0xC4, 0x82, 0xC1, 0x00, 0x23],  // 4([1(0), -4])
      [0xC4, 0x82, 0x00, 0xC1, 0x23],  // 4([0, 1(-4)])
      [0xC4, 0x82, 0xD9, 0xD9, 0xF7, 0x00, 0x05],  // 4([55799(0), 5])
      [0xC4, 0x82, 0x00, 0xD9, 0xD9, 0xF7, 0xC2, 0x41, 0x01],  // 4([0, 55799(2(h'01'))])
      [0xC4, 0x9F, 0xC1, 0x00, 0x05, 0xFF],  // 4([_ 1(0), 5])
    ]
    for bytes in refused {
      #expect(throws: DecodingError.self, "\(CBORBytes.hex(bytes))") {
        try JKCBORDecoder().decode(Decimal.self, from: bytes)
      }
      #expect(throws: JKCBORError.self, "\(CBORBytes.hex(bytes))") { try CBORValue(cbor: bytes) }
    }
    let accepted: [([UInt8], String)] = [
      ([0xC4, 0x82, 0x21, 0x19, 0x6A, 0xB3], "273.15"),  // 4([-2, 27315])
      ([0xC4, 0x82, 0x20, 0xC2, 0x41, 0x0F], "1.5"),  // 4([-1, 2(h'0f')])
      ([0xC4, 0x82, 0x20, 0xD8, 0x02, 0x41, 0x0F], "1.5"),  // the tag's head in two bytes
      ([0xC4, 0x9F, 0x20, 0x0F, 0xFF], "1.5"),  // 4([_ -1, 15])
    ]
    for (bytes, text) in accepted {
      #expect(
        try JKCBORDecoder().decode(Decimal.self, from: bytes) == Decimal(string: text),
        "\(CBORBytes.hex(bytes))")
      #expect(throws: Never.self) { try CBORValue(cbor: bytes) }
    }
    // 256([4([0, 2(h'010203')]), 4([0, 2(25(0))])]): the second bignum refers to the first.
    let referenced: [UInt8] = [
      0xD9, 0x01, 0x00, 0x82, 0xC4, 0x82, 0x00, 0xC2, 0x43, 0x01, 0x02, 0x03,
      0xC4, 0x82, 0x00, 0xC2, 0xD8, 0x19, 0x00,
    ]
    #expect(try JKCBORDecoder().decode([Decimal].self, from: referenced) == [66051, 66051])
  }

  @Test("Dates read from plain numbers and from RFC 3339 text with a fraction")
  func dates() throws {
    let decoder = JKCBORDecoder()
    #expect(
      try decoder.decode(Date.self, from: CBORValue(0).cborBytes())
        == Date(timeIntervalSince1970: 0))
    let text = CBORValue.tagged(0, "2013-03-21T20:04:00.500000Z").cborBytes()
    #expect(
      try decoder.decode(Date.self, from: text) == Date(timeIntervalSince1970: 1_363_896_240.5))
  }

  @Test("Integer keys read into Int-keyed dictionaries, integers into every width")
  func integerKeysAndWidths() throws {
    let item: CBORValue = [1: "one", -2: "minus two"]
    let dictionary = try JKCBORDecoder().decode([Int: String].self, from: item.cborBytes())
    #expect(dictionary == [1: "one", -2: "minus two"])
    #expect(
      try JKCBORDecoder().decode(UInt64.self, from: CBORValue.unsigned(.max).cborBytes()) == .max)
    #expect(try JKCBORDecoder().decode(Int.self, from: CBORValue.float(3).cborBytes()) == 3)
    #expect(throws: DecodingError.self) {
      try JKCBORDecoder().decode(Int.self, from: CBORValue.float(3.5).cborBytes())
    }
    #expect(throws: DecodingError.self) {
      try JKCBORDecoder().decode(UInt8.self, from: CBORValue(256).cborBytes())
    }
    #expect(throws: DecodingError.self) {
      try JKCBORDecoder().decode(UInt64.self, from: CBORValue.negative(.max).cborBytes())
    }
  }

  @Test("NaN and infinities are floats, read without a strategy")
  func nonFiniteFloats() throws {
    let values = try JKCBORDecoder().decode(
      [Double].self, from: CBORValue.array([.float(.infinity), .float(-.infinity)]).cborBytes())
    #expect(values == [.infinity, -.infinity])
    #expect(try JKCBORDecoder().decode(Double.self, from: CBORValue.float(.nan).cborBytes()).isNaN)
  }

  @Test("A type mismatch has Foundation's case and path, and points at the byte")
  func typeMismatchSaysWhere() throws {
    let item: CBORValue = ["a": [1, "two"]]
    let bytes = item.cborBytes()
    do {
      _ = try JKCBORDecoder().decode([String: [Int]].self, from: bytes)
      Issue.record("decoded")
    } catch let error as DecodingError {
      guard case .typeMismatch(_, let context) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(context.codingPath.map(\.stringValue) == ["a", "Index 1"])
      #expect(error.jsonLocation?.offset == 5)
      #expect(
        context.debugDescription
          == "Expected to decode Int but found a string instead. The value is around byte offset 5 near h'6374776f'"
      )
    }
  }

  @Test("Ill-formed CBOR is dataCorrupted with JKCBORError underneath")
  func illFormed() throws {
    do {
      _ = try JKCBORDecoder().decode([Int].self, from: [0x82, 0x01])
      Issue.record("decoded")
    } catch DecodingError.dataCorrupted(let context) {
      let error = try #require(context.underlyingError as? JKCBORError)
      #expect(error.kind == .lengthBeyondInput)
      #expect(context.debugDescription.hasPrefix("The given data was not valid CBOR."))
    }
  }

  /// A map key is checked when it is new to the decoder's key table; one
  /// that is not UTF-8 never enters it, so it is refused every time, also
  /// after keys that are valid and from a decoder that read them before.
  @Test("A map key that is not UTF-8 is refused, at its first byte")
  func mapKeyNotUTF8() throws {
    let decoder = JKCBORDecoder()
    for (hex, offset) in [("a161ff01", 2), ("a261610162c32802", 5), ("a261610162c32802", 5)] {
      _ = try decoder.decode([String: Int].self, from: CBORBytes.fromHex("a2616101616202"))
      do {
        _ = try decoder.decode([String: Int].self, from: CBORBytes.fromHex(hex))
        Issue.record("decoded \(hex)")
      } catch DecodingError.dataCorrupted(let context) {
        let error = try #require(context.underlyingError as? JKCBORError)
        #expect(error.kind == .invalidUTF8, "\(hex)")
        #expect(error.offset == offset, "\(hex)")
      }
    }
  }

  @Test("Reading options relax one rule each")
  func readingOptions() throws {
    let repeated = CBORBytes.fromHex("a2616101616102")
    let decoder = JKCBORDecoder()
    #expect(throws: DecodingError.self) { try decoder.decode([String: Int].self, from: repeated) }
    decoder.readingOptions = .allowsDuplicateKeys
    #expect(try decoder.decode([String: Int].self, from: repeated) == ["a": 2])
    let tagged = CBORBytes.fromHex("d903e801")
    #expect(throws: DecodingError.self) { try decoder.decode(Int.self, from: tagged) }
    decoder.readingOptions = .skipsUnknownTags
    #expect(try decoder.decode(Int.self, from: tagged) == 1)
    let extra = [UInt8]([0x01, 0x02])
    #expect(throws: DecodingError.self) { try decoder.decode(Int.self, from: extra) }
    decoder.readingOptions = .allowsBytesAfterItem
    #expect(try decoder.decode(Int.self, from: extra) == 1)
  }

  @Test("Limits on depth, counts and lengths are errors before anything is allocated")
  func limits() throws {
    let decoder = JKCBORDecoder()
    decoder.maxDepth = 3
    #expect(throws: DecodingError.self) {
      try decoder.decode([[[[Int]]]].self, from: CBORBytes.fromHex("8181818100"))
    }
    #expect(try decoder.decode([[[Int]]].self, from: CBORBytes.fromHex("81818100")) == [[[0]]])
    decoder.maxCollectionCount = 2
    #expect(throws: DecodingError.self) {
      try decoder.decode([Int].self, from: CBORBytes.fromHex("83010203"))
    }
    decoder.maxStringLength = 2
    #expect(throws: DecodingError.self) {
      try decoder.decode(String.self, from: CBORBytes.fromHex("63616263"))
    }
    let hostile = CBORBytes.fromHex("9bffffffffffffffff")
    #expect(throws: DecodingError.self) { try JKCBORDecoder().decode([Int].self, from: hostile) }
  }

  @Test("One decoder decodes from many tasks at once, each getting its own value")
  func concurrentDecoding() async throws {
    let decoder = JKCBORDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let results = try await withThrowingTaskGroup(of: (Int, [String: Int]).self) { group in
      for task in 0..<8 {
        group.addTask {
          var last: [String: Int] = [:]
          for round in 0..<200 {
            let item: CBORValue = [
              "task_id": CBORValue(Int64(task)), "round": CBORValue(Int64(round)),
            ]
            last = try decoder.decode([String: Int].self, from: item.cborBytes())
          }
          return (task, last)
        }
      }
      var results: [Int: [String: Int]] = [:]
      for try await (task, value) in group { results[task] = value }
      return results
    }
    #expect(results.count == 8)
    for (task, value) in results { #expect(value == ["task_id": task, "round": 199]) }
  }

  @Test("The untyped value decodes with the decoder's rules")
  func untyped() throws {
    let item: CBORValue = ["k": .tagged(1000, .bytes([1]))]
    #expect(try JKCBORDecoder().decode(CBORValue.self, from: item.cborBytes()) == item)
  }
}
