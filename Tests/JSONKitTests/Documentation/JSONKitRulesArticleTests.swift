import Foundation
import JSONKit
import Testing

@Suite("The JSONKit's rules article's code")
struct JSONKitRulesArticleTests {
  @Test("U+0000 is an error, and loose Unicode reads it as U+FFFD")
  func unicode() throws {
    var kind: JKParseError.Kind?
    do {
      _ = try JSONValue(parsing: #"["a\u0000b"]"#)
    } catch {
      kind = error.kind  // .nullCharacter
    }
    let loose = try JSONValue(parsing: #"["a\u0000b"]"#, options: .looseUnicode)
    // loose[0]?.stringValue == "a\u{FFFD}b"

    #expect(kind == .nullCharacter)
    #expect(loose[0]?.stringValue == "a\u{FFFD}b")
  }

  @Test("A number converts without loss or throws, with its coding path")
  func numbers() throws {
    struct Reading: Decodable {
      var level: Int8
    }
    let decoder = JKDecoder()
    let fits = try decoder.decode(Reading.self, from: Data(#"{"level": 127}"#.utf8))
    let tooLarge = Result { try decoder.decode(Reading.self, from: Data(#"{"level": 128}"#.utf8)) }
    // tooLarge is a failure: DecodingError.dataCorrupted at the coding path "level"
    let huge = Result { try JSONValue(parsing: "18446744073709551616") }
    // huge is a failure: JKParseError of kind .integerOutOfRange

    #expect(fits.level == 127)
    guard case .failure(DecodingError.dataCorrupted(let context)) = tooLarge else {
      Issue.record("expected dataCorrupted, got \(tooLarge)")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == ["level"])
    guard case .failure(let hugeError) = huge else {
      Issue.record("expected an error, got \(huge)")
      return
    }
    #expect((hugeError as? JKParseError)?.kind == .integerOutOfRange)
    #expect(try JSONValue(parsing: "18446744073709551615") == .uint(UInt64.max))
  }

  @Test("The last of a repeated key wins")
  func duplicateKeys() throws {
    let object = try JSONValue(parsing: #"{"mode": "fast", "mode": "safe"}"#)
    // object["mode"] == "safe"

    #expect(object["mode"] == "safe")
    let decoded = try JKDecoder().decode(
      [String: String].self, from: Data(#"{"mode": "fast", "mode": "safe"}"#.utf8))
    #expect(decoded == ["mode": "safe"])
  }

  @Test("Nesting deeper than the limit is an error unless the limit is raised")
  func depth() throws {
    let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    let refused = Result { try JSONValue(parsing: deep) }
    // refused is a failure: JKParseError of kind .tooDeeplyNested
    let accepted = try JSONValue(parsing: deep, maxDepth: 1000)

    guard case .failure(let error) = refused else {
      Issue.record("expected an error, got \(refused)")
      return
    }
    #expect((error as? JKParseError)?.kind == .tooDeeplyNested)
    #expect(accepted.arrayValue?.count == 1)
    #expect(JSONValue.maxDepthLimit == 1024)
  }

  @Test("Comments and trailing commas are accepted when asked for")
  func relaxedGrammar() throws {
    let settings = try JSONValue(
      parsing: """
        {
          // the port the server listens on
          "port": 8080,
        }
        """,
      options: [.comments, .trailingCommas])
    // settings["port"]?.intValue == 8080

    #expect(settings["port"]?.intValue == 8080)
    #expect(throws: JKParseError.self) { try JSONValue(parsing: "[1, // one\n]") }
  }

  @Test("Sorted keys, escaped Unicode and Foundation's escaped slash")
  func output() throws {
    let value: JSONValue = ["path": "a/b", "name": "café"]
    let text = try value.jsonString(options: [.sortedKeys, .escapeUnicode])
    // {"name":"caf\u00e9","path":"a\/b"}

    #expect(text == #"{"name":"caf\u00e9","path":"a\/b"}"#)
  }
}
