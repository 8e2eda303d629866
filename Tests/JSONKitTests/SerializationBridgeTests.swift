import Foundation
import JSONKit
import Testing

/// `JKSerialization`: the `Any` bridge, with Foundation's JSONSerialization as
/// the reference for the shape of the values.
@Suite("Any bridge")
struct SerializationBridgeTests {
  @Test func parsesToFoundationShapes() throws {
    let data = Data(
      #"{"s":"x","i":-3,"d":1.5,"t":true,"f":false,"n":null,"a":[1,"b"],"o":{"k":2}}"#.utf8)
    let object = try #require(try JKSerialization.jsonObject(with: data) as? [String: Any])
    #expect(object["s"] as? String == "x")
    #expect(object["i"] as? Int == -3)
    #expect(object["d"] as? Double == 1.5)
    #expect(object["t"] as? Bool == true)
    #expect(object["f"] as? Bool == false)
    #expect(object["n"] is NSNull)
    let array = try #require(object["a"] as? [Any])
    #expect(array.count == 2 && array[0] as? Int == 1 && array[1] as? String == "b")
    #expect((object["o"] as? [String: Any])?["k"] as? Int == 2)
    #expect(
      try JKSerialization.jsonObject(with: Data("18446744073709551615".utf8)) as? UInt64 == .max)
  }

  @Test func writesWhatItParsesAndWhatFoundationParses() throws {
    let text = #"{"a":[1,2.5,"x",true,null,{"b":[]}],"c":-9223372036854775808}"#
    for parsed in [
      try JKSerialization.jsonObject(with: Data(text.utf8)),
      try JSONSerialization.jsonObject(with: Data(text.utf8)),
    ] {
      let written = try JKSerialization.data(withJSONObject: parsed, options: .sortedKeys)
      #expect(try JSONValue(parsing: written) == (try JSONValue(parsing: text)))
    }
  }

  @Test func booleansStayBooleansAndNumbersStayNumbers() throws {
    let values: [Any] = [
      true, false, 1, 0, NSNumber(value: true), NSNumber(value: 0), NSNumber(value: 2.5),
      NSNumber(value: UInt64.max), Int8(-1), UInt16(7), Float(0.5),
    ]
    let written = try JKSerialization.data(withJSONObject: values)
    #expect(
      String(decoding: written, as: UTF8.self)
        == "[true,false,1,0,true,0,2.5,18446744073709551615,-1,7,0.5]")
  }

  /// Floats and Decimals are written as JSONSerialization writes them: a
  /// Float by its own shortest text, a Decimal by its exact value.
  @Test func floatsAndDecimalsAsFoundationWritesThem() throws {
    let values: [Any] = [
      Float(0.1), Float(3.4e38), NSNumber(value: Float(1.1)), Decimal(string: "1.5")!,
      Decimal(string: "-12345678901234567")!, NSDecimalNumber(string: "0.25"),
      Decimal(string: "18446744073709551615")!,
    ]
    let written = String(decoding: try JKSerialization.data(withJSONObject: values), as: UTF8.self)
    #expect(
      written == "[0.1,3.4e+38,1.1,1.5,-12345678901234567,0.25,18446744073709551615]")
    let foundation = try JSONSerialization.data(withJSONObject: Array(values.prefix(3)))
    #expect(String(decoding: foundation, as: UTF8.self) == "[0.1,3.4e+38,1.1]")
    // A Decimal that no 64-bit integer or Double holds exactly is refused.
    #expect(throws: EncodingError.self) {
      try JKSerialization.data(withJSONObject: [Decimal(string: "0.12345678901234567890123")!])
    }
  }

  @Test func rejectsWhatIsNotJSON() throws {
    #expect(throws: EncodingError.self) { try JKSerialization.data(withJSONObject: [1: "a"]) }
    #expect(throws: EncodingError.self) { try JKSerialization.data(withJSONObject: [Double.nan]) }
    #expect(throws: EncodingError.self) { try JKSerialization.data(withJSONObject: [Date()]) }
    #expect(!JKSerialization.isValidJSONObject(["k": [Double.infinity]]))
    #expect(JKSerialization.isValidJSONObject(["k": [1, "x", NSNull()]]))
    // What JSONKit's reader would reject, JSONKit does not write.
    #expect(!JKSerialization.isValidJSONObject(["k": ["x\u{0}"]]))
    do {
      _ = try JKSerialization.data(withJSONObject: ["k": [1, "\u{FFFF}"]])
      Issue.record("U+FFFF was written")
    } catch EncodingError.invalidValue(_, let context) {
      #expect(context.codingPath.map(\.stringValue) == ["k", "Index 1"])
    }
    do {
      _ = try JKSerialization.data(withJSONObject: ["a": [1, ["b": Data()]]])
      Issue.record("Data was written")
    } catch EncodingError.invalidValue(_, let context) {
      #expect(context.codingPath.map(\.stringValue) == ["a", "Index 1", "b"])
    }
    #expect(throws: JKParseError.self) { try JKSerialization.jsonObject(with: Data("[1,]".utf8)) }
  }

  @Test func optionsApply() throws {
    let data = try JKSerialization.data(
      withJSONObject: ["b": 1, "a": ["/"]], options: [.sortedKeys, .prettyPrinted])
    #expect(
      String(decoding: data, as: UTF8.self) == "{\n  \"a\" : [\n    \"\\/\"\n  ],\n  \"b\" : 1\n}")
    let parsed = try JKSerialization.jsonObject(with: Data("// c\n[1]".utf8), options: .comments)
    #expect(parsed as? [Int] == [1])
  }
}
