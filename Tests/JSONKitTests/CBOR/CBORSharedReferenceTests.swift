import Foundation
import JSONKit
import Testing

/// Shared values (tags 28 and 29, http://cbor.schmorp.de/value-sharing): a
/// reference reads as the value marked, as one instance for classes and as
/// an equal copy for value types; a reference to nothing or to a value that
/// contains it, and references that would repeat too much, are errors.
@Suite("CBOR: shared references")
struct CBORSharedReferenceTests {
  final class Node: Decodable {
    var v: Int
  }

  struct Pair: Decodable {
    var first: Node
    var second: Node
  }

  /// Decodes its second member before its first.
  struct BackwardPair: Decodable {
    var first: Node
    var second: Node

    enum CodingKeys: String, CodingKey {
      case first, second
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      second = try container.decode(Node.self, forKey: .second)
      first = try container.decode(Node.self, forKey: .first)
    }
  }

  struct Holder: Decodable {
    var node: Node
  }

  struct Point: Decodable, Equatable {
    var a: Int
  }

  @Test("A value type behind a reference decodes as an equal copy")
  func valueTypesCopy() throws {
    // [28({"a": 1}), 29(0)]
    let bytes = CBORBytes.fromHex("82" + "d81ca1616101" + "d81d00")
    #expect(try CBORValue(cbor: bytes) == [["a": 1], ["a": 1]])
    #expect(try JKCBORDecoder().decode([Point].self, from: bytes) == [Point(a: 1), Point(a: 1)])
    #expect(try JKCBORDecoder().decode(JSONValue.self, from: bytes) == [["a": 1], ["a": 1]])
  }

  @Test("A class behind a reference is the instance decoded at the value it marks")
  func classIdentity() throws {
    // {"first": 28({"v": 1}), "second": 29(0)}
    let bytes = CBORBytes.fromHex(
      "a2" + "656669727374" + "d81ca1617601" + "667365636f6e64" + "d81d00")
    let pair = try JKCBORDecoder().decode(Pair.self, from: bytes)
    #expect(pair.first === pair.second)
    #expect(pair.first.v == 1)
    // Whichever place the model decodes first.
    let backward = try JKCBORDecoder().decode(BackwardPair.self, from: bytes)
    #expect(backward.first === backward.second)
    // Without tag 28, two places are two instances.
    let plain = try JKCBORDecoder().decode(
      Pair.self, from: CBORBytes.fromHex("a2656669727374a1617601667365636f6e64a1617601"))
    #expect(plain.first !== plain.second)
  }

  @Test("Every reference in an array is the one instance; other values stay apart")
  func arraysOfClasses() throws {
    // [28({"v": 1}), 29(0), {"v": 2}, 29(0)]
    let bytes = CBORBytes.fromHex("84" + "d81ca1617601" + "d81d00" + "a1617602" + "d81d00")
    let nodes = try JKCBORDecoder().decode([Node].self, from: bytes)
    #expect(nodes[0] === nodes[1] && nodes[1] === nodes[3])
    #expect(nodes[2] !== nodes[0] && nodes[2].v == 2)
  }

  @Test("A class inside a shared value type is one instance in every copy")
  func classesInsideCopies() throws {
    // [28({"node": 28({"v": 1})}), 29(0), 29(1)]
    let bytes = CBORBytes.fromHex("83" + "d81ca1646e6f6465d81ca1617601" + "d81d00" + "d81d01")
    struct Row: Decodable {
      var holders: [Holder]
      var node: Node
      init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        holders = [try container.decode(Holder.self), try container.decode(Holder.self)]
        node = try container.decode(Node.self)
      }
    }
    let row = try JKCBORDecoder().decode(Row.self, from: bytes)
    #expect(row.holders[0].node === row.holders[1].node)
    #expect(row.holders[0].node === row.node)
  }

  @Test("The type behind a reference is checked by decoding it")
  func typeChecked() throws {
    // {"a": 28([1]), "b": 29(0)} into a model whose b is a String.
    struct Model: Decodable {
      var a: [Int]
      var b: String
    }
    let bytes = CBORBytes.fromHex("a2" + "6161d81c8101" + "6162d81d00")
    #expect {
      try JKCBORDecoder().decode(Model.self, from: bytes)
    } throws: { error in
      guard case DecodingError.typeMismatch(_, let context) = error else { return false }
      return context.codingPath.map(\.stringValue) == ["b"]
    }
  }

  @Test("Tag 28 on a string or a tag is shared too")
  func sharedScalars() throws {
    // [28("abc"), 29(0), 28(1(0)), 29(1)]
    let bytes = CBORBytes.fromHex("84" + "d81c63616263" + "d81d00" + "d81cc100" + "d81d01")
    #expect(try CBORValue(cbor: bytes) == ["abc", "abc", .tagged(1, 0), .tagged(1, 0)])
    struct Row: Decodable {
      var a: String
      var b: String
      var c: Date
      var d: Date
      init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        a = try container.decode(String.self)
        b = try container.decode(String.self)
        c = try container.decode(Date.self)
        d = try container.decode(Date.self)
      }
    }
    let row = try JKCBORDecoder().decode(Row.self, from: bytes)
    #expect(row.a == "abc" && row.b == "abc")
    #expect(row.c == Date(timeIntervalSince1970: 0) && row.d == row.c)
  }

  @Test("A reference to nothing marked, to a value that contains it, or to no integer is an error")
  func errors() throws {
    let nothing = try cborReferenceError("d81d00", decoding: [Int].self)
    #expect(nothing.kind == .invalidReference)
    #expect(nothing.offset == 0)
    // [29(0), 28(1)]: not yet marked.
    let later = try cborReferenceError("82d81d00d81c01", decoding: [Int].self)
    #expect(later.kind == .invalidReference)
    #expect(later.offset == 1)
    // 28([29(0)]): a cycle.
    let cycle = try cborReferenceError("d81c81d81d00", decoding: [[Int]].self)
    #expect(cycle.kind == .invalidReference)
    #expect(cycle.offset == 3)
    #expect(cycle.message == "The shared reference 0 refers to a value that contains it")
    // {"a": 28({"b": 29(0)})} into classes: a cycle too.
    let deeper = try cborReferenceError(
      "a16161d81ca16162d81d00", decoding: [String: [String: Int]].self)
    #expect(deeper.kind == .invalidReference)
    #expect(deeper.offset == 8)
    // [28(1), 29("a")]
    let notInteger = try cborReferenceError("82d81c01d81d6161", decoding: [Int].self)
    #expect(notInteger.kind == .invalidTagContent)
    #expect(notInteger.offset == 6)
  }

  /// `[28([1, 1]), 28([29(0), 29(0)]), 28([29(1), 29(1)]), …]`, `levels`
  /// deep: the last value holds 2^`levels` ones.
  static func doubling(levels: Int) -> [UInt8] {
    var hex = "98" + String(format: "%02x", levels + 1) + "d81c820101"
    for level in 0..<levels {
      let reference =
        level < 24 ? String(format: "d81d%02x", level) : String(format: "d81d18%02x", level)
      hex += "d81c82" + reference + reference
    }
    return CBORBytes.fromHex(hex)
  }

  /// A class that encodes as `null`.
  final class Nothing: Codable {
    init() {}
    init(from decoder: any Decoder) throws {
      _ = try decoder.singleValueContainer().decodeNil()
    }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    }
  }

  struct Maybe: Codable {
    var first: Nothing?
    var second: Nothing?
  }

  @Test("A shared null is null at every reference, for Optional's decodeNil as for any reader")
  func sharedNull() throws {
    let nothing = Nothing()
    let encoder = JKCBOREncoder()
    encoder.options = .sharedReferences
    let bytes = try encoder.encode(Maybe(first: nothing, second: nothing))
    // {"first": 28(null), "second": 29(0)}
    #expect(
      CBORBytes.hex(Array(bytes))
        == "a2" + "656669727374" + "d81cf6" + "667365636f6e64" + "d81d00")
    let read = try JKCBORDecoder().decode(Maybe.self, from: bytes)
    #expect(read.first == nil && read.second == nil)
    #expect(
      try JKCBORDecoder().decode(JSONValue.self, from: bytes) == ["first": nil, "second": nil])
  }

  @Test("A shared reference to an integer of indefinite length is not well-formed")
  func indefiniteReference() throws {
    // [28(1), 29(an unsigned integer with the indefinite-length head)]
    let error = try cborReferenceError("82" + "d81c01" + "d81d1f", decoding: JSONValue.self)
    #expect(error.kind == .invalidIndefiniteLength)
    #expect(error.offset == 6)
  }

  @Test("References to references that double at each level are refused, quickly")
  func exponentialInputIsRefused() throws {
    let clock = ContinuousClock()
    let small = Self.doubling(levels: 8)
    #expect(try JKCBORDecoder().decode([JSONValue].self, from: small).count == 9)
    let start = clock.now
    let hostile = Self.doubling(levels: 60)
    let error = try cborReferenceError(
      hostile.map { String(format: "%02x", $0) }.joined(), decoding: JSONValue.self)
    #expect(error.kind == .limitExceeded)
    #expect(clock.now - start < .seconds(5))
  }

  @Test("A copy may not nest deeper than the depth limit")
  func copiesNestWithinTheDepthLimit() throws {
    // [28([[1]]), [[29(0)]]] with a limit of 4: the copy's inner array is at depth 4.
    let bytes = CBORBytes.fromHex("82" + "d81c818101" + "8181d81d00")
    let decoder = JKCBORDecoder()
    decoder.maxDepth = 4
    #expect(throws: DecodingError.self) { try decoder.decode(JSONValue.self, from: bytes) }
    #expect(throws: DecodingError.self) { try decoder.decode(CBORValue.self, from: bytes) }
    decoder.maxDepth = 5
    #expect(try decoder.decode(JSONValue.self, from: bytes) == [[[1]], [[[[1]]]]])
    #expect(try decoder.decode(CBORValue.self, from: bytes) == [[[1]], [[[[1]]]]])
  }

  @Test("Tags 28 and 256 are no level of their own, unless they hold a tag")
  func referenceTagsAreNoLevel() throws {
    let arrays = CBORBytes.fromHex("d81c" + "818101")  // 28([[1]])
    let namespace = CBORBytes.fromHex("d90100" + "818101")  // 256([[1]])
    let twice = CBORBytes.fromHex("d81cd81c" + "8101")  // 28(28([1]))
    let date = CBORBytes.fromHex("d81c" + "c100")  // 28(1(0))
    let decoder = JKCBORDecoder()
    decoder.maxDepth = 2
    for bytes in [arrays, namespace] {
      #expect(try decoder.decode(JSONValue.self, from: bytes) == [[1]])
      #expect(try decoder.decode(CBORValue.self, from: bytes) == [[1]])
    }
    #expect(try decoder.decode(CBORValue.self, from: date) == .tagged(1, 0))
    // The outer tag holds a tag, so it is a level; the inner one is not.
    #expect(try decoder.decode(JSONValue.self, from: twice) == [1])
    #expect(try decoder.decode(CBORValue.self, from: twice) == [1])
    decoder.maxDepth = 1
    for bytes in [arrays, namespace, twice] {
      #expect(throws: DecodingError.self) { try decoder.decode(JSONValue.self, from: bytes) }
      #expect(throws: DecodingError.self) { try decoder.decode(CBORValue.self, from: bytes) }
    }
    // Tag 1 is a level, and the tag 28 around it one more.
    #expect(throws: DecodingError.self) { try decoder.decode(CBORValue.self, from: date) }
  }

  @Test("Tags 28 and 256 nested without end are too deep, not a stack overflow")
  func endlessReferenceTags() throws {
    for tag in ["d81c", "d90100"] {
      let hex = String(repeating: tag, count: 100_000) + "00"
      #expect(try cborReferenceError(hex, decoding: JSONValue.self).kind == .tooDeeplyNested)
    }
  }

  final class Level: Codable {
    var next: Level?
    var date: Date?
    init(next: Level?, date: Date?) {
      self.next = next
      self.date = date
    }
  }

  @Test("What the encoder writes with references reads with the default limits")
  func referencedOutputReadsAtItsDepth() throws {
    let outcome = onThread(stackSize: 16 << 20) { () -> String? in
      // 511 maps, the most the encoder writes, and a date (tag 1) in the
      // deepest, all inside the string namespace (tag 256).
      var level = Level(next: nil, date: Date(timeIntervalSince1970: 1))
      for _ in 1..<511 { level = Level(next: level, date: nil) }
      defer {
        var next: Level? = level
        while let current = next {
          next = current.next
          current.next = nil
        }
      }
      let encoder = JKCBOREncoder()
      encoder.options = [.sharedReferences, .stringReferences]
      do {
        var read = try JKCBORDecoder().decode(Level.self, from: try encoder.encode(level))
        var levels = 1
        while let next = read.next {
          read = next
          levels += 1
        }
        return "\(levels) levels, \(read.date?.timeIntervalSince1970 ?? 0)"
      } catch {
        return "\(error)"
      }
    }
    #expect(outcome == "511 levels, 1.0")
  }

  final class Author: Codable {
    var scores: [Int]
    init(_ seed: Int) { scores = (0..<99).map { $0 + seed } }
  }

  struct Post: Codable {
    var author: Author
  }

  @Test("Instances referenced many times cost no copies; value types behind them are bounded")
  func graphsOfInstances() throws {
    let authors = (0..<50).map(Author.init)
    let encoder = JKCBOREncoder()
    encoder.options = .sharedReferences
    let many = try encoder.encode((0..<10_000).map { Post(author: authors[$0 % 50]) })
    let posts = try JKCBORDecoder().decode([Post].self, from: many)
    #expect(posts.count == 10_000)
    #expect(posts[0].author === posts[50].author && posts[0].author !== posts[1].author)
    #expect(posts[9_999].author.scores == authors[49].scores)
    // The same bytes into value types: a copy of 100 items for each of
    // 10,000 references is past the bound, and an error.
    struct Scores: Decodable {
      var scores: [Int]
    }
    struct Entry: Decodable {
      var author: Scores
    }
    let error = try #require(throws: DecodingError.self) {
      try JKCBORDecoder().decode([Entry].self, from: many)
    }
    guard case .dataCorrupted(let context) = error else {
      Issue.record("not dataCorrupted: \(error)")
      return
    }
    #expect((context.underlyingError as? JKCBORError)?.kind == .limitExceeded)
    let few = try encoder.encode((0..<500).map { Post(author: authors[$0 % 50]) })
    #expect(
      try JKCBORDecoder().decode([Entry].self, from: few)[499].author.scores == authors[49].scores)
  }

  final class Twin: Codable {
    var a: Twin?
    var b: Twin?
    init(_ next: Twin?) {
      a = next
      b = next
    }
  }

  @Test("A chain of 511 instances, each referenced twice, reads back as one instance per level")
  func deepGraphOfInstances() throws {
    let outcome = onThread(stackSize: 16 << 20) { () -> String? in
      var twin = Twin(nil)
      for _ in 1..<511 { twin = Twin(twin) }
      defer {
        var next: Twin? = twin
        while let current = next {
          next = current.a
          current.a = nil
          current.b = nil
        }
      }
      let encoder = JKCBOREncoder()
      encoder.options = [.sharedReferences, .stringReferences]
      do {
        var read = try JKCBORDecoder().decode(Twin.self, from: try encoder.encode(twin))
        var levels = 1
        while let next = read.a {
          guard next === read.b else { return "two instances at level \(levels)" }
          read = next
          levels += 1
        }
        return "\(levels) levels"
      } catch {
        return "\(error)"
      }
    }
    #expect(outcome == "511 levels")
  }

  /// Decodes its members by `try?`, which would hide a failed read.
  struct Lenient: Decodable {
    var first: Point?
    var second: Point?
    var node: Node?
    var again: Node?

    enum CodingKeys: String, CodingKey {
      case first, second, node, again
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      first = try? container.decode(Point.self, forKey: .first)
      second = try? container.decode(Point.self, forKey: .second)
      node = try? container.decode(Node.self, forKey: .node)
      again = try? container.decode(Node.self, forKey: .again)
    }
  }

  @Test("A value type behind a reference reads as its value even where its error would be hidden")
  func valueTypesBehindReferencesUnderTry() throws {
    // {"first": 28({"a": 1}), "second": 29(0), "node": 28({"v": 2}), "again": 29(1)}
    let bytes = CBORBytes.fromHex(
      "a4" + "656669727374" + "d81ca1616101" + "667365636f6e64" + "d81d00"
        + "646e6f6465" + "d81ca1617602" + "65616761696e" + "d81d01")
    let value = try JKCBORDecoder().decode(Lenient.self, from: bytes)
    #expect(value.first == Point(a: 1) && value.second == Point(a: 1))
    #expect(value.node != nil && value.node === value.again)
    #expect(try JKCBORDecoder().decode([String: JSONValue].self, from: bytes)["second"] == ["a": 1])
  }
}
