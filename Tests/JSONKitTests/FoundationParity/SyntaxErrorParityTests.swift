import Foundation
import JSONKit
import Testing

/// Malformed input: both decoders throw `dataCorrupted` at the root, and
/// JSONKit says where in the words Foundation uses on Apple platforms.
extension FoundationParityTests {
  /// A model that reads nothing, so that only the syntax decides.
  private struct Anything: Decodable {
    init(from decoder: any Decoder) throws {}
  }

  /// A malformed document, the model it is decoded as (Foundation checks
  /// a string's or a number's text only when a model reads it), and where
  /// JSONKit places the problem: one-based line and column (in Unicode
  /// scalars) and zero-based byte offset.
  private struct Malformed: Sendable {
    let json: String
    let line: Int
    let column: Int
    let offset: Int
    let kind: JKParseError.Kind
    /// Decodes the document with a decoder of each kind.
    let decode: @Sendable (_ foundation: Bool, _ data: Data) throws -> Void

    init<Model: Decodable & SendableMetatype>(
      _ json: String, as model: Model.Type, line: Int, column: Int, offset: Int,
      _ kind: JKParseError.Kind
    ) {
      self.json = json
      self.line = line
      self.column = column
      self.offset = offset
      self.kind = kind
      decode = { foundation, data in
        if foundation {
          _ = try JSONDecoder().decode(Model.self, from: data)
        } else {
          _ = try JKDecoder().decode(Model.self, from: data)
        }
      }
    }
  }

  private static let malformed: [Malformed] = [
    Malformed(
      "{\n  \"a\": tru\n}", as: Anything.self, line: 2, column: 8, offset: 9, .invalidLiteral),
    Malformed(
      "[1,\n 2,\n x]", as: Anything.self, line: 3, column: 2, offset: 9, .unexpectedCharacter),
    Malformed("[1, 2", as: Anything.self, line: 1, column: 6, offset: 5, .unexpectedEndOfInput),
    Malformed(
      "[\"a\",\n \"b\u{1}\"]", as: [String].self, line: 2, column: 4, offset: 9,
      .unescapedControlCharacter),
    Malformed("[\"\\x\"]", as: [String].self, line: 1, column: 3, offset: 2, .invalidEscape),
    Malformed("[1,\n 01]", as: [Int].self, line: 2, column: 2, offset: 5, .invalidNumber),
    Malformed(
      "[1,\r\n2,\r\n x]", as: Anything.self, line: 3, column: 2, offset: 10, .unexpectedCharacter),
    Malformed("[\"é\", x]", as: Anything.self, line: 1, column: 7, offset: 7, .unexpectedCharacter),
  ]

  /// Foundation's sentence for the place of a syntax error on Apple
  /// platforms (swift-foundation's `JSONError.debugDescription`), which
  /// JSONKit's description follows.
  private static func foundationPlace(line: Int, column: Int) -> String {
    "around line \(line), column \(column)"
  }

  @Test func syntaxErrorsAreDataCorruptedAtTheRootInBothDecoders() throws {
    for document in Self.malformed {
      let data = Data(document.json.utf8)
      let foundation = #expect(throws: DecodingError.self) { try document.decode(true, data) }
      let jsonKit = #expect(throws: DecodingError.self) { try document.decode(false, data) }
      guard case .dataCorrupted(let expected) = foundation,
        case .dataCorrupted(let context) = jsonKit
      else {
        let outcomes =
          "Foundation \(String(describing: foundation)), JSONKit \(String(describing: jsonKit))"
        Issue.record("\(document.json.debugDescription): \(outcomes)")
        continue
      }
      #expect(ParityPath(context.codingPath) == ParityPath(expected.codingPath))
      #expect(context.codingPath.isEmpty)
      // Both open with Foundation's sentence.
      #expect(expected.debugDescription.hasPrefix("The given data was not valid JSON."))
      #expect(context.debugDescription.hasPrefix("The given data was not valid JSON. "))
    }
  }

  @Test func syntaxErrorsSayTheLineAndColumnInFoundationsWordsWithTheByteOffset() throws {
    for document in Self.malformed {
      let error = #expect(throws: DecodingError.self) {
        try document.decode(false, Data(document.json.utf8))
      }
      guard case .dataCorrupted(let context) = error else {
        Issue.record("\(document.json.debugDescription): \(String(describing: error))")
        continue
      }
      let place =
        Self.foundationPlace(line: document.line, column: document.column)
        + " (byte offset \(document.offset))"
      #expect(context.debugDescription.contains(place), "\(context.debugDescription)")
      let underlying = try #require(context.underlyingError as? JKParseError)
      #expect(underlying.kind == document.kind, "\(document.json.debugDescription)")
      #expect(underlying.description.contains(place), "\(underlying.description)")
      #expect(context.debugDescription == "The given data was not valid JSON. \(underlying)")
      // Foundation's sentences start with a capital letter.
      #expect(underlying.description.first?.isUppercase == true)
      #expect(underlying.description.hasSuffix(" near \(underlying.excerpt)"))
    }
  }

  @Test func foundationsUnderlyingErrorOnApplePlatformsPlacesTheErrorAsJSONKitDoes() throws {
    // On Linux Foundation's error carries no position (there is nothing to
    // compare); on Apple platforms its underlying error says "… around line
    // L, column C." and JSONKit's says the same place in the same words.
    #if canImport(Darwin)
      let json = Data("[1,\n 2,\n x]".utf8)
      let foundation = #expect(throws: DecodingError.self) {
        try JSONDecoder().decode(Anything.self, from: json)
      }
      guard case .dataCorrupted(let expected) = foundation else {
        Issue.record("\(String(describing: foundation))")
        return
      }
      let underlying = try #require(expected.underlyingError as NSError?)
      let message = try #require(underlying.userInfo[NSDebugDescriptionErrorKey] as? String)
      #expect(message.contains(Self.foundationPlace(line: 3, column: 2)))
    #endif
    let error = #expect(throws: DecodingError.self) {
      try JKDecoder().decode(Anything.self, from: Data("[1,\n 2,\n x]".utf8))
    }
    guard case .dataCorrupted(let context) = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(context.debugDescription.contains(Self.foundationPlace(line: 3, column: 2)))
  }
}
