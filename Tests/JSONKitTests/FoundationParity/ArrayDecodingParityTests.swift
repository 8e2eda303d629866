import Foundation
import JSONKit
import Testing

/// Arrays of numbers, strings and Bools, and arrays of arrays, are read by
/// code written for their element type; values and errors stay Foundation's.
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
