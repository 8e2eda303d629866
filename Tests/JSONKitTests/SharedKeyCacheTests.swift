import Foundation
import Testing

@testable import JSONKit

/// Every `JKDecoder` shares one process-wide stock of scan contexts, with
/// their key caches and key names, so that a decoder made for one call
/// starts warm.
@Suite("Shared key cache")
struct SharedKeyCacheTests {
  struct Record: Codable, Equatable, Sendable {
    var userName: String
    var id: Int
    var tags: [String]?
    var friend: Friend?
  }

  struct Friend: Codable, Equatable, Sendable {
    var id: Int
    var userName: String?
  }

  /// Documents whose keys come in several orders, some written in
  /// snake_case (for `.convertFromSnakeCase`), some not.
  static func documents() -> [(json: String, snakeCase: Bool)] {
    var documents: [(String, Bool)] = []
    for index in 0..<12 {
      let snake = index % 2 == 0
      let name = snake ? "user_name" : "userName"
      var members = [
        #""\#(name)":"u\#(index)""#, #""id":\#(index)"#, #""tags":["t\#(index)"]"#,
        #""friend":{"\#(name)":"f","id":\#(-index)}"#, #""extra_\#(index)":\#(index)"#,
      ]
      var generator = SplitMix64(seed: UInt64(index))
      members.shuffle(using: &generator)
      documents.append(("{" + members.joined(separator: ",") + "}", snake))
    }
    return documents
  }

  static func foundationDecoder(snakeCase: Bool) -> JSONDecoder {
    let decoder = JSONDecoder()
    if snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
    return decoder
  }

  @Test func freshDecodersOnManyThreadsDecodeAsOneDecoderAloneWould() async throws {
    let documents = Self.documents()
    let expected = try documents.map {
      try Self.foundationDecoder(snakeCase: $0.snakeCase).decode(
        Record.self, from: Data($0.json.utf8))
    }
    try await withThrowingTaskGroup(of: (Int, Record).self) { group in
      for task in 0..<8 {
        group.addTask {
          var generator = SplitMix64(seed: UInt64(task))
          var last = (0, expected[0])
          for step in 0..<60 {
            let index = Int.random(in: documents.indices, using: &generator)
            let decoder = JKDecoder()
            if documents[index].snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
            if task == 0, step % 9 == 0 { decoder.clearCache() }
            let record = try decoder.decode(Record.self, from: documents[index].json)
            if record != expected[index] { return (index, record) }
            last = (index, record)
          }
          return last
        }
      }
      for try await (index, record) in group {
        #expect(record == expected[index], "\(documents[index].json)")
      }
    }
  }

  /// Names the program asks for, taken from its input, do not grow the
  /// table of asked names without limit.
  @Test func askedNamesStayBounded() throws {
    var keys = KeyInterner()
    for index in 0..<10 {
      let key = Array("k\(index)".utf8)
      _ = key.withUnsafeBufferPointer { keys.intern($0.baseAddress!, length: $0.count) }
    }
    var names = KeyIDNames(naming: .asWritten)
    names.update(from: keys)
    var asked = AskedKeyNames()
    for index in 0..<(AskedKeyNames.nameLimit * 3) {
      let id = asked.nameID(of: "k\(index)", after: -1, in: names).nameID
      #expect(id == (index < 10 ? UInt32(index) : KeyIDNames.none))
    }
    // Still exact after being emptied on the way.
    #expect(asked.nameID(of: "k3", after: -1, in: names).nameID == 3)
    #expect(asked.nameID(of: "k33", after: -1, in: names).nameID == KeyIDNames.none)
  }

  /// Under `.convertFromSnakeCase`, keys named after earlier keys share
  /// their names: `a_b` then `aB` (not equal as written) share one name,
  /// found in either order.
  @Test func snakeCaseNamesSharedByKeysAddedLater() throws {
    var keys = KeyInterner()
    for key in ["a_b", "x", "aB", "e\u{301}_f", "\u{E9}_f"] {
      let bytes = Array(key.utf8)
      _ = bytes.withUnsafeBufferPointer { keys.intern($0.baseAddress!, length: $0.count) }
    }
    var names = KeyIDNames(naming: .fromSnakeCase)
    names.update(from: keys)
    #expect(names.names == ["aB", "x", "aB", "e\u{301}F", "\u{E9}F"])
    #expect(names.nameIDs == [0, 1, 0, 3, 3])
    #expect(names.isShared(0) && names.isShared(2) && !names.isShared(1))
    // Canonically equivalent keys are duplicates, not distinct keys that
    // share a name.
    #expect(!names.isShared(3) && !names.isShared(4))
  }

  /// A key type of its own for each `Tag`, asking for the keys `a<depth>`
  /// and `b<depth>` in that order.
  struct TaggedKey<Tag>: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// One more level of nesting: a type, and so a key type, per depth.
  enum Nested<Inner> {}

  struct TaggedModel<Tag>: Decodable, Equatable {
    var a: Int
    var b: String?

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: TaggedKey<Tag>.self)
      let depth = try container.decode(Int.self, forKey: TaggedKey(stringValue: "depth"))
      a = try container.decode(Int.self, forKey: TaggedKey(stringValue: "a\(depth)"))
      b = try container.decodeIfPresent(String.self, forKey: TaggedKey(stringValue: "b\(depth)"))
    }
  }

  /// Decodes `TaggedModel<Tag>` and the models of the `levels` deeper key
  /// types from `documents` (one per depth, from `depth` on), by Foundation
  /// or by JSONKit, each with a decoder of its own.
  static func decodeTagged<Tag>(
    _: Tag.Type, depth: Int, levels: Int, _ documents: [String], foundation: Bool
  ) throws -> [(a: Int, b: String?)] {
    let data = Data(documents[depth].utf8)
    let model =
      foundation
      ? try JSONDecoder().decode(TaggedModel<Tag>.self, from: data)
      : try JKDecoder().decode(TaggedModel<Tag>.self, from: data)
    guard levels > 0 else { return [(model.a, model.b)] }
    return try [(model.a, model.b)]
      + decodeTagged(
        Nested<Tag>.self, depth: depth + 1, levels: levels - 1, documents, foundation: foundation)
  }

  /// Far more key types than the table starts with, in documents that list
  /// their keys in differing orders and repeat one another's names: every
  /// key type still finds its own keys, first and later times alike.
  @Test func manyKeyTypesEachFindTheirOwnKeys() throws {
    let count = 300
    var generator = SplitMix64(seed: 15)
    let documents = (0..<count).map { depth in
      var members = [
        #""depth":\#(depth)"#, #""a\#(depth)":\#(depth * 7)"#,
        #""a\#((depth + 1) % count)":-1"#, #""b\#((depth + 2) % count)":"other""#,
      ]
      if depth % 3 != 0 { members.append(#""b\#(depth)":"b\#(depth)""#) }
      generator.shuffle(&members)
      return "{" + members.joined(separator: ",") + "}"
    }
    let expected = try Self.decodeTagged(
      Never.self, depth: 0, levels: count - 1, documents, foundation: true)
    #expect(expected.count == count)
    for round in 0..<3 {
      let decoded = try Self.decodeTagged(
        Never.self, depth: 0, levels: count - 1, documents, foundation: false)
      for depth in 0..<count {
        #expect(decoded[depth].a == expected[depth].a, "round \(round), depth \(depth)")
        #expect(decoded[depth].b == expected[depth].b, "round \(round), depth \(depth)")
        #expect(decoded[depth].a == depth * 7)
        #expect(decoded[depth].b == (depth % 3 != 0 ? "b\(depth)" : nil))
      }
    }
  }

  /// A key cache emptied for growing too large gives its ids to other keys:
  /// the key names made from it must be made again, or a model would read
  /// one member's value for another's.
  @Test func keyNamesAreMadeAgainWhenTheKeyCacheIsEmptied() throws {
    struct Pair: Codable, Equatable {
      var a: Int
      var b: Int
    }
    let decoder = JKDecoder()
    #expect(try decoder.decode(Pair.self, from: Data(#"{"a":1,"b":2}"#.utf8)) == Pair(a: 1, b: 2))
    // More distinct keys than a context keeps between documents.
    let keys = KeyInterner.keyLimit + 10
    let many = "{" + (0..<keys).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}"
    #expect(try decoder.decode([String: Int].self, from: Data(many.utf8)).count == keys)
    // The keys in the other order now, which the emptied cache numbers
    // the other way round.
    for _ in 0..<3 {
      #expect(
        try decoder.decode(Pair.self, from: Data(#"{"b":3,"a":4}"#.utf8)) == Pair(a: 4, b: 3))
    }
  }
}
