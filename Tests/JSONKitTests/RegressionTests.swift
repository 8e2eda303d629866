import Foundation
import JSONKit
import Testing

/// Inputs that once got a wrong value, a wrong error, a hang or a crash
/// (found by the fuzz targets and the hostile-input tests), each with the
/// answer it gets now.
@Suite("Regressions")
struct RegressionTests {
  // MARK: - Text after the value

  private static func permissive(_ extra: JKParseOptions = []) -> JKDecoder {
    let decoder = JKDecoder()
    decoder.parseOptions = extra.union(.permitTextAfterValidJSON)
    return decoder
  }

  /// A top-level number followed by text that looks like more of a number
  /// was read with that text: `12.5.3` as the Decimal 12.53, `123-4` as -1234.
  @Test func aNumberEndsWhereItsGrammarEnds() throws {
    let decoder = Self.permissive()
    #expect(try decoder.decode(Decimal.self, from: "12.5.3") == Decimal(string: "12.5"))
    #expect(try decoder.decode(Decimal.self, from: "123-4") == 123)
    #expect(try decoder.decode(Decimal.self, from: "1e5e5") == 100_000)
    #expect(try decoder.decode(Decimal.self, from: "-0.5+1") == Decimal(string: "-0.5"))
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      let text = "123456789012345678901234567890"
      #expect(try decoder.decode(Int128.self, from: text + "-7") == Int128(text))
      #expect(try decoder.decode(UInt128.self, from: text + "+7") == UInt128(text))
    }
    do {
      _ = try decoder.decode(UInt8.self, from: "300-1")
      Issue.record("decoded 300 as UInt8")
    } catch let error as DecodingError {
      guard case .dataCorrupted(let context) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(
        context.wordsWithoutLocation(error.jsonLocation) == "Number 300 does not fit in UInt8.")
    }
  }

  /// With comments on, an unclosed comment (or ill-formed UTF-8 in one)
  /// after the value made the whole document an error, though text after
  /// the value is to be ignored.
  @Test func whateverFollowsTheValueIsIgnored() throws {
    let options: JKParseOptions = [.comments, .permitTextAfterValidJSON]
    #expect(try JSONValue(parsing: "1 /* never closed", options: options) == 1)
    #expect(try JSONValue(parsing: Array("[1] // ".utf8) + [0xFF], options: options) == [1])
    #expect(try JSONValue(parsing: #"{"a":"`"}/*/"#, options: options) == ["a": "`"])
    #expect(try Self.permissive(.comments).decode([Int].self, from: "[2]/*") == [2])
    // Without the option the same text is still an error.
    #expect(throws: JKParseError.self) {
      try JSONValue(parsing: "1 /* never closed", options: .comments)
    }
  }

  // MARK: - Numbers

  /// Floats were rounded from the Double nearest the text, so a number just
  /// above the midpoint of two Floats whose Double is that midpoint rounded
  /// to the even Float, not up. Foundation (and the standard library's
  /// `Float(_:)`) round once, from the text.
  @Test(arguments: [
    "1.000000059604644776257986737988403547205962240695953369140625",
    "-1.000000059604644776257986737988403547205962240695953369140625",
    "1152921573326323713",  // 2^60 + 2^36 + 1
    "-1152921573326323713",
    // 2^70 + 2^46 + 1, beyond 64 bits: with a fraction, since an integer
    // literal that long is an error for a Float.
    "1180591691086155481089.0",
    "3.4028235e38",
    "1.4e-45",
    "0.1",
  ])
  func floatsRoundOnceFromTheText(_ text: String) throws {
    let expected = try #require(Float(text))
    let ours = try JKDecoder().decode([Float].self, from: "[\(text)]")
    let foundation = try JSONDecoder().decode([Float].self, from: Data("[\(text)]".utf8))
    #expect(ours.map(\.bitPattern) == [expected.bitPattern])
    #expect(ours.map(\.bitPattern) == foundation.map(\.bitPattern))
  }

  /// Decimal's significand holds 39-digit numbers up to 2^128 − 1, which
  /// `JKEncoder` writes; decoding refused any number of more than 38 digits,
  /// so such Decimals did not survive a round trip.
  @Test func decimalsUseTheWholeSignificand() throws {
    let largest = "340282366920938463463374607431768211455"
    for text in [
      largest, "-" + largest, "3.40282366920938463463374607431768211455e-90", largest + "e20",
    ] {
      let expected = try #require(Decimal(string: text))
      #expect(try JKDecoder().decode([Decimal].self, from: "[\(text)]") == [expected], "\(text)")
      #expect(try JSONDecoder().decode([Decimal].self, from: Data("[\(text)]".utf8)) == [expected])
    }
    for exponent in [-128, -5, 0, 7, 127] {
      let value = Decimal(
        sign: .plus, exponent: exponent, significand: try #require(Decimal(string: largest)))
      let encoded = try JKEncoder().encode([value])
      #expect(
        try JKDecoder().decode([Decimal].self, from: encoded) == [value], "exponent \(exponent)")
    }
    // One more, and the number no longer fits: an error, not a rounded value.
    #expect(throws: DecodingError.self) {
      try JKDecoder().decode([Decimal].self, from: "[340282366920938463463374607431768211456]")
    }
    #expect(throws: DecodingError.self) {
      try JKDecoder().decode([Decimal].self, from: "[1234567890123456789012345678901234567891]")
    }
  }

  // MARK: - Coding paths

  /// A value that tries one type and falls back to another, as many models
  /// do; each failed try builds an error with its coding path.
  struct IntOrString: Decodable {
    var path: [String]

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if (try? container.decode(Int.self)) == nil {
        _ = try container.decode(String.self)
      }
      path = decoder.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
    }
  }

  /// Every failed try rebuilt its coding path by walking all the earlier
  /// elements, so a large array of them took quadratic time (40,000
  /// elements took a second; a million would take ten minutes, and these
  /// hundred thousand over a minute in a debug build).
  @Test func failedTriesOnManyElementsTakeLinearTime() throws {
    let count = 100_000
    let json = "[" + Array(repeating: #""x""#, count: count).joined(separator: ",") + "]"
    let values = try JKDecoder().decode([IntOrString].self, from: json)
    #expect(values.count == count)
    #expect(values.last?.path == ["\(count - 1)"])
  }

  /// The paths rebuilt from where the last walk stopped are the paths:
  /// forwards through nested arrays and objects, and backwards too.
  @Test func resumedCodingPathsAreRight() throws {
    let json = #"[[1,"a",2],{"k":"b","l":[3,"c"]},["d",{"m":"e"}]]"#
    struct Nested: Decodable {
      var paths: [[String]] = []
      init(from decoder: any Decoder) throws {
        var outer = try decoder.unkeyedContainer()
        paths += try outer.decode([IntOrString].self).map(\.path)
        let object = try outer.nestedContainer(keyedBy: AnyKey.self)
        // Backwards: the later member first.
        paths += try object.decode([IntOrString].self, forKey: AnyKey("l")).map(\.path)
        paths.append(try object.decode(IntOrString.self, forKey: AnyKey("k")).path)
        var last = try outer.nestedUnkeyedContainer()
        paths.append(try last.decode(IntOrString.self).path)
        let inner = try last.nestedContainer(keyedBy: AnyKey.self)
        paths.append(try inner.decode(IntOrString.self, forKey: AnyKey("m")).path)
      }
    }
    let paths = try JKDecoder().decode(Nested.self, from: json).paths
    #expect(
      paths == [
        ["0", "0"], ["0", "1"], ["0", "2"], ["1", "l", "0"], ["1", "l", "1"], ["1", "k"],
        ["2", "0"], ["2", "1", "m"],
      ])
  }

  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  // MARK: - JSONValue under key strategies

  /// Decoded through keyed containers, as Foundation decodes it, a
  /// `JSONValue`'s object keys go through the key strategy; JSONKit built
  /// it with the keys as written, so under `.convertFromSnakeCase` a value
  /// that `JKEncoder` had written with `.convertToSnakeCase` came back with
  /// different keys.
  @Test func jsonValuesFollowTheKeyStrategy() throws {
    let json = Data(
      #"{"top_key":{"a_b":1,"aB":2,"c_d":[{"e_f":null}],"gH":{}},"_x_":[{"y_z":{"z_a":true}}]}"#
        .utf8)
    let strategies: [JSONDecoder.KeyDecodingStrategy] = [
      .useDefaultKeys, .convertFromSnakeCase,
      .custom { path in AnyKey(path.last!.stringValue.uppercased() + "\(path.count)") },
    ]
    for strategy in strategies {
      let ours = JKDecoder()
      ours.keyDecodingStrategy = strategy
      let theirs = JSONDecoder()
      theirs.keyDecodingStrategy = strategy
      let expected = try theirs.decode([String: JSONValue].self, from: json)
      let decoded = try ours.decode([String: JSONValue].self, from: json)
      #expect(decoded == expected, "\(strategy)")
      #expect(
        try ours.decode(JSONValue.self, from: json) == theirs.decode(JSONValue.self, from: json))
    }

    struct Holder: Codable, Equatable { var someValue: JSONValue }
    let holder = Holder(someValue: ["innerKey": ["deeperKey": 1]])
    let encoder = JKEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    let decoder = JKDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let encoded = try encoder.encode(holder)
    #expect(
      String(decoding: encoded, as: UTF8.self) == #"{"some_value":{"inner_key":{"deeper_key":1}}}"#)
    #expect(try decoder.decode(Holder.self, from: encoded) == holder)
  }

  /// snake_case conversion is not one-to-one, and a few keys never settle:
  /// Foundation turns `aB'c` into `aB'C` and back again on alternate round
  /// trips. The round-trip fuzz target took a `JSONValue` key that changed
  /// on a second round trip for a JSONKit fault; JSONKit converts it as
  /// Foundation does at every step. Keys that a conversion makes alike keep
  /// one member: the value encoded last when written, the first in the text
  /// when read (so `.sortedKeys` can decide which), as with Foundation.
  @Test func snakeCaseRoundTripsConvertJSONValueKeysAsFoundationDoes() throws {
    struct Holder: Codable, Equatable { var someValue: JSONValue }
    let ours = (JKEncoder(), JKDecoder())
    let theirs = (JSONEncoder(), JSONDecoder())
    ours.0.keyEncodingStrategy = .convertToSnakeCase
    ours.1.keyDecodingStrategy = .convertFromSnakeCase
    theirs.0.keyEncodingStrategy = .convertToSnakeCase
    theirs.1.keyDecodingStrategy = .convertFromSnakeCase

    var mine = Holder(someValue: ["aB'c": 1, "aB-c": [["y`E24'did": 2]], "Any": 3])
    var foundations = mine
    var keys: [[String]] = []
    for _ in 0..<4 {
      mine = try ours.1.decode(Holder.self, from: ours.0.encode(mine))
      foundations = try theirs.1.decode(Holder.self, from: theirs.0.encode(foundations))
      #expect(mine == foundations)
      keys.append(mine.someValue.objectValue?.keys.filter { $0.hasPrefix("aB") }.sorted() ?? [])
    }
    #expect(keys == [["aB'C", "aB-C"], ["aB'c", "aB-C"], ["aB'C", "aB-C"], ["aB'c", "aB-C"]])

    let alike = Holder(someValue: ["Ab": 1, "ab": 2, "c": ["X": true, "x": false]])
    let expected = try theirs.1.decode(Holder.self, from: theirs.0.encode(alike))
    #expect(expected.someValue == ["ab": 2, "c": ["x": false]])
    #expect(try ours.1.decode(Holder.self, from: ours.0.encode(alike)) == expected)

    // `xY}M` and `xY}m` are written `x_y}m` and `x_y_}m`, which both read
    // back as `xY}M`: the first in the text wins, so sorting decides which.
    let apart = Holder(someValue: ["xY}M": 1, "xY}m": 2])
    #expect(try ours.1.decode(Holder.self, from: ours.0.encode(apart)).someValue == ["xY}M": 1])
    ours.0.outputFormatting = .sortedKeys
    theirs.0.outputFormatting = .sortedKeys
    let sorted = try theirs.1.decode(Holder.self, from: theirs.0.encode(apart))
    #expect(sorted.someValue == ["xY}M": 2])
    #expect(try ours.1.decode(Holder.self, from: ours.0.encode(apart)) == sorted)
  }

  // MARK: - JSONValue in JKEncoder

  struct Envelope: Encodable {
    var id: Int
    var payload: JSONValue
    var list: [JSONValue]
  }

  /// `JKEncoder` once encoded a `JSONValue` through its Codable conformance,
  /// a call-stack frame per level, and overflowed a 512 KiB stack before
  /// the nesting limit. It writes the value in one pass now; the bytes are
  /// still Foundation's, at any indentation, under every option set.
  @Test func jsonValuesInsideModelsEncodeAsFoundationEncodesThem() throws {
    let payload: JSONValue = [
      "b": [1, 2.5, "x/y", nil, [:], [], ["deep": [true, ["é": -0.0]]]],
      "a": ["z": 1, "y": [[]]],
    ]
    let envelope = Envelope(id: 7, payload: payload, list: [payload, [], 3])
    for bits in 0..<8 {
      var ours: JKOutputFormatting = [.sortedKeys]
      var theirs: JSONEncoder.OutputFormatting = [.sortedKeys]
      if bits & 1 != 0 {
        ours.insert(.prettyPrinted)
        theirs.insert(.prettyPrinted)
      }
      if bits & 2 != 0 {
        ours.insert(.withoutEscapingSlashes)
        theirs.insert(.withoutEscapingSlashes)
      }
      let encoder = JKEncoder()
      encoder.outputFormatting = ours
      let foundation = JSONEncoder()
      foundation.outputFormatting = theirs
      if bits & 4 != 0 {
        // Keys under a strategy are converted, as Codable would.
        encoder.keyEncodingStrategy = .convertToSnakeCase
        foundation.keyEncodingStrategy = .convertToSnakeCase
      }
      #expect(try encoder.encode(envelope) == foundation.encode(envelope), "\(bits)")
      #expect(try encoder.encode(payload) == foundation.encode(payload), "\(bits)")
      let late = LateContainer(payload: payload)
      #expect(try encoder.encode(late) == foundation.encode(late), "\(bits)")
    }
  }

  /// Writes into a nested container after a later sibling, which sends
  /// `JKEncoder` down its tree path.
  struct LateContainer: Encodable {
    var payload: JSONValue

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      var first = container.nestedUnkeyedContainer(forKey: AnyKey("first"))
      var second = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("second"))
      try second.encode(payload, forKey: AnyKey("inner"))
      try first.encode(payload)
      try first.encode([payload])
    }
  }

  @Test func nonConformingFloatsInJSONValuesFollowTheStrategy() throws {
    let envelope = Envelope(id: 1, payload: ["n": [1, .double(.nan)]], list: [.double(-.infinity)])
    let encoder = JKEncoder()
    let foundation = JSONEncoder()
    do {
      _ = try encoder.encode(envelope)
      Issue.record("encoded NaN")
    } catch EncodingError.invalidValue(_, let context) {
      #expect(context.codingPath.map(\.stringValue) == ["payload", "n", "Index 1"])
      do {
        _ = try foundation.encode(envelope)
      } catch EncodingError.invalidValue(_, let theirs) {
        #expect(context.codingPath.map(\.stringValue) == theirs.codingPath.map(\.stringValue))
      }
    }
    let strategy = JSONEncoder.NonConformingFloatEncodingStrategy.convertToString(
      positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    encoder.nonConformingFloatEncodingStrategy = strategy
    foundation.nonConformingFloatEncodingStrategy = strategy
    encoder.outputFormatting = .sortedKeys
    foundation.outputFormatting = .sortedKeys
    #expect(try encoder.encode(envelope) == foundation.encode(envelope))
  }
}
