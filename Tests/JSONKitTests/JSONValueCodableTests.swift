import Foundation
import JSONKit
import Testing

@Suite("JSONValue Codable")
struct JSONValueCodableTests {
  static let rich: JSONValue = [
    "null": nil, "true": true, "false": false, "zero": 0, "negative": .int(.min),
    "big": .uint(.max), "max": .int(.max), "half": 0.5, "tiny": .double(.leastNonzeroMagnitude),
    "huge": .double(.greatestFiniteMagnitude), "negativeZero": -0.0,
    "string": "a/\"b\"\\\n\u{1}é😀\u{2028}", "empty": "",
    "array": [1, [2, [3, []]], [:], ["k": [nil]]],
    "object": ["z": 1, "a": ["nested": true]],
  ]

  @Test func roundTripsThroughFoundation() throws {
    let data = try JSONEncoder().encode(Self.rich)
    let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
    #expect(decoded == Self.rich)
  }

  @Test func decodesEveryKindFromFoundation() throws {
    let text =
      #"{"n":null,"b":true,"i":-3,"u":18446744073709551615,"d":2.5,"s":"x","a":[1],"o":{"k":"v"}}"#
    let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    #expect(value["n"]?.isNull == true)
    #expect(value["b"]?.boolValue == true)
    #expect(value["i"]?.int64Value == -3)
    #expect(value["u"]?.uint64Value == .max)
    #expect(value["d"]?.doubleValue == 2.5)
    #expect(value["s"]?.stringValue == "x")
    #expect(value["a"] == [1])
    #expect(value["o"] == ["k": "v"])
  }

  @Test func decodesTheCasesInOrder() throws {
    func decode(_ text: String) throws -> JSONValue {
      try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }
    if case .bool(true) = try decode("true") {} else { Issue.record("Bool before numbers") }
    if case .int(5) = try decode("5") {} else { Issue.record("Int64 first") }
    if case .uint(.max) = try decode("18446744073709551615") {} else { Issue.record("then UInt64") }
    if case .double(0.25) = try decode("0.25") {} else { Issue.record("then Double") }
  }

  @Test func randomValuesRoundTrip() throws {
    var generator = JSONValueGenerator(seed: 4)
    for _ in 0..<200 {
      let value = Self.withoutLongIntegralDoubles(generator.value(depth: 4))
      let decoded = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
      #expect(decoded == value)
    }
  }

  /// A decoder that reads integers from the decimal text hands back the
  /// integer that text spells. For an integral double of 17 or more digits,
  /// whose shortest text is not its exact value, that is a different number.
  @Test func longIntegralDoublesComeBackAsTheIntegerTheirTextSpells() throws {
    let data = try JSONEncoder().encode(JSONValue.double(5.475104176468169e16))
    #expect(String(decoding: data, as: UTF8.self) == "5.475104176468169e+16")
    let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
    #expect(decoded.int64Value == 54_751_041_764_681_690)
    #expect(Int64(exactly: 5.475104176468169e16) == 54_751_041_764_681_688)
  }

  /// Replaces each double from 1e16 up to 2^64 in magnitude: all are
  /// integers that Foundation's integer decoding may, as the test above
  /// shows, turn into another number.
  static func withoutLongIntegralDoubles(_ value: JSONValue) -> JSONValue {
    switch value {
    case .double(let double) where double.magnitude >= 1e16 && double.magnitude < 0x1p64:
      return .double(0.5)
    case .array(let elements):
      return .array(elements.map(withoutLongIntegralDoubles))
    case .object(let object):
      return .object(JSONObject(object.map { ($0.key, withoutLongIntegralDoubles($0.value)) }))
    default:
      return value
    }
  }

  @Test func encodesObjectKeysInOrderThroughAKeyedContainer() throws {
    let value: JSONValue = ["b": 1, "a": 2]
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(String(decoding: try encoder.encode(value), as: UTF8.self) == #"{"a":2,"b":1}"#)
    let object: JSONObject = ["k": [true]]
    #expect(try JSONDecoder().decode(JSONObject.self, from: encoder.encode(object)) == object)
  }

  /// Through a decoder that reads `-0` as the integer 0 as well, JSONValue
  /// still reads it as JSONKit does, as the Double −0.0.
  @Test func negativeZeroKeepsItsSignThroughFoundation() throws {
    let values = try JSONDecoder().decode([JSONValue].self, from: Data("[-0,0,-0.0,0.0,-1]".utf8))
    #expect(values.map(\.debugDescription) == ["-0.0", "0", "-0.0", "0", "-1"])
  }

  @Test func nonFiniteDoublesFailInFoundationToo() {
    #expect(throws: EncodingError.self) { try JSONEncoder().encode(JSONValue.double(.nan)) }
  }
}
