import Foundation
import JSONKit
import Testing

/// `[String: V]` with the default key strategy is decoded member by member
/// straight from the document, as the standard library's `init(from:)`
/// decodes it through a keyed container; values and errors stay
/// Foundation's.
extension FoundationParityTests {
  @Test func dictionariesWithStringKeysDecodeAsInFoundation() {
    expectSameDecoding([String: Int].self, "{}")
    expectSameDecoding([String: Int].self, #"{"a":1,"b":-2,"12":3}"#)
    expectSameDecoding([String: String].self, #"{"a":"x","é":"y","":"z"}"#)
    expectSameDecoding([String: [Double]].self, #"{"a":[1,2.5],"b":[]}"#)
    expectSameDecoding([String: [String: Bool]].self, #"{"a":{"b":true},"c":{}}"#)
    expectSameDecoding([String: Int?].self, #"{"a":null,"b":2}"#)
    expectSameDecoding([[String: Int]].self, #"[{"a":1},{},{"b":2}]"#)
  }

  @Test func aFailingMemberOfADictionaryIsReportedWhereFoundationReportsIt() {
    // Numeric names carry an `intValue` in the path, as the standard
    // library's key has it.
    for name in ["a", "12", "-3", "007", "1e3", "9223372036854775808", " 1"] {
      expectSameDecoding([String: Int].self, #"{"ok":1,"\#(name)":"x"}"#)
      expectSameDecoding([String: Int].self, #"{"\#(name)":null}"#)
      expectSameDecoding([String: [Int]].self, #"{"\#(name)":[1,"2"]}"#)
      expectSameDecoding([String: [String: Int]].self, #"{"x":{"\#(name)":true}}"#)
    }
    expectSameDecoding([String: Int].self, "[1]")
    expectSameDecoding([String: Int].self, "null")
    expectSameDecoding([String: Int].self, "3")
  }

  @Test func dictionariesOfModelsDecodeAndFailAsInFoundation() {
    struct Seat: Codable, Equatable {
      let row: Int
      let seats: [String: Double]
    }
    struct Hall: Codable, Equatable {
      let seats: [String: Seat]
    }
    expectSameDecoding(Hall.self, #"{"seats":{"1":{"row":1,"seats":{"a":2.5}}}}"#)
    expectSameDecoding(Hall.self, #"{"seats":{"1":{"row":1,"seats":{"a":2.5}},"2":{"row":2}}}"#)
    expectSameDecoding(Hall.self, #"{"seats":{"1":{"row":1,"seats":{"a":"b"}}}}"#)
    expectSameDecoding([String: Seat].self, #"{"x":{"row":"1","seats":{}}}"#)
  }

  @Test func dictionariesOfLeavesDecodeAndFailAsInFoundationUnderEachKeyStrategy() {
    struct Holder<Value: Codable & Equatable>: Codable, Equatable {
      let byName: [String: Value]
    }
    // One member varies; the others hold a value of the type (`good`), so
    // that at most one fails, as Foundation's order among failing members
    // is its dictionary's.
    func check<Value: Codable & Equatable>(_ type: Value.Type, good: String) {
      let values = ["1", "-2", "\"x\"", "true", "null", "[1]", "{}"]
      for keys in [JSONDecoder.KeyDecodingStrategy.useDefaultKeys, .convertFromSnakeCase] {
        for value in values {
          let object = #"{"first_key":\#(good),"second":\#(value),"x_y":\#(good)}"#
          expectSameDecoding([String: Value].self, object, keys: keys)
          expectSameDecoding(
            Holder<Value>.self, #"{"by_name":\#(object),"byName":\#(object)}"#, keys: keys)
        }
      }
    }
    check(Int.self, good: "1")
    check(Double.self, good: "2.5")
    check(String.self, good: "\"s\"")
    check(Bool.self, good: "false")
  }
}
