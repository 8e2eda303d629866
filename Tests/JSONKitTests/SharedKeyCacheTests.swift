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
    var keys = KeyCache()
    for index in 0..<10 {
      let key = Array("k\(index)".utf8)
      _ = key.withUnsafeBufferPointer { keys.intern($0.baseAddress!, length: $0.count) }
    }
    var names = KeyNames(naming: .asWritten)
    names.update(from: keys)
    var asked = AskedNames()
    for index in 0..<(AskedNames.nameLimit * 3) {
      let id = asked.nameID(of: "k\(index)", after: -1, in: names).nameID
      #expect(id == (index < 10 ? UInt32(index) : KeyNames.none))
    }
    // Still exact after being emptied on the way.
    #expect(asked.nameID(of: "k3", after: -1, in: names).nameID == 3)
    #expect(asked.nameID(of: "k33", after: -1, in: names).nameID == KeyNames.none)
  }

  /// Under `.convertFromSnakeCase`, keys named after earlier keys share
  /// their names: `a_b` then `aB` (not equal as written) share one name,
  /// found in either order.
  @Test func snakeCaseNamesSharedByKeysAddedLater() throws {
    var keys = KeyCache()
    for key in ["a_b", "x", "aB", "e\u{301}_f", "\u{E9}_f"] {
      let bytes = Array(key.utf8)
      _ = bytes.withUnsafeBufferPointer { keys.intern($0.baseAddress!, length: $0.count) }
    }
    var names = KeyNames(naming: .fromSnakeCase)
    names.update(from: keys)
    #expect(names.names == ["aB", "x", "aB", "e\u{301}F", "\u{E9}F"])
    #expect(names.nameIDs == [0, 1, 0, 3, 3])
    #expect(names.isShared(0) && names.isShared(2) && !names.isShared(1))
    // Canonically equivalent keys are duplicates, not distinct keys that
    // share a name.
    #expect(!names.isShared(3) && !names.isShared(4))
  }
}
