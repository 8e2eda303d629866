import Foundation
import JSONKit
import Testing

/// Arrays of numbers, strings and Bools, of the value types Foundation reads
/// specially (`Date`, `UUID`, `Data`, `URL`, `Decimal`), and arrays of
/// arrays are read by code written for their element type; values and
/// errors stay Foundation's.
extension FoundationParityTests {
  /// Arrays on both sides of the length read onto the stack, the error (if
  /// any) placed at the last element.
  static func arrays(of elements: [String], last: String) -> [String] {
    [1, 2, 31, 32, 33, 100].map { count in
      "[" + (0..<(count - 1)).map { elements[$0 % elements.count] + "," }.joined() + last + "]"
    }
  }

  @Test func arraysOfEachLeafTypeDecodeAsInFoundation() {
    let numbers = ["0", "-1", "2.5", "1e2", "-0", "127", "18446744073709551615", "-1e-7"]
    for json in ["[]"] + Self.arrays(of: numbers, last: "3") {
      expectSameDecoding([Double].self, json)
      expectSameDecoding([Float].self, json)
    }
    // Integers that every integer type holds.
    for json in ["[]"] + Self.arrays(of: ["0", "7", "127", "-0", "100"], last: "3") {
      expectSameDecoding([Int].self, json)
      expectSameDecoding([Int8].self, json)
      expectSameDecoding([Int16].self, json)
      expectSameDecoding([Int32].self, json)
      expectSameDecoding([Int64].self, json)
      expectSameDecoding([UInt].self, json)
      expectSameDecoding([UInt8].self, json)
      expectSameDecoding([UInt16].self, json)
      expectSameDecoding([UInt32].self, json)
      expectSameDecoding([UInt64].self, json)
    }
    for json in ["[]"] + Self.arrays(of: ["true", "false"], last: "true") {
      expectSameDecoding([Bool].self, json)
    }
    for json in ["[]"] + Self.arrays(of: ["\"a\"", "\"\\u00e9\"", "\"\""], last: "\"z\"") {
      expectSameDecoding([String].self, json)
    }
  }

  @Test func anElementOfTheWrongKindFailsAtItsIndexAsInFoundation() {
    for last in ["null", "\"1\"", "true", "[1]", "{}"] {
      for json in Self.arrays(of: ["1", "2"], last: last) {
        expectSameDecoding([Double].self, json)
        expectSameDecoding([Float].self, json)
        expectSameDecoding([Int].self, json)
        expectSameDecoding([UInt8].self, json)
        expectSameDecoding([Bool].self, json)
        expectSameDecoding([String].self, json)
      }
    }
  }

  @Test func arraysOfArraysDecodeAndFailAsInFoundation() {
    let rows = ["[1,2]", "[]", "[-3,40,5]"]
    for last in ["[6,7]", "null", "1", "\"x\"", "{}", "[1,null]", "[[1]]", "[1,\"2\"]"] {
      for json in Self.arrays(of: rows, last: last) {
        expectSameDecoding([[Double]].self, json)
        expectSameDecoding([[Int]].self, json)
        expectSameDecoding([[Int64]].self, json)
        expectSameDecoding([[Float]].self, json)
        expectSameDecoding([[[Double]]].self, "[" + json + "]")
        expectSameDecoding([[Double]?].self, json)
      }
    }
    expectSameDecoding([[Double]].self, #"[[1.5,2e1],[-0.25]]"#)
    expectSameDecoding([[String]].self, #"[["a"],[],["b","c"]]"#)
    expectSameDecoding([[Bool]].self, #"[[true],[false,"no"]]"#)
  }

  @Test func arraysOfOptionalLeavesAndOfModelsDecodeAsInFoundation() {
    struct Point: Codable, Equatable {
      let x: Double
      let y: Double
    }
    expectSameDecoding([Double?].self, "[1,null,2.5]")
    expectSameDecoding([Int?].self, "[1,null,\"2\"]")
    expectSameDecoding([Point].self, #"[{"x":1,"y":2},{"x":3,"y":4.5}]"#)
    expectSameDecoding([Point].self, #"[{"x":1,"y":2},{"x":3}]"#)
    expectSameDecoding([[Point]].self, #"[[{"x":1,"y":2}],[],[{"x":3,"y":"4"}]]"#)
    expectSameDecoding([String: [Double]].self, #"{"a":[1,2],"b":[3,"4"]}"#)
  }

  @Test func arraysOfFoundationValueTypesDecodeAndFailAsInFoundation() {
    let uuid = "\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\""
    let wrongKinds = ["null", "1", "true", "[]", "{}"]
    for last in [uuid, "\"e621e1f8-c36c-495a-93fc-0c247a3e6e5f\"", "\"E621E1F8\""] + wrongKinds {
      for json in Self.arrays(of: [uuid], last: last) { expectSameDecoding([UUID].self, json) }
    }
    for last in ["\"QUJD\"", "\"\"", "\"QQ==\"", "\"Q\"", "\"QU JD\""] + wrongKinds {
      for json in Self.arrays(of: ["\"QUJDRA==\"", "\"\""], last: last) {
        expectSameDecoding([Data].self, json)
      }
    }
    for last in ["\"https://example.com/a?b=c\"", "\"\"", "\"a b\""] + wrongKinds {
      for json in Self.arrays(of: ["\"https://example.com\"", "\"/relative\""], last: last) {
        expectSameDecoding([URL].self, json)
      }
    }
    for last in ["3", "-0.5", "1e-3", "\"3\""] + wrongKinds {
      for json in Self.arrays(of: ["1234.56", "0", "-7"], last: last) {
        expectSameDecoding([Decimal].self, json)
      }
    }
    // Dates under each strategy that JSONKit reads itself.
    let dates: [(JSONDecoder.DateDecodingStrategy, [String])] = [
      (.deferredToDate, ["0", "-1.5", "7e8"]),
      (.secondsSince1970, ["0", "1700000000.25"]),
      (.millisecondsSince1970, ["1700000000250"]),
      (.iso8601, ["\"2024-05-06T07:08:09Z\"", "\"1969-12-31T23:59:59.5+01:00\""]),
    ]
    for (strategy, elements) in dates {
      for last in ["\"2024-05-06T07:08:09Z\"", "\"2024-05-06\"", "2.5"] + wrongKinds {
        for json in Self.arrays(of: elements, last: last) {
          let foundation = JSONDecoder()
          foundation.dateDecodingStrategy = strategy
          let jsonKit = JKDecoder()
          jsonKit.dateDecodingStrategy = strategy
          let expected = DecodeParityOutcome {
            try foundation.decode([Date].self, from: Data(json.utf8))
          }
          let actual = DecodeParityOutcome {
            try jsonKit.decode([Date].self, from: Data(json.utf8))
          }
          #expect(actual == expected, "\(json) as [Date] (\(strategy))")
        }
      }
    }
  }

  /// JSONKit's documented difference: a number that does not fit its type
  /// is reported at its own coding path (Foundation reports it at the root).
  @Test func aNumberThatDoesNotFitItsElementTypeIsReportedAtItsIndex() {
    let cases: [(json: String, decode: (JKDecoder, Data) throws -> Void, path: [Int])] = [
      ("[1,2,300]", { _ = try $0.decode([UInt8].self, from: $1) }, [2]),
      ("[1,-1]", { _ = try $0.decode([UInt].self, from: $1) }, [1]),
      ("[1,2.5]", { _ = try $0.decode([Int].self, from: $1) }, [1]),
      ("[[1],[2,1e40]]", { _ = try $0.decode([[Float]].self, from: $1) }, [1, 1]),
      (
        "[" + String(repeating: "1,", count: 40) + "18446744073709551615]",
        { _ = try $0.decode([Int64].self, from: $1) }, [40]
      ),
    ]
    for (json, decode, path) in cases {
      let data = Data(json.utf8)
      do {
        try decode(JKDecoder(), data)
        Issue.record("\(json) decoded")
      } catch DecodingError.dataCorrupted(let context) {
        #expect(context.codingPath.map(\.intValue) == path, "\(json)")
      } catch {
        Issue.record("\(json): \(error)")
      }
    }
  }
}
