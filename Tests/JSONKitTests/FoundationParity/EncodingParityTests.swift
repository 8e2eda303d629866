import Foundation
import JSONKit
import Testing

/// The formattings the encoding parity tests compare under: Foundation's
/// output is deterministic only with sorted keys.
private let comparedFormattings: [JKOutputFormatting] = [
  [.sortedKeys], [.sortedKeys, .prettyPrinted],
]

/// What one encoder made of a value: its bytes, or its error's case, path
/// and description.
private enum EncodingOutcome: Equatable, CustomStringConvertible {
  case bytes(String)
  case invalidValue(ParityPath, String)
  case other(String)

  init(_ body: () throws -> Data) {
    do {
      self = .bytes(String(decoding: try body(), as: UTF8.self))
    } catch EncodingError.invalidValue(_, let context) {
      self = .invalidValue(ParityPath(context.codingPath), context.debugDescription)
    } catch {
      self = .other("\(error)")
    }
  }

  /// The outcome with the error's description left out, for comparing
  /// errors whose wording differs.
  var withoutDescription: EncodingOutcome {
    if case .invalidValue(let path, _) = self { return .invalidValue(path, "") }
    return self
  }

  /// Expects the outcome to be `invalidValue` at `path`, its message
  /// holding each of `phrases`.
  func expectInvalidValue(
    at path: [any CodingKey], saying phrases: [String], sourceLocation: SourceLocation
  ) {
    guard case .invalidValue(let actualPath, let message) = self else {
      Issue.record("expected invalidValue, got \(self)", sourceLocation: sourceLocation)
      return
    }
    #expect(actualPath == ParityPath(path), sourceLocation: sourceLocation)
    for phrase in phrases {
      #expect(message.contains(phrase), "\(message)", sourceLocation: sourceLocation)
    }
  }

  var description: String {
    switch self {
    case .bytes(let text): text
    case .invalidValue(let path, let message): "invalidValue at \(path): \(message)"
    case .other(let error): error
    }
  }
}

/// Encodes `value` with Foundation's and JSONKit's encoders, configured
/// alike.
private func encodeWithBoth<T: Encodable>(
  _ value: T, _ formatting: JKOutputFormatting = [.sortedKeys],
  userInfo: [CodingUserInfoKey: any Sendable] = [:],
  configure: (JSONEncoder, JKEncoder) -> Void = { _, _ in }
) -> (foundation: EncodingOutcome, jsonKit: EncodingOutcome) {
  let foundation = JSONEncoder()
  foundation.outputFormatting = JSONEncoder.OutputFormatting(rawValue: formatting.rawValue)
  foundation.userInfo = userInfo
  let jsonKit = JKEncoder()
  jsonKit.outputFormatting = formatting
  jsonKit.userInfo = userInfo
  configure(foundation, jsonKit)
  return (
    EncodingOutcome { try foundation.encode(value) }, EncodingOutcome { try jsonKit.encode(value) }
  )
}

/// Expects the same outcome from both encoders under each compared
/// formatting; error descriptions are not compared.
private func expectSameEncoding<T: Encodable>(
  _ value: T, configure: (JSONEncoder, JKEncoder) -> Void = { _, _ in },
  sourceLocation: SourceLocation = #_sourceLocation
) {
  for formatting in comparedFormattings {
    let outcome = encodeWithBoth(value, formatting, configure: configure)
    #expect(
      outcome.jsonKit.withoutDescription == outcome.foundation.withoutDescription,
      "formatting \(formatting.rawValue)", sourceLocation: sourceLocation)
  }
}

/// A key made at run time, with or without an int value.
private struct Key: CodingKey {
  var stringValue: String
  var intValue: Int?
  init(stringValue: String) { self.stringValue = stringValue }
  init(intValue: Int) {
    self.stringValue = "\(intValue)"
    self.intValue = intValue
  }
  init(_ name: String) { self.init(stringValue: name) }
  /// An array index as Foundation's encoder spells it in paths.
  static func index(_ index: Int) -> Key {
    var key = Key(stringValue: "Index \(index)")
    key.intValue = index
    return key
  }
}

/// A value whose `encode(to:)` is a closure, counting its calls.
private final class Counted: Encodable, @unchecked Sendable {
  // Unchecked: each test encodes its own instance on one thread.
  let body: (any Encoder) throws -> Void
  var calls = 0
  init(_ body: @escaping (any Encoder) throws -> Void) { self.body = body }
  func encode(to encoder: any Encoder) throws {
    calls += 1
    try body(encoder)
  }
}

/// A sequence that can be iterated once.
private final class OneShot: @unchecked Sendable {
  // Unchecked: each test encodes its own instance on one thread.
  private var remaining: [Int]
  init(_ values: [Int]) { remaining = values }
  /// The values not taken yet; later calls get none.
  func drain() -> [Int] {
    defer { remaining = [] }
    return remaining
  }
}

extension FoundationParityTests {
  @Test func aContainerUsedAfterALaterSiblingKeepsASinglePassSequenceWhole() throws {
    let foundationSequence = OneShot([1, 2, 3])
    let jsonKitSequence = OneShot([1, 2, 3])
    func value(_ sequence: OneShot) -> Counted {
      Counted { encoder in
        var container = encoder.container(keyedBy: Key.self)
        var list = container.nestedUnkeyedContainer(forKey: Key("a"))
        try container.encode(sequence.drain(), forKey: Key("b"))
        try list.encode(9)
      }
    }
    let foundation = JSONEncoder()
    foundation.outputFormatting = .sortedKeys
    let jsonKit = JKEncoder()
    jsonKit.outputFormatting = .sortedKeys
    let theirs = value(foundationSequence)
    let ours = value(jsonKitSequence)
    let expected = String(decoding: try foundation.encode(theirs), as: UTF8.self)
    #expect(expected == #"{"a":[9],"b":[1,2,3]}"#)
    #expect(String(decoding: try jsonKit.encode(ours), as: UTF8.self) == expected)
    #expect(ours.calls == 1)
    #expect(theirs.calls == 1)
  }

  /// Shapes in which a container, or an encoder, is written to after a
  /// later sibling: each encodes a counted child, whose calls are compared.
  private static var outOfOrderShapes: [(String, (any Encoder, Counted) throws -> Void)] {
    [
      (
        "late nested keyed container",
        { encoder, child in
          var container = encoder.container(keyedBy: Key.self)
          var nested = container.nestedContainer(keyedBy: Key.self, forKey: Key("a"))
          try container.encode(child, forKey: Key("b"))
          try nested.encode(child, forKey: Key("x"))
        }
      ),
      (
        "late nested unkeyed container",
        { encoder, child in
          var container = encoder.container(keyedBy: Key.self)
          var nested = container.nestedUnkeyedContainer(forKey: Key("a"))
          try nested.encode(1)
          try container.encode(child, forKey: Key("b"))
          try nested.encode(child)
          try container.encode(nested.count, forKey: Key("count"))
        }
      ),
      (
        "late super encoder in a keyed container",
        { encoder, child in
          var container = encoder.container(keyedBy: Key.self)
          let base = container.superEncoder()
          let keyed = container.superEncoder(forKey: Key("base"))
          try container.encode(child, forKey: Key("b"))
          try child.encode(to: base)
          var single = keyed.singleValueContainer()
          try single.encode(child)
        }
      ),
      (
        // The child's path is left out of the output: it differs (see
        // `anUnkeyedSuperEncoderTakesItsIndexWhenAskedFor`).
        "late super encoder in an unkeyed container",
        { encoder, child in
          var container = encoder.unkeyedContainer()
          try container.encode(0)
          do {
            let base = container.superEncoder()
            try container.encode(child)
            try child.encode(to: base)
          }
          try container.encode(child)
        }
      ),
      (
        "nested container asked again under the same key",
        { encoder, child in
          var container = encoder.container(keyedBy: Key.self)
          var first = container.nestedContainer(keyedBy: Key.self, forKey: Key("a"))
          try first.encode(child, forKey: Key("x"))
          try container.encode(child, forKey: Key("b"))
          var second = container.nestedContainer(keyedBy: Key.self, forKey: Key("a"))
          try second.encode(child, forKey: Key("y"))
          var list = container.nestedUnkeyedContainer(forKey: Key("c"))
          try list.encode(child)
          try container.encode(1, forKey: Key("d"))
          var again = container.nestedUnkeyedContainer(forKey: Key("c"))
          try again.encode(child)
        }
      ),
      (
        "nested inside nested",
        { encoder, child in
          var container = encoder.container(keyedBy: Key.self)
          var outer = container.nestedContainer(keyedBy: Key.self, forKey: Key("o"))
          var inner = outer.nestedUnkeyedContainer(forKey: Key("i"))
          var deepest = inner.nestedContainer(keyedBy: Key.self)
          try outer.encode(child, forKey: Key("after"))
          try container.encode(child, forKey: Key("z"))
          try deepest.encode(child, forKey: Key("late"))
          try inner.encode(child)
          let base = outer.superEncoder(forKey: Key("s"))
          try container.encode(2, forKey: Key("y"))
          try child.encode(to: base)
        }
      ),
    ]
  }

  @Test func eachValueIsEncodedOnceWhateverOrderItsContainersAreUsedIn() throws {
    for (name, shape) in Self.outOfOrderShapes {
      for formatting in comparedFormattings {
        func make() -> (parent: Counted, child: Counted) {
          let reportsPath = !name.contains("unkeyed container")
          let child = Counted { encoder in
            var container = encoder.container(keyedBy: Key.self)
            let path = reportsPath ? encoder.codingPath.map(\.stringValue) : []
            try container.encode(path, forKey: Key("path"))
          }
          return (Counted { try shape($0, child) }, child)
        }
        let theirs = make()
        let ours = make()
        let foundation = JSONEncoder()
        foundation.outputFormatting = JSONEncoder.OutputFormatting(rawValue: formatting.rawValue)
        let jsonKit = JKEncoder()
        jsonKit.outputFormatting = formatting
        let expected = String(decoding: try foundation.encode(theirs.parent), as: UTF8.self)
        let actual = String(decoding: try jsonKit.encode(ours.parent), as: UTF8.self)
        #expect(actual == expected, "\(name)")
        #expect(ours.parent.calls == theirs.parent.calls, "\(name)")
        #expect(ours.child.calls == theirs.child.calls, "\(name)")
        #expect(ours.parent.calls == 1, "\(name)")
      }
    }
  }

  @Test func anUnkeyedSuperEncoderTakesItsIndexWhenAskedFor() throws {
    // Foundation inserts a super encoder's element when the encoder is
    // released, so an element encoded while it is alive gets the index the
    // super encoder's element ends up at. JSONKit counts the element at once.
    let value = Counted { encoder in
      var container = encoder.unkeyedContainer()
      let base = container.superEncoder()
      try container.encode(PathReporter())
      var single = base.singleValueContainer()
      try single.encode(PathReporter())
    }
    let foundation = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    let jsonKit = String(decoding: try JKEncoder().encode(value), as: UTF8.self)
    #expect(foundation == #"[["Index 0#0"],["Index 0#0"]]"#)
    #expect(jsonKit == #"[["Index 0#0"],["Index 1#1"]]"#)
  }

  @Test func snakeCaseKeysAndKeysEncodedTwiceSurviveTheHandOverToATree() {
    let value = Counted { encoder in
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(1, forKey: Key("someValue"))
      var late = container.nestedContainer(keyedBy: Key.self, forKey: Key("lateObject"))
      try container.encode(2, forKey: Key("someValue"))
      try container.encode("x", forKey: Key("anotherKey"))
      try late.encode(3, forKey: Key("innerKey"))
      try late.encode(4, forKey: Key("innerKey"))
      try? container.encode(Double.nan, forKey: Key("anotherKey"))
    }
    expectSameEncoding(value)
    expectSameEncoding(value) { foundation, jsonKit in
      foundation.keyEncodingStrategy = .convertToSnakeCase
      jsonKit.keyEncodingStrategy = .convertToSnakeCase
    }
  }

  /// Key strategies that keep names, change them, and write the path
  /// they are given into each name.
  private static let keyStrategies: [JSONEncoder.KeyEncodingStrategy] = [
    .useDefaultKeys, .convertToSnakeCase,
    .custom { path in
      Key(
        path.map { key in key.intValue.map { "\(key.stringValue)#\($0)" } ?? key.stringValue }
          .joined(separator: "."))
    },
  ]

  @Test func aFailedOrRepeatedMemberLeavesThePathsOfTheMembersBeforeIt() {
    // The keys written show the paths the key strategy is given, and the
    // values the paths the containers report.
    for strategy in Self.keyStrategies {
      let value = Counted { encoder in
        var container = encoder.container(keyedBy: Key.self)
        var object = container.nestedContainer(keyedBy: Key.self, forKey: Key("someObject"))
        var list = container.nestedUnkeyedContainer(forKey: Key(intValue: 1))
        try? container.encode(Double.nan, forKey: Key(intValue: 2))
        try object.encode(1, forKey: Key("innerKey"))
        try list.encode(ParityPath(list.codingPath).description)
        _ = container.nestedContainer(keyedBy: Key.self, forKey: Key("someObject"))
        try list.encode(ParityPath(list.codingPath).description)
      }
      expectSameEncoding(value) { foundation, jsonKit in
        foundation.keyEncodingStrategy = strategy
        jsonKit.keyEncodingStrategy = strategy
      }
    }
  }

  @Test func aSuperEncoderUsedAfterLaterMembersKeepsItsKeyInItsPath() {
    for strategy in Self.keyStrategies {
      let value = Counted { encoder in
        var container = encoder.container(keyedBy: Key.self)
        let numbered = container.superEncoder(forKey: Key(intValue: 3))
        let named = container.superEncoder(forKey: Key("superKey"))
        let parent = container.superEncoder()
        var list = container.nestedUnkeyedContainer(forKey: Key("laterList"))
        try list.encode(1)
        var object = numbered.container(keyedBy: Key.self)
        try object.encode(ParityPath(numbered.codingPath).description, forKey: Key("pathKey"))
        var other = named.unkeyedContainer()
        try other.encode(ParityPath(named.codingPath).description)
        var single = parent.singleValueContainer()
        try single.encode(ParityPath(parent.codingPath).description)
      }
      expectSameEncoding(value) { foundation, jsonKit in
        foundation.keyEncodingStrategy = strategy
        jsonKit.keyEncodingStrategy = strategy
      }
      #expect(value.calls == 2 * comparedFormattings.count)
    }
  }
}

// MARK: - Two containers for one place

extension FoundationParityTests {
  /// Expects JSONKit to throw `invalidValue` at `path` with a message that
  /// names both requests, where Foundation traps (so it is not run).
  private func expectConflict(
    _ body: @escaping (any Encoder) throws -> Void, at path: [any CodingKey],
    naming words: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let value = Counted(body)
    EncodingOutcome { try JKEncoder().encode(["root": [value]]) }
      .expectInvalidValue(at: path, saying: words, sourceLocation: sourceLocation)
    #expect(value.calls == 1, sourceLocation: sourceLocation)
  }

  private var rootPath: [any CodingKey] { [Key("root"), Key.index(0)] }

  @Test func aKeyedAndAnUnkeyedContainerForOneEncoderMakeEncodeThrow() {
    expectConflict(
      { encoder in
        var keyed = encoder.container(keyedBy: Key.self)
        try keyed.encode(1, forKey: Key("a"))
        var unkeyed = encoder.unkeyedContainer()
        try unkeyed.encode(2)
      }, at: rootPath, naming: ["an unkeyed container", "a keyed container"])
    expectConflict(
      { encoder in
        var unkeyed = encoder.unkeyedContainer()
        try unkeyed.encode(2)
        var keyed = encoder.container(keyedBy: Key.self)
        try keyed.encode(1, forKey: Key("a"))
      }, at: rootPath, naming: ["an unkeyed container", "a keyed container"])
  }

  @Test func aSingleValueAndAContainerForOneEncoderMakeEncodeThrow() {
    expectConflict(
      { encoder in
        var single = encoder.singleValueContainer()
        try single.encode(1)
        var keyed = encoder.container(keyedBy: Key.self)
        try keyed.encode(1, forKey: Key("a"))
      }, at: rootPath, naming: ["a keyed container", "a single value"])
    expectConflict(
      { encoder in
        var single = encoder.singleValueContainer()
        try single.encode("x")
        var unkeyed = encoder.unkeyedContainer()
        try unkeyed.encode(2)
      }, at: rootPath, naming: ["an unkeyed container", "a single value"])
    expectConflict(
      { encoder in
        var single = encoder.singleValueContainer()
        try single.encode(1)
        try single.encode(2)
      }, at: rootPath, naming: ["a single value"])
  }

  @Test func aContainerThenASingleValueMakesEncodeThrowWhereFoundationDropsTheValue() throws {
    let body: (any Encoder) throws -> Void = { encoder in
      var keyed = encoder.container(keyedBy: Key.self)
      try keyed.encode(1, forKey: Key("a"))
      var single = encoder.singleValueContainer()
      try single.encode("lost")
    }
    // Foundation keeps the container and drops the single value silently.
    let foundation = String(decoding: try JSONEncoder().encode(Counted(body)), as: UTF8.self)
    #expect(foundation == #"{"a":1}"#)
    expectConflict(body, at: rootPath, naming: ["a single value", "a keyed container"])
  }

  @Test func nestedContainersOfTwoKindsForOneKeyMakeEncodeThrow() {
    let path = rootPath + [Key(intValue: 7)]
    expectConflict(
      { encoder in
        var container = encoder.container(keyedBy: Key.self)
        _ = container.nestedContainer(keyedBy: Key.self, forKey: Key(intValue: 7))
        var list = container.nestedUnkeyedContainer(forKey: Key(intValue: 7))
        try list.encode(1)
      }, at: path, naming: ["an unkeyed container", "a keyed container", "\"7\""])
    expectConflict(
      { encoder in
        var container = encoder.container(keyedBy: Key.self)
        var list = container.nestedUnkeyedContainer(forKey: Key(intValue: 7))
        try list.encode(1)
        try container.encode(0, forKey: Key("later"))
        var object = container.nestedContainer(keyedBy: Key.self, forKey: Key(intValue: 7))
        try object.encode(1, forKey: Key("x"))
      }, at: path, naming: ["a keyed container", "an unkeyed container"])
    expectConflict(
      { encoder in
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(5, forKey: Key(intValue: 7))
        var object = container.nestedContainer(keyedBy: Key.self, forKey: Key(intValue: 7))
        try object.encode(1, forKey: Key("x"))
      }, at: path, naming: ["a keyed container", "a single value"])
  }

  @Test func twoKeyedContainersForOneEncoderShareOneObject() {
    expectSameEncoding(
      Counted { encoder in
        var first = encoder.container(keyedBy: Key.self)
        try first.encode(1, forKey: Key("a"))
        var second = encoder.container(keyedBy: Key.self)
        try second.encode(2, forKey: Key("b"))
        try first.encode(3, forKey: Key("c"))
        var list = second.nestedUnkeyedContainer(forKey: Key("l"))
        try list.encode(1)
      })
    expectSameEncoding(
      Counted { encoder in
        var first = encoder.unkeyedContainer()
        try first.encode(1)
        var second = encoder.unkeyedContainer()
        try second.encode(2)
        try first.encode(second.count)
      })
  }
}

// MARK: - Class hierarchies

/// A class hierarchy that encodes its superclass in each way Codable offers.
private class Base: Encodable {
  var base = 1
  enum CodingKeys: Int, CodingKey { case base = 10 }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(base, forKey: .base)
    // Where its encoder is, as its subclass left it.
    try container.encode(
      encoder.codingPath.map { "\($0.stringValue)#\($0.intValue.map(String.init) ?? "-")" },
      forKey: .base)
  }
}

/// Encodes its superclass into its own container, as synthesized code
/// would with `super.encode(to: encoder)`.
private final class SharedContainer: Base {
  var own = 2
  enum OwnKeys: Int, CodingKey { case own = 20 }
  override func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: OwnKeys.self)
    try container.encode(own, forKey: .own)
    try super.encode(to: encoder)
  }
}

/// Encodes its superclass through `superEncoder()` and
/// `superEncoder(forKey:)`, before and after its own members.
private final class KeyedSuper: Base {
  enum OwnKeys: Int, CodingKey {
    case own = 20
    case parent = 21
  }
  override func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: OwnKeys.self)
    try super.encode(to: container.superEncoder())
    try container.encode(3, forKey: .own)
    try super.encode(to: container.superEncoder(forKey: .parent))
  }
}

/// Encodes its superclass through an unkeyed container's `superEncoder()`.
private final class UnkeyedSuper: Base {
  override func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    try container.encode("first")
    try super.encode(to: container.superEncoder())
    try container.encode(container.count)
  }
}

/// Encodes its superclass through its single-value container.
private final class SingleValueSuper: Base {
  override func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(Base())
  }
}

extension FoundationParityTests {
  @Test func classHierarchiesEncodeTheirSuperclassAsFoundationDoes() {
    expectSameEncoding(["shared": [SharedContainer()]])
    expectSameEncoding(["keyed": [KeyedSuper()]])
    expectSameEncoding(["unkeyed": [UnkeyedSuper()]])
    expectSameEncoding(["single": [SingleValueSuper()]])
    expectSameEncoding([SharedContainer(), KeyedSuper()] as [Base])
  }
}

// MARK: - Coding paths

/// Reports the coding path it is encoded at, as its own value.
private struct PathReporter: Encodable {
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(
      encoder.codingPath.map { "\($0.stringValue)#\($0.intValue.map(String.init) ?? "-")" })
  }
}

/// A value with integer coding keys, reaching values through nested
/// containers and super encoders.
private struct IntKeyed: Encodable {
  enum CodingKeys: Int, CodingKey {
    case a = 1
    case b = 2
    case c = 3
  }
  var failing = false
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    var nested = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .a)
    try nested.encode(PathReporter(), forKey: .b)
    var list = nested.nestedUnkeyedContainer(forKey: .c)
    try list.encode(PathReporter())
    try PathReporter().encode(to: container.superEncoder(forKey: .b))
    try container.encode([7: PathReporter()], forKey: .c)
    if failing {
      var deep = list.nestedContainer(keyedBy: CodingKeys.self)
      try deep.encode(Double.infinity, forKey: .c)
    }
  }
}

/// Enum coding keys under `.convertToSnakeCase`, whose converted names the
/// key cache keeps: the paths values and containers report hold the keys'
/// own strings, while streaming and after writes that hand over to a tree.
private struct SnakeCasePaths: Encodable {
  enum CodingKeys: String, CodingKey {
    case someValue, lateObject, innerList, otherValue, deepKey, containerPath, superKey
  }
  enum Shape: CaseIterable {
    /// Written in order: streaming throughout.
    case inOrder
    /// A failed member after others, then writes into containers after
    /// later siblings.
    case lateWrites
    /// A value that writes into an earlier sibling's container while it is
    /// encoded, before it reports its path.
    case lateWriteInsideAValue
  }
  let shape: Shape

  static func spelled(_ path: [any CodingKey]) -> [String] {
    path.map { "\($0.stringValue)#\($0.intValue.map(String.init) ?? "-")" }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(PathReporter(), forKey: .someValue)
    var object = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .lateObject)
    var list = object.nestedUnkeyedContainer(forKey: .innerList)
    try list.encode(PathReporter())
    var deep = list.nestedContainer(keyedBy: CodingKeys.self)
    try deep.encode(PathReporter(), forKey: .deepKey)
    try object.encode(Self.spelled(deep.codingPath), forKey: .containerPath)
    try object.encode(PathReporter(), forKey: .someValue)
    switch shape {
    case .inOrder:
      break
    case .lateWrites:
      try? object.encode(Double.nan, forKey: .otherValue)
      try container.encode(PathReporter(), forKey: .otherValue)
      try deep.encode(PathReporter(), forKey: .someValue)
      try object.encode(PathReporter(), forKey: .otherValue)
      try container.encode(Self.spelled(object.codingPath), forKey: .containerPath)
      try container.encode(Self.spelled(deep.codingPath), forKey: .deepKey)
      try PathReporter().encode(to: object.superEncoder(forKey: .superKey))
    case .lateWriteInsideAValue:
      let value = Counted { encoder in
        try object.encode(1, forKey: .otherValue)
        try PathReporter().encode(to: encoder)
      }
      try container.encode(value, forKey: .deepKey)
    }
  }
}

extension FoundationParityTests {
  @Test func integerCodingKeysKeepTheirIntValueInEveryPath() {
    expectSameEncoding(["x": IntKeyed()])
    expectSameEncoding([IntKeyed()])
    let failing = encodeWithBoth([IntKeyed(failing: true)])
    #expect(failing.jsonKit.withoutDescription == failing.foundation.withoutDescription)
    #expect(failing.foundation.description.contains("c#3"))
  }

  @Test func dictionariesGiveTheirKeysToPathsAsFoundationDoes() {
    enum Color: String, Encodable, CodingKeyRepresentable { case red, blue }
    enum Plain: Encodable, Hashable { case one, two }
    expectSameEncoding([3: PathReporter(), -1: PathReporter()])
    expectSameEncoding(["k": [5: [PathReporter()]]])
    expectSameEncoding(["s": PathReporter(), "12": PathReporter()])
    expectSameEncoding([Color.red: PathReporter(), .blue: PathReporter()])
    expectSameEncoding([Plain.one: PathReporter()])
    expectSameEncoding([1: Double.nan])
    expectSameEncoding(["a": [2: Float.infinity]])
    let snakeCase: (JSONEncoder, JKEncoder) -> Void = { foundation, jsonKit in
      foundation.keyEncodingStrategy = .convertToSnakeCase
      jsonKit.keyEncodingStrategy = .convertToSnakeCase
    }
    expectSameEncoding(["someKey": ["innerKey": PathReporter()]], configure: snakeCase)
    expectSameEncoding(["someKey": [4: Double.nan]], configure: snakeCase)
  }

  @Test func snakeCaseKeysKeepTheirOwnStringsInPathsAsFoundationDoes() {
    let snakeCase: (JSONEncoder, JKEncoder) -> Void = { foundation, jsonKit in
      foundation.keyEncodingStrategy = .convertToSnakeCase
      jsonKit.keyEncodingStrategy = .convertToSnakeCase
    }
    // Twice, so that the second round finds the converted names cached.
    for _ in 0..<2 {
      for shape in SnakeCasePaths.Shape.allCases {
        expectSameEncoding(SnakeCasePaths(shape: shape), configure: snakeCase)
        expectSameEncoding(["someKey": [SnakeCasePaths(shape: shape)]], configure: snakeCase)
      }
      expectSameEncoding(["x": IntKeyed()], configure: snakeCase)
    }
  }
}

// MARK: - The rest of the encoding surface

/// Reads its encoder's `userInfo` into the output.
private struct UserInfoReader: Encodable {
  static let key = CodingUserInfoKey(rawValue: "parity")!
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(encoder.userInfo[Self.key] as? String ?? "missing")
  }
}

extension FoundationParityTests {
  @Test func nilsAndOptionalsEncodeAsFoundationEncodesThem() {
    struct Optionals: Encodable {
      var present: Int? = 1
      var absent: Int? = nil
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(present, forKey: Key("present"))
        try container.encodeIfPresent(absent, forKey: Key("absent"))
        try container.encodeNil(forKey: Key("nil"))
        try container.encode(absent, forKey: Key("explicit"))
        var list = container.nestedUnkeyedContainer(forKey: Key("list"))
        try list.encodeNil()
        try list.encode(absent)
        var single = container.superEncoder(forKey: Key("single")).singleValueContainer()
        try single.encodeNil()
      }
    }
    expectSameEncoding(Optionals())
    expectSameEncoding(Int?.none)
    expectSameEncoding(Int?.some(3))
    expectSameEncoding([Int?.none, 1])
  }

  @Test func userInfoReachesEveryEncoder() {
    let value = ["a": [UserInfoReader()], "b": [UserInfoReader()]]
    let outcome = encodeWithBoth(value, userInfo: [UserInfoReader.key: "here"])
    #expect(outcome.jsonKit == outcome.foundation)
    #expect(outcome.jsonKit.description.contains("here"))
  }

  @Test func superEncodersThatEncodeNothingWriteAnEmptyObject() {
    expectSameEncoding(
      Counted { encoder in
        var container = encoder.container(keyedBy: Key.self)
        _ = container.superEncoder()
        _ = container.superEncoder(forKey: Key("unused"))
        try container.encode(1, forKey: Key("a"))
        var list = container.nestedUnkeyedContainer(forKey: Key("list"))
        _ = list.superEncoder()
        try list.encode(2)
      })
  }

  @Test func customDateAndDataStrategiesThatWriteNothingOrTwice() {
    let writesNothing: (JSONEncoder, JKEncoder) -> Void = { foundation, jsonKit in
      foundation.dateEncodingStrategy = .custom { _, _ in }
      jsonKit.dateEncodingStrategy = .custom { _, _ in }
      foundation.dataEncodingStrategy = .custom { _, _ in }
      jsonKit.dataEncodingStrategy = .custom { _, _ in }
    }
    expectSameEncoding(["d": [Date(timeIntervalSince1970: 0)]], configure: writesNothing)
    expectSameEncoding(["d": Data([1, 2])], configure: writesNothing)
    // Writing two values through one encoder traps in Foundation.
    let jsonKit = JKEncoder()
    jsonKit.dateEncodingStrategy = .custom { date, encoder in
      var single = encoder.singleValueContainer()
      try single.encode(1)
      try single.encode(2)
    }
    let outcome = EncodingOutcome { try jsonKit.encode(["d": [Date()]]) }
    #expect(
      outcome.withoutDescription == .invalidValue(ParityPath([Key("d"), Key.index(0)]), ""))
  }
}

/// Arrays nested `depth` deep.
private struct Nest: Encodable {
  var depth: Int
  func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    if depth > 1 { try container.encode(Nest(depth: depth - 1)) }
  }
}

extension FoundationParityTests {
  @Test func arraysAndObjectsNested512DeepMakeEncodeThrowAsInFoundation() {
    func deepValue(_ depth: Int) -> JSONValue {
      var value: JSONValue = .object([:])
      for level in 1..<depth { value = level.isMultiple(of: 2) ? ["k": value] : [value] }
      return value
    }
    for depth in [511, 512, 600] {
      expectSameEncoding(Nest(depth: depth))
      expectSameEncoding(deepValue(depth))
      // Under a late container, so that it is written in tree form.
      expectSameEncoding(
        Counted { encoder in
          var container = encoder.container(keyedBy: Key.self)
          var late = container.nestedUnkeyedContainer(forKey: Key("a"))
          try container.encode(1, forKey: Key("b"))
          try late.encode(Nest(depth: depth - 2))
          try late.encode(deepValue(depth - 2))
        })
    }
    let outcome = encodeWithBoth(Nest(depth: 512))
    guard case .invalidValue(let path, _) = outcome.jsonKit else {
      Issue.record("expected invalidValue, got \(outcome.jsonKit)")
      return
    }
    #expect(path == ParityPath([]))
    // A higher limit writes deeper values, for a decoder set as high.
    let deep = JKEncoder()
    deep.maxDepth = 600
    #expect(throws: Never.self) { try deep.encode(Nest(depth: 600)) }
    #expect(throws: EncodingError.self) { try deep.encode(Nest(depth: 601)) }
  }
}

extension FoundationParityTests {
  @Test func aNestedContainerSharesAJSONValueEncodedUnderItsKey() {
    for lateFirst in [false, true] {
      expectSameEncoding(
        Counted { encoder in
          var container = encoder.container(keyedBy: Key.self)
          // A container used late first puts the rest in tree form.
          var late = container.nestedUnkeyedContainer(forKey: Key("late"))
          if lateFirst {
            try container.encode(9, forKey: Key("s"))
            try late.encode(0)
          }
          try container.encode(["x": 1, "n": ["m": [true]]] as JSONValue, forKey: Key("o"))
          try container.encode([1, [2]] as JSONValue, forKey: Key("a"))
          try container.encode(JSONValue.object([:]), forKey: Key("e"))
          var object = container.nestedContainer(keyedBy: Key.self, forKey: Key("o"))
          try object.encode(2, forKey: Key("y"))
          var inner = object.nestedContainer(keyedBy: Key.self, forKey: Key("n"))
          try inner.encode("z", forKey: Key("z"))
          var array = container.nestedUnkeyedContainer(forKey: Key("a"))
          try array.encode(3)
          try array.encode(array.count)
          var empty = container.nestedContainer(keyedBy: Key.self, forKey: Key("e"))
          try empty.encode(4, forKey: Key("w"))
          try late.encode(1)
        })
    }
  }
}

extension FoundationParityTests {
  /// `Decimal.nan` is written `NaN`, as Foundation writes it: text that a
  /// hand-over reads back like the rest.
  @Test func aDecimalNaNWrittenBeforeAHandOverIsKeptAsFoundationKeepsIt() {
    expectSameEncoding(
      Counted { encoder in
        var container = encoder.container(keyedBy: Key.self)
        let late = container.superEncoder(forKey: Key("s"))
        try container.encode(Decimal.nan, forKey: Key("d"))
        _ = late.codingPath
      })
    expectSameEncoding(
      Counted { encoder in
        var container = encoder.container(keyedBy: Key.self)
        try container.encode([Decimal.nan], forKey: Key("a"))
        var array = container.nestedUnkeyedContainer(forKey: Key("a"))
        try array.encode(2)
      })
  }
}

extension FoundationParityTests {
  @Test func aCustomKeyStrategySeesThePathsFoundationGivesIt() {
    let spellPath: @Sendable ([any CodingKey]) -> any CodingKey = { path in
      let spelled = path.map { "\($0.stringValue)#\($0.intValue.map(String.init) ?? "-")" }
      return Key(stringValue: spelled.joined(separator: "/"))
    }
    let custom: (JSONEncoder, JKEncoder) -> Void = { foundation, jsonKit in
      foundation.keyEncodingStrategy = .custom(spellPath)
      jsonKit.keyEncodingStrategy = .custom(spellPath)
    }
    expectSameEncoding(["x": [IntKeyed()]], configure: custom)
    expectSameEncoding(["late": KeyedSuper()] as [String: Base], configure: custom)
    expectSameEncoding(
      Counted { encoder in
        var container = encoder.container(keyedBy: Key.self)
        var late = container.nestedContainer(keyedBy: Key.self, forKey: Key(intValue: 4))
        try container.encode(1, forKey: Key("b"))
        try late.encode(2, forKey: Key("c"))
        var inner = late.nestedUnkeyedContainer(forKey: Key("d"))
        try inner.encode([Key(intValue: 1).stringValue: 5])
      }, configure: custom)
  }
}

extension FoundationParityTests {
  @Test func containersReportTheirOwnCodingPathAsFoundationDoes() {
    func spelled(_ path: [any CodingKey]) -> [String] {
      path.map { "\($0.stringValue)#\($0.intValue.map(String.init) ?? "-")" }
    }
    expectSameEncoding(
      Counted { encoder in
        var container = encoder.container(keyedBy: Key.self)
        var nested = container.nestedContainer(keyedBy: Key.self, forKey: Key(intValue: 1))
        var list = nested.nestedUnkeyedContainer(forKey: Key("l"))
        var inList = list.nestedContainer(keyedBy: Key.self)
        var listInList = list.nestedUnkeyedContainer()
        try container.encode(spelled(container.codingPath), forKey: Key("c"))
        try inList.encode(spelled(inList.codingPath), forKey: Key("p"))
        try nested.encode(spelled(nested.codingPath), forKey: Key("n"))
        try listInList.encode(spelled(listInList.codingPath))
        try list.encode(spelled(list.codingPath))
        let base = container.superEncoder(forKey: Key(intValue: 2))
        var baseContainer = base.container(keyedBy: Key.self)
        try baseContainer.encode(spelled(baseContainer.codingPath), forKey: Key("b"))
        try baseContainer.encode(spelled(base.codingPath), forKey: Key("e"))
      })
  }
}

// MARK: - A value writing into its own container

/// Containers kept by one value for another to write into.
private final class ContainerBox: @unchecked Sendable {
  // Unchecked: each test encodes its own instance on one thread.
  var keyed: KeyedEncodingContainer<Key>?
  var unkeyed: (any UnkeyedEncodingContainer)?
  var encoder: (any Encoder)?

  /// Lets go of what the box keeps. A strategy closure that captures the box
  /// lives as long as the encoder's session it sits in, which the kept
  /// containers hold in turn: without this, each test would leak that cycle.
  func empty() {
    keyed = nil
    unkeyed = nil
    encoder = nil
  }
}

extension FoundationParityTests {
  /// Expects Foundation to give `foundation` for `value` (sorted keys), and
  /// JSONKit to throw `invalidValue` at `path`, saying why; `configure`
  /// sets both encoders' strategies alike.
  private func expectWriteIntoOwnContainer(
    _ value: @autoclosure () -> Counted, foundation expected: String, at path: [any CodingKey],
    configure: (JSONEncoder, JKEncoder) -> Void = { _, _ in },
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let foundation = JSONEncoder()
    foundation.outputFormatting = .sortedKeys
    let jsonKit = JKEncoder()
    configure(foundation, jsonKit)
    let theirs = String(decoding: try foundation.encode(["root": [value()]]), as: UTF8.self)
    #expect(theirs == expected, sourceLocation: sourceLocation)
    EncodingOutcome { try jsonKit.encode(["root": [value()]]) }
      .expectInvalidValue(
        at: path, saying: ["the container it is being encoded into"],
        sourceLocation: sourceLocation)
  }

  /// A value that writes `{"inner":1}` after running `before`.
  private func inner(_ before: @escaping () throws -> Void) -> Counted {
    Counted { encoder in
      try before()
      var own = encoder.container(keyedBy: Key.self)
      try own.encode(1, forKey: Key("inner"))
    }
  }

  @Test func aValueWritingIntoTheObjectItIsAMemberOfMakesEncodeThrow() throws {
    func value() -> Counted {
      let box = ContainerBox()
      defer { box.empty() }
      let child = inner { try box.keyed!.encode(99, forKey: Key("a")) }
      return Counted { encoder in
        var container = encoder.container(keyedBy: Key.self)
        box.keyed = container
        try container.encode(child, forKey: Key("a"))
      }
    }
    try expectWriteIntoOwnContainer(
      value(), foundation: #"{"root":[{"a":{"inner":1}}]}"#, at: [Key("root"), Key.index(0)])
  }

  @Test func aValueWritingIntoTheArrayItIsAnElementOfMakesEncodeThrow() throws {
    func value() -> Counted {
      let box = ContainerBox()
      defer { box.empty() }
      let child = inner { try box.unkeyed!.encode(99) }
      return Counted { encoder in
        var container = encoder.unkeyedContainer()
        box.unkeyed = container
        try container.encode(child)
        try container.encode(5)
      }
    }
    try expectWriteIntoOwnContainer(
      value(), foundation: #"{"root":[[99,{"inner":1},5]]}"#, at: [Key("root"), Key.index(0)])
  }

  @Test func aValueWritingIntoItsGrandparentsObjectMakesEncodeThrow() throws {
    func value() -> Counted {
      let box = ContainerBox()
      defer { box.empty() }
      let grandchild = inner { try box.keyed!.encode(99, forKey: Key("z")) }
      let child = Counted { encoder in
        var own = encoder.container(keyedBy: Key.self)
        try own.encode(grandchild, forKey: Key("b"))
      }
      return Counted { encoder in
        var container = encoder.container(keyedBy: Key.self)
        box.keyed = container
        try container.encode(child, forKey: Key("a"))
      }
    }
    try expectWriteIntoOwnContainer(
      value(), foundation: #"{"root":[{"a":{"b":{"inner":1}},"z":99}]}"#,
      at: [Key("root"), Key.index(0)])
  }

  @Test func containersWrittenAfterAMembersValueReturnedAreWrittenAsFoundationWritesThem() {
    // The child keeps a copy of its parent's object, which is written after
    // the child returned; the parent's own nested containers are written
    // after later siblings.
    let box = ContainerBox()
    defer { box.empty() }
    let child = inner {}
    let keeper = Counted { encoder in
      var own = encoder.container(keyedBy: Key.self)
      try own.encode(0, forKey: Key("kept"))
    }
    let parent = Counted { encoder in
      var container = encoder.container(keyedBy: Key.self)
      box.keyed = container
      var nested = container.nestedContainer(keyedBy: Key.self, forKey: Key("n"))
      var list = container.nestedUnkeyedContainer(forKey: Key("l"))
      try container.encode(child, forKey: Key("a"))
      try container.encode(keeper, forKey: Key("k"))
      try box.keyed!.encode(5, forKey: Key("c"))
      try nested.encode(child, forKey: Key("late"))
      try list.encode(child)
      try list.encode(6)
      try container.encode([3], forKey: Key("b"))
      try nested.encode(7, forKey: Key("later"))
    }
    expectSameEncoding(["root": [parent]])
  }

  @Test func aSuperEncoderAskedForBeforeAMemberIsUsedByThatMemberAsInFoundation() {
    let box = ContainerBox()
    defer { box.empty() }
    let child = inner {
      var single = box.encoder!.singleValueContainer()
      try single.encode("base")
      // Foundation adds a super encoder's value when the encoder is released.
      box.encoder = nil
    }
    let parent = Counted { encoder in
      var container = encoder.container(keyedBy: Key.self)
      box.encoder = container.superEncoder(forKey: Key("s"))
      try container.encode(child, forKey: Key("a"))
      try container.encode(1, forKey: Key("b"))
    }
    expectSameEncoding(["root": [parent]])
  }
}

// MARK: - Writes into a container from a strategy closure, or before a failure

/// An error a value throws, for its parent to catch.
private struct Refusal: Error {}

extension FoundationParityTests {
  /// Makes both encoders run `body` for every date and every data value, as
  /// their custom strategy.
  private func customDatesAndData(
    _ body: @escaping @Sendable (any Encoder) throws -> Void
  ) -> (JSONEncoder, JKEncoder) -> Void {
    { foundation, jsonKit in
      foundation.dateEncodingStrategy = .custom { _, encoder in try body(encoder) }
      jsonKit.dateEncodingStrategy = .custom { _, encoder in try body(encoder) }
      foundation.dataEncodingStrategy = .custom { _, encoder in try body(encoder) }
      jsonKit.dataEncodingStrategy = .custom { _, encoder in try body(encoder) }
    }
  }

  /// Encodes `"d"` through `encoder`'s single-value container.
  private static func writeD(_ encoder: any Encoder) throws {
    var single = encoder.singleValueContainer()
    try single.encode("d")
  }

  @Test func aCustomDateStrategyWritingIntoTheObjectItsDateIsAMemberOfMakesEncodeThrow() throws {
    let box = ContainerBox()
    defer { box.empty() }
    let configure = customDatesAndData { encoder in
      try Self.writeD(encoder)
      try box.keyed!.encode(99, forKey: Key("a"))
    }
    let value = Counted { encoder in
      var container = encoder.container(keyedBy: Key.self)
      box.keyed = container
      try container.encode(Date(timeIntervalSince1970: 0), forKey: Key("a"))
    }
    try expectWriteIntoOwnContainer(
      value, foundation: #"{"root":[{"a":"d"}]}"#, at: [Key("root"), Key.index(0)],
      configure: configure)
  }

  @Test func aCustomDataStrategyWritingIntoTheArrayItsDataIsAnElementOfMakesEncodeThrow() throws {
    let box = ContainerBox()
    defer { box.empty() }
    let configure = customDatesAndData { encoder in
      try Self.writeD(encoder)
      try box.unkeyed!.encode(99)
    }
    let value = Counted { encoder in
      var container = encoder.unkeyedContainer()
      box.unkeyed = container
      try container.encode(Data([1]))
      try container.encode(5)
    }
    try expectWriteIntoOwnContainer(
      value, foundation: #"{"root":[[99,"d",5]]}"#, at: [Key("root"), Key.index(0)],
      configure: configure)
  }

  @Test func aCustomStrategyWritingThroughItsParentsEncoderMakesEncodeThrow() throws {
    let box = ContainerBox()
    defer { box.empty() }
    let configure = customDatesAndData { encoder in
      try Self.writeD(encoder)
      var parent = box.encoder!.container(keyedBy: Key.self)
      try parent.encode(99, forKey: Key("z"))
    }
    // The date reaches the strategy directly, and through a value's
    // single-value container.
    let wrapped = Counted { encoder in
      var single = encoder.singleValueContainer()
      try single.encode(Date(timeIntervalSince1970: 0))
    }
    let value = Counted { encoder in
      box.encoder = encoder
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(Data([1]), forKey: Key("a"))
    }
    try expectWriteIntoOwnContainer(
      value, foundation: #"{"root":[{"a":"d","z":99}]}"#, at: [Key("root"), Key.index(0)],
      configure: configure)
    let wrapping = Counted { encoder in
      box.encoder = encoder
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(wrapped, forKey: Key("a"))
    }
    try expectWriteIntoOwnContainer(
      wrapping, foundation: #"{"root":[{"a":"d","z":99}]}"#, at: [Key("root"), Key.index(0)],
      configure: configure)
  }

  @Test func customStrategiesWritingElsewhereOrIntoALateSuperEncoderMatchFoundation() {
    // The strategy writes into a container of the parent's kept from
    // before, and a date goes through a super encoder asked for before
    // later members: no write into the container being encoded into.
    let box = ContainerBox()
    defer { box.empty() }
    let configure = customDatesAndData { encoder in
      try Self.writeD(encoder)
      try box.unkeyed?.encode(7)
    }
    let value = Counted { encoder in
      var container = encoder.container(keyedBy: Key.self)
      box.unkeyed = container.nestedUnkeyedContainer(forKey: Key("list"))
      try container.encode(Date(timeIntervalSince1970: 0), forKey: Key("a"))
      let late = container.superEncoder(forKey: Key("late"))
      try container.encode(Data([1]), forKey: Key("b"))
      var single = late.singleValueContainer()
      try single.encode(Date(timeIntervalSince1970: 0))
    }
    expectSameEncoding(["root": [value]], configure: configure)
    let outcome = encodeWithBoth(["root": [value]], configure: configure)
    #expect(
      outcome.foundation == .bytes(#"{"root":[{"a":"d","b":"d","late":"d","list":[7,7,7]}]}"#))
  }

  /// A parent that keeps its object in `box`, encodes `child` under `a`,
  /// catches its ``Refusal`` and carries on.
  private func catching(_ child: Counted, _ box: ContainerBox) -> Counted {
    Counted { encoder in
      var container = encoder.container(keyedBy: Key.self)
      box.keyed = container
      do { try container.encode(child, forKey: Key("a")) } catch is Refusal {}
      try container.encode(1, forKey: Key("b"))
    }
  }

  @Test func aValueThatWritesIntoItsObjectAndFailsMakesEncodeThrowThoughTheErrorIsCaught() throws {
    let box = ContainerBox()
    defer { box.empty() }
    let elsewhere = inner {
      try box.keyed!.encode(99, forKey: Key("z"))
      throw Refusal()
    }
    try expectWriteIntoOwnContainer(
      catching(elsewhere, box), foundation: #"{"root":[{"b":1,"z":99}]}"#,
      at: [Key("root"), Key.index(0)])
    let ownKey = Counted { encoder in
      try box.keyed!.encode(99, forKey: Key("a"))
      try Self.writeD(encoder)
      throw Refusal()
    }
    try expectWriteIntoOwnContainer(
      catching(ownKey, box), foundation: #"{"root":[{"a":99,"b":1}]}"#,
      at: [Key("root"), Key.index(0)])
    let ownKeyNested = Counted { encoder in
      var nested = box.keyed!.nestedContainer(keyedBy: Key.self, forKey: Key("a"))
      try nested.encode(1, forKey: Key("x"))
      throw Refusal()
    }
    try expectWriteIntoOwnContainer(
      catching(ownKeyNested, box), foundation: #"{"root":[{"a":{"x":1},"b":1}]}"#,
      at: [Key("root"), Key.index(0)])
  }

  @Test func aValueThatWritesIntoItsArrayAndFailsMakesEncodeThrowThoughTheErrorIsCaught() throws {
    // Taking the failed element out would give Foundation's `[0,99,5]`,
    // but not `[0,1,5]`: the array's count, as the value sees it, already
    // holds the element JSONKit began for it.
    let box = ContainerBox()
    defer { box.empty() }
    let children = [
      (inner { try box.unkeyed!.encode(99) }, #"{"root":[[0,99,5]]}"#),
      (inner { try box.unkeyed!.encode(box.unkeyed!.count) }, #"{"root":[[0,1,5]]}"#),
    ]
    for (writer, foundation) in children {
      let child = Counted { encoder in
        try writer.encode(to: encoder)
        throw Refusal()
      }
      let value = Counted { encoder in
        var container = encoder.unkeyedContainer()
        box.unkeyed = container
        try container.encode(0)
        do { try container.encode(child) } catch is Refusal {}
        try container.encode(5)
      }
      try expectWriteIntoOwnContainer(
        value, foundation: foundation, at: [Key("root"), Key.index(0)])
    }
  }

  @Test func aCustomStrategyThatWritesIntoItsObjectAndFailsMakesEncodeThrowThoughCaught() throws {
    let box = ContainerBox()
    defer { box.empty() }
    let configure = customDatesAndData { encoder in
      try Self.writeD(encoder)
      try box.keyed!.encode(99, forKey: Key("z"))
      throw Refusal()
    }
    let value = Counted { encoder in
      var container = encoder.container(keyedBy: Key.self)
      box.keyed = container
      do {
        try container.encode(Date(timeIntervalSince1970: 0), forKey: Key("a"))
      } catch is Refusal {}
      try container.encode(1, forKey: Key("b"))
    }
    try expectWriteIntoOwnContainer(
      value, foundation: #"{"root":[{"b":1,"z":99}]}"#, at: [Key("root"), Key.index(0)],
      configure: configure)
  }

  @Test func anErrorThatReachesTheCallerIsThrownAsFoundationThrowsIt() {
    // Nothing catches the failure of the value that wrote into its
    // object, or of a later one: both encoders throw that error.
    let box = ContainerBox()
    defer { box.empty() }
    let failing = inner {
      try box.keyed!.encode(99, forKey: Key("z"))
      throw Refusal()
    }
    let writing = inner { try box.keyed!.encode(99, forKey: Key("z")) }
    let values = [
      Counted { encoder in
        var container = encoder.container(keyedBy: Key.self)
        box.keyed = container
        try container.encode(failing, forKey: Key("a"))
      },
      Counted { encoder in
        var container = encoder.container(keyedBy: Key.self)
        box.keyed = container
        try container.encode(writing, forKey: Key("a"))
        throw Refusal()
      },
    ]
    for value in values {
      for formatting in comparedFormattings {
        let outcome = encodeWithBoth(["root": [value]], formatting)
        #expect(outcome.foundation == .other("\(Refusal())"))
        #expect(outcome.jsonKit == outcome.foundation)
      }
    }
  }
}

// MARK: - A key begun again after a super encoder was asked for under it

/// A value encoded with a configuration, which it hands to `body`.
private struct Configured: EncodableWithConfiguration {
  let body: (any Encoder) throws -> Void
  func encode(to encoder: any Encoder, configuration: Int) throws {
    try body(encoder)
  }
}

extension FoundationParityTests {
  /// Expects Foundation to give `foundation` for `value` (sorted keys), and
  /// JSONKit to throw `invalidValue` at `path`, saying that a key was begun
  /// again after a super encoder was asked for under it.
  private func expectKeyBegunAgainAfterSuperEncoder(
    _ value: @autoclosure () -> Counted, foundation expected: String, at path: [any CodingKey],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let foundation = JSONEncoder()
    foundation.outputFormatting = .sortedKeys
    let theirs = String(decoding: try foundation.encode(["root": [value()]]), as: UTF8.self)
    #expect(theirs == expected, sourceLocation: sourceLocation)
    for formatting in comparedFormattings {
      let jsonKit = JKEncoder()
      jsonKit.outputFormatting = formatting
      EncodingOutcome { try jsonKit.encode(["root": [value()]]) }
        .expectInvalidValue(
          at: path, saying: ["after a super encoder was asked for under it"],
          sourceLocation: sourceLocation)
    }
  }

  /// A value that writes `{"inner":1}`, then `99` under `a` into the
  /// object kept in `box`: through its super encoder, the member it is
  /// being encoded into.
  private func writingUnderItsOwnKey(_ box: ContainerBox) -> (any Encoder) throws -> Void {
    { encoder in
      var own = encoder.container(keyedBy: Key.self)
      try own.encode(1, forKey: Key("inner"))
      try box.keyed!.encode(99, forKey: Key("a"))
    }
  }

  @Test func aValueEncodedWithAConfigurationThatWritesUnderItsOwnKeyMakesEncodeThrow() throws {
    // Foundation encodes a value with a configuration through
    // `superEncoder(forKey:)`, whose value it adds when the encoder is
    // released: after the value's write under the same key.
    let box = ContainerBox()
    defer { box.empty() }
    let value = Counted { encoder in
      var container = encoder.container(keyedBy: Key.self)
      box.keyed = container
      try container.encode(
        Configured(body: writingUnderItsOwnKey(box)), forKey: Key("a"), configuration: 0)
      try container.encode(2, forKey: Key("b"))
    }
    try expectKeyBegunAgainAfterSuperEncoder(
      value, foundation: #"{"root":[{"a":{"inner":1},"b":2}]}"#, at: [Key("root"), Key.index(0)])
  }

  @Test func aValueEncodedThroughASuperEncoderThatWritesUnderItsKeyMakesEncodeThrow() throws {
    let box = ContainerBox()
    defer { box.empty() }
    let child = Counted(writingUnderItsOwnKey(box))
    let value = Counted { encoder in
      var container = encoder.container(keyedBy: Key.self)
      box.keyed = container
      try child.encode(to: container.superEncoder(forKey: Key("a")))
    }
    try expectKeyBegunAgainAfterSuperEncoder(
      value, foundation: #"{"root":[{"a":{"inner":1}}]}"#, at: [Key("root"), Key.index(0)])
    // The write under the key coming first makes no difference.
    let writingFirst = Counted { encoder in
      try box.keyed!.encode(99, forKey: Key("a"))
      var own = encoder.container(keyedBy: Key.self)
      try own.encode(1, forKey: Key("inner"))
    }
    let first = Counted { encoder in
      var container = encoder.container(keyedBy: Key.self)
      box.keyed = container
      try writingFirst.encode(to: container.superEncoder(forKey: Key("a")))
    }
    try expectKeyBegunAgainAfterSuperEncoder(
      first, foundation: #"{"root":[{"a":{"inner":1}}]}"#, at: [Key("root"), Key.index(0)])
  }

  @Test func aValueInASuperEncodersSingleValueContainerThatWritesUnderItsKeyMakesEncodeThrow()
    throws
  {
    let box = ContainerBox()
    defer { box.empty() }
    let child = Counted(writingUnderItsOwnKey(box))
    let value = Counted { encoder in
      var container = encoder.container(keyedBy: Key.self)
      box.keyed = container
      var single = container.superEncoder(forKey: Key("a")).singleValueContainer()
      try single.encode(child)
    }
    try expectKeyBegunAgainAfterSuperEncoder(
      value, foundation: #"{"root":[{"a":{"inner":1}}]}"#, at: [Key("root"), Key.index(0)])
  }

  @Test func aKeyWrittenAfterATemporarySuperEncoderForItMakesEncodeThrow() throws {
    // Foundation adds the super encoder's value when it is released, here
    // before the later write, which then wins; JSONKit cannot tell when
    // an encoder is released, so it throws whatever the timing.
    let value = Counted { encoder in
      var container = encoder.container(keyedBy: Key.self)
      try 1.encode(to: container.superEncoder(forKey: Key("a")))
      try container.encode(2, forKey: Key("a"))
    }
    try expectKeyBegunAgainAfterSuperEncoder(
      value, foundation: #"{"root":[{"a":2}]}"#, at: [Key("root"), Key.index(0)])
    let nested = Counted { encoder in
      var container = encoder.container(keyedBy: Key.self)
      _ = container.superEncoder()
      var again = container.nestedContainer(keyedBy: Key.self, forKey: Key("super"))
      try again.encode(3, forKey: Key("x"))
    }
    try expectKeyBegunAgainAfterSuperEncoder(
      nested, foundation: #"{"root":[{"super":{"x":3}}]}"#, at: [Key("root"), Key.index(0)])
    // The same once encoding has left streaming for a tree.
    let afterHandOver = Counted { encoder in
      var container = encoder.container(keyedBy: Key.self)
      var kept = container.nestedUnkeyedContainer(forKey: Key("list"))
      try container.encode(0, forKey: Key("b"))
      try kept.encode(1)
      try 1.encode(to: container.superEncoder(forKey: Key("a")))
      try container.encode(2, forKey: Key("a"))
    }
    try expectKeyBegunAgainAfterSuperEncoder(
      afterHandOver, foundation: #"{"root":[{"a":2,"b":0,"list":[1]}]}"#,
      at: [Key("root"), Key.index(0)])
  }

  @Test func superEncodersUsedWithoutASecondWriteUnderTheirKeyMatchFoundationByteForByte() {
    let box = ContainerBox()
    defer { box.empty() }
    let child = Counted { encoder in
      var own = encoder.container(keyedBy: Key.self)
      try own.encode(1, forKey: Key("inner"))
      try box.keyed!.encode(99, forKey: Key("z"))
    }
    let value = Counted { encoder in
      var container = encoder.container(keyedBy: Key.self)
      box.keyed = container
      try container.encode(0, forKey: Key("first"))
      try container.encode(
        Configured { try child.encode(to: $0) }, forKey: Key("a"), configuration: 0)
      try child.encode(to: container.superEncoder(forKey: Key("b")))
      var single = container.superEncoder(forKey: Key("c")).singleValueContainer()
      try single.encode(child)
      try 5.encode(to: container.superEncoder())
      let late = container.superEncoder(forKey: Key("d"))
      try container.encode(6, forKey: Key("e"))
      try [7].encode(to: late)
      // A write under the key before the super encoder is asked for.
      try container.encode(8, forKey: Key("f"))
      try 9.encode(to: container.superEncoder(forKey: Key("f")))
    }
    for formatting in comparedFormattings {
      let outcome = encodeWithBoth(["root": [value]], formatting)
      #expect(outcome.jsonKit == outcome.foundation, "formatting \(formatting.rawValue)")
    }
    #expect(
      encodeWithBoth(["root": [value]]).foundation
        == .bytes(
          #"{"root":[{"a":{"inner":1},"b":{"inner":1},"c":{"inner":1},"d":[7],"e":6,"#
            + #""f":9,"first":0,"super":5,"z":99}]}"#))
  }

  @Test func unkeyedSuperEncodersAliveTogetherKeepTheOrderTheyWereAskedForIn() {
    // Foundation inserts each one's element, when it is released, at the
    // count the array had when it was asked for, which leaves out the
    // elements of super encoders still alive: its order depends on the
    // order of release. JSONKit keeps the order they were asked for in, as
    // Foundation does when each is released before the next is asked for.
    let expected = [
      true: #"{"root":[["first","second",5]]}"#, false: #"{"root":[["first",5,"second"]]}"#,
    ]
    for releasesFirstOneFirst in [true, false] {
      let box = ContainerBox()
      defer { box.empty() }
      let value = Counted { encoder in
        var container = encoder.unkeyedContainer()
        box.encoder = container.superEncoder()
        try container.encode(5)
        var second: (any Encoder)? = container.superEncoder()
        try "first".encode(to: box.encoder!)
        try "second".encode(to: second!)
        if releasesFirstOneFirst {
          box.encoder = nil
          second = nil
        } else {
          second = nil
          box.encoder = nil
        }
      }
      let outcome = encodeWithBoth(["root": [value]])
      #expect(outcome.foundation == .bytes(expected[releasesFirstOneFirst]!))
      #expect(outcome.jsonKit == .bytes(#"{"root":[["first",5,"second"]]}"#))
    }
  }

  @Test func valuesWritingIntoTheArrayOfTheirUnkeyedSuperEncoderMatchFoundation() {
    // Foundation inserts an unkeyed super encoder's value, when the encoder
    // is released, at the index it had when asked for: where JSONKit puts it.
    let box = ContainerBox()
    defer { box.empty() }
    let child = Counted { encoder in
      try box.unkeyed!.encode(98)
      var own = encoder.container(keyedBy: Key.self)
      try own.encode(1, forKey: Key("inner"))
      try box.unkeyed!.encode(99)
    }
    let value = Counted { encoder in
      var container = encoder.unkeyedContainer()
      box.unkeyed = container
      try container.encode(0)
      try container.encode(Configured { try child.encode(to: $0) }, configuration: 0)
      try child.encode(to: container.superEncoder())
      var single = container.superEncoder().singleValueContainer()
      try single.encode(child)
      try container.encode(5)
    }
    for formatting in comparedFormattings {
      let outcome = encodeWithBoth(["root": [value]], formatting)
      #expect(outcome.jsonKit == outcome.foundation, "formatting \(formatting.rawValue)")
    }
    #expect(
      encodeWithBoth(["root": [value]]).foundation
        == .bytes(
          #"{"root":[[0,{"inner":1},98,99,{"inner":1},98,99,{"inner":1},98,99,5]]}"#))
  }
}
