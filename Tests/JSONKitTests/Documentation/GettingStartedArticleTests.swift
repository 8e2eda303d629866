import Foundation
import JSONKit
import Testing

@Suite("The Getting started article's code")
struct GettingStartedArticleTests {
  @Test("The package lines name the library product that the package declares")
  func packageLines() throws {
    let lines = """
      .package(url: "<this repository's URL>", branch: "main"),
      // and in your target's dependencies:
      .product(name: "JSONKit", package: "<the repository's name>"),
      """
    let manifest = try String(
      contentsOf: ArticleSnippets.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    #expect(lines.contains(#".product(name: "JSONKit", "#))
    #expect(manifest.contains(#".library(name: "JSONKit", targets: ["JSONKit"])"#))
  }

  @Test("A user decodes and encodes as the article shows, to JSONEncoder's bytes")
  func decodeAndEncode() throws {
    struct User: Codable, Equatable {
      var id: Int
      var fullName: String
      var joined: Date
    }

    let data = Data(
      #"{"id": 7, "full_name": "Ada Lovelace", "joined": "2024-05-01T09:30:00Z"}"#.utf8)
    let decoder = JKDecoder()  // was: JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .iso8601
    let user = try decoder.decode(User.self, from: data)

    #expect(
      user
        == User(id: 7, fullName: "Ada Lovelace", joined: Date(timeIntervalSince1970: 1_714_555_800))
    )

    let encoder = JKEncoder()  // was: JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = .sortedKeys
    let json = try encoder.encode(user)
    // {"full_name":"Ada Lovelace","id":7,"joined":"2024-05-01T09:30:00Z"}

    #expect(
      String(decoding: json, as: UTF8.self)
        == #"{"full_name":"Ada Lovelace","id":7,"joined":"2024-05-01T09:30:00Z"}"#)
    let foundation = JSONEncoder()
    foundation.keyEncodingStrategy = .convertToSnakeCase
    foundation.dateEncodingStrategy = .iso8601
    foundation.outputFormatting = .sortedKeys
    #expect(try foundation.encode(user) == json)
    #expect(try decoder.decode(User.self, from: Array(data)) == user)
    #expect(try decoder.decode(User.self, from: String(decoding: data, as: UTF8.self)) == user)
  }

  @Test("JSONValue reads, edits and writes JSON as the article shows")
  func untypedValues() throws {
    let data = Data(#"{"id": 7}"#.utf8)
    let value = try JSONValue(parsing: #"{"user": {"name": "Ada"}, "id": 12345678901}"#)
    let name = value["user"]?["name"]?.stringValue  // "Ada"
    let id = value["id"]?.int64Value  // 12345678901: exact, or nil

    let edited: JSONValue = ["name": "Ada", "born": 1815, "tags": ["maths", nil]]
    let text = try edited.jsonString(options: .sortedKeys)
    // {"born":1815,"name":"Ada","tags":["maths",null]}

    try JSONValue.validate(data)  // checks without building values

    #expect(name == "Ada")
    #expect(id == 12_345_678_901)
    #expect(value["id"]?.doubleValue == 12_345_678_901)
    #expect(text == #"{"born":1815,"name":"Ada","tags":["maths",null]}"#)
    #expect(throws: JKParseError.self) { try JSONValue.validate(Data("{".utf8)) }
  }

  @Test("JKSerialization bridges to Foundation's values as the article shows")
  func serialization() throws {
    let data = Data(#"{"id": 7, "full_name": "Ada Lovelace"}"#.utf8)
    let object = try JKSerialization.jsonObject(with: data) as? [String: Any]
    let idNumber = object?["id"] as? Int  // 7
    let body = try JKSerialization.data(withJSONObject: ["ok": true])  // {"ok":true}

    #expect(idNumber == 7)
    #expect(object?["full_name"] as? String == "Ada Lovelace")
    #expect(String(decoding: body, as: UTF8.self) == #"{"ok":true}"#)
  }
}
