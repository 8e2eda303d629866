import Foundation
import JSONKit
import Testing

/// Sets and arrays of optionals are read straight from the tape (not
/// through `Set.init(from:)` and `Optional.init(from:)`); values, the
/// element kept of equal ones, and errors with their paths stay Foundation's.
extension FoundationParityTests {
  private struct Tagged: Codable, Equatable {
    let tags: Set<String>
    let ids: Set<Int>?
    let notes: [String?]
    let nested: String??
  }

  private struct Point: Codable, Hashable {
    let x: Int
    let y: Int
  }

  private enum Colour: String, Codable, Hashable {
    case red, green
  }

  @Test func arraysOfOptionalsDecodeAndFailAsInFoundation() {
    // (A number that an integer type cannot hold is reported at the
    // number's own path, a documented difference, so none is written here.)
    for last in ["null", "1", "\"x\"", "true", "[1]", "{}", "-7"] {
      for json in Self.arrays(of: ["null", "3", "null", "4"], last: last) {
        expectSameDecoding([Int?].self, json)
        expectSameDecoding([Int64?].self, json)
        expectSameDecoding([Double?].self, json)
        expectSameDecoding([Bool?].self, json)
        expectSameDecoding([Int8?].self, json)
      }
      for json in Self.arrays(of: ["null", "\"a\"", "\"\\u00e9\""], last: last) {
        expectSameDecoding([String?].self, json)
        expectSameDecoding([String??].self, json)
        expectSameDecoding([Colour?].self, json)
      }
      for json in Self.arrays(of: ["null", "{\"x\":1,\"y\":2}"], last: last) {
        expectSameDecoding([Point?].self, json)
      }
      for json in Self.arrays(of: ["null", "[1,2]", "[]"], last: last) {
        expectSameDecoding([[Int]?].self, json)
        expectSameDecoding([[Int?]?].self, json)
      }
    }
    expectSameDecoding([Int?].self, "[]")
    expectSameDecoding([Int?].self, "null")
    expectSameDecoding([Int?].self, "{}")
    expectSameDecoding([[String?]].self, #"[["a",null],[],[null]]"#)
  }

  @Test func optionalsOfFoundationsValueTypesDecodeAsInFoundation() {
    let uuid = "\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\""
    expectSameDecoding([UUID?].self, "[null,\(uuid),null]")
    expectSameDecoding([UUID?].self, "[null,\"not a uuid\"]")
    expectSameDecoding([URL?].self, #"[null,"https://example.com/a?b=c"]"#)
    expectSameDecoding([Decimal?].self, "[null,12.50,-3]")
    expectSameDecoding([Data?].self, #"[null,"AAEC"]"#)
    expectSameDecoding([Data?].self, #"[null,"not base64"]"#)
    // Dates with the default strategy (seconds since 2001).
    expectSameDecoding([Date?].self, "[null,0,1.5]")
    expectSameDecoding([Date?].self, #"[null,"2024-01-01"]"#)
  }

  @Test func setsDecodeAndFailAsInFoundation() {
    let strings = ["\"a\"", "\"b\"", "\"a\"", "\"\\u00e9\""]
    for last in ["\"z\"", "null", "1", "[1]", "{}"] {
      for json in Self.arrays(of: strings, last: last) {
        expectSameDecoding(Set<String>.self, json)
        expectSameDecoding(Set<Colour>.self, json)
      }
      for json in Self.arrays(of: ["1", "2", "1", "-5"], last: last) {
        expectSameDecoding(Set<Int>.self, json)
        expectSameDecoding(Set<Int64>.self, json)
        expectSameDecoding(Set<Int8>.self, json)
        expectSameDecoding(Set<Double>.self, json)
        expectSameDecoding(Set<Int?>.self, json)
      }
      for json in Self.arrays(of: ["{\"x\":1,\"y\":2}", "{\"x\":1,\"y\":2}"], last: last) {
        expectSameDecoding(Set<Point>.self, json)
      }
    }
    let uuid = "\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\""
    expectSameDecoding(Set<UUID>.self, "[\(uuid),\(uuid)]")
    expectSameDecoding(Set<UUID>.self, "[\(uuid),\"nope\"]")
    for json in ["[]", "null", "{}", "1", "\"a\"", "[[1],[1,2],[1]]"] {
      expectSameDecoding(Set<String>.self, json)
      expectSameDecoding(Set<[Int]>.self, json)
    }
  }

  @Test func ofEqualStringsASetKeepsTheFirstAsInFoundation() throws {
    // Canonically equivalent strings are equal in Swift; the set holds one,
    // and its scalars are those of the first written.
    for json in [#"["\u00e9","e\u0301"]"#, #"["e\u0301","\u00e9"]"#] {
      let theirs = try JSONDecoder().decode(Set<String>.self, from: Data(json.utf8))
      let ours = try JKDecoder().decode(Set<String>.self, from: Data(json.utf8))
      #expect(ours.count == 1)
      #expect(
        ours.first.map { Array($0.unicodeScalars) }
          == theirs.first.map { Array($0.unicodeScalars) },
        "\(json)")
    }
  }

  @Test func setsAndOptionalsAsMembersDecodeAsInFoundation() {
    let good = #"{"tags":["a","b","a"],"ids":[3,1],"notes":["x",null],"nested":"n"}"#
    expectSameDecoding(Tagged.self, good)
    expectSameDecoding(
      Tagged.self, #"{"tags":[],"ids":null,"notes":[],"nested":null}"#)
    expectSameDecoding(Tagged.self, #"{"tags":["a",1],"notes":[]}"#)
    expectSameDecoding(Tagged.self, #"{"tags":["a"],"ids":[1,"2"],"notes":[]}"#)
    expectSameDecoding(Tagged.self, #"{"tags":["a"],"notes":[null,2]}"#)
    expectSameDecoding(Tagged.self, #"{"tags":{},"notes":[]}"#)
    expectSameDecoding(Tagged.self, #"{"tags":["a"],"notes":[],"nested":5}"#)
    expectSameDecoding(
      Tagged.self, #"{"Tags":["a"],"notes":[]}"#, keys: .convertFromSnakeCase)
  }
}
