import JSONKit
import Testing

@Suite("JSONValue")
struct JSONValueTests {
  @Test func literalsMakeTheMatchingCases() {
    let value: JSONValue = [nil, true, 7, 2.5, "s", [1], ["k": 1]]
    guard case .array(let elements) = value else {
      Issue.record("not an array")
      return
    }
    #expect(elements.count == 7)
    if case .null = elements[0] {} else { Issue.record("nil literal") }
    if case .bool(true) = elements[1] {} else { Issue.record("Bool literal") }
    if case .int(7) = elements[2] {} else { Issue.record("Int literal") }
    if case .double(2.5) = elements[3] {} else { Issue.record("Float literal") }
    if case .string("s") = elements[4] {} else { Issue.record("String literal") }
    if case .array = elements[5] {} else { Issue.record("Array literal") }
    if case .object = elements[6] {} else { Issue.record("Dictionary literal") }
  }

  @Test func dictionaryLiteralKeepsOrderAndLastDuplicateWins() {
    let value: JSONValue = ["z": 1, "a": 2, "m": 3, "a": 4]
    #expect(value.objectValue?.keys == ["z", "a", "m"])
    #expect(value["a"] == 4)
  }

  @Test func kindAccessors() {
    #expect(JSONValue.null.isNull)
    #expect(!JSONValue.bool(false).isNull)
    #expect(JSONValue.bool(false).boolValue == false)
    #expect(JSONValue.int(0).boolValue == nil)
    #expect(JSONValue.string("x").stringValue == "x")
    #expect(JSONValue.int(1).stringValue == nil)
    #expect(JSONValue.array([1]).arrayValue == [1])
    #expect(JSONValue.object(["a": 1]).arrayValue == nil)
    #expect(JSONValue.object(["a": 1]).objectValue == ["a": 1])
    #expect(JSONValue.array([]).objectValue == nil)
  }

  @Test func numberAccessorsAreExact() {
    #expect(JSONValue.double(1.5).intValue == nil)
    #expect(JSONValue.double(2.0).intValue == 2)
    #expect(JSONValue.double(-0.0).intValue == 0)
    #expect(JSONValue.double(.nan).intValue == nil)
    #expect(JSONValue.double(.infinity).int64Value == nil)
    #expect(JSONValue.double(9.3e18).int64Value == nil)
    #expect(JSONValue.double(9.3e18).uint64Value == 9_300_000_000_000_000_000)
    #expect(JSONValue.double(-1).uint64Value == nil)
    #expect(JSONValue.int(-1).uint64Value == nil)
    #expect(JSONValue.int(.min).int64Value == .min)
    #expect(JSONValue.int(.max).doubleValue == nil)
    #expect(JSONValue.int(1 << 53).doubleValue == 9_007_199_254_740_992)
    #expect(JSONValue.int((1 << 53) + 1).doubleValue == nil)
    #expect(JSONValue.uint(.max).int64Value == nil)
    #expect(JSONValue.uint(.max).uint64Value == .max)
    #expect(JSONValue.uint(.max).doubleValue == nil)
    #expect(JSONValue.uint(1 << 63).doubleValue == 9_223_372_036_854_775_808)
    #expect(JSONValue.uint(5).int64Value == 5)
    #expect(JSONValue.uint(5).intValue == 5)
    #expect(JSONValue.double(0.1).doubleValue == 0.1)
    #expect(JSONValue.string("1").intValue == nil)
    #expect(JSONValue.bool(true).doubleValue == nil)
  }

  @Test func subscriptsReachIntoContainers() {
    let value: JSONValue = ["list": [10, ["deep": "x"]], "n": nil]
    #expect(value["list"]?[0] == 10)
    #expect(value["list"]?[1]?["deep"] == "x")
    #expect(value["n"] == .null)
    #expect(value["missing"] == nil)
    #expect(value["list"]?[2] == nil)
    #expect(value["list"]?[-1] == nil)
    #expect(value[0] == nil)
    #expect(JSONValue.array([1])["key"] == nil)
    #expect(JSONValue.string("abc")[0] == nil)
  }

  @Test func numbersEqualAcrossCases() {
    #expect(JSONValue.int(1) == .double(1.0))
    #expect(JSONValue.double(1.0) == .int(1))
    #expect(JSONValue.uint(5) == .int(5))
    #expect(JSONValue.int(5) == .uint(5))
    #expect(JSONValue.double(0.0) == .double(-0.0))
    #expect(JSONValue.int(0) == .double(-0.0))
    #expect(JSONValue.uint(1 << 63) == .double(9_223_372_036_854_775_808))
    #expect(JSONValue.int(-1) != .uint(.max))
    #expect(JSONValue.int(.max) != .double(9_223_372_036_854_775_808))
    #expect(JSONValue.int((1 << 53) + 1) != .double(9_007_199_254_740_992))
    #expect(JSONValue.double(1.5) != .int(1))
    #expect(JSONValue.double(.nan) != .double(.nan))
    #expect(JSONValue.int(1) != .bool(true))
    #expect(JSONValue.int(0) != .null)
    #expect(JSONValue.string("1") != .int(1))
  }

  @Test func stringsCompareAsSwiftStrings() {
    #expect(JSONValue.string("\u{E9}") == .string("e\u{301}"))
    #expect(JSONValue.string("a") != .string("A"))
  }

  @Test func containersCompareByJSONMeaning() {
    #expect(JSONValue.array([1, 2]) != .array([2, 1]))
    #expect(JSONValue.array([1, 2]) == .array([.double(1), .uint(2)]))
    #expect(JSONValue.array([1]) != .array([1, 1]))
    let forward: JSONValue = ["a": 1, "b": [true, nil]]
    let backward: JSONValue = ["b": [true, nil], "a": .double(1)]
    #expect(forward == backward)
    #expect(forward != ["a": 1, "b": [true]])
    #expect(forward != ["a": 1, "c": [true, nil]])
    #expect(forward != ["a": 1])
    #expect(JSONValue.object([:]) != .array([]))
  }

  @Test func equalValuesHashAlike() {
    let groups: [[JSONValue]] = [
      [.int(1), .uint(1), .double(1)],
      [.int(0), .uint(0), .double(0), .double(-0.0)],
      [.int(-7), .double(-7)],
      [.uint(1 << 63), .double(9_223_372_036_854_775_808)],
      [.uint(.max - 2047), .double(18_446_744_073_709_549_568)],
      [.double(1e300), .double(1e300)],
      [.double(0.5), .double(0.5)],
      [["a": 1, "b": 2], ["b": .double(2), "a": .uint(1)]],
      [[1, ["x": 1]], [.double(1), ["x": .double(1)]]],
      [.string("\u{E9}"), .string("e\u{301}")],
    ]
    for group in groups {
      for value in group {
        #expect(value == group[0])
        #expect(value.hashValue == group[0].hashValue, "\(value.debugDescription)")
      }
    }
    #expect(Set(groups.flatMap { $0 }).count == groups.count)
  }

  @Test func randomEqualValuesHashAlike() {
    var generator = JSONValueGenerator(seed: 77)
    for _ in 0..<300 {
      let value = generator.value(depth: 3)
      let rewritten = Self.reorderedAndRetyped(value)
      #expect(rewritten == value)
      #expect(rewritten.hashValue == value.hashValue)
    }
  }

  /// The same JSON with object members reversed and each exact integer moved
  /// to another number case.
  static func reorderedAndRetyped(_ value: JSONValue) -> JSONValue {
    switch value {
    case .int(let integer):
      if let double = Double(exactly: integer) { return .double(double) }
      return integer >= 0 ? .uint(UInt64(integer)) : value
    case .uint(let integer):
      return Double(exactly: integer).map(JSONValue.double) ?? value
    case .double(let double):
      return Int64(exactly: double).map(JSONValue.int) ?? value
    case .array(let elements):
      return .array(elements.map(reorderedAndRetyped))
    case .object(let object):
      return .object(JSONObject(object.reversed().map { ($0.key, reorderedAndRetyped($0.value)) }))
    default:
      return value
    }
  }
}
