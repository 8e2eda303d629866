import Foundation
import JSONKit
import Testing

@Suite("The Errors and where they point article's code")
struct ErrorsAndWhereTheyPointArticleTests {
  @Test("A parse error gives its kind, line, column, offset and excerpt")
  func parseError() throws {
    var parseError: JKParseError?
    do {
      _ = try JSONValue(parsing: "{\n  \"name\": \"Ada\",\n  \"admin\": tru\n}")
    } catch {
      parseError = error
    }
    // parseError?.kind == .invalidLiteral, line 3, column 12, offset 30
    // Invalid literal, expected 'true' around line 3, column 12 (byte offset 30) near   "admin": tru

    let error = try #require(parseError)
    #expect(error.kind == .invalidLiteral)
    #expect(error.line == 3)
    #expect(error.column == 12)
    #expect(error.offset == 30)
    #expect(
      error.description
        == #"Invalid literal, expected 'true' around line 3, column 12 (byte offset 30) near   "admin": tru"#
    )
  }

  @Test("The decoder's syntax error is dataCorrupted with the parse error underneath")
  func decoderSyntaxError() throws {
    struct Account: Decodable {
      var name: String
      var admin: Bool
    }
    var context: DecodingError.Context?
    do {
      _ = try JKDecoder().decode(Account.self, from: Data(#"{"name": "Ada", "admin": tru}"#.utf8))
    } catch DecodingError.dataCorrupted(let found) {
      context = found
    }
    let underlying = context?.underlyingError as? JKParseError
    // underlying?.line == 1, underlying?.column == 26
    // context?.debugDescription: The given data was not valid JSON. Invalid literal, …

    #expect(underlying?.line == 1)
    #expect(underlying?.column == 26)
    #expect(context?.codingPath.isEmpty == true)
    #expect(
      context?.debugDescription.hasPrefix(
        "The given data was not valid JSON. Invalid literal, expected 'true' around line 1") == true
    )
  }

  @Test("A decoding error points at its value")
  func valueLocation() throws {
    struct User: Decodable {
      var id: Int
      var name: String
    }
    let json = """
      [
        {"id": 1, "name": "Ada"},
        {"id": "2", "name": "Grace"}
      ]
      """
    var location: JKInputLocation?
    var message = ""
    do {
      _ = try JKDecoder().decode([User].self, from: Data(json.utf8))
    } catch let error as DecodingError {
      location = error.jsonLocation
      message = "\(error)"
    }
    // location?.line == 3, location?.column == 10, location?.offset == 39
    // … Expected to decode Int but found a string instead. The value is around line 3, column 10 …

    #expect(location?.line == 3)
    #expect(location?.column == 10)
    #expect(location?.offset == 39)
    #expect(location?.excerpt.contains(#""id": "2""#) == true)
    #expect(
      message.contains(
        "Expected to decode Int but found a string instead. The value is around line 3, column 10"))
  }

  @Test("An unknown key is refused when asked")
  func unknownKey() throws {
    struct Profile: Decodable {
      var id: Int
      var name: String
    }
    let decoder = JKDecoder()
    decoder.unknownKeyStrategy = .reject
    var unknown: String?
    do {
      _ = try decoder.decode(Profile.self, from: #"{"id": 1, "name": "Ada", "nmae": "A"}"#)
    } catch DecodingError.dataCorrupted(let context) {
      unknown = context.debugDescription
    }
    // Unknown key "nmae": the model does not read it, and unknownKeyStrategy is .reject. …

    #expect(
      unknown?.hasPrefix(
        #"Unknown key "nmae": the model does not read it, and unknownKeyStrategy is .reject."#)
        == true)
    #expect(unknown?.contains("The key is around line 1, column 26 (byte offset 25)") == true)
  }

  @Test("A model error has Foundation's case and coding path")
  func modelError() throws {
    struct Order: Decodable {
      struct Item: Decodable {
        var price: Int
      }
      var items: [Item]
    }
    var path: [String] = []
    do {
      _ = try JKDecoder().decode(
        Order.self, from: Data(#"{"items": [{"price": 1}, {"price": "2"}]}"#.utf8))
    } catch DecodingError.typeMismatch(_, let context) {
      path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
    }
    // path == ["items", "1", "price"]

    #expect(path == ["items", "1", "price"])
    let foundation = #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(
        Order.self, from: Data(#"{"items": [{"price": 1}, {"price": "2"}]}"#.utf8))
    }
    guard case .typeMismatch(_, let context)? = foundation else {
      Issue.record("Foundation threw \(String(describing: foundation))")
      return
    }
    #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == path)
  }

  @Test("Encoding NaN without a strategy throws at the value's coding path, as Foundation does")
  func encodingError() throws {
    struct Sample: Encodable {
      var ratio: Double
    }
    var encodingPath: [String]?
    do {
      _ = try JKEncoder().encode([Sample(ratio: .nan)])
    } catch EncodingError.invalidValue(_, let context) {
      encodingPath = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
    }
    // encodingPath == ["0", "ratio"]

    #expect(encodingPath == ["0", "ratio"])
    var foundationPath: [String]?
    do {
      _ = try JSONEncoder().encode([Sample(ratio: .nan)])
    } catch EncodingError.invalidValue(_, let context) {
      foundationPath = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
    }
    #expect(foundationPath == encodingPath)
  }
}
