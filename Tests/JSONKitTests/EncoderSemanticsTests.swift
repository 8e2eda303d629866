import Foundation
import JSONKit
import Testing

/// JKEncoder's Codable semantics, with Foundation's JSONEncoder as the oracle
/// wherever its output is deterministic (with `.sortedKeys`).
@Suite("Encoder semantics")
struct EncoderSemanticsTests {
  private func both<T: Encodable>(
    _ value: T, _ formatting: JKOutputFormatting = [.sortedKeys],
    configure: (JKEncoder, JSONEncoder) -> Void = { _, _ in }
  ) throws -> (ours: String, foundation: String) {
    let ours = JKEncoder()
    ours.outputFormatting = formatting
    let theirs = JSONEncoder()
    var foundationFormatting: JSONEncoder.OutputFormatting = []
    if formatting.contains(.sortedKeys) { foundationFormatting.insert(.sortedKeys) }
    if formatting.contains(.prettyPrinted) { foundationFormatting.insert(.prettyPrinted) }
    if formatting.contains(.withoutEscapingSlashes) {
      foundationFormatting.insert(.withoutEscapingSlashes)
    }
    theirs.outputFormatting = foundationFormatting
    configure(ours, theirs)
    return (
      String(decoding: try ours.encode(value), as: UTF8.self),
      String(decoding: try theirs.encode(value), as: UTF8.self)
    )
  }

  private func expectSameAsFoundation<T: Encodable>(
    _ value: T, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for formatting: JKOutputFormatting in [
      [.sortedKeys], [.sortedKeys, .prettyPrinted], [.sortedKeys, .withoutEscapingSlashes],
      [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes],
    ] {
      let (ours, foundation) = try both(value, formatting)
      #expect(
        ours == foundation, "formatting \(formatting.rawValue)", sourceLocation: sourceLocation)
    }
  }

  struct Person: Codable, Equatable {
    var name: String
    var age: Int
    var height: Double
    var nickname: String?
    var tags: [String]
    var scores: [String: Int]
    var friends: [Person]
  }

  static let ada = Person(
    name: "Ada \"Countess\" Lovelace/Byron", age: 36, height: 1.65, nickname: nil,
    tags: ["maths", "poetry\n", ""], scores: ["b": 2, "a": 1, "é": 3, "Z": 0],
    friends: [
      Person(
        name: "Charles", age: 79, height: 1.8, nickname: "Babbage", tags: [], scores: [:],
        friends: [])
    ])

  @Test func modelsMatchFoundation() throws {
    try expectSameAsFoundation(Self.ada)
    try expectSameAsFoundation([Self.ada, Self.ada])
    try expectSameAsFoundation([String: Person]())
    try expectSameAsFoundation([[Int]]([[], [1], []]))
  }

  @Test func scalarsAtTheTopLevel() throws {
    try expectSameAsFoundation(1)
    try expectSameAsFoundation("a/b\u{1}")
    try expectSameAsFoundation(true)
    try expectSameAsFoundation(Optional<Int>.none)
    try expectSameAsFoundation(0.1)
    try expectSameAsFoundation(Float(1.1))
    try expectSameAsFoundation(-0.0)
    try expectSameAsFoundation(1e300)
    try expectSameAsFoundation(Decimal(string: "3.14159265358979323846")!)
    try expectSameAsFoundation(URL(string: "https://example.com/a?b=c")!)
  }

  @Test func integersOfEveryWidth() throws {
    try expectSameAsFoundation([Int8.min, 0, Int8.max].map { $0 })
    try expectSameAsFoundation([Int64.min, Int64.max])
    try expectSameAsFoundation([UInt64.max])
    try expectSameAsFoundation([UInt8.max])
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      try expectSameAsFoundation([Int128.min, Int128.max])
      try expectSameAsFoundation([UInt128.max])
    }
  }

  @Test func dictionariesWithNonStringKeys() throws {
    try expectSameAsFoundation([1: "one", 2: "two"])
    try expectSameAsFoundation([1.5: "x"])
    try expectSameAsFoundation([true: 1])
  }

  @Test func unsortedOutputFollowsEncodingOrderEveryTime() throws {
    let encoder = JKEncoder()
    let first = try encoder.encode(Self.ada)
    #expect(
      String(decoding: first, as: UTF8.self).hasPrefix(
        #"{"name":"Ada \"Countess\" Lovelace\/Byron","age":36"#))
    for _ in 0..<5 { #expect(try encoder.encode(Self.ada) == first) }
  }

  /// A value that encodes the same key twice.
  struct Twice: Encodable {
    enum Keys: String, CodingKey { case a, b, c }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(1, forKey: .a)
      try container.encode(2, forKey: .b)
      try container.encode([1, 2], forKey: .a)
      try container.encode(3, forKey: .c)
      try container.encode("last", forKey: .a)
    }
  }

  @Test func aKeyEncodedTwiceKeepsTheLastValue() throws {
    try expectSameAsFoundation(Twice())
    #expect(
      String(decoding: try JKEncoder().encode(Twice()), as: UTF8.self)
        == #"{"a":"last","b":2,"c":3}"#)
  }

  /// A value that encodes keys that `String` holds equal, spelled apart:
  /// `é` precomposed and decomposed, and `K` and KELVIN SIGN, each time
  /// with a nested object between.
  struct TwiceSpelledApart: Encodable {
    struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(_ stringValue: String) { self.stringValue = stringValue }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(1, forKey: Key("\u{E9}"))
      try container.encode("two", forKey: Key("K"))
      var inner = container.nestedContainer(keyedBy: Key.self, forKey: Key("n"))
      try inner.encode(true, forKey: Key("x"))
      try container.encode([3], forKey: Key("e\u{301}"))
      try container.encode(4, forKey: Key("\u{212A}"))
    }
  }

  @Test func keysThatStringHoldsEqualAreOneKeyWithTheFirstSpelling() throws {
    // In the first one's place, with its spelling and the last value, as
    // JSONEncoder's dictionary of members keeps them.
    #expect(
      String(decoding: try JKEncoder().encode(TwiceSpelledApart()), as: UTF8.self)
        == "{\"\u{E9}\":[3],\"K\":4,\"n\":{\"x\":true}}")
    try expectSameAsFoundation(TwiceSpelledApart())
    let escaping = JKEncoder()
    escaping.outputFormatting = [.escapeUnicode, .sortedKeys]
    #expect(
      String(decoding: try escaping.encode(TwiceSpelledApart()), as: UTF8.self)
        == #"{"K":4,"n":{"x":true},"\u00e9":[3]}"#)
  }

  /// A value that keeps its container after `encode(to:)` returns.
  final class KeepsItsContainer: Encodable, @unchecked Sendable {
    // Unchecked: each test encodes its own instances on one thread.
    enum Keys: String, CodingKey { case id, late }
    let id: Int
    var kept: KeyedEncodingContainer<Keys>?
    init(id: Int) { self.id = id }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(id, forKey: .id)
      kept = container
    }
  }

  /// Encodes values of one type, then writes into the first one's kept
  /// container.
  struct WritesIntoAKeptContainer: Encodable {
    let children: [KeepsItsContainer]
    func encode(to encoder: any Encoder) throws {
      var list = encoder.unkeyedContainer()
      for child in children { try list.encode(child) }
      try children[0].kept?.encode(true, forKey: .late)
      for child in children { child.kept = nil }
    }
  }

  @Test func aContainerKeptPastItsValueStillWritesItsOwnObject() throws {
    // Later values of the same type get containers of their own: the
    // kept one is not handed to them.
    let value = WritesIntoAKeptContainer(children: (0..<3).map { KeepsItsContainer(id: $0) })
    #expect(
      String(decoding: try JKEncoder().encode(value), as: UTF8.self)
        == #"[{"id":0,"late":true},{"id":1},{"id":2}]"#)
  }

  @Test func nestedValuesOfOneTypeEachWriteTheirOwnObject() throws {
    let root = TreeNode.tree(depth: 4)
    try expectSameAsFoundation(root)
    #expect(try JSONDecoder().decode(TreeNode.self, from: JKEncoder().encode(root)) == root)
  }

  /// Writes into a nested container after its parent wrote a later key.
  struct OutOfOrder: Encodable {
    enum Keys: String, CodingKey { case first, second, third }
    enum Inner: String, CodingKey { case x, y }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      var nested = container.nestedContainer(keyedBy: Inner.self, forKey: .first)
      var list = container.nestedUnkeyedContainer(forKey: .third)
      try container.encode("two", forKey: .second)
      try nested.encode(1, forKey: .x)
      try list.encode(true)
      try nested.encode([2], forKey: .y)
      let superEncoder = container.superEncoder()
      try list.encode(false)
      var single = superEncoder.singleValueContainer()
      try single.encode("base")
    }
  }

  @Test func containersUsedOutOfOrder() throws {
    try expectSameAsFoundation(OutOfOrder())
    #expect(
      String(decoding: try JKEncoder().encode(OutOfOrder()), as: UTF8.self)
        == #"{"first":{"x":1,"y":[2]},"third":[true,false],"second":"two","super":"base"}"#)
  }

  /// Asks its encoder for a keyed container twice, as a subclass and its
  /// superclass do when both encode into the same encoder.
  struct SharedContainer: Encodable {
    enum Keys: String, CodingKey { case a, b }
    func encode(to encoder: any Encoder) throws {
      var first = encoder.container(keyedBy: Keys.self)
      try first.encode(1, forKey: .a)
      var second = encoder.container(keyedBy: Keys.self)
      try second.encode(2, forKey: .b)
    }
  }

  @Test func askingForTheContainerAgainReturnsTheSameObject() throws {
    try expectSameAsFoundation(SharedContainer())
  }

  class Animal: Encodable {
    var legs = 4
  }

  final class Dog: Animal {
    var name = "Rex"
    enum Keys: String, CodingKey { case name }
    override func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(name, forKey: .name)
      try super.encode(to: container.superEncoder())
    }
  }

  @Test func superEncoder() throws {
    try expectSameAsFoundation(Dog())
  }

  struct Silent: Encodable {
    func encode(to encoder: any Encoder) throws {}
  }

  struct HoldsSilent: Encodable {
    var inner = Silent()
    var list = [Silent()]
  }

  @Test func aValueThatEncodesNothing() throws {
    try expectSameAsFoundation(HoldsSilent())
    #expect(throws: EncodingError.self) { try JKEncoder().encode(Silent()) }
    #expect(throws: EncodingError.self) { try JSONEncoder().encode(Silent()) }
  }

  /// Encodes `inner` through its single-value container, then, if asked,
  /// asks for a keyed container too.
  struct ThroughSingleValue<Inner: Encodable>: Encodable {
    var inner: Inner
    var thenKeyed = false
    func encode(to encoder: any Encoder) throws {
      var single = encoder.singleValueContainer()
      try single.encode(inner)
      guard thenKeyed else { return }
      var container = encoder.container(keyedBy: TestKey.self)
      try container.encode(1, forKey: TestKey(stringValue: "a"))
    }
  }

  /// Encodes two single values for one place: Foundation stops the process;
  /// JSONKit must throw.
  struct TwoSingleValues<First: Encodable>: Encodable {
    var first: First
    func encode(to encoder: any Encoder) throws {
      var single = encoder.singleValueContainer()
      try single.encode(first)
      try single.encode(5)
    }
  }

  /// Asks for a keyed container and writes nothing into it.
  struct EmptyKeyed: Encodable {
    func encode(to encoder: any Encoder) throws {
      _ = encoder.container(keyedBy: TestKey.self)
    }
  }

  /// Expects encoding `value` to throw an `EncodingError`, at the top level
  /// and in an array in an object, compact, with sorted
  /// keys and pretty-printed.
  private func expectThrows<T: Encodable>(
    _ value: T, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for formatting: JKOutputFormatting in [[], [.sortedKeys], [.prettyPrinted]] {
      let encoder = JKEncoder()
      encoder.outputFormatting = formatting
      #expect(throws: EncodingError.self, sourceLocation: sourceLocation) {
        try encoder.encode(value)
      }
      #expect(throws: EncodingError.self, sourceLocation: sourceLocation) {
        try encoder.encode(InAnObject(a: [value]))
      }
    }
  }

  /// Holds `a` after another member, whose key sorts after it.
  struct InAnObject<Value: Encodable>: Encodable {
    var z = 1
    var a: Value
  }

  @Test func aSecondSingleValueAfterAContainerValueThrows() throws {
    for first: JSONValue in [["a": 1], [], [:], ["a": [:]]] {
      expectThrows(TwoSingleValues(first: first))
    }
    // An empty object written through a container, or for a value that
    // encoded nothing, is a value too.
    expectThrows(TwoSingleValues(first: EmptyKeyed()))
    expectThrows(TwoSingleValues(first: [String: Int]()))
    expectThrows(TwoSingleValues(first: Silent()))
  }

  /// Asks for a super encoder under "z" in a nested object, begins a later
  /// member there, closes the object, then writes through the super encoder:
  /// the `{}` streaming wrote for "z" awaits that value.
  struct LateSuperEncoder: Encodable {
    func encode(to encoder: any Encoder) throws {
      var outer = encoder.container(keyedBy: TestKey.self)
      var inner = outer.nestedContainer(
        keyedBy: TestKey.self, forKey: TestKey(stringValue: "inner"))
      let late = inner.superEncoder(forKey: TestKey(stringValue: "z"))
      try inner.encode(1, forKey: TestKey(stringValue: "a"))
      try outer.encode(2, forKey: TestKey(stringValue: "b"))
      var single = late.singleValueContainer()
      try single.encode(3)
    }
  }

  @Test func aSuperEncoderUsedLateFillsTheEmptyObjectWrittenForIt() throws {
    // With sorted keys, the inner object's members move as it closes.
    try expectSameAsFoundation(LateSuperEncoder())
    let data = try JKEncoder().encode(LateSuperEncoder())
    #expect(String(decoding: data, as: UTF8.self) == #"{"inner":{"z":3,"a":1},"b":2}"#)
  }

  /// Asks for a super encoder, writes a later member, then fails.
  struct FailsAfterASuperEncoder: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: TestKey.self)
      _ = container.superEncoder(forKey: TestKey(stringValue: "s"))
      try container.encode(1, forKey: TestKey(stringValue: "a"))
      throw EncodingError.invalidValue(1, .init(codingPath: [], debugDescription: "fails"))
    }
  }

  /// An element that fails once streaming wrote `{}` inside it for a member
  /// without a value, then an empty object written whole where that `{}`
  /// was, then a second value for the empty object's place.
  struct EmptyObjectWhereAFailedValueWas: Encodable {
    func encode(to encoder: any Encoder) throws {
      var array = encoder.unkeyedContainer()
      // `[{"s":{},"a":1`, taken out: the `{}` was at 6.
      try? array.encode(FailsAfterASuperEncoder())
      // `[1234,`, so that the next value starts at 6.
      try array.encode(1234)
      var single = array.superEncoder().singleValueContainer()
      try single.encode(JSONValue.object([:]))
      try single.encode(5)
    }
  }

  @Test func anEmptyObjectWhereAFailedValueWasIsAValue() throws {
    #expect(throws: EncodingError.self) {
      try JKEncoder().encode(EmptyObjectWhereAFailedValueWas())
    }
  }

  /// A member that encodes nothing, then a hand-over (a nested container
  /// written into after later members).
  struct SilentThenHandOver: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: TestKey.self)
      var nested = container.nestedContainer(
        keyedBy: TestKey.self, forKey: TestKey(stringValue: "n"))
      try container.encode(Silent(), forKey: TestKey(stringValue: "s"))
      try container.encode(1, forKey: TestKey(stringValue: "a"))
      try nested.encode(2, forKey: TestKey(stringValue: "x"))
    }
  }

  @Test func aValueThatEncodesNothingBeforeAHandOver() throws {
    // Foundation writes `{}` for it, and so does the tree.
    try expectSameAsFoundation(SilentThenHandOver())
    try expectSameAsFoundation(ThroughSingleValue(inner: EmptyKeyed()))
    try expectSameAsFoundation(InAnObject(a: [ThroughSingleValue(inner: Silent())]))
  }

  /// Passes its encoder on to `Silent`, writing nothing itself.
  struct Forwarding: Encodable {
    func encode(to encoder: any Encoder) throws {
      try Silent().encode(to: encoder)
    }
  }

  @Test func aValueThatEncodesNothingThroughASingleValueContainer() throws {
    // Foundation writes `{}` for it, at the top level too.
    try expectSameAsFoundation(Optional(Silent()))
    try expectSameAsFoundation(ThroughSingleValue(inner: Silent()))
    try expectSameAsFoundation(ThroughSingleValue(inner: Optional(Silent())))
    try expectSameAsFoundation(ThroughSingleValue(inner: Silent(), thenKeyed: true))
    try expectSameAsFoundation(["a": ThroughSingleValue(inner: Silent())])
    try expectSameAsFoundation([Optional(Silent())])
    #expect(String(decoding: try JKEncoder().encode(Optional(Silent())), as: UTF8.self) == "{}")
    // Only a value that writes nothing into the top-level encoder throws.
    #expect(throws: EncodingError.self) { try JKEncoder().encode(Forwarding()) }
    #expect(throws: EncodingError.self) { try JSONEncoder().encode(Forwarding()) }
  }

  struct Floats: Encodable {
    var values: [Double]
  }

  @Test func nonConformingFloats() throws {
    do {
      _ = try JKEncoder().encode(Floats(values: [1, .nan]))
      Issue.record("NaN was encoded")
    } catch EncodingError.invalidValue(_, let context) {
      #expect(context.codingPath.map(\.stringValue) == ["values", "Index 1"])
    }
    let lenient = try both(Floats(values: [.infinity, -.infinity, .nan])) { ours, theirs in
      ours.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
      theirs.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    }
    #expect(lenient.ours == lenient.foundation)
  }

  struct Stamped: Codable {
    var when: Date
    var blob: Data
  }

  @Test func dateAndDataStrategies() throws {
    let value = Stamped(
      when: Date(timeIntervalSince1970: 1_700_000_000.25), blob: Data([0, 1, 254, 255]))
    let dates: [JSONEncoder.DateEncodingStrategy] = [
      .deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601,
      .custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode("at \(date.timeIntervalSince1970)")
      },
    ]
    for strategy in dates {
      let result = try both(value) { ours, theirs in
        ours.dateEncodingStrategy = strategy
        theirs.dateEncodingStrategy = strategy
      }
      #expect(result.ours == result.foundation)
    }
    let datas: [JSONEncoder.DataEncodingStrategy] = [
      .deferredToData, .base64, .custom { _, _ in },
    ]
    for strategy in datas {
      let result = try both(value) { ours, theirs in
        ours.dataEncodingStrategy = strategy
        theirs.dataEncodingStrategy = strategy
      }
      #expect(result.ours == result.foundation)
    }
  }

  struct CamelCase: Encodable {
    var userName = "a"
    var myURLValue = 1
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var already_snake = 2
    var x = 3
    var nested = ["innerKeyStays": 4]
  }

  @Test func keyStrategies() throws {
    let snake = try both(CamelCase()) { ours, theirs in
      ours.keyEncodingStrategy = .convertToSnakeCase
      theirs.keyEncodingStrategy = .convertToSnakeCase
    }
    #expect(snake.ours == snake.foundation)
    let custom = try both(CamelCase()) { ours, theirs in
      let transform: @Sendable ([any CodingKey]) -> any CodingKey = { path in
        TestKey(stringValue: path.map(\.stringValue).joined(separator: ".").uppercased())
      }
      ours.keyEncodingStrategy = .custom(transform)
      theirs.keyEncodingStrategy = .custom(transform)
    }
    #expect(custom.ours == custom.foundation)
  }

  struct TestKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  @Test func escapeUnicodeAndAppending() throws {
    let encoder = JKEncoder()
    encoder.outputFormatting = .escapeUnicode
    #expect(
      String(decoding: try encoder.encode(["é😀"]), as: UTF8.self) == #"["\u00e9\ud83d\ude00"]"#)
    var buffer: [UInt8] = Array("prefix:".utf8)
    try JKEncoder().encode([1, 2], appendingTo: &buffer)
    #expect(String(decoding: buffer, as: UTF8.self) == "prefix:[1,2]")
    #expect(try JKEncoder().encodeToBytes("x") == Array("\"x\"".utf8))
  }

  @Test func snakeCaseLowercasesOneLetterKeys() throws {
    struct Keys: Encodable {
      var values: [String: Int]
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TestKey.self)
        for (key, value) in values {
          try container.encode(value, forKey: TestKey(stringValue: key))
        }
      }
    }
    let keys = Keys(values: ["Z": 1, "a": 2, "É": 3, "": 4, "AB": 5])
    let result = try both(keys) { ours, theirs in
      ours.keyEncodingStrategy = .convertToSnakeCase
      theirs.keyEncodingStrategy = .convertToSnakeCase
    }
    #expect(result.ours == result.foundation)
    #expect(result.ours == #"{"":4,"a":2,"a_b":5,"z":1,"é":3}"#)
  }

  @Test func customDateAndDataStrategiesThatWriteNothing() throws {
    for value in [Stamped(when: Date(timeIntervalSince1970: 0), blob: Data([1]))] {
      for formatting: JKOutputFormatting in [[.sortedKeys], [.sortedKeys, .prettyPrinted]] {
        let configure: (JKEncoder, JSONEncoder) -> Void = { ours, theirs in
          ours.dateEncodingStrategy = .custom { _, _ in }
          theirs.dateEncodingStrategy = .custom { _, _ in }
          ours.dataEncodingStrategy = .custom { _, _ in }
          theirs.dataEncodingStrategy = .custom { _, _ in }
        }
        // Foundation writes an empty object, at the top level too.
        for result in [
          try both(value, formatting, configure: configure),
          try both(value.when, formatting, configure: configure),
          try both([value.blob], formatting, configure: configure),
        ] {
          #expect(result.ours == result.foundation)
        }
      }
    }
    #expect(
      String(decoding: try encoderWritingNothing().encode(Date()), as: UTF8.self) == "{}")
  }

  private func encoderWritingNothing() -> JKEncoder {
    let encoder = JKEncoder()
    encoder.dateEncodingStrategy = .custom { _, _ in }
    return encoder
  }

  /// Checks its unkeyed container's count as it goes, after writing into a
  /// container it asked for before a later sibling.
  struct CountsAsItGoes: Encodable {
    enum Keys: String, CodingKey { case first, second }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      var list = container.nestedUnkeyedContainer(forKey: .first)
      try container.encode("two", forKey: .second)
      for value in 0..<3 {
        guard list.count == value else {
          throw EncodingError.invalidValue(
            value, .init(codingPath: list.codingPath, debugDescription: "count \(list.count)"))
        }
        try list.encode(value)
      }
    }
  }

  @Test func countsAreRightWhenContainersAreUsedOutOfOrder() throws {
    try expectSameAsFoundation(CountsAsItGoes())
    #expect(
      String(decoding: try JKEncoder().encode(CountsAsItGoes()), as: UTF8.self)
        == #"{"first":[0,1,2],"second":"two"}"#)
  }
}

extension EncoderSemanticsTests {
  /// An object with many members, some keys repeated; optionally written
  /// after a later sibling, so that the encoder cannot stream it.
  struct WideObject: Encodable {
    var keys: [String]
    var outOfOrder = false

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: TestKey.self)
      guard outOfOrder else { return try encodeMembers(into: &container) }
      var wide = container.nestedContainer(keyedBy: TestKey.self, forKey: TestKey(stringValue: "w"))
      try container.encode(0, forKey: TestKey(stringValue: "later"))
      try encodeMembers(into: &wide)
    }

    private func encodeMembers(into container: inout KeyedEncodingContainer<TestKey>) throws {
      for (value, key) in keys.enumerated() {
        try container.encode(value, forKey: TestKey(stringValue: key))
      }
    }

    /// The members JKEncoder writes without `.sortedKeys`: each key where
    /// it first appeared, with the last value encoded for it.
    var expectedUnsortedMembers: String {
      var order: [String] = []
      var values: [String: Int] = [:]
      for (value, key) in keys.enumerated() {
        if values.updateValue(value, forKey: key) == nil { order.append(key) }
      }
      return "{" + order.map { "\"\($0)\":\(values[$0]!)" }.joined(separator: ",") + "}"
    }
  }

  @Test func wideObjectsWithRepeatedKeys() throws {
    let distinct = (0..<5_000).map { "key\($0)" }
    // Keys repeated among the first members, among later ones, and later
    // ones repeating early ones: wide objects find repeats differently.
    var repeatedEarly = distinct
    repeatedEarly.insert("key3", at: 10)
    var repeatedLate = distinct
    repeatedLate.insert(contentsOf: ["key4000", "key100"], at: 4_500)
    var repeatedOften = distinct
    for position in stride(from: 4_990, to: 0, by: -7) {
      repeatedOften.insert("key\(position / 3)", at: position)
    }
    for keys in [distinct, repeatedEarly, repeatedLate, repeatedOften] {
      for outOfOrder in [false, true] {
        let value = WideObject(keys: keys, outOfOrder: outOfOrder)
        try expectSameAsFoundation(value)
        let unsorted = String(decoding: try JKEncoder().encode(value), as: UTF8.self)
        let members = value.expectedUnsortedMembers
        #expect(unsorted == (outOfOrder ? #"{"w":\#(members),"later":0}"# : members))
      }
    }
    let dictionary = Dictionary(uniqueKeysWithValues: distinct.enumerated().map { ($1, $0) })
    try expectSameAsFoundation(dictionary)
  }
}

extension EncoderSemanticsTests {
  /// Writes a member, then fails inside a nested object.
  struct FailsPartway: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: TestKey.self)
      try container.encode(1, forKey: TestKey(stringValue: "x"))
      var nested = container.nestedContainer(
        keyedBy: TestKey.self, forKey: TestKey(stringValue: "y"))
      try nested.encode(Double.nan, forKey: TestKey(stringValue: "z"))
    }
  }

  /// Catches errors of values it encodes, as `try?` inside `encode(to:)`
  /// does; optionally after a container used out of order, so that the
  /// value is encoded through the tree.
  ///
  /// After a value that fails partway, only scalars are encoded through the
  /// same encoder: JSONEncoder hands the failed value's leftovers to the
  /// next value that asks for a container there (merging them into it, or
  /// trapping), which JKEncoder does not copy.
  struct CatchesErrors: Encodable {
    enum Case: CaseIterable {
      case keyed, keyedReplacing, nestedKeyed, unkeyed, nestedUnkeyed, singleValue
    }
    var which: Case
    var outOfOrder = false

    func encode(to encoder: any Encoder) throws {
      func key(_ name: String) -> TestKey { TestKey(stringValue: name) }
      var container = encoder.container(keyedBy: TestKey.self)
      var late = container.nestedContainer(keyedBy: TestKey.self, forKey: key("late"))
      if outOfOrder { try container.encode(0, forKey: key("early")) }
      switch which {
      case .keyed:
        try container.encode(1, forKey: key("a"))
        try? container.encode(Double.nan, forKey: key("b"))
        try container.encode(2, forKey: key("c"))
        try? container.encode(FailsPartway(), forKey: key("d"))
        try? container.encode(Float.nan, forKey: key("e"))
      case .keyedReplacing:
        // A failed value for a key already written leaves the first value.
        try container.encode([1], forKey: key("a"))
        try container.encode(2, forKey: key("b"))
        try? container.encode(Float.infinity, forKey: key("b"))
        try? container.encode(FailsPartway(), forKey: key("a"))
      case .nestedKeyed:
        var nested = container.nestedContainer(keyedBy: TestKey.self, forKey: key("d"))
        try? nested.encode(Double.nan, forKey: key("x"))
        try? nested.encode([[1.0, .nan]], forKey: key("y"))
      case .unkeyed:
        var list = container.nestedUnkeyedContainer(forKey: key("e"))
        try list.encode(1)
        try? list.encode(Float.nan)
        try list.encode(list.count)
        try? list.encode(FailsPartway())
        try list.encode(list.count)
      case .nestedUnkeyed:
        var list = container.nestedUnkeyedContainer(forKey: key("e"))
        var inner = list.nestedUnkeyedContainer()
        try? inner.encode(Double.infinity)
        try list.encode(list.count)
        try list.encode(inner.count)
      case .singleValue:
        // Foundation keeps what a value wrote through a single-value
        // container before failing (only its own nested failure is undone);
        // JKEncoder leaves nothing there either (see `FailedValueTests`).
        var single = container.superEncoder(forKey: key("f")).singleValueContainer()
        try? single.encode(FailsPartway())
      }
      try late.encode(2, forKey: key("x"))
      try? late.encode(Double.nan, forKey: key("y"))
    }
  }

  @Test func errorsCaughtInsideEncodeLeaveNoPartialOutput() throws {
    for which in CatchesErrors.Case.allCases where which != .singleValue {
      try expectSameAsFoundation(CatchesErrors(which: which))
      try expectSameAsFoundation(CatchesErrors(which: which, outOfOrder: true))
    }
    let unsorted = try CatchesErrors.Case.allCases.map {
      String(decoding: try JKEncoder().encode(CatchesErrors(which: $0)), as: UTF8.self)
    }
    #expect(
      unsorted == [
        #"{"late":{"x":2},"a":1,"c":2}"#, #"{"late":{"x":2},"a":[1],"b":2}"#,
        #"{"late":{"x":2},"d":{}}"#, #"{"late":{"x":2},"e":[1,1,2]}"#,
        #"{"late":{"x":2},"e":[[],1,0]}"#, #"{"late":{"x":2},"f":{}}"#,
      ])
  }
}

extension EncoderSemanticsTests {
  /// Writes an object whose keys are not in sorted order, then a value
  /// that writes such objects, nested three deep, and fails; the error is
  /// caught, and only scalars are written after it (see ``CatchesErrors``).
  /// With `handsOver`, they go into a container asked for before the
  /// failed value, so that the rest is encoded in tree form.
  struct CatchesFailedReorderedObjects: Encodable {
    var handsOver: Bool

    struct FailsAfterNestedObjects: Encodable {
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TestKey.self)
        var inner = container.nestedContainer(
          keyedBy: TestKey.self, forKey: TestKey(stringValue: "m"))
        try inner.encode(1, forKey: TestKey(stringValue: "z"))
        var innermost = inner.nestedContainer(
          keyedBy: TestKey.self, forKey: TestKey(stringValue: "y"))
        try innermost.encode(1, forKey: TestKey(stringValue: "d"))
        try innermost.encode(2, forKey: TestKey(stringValue: "c"))
        try container.encode(["k": 1, "b": 2], forKey: TestKey(stringValue: "l"))
        try container.encode(Double.nan, forKey: TestKey(stringValue: "a"))
      }
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: TestKey.self)
      try container.encode(["q": 1, "p": 2], forKey: TestKey(stringValue: "s"))
      var later =
        handsOver
        ? container.nestedContainer(keyedBy: TestKey.self, forKey: TestKey(stringValue: "e"))
        : nil
      try? container.encode(FailsAfterNestedObjects(), forKey: TestKey(stringValue: "f"))
      try later?.encode(3, forKey: TestKey(stringValue: "y"))
      try later?.encode(4, forKey: TestKey(stringValue: "x"))
      try container.encode(5, forKey: TestKey(stringValue: "d"))
    }
  }

  @Test func aFailedValuesReorderedObjectsLeaveNoTraceInSortedOutput() throws {
    let encoder = JKEncoder()
    encoder.outputFormatting = .sortedKeys
    for handsOver in [false, true] {
      try expectSameAsFoundation(CatchesFailedReorderedObjects(handsOver: handsOver))
    }
    let streamed = try encoder.encode(CatchesFailedReorderedObjects(handsOver: false))
    #expect(String(decoding: streamed, as: UTF8.self) == #"{"d":5,"s":{"p":2,"q":1}}"#)
    let handedOver = try encoder.encode(CatchesFailedReorderedObjects(handsOver: true))
    #expect(
      String(decoding: handedOver, as: UTF8.self)
        == #"{"d":5,"e":{"x":4,"y":3},"s":{"p":2,"q":1}}"#)
  }
}

extension EncoderSemanticsTests {
  /// Asks for a nested container under a key that already holds an object
  /// or array, in the ways Foundation merges the two.
  struct NestedTwice: Encodable {
    enum Case: CaseIterable {
      case keyedTwice, unkeyedTwice, afterEncodedObject, afterEncodedArray, afterEncodedValue
      case siblingBetween, firstUsedAfterSecond, deep, afterSuperEncoder, superEncoderReplaces
      case emptyTwice, wideObject, snakeCaseKey
    }
    var which: Case

    /// A value written into an object through its own keyed container.
    struct Written: Encodable {
      var x = 1
      var y = [String: Int]()
    }

    func encode(to encoder: any Encoder) throws {
      func key(_ name: String) -> TestKey { TestKey(stringValue: name) }
      var container = encoder.container(keyedBy: TestKey.self)
      func object(_ name: String) -> KeyedEncodingContainer<TestKey> {
        container.nestedContainer(keyedBy: TestKey.self, forKey: key(name))
      }
      // Two nested containers for `name`, with another member written between.
      func twiceAroundASibling(_ name: String, sibling: String) throws {
        var first = object(name)
        try first.encode(1, forKey: key("x"))
        try container.encode(0, forKey: key(sibling))
        var second = object(name)
        try second.encode(2, forKey: key("y"))
      }
      switch which {
      case .keyedTwice:
        var first = object("a")
        try first.encode(1, forKey: key("x"))
        var second = object("a")
        try second.encode(2, forKey: key("y"))
        try first.encode(3, forKey: key("z"))
      case .unkeyedTwice:
        var first = container.nestedUnkeyedContainer(forKey: key("a"))
        try first.encode(1)
        var second = container.nestedUnkeyedContainer(forKey: key("a"))
        try second.encode(2)
        try first.encode(3)
        try second.encode([first.count, second.count])
      case .afterEncodedObject:
        try container.encode(["x": 1, "y": 0], forKey: key("a"))
        var nested = object("a")
        try nested.encode(2, forKey: key("y"))
      case .afterEncodedArray:
        try container.encode([1], forKey: key("a"))
        var nested = container.nestedUnkeyedContainer(forKey: key("a"))
        try nested.encode(2)
        try nested.encode(nested.count)
      case .afterEncodedValue:
        try container.encode(Written(), forKey: key("a"))
        var nested = object("a")
        try nested.encode(2, forKey: key("y"))
      case .siblingBetween:
        try twiceAroundASibling("a", sibling: "b")
      case .firstUsedAfterSecond:
        var first = object("a")
        var second = object("a")
        try second.encode(2, forKey: key("y"))
        try first.encode(1, forKey: key("x"))
      case .deep:
        var first = object("a")
        var inner = first.nestedContainer(keyedBy: TestKey.self, forKey: key("b"))
        try inner.encode(1, forKey: key("x"))
        var second = object("a")
        try second.encode(2, forKey: key("y"))
        var secondInner = second.nestedContainer(keyedBy: TestKey.self, forKey: key("b"))
        try secondInner.encode(4, forKey: key("w"))
        try inner.encode(3, forKey: key("z"))
      case .afterSuperEncoder:
        do {
          var base = container.superEncoder(forKey: key("a")).container(keyedBy: TestKey.self)
          try base.encode(2, forKey: key("y"))
        }
        var nested = object("a")
        try nested.encode(1, forKey: key("x"))
      case .superEncoderReplaces:
        // A super-encoder replaces what its key held; it does not merge.
        try container.encode(["x": 1], forKey: key("a"))
        var base = container.superEncoder(forKey: key("a")).container(keyedBy: TestKey.self)
        try base.encode(2, forKey: key("y"))
      case .emptyTwice:
        _ = object("a")
        _ = object("a")
        _ = container.nestedUnkeyedContainer(forKey: key("b"))
        _ = container.nestedUnkeyedContainer(forKey: key("b"))
      case .wideObject:
        var first = object("k5")
        try first.encode(1, forKey: key("x"))
        for index in 0..<100 { try container.encode(index, forKey: key("k\(index + 10)")) }
        var second = object("k5")
        try second.encode(2, forKey: key("y"))
        var list = container.nestedUnkeyedContainer(forKey: key("late"))
        try list.encode(3)
        for index in 0..<100 { try container.encode(index, forKey: key("m\(index)")) }
        var again = container.nestedUnkeyedContainer(forKey: key("late"))
        try again.encode(4)
      case .snakeCaseKey:
        try twiceAroundASibling("myKey", sibling: "other")
      }
    }
  }

  @Test func nestedContainersForTheSameKeyShareOneValue() throws {
    for which in NestedTwice.Case.allCases where which != .afterSuperEncoder {
      try expectSameAsFoundation(NestedTwice(which: which))
    }
    // A key begun again after a super encoder was asked for under it: a
    // documented difference, whatever the super encoder's release timing.
    let foundation = JSONEncoder()
    foundation.outputFormatting = .sortedKeys
    let theirs = try foundation.encode(NestedTwice(which: .afterSuperEncoder))
    #expect(String(decoding: theirs, as: UTF8.self) == #"{"a":{"x":1,"y":2}}"#)
    #expect(throws: EncodingError.self) {
      try JKEncoder().encode(NestedTwice(which: .afterSuperEncoder))
    }
    let snake = try both(NestedTwice(which: .snakeCaseKey)) { ours, theirs in
      ours.keyEncodingStrategy = .convertToSnakeCase
      theirs.keyEncodingStrategy = .convertToSnakeCase
    }
    #expect(snake.ours == snake.foundation)
    #expect(snake.ours == #"{"my_key":{"x":1,"y":2},"other":0}"#)
    let unsorted = try [NestedTwice.Case.keyedTwice, .siblingBetween, .unkeyedTwice].map {
      String(decoding: try JKEncoder().encode(NestedTwice(which: $0)), as: UTF8.self)
    }
    #expect(
      unsorted == [
        #"{"a":{"x":1,"y":2,"z":3}}"#, #"{"a":{"x":1,"y":2},"b":0}"#, #"{"a":[1,2,3,[3,3]]}"#,
      ])
  }
}
