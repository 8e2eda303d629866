import Foundation
import JSONKit
import Testing

/// JSONKit's writer against Foundation's `JSONEncoder` on the same values.
///
/// `JSONEncoder` sees a `JSONValue` through its `Encodable` conformance, so
/// these tests also rest on that conformance; WriterTests and
/// StringEscapingTests pin the rules with hand-written bytes.
@Suite("Writer against JSONEncoder")
struct WriterOracleTests {
  /// `.sortedKeys` with each subset of the other options JSONEncoder has.
  /// (Without `.sortedKeys`, JSONEncoder on Linux orders keys at random.)
  static let optionSets: [JKOutputFormatting] = [
    [.sortedKeys],
    [.sortedKeys, .prettyPrinted],
    [.sortedKeys, .withoutEscapingSlashes],
    [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes],
  ]

  static func foundationBytes(_ value: JSONValue, _ options: JKOutputFormatting) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = JSONEncoder.OutputFormatting(rawValue: options.rawValue)
    return try encoder.encode(value)
  }

  @Test(arguments: optionSets)
  func randomValuesMatchJSONEncoder(options: JKOutputFormatting) throws {
    var generator = JSONValueGenerator(seed: 0x5EED_0000 | UInt64(options.rawValue))
    for _ in 0..<1000 {
      let value = generator.value(depth: 4)
      let theirs = try Self.foundationBytes(value, options)
      if ReadBack.holdsUnreadableScalar(theirs) {
        // The documented difference: JSONKit does not write what it cannot read.
        let error = #expect(throws: EncodingError.self) { try value.jsonData(options: options) }
        #expect(error.map(ReadBack.isUnreadableScalarError) == true)
        continue
      }
      let ours = try value.jsonData(options: options)
      #expect(ours == theirs, "\(value.debugDescription)")
      if ours != theirs { return }
    }
  }

  @Test(arguments: optionSets)
  func handPickedValuesMatchJSONEncoder(options: JKOutputFormatting) throws {
    let values: [JSONValue] = [
      nil, true, false, 0, -1, .int(.min), .int(.max), .uint(.max), 0.5, -0.0, 1e-7,
      1e16, .double(.greatestFiniteMagnitude), .double(.leastNonzeroMagnitude), "",
      "a/b\"c\\d\u{1}\u{1F}\u{7F}\u{2028}é😀",
      [], [:], [[]], [[:]], ["a": [], "b": [:], "c": [[], [:]]],
      [
        "b": 1, "a": 2, "B": 3, "é": 4, "10": 5, "9": 6, "_": 7, "": 8, "\u{10000}": 9,
        "\u{FFFD}": 10,
      ],
      [1, [2, [3, ["x": [true, nil]]]]],
    ]
    for value in values {
      #expect(try value.jsonData(options: options) == Self.foundationBytes(value, options))
    }
  }

  @Test func corpusFilesMatchJSONEncoder() throws {
    // Small real-world documents, round-tripped through JSONSerialization.
    let documents = [
      #"{"id":1,"text":"RT @a: http:\/\/t.co\/x — ☕","user":{"name":"Zoë","followers":12},"geo":null,"ok":true,"r":0.25}"#,
      #"[{"type":"Feature","coordinates":[[-65.613616999999977,43.420273000000009],[1e-05,2]]}]"#,
    ]
    for document in documents {
      let object = try JSONSerialization.jsonObject(with: Data(document.utf8))
      let value = try JSONDecoder().decode(
        JSONValue.self, from: JSONSerialization.data(withJSONObject: object))
      for options in Self.optionSets {
        #expect(try value.jsonData(options: options) == Self.foundationBytes(value, options))
      }
    }
  }
}
