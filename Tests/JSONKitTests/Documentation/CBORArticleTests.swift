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

  @Test("A model and an untyped item from the same bytes")
  func overview() throws {
    let bytes = (["id": 7] as CBORValue).cborBytes()
    let order = try JKCBORDecoder().decode(Order.self, from: bytes)
    let item = try CBORValue(cbor: bytes)  // untyped

    #expect(order == Order(id: 7))
    #expect(item["id"] == 7)
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
