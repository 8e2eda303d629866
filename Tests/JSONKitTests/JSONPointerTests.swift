import JSONKitCorpus
import Testing

@testable import JSONKit

/// `text` read by the throwing initializer. Called with a string literal,
/// `JSONPointer("...")` is Swift's literal initializer, which never throws.
private func parsed(_ text: String) throws(JSONPointer.SyntaxError) -> JSONPointer {
  try JSONPointer(text)
}

/// The examples of RFC 6901, section 5, against its example document.
@Suite("JSON Pointer: RFC 6901 examples")
struct JSONPointerRFCExampleTests {
  /// The document of section 5, as the RFC writes it.
  static let text = #"""
    {
      "foo": ["bar", "baz"],
      "": 0,
      "a/b": 1,
      "c%d": 2,
      "e^f": 3,
      "g|h": 4,
      "i\\j": 5,
      "k\"l": 6,
      " ": 7,
      "m~n": 8
    }
    """#

  static let document = try! JSONValue(parsing: text)

  static let examples: [(String, JSONValue)] = [
    ("/foo", ["bar", "baz"]),
    ("/foo/0", "bar"),
    ("/", 0),
    ("/a~1b", 1),
    ("/c%d", 2),
    ("/e^f", 3),
    ("/g|h", 4),
    (#"/i\j"#, 5),
    (#"/k"l"#, 6),
    ("/ ", 7),
    ("/m~0n", 8),
  ]

  @Test func theEmptyPointerIsTheWholeDocument() throws {
    let pointer = try parsed("")
    #expect(pointer.tokens.isEmpty)
    #expect(Self.document[pointer: pointer] == Self.document)
    #expect(Self.document[pointer: ""]?.objectValue?.count == 10)
  }

  @Test(arguments: examples)
  func eachExampleNamesItsValue(_ text: String, _ expected: JSONValue) throws {
    let pointer = try JSONPointer(text)
    let found = try #require(Self.document[pointer: pointer])
    #expect(found == expected)
    // Equality treats 0 and 0.0 alike; the parsed values are exact integers.
    if let number = expected.intValue {
      #expect(found == .int(Int64(number)))
    }
    #expect(pointer.description == text)
  }

  @Test func theExamplesUnescapeToTheDocumentsKeys() throws {
    let keys = try Self.examples.dropFirst(2).map { try JSONPointer($0.0).tokens }
    #expect(
      keys == [[""], ["a/b"], ["c%d"], ["e^f"], ["g|h"], [#"i\j"#], [#"k"l"#], [" "], ["m~n"]])
    #expect(try parsed("/foo/0").tokens == ["foo", "0"])
  }

  @Test func theSecondElementAndNothingBeyond() {
    #expect(Self.document[pointer: "/foo/1"] == "baz")
    #expect(Self.document[pointer: "/foo/2"] == nil)
    #expect(Self.document[pointer: "/foo/-"] == nil)
    #expect(Self.document[pointer: "/foo/0/0"] == nil)
    #expect(Self.document[pointer: "//"] == nil)
    #expect(Self.document[pointer: "/m~n"] == nil)
    #expect(Self.document[pointer: "/a/b"] == nil)
  }
}

/// What text is a pointer, and the error for text that is not.
@Suite("JSON Pointer: syntax")
struct JSONPointerSyntaxTests {
  @Test(arguments: [
    ("a", 0, #"a pointer other than "" must start with '/'"#),
    ("foo/bar", 0, #"a pointer other than "" must start with '/'"#),
    ("~0", 0, #"a pointer other than "" must start with '/'"#),
    (" /a", 0, #"a pointer other than "" must start with '/'"#),
    ("/~", 2, "'~' must be followed by '0' or '1'"),
    ("/~2", 2, "'~' must be followed by '0' or '1'"),
    ("/a~2", 3, "'~' must be followed by '0' or '1'"),
    ("/a~", 3, "'~' must be followed by '0' or '1'"),
    ("/a/b~", 5, "'~' must be followed by '0' or '1'"),
    ("/a~01~/b", 6, "'~' must be followed by '0' or '1'"),
    ("/~~0", 2, "'~' must be followed by '0' or '1'"),
    ("/~/", 2, "'~' must be followed by '0' or '1'"),
    ("/\u{E9}~x", 4, "'~' must be followed by '0' or '1'"),
    ("/~\u{301}", 2, "'~' must be followed by '0' or '1'"),
  ])
  func malformedTextThrowsWhereItGoesWrong(_ text: String, _ offset: Int, _ message: String) {
    let error = #expect(throws: JSONPointer.SyntaxError.self) { try JSONPointer(text) }
    #expect(error?.pointer == text)
    #expect(error?.offset == offset)
    #expect(error?.message == message)
  }

  @Test func theErrorDescriptionQuotesThePointerAndGivesTheOffset() {
    let error = #expect(throws: JSONPointer.SyntaxError.self) { try parsed("/a~2") }
    #expect(
      error?.description
        == #"Malformed JSON Pointer "/a~2": '~' must be followed by '0' or '1' (at offset 3)"#)
    let start = #expect(throws: JSONPointer.SyntaxError.self) { try parsed("a") }
    #expect(
      start?.description
        == #"Malformed JSON Pointer "a": a pointer other than "" must start with '/' (at offset 0)"#
    )
  }

  @Test(arguments: ["", "/", "//", "/~0", "/~1", "/~01", "/~10", "/a~0~1b/c", "/-", "/ /\t/\u{0}"])
  func wellFormedTextIsAccepted(_ text: String) throws {
    let pointer = try JSONPointer(text)
    #expect(pointer.syntaxError == nil)
    #expect(pointer.description == text)
  }

  @Test func emptyTokensAreTokens() throws {
    #expect(try parsed("/").tokens == [""])
    #expect(try parsed("//").tokens == ["", ""])
    #expect(try parsed("/a/").tokens == ["a", ""])
    #expect(try parsed("").tokens == [])
  }

  @Test func escapesAreReadOnceLeftToRight() throws {
    // "~01" is "~" then "1", not "~1" read again as "/".
    #expect(try parsed("/~01").tokens == ["~1"])
    #expect(try parsed("/~10").tokens == ["/0"])
    #expect(try parsed("/~0~1~1~0").tokens == ["~//~"])
  }

  @Test func aWellFormedLiteralIsTheSameAsTheThrowingInitializer() throws {
    let literal: JSONPointer = "/a~1b/0"
    #expect(literal == (try parsed("/a~1b/0")))
    #expect(literal == JSONPointer(stringLiteral: "/a~1b/0"))
    #expect(literal.syntaxError == nil)
    #expect(literal.tokens == ["a/b", "0"])
    #expect(try literal.validated() == literal)
  }

  @Test func aMalformedLiteralKeepsItsErrorAndNamesNothing() throws {
    let literal: JSONPointer = "/a~2"
    let error = try #require(literal.syntaxError)
    #expect(error.offset == 3)
    #expect(error.pointer == "/a~2")
    #expect(literal.tokens == [])
    #expect(literal.description == "/a~2")
    let thrown = #expect(throws: JSONPointer.SyntaxError.self) { try literal.validated() }
    #expect(thrown == error)
    // Even where the same text read loosely would find something.
    let value: JSONValue = ["a~2": 1, "a": ["~2": 2]]
    #expect(value[pointer: literal] == nil)
    #expect(value[pointer: JSONPointer(tokens: ["a~2"])] == 1)
    // Extending it keeps it malformed.
    #expect(literal.appending("x").syntaxError == error)
  }

  @Test func theInitializerCalledWithALiteralIsTheLiteralInitializer() {
    // Swift reads `T("...")` as the literal `"..." as T`: no error is thrown,
    // and the pointer keeps it.
    let pointer = JSONPointer("/a~2")
    #expect(pointer.syntaxError?.offset == 3)
    #expect(pointer == JSONPointer(stringLiteral: "/a~2"))
  }

  @Test func malformedLiteralsWithoutASlashNameNothingEither() {
    let value: JSONValue = ["a": 1]
    let pointer: JSONPointer = "a"
    #expect(pointer.syntaxError?.offset == 0)
    #expect(value[pointer: pointer] == nil)
    let trailing: JSONPointer = "/a~"
    #expect(trailing.syntaxError?.offset == 3)
    #expect(value[pointer: trailing] == nil)
  }

  @Test func equalityFollowsTheTokens() throws {
    #expect(try parsed("/a~1b") == JSONPointer(tokens: ["a/b"]))
    #expect(try parsed("/a~1b") != JSONPointer(tokens: ["a", "b"]))
    #expect(JSONPointer(tokens: []) != JSONPointer(tokens: [""]))
    let malformed: JSONPointer = "x"
    #expect(malformed == "x")
    #expect(malformed != JSONPointer(tokens: []))
    #expect(malformed != "y")
    let set: Set<JSONPointer> = ["/a", "/a", "/b", "", "/a~1b", "x", "x"]
    #expect(set.count == 5)
    #expect(set.contains(JSONPointer(tokens: ["a/b"])))
  }
}

/// Tokens, escapes and the pointer's text, which read back alike.
@Suite("JSON Pointer: tokens and text")
struct JSONPointerTextTests {
  @Test func tokensAreEscapedInTheText() {
    #expect(JSONPointer(tokens: []).description == "")
    #expect(JSONPointer(tokens: [""]).description == "/")
    #expect(JSONPointer(tokens: ["a/b", "m~n"]).description == "/a~1b/m~0n")
    #expect(JSONPointer(tokens: ["~1"]).description == "/~01")
    #expect(JSONPointer(tokens: ["/0"]).description == "/~10")
    #expect(JSONPointer(tokens: ["~/", "/~"]).description == "/~0~1/~1~0")
    #expect(JSONPointer(tokens: ["é", "😀", "\u{0}"]).description == "/é/😀/\u{0}")
  }

  @Test func appendingAddsOneUnescapedToken() throws {
    let items: JSONPointer = "/data/items"
    #expect(items.appending("0") == "/data/items/0")
    #expect(items.appending("a/b").description == "/data/items/a~1b")
    #expect(JSONPointer(tokens: []).appending("") == "/")
    #expect(items.tokens == ["data", "items"])
  }

  @Test func aCombiningMarkAfterATildeIsKept() throws {
    // The escape is the scalar '~', whatever follows it as a character.
    let pointer = JSONPointer(tokens: ["~\u{301}"])
    #expect(pointer.description.unicodeScalars.elementsEqual("/~0\u{301}".unicodeScalars))
    let read = try JSONPointer(pointer.description)
    #expect(read.tokens.first?.unicodeScalars.elementsEqual("~\u{301}".unicodeScalars) == true)
  }

  /// Random tokens drawn from the characters that matter: the pointer's
  /// text reads back as the same tokens, scalar for scalar.
  @Test func randomTokensRoundTripThroughTheText() throws {
    var random = SplitMix64(seed: 6901)
    let pieces = ["~", "/", "0", "1", "~0", "~1", "a", "é", "e\u{301}", "😀", " ", "-", "\u{0}"]
    for _ in 0..<2000 {
      let tokens = (0..<random.next(below: 5)).map { _ in
        (0..<random.next(below: 6)).map { _ in pieces[random.next(below: pieces.count)] }.joined()
      }
      let pointer = JSONPointer(tokens: tokens)
      let read = try JSONPointer(pointer.description)
      #expect(read.tokens.count == tokens.count)
      for (left, right) in zip(read.tokens, tokens) {
        #expect(Array(left.unicodeScalars) == Array(right.unicodeScalars), "\(tokens)")
      }
      #expect(read.description.utf8.elementsEqual(pointer.description.utf8))
    }
  }

  /// Random text over the characters that matter: well-formed text reads
  /// back as itself, and malformed text is refused exactly where RFC 6901
  /// says it goes wrong.
  @Test func randomTextIsReadOrRefusedWhereItGoesWrong() {
    var random = SplitMix64(seed: 5)
    let characters: [Character] = ["/", "~", "0", "1", "2", "a"]
    var accepted = 0
    for _ in 0..<5000 {
      let text = String(
        (0..<random.next(below: 8)).map { _ in
          characters[random.next(below: characters.count)]
        })
      let bytes = Array(text.utf8)
      do throws(JSONPointer.SyntaxError) {
        let pointer = try JSONPointer(text)
        accepted += 1
        #expect(pointer.description == text)
        #expect(pointer.tokens.count == bytes.filter { $0 == UInt8(ascii: "/") }.count)
      } catch {
        #expect(error.pointer == text)
        if bytes.first != UInt8(ascii: "/") {
          #expect(error.offset == 0, "\(text)")
        } else {
          // The first '~' not followed by '0' or '1', counting escapes as pairs.
          var index = 0
          var fault: Int?
          while index < bytes.count {
            if bytes[index] == UInt8(ascii: "~") {
              let next = index + 1 < bytes.count ? bytes[index + 1] : nil
              guard next == UInt8(ascii: "0") || next == UInt8(ascii: "1") else {
                fault = index + 1
                break
              }
              index += 1
            }
            index += 1
          }
          #expect(error.offset == fault, "\(text)")
        }
      }
    }
    #expect(accepted > 500)
  }
}

/// Which tokens name elements of arrays.
@Suite("JSON Pointer: array indices")
struct JSONPointerArrayIndexTests {
  static let array: JSONValue = ["zero", "one", "two"]

  @Test(arguments: [("0", 0), ("1", 1), ("2", 2), ("10", 10), ("9223372036854775807", Int.max)])
  func decimalNumbersWithoutLeadingZerosAreIndices(_ token: String, _ index: Int) {
    #expect(JSONPointer.arrayIndex(token) == index)
  }

  @Test(arguments: [
    "", "-", "-0", "-1", "+1", "01", "00", "007", " 1", "1 ", "1.0", "1e2", "0x1", "a", "1a",
    "９", "\u{663}", "9223372036854775808", "99999999999999999999999999",
  ])
  func otherTokensAreNoIndex(_ token: String) {
    #expect(JSONPointer.arrayIndex(token) == nil)
  }

  @Test func indicesNameElementsInRangeOnly() {
    #expect(Self.array[pointer: "/0"] == "zero")
    #expect(Self.array[pointer: "/2"] == "two")
    #expect(Self.array[pointer: "/3"] == nil)
    #expect(Self.array[pointer: "/01"] == nil)
    #expect(Self.array[pointer: "/-"] == nil)
    #expect(Self.array[pointer: "/-1"] == nil)
    #expect(Self.array[pointer: "/9223372036854775807"] == nil)
    #expect(Self.array[pointer: "/99999999999999999999"] == nil)
    #expect(Self.array[pointer: "/"] == nil)
    #expect(JSONValue.array([])[pointer: "/0"] == nil)
    #expect(JSONValue.array([])[pointer: "/-"] == nil)
  }

  @Test func numberLikeKeysOfObjectsAreKeys() {
    let object: JSONValue = ["01": "a", "-": "b", "0": "c", "": "d"]
    #expect(object[pointer: "/01"] == "a")
    #expect(object[pointer: "/-"] == "b")
    #expect(object[pointer: "/0"] == "c")
    #expect(object[pointer: "/"] == "d")
    #expect(object[pointer: "/1"] == nil)
  }
}

/// What the subscript finds in values.
@Suite("JSON Pointer: lookups")
struct JSONPointerLookupTests {
  @Test func nestedObjectsAndArrays() throws {
    let value = try JSONValue(
      parsing: #"{"data": {"items": [{"id": 1}, {"id": 2, "tags": ["x", null]}]}}"#)
    #expect(value[pointer: "/data/items/1/id"] == 2)
    #expect(value[pointer: "/data/items/1/tags/1"] == .null)
    #expect(value[pointer: "/data/items/1/tags/1"]?.isNull == true)
    #expect(value[pointer: "/data/items/0/tags"] == nil)
    #expect(value[pointer: "/data/items"]?.arrayValue?.count == 2)
    #expect(value[pointer: "/data/items/0"] == ["id": 1])
  }

  @Test func scalarsHaveNothingUnderThem() {
    for scalar: JSONValue in [.null, true, 1, .uint(UInt64.max), 2.5, "text"] {
      #expect(scalar[pointer: ""] == scalar)
      #expect(scalar[pointer: "/"] == nil)
      #expect(scalar[pointer: "/0"] == nil)
      #expect(scalar[pointer: "/a"] == nil)
    }
    let text: JSONValue = "abc"
    #expect(text[pointer: "/length"] == nil)
  }

  @Test func aRepeatedKeyNamesItsLastValueAsTheObjectSubscriptDoes() throws {
    let value = try JSONValue(parsing: #"{"a": 1, "b": {"c": 2}, "a": {"d": 3}}"#)
    #expect(value[pointer: "/a"] == value["a"])
    #expect(value[pointer: "/a/d"] == 3)
    #expect(value[pointer: "/b/c"] == 2)
  }

  /// RFC 6901 §4: no Unicode normalization. The object subscript holds
  /// canonically equivalent keys equal; the pointer names a key only when
  /// its scalars are the token's.
  @Test func keysCompareScalarByScalarUnlikeTheObjectSubscript() throws {
    let value = try JSONValue(parsing: "{\"e\u{301}\": 1}")
    #expect(value["\u{E9}"] == 1)
    #expect(value[pointer: JSONPointer(tokens: ["\u{E9}"])] == nil)
    #expect(value[pointer: "/\u{E9}"] == nil)
    #expect(value[pointer: JSONPointer(tokens: ["e\u{301}"])] == 1)
    #expect(value[pointer: "/e\u{301}"] == 1)
    #expect(value[pointer: "/e"] == nil)
    let composed = try JSONValue(parsing: "{\"\\u00e9\": 2}")
    #expect(composed[pointer: "/\u{E9}"] == 2)
    #expect(composed[pointer: "/e\u{301}"] == nil)
  }

  @Test func aLargeObjectsKeysCompareScalarByScalarToo() {
    var object = JSONObject((0..<40).map { ("key\($0)", JSONValue.int(Int64($0))) })
    object["e\u{301}"] = "decomposed"
    let value = JSONValue.object(object)
    #expect(value["\u{E9}"] == "decomposed")
    #expect(value[pointer: "/\u{E9}"] == nil)
    #expect(value[pointer: "/e\u{301}"] == "decomposed")
  }

  @Test func aLargeObjectIsSearchedThroughItsIndex() {
    let object = JSONObject((0..<100).map { ("key\($0)", JSONValue.int(Int64($0))) })
    let value = JSONValue.object(object)
    for number in [0, 17, 99] {
      #expect(value[pointer: JSONPointer(tokens: ["key\(number)"])] == .int(Int64(number)))
    }
    #expect(value[pointer: "/key100"] == nil)
  }

  @Test func aLongPointerIntoADeepValue() {
    // Deep enough for a long pointer, shallow enough to free at once.
    let depth = 500
    var value: JSONValue = "bottom"
    for level in 0..<depth {
      value = level.isMultiple(of: 2) ? ["k": value] : [value]
    }
    let tokens = (0..<depth).reversed().map { $0.isMultiple(of: 2) ? "k" : "0" }
    #expect(value[pointer: JSONPointer(tokens: tokens)] == "bottom")
    #expect(value[pointer: JSONPointer(tokens: tokens + ["0"])] == nil)
    #expect(value[pointer: JSONPointer(tokens: Array(tokens.dropLast()))]?.objectValue != nil)
  }

  /// Walks seeded random values to a random place, recording the tokens,
  /// and looks the same place up through the pointer and its text.
  @Test func randomPathsFindWhatTheyWalkedTo() throws {
    var generator = JSONValueGenerator(seed: 6901)
    var found = 0
    for _ in 0..<500 {
      let root = generator.value(depth: 4)
      var current = root
      var tokens: [String] = []
      while generator.random.next(below: 4) != 0 {
        switch current {
        case .array(let elements) where !elements.isEmpty:
          let index = generator.random.next(below: elements.count)
          tokens.append(String(index))
          current = elements[index]
        case .object(let object) where !object.isEmpty:
          let member = object[generator.random.next(below: object.count)]
          tokens.append(member.key)
          current = member.value
        default:
          break
        }
      }
      let pointer = JSONPointer(tokens: tokens)
      #expect(root[pointer: pointer] == current)
      #expect(root[pointer: try JSONPointer(pointer.description)] == current)
      if !tokens.isEmpty { found += 1 }
    }
    #expect(found > 100)
  }
}
