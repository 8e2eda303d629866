import Foundation
import JSONKit
import Testing

/// Codable's rules, as JKEncoder keeps them for JSON: out-of-order writes,
/// super encoders, keys written twice, values that write nothing,
/// conflicts, the depth limit, and long containers.
@Suite("CBOR encoder: Codable semantics as JKEncoder keeps them")
struct CBOREncoderSemanticsTests {
  /// The model of the encoder's states page: fills a nested map after
  /// later siblings were written.
  typealias Order = EncoderStatesPageTests.Order

  @Test("A container written into after a later sibling keeps its place")
  func outOfOrder() throws {
    let expected: CBORValue = [
      "summary": ["count": 2], "id": 7, "items": ["pen", "ink"], "paid": true,
    ]
    let order = Order(id: 7, items: ["pen", "ink"], paid: true)
    #expect(try CBOREncoding.hex(order) == CBORBytes.hex(expected.cborBytes()))
    try expectAsJSON(order)
  }

  /// Keeps an unkeyed container and a super encoder, and uses both late.
  struct Late: Encodable {
    var count: Int
    enum CodingKeys: String, CodingKey { case list, base, tail }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      var list = container.nestedUnkeyedContainer(forKey: .list)
      let base = container.superEncoder(forKey: .base)
      try list.encode(1)
      try container.encode("x", forKey: .tail)
      for index in 0..<count { try list.encode(index) }
      var single = base.singleValueContainer()
      try single.encode([1.5])
      var unkeyed = container.superEncoder().unkeyedContainer()
      try unkeyed.encode("s")
    }
  }

  @Test("Super encoders and kept containers used late, across long containers")
  func superEncoders() throws {
    for count in [0, 30, 300] {
      let late = Late(count: count)
      _ = try CBOREncoding.hex(late)
      try expectAsJSON(late)
    }
  }

  /// Writes keys twice, with values of several kinds.
  struct Repeats: Encodable {
    enum CodingKeys: String, CodingKey { case a, b, c }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(1, forKey: .a)
      try container.encode([1, 2], forKey: .b)
      try container.encode("later", forKey: .a)
      var nested = container.nestedUnkeyedContainer(forKey: .b)
      try nested.encode(3)
      try container.encode(["k": 1], forKey: .c)
      try container.encode(true, forKey: .c)
    }
  }

  @Test("A key written twice keeps its first place and its last value")
  func duplicateKeys() throws {
    try expectAsJSON(Repeats())
    let expected: CBORValue = ["a": "later", "b": [1, 2, 3], "c": true]
    #expect(try CBOREncoding.hex(Repeats()) == CBORBytes.hex(expected.cborBytes()))
  }

  struct Nothing: Encodable {
    func encode(to encoder: any Encoder) throws {}
  }

  struct HoldsNothing: Encodable {
    var first = Nothing()
    var list = [Nothing(), Nothing()]
    var last = 1
  }

  @Test("A value that encodes nothing is an empty map; at the top it throws")
  func emptyValues() throws {
    let expected: CBORValue = ["first": [:], "list": [[:], [:]], "last": 1]
    #expect(try CBOREncoding.hex(HoldsNothing()) == CBORBytes.hex(expected.cborBytes()))
    try expectAsJSON(HoldsNothing())
    #expect(throws: EncodingError.self) { try JKCBOREncoder().encodeToBytes(Nothing()) }
  }

  /// Asks one place for two kinds of things.
  struct Conflict: Encodable {
    var kind: Int
    enum CodingKeys: String, CodingKey { case inner }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(Part(kind: kind), forKey: .inner)
    }
  }

  struct Part: Encodable {
    var kind: Int
    enum CodingKeys: String, CodingKey { case x }
    func encode(to encoder: any Encoder) throws {
      switch kind {
      case 0:
        var keyed = encoder.container(keyedBy: CodingKeys.self)
        try keyed.encode(1, forKey: .x)
        var unkeyed = encoder.unkeyedContainer()
        try unkeyed.encode(2)
      case 1:
        var single = encoder.singleValueContainer()
        try single.encode(1)
        var keyed = encoder.container(keyedBy: CodingKeys.self)
        try keyed.encode(1, forKey: .x)
      default:
        var single = encoder.singleValueContainer()
        try single.encode(1)
        try single.encode("again")
      }
    }
  }

  @Test("Two kinds of container, or a container and a value, for one place throw with the path")
  func conflicts() throws {
    for kind in 0..<3 {
      var ours: [String] = []
      var theirs: [String] = []
      do {
        _ = try JKCBOREncoder().encodeToBytes(Conflict(kind: kind))
        Issue.record("no error for kind \(kind)")
      } catch EncodingError.invalidValue(_, let context) {
        ours = context.codingPath.map(\.stringValue)
      }
      do {
        _ = try JKEncoder().encode(Conflict(kind: kind))
      } catch EncodingError.invalidValue(_, let context) {
        theirs = context.codingPath.map(\.stringValue)
      }
      #expect(ours == ["inner"], "kind \(kind)")
      #expect(ours == theirs, "kind \(kind)")
    }
  }

  /// A linked list that counts the calls of its `encode(to:)`.
  final class Link: Encodable, @unchecked Sendable {
    let next: Link?
    let counter: Counter
    init(depth: Int, counter: Counter) {
      self.counter = counter
      next = depth > 1 ? Link(depth: depth - 1, counter: counter) : nil
    }
    func encode(to encoder: any Encoder) throws {
      counter.calls += 1
      var container = encoder.unkeyedContainer()
      if let next { try container.encode(next) }
    }
  }

  final class Counter: @unchecked Sendable { var calls = 0 }

  @Test("Past maxDepth encode throws before the deeper encode(to:) runs")
  func maxDepth() throws {
    for limit in [1, 5, 50] {
      let ours = Counter()
      let theirs = Counter()
      let cbor = JKCBOREncoder()
      cbor.maxDepth = limit
      let json = JKEncoder()
      json.maxDepth = limit
      #expect(throws: EncodingError.self) {
        try cbor.encodeToBytes(Link(depth: limit + 10, counter: ours))
      }
      #expect(throws: EncodingError.self) {
        try json.encode(Link(depth: limit + 10, counter: theirs))
      }
      #expect(ours.calls == limit + 1)
      #expect(ours.calls == theirs.calls)
      #expect(try cbor.encodeToBytes(Link(depth: limit, counter: Counter())).count == limit)
    }
    #expect(JKCBOREncoder().maxDepth == 511)
  }

  /// A `maxDepth` past 2,048 acts as 2,048, in both encoders: a recursive
  /// model far deeper than that throws instead of overflowing the stack.
  @Test func aMaxDepthPastTheCeilingActsAsTheCeiling() {
    let outcome = onThread(stackSize: 64 << 20) { () -> String in
      let ours = Counter()
      let theirs = Counter()
      let cbor = JKCBOREncoder()
      cbor.maxDepth = .max
      let json = JKEncoder()
      json.maxDepth = 1_000_000
      let deep = Link(depth: 2_060, counter: ours)
      guard (try? cbor.encodeToBytes(deep)) == nil, (try? json.encode(deep)) == nil else {
        return "a 2,060-deep list was encoded"
      }
      // The value in the container past the limit opened it; its child is
      // refused before its encode(to:) runs.
      guard ours.calls == 2 * 2_049 else { return "encode(to:) ran \(ours.calls) times" }
      let deepest = Link(depth: 2_048, counter: theirs)
      // 2,047 one-element arrays around an empty one.
      guard (try? cbor.encodeToBytes(deepest))?.count == 2_048 else {
        return "CBOR refused 2,048 levels"
      }
      guard (try? json.encode(deepest))?.count == 2 * 2_048 else {
        return "JSON refused 2,048 levels"
      }
      return "ok"
    }
    #expect(outcome == "ok")
  }

  /// An integer written through its own single-value container, so that
  /// arrays of it go through unkeyed containers.
  struct Boxed: Encodable {
    var value: Int
    func encode(to encoder: any Encoder) throws {
      var single = encoder.singleValueContainer()
      try single.encode(value)
    }
  }

  @Test("Heads are patched as containers close, content moved for 24 items and more")
  func longContainers() throws {
    for count in [23, 24, 100, 255, 256, 65535, 65536] {
      let array = (0..<count).map { Boxed(value: $0) }
      let expected = CBORValue.array((0..<count).map { .unsigned(UInt64($0)) }).cborBytes()
      let bytes = try JKCBOREncoder().encodeToBytes(array)
      #expect(bytes == expected, "\(count)")
    }
    let nested = [24, 256, 65536].map { count in (0..<count).map { Boxed(value: $0 % 3) } }
    let outer = (0..<25).map { nested[$0 % 3] }
    let expected = CBORValue.array(
      outer.map { .array($0.map { .unsigned(UInt64($0.value)) }) }
    ).cborBytes()
    let bytes = try JKCBOREncoder().encodeToBytes(["key": outer])
    #expect(Array(bytes.dropFirst(5)) == expected)
    #expect(try CBORValue(cbor: bytes) == .map([(.text("key"), try CBORValue(cbor: expected))]))
    let wide = Dictionary(uniqueKeysWithValues: (0..<300).map { ("k\($0)", Boxed(value: $0)) })
    _ = try CBORValue(cbor: JKCBOREncoder().encodeToBytes(wide))
  }

  /// Catches the error of one member and carries on.
  struct Recovers: Encodable {
    enum CodingKeys: String, CodingKey { case a, bad, b }
    struct Fails: Encodable {
      func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(1)
        throw CancellationError()
      }
    }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(1, forKey: .a)
      try? container.encode(Fails(), forKey: .bad)
      try container.encode(2, forKey: .b)
      var list = container.nestedUnkeyedContainer(forKey: .bad)
      try list.encode(3)
      try? list.encode(Fails())
    }
  }

  @Test("A member whose value fails and is caught leaves no trace")
  func caughtErrors() throws {
    try expectAsJSON(Recovers())
    _ = try CBOREncoding.hex(Recovers())
  }

  /// Reports the coding paths its encoders and containers see.
  struct Paths: Encodable {
    let log: PathLog
    enum CodingKeys: String, CodingKey { case outer, list }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      var outer = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .outer)
      log.paths.append(outer.codingPath.map(\.stringValue))
      try outer.encode(Probe(log: log), forKey: .list)
      var list = container.nestedUnkeyedContainer(forKey: .list)
      try list.encode(Probe(log: log))
      try outer.encode(Probe(log: log), forKey: .outer)
    }
  }

  struct Probe: Encodable {
    let log: PathLog
    func encode(to encoder: any Encoder) throws {
      log.paths.append(encoder.codingPath.map(\.stringValue))
      var single = encoder.singleValueContainer()
      try single.encode(0)
    }
  }

  final class PathLog: @unchecked Sendable { var paths: [[String]] = [] }

  @Test("Coding paths are those JKEncoder gives, streaming and after a hand-over")
  func codingPaths() throws {
    let ours = PathLog()
    let theirs = PathLog()
    _ = try CBOREncoding.hex(Paths(log: ours))
    _ = try JKEncoder().encode(Paths(log: theirs))
    #expect(ours.paths == theirs.paths)
    try expectAsJSON(Paths(log: PathLog()))
  }

  /// Containers nested inside values that are encoded into nested
  /// containers, two levels down; with `late`, the outer nested container
  /// is written into after a later sibling, so in tree form.
  struct NestedPaths: Encodable {
    let log: PathLog
    let late: Bool
    enum Keys: String, CodingKey { case a, i, u, p, n, z, early }
    func encode(to encoder: any Encoder) throws {
      var top = encoder.container(keyedBy: Keys.self)
      var a = top.nestedContainer(keyedBy: Keys.self, forKey: .a)
      if late { try top.encode(1, forKey: .early) }
      try a.encode(Middle(log: log), forKey: .i)
      var u = a.nestedUnkeyedContainer(forKey: .u)
      var map = u.nestedContainer(keyedBy: Keys.self)
      log.paths.append(map.codingPath.map(\.stringValue))
      try map.encode(Probe(log: log), forKey: .p)
    }
  }

  struct Middle: Encodable {
    let log: PathLog
    func encode(to encoder: any Encoder) throws {
      log.paths.append(encoder.codingPath.map(\.stringValue))
      var container = encoder.container(keyedBy: NestedPaths.Keys.self)
      var list = container.nestedUnkeyedContainer(forKey: .n)
      var map = list.nestedContainer(keyedBy: NestedPaths.Keys.self)
      log.paths.append(map.codingPath.map(\.stringValue))
      try map.encode(Probe(log: log), forKey: .z)
      try list.encode(Probe(log: log))
    }
  }

  /// The paths of values and containers under nested containers, and
  /// those a custom key strategy is given, are `JSONEncoder`'s: the key a
  /// nested container was made for is not in its values' paths.
  @Test(arguments: [false, true])
  func codingPathsUnderNestedContainersAreFoundations(late: Bool) throws {
    let foundation = PathLog()
    let json = PathLog()
    let cbor = PathLog()
    let named = (foundation: PathLog(), json: PathLog(), cbor: PathLog())
    func naming(_ log: PathLog) -> JSONEncoder.KeyEncodingStrategy {
      .custom { path in
        log.paths.append(path.map(\.stringValue))
        return path[path.count - 1]
      }
    }
    let foundationEncoder = JSONEncoder()
    _ = try foundationEncoder.encode(NestedPaths(log: foundation, late: late))
    _ = try JKEncoder().encode(NestedPaths(log: json, late: late))
    _ = try JKCBOREncoder().encodeToBytes(NestedPaths(log: cbor, late: late))
    // The path of Middle's value under its nested container, without "a".
    #expect(foundation.paths.contains(["i", "z"]))
    #expect(json.paths == foundation.paths)
    #expect(cbor.paths == foundation.paths)
    foundationEncoder.keyEncodingStrategy = naming(named.foundation)
    _ = try foundationEncoder.encode(NestedPaths(log: PathLog(), late: late))
    let jsonEncoder = JKEncoder()
    jsonEncoder.keyEncodingStrategy = naming(named.json)
    _ = try jsonEncoder.encode(NestedPaths(log: PathLog(), late: late))
    let cborEncoder = JKCBOREncoder()
    cborEncoder.keyEncodingStrategy = naming(named.cbor)
    _ = try cborEncoder.encodeToBytes(NestedPaths(log: PathLog(), late: late))
    let strategyPaths = Set(named.foundation.paths)
    #expect(strategyPaths.contains(["i", "n", "Index 0", "z"]))
    #expect(Set(named.json.paths) == strategyPaths)
    #expect(Set(named.cbor.paths) == strategyPaths)
  }

  /// A value made of a closure over its encoder.
  struct Steps: Encodable {
    let steps: @Sendable (any Encoder) throws -> Void
    func encode(to encoder: any Encoder) throws { try steps(encoder) }
  }

  /// A coding key with a string and, optionally, an int value.
  struct Key: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(_ string: String, _ int: Int? = nil) {
      stringValue = string
      intValue = int
    }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(String(intValue), intValue) }
  }

  /// A value that logs its encoder's path (with int values) and writes 1.
  struct Spy: Encodable {
    let log: PathLog
    func encode(to encoder: any Encoder) throws {
      log.paths.append(encoder.codingPath.map { "\($0.stringValue)#\($0.intValue ?? -1)" })
      var single = encoder.singleValueContainer()
      try single.encode(1)
    }
  }

  struct Failing: Encodable {
    func encode(to encoder: any Encoder) throws {
      throw EncodingError.invalidValue(
        0, .init(codingPath: encoder.codingPath, debugDescription: ""))
    }
  }

  /// Programs whose paths JKCBOREncoder once gave differently from
  /// JKEncoder (and JSONEncoder): each logs paths into the log it is given.
  static let pathPrograms:
    [(name: String, strategy: JSONEncoder.KeyEncodingStrategy, make: @Sendable (PathLog) -> Steps)] =
      [
        (
          "an element after a failed one caught", .useDefaultKeys,
          { log in
            Steps { encoder in
              var list = encoder.unkeyedContainer()
              try list.encode(1)
              _ = try? list.encode(Failing())
              log.paths.append(["count \(list.count)"])
              try list.encode(Spy(log: log))
            }
          }
        ),
        (
          "keys with int values", .useDefaultKeys,
          { log in
            Steps { encoder in
              var container = encoder.container(keyedBy: Key.self)
              try container.encode(Spy(log: log), forKey: Key("7", 7))
              let nested = container.nestedUnkeyedContainer(forKey: Key("12", 12))
              log.paths.append(nested.codingPath.map { "\($0.stringValue)#\($0.intValue ?? -1)" })
              try container.encode(
                Steps { try [1: Spy(log: log)].encode(to: $0) }, forKey: Key("d"))
            }
          }
        ),
        (
          "a nested container read back after a later sibling, custom keys",
          .custom { Key($0[$0.count - 1].stringValue + "_c") },
          readBackAfterLaterSibling(throughInner: false)
        ),
        (
          "a nested container read back after a later sibling, snake_case", .convertToSnakeCase,
          readBackAfterLaterSibling(throughInner: true)
        ),
        (
          "an [Int: V] after another member, snake_case", .convertToSnakeCase,
          { log in
            Steps { encoder in
              var container = encoder.container(keyedBy: Key.self)
              var nested = container.nestedContainer(keyedBy: Key.self, forKey: Key("n"))
              try nested.encode(1, forKey: Key("eX"))
              try container.encode([1: Spy(log: log)], forKey: Key("h"))
            }
          }
        ),
        (
          "a [String: V] a container encodes, snake_case", .convertToSnakeCase,
          { log in
            Steps { encoder in
              var container = encoder.container(keyedBy: Key.self)
              try container.encode(["fooBar": Spy(log: log)], forKey: Key("d"))
            }
          }
        ),
      ]

  /// A nested container written into after a later sibling of its member
  /// (so read back from the bytes written), or, `throughInner`, a container
  /// nested in it.
  static func readBackAfterLaterSibling(throughInner: Bool) -> @Sendable (PathLog) -> Steps {
    { log in
      Steps { encoder in
        var container = encoder.container(keyedBy: Key.self)
        var nested = container.nestedContainer(keyedBy: Key.self, forKey: Key("fooBar"))
        try container.encode(1, forKey: Key("a"))
        if throughInner {
          var inner = nested.nestedContainer(keyedBy: Key.self, forKey: Key("b"))
          log.paths.append(inner.codingPath.map(\.stringValue))
          try inner.encode(Spy(log: log), forKey: Key("x"))
        } else {
          log.paths.append(nested.codingPath.map(\.stringValue))
          try nested.encode(Spy(log: log), forKey: Key("b"))
        }
      }
    }
  }

  /// The paths of these programs are JKEncoder's (which are JSONEncoder's).
  @Test(arguments: 0..<6)
  func pathsAsJKEncoderGivesThem(program: Int) throws {
    let (name, strategy, make) = Self.pathPrograms[program]
    let ours = PathLog()
    let theirs = PathLog()
    let foundation = PathLog()
    let cbor = JKCBOREncoder()
    cbor.keyEncodingStrategy = strategy
    _ = try cbor.encodeToBytes(make(ours))
    let json = JKEncoder()
    json.keyEncodingStrategy = strategy
    _ = try json.encode(make(theirs))
    let oracle = JSONEncoder()
    oracle.keyEncodingStrategy = strategy
    _ = try oracle.encode(make(foundation))
    #expect(theirs.paths == foundation.paths, "\(name)")
    #expect(ours.paths == theirs.paths, "\(name)")
  }

  /// A key of an `Int`-backed `CodingKeys` enum keeps its int value in
  /// paths, also once a key of another type with the same spelling is in
  /// the process-wide key cache, and when met again in the same encode.
  @Test func anIntBackedKeyKeepsItsIntValue() throws {
    struct Plain: Encodable { var qzxvIntKey = 1 }
    struct IntKeyed: Encodable {
      let log: PathLog
      enum CodingKeys: Int, CodingKey { case qzxvIntKey = 8 }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Spy(log: log), forKey: .qzxvIntKey)
      }
    }
    _ = try JKEncoder().encode(Plain())
    _ = try JKCBOREncoder().encodeToBytes(Plain())
    let ours = PathLog()
    let foundation = PathLog()
    _ = try JKCBOREncoder().encodeToBytes([IntKeyed(log: ours), IntKeyed(log: ours)])
    _ = try JSONEncoder().encode([IntKeyed(log: foundation), IntKeyed(log: foundation)])
    #expect(foundation.paths == [["Index 0#0", "qzxvIntKey#8"], ["Index 1#1", "qzxvIntKey#8"]])
    #expect(ours.paths == foundation.paths)
  }

  /// A `[String: V]` that encodes itself with an encoder (not through a
  /// container) has its keys converted by the strategy, as in JSONEncoder;
  /// one a container encodes keeps them as they are.
  @Test func stringKeyedDictionariesUnderAKeyStrategy() throws {
    struct Direct: Encodable {
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(Steps { try ["fooBar": 1].encode(to: $0) }, forKey: Key("d"))
        try container.encode(["fooBar": 2], forKey: Key("e"))
      }
    }
    let cbor = JKCBOREncoder()
    cbor.keyEncodingStrategy = .convertToSnakeCase
    let value = try CBORValue(cbor: try cbor.encodeToBytes(Direct()))
    #expect(value["d"]?["foo_bar"] == 1)
    #expect(value["e"]?["fooBar"] == 2)
    let oracle = JSONEncoder()
    oracle.keyEncodingStrategy = .convertToSnakeCase
    oracle.outputFormatting = .sortedKeys
    #expect(
      String(decoding: try oracle.encode(Direct()), as: UTF8.self)
        == #"{"d":{"foo_bar":1},"e":{"fooBar":2}}"#)
  }

  /// Holds an encoder a value keeps past its failed `encode(to:)`.
  final class KeptEncoder: @unchecked Sendable {
    // Unchecked: each use is on one thread.
    var encoder: (any Encoder)?
  }

  /// A list written after a later sibling (so in tree form), whose first
  /// element fails, the error caught, having kept its encoder, which is then
  /// asked for its path and written into; then the next element's path is
  /// logged.
  struct KeptAfterFailure: Encodable {
    let kept: KeptEncoder
    let log: PathLog
    enum Keys: String, CodingKey { case list, first }
    struct Failing: Encodable {
      let kept: KeptEncoder
      func encode(to encoder: any Encoder) throws {
        kept.encoder = encoder
        throw CancellationError()
      }
    }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      var late = container.nestedUnkeyedContainer(forKey: .list)
      try container.encode(1, forKey: .first)
      _ = try? late.encode(Failing(kept: kept))
      log.paths.append(kept.encoder?.codingPath.map(\.stringValue) ?? [])
      var single = kept.encoder?.singleValueContainer()
      try? single?.encode(5)
      try late.encode(Spy(log: log))
    }
  }

  /// An encoder kept by a value whose encoding failed still names that
  /// value, not the element begun after it, and encoding goes on without a
  /// crash; the next element has Foundation's index.
  @Test func anEncoderKeptPastAFailureInTreeForm() async {
    await #expect(processExitsWith: .success) {
      let foundation = PathLog()
      _ = try? JSONEncoder().encode(KeptAfterFailure(kept: KeptEncoder(), log: foundation))
      let json = PathLog()
      _ = try? JKEncoder().encode(KeptAfterFailure(kept: KeptEncoder(), log: json))
      let cbor = PathLog()
      _ = try? JKCBOREncoder().encodeToBytes(KeptAfterFailure(kept: KeptEncoder(), log: cbor))
      // The nested container's key is not in its elements' paths.
      let next = foundation.paths.last
      if next != ["Index 0#0"] || json.paths.last != next || cbor.paths.last != next {
        exit(1)
      }
      // JKEncoder drops the kept encoder's write, as Foundation does.
      let written = try? JKEncoder().encode(KeptAfterFailure(kept: KeptEncoder(), log: PathLog()))
      if written.map({ String(decoding: $0, as: UTF8.self) }) != #"{"list":[1],"first":1}"# {
        exit(2)
      }
    }
  }

  private func expectAsJSON<T: Encodable>(
    _ value: T, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let (ours, theirs) = try CBOREncoding.ourAndJSONs(value)
    #expect(
      CBORBytes.hex(ours) == CBORBytes.hex(theirs), sourceLocation: sourceLocation)
  }
}
