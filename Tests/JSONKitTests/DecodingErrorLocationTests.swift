import Foundation
import JSONKit
import Testing

/// Every `DecodingError` about a value in the input says where that value
/// is: `jsonLocation` and the end of the description, with Foundation's
/// case, coding path and wording kept.
@Suite("Decoding errors point at their value")
struct DecodingErrorLocationTests {
  /// The place of the first byte of `needle`'s `occurrence`-th appearance in
  /// `json`, worked out independently of JSONKit: the line counts line
  /// feeds before it, the column counts Unicode scalars since the line's start.
  static func place(of needle: String, in json: String, occurrence: Int = 1) -> (
    offset: Int, line: Int, column: Int
  ) {
    let bytes = Array(json.utf8)
    let pattern = Array(needle.utf8)
    var found = 0
    for start in 0...(bytes.count - pattern.count)
    where Array(bytes[start..<start + pattern.count]) == pattern {
      found += 1
      if found == occurrence {
        let before = String(decoding: bytes[..<start], as: UTF8.self)
        let lines = before.split(separator: "\n", omittingEmptySubsequences: false)
        return (start, lines.count, lines.last!.unicodeScalars.count + 1)
      }
    }
    Issue.record("\(needle) not in \(json)")
    return (-1, 0, 0)
  }

  /// The error JKDecoder throws for `json` as `T`, expected to have
  /// Foundation's case and path and to point at `needle`.
  @discardableResult
  static func expectError<T: Decodable>(
    _ type: T.Type, _ json: String, at needle: String, occurrence: Int = 1,
    decoder: JKDecoder = JKDecoder(), foundation: JSONDecoder? = JSONDecoder(),
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> DecodingError? {
    let ours: DecodingError
    do {
      _ = try decoder.decode(type, from: Data(json.utf8))
      Issue.record("decoded \(json)", sourceLocation: sourceLocation)
      return nil
    } catch let error as DecodingError {
      ours = error
    } catch {
      Issue.record("not a DecodingError: \(error)", sourceLocation: sourceLocation)
      return nil
    }
    let expected = place(of: needle, in: json, occurrence: occurrence)
    guard let location = ours.jsonLocation else {
      Issue.record("no location in \(ours)", sourceLocation: sourceLocation)
      return ours
    }
    #expect(location.offset == expected.offset, "\(json)", sourceLocation: sourceLocation)
    #expect(location.line == expected.line, "\(json)", sourceLocation: sourceLocation)
    #expect(location.column == expected.column, "\(json)", sourceLocation: sourceLocation)
    #expect(location.excerpt.contains(needle), "\(location)", sourceLocation: sourceLocation)
    let context = Self.context(of: ours)
    #expect(
      context.debugDescription.hasSuffix("around \(location)"), "\(context.debugDescription)",
      sourceLocation: sourceLocation)
    // Foundation's case, path and words come first.
    guard let foundation else { return ours }
    do {
      _ = try foundation.decode(type, from: Data(json.utf8))
      Issue.record("Foundation decoded \(json)", sourceLocation: sourceLocation)
    } catch let theirs as DecodingError {
      #expect(
        Self.kind(of: theirs) == Self.kind(of: ours), "\(theirs) / \(ours)",
        sourceLocation: sourceLocation)
      #expect(
        ParityPath(Self.context(of: theirs).codingPath) == ParityPath(context.codingPath),
        sourceLocation: sourceLocation)
      let words = Self.context(of: theirs).debugDescription
      #expect(
        context.debugDescription.hasPrefix(words.hasSuffix(".") ? words : words + "."),
        "\(context.debugDescription) / \(words)", sourceLocation: sourceLocation)
    } catch {
      Issue.record("\(error)", sourceLocation: sourceLocation)
    }
    return ours
  }

  static func context(of error: DecodingError) -> DecodingError.Context {
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .keyNotFound(_, let context), .dataCorrupted(let context):
      return context
    @unknown default:
      fatalError("unknown DecodingError case")
    }
  }

  static func kind(of error: DecodingError) -> String {
    switch error {
    case .typeMismatch: "typeMismatch"
    case .valueNotFound: "valueNotFound"
    case .keyNotFound(let key, _): "keyNotFound \(key.stringValue)"
    case .dataCorrupted: "dataCorrupted"
    @unknown default: "unknown"
    }
  }

  struct User: Decodable {
    var id: Int
    var name: String
  }

  struct Users: Decodable {
    var users: [User]
  }

  @Test func typeMismatchInCompactInput() {
    Self.expectError(
      Users.self, #"{"users":[{"id":1,"name":"a"},{"id":"2","name":"b"}]}"#, at: #""2""#)
  }

  @Test func typeMismatchInPrettyInputAfterMultibyteText() {
    let json = """
      {
        "users": [
          {"id": 1, "name": "Zoë 😀 ünïcödé"},
          {"name": "日本語", "id": true}
        ]
      }
      """
    let error = Self.expectError(Users.self, json, at: "true")
    #expect(error?.jsonLocation?.line == 4)
  }

  /// The place of `needle` in `json`, where CR, LF and CRLF each end a
  /// line, worked out independently of JSONKit.
  static func placeAfterAnyLineEnd(of needle: String, in json: String) -> (
    offset: Int, line: Int, column: Int
  ) {
    let offset = place(of: needle, in: json).offset
    var (line, column, afterCR) = (1, 1, false)
    for scalar in String(decoding: json.utf8.prefix(offset), as: UTF8.self).unicodeScalars {
      switch scalar {
      case "\n":
        if !afterCR { line += 1 }
        (column, afterCR) = (1, false)
      case "\r":
        (line, column, afterCR) = (line + 1, 1, true)
      default:
        (column, afterCR) = (column + 1, false)
      }
    }
    return (offset, line, column)
  }

  @Test(arguments: ["\r\n", "\r", "\n"])
  func linesEndedByCRLFOrCRAndStringInput(_ end: String) throws {
    let json = [
      "{", #"  "users": ["#, #"    {"id": 1, "name": "Zoë 😀"},"#, #"    {"id": "2", "name": "b"}"#,
      "  ]", "}",
    ].joined(separator: end)
    let expected = Self.placeAfterAnyLineEnd(of: #""2""#, in: json)
    #expect(expected.line == 4 && expected.column == 12)
    let decoder = JKDecoder()
    let attempts: [() throws -> Void] = [
      { _ = try decoder.decode(Users.self, from: json) },
      { _ = try decoder.decode(Users.self, from: Data(json.utf8)) },
      { _ = try decoder.decode(Users.self, from: Array(json.utf8)) },
      { _ = try decoder.decode([User].self, from: json, at: "/users") },
      { _ = try decoder.decode(User.self, from: json, at: "/users/1") },
    ]
    for attempt in attempts {
      do {
        try attempt()
        Issue.record("decoded")
      } catch let error as DecodingError {
        guard case .typeMismatch = error else {
          Issue.record("expected typeMismatch, got \(error)")
          continue
        }
        let location = try #require(error.jsonLocation)
        #expect(location.offset == expected.offset)
        #expect(location.line == expected.line)
        #expect(location.column == expected.column)
        #expect(location.excerpt.contains(#""2""#))
        #expect(!location.excerpt.contains("\r"))
        #expect(Self.context(of: error).debugDescription.hasSuffix("around \(location)"))
      }
    }
    // Foundation's case and path.
    do {
      _ = try JSONDecoder().decode(Users.self, from: Data(json.utf8))
      Issue.record("Foundation decoded")
    } catch let theirs as DecodingError {
      var ours: DecodingError?
      do { _ = try decoder.decode(Users.self, from: json) } catch { ours = error as? DecodingError }
      let error = try #require(ours)
      #expect(Self.kind(of: theirs) == Self.kind(of: error))
      #expect(
        ParityPath(Self.context(of: theirs).codingPath)
          == ParityPath(Self.context(of: error).codingPath))
    }
  }

  @Test func nullWhereAValueIsNeeded() {
    Self.expectError(Users.self, "{\"users\": [\n{\"id\": null, \"name\": \"a\"}]}", at: "null")
  }

  @Test func nestedArrays() {
    Self.expectError([[Int]].self, "[[1, 2], [3, 4, \n [5]]]", at: "[5]")
    Self.expectError([[Int]].self, "[[1, 2], [3, \"4\"]]", at: "\"4\"")
  }

  @Test func numbersThatDoNotFit() {
    // Foundation reports invalid JSON at the root; JSONKit, a number
    // that does not fit at its own path (a documented rule).
    let byte = Self.expectError(
      [String: UInt8].self, #"{"a": 1, "b": 300}"#, at: "300", foundation: nil)
    #expect(byte.map { Self.context(of: $0).codingPath.map(\.stringValue) } == ["b"])
    Self.expectError([Int].self, "[1, 18.18]", at: "18.18", foundation: nil)
  }

  struct Stamped: Decodable {
    var at: Date
    var id: UUID
    var link: URL
    var blob: Data
  }

  @Test func foundationValueTypes() {
    let decoder = JKDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let foundation = JSONDecoder()
    foundation.dateDecodingStrategy = .iso8601
    let good = #""at": "2024-01-02T03:04:05Z", "id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#
    Self.expectError(
      Stamped.self, #"{"at": "yesterday", "id": "x", "link": "a", "blob": ""}"#,
      at: "\"yesterday\"", decoder: decoder, foundation: foundation)
    Self.expectError(
      Stamped.self, #"{"at": "2024-01-02T03:04:05Z", "id": "not-a-uuid", "link": "a", "blob": ""}"#,
      at: "\"not-a-uuid\"", decoder: decoder, foundation: foundation)
    Self.expectError(
      Stamped.self, "{\(good), \"link\": \"\", \"blob\": \"\"}", at: "\"\"",
      decoder: decoder, foundation: foundation)
    Self.expectError(
      Stamped.self, "{\(good), \"link\": \"https://a.example\", \"blob\": \"***\"}",
      at: "\"***\"", decoder: decoder, foundation: foundation)
  }

  struct Even: Decodable {
    var value: Int
    enum CodingKeys: String, CodingKey { case value }
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      value = try container.decode(Int.self, forKey: .value)
      guard value % 2 == 0 else {
        throw DecodingError.dataCorruptedError(
          forKey: .value, in: container, debugDescription: "\(value) is odd")
      }
    }
  }

  struct Positive: Decodable {
    var value: Int
    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      value = try container.decode(Int.self)
      guard value > 0 else {
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "not positive")
      }
    }
  }

  @Test func errorsThrownByTheModel() {
    Self.expectError([Even].self, #"[{"value": 2}, {"value": 3}]"#, at: "3")
    Self.expectError([String: Positive].self, #"{"a": 1, "b": -1}"#, at: "-1")
  }

  struct Failure: Error {}

  struct OwnUnderlying: Decodable {
    init(from decoder: any Decoder) throws {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath, debugDescription: "mine", underlyingError: Failure()))
    }
  }

  @Test func anUnderlyingErrorOfTheModelsOwnIsKept() throws {
    do {
      _ = try JKDecoder().decode([OwnUnderlying].self, from: Data("[1]".utf8))
      Issue.record("decoded")
    } catch let error as DecodingError {
      let context = Self.context(of: error)
      #expect(context.underlyingError is Failure)
      #expect(context.debugDescription == "mine")
      #expect(error.jsonLocation == nil)
    }
  }

  @Test func keyNotFoundPointsAtTheObject() {
    Self.expectError(
      Users.self, #"{"users": [{"id": 1, "name": "a"}, {"id": 2}]}"#, at: #"{"id": 2"#)
    Self.expectError(Users.self, #"  {"people": []}"#, at: "{")
  }

  struct Profile: Decodable {
    var userName: String
  }

  struct SnakeProfile: Decodable {
    var userName: String
    enum CodingKeys: String, CodingKey { case userName = "user_name" }
  }

  @Test func keyNotFoundNamesAKeySpelledByAnotherConvention() {
    let snake = Self.expectError(Profile.self, #"{"user_name": "ada"}"#, at: "{")
    #expect(
      Self.context(of: snake!).debugDescription.contains(
        #"The object has "user_name", which keyDecodingStrategy .convertFromSnakeCase would read as "userName"."#
      ))
    let decoder = JKDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let foundation = JSONDecoder()
    foundation.keyDecodingStrategy = .convertFromSnakeCase
    let converted = Self.expectError(
      SnakeProfile.self, #"{"user_name": "ada"}"#, at: "{", decoder: decoder,
      foundation: foundation)
    #expect(
      Self.context(of: converted!).debugDescription.contains(
        #"The object has "user_name", which keyDecodingStrategy .convertFromSnakeCase reads as "userName"."#
      ))
    let cased = Self.expectError(Profile.self, #"{"UserName": "ada"}"#, at: "{")
    #expect(
      Self.context(of: cased!).debugDescription.contains(
        #"The object has "UserName", which differs from "userName" only by case."#))
    let unrelated = Self.expectError(Profile.self, #"{"login": "ada"}"#, at: "{")
    #expect(!Self.context(of: unrelated!).debugDescription.contains("The object has"))
  }

  @Test func syntaxErrorsAnswerToo() throws {
    do {
      _ = try JKDecoder().decode([Int].self, from: Data("[1,\n tru]".utf8))
      Issue.record("decoded")
    } catch let error as DecodingError {
      let location = try #require(error.jsonLocation)
      #expect(location == JKInputLocation(offset: 5, line: 2, column: 2, excerpt: " tru]"))
      let parseError = try #require(Self.context(of: error).underlyingError as? JKParseError)
      #expect(parseError.location == location)
    }
  }

  @Test func errorsFromOtherDecodersHaveNoLocation() {
    do {
      _ = try JSONDecoder().decode([Int].self, from: Data("[\"a\"]".utf8))
    } catch let error as DecodingError {
      #expect(error.jsonLocation == nil)
    } catch {
      Issue.record("\(error)")
    }
  }

  @Test func utf16InputCountsTheCallersBytes() throws {
    let json = "[1, \"é\", \"x\"]"
    var bytes: [UInt8] = [0xFF, 0xFE]
    for unit in json.utf16 {
      bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
    }
    do {
      _ = try JKDecoder().decode([Int].self, from: Data(bytes))
      Issue.record("decoded")
    } catch let error as DecodingError {
      let location = try #require(error.jsonLocation)
      // The byte order mark, then two bytes per UTF-16 code unit.
      #expect(location.offset == 2 + 2 * 4)
      #expect(location.line == 1)
      #expect(location.column == 5)
    }
  }

  struct Point: Decodable {
    var x: Int
    var y: Int
  }

  @Test func streamsPlaceTheValueInTheStream() async throws {
    let lines = "{\"x\": 1, \"y\": 2}\n{\"x\": 3, \"y\": 4}\n{\"x\": 5,  \"y\": \"6\"}\n"
    do {
      _ = try JKDecoder().decodeLines(Point.self, from: Data(lines.utf8))
      Issue.record("decoded")
    } catch let error as DecodingError {
      let location = try #require(error.jsonLocation)
      let expected = Self.place(of: "\"6\"", in: lines)
      #expect(location.offset == expected.offset)
      #expect(location.line == 3)
      #expect(location.column == expected.column)
      #expect(Self.context(of: error).debugDescription.contains("around \(location)"))
    }
    let array = "[{\"x\": 1, \"y\": 2},\n  {\"x\": 3, \"y\": null}]"
    do {
      for try await _ in JKDecoder().decodeArrayElements(
        Point.self, from: ChunkedBytes(Array(array.utf8), every: 5))
      {}
      Issue.record("decoded")
    } catch let error as DecodingError {
      let location = try #require(error.jsonLocation)
      let expected = Self.place(of: "null", in: array)
      #expect(location.offset == expected.offset)
      #expect(location.line == 2)
      #expect(location.column == expected.column)
    }
  }

  struct Owner: Decodable {
    var userId: Int
    var scores: [String: Int]
  }

  @Test func pathsUnderKeyStrategiesLeadToTheValue() {
    let decoder = JKDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let foundation = JSONDecoder()
    foundation.keyDecodingStrategy = .convertFromSnakeCase
    Self.expectError(
      Owner.self, #"{"user_id": "7", "scores": {}}"#, at: #""7""#, decoder: decoder,
      foundation: foundation)
    // A dictionary's keys are read as written, and so its paths name them.
    Self.expectError(
      Owner.self, #"{"user_id": 7, "scores": {"top_score": 1, "low_score": "x"}}"#, at: #""x""#,
      decoder: decoder, foundation: foundation)
    let custom = JKDecoder()
    custom.keyDecodingStrategy = .custom { path in
      AnyCodingKey(stringValue: Self.renamed(path.last!.stringValue))
    }
    let theirs = JSONDecoder()
    theirs.keyDecodingStrategy = .custom { path in
      AnyCodingKey(stringValue: Self.renamed(path.last!.stringValue))
    }
    Self.expectError(
      [String: Owner].self, #"{"a": {"USERID": 1, "SCORES": {}}, "b": {"USERID": null}}"#,
      at: "null", decoder: custom, foundation: theirs)
  }

  static func renamed(_ key: String) -> String {
    ["USERID": "userId", "SCORES": "scores"][key] ?? key
  }

  struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  struct Pair: Decodable {
    var first: Int
    var second: Int
    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      first = try container.decode(Int.self)
      second = try container.decode(Int.self)
    }
  }

  @Test func aPathPastTheEndOfAnArrayNamesTheArray() {
    Self.expectError([Pair].self, "[[1, 2], [3]]", at: "[3]")
  }
}
