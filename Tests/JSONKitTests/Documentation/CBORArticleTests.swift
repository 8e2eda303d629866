import Foundation
import JSONKit
import Testing

@Suite("The CBOR article's code")
struct CBORArticleTests {
  struct Order: Codable, Equatable {
    var id: Int
  }

  struct Event: Codable, Equatable {
    var eventName: String
  }

  @Test("A model encodes, decodes back, and reads as an untyped item")
  func overview() throws {
    let order = Order(id: 7)
    let bytes = try JKCBOREncoder().encode(order)
    let decoded = try JKCBORDecoder().decode(Order.self, from: bytes)
    let item = try CBORValue(cbor: bytes)  // untyped

    #expect(decoded == order)
    #expect(item["id"] == 7)
    #expect([UInt8](bytes) == [0xA1, 0x62, 0x69, 0x64, 0x07])
  }

  @Test("The encoder's key strategy and self-described output")
  func encoding() throws {
    let event = Event(eventName: "launch")
    let encoder = JKCBOREncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.options = .selfDescribed  // starts with tag 55799, D9 D9 F7
    let cbor = try encoder.encode(event)

    #expect(Array(cbor.prefix(3)) == [0xD9, 0xD9, 0xF7])
    #expect(try CBORValue(cbor: cbor.dropFirst(3)) == ["event_name": "launch"])
  }

  @Test("Foundation's types are written with CBOR's tags, as the article's table says")
  func mappingTable() throws {
    struct Row: Encodable {
      var wide = Int128(1) << 64
      var half = 1.5
      var data = Data([1, 2])
      var date = Date(timeIntervalSince1970: 1_000)
      var uuid = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
      var decimal = Decimal(string: "12.34")!
      var url = URL(string: "https://example.com/a")!
      var byNumber: [Int: String] = [3: "c"]
      var missing: Int? = nil

      func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(wide)
        try container.encode(half)
        try container.encode(data)
        try container.encode(date)
        try container.encode(uuid)
        try container.encode(decimal)
        try container.encode(url)
        try container.encode(byNumber)
        try container.encode(missing)
      }
    }
    let item = try CBORValue(cbor: try JKCBOREncoder().encode(Row()))
    #expect(
      item.description
        == "[2(h'010000000000000000'), 1.5, h'0102', 1(1000), "
        + "37(h'00000000000000000000000000000001'), 4([-2, 1234]), "
        + #"32("https://example.com/a"), {3: "c"}, null]"#)
    #expect(try JKCBOREncoder().encode(1.5).count == 3)  // half precision: F9 3E 00
  }

  @Test("The key strategy applies as it does to JSON")
  func decoding() throws {
    let cborBytes = (["event_name": "launch"] as CBORValue).cborBytes()
    let decoder = JKCBORDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let event = try decoder.decode(Event.self, from: cborBytes)

    #expect(event.eventName == "launch")
  }

  @Test("Each reading option relaxes one rule")
  func readingOptions() throws {
    let lenient = JKCBORDecoder()
    lenient.readingOptions = [.allowsBytesAfterItem, .allowsDuplicateKeys, .skipsUnknownTags]

    #expect(try lenient.decode(Int.self, from: [0x01, 0x02]) == 1)
    #expect(throws: DecodingError.self) {
      try JKCBORDecoder().decode(Int.self, from: [0x01, 0x02])
    }
  }

  @Test("The untyped value writes, reads, describes and converts itself")
  func untyped() throws {
    let item: CBORValue = ["name": "Ada", "born": 1815, "tags": [1, 2.5]]
    let bytes = item.cborBytes()
    let read = try CBORValue(cbor: bytes)
    print(read)  // {"name": "Ada", "born": 1815, "tags": [1, 2.5]}
    let json = try JSONValue(read)  // where JSON can hold it

    #expect(read.description == #"{"name": "Ada", "born": 1815, "tags": [1, 2.5]}"#)
    #expect(json == ["name": "Ada", "born": 1815, "tags": [1, 2.5]])
  }
}

/// The CBOR article's section on the encoder's options.
@Suite("The CBOR article's code: shared instances, string tables and deterministic bytes")
struct CBORArticleOptionsTests {
  final class Author: Codable {
    var name: String
    init(name: String) { self.name = name }
  }

  struct Book: Codable {
    var title: String
    var author: Author
  }

  @Test("A shared author comes back as one instance")
  func sharedInstances() throws {
    let ada = Author(name: "Ada")
    let shelf = [Book(title: "Notes", author: ada), Book(title: "Letters", author: ada)]
    let encoder = JKCBOREncoder()
    encoder.options = [.sharedReferences, .stringReferences]
    let bytes = try encoder.encode(shelf)
    let books = try JKCBORDecoder().decode([Book].self, from: bytes)
    // books[0].author === books[1].author: one Author, as it was encoded

    #expect(books.count == 2)
    #expect(books[0].author === books[1].author)
    #expect(books[0].author.name == "Ada" && books[1].title == "Letters")
    #expect(try bytes.count < JKCBOREncoder().encode(shelf).count)
  }

  @Test("Equal dictionaries give equal deterministic bytes")
  func deterministicBytes() throws {
    let encoder = JKCBOREncoder()
    encoder.options = .deterministic
    let first = try encoder.encode(["b": 1, "a": 2])
    let second = try encoder.encode(["a": 2, "b": 1])
    // first == second, whatever order the dictionaries hold their keys in

    #expect(first == second)
    #expect([UInt8](first) == [0xA2, 0x61, 0x61, 0x02, 0x61, 0x62, 0x01])
  }
}
