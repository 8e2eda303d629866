import Foundation
import JSONKit
import Testing

/// `JKDecoder.decode(_:from:at:)`: the value a JSON Pointer names, after the
/// whole document is validated, with coding paths from the root.
@Suite("Decoding at a JSON Pointer")
struct DecodingAtPointerTests {
  /// RFC 6901's example document.
  static let document = JSONPointerRFCExampleTests.text

  @Test(arguments: JSONPointerRFCExampleTests.examples)
  func rfcExamples(_ text: String, _ expected: JSONValue) throws {
    let pointer = try JSONPointer(text)
    let data = Data(Self.document.utf8)
    #expect(try JKDecoder().decode(JSONValue.self, from: data, at: pointer) == expected)
    if let number = expected.intValue {
      #expect(try JKDecoder().decode(Int.self, from: data, at: pointer) == number)
    }
  }

  @Test func theEmptyPointerDecodesTheWholeDocument() throws {
    let whole = try JKDecoder().decode(JSONValue.self, from: Self.document, at: "")
    #expect(whole == (try JSONValue(parsing: Self.document)))
  }

  struct Item: Decodable, Equatable {
    var id: Int
    var name: String
  }

  static let response = #"""
    {"data": {"items": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}], "total": 2},
     "meta": {"page": 1}}
    """#

  @Test func everyInputTypeReadsThePart() throws {
    let expected = [Item(id: 1, name: "a"), Item(id: 2, name: "b")]
    let decoder = JKDecoder()
    let bytes = Array(Self.response.utf8)
    #expect(try decoder.decode([Item].self, from: Data(bytes), at: "/data/items") == expected)
    #expect(try decoder.decode([Item].self, from: bytes, at: "/data/items") == expected)
    #expect(try decoder.decode([Item].self, from: Self.response, at: "/data/items") == expected)
    #expect(
      try bytes.withUnsafeBytes { try decoder.decode([Item].self, from: $0, at: "/data/items") }
        == expected)
    #expect(try decoder.decode([Item].self, from: bytes[...], at: "/data/items") == expected)
    #expect(try decoder.decode(Item.self, from: bytes, at: "/data/items/1") == expected[1])
    #expect(try decoder.decode(String.self, from: bytes, at: "/data/items/0/name") == "a")
  }

  static func failure(
    _ pointer: JSONPointer, in json: String = response, as type: any Decodable.Type = Item.self
  ) -> (any Error)? {
    do {
      _ = try JKDecoder().decode(type, from: Data(json.utf8), at: pointer)
      return nil
    } catch {
      return error
    }
  }

  static func path(_ error: (any Error)?) -> [String]? {
    guard let error = error as? DecodingError else { return nil }
    let context: DecodingError.Context
    switch error {
    case .keyNotFound(_, let found), .valueNotFound(_, let found), .typeMismatch(_, let found),
      .dataCorrupted(let found):
      context = found
    @unknown default:
      return nil
    }
    return context.codingPath.map { $0.intValue.map { "#\($0)" } ?? $0.stringValue }
  }

  @Test func aMissingKeyIsKeyNotFoundAtTheObject() throws {
    let error = Self.failure("/data/things/0")
    guard case .keyNotFound(let key, _) = error as? DecodingError else {
      Issue.record("expected keyNotFound, got \(String(describing: error))")
      return
    }
    #expect(key.stringValue == "things")
    #expect(Self.path(error) == ["data"])
    // It points at the object that lacks the key.
    let location = try #require((error as? DecodingError)?.jsonLocation)
    #expect(
      location.offset
        == DecodingErrorLocationTests.place(of: #"{"items""#, in: Self.response).offset)
  }

  @Test(arguments: ["/data/items/2", "/data/items/-", "/data/items/01", "/data/items/x"])
  func aMissingElementIsValueNotFound(_ text: String) throws {
    let pointer = try JSONPointer(text)
    let error = Self.failure(pointer)
    guard case .valueNotFound(_, let context) = error as? DecodingError else {
      Issue.record("expected valueNotFound, got \(String(describing: error))")
      return
    }
    #expect(Self.path(error)?.dropLast() == ["data", "items"])
    #expect(context.debugDescription.contains("the array has 2 elements"))
  }

  @Test func aTokenAppliedToAScalarIsValueNotFound() {
    let error = Self.failure("/data/total/x")
    guard case .valueNotFound = error as? DecodingError else {
      Issue.record("expected valueNotFound, got \(String(describing: error))")
      return
    }
    #expect(Self.path(error) == ["data", "total", "x"])
  }

  @Test func errorsInsideHaveFullPaths() throws {
    let json = #"{"data": {"items": [{"id": 1, "name": "a"}, {"id": "2", "name": "b"}]}}"#
    let error = Self.failure("/data/items", in: json, as: [Item].self)
    guard case .typeMismatch = error as? DecodingError else {
      Issue.record("expected typeMismatch, got \(String(describing: error))")
      return
    }
    #expect(Self.path(error) == ["data", "items", "#1", "id"])
    let location = try #require((error as? DecodingError)?.jsonLocation)
    #expect(location.excerpt.contains(#""2""#))
  }

  @Test func theWholeDocumentIsValidatedFirst() {
    let json = #"{"data": {"items": []}, "meta": [1, 2,]}"#
    let error = Self.failure("/data/items", in: json, as: [Item].self)
    guard case .dataCorrupted(let context) = error as? DecodingError else {
      Issue.record("expected dataCorrupted, got \(String(describing: error))")
      return
    }
    #expect(context.underlyingError is JKParseError)
  }

  @Test func aMalformedPointerThrowsItsSyntaxErrorBeforeReading() {
    let error = Self.failure("/data/items~", in: "not JSON at all")
    let syntax = error as? JSONPointer.SyntaxError
    #expect(syntax?.pointer == "/data/items~")
    #expect(syntax?.offset == 12)
  }

  @Test func keysAreMatchedAsWrittenWhateverTheStrategy() throws {
    let decoder = JKDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    struct Row: Decodable, Equatable {
      var userName: String
    }
    let json = #"{"row_list": [{"user_name": "ada"}], "row_list_2": 0}"#
    #expect(try decoder.decode(Row.self, from: json, at: "/row_list/0") == Row(userName: "ada"))
  }

  /// RFC 6901 §4: a token names a key only with exactly its scalars.
  @Test func keysAreMatchedScalarByScalarWithoutNormalization() throws {
    let json = "{\"e\u{301}\": 1, \"k\": {\"\\u00e9\": 2}}"
    let decoder = JKDecoder()
    #expect(try decoder.decode(Int.self, from: json, at: "/e\u{301}") == 1)
    #expect(try decoder.decode(Int.self, from: json, at: "/k/\u{E9}") == 2)
    for pointer: JSONPointer in ["/\u{E9}", "/k/e\u{301}"] {
      let error = Self.failure(pointer, in: json, as: Int.self)
      guard case .keyNotFound(let key, _) = error as? DecodingError else {
        Issue.record("expected keyNotFound for \(pointer), got \(String(describing: error))")
        continue
      }
      #expect(key.stringValue.unicodeScalars.elementsEqual(pointer.tokens.last!.unicodeScalars))
      let description = DecodingErrorLocationTests.context(of: error as! DecodingError)
        .debugDescription
      #expect(description.contains("canonically equivalent"), "\(description)")
      #expect(description.contains("U+0065 U+0301") && description.contains("(U+00E9)"))
      #expect(!description.contains("only by case"))
    }
  }

  /// A value that needs a configuration: a factor for the number it reads.
  struct Scaled: DecodableWithConfiguration, Equatable {
    var value: Int
    init(value: Int) { self.value = value }
    init(from decoder: any Decoder, configuration: Int) throws {
      value = try decoder.singleValueContainer().decode(Int.self) * configuration
    }
  }

  enum Ten: DecodingConfigurationProviding {
    static var decodingConfiguration: Int { 10 }
  }

  @Test func valuesThatNeedAConfiguration() throws {
    let data = Data(Self.response.utf8)
    let decoder = JKDecoder()
    #expect(
      try decoder.decode(Scaled.self, from: data, at: "/data/total", configuration: 3)
        == Scaled(value: 6))
    #expect(
      try decoder.decode(Scaled.self, from: data, at: "/data/total", configuration: Ten.self)
        == Scaled(value: 20))
    let error = Result {
      try decoder.decode(Scaled.self, from: data, at: "/data/items/0/name", configuration: 3)
    }
    guard case .failure(DecodingError.typeMismatch(_, let context)) = error else {
      Issue.record("expected typeMismatch, got \(error)")
      return
    }
    #expect(
      Self.path(DecodingError.typeMismatch(Int.self, context)) == ["data", "items", "#0", "name"])
    let missing = Result {
      try decoder.decode(Scaled.self, from: data, at: "/data/count", configuration: 3)
    }
    guard case .failure(DecodingError.keyNotFound(let key, _)) = missing else {
      Issue.record("expected keyNotFound, got \(missing)")
      return
    }
    #expect(key.stringValue == "count")
    #expect(throws: JSONPointer.SyntaxError.self) {
      try decoder.decode(Scaled.self, from: data, at: "data", configuration: 3)
    }
  }

  @Test func aRepeatedKeyNamesItsLastValue() throws {
    #expect(try JKDecoder().decode(Int.self, from: #"{"a": 1, "a": 2}"#, at: "/a") == 2)
  }

  @Test func onlyTheValueNamedIsCheckedForUnknownKeys() throws {
    let decoder = JKDecoder()
    decoder.unknownKeyStrategy = .reject
    let items = try decoder.decode([Item].self, from: Self.response, at: "/data/items")
    #expect(items.count == 2)
  }
}
