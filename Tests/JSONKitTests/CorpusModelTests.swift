import Foundation
import JSONKitCorpus
import Testing

/// The corpus models against Foundation: each corpus decodes, round-trips, and loses
/// nothing, which is what makes them fair benchmark workloads.
@Suite("Corpus models")
struct CorpusModelTests {
  @Test func everyCorpusIsFoundAndIsJSON() throws {
    let directory = try dataDirectory()
    for corpus in Corpus.allCases {
      let bytes = try corpus.data(in: directory)
      #expect(!bytes.isEmpty, "\(corpus.fileName)")
      _ = try JSONSerialization.jsonObject(with: bytes)
    }
    #expect(Set(Corpus.allCases.map(\.fileName)).count == Corpus.allCases.count)
    #expect(Corpus.allCases.filter(\.typed) == [.twitter, .citmCatalog, .canada])
  }

  @Test func dataDirectoryIsFoundFromBelowAndNotFromOutside() throws {
    let directory = try dataDirectory()
    let root = directory.deletingLastPathComponent().deletingLastPathComponent()
    for start in [
      root, root.appendingPathComponent("Benchmarks"), directory,
      root.appendingPathComponent("Sources/JSONKitCorpus"),
    ] {
      #expect(Corpus.dataDirectory(searchingFrom: start)?.path == directory.path, "\(start.path)")
    }
    #expect(Corpus.dataDirectory(searchingFrom: URL(fileURLWithPath: "/")) == nil)
  }

  @Test func twitterWithDefaultKeys() throws {
    try checkModel(Twitter.SearchResult.self, .twitter, decoder: JSONDecoder(), encoder: encoder())
  }

  @Test func twitterFromSnakeCase() throws {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let encoder = encoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    try checkModel(
      TwitterFromSnakeCase.SearchResult.self, .twitter, decoder: decoder, encoder: encoder)
  }

  @Test func citmCatalog() throws {
    try checkModel(CITM.Catalog.self, .citmCatalog, decoder: JSONDecoder(), encoder: encoder())
  }

  @Test func canada() throws {
    try checkModel(
      Canada.FeatureCollection.self, .canada, decoder: JSONDecoder(), encoder: encoder())
  }

  /// One model family serves both key strategies for CITM and Canada: no key has an
  /// underscore, and Foundation leaves the keys of `[String: …]` dictionaries
  /// (CITM's `PLEYEL_PLEYEL`) as they are.
  @Test func citmAndCanadaDecodeAlikeFromSnakeCase() throws {
    let directory = try dataDirectory()
    let snake = JSONDecoder()
    snake.keyDecodingStrategy = .convertFromSnakeCase

    let citm = try Corpus.citmCatalog.data(in: directory)
    let catalog = try snake.decode(CITM.Catalog.self, from: citm)
    #expect(catalog == (try JSONDecoder().decode(CITM.Catalog.self, from: citm)))
    #expect(catalog.venueNames.keys.contains("PLEYEL_PLEYEL"))

    let canada = try Corpus.canada.data(in: directory)
    #expect(
      try snake.decode(Canada.FeatureCollection.self, from: canada)
        == (try JSONDecoder().decode(Canada.FeatureCollection.self, from: canada)))
  }

  /// The two Twitter families hold the same data: each, encoded with its own key
  /// strategy, gives the same bytes.
  @Test func twitterFamiliesAgree() throws {
    let bytes = try Corpus.twitter.data(in: try dataDirectory())
    let snakeDecoder = JSONDecoder()
    snakeDecoder.keyDecodingStrategy = .convertFromSnakeCase
    let snakeEncoder = encoder()
    snakeEncoder.keyEncodingStrategy = .convertToSnakeCase

    let keyed = try encoder().encode(JSONDecoder().decode(Twitter.SearchResult.self, from: bytes))
    let converted = try snakeEncoder.encode(
      snakeDecoder.decode(TwitterFromSnakeCase.SearchResult.self, from: bytes))
    #expect(keyed == converted)
  }

  @Test func unobservedAcceptsOnlyNullAndEmptyContainers() throws {
    struct Probe: Codable, Equatable {
      let value: Unobserved?
      let list: [Unobserved]
      let table: [String: Unobserved]
    }
    let empty = try JSONDecoder().decode(
      Probe.self, from: Data(#"{"value":null,"list":[],"table":{}}"#.utf8))
    #expect(empty == Probe(value: nil, list: [], table: [:]))
    for json in [
      #"{"value":0,"list":[],"table":{}}"#,
      #"{"value":null,"list":[null],"table":{}}"#,
      #"{"value":null,"list":[],"table":{"a":"b"}}"#,
    ] {
      #expect(throws: DecodingError.self, "\(json)") {
        try JSONDecoder().decode(Probe.self, from: Data(json.utf8))
      }
    }
  }

  /// The comparison behind ``checkModel(_:_:decoder:encoder:)`` ignores only nulls
  /// and number spelling, and finds everything else.
  @Test func treeComparisonIgnoresOnlyNullsAndNumberSpelling() throws {
    func paths(_ original: String, _ encoded: String) throws -> [String] {
      let before = try Node.tree(Data(original.utf8))
      let after = try Node.tree(Data(encoded.utf8))
      return Node.differences(before, after, at: "$")
    }
    let original = #"{"a":1,"b":null,"c":[-65.0,2.5,true],"d":"x"}"#
    #expect(try paths(original, #"{"a":1.0,"c":[-65,25e-1,true],"d":"x"}"#) == [])
    #expect(try paths(original, #"{"c":[-65,2.5,true],"d":"x"}"#) == ["$.a"])
    #expect(try paths(original, #"{"a":1,"c":[-65,2.5,1],"d":"x"}"#) == ["$.c[2]"])
    #expect(try paths(original, #"{"a":1,"c":[-65,2.5],"d":"x"}"#) == ["$.c"])
    #expect(try paths(original, #"{"a":1,"c":[-65,2.5,true],"d":"x","e":0}"#) == ["$.e"])
    #expect(try paths(original, #"{"a":1,"b":0,"c":[-65,2.5,true],"d":"y"}"#) == ["$.b", "$.d"])
    // One double spelled two ways is one value; the nearest Float, or the next
    // double, is another.
    let coordinate = #"{"x":[43.420273000000009]}"#
    #expect(try paths(coordinate, #"{"x":[43.42027300000001]}"#) == [])
    #expect(try paths(coordinate, #"{"x":[43.420273]}"#) == ["$.x[0]"])
    #expect(try paths(coordinate, #"{"x":[43.420273000000016]}"#) == ["$.x[0]"])
  }

  // MARK: - Helpers

  private func dataDirectory() throws -> URL {
    try #require(Corpus.dataDirectory(nearSourceFile: #filePath))
  }

  private func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return encoder
  }

  /// Decodes the corpus into `type`, checks that the model survives a round trip
  /// through `encoder`, and that the re-encoded document says what the original says.
  private func checkModel<Model: Codable & Equatable>(
    _ type: Model.Type, _ corpus: Corpus, decoder: JSONDecoder, encoder: JSONEncoder
  ) throws {
    let original = try corpus.data(in: try dataDirectory())
    let model = try decoder.decode(type, from: original)
    let encoded = try encoder.encode(model)
    #expect(try decoder.decode(type, from: encoded) == model)

    let before = try Node.tree(original)
    let after = try Node.tree(encoded)
    let differences = Node.differences(before, after, at: "$")
    let count = differences.count
    #expect(count == 0, "first differences: \(differences.prefix(10))")
  }
}

/// A JSON document's tree with the differences that do not change what it says taken
/// out: an object member whose value is `null` is dropped (the models' optionals encode
/// `nil` as an absent key), and a number is an integer whenever its value is one (`-65`
/// and `-65.0` are the same coordinate).
///
/// JSONSerialization reads the tree, except for floating-point numbers:
/// swift-corelibs-foundation's JSONSerialization reads long literals up to 5 ulps off
/// (`43.420273000000009` gives `43.420273000000016`), by different amounts for
/// different spellings of one double, so it cannot tell whether a re-encoded number
/// still is the original one. JSONDecoder rounds correctly, and reads those numbers.
/// (JSONDecoder alone cannot read an untyped tree without probing each value's type by
/// catching errors, and the test runner records a backtrace for every thrown error.)
private enum Node {
  case bool(Bool)
  case integer(Int64)
  case unsigned(UInt64)
  case double(Double)
  case string(String)
  case array([Node?])
  case object([String: Node])

  /// The tree of `json`; `nil` when the document is `null`.
  static func tree(_ json: Data) throws -> Node? {
    let decoder = JSONDecoder()
    decoder.userInfo[Shape.key] = Shape(value: try JSONSerialization.jsonObject(with: json))
    return try decoder.decode(Reader.self, from: json).root
  }

  /// JSONSerialization's tree, handed to ``Reader`` through the decoder's user info.
  private final class Shape: @unchecked Sendable {
    static let key = CodingUserInfoKey(rawValue: "shape")!
    let value: Any
    init(value: Any) { self.value = value }
  }

  private struct Reader: Decodable {
    let root: Node?
    init(from decoder: any Decoder) throws {
      let shape = try #require(decoder.userInfo[Shape.key] as? Shape)
      root = try Node.read(shape.value, from: decoder)
    }
  }

  private struct Key: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// Reads the value that `shape` describes: from `shape`, or for a floating-point
  /// number from `decoder`.
  private static func read(_ shape: Any, from decoder: any Decoder) throws -> Node? {
    switch shape {
    case is NSNull:
      return nil
    case let string as String:
      return .string(string)
    case let object as [String: Any]:
      let container = try decoder.container(keyedBy: Key.self)
      var members: [String: Node] = [:]
      for (key, value) in object {
        members[key] = try read(value, from: container.superDecoder(forKey: Key(stringValue: key)))
      }
      return .object(members)
    case let array as [Any]:
      var container = try decoder.unkeyedContainer()
      return .array(try array.map { try read($0, from: container.superDecoder()) })
    case let number as NSNumber:
      if type(of: number) == booleanType { return .bool(number.boolValue) }
      switch String(cString: number.objCType) {
      case "d", "f":
        let double = try decoder.singleValueContainer().decode(Double.self)
        return Int64(exactly: double).map(Node.integer) ?? .double(double)
      case "Q":
        let unsigned = number.uint64Value
        return Int64(exactly: unsigned).map(Node.integer) ?? .unsigned(unsigned)
      default:
        return .integer(number.int64Value)
      }
    default:
      throw CocoaError(.coderInvalidValue)
    }
  }

  private static let booleanType = type(of: NSNumber(value: true))

  /// Paths where `mine` and `theirs` differ, such as `$.statuses[3].user.id`.
  static func differences(_ mine: Node?, _ theirs: Node?, at path: String) -> [String] {
    switch (mine, theirs) {
    case (nil, nil):
      return []
    case (.array(let mine)?, .array(let theirs)?) where mine.count == theirs.count:
      return zip(mine, theirs).enumerated().flatMap { index, pair in
        differences(pair.0, pair.1, at: "\(path)[\(index)]")
      }
    case (.object(let mine)?, .object(let theirs)?):
      return Set(mine.keys).union(theirs.keys).sorted().flatMap { key in
        differences(mine[key], theirs[key], at: "\(path).\(key)")
      }
    case (.bool(let mine)?, .bool(let theirs)?) where mine == theirs:
      return []
    case (.string(let mine)?, .string(let theirs)?) where mine == theirs:
      return []
    case (.integer(let mine)?, .integer(let theirs)?) where mine == theirs:
      return []
    case (.unsigned(let mine)?, .unsigned(let theirs)?) where mine == theirs:
      return []
    case (.double(let mine)?, .double(let theirs)?) where mine == theirs:
      return []
    default:
      return [path]
    }
  }
}
