import Foundation
import JSONKit
import Testing

@Suite("Writer")
struct WriterTests {
  static let sample: JSONValue = [
    "b": [1, "x", [], [:], [[]], ["k": nil]],
    "a": ["z": true, "y": 2.5],
    "é": "/",
  ]

  @Test func compactKeepsMemberOrder() throws {
    #expect(
      try Self.sample.jsonString()
        == #"{"b":[1,"x",[],{},[[]],{"k":null}],"a":{"z":true,"y":2.5},"é":"\/"}"#)
  }

  @Test func scalarsAtTopLevel() throws {
    #expect(try JSONValue.null.jsonString() == "null")
    #expect(try JSONValue.bool(true).jsonString() == "true")
    #expect(try JSONValue.bool(false).jsonString() == "false")
    #expect(try JSONValue.int(-12).jsonString() == "-12")
    #expect(try JSONValue.uint(.max).jsonString() == "18446744073709551615")
    #expect(try JSONValue.double(2).jsonString() == "2")
    #expect(try JSONValue.string("s").jsonString(options: .prettyPrinted) == #""s""#)
  }

  /// JSONEncoder's pretty layout: two spaces per level, " : ", and an empty
  /// container as its brackets around two line breaks and the indentation of
  /// its own line.
  @Test func prettyLayout() throws {
    let expected = """
      {
        "b" : [
          1,
          "x",
          [

          ],
          {

          },
          [
            [

            ]
          ],
          {
            "k" : null
          }
        ],
        "a" : {
          "z" : true,
          "y" : 2.5
        },
        "é" : "\\/"
      }
      """
    #expect(try Self.sample.jsonString(options: .prettyPrinted) == expected)
    #expect(try JSONValue.array([]).jsonString(options: .prettyPrinted) == "[\n\n]")
    #expect(try JSONValue.object([:]).jsonString(options: .prettyPrinted) == "{\n\n}")
  }

  /// JSONSerialization agrees with JSONEncoder on the pretty layout (though
  /// not on key order: it sorts "_" before "9" before "10" before "a" before
  /// "B").
  @Test func prettyLayoutMatchesJSONSerialization() throws {
    let value: JSONValue = ["list": [1, [], ["x": [:]]], "empty": [:]]
    let object = try JSONSerialization.jsonObject(with: value.jsonData())
    let theirs = try JSONSerialization.data(
      withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    #expect(try value.jsonData(options: [.prettyPrinted, .sortedKeys]) == theirs)
  }

  /// Keys sort by their UTF-8 bytes, which is also scalar order.
  @Test func sortedKeysUseUTF8ByteOrder() throws {
    let value: JSONValue = [
      "a": 0, "B": 0, "é": 0, "10": 0, "9": 0, "_": 0, "": 0, "aa": 0, "Z": 0,
      "\u{FFFD}": 0, "\u{10000}": 0, "\u{E000}": 0, "e\u{302}": 0, "f": 0,
    ]
    let expected =
      #"{"":0,"10":0,"9":0,"B":0,"Z":0,"_":0,"a":0,"aa":0,"e\#u{302}":0,"f":0,"é":0,"\#u{E000}":0,"\#u{FFFD}":0,"\#u{10000}":0}"#
    #expect(try value.jsonString(options: .sortedKeys) == expected)
  }

  /// Keys that agree in their first sixteen bytes or more, or end early.
  @Test func sortedKeysWithLongSharedPrefixes() throws {
    let stem = "abcdefghijklmnop"
    let keys = [
      stem + "z", stem, stem + "a", stem + "\u{1}", stem + "é", "abcdefgh", "abcdefghi",
      stem + "aa", stem + "a\u{1}", "abcdefg", "b",
    ]
    let value = JSONValue.object(JSONObject(keys.map { ($0, JSONValue.int(0)) }))
    let sorted = keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    let expected = "{" + sorted.map { JSONValue.quote($0) + ":0" }.joined(separator: ",") + "}"
    #expect(try value.jsonString(options: .sortedKeys) == expected)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(try value.jsonData(options: .sortedKeys) == encoder.encode(value))
  }

  @Test func sortedKeysApplyAtEveryLevel() throws {
    let value: JSONValue = ["b": [["d": 1, "c": 2]], "a": ["f": 3, "e": 4]]
    #expect(
      try value.jsonString(options: .sortedKeys) == #"{"a":{"e":4,"f":3},"b":[{"c":2,"d":1}]}"#)
  }

  @Test func bytesDataAndStringAgree() throws {
    for options: JKOutputFormatting in [[], .prettyPrinted, [.sortedKeys, .escapeUnicode]] {
      let bytes = try Self.sample.jsonBytes(options: options)
      #expect(Data(bytes) == (try Self.sample.jsonData(options: options)))
      #expect(
        String(decoding: bytes, as: UTF8.self) == (try Self.sample.jsonString(options: options)))
    }
  }

  @Test func nonFiniteDoublesThrowWithTheirPath() throws {
    let value: JSONValue = ["ok": 1, "list": [0, ["deep": .double(-.infinity)]]]
    do {
      _ = try value.jsonBytes()
      Issue.record("expected an error")
    } catch EncodingError.invalidValue(let invalid, let context) {
      #expect((invalid as? Double) == -.infinity)
      #expect(context.codingPath.map(\.stringValue) == ["list", "Index 1", "deep"])
      #expect(context.codingPath.map(\.intValue) == [nil, 1, nil])
      #expect(context.debugDescription == "Unable to encode Double.-inf directly in JSON.")
    }
    #expect(throws: EncodingError.self) { try JSONValue.double(.nan).jsonData() }
    #expect(throws: EncodingError.self) { try JSONValue.array([.double(.infinity)]).jsonString() }
  }

  @Test func descriptionIsCompactJSON() {
    #expect(Self.sample.description == (try? Self.sample.jsonString()))
    #expect(
      JSONValue.array([.double(.nan), .double(.infinity), .double(-.infinity)]).description
        == "[NaN,Infinity,-Infinity]")
    #expect("\(JSONValue.object(["a": [1.0]]))" == #"{"a":[1]}"#)
    let object: JSONObject = ["k": "v"]
    #expect(object.description == #"{"k":"v"}"#)
  }

  @Test func debugDescriptionShowsDoubles() {
    let value: JSONValue = [.int(1), .double(1), .uint(2), .double(-0.0), .double(.nan), "a"]
    #expect(value.debugDescription == #"[1,1.0,2,-0.0,nan,"a"]"#)
  }

  /// Writing keeps no call-stack frame per level: a value 10,000 levels deep
  /// is written on a thread whose stack holds far fewer recursive frames.
  @Test func deepNestingIsWrittenWithoutRecursion() throws {
    let depth = 10_000
    // Made and freed on a thread with a large stack, because releasing a
    // deep value recurses in the runtime whatever the writer does.
    let result = onThread(stackSize: 64 << 20) { () -> (arrays: String, objects: String)? in
      let values = DeepValues(depth: depth)
      // Unretained, so that the small thread never holds the last reference
      // (its closure may be released after the wait below returns).
      let unretained = Unmanaged.passUnretained(values)
      let texts = onThread(stackSize: 256 << 10) { () -> (String, String)? in
        let values = unretained.takeUnretainedValue()
        return ((try? values.arrays.jsonString()) ?? "", (try? values.objects.jsonString()) ?? "")
      }
      withExtendedLifetime(values) {}
      return texts
    }
    let output = try #require(result)
    #expect(
      output.arrays == String(repeating: "[", count: depth) + "0"
        + String(repeating: "]", count: depth))
    #expect(
      output.objects
        == String(repeating: #"{"k":"#, count: depth) + "0" + String(repeating: "}", count: depth))
  }

}

/// Values nested `depth` levels deep, as arrays and as objects.
private final class DeepValues: Sendable {
  let arrays: JSONValue
  let objects: JSONValue

  init(depth: Int) {
    var arrays: JSONValue = 0
    var objects: JSONValue = 0
    for _ in 0..<depth {
      arrays = [arrays]
      objects = ["k": objects]
    }
    self.arrays = arrays
    self.objects = objects
  }
}
