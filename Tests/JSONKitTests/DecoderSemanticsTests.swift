import Foundation
import JSONKit
import Testing

/// JKDecoder's Codable semantics: what it shares with Foundation and where it
/// is deliberately stricter.
@Suite("Decoder semantics")
struct DecoderSemanticsTests {
  struct Person: Codable, Equatable {
    var name: String
    var age: Int
    var email: String?
    var tags: [String]
    var friend: Friend?
  }

  struct Friend: Codable, Equatable {
    var id: Int8
    var scores: [String: Double]
  }

  static let json = #"""
    {"name":"Ada","age":36,"email":null,"tags":["a","b"],
     "friend":{"id":7,"scores":{"x":1.5,"y":-2}},"unknown":[1,{"deep":[true]}]}
    """#

  @Test func decodesLikeFoundation() throws {
    let ours = try JKDecoder().decode(Person.self, from: Self.json)
    let theirs = try JSONDecoder().decode(Person.self, from: Data(Self.json.utf8))
    #expect(ours == theirs)
  }

  private func failure<T: Decodable>(_ type: T.Type, _ json: String) -> DecodingError? {
    do {
      _ = try JKDecoder().decode(type, from: json)
      return nil
    } catch let error as DecodingError {
      return error
    } catch {
      Issue.record("not a DecodingError: \(error)")
      return nil
    }
  }

  private func path(_ error: DecodingError?) -> [String] {
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .keyNotFound(_, let context), .dataCorrupted(let context):
      return context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
    default:
      return ["<none>"]
    }
  }

  @Test func numberConversionsAreExactWithAPath() throws {
    let tooBig = failure(
      Person.self, #"{"name":"a","age":1,"tags":[],"friend":{"id":128,"scores":{}}}"#)
    guard case .dataCorrupted = tooBig else {
      Issue.record("expected dataCorrupted, got \(String(describing: tooBig))")
      return
    }
    #expect(path(tooBig) == ["friend", "id"])
    #expect(path(failure([Int].self, "[1, 1.5]")) == ["[1]"])
    #expect(path(failure([UInt].self, "[-1]")) == ["[0]"])
    #expect(try JKDecoder().decode([Int].self, from: "[1.0, 1e2, -0]") == [1, 100, 0])
  }

  @Test func errorsMatchFoundationsCases() throws {
    let missing = failure(Person.self, #"{"name":"a","tags":[]}"#)
    guard case .keyNotFound(let key, _) = missing else {
      Issue.record("expected keyNotFound, got \(String(describing: missing))")
      return
    }
    #expect(key.stringValue == "age")
    guard case .valueNotFound = failure(Person.self, #"{"name":null,"age":1,"tags":[]}"#) else {
      Issue.record("null for a non-optional is valueNotFound")
      return
    }
    let mismatch = failure(Person.self, #"{"name":"a","age":1,"tags":[1]}"#)
    guard case .typeMismatch = mismatch else {
      Issue.record("expected typeMismatch, got \(String(describing: mismatch))")
      return
    }
    #expect(path(mismatch) == ["tags", "[0]"])
  }

  @Test func syntaxErrorsSayWhere() throws {
    let error = failure(Person.self, "{\n  \"name\": tru\n}")
    guard case .dataCorrupted(let context) = error else {
      Issue.record("expected dataCorrupted, got \(String(describing: error))")
      return
    }
    #expect(context.codingPath.isEmpty)
    #expect(context.debugDescription.hasPrefix("The given data was not valid JSON. "))
    #expect(context.debugDescription.contains("around line 2, column 11"))
    #expect(context.debugDescription.contains("byte offset 12"))
    let underlying = try #require(context.underlyingError as? JKParseError)
    #expect(underlying.line == 2 && underlying.column == 11)
  }

  @Test func theWholeDocumentIsValidated() throws {
    // Foundation accepts this because it never looks at "unknown".
    let json = #"{"name":"a","age":1,"tags":[],"unknown":[1,}"#
    #expect(failure(Person.self, json) != nil)
  }

  @Test func wideIntegersAndDecimals() throws {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      let big = try JKDecoder().decode(
        [Int128].self,
        from:
          "[170141183460469231731687303715884105727, -170141183460469231731687303715884105728, 5]")
      #expect(big == [.max, .min, 5])
      #expect(failure([Int128].self, "[170141183460469231731687303715884105728]") != nil)
      #expect(
        try JKDecoder().decode([UInt128].self, from: "[340282366920938463463374607431768211455]")
          == [.max])
    }
    #expect(failure([Int64].self, "[18446744073709551616]") != nil)
    let decimals = try JKDecoder().decode(
      [Decimal].self, from: "[3.14159265358979323846264338327950288, 12345678901234567890123, 1e-5]"
    )
    #expect(decimals[0] == Decimal(string: "3.14159265358979323846264338327950288"))
    #expect(decimals[1] == Decimal(string: "12345678901234567890123"))
    #expect(decimals[2] == Decimal(string: "0.00001"))
    // Beyond 38 significant digits a Decimal would lose digits: an error.
    #expect(failure([Decimal].self, "[1.234567890123456789012345678901234567891]") != nil)
  }

  /// Decodes an Int if it can, else a String: the untyped-wrapper pattern.
  enum IntOrString: Decodable, Equatable {
    case int(Int)
    case string(String)
    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let value = try? container.decode(Int.self) {
        self = .int(value)
      } else {
        self = .string(try container.decode(String.self))
      }
    }
  }

  /// Keeps the elements that decode and skips the rest.
  struct Lossy<Element: Decodable>: Decodable {
    var elements: [Element] = []
    struct Skip: Decodable {}
    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      while !container.isAtEnd {
        if let element = try? container.decode(Element.self) {
          elements.append(element)
        } else {
          _ = try container.decode(Skip.self)
        }
      }
    }
  }

  @Test func failedDecodesLeaveContainersUsable() throws {
    #expect(
      try JKDecoder().decode([IntOrString].self, from: #"[1,"a"]"#) == [.int(1), .string("a")])
    let lossy = try JKDecoder().decode(Lossy<Int>.self, from: #"[1,"x",2,{},3]"#)
    #expect(lossy.elements == [1, 2, 3])
    let foundation = try JSONDecoder().decode(Lossy<Int>.self, from: Data(#"[1,"x",2,{},3]"#.utf8))
    #expect(lossy.elements == foundation.elements)
  }

  /// Keeps its decoder to read it after `decode` has returned.
  struct Lazy: Decodable {
    let decoder: any Decoder
    init(from decoder: any Decoder) throws { self.decoder = decoder }
    func name() throws -> String {
      try decoder.container(keyedBy: AnyKey.self).decode(
        String.self, forKey: AnyKey(stringValue: "name"))
    }
  }

  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  @Test func aKeptDecoderStillWorks() throws {
    var bytes = Array(#"{"name":"kept \u00e9scaped","plain":"x"}"#.utf8)
    let lazy = try JKDecoder().decode(Lazy.self, from: bytes)
    // The caller's buffer changes; the kept decoder must not see it.
    for index in bytes.indices { bytes[index] = 0x20 }
    #expect(try lazy.name() == "kept éscaped")
    let plain = try lazy.decoder.container(keyedBy: AnyKey.self)
      .decode(String.self, forKey: AnyKey(stringValue: "plain"))
    #expect(plain == "x")
  }

  struct Snake: Codable, Equatable {
    var userName: String
    var idList: [Int]
    var byId: [String: Int]
  }

  @Test func snakeCaseLeavesStringDictionaryKeysAlone() throws {
    let json = #"{"user_name":"a","id_list":[1],"by_id":{"some_key":1}}"#
    let decoder = JKDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let foundation = JSONDecoder()
    foundation.keyDecodingStrategy = .convertFromSnakeCase
    let ours = try decoder.decode(Snake.self, from: json)
    #expect(ours == (try foundation.decode(Snake.self, from: Data(json.utf8))))
    #expect(ours.byId == ["some_key": 1])
    // The cache converts keys once and stays correct across calls.
    #expect(try decoder.decode(Snake.self, from: json) == ours)
    decoder.clearCache()
    #expect(try decoder.decode(Snake.self, from: json) == ours)
  }

  @Test func duplicateKeysLastWins() throws {
    #expect(try JKDecoder().decode([String: Int].self, from: #"{"a":1,"a":2}"#) == ["a": 2])
    struct One: Decodable { var a: Int }
    #expect(try JKDecoder().decode(One.self, from: #"{"a":1,"b":0,"a":2}"#).a == 2)
    #expect(try JKDecoder().decode(One.self, from: "{\"\u{E9}\":0,\"a\":1,\"e\u{301}\":2}").a == 1)
  }

  @Test func jsonValueFields() throws {
    struct Holder: Decodable { var any: JSONValue }
    let value = try JKDecoder().decode(Holder.self, from: #"{"any":{"x":[1,2.5,"s",null]}}"#)
    #expect(value.any == ["x": [1, 2.5, "s", nil]])
    #expect(failure(Holder.self, #"{"any":[18446744073709551616]}"#) != nil)
  }

  @Test func concurrentUseOfOneDecoder() async throws {
    let decoder = JKDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let json = Data(#"{"user_name":"a","id_list":[1,2,3],"by_id":{"k":1}}"#.utf8)
    let expected = try decoder.decode(Snake.self, from: json)
    try await withThrowingTaskGroup(of: Snake.self) { group in
      for _ in 0..<32 {
        group.addTask { try decoder.decode(Snake.self, from: json) }
      }
      for try await result in group {
        #expect(result == expected)
      }
    }
  }

  /// The error Foundation throws for `json`, or nil.
  private func foundationFailure<T: Decodable>(
    _ type: T.Type, _ json: String, _ configure: (JSONDecoder) -> Void = { _ in }
  ) -> DecodingError? {
    let decoder = JSONDecoder()
    configure(decoder)
    do {
      _ = try decoder.decode(type, from: Data(json.utf8))
      return nil
    } catch {
      return error as? DecodingError
    }
  }

  @Test func floatsRoundTheLiteralOnce() throws {
    // 1 + 2^-24 + 2^-60: the nearest Double is the midpoint 1 + 2^-24 between
    // two Floats, and rounding that again would give 1.
    let json = "[1.000000059604644775390625000000000000867361737988403547205962240695953369140625]"
    let ours = try JKDecoder().decode([Float].self, from: json)
    #expect(ours == [Float(1).nextUp])
    #expect(ours == (try JSONDecoder().decode([Float].self, from: Data(json.utf8))))
    for json in ["[1.000000059604644775390625]", "[3.4028235677973365e38]", "[1e-45]", "[-0.0]"] {
      #expect(
        try JKDecoder().decode([Float].self, from: json).map(\.bitPattern)
          == (try JSONDecoder().decode([Float].self, from: Data(json.utf8))).map(\.bitPattern))
    }
    // Beyond Float's range either way: an error, as in Foundation.
    for json in ["[1e-46]", "[3.4028235677973367e38]", "[1e39]"] {
      #expect(failure([Float].self, json) != nil, "\(json)")
      #expect(foundationFailure([Float].self, json) != nil, "\(json)")
    }
    guard case .typeMismatch(let type, _) = failure(Float.self, "true") else {
      Issue.record("expected typeMismatch")
      return
    }
    #expect(type is Float.Type)
  }

  @Test func largeIntegersWithAFractionOrExponentKeepTheirDigits() throws {
    // From 2^53 on, the nearest Double need not be the integer written.
    let json = "[9007199254740993.0, 90071992547409930e-1, 1.2345678901234567891e19]"
    let ours = try JKDecoder().decode([UInt64].self, from: json)
    #expect(ours == [9_007_199_254_740_993, 9_007_199_254_740_993, 12_345_678_901_234_567_891])
    #expect(ours == (try JSONDecoder().decode([UInt64].self, from: Data(json.utf8))))
    #expect(try JKDecoder().decode([Int64].self, from: "[-922337203685477580.8e1]") == [.min])
    #expect(path(failure([Int64].self, "[1, 9007199254740993.5]")) == ["[1]"])
    #expect(path(failure([Int64].self, "[9223372036854775808.0]")) == ["[0]"])
  }

  struct Specials: Decodable {
    var flag: Bool
    var when: Date
    var blob: Data
    var link: URL
  }

  /// A Bool that is null is a type mismatch; a Date, Data or URL that is null
  /// is missing, whatever the strategy (a custom one is not even asked).
  @Test func nullsAreReportedAsFoundationReportsThem() throws {
    let valid = #"{"flag":true,"when":0,"blob":"","link":"a"}"#
    #expect(throws: Never.self) { try JKDecoder().decode(Specials.self, from: valid) }
    for (key, expected) in [
      ("flag", "typeMismatch Bool"), ("when", "valueNotFound Date"), ("blob", "valueNotFound Data"),
      ("link", "valueNotFound URL"),
    ] {
      let json = valid.replacingOccurrences(of: #""\#(key)":"#, with: #""\#(key)":null,"x":"#)
      for error in [failure(Specials.self, json), foundationFailure(Specials.self, json)] {
        switch error {
        case .typeMismatch(let type, _):
          #expect("typeMismatch \(type)" == expected && path(error) == [key])
        case .valueNotFound(let type, _):
          #expect("valueNotFound \(type)" == expected && path(error) == [key])
        default:
          Issue.record("\(key): \(String(describing: error))")
        }
      }
    }
    let decoder = JKDecoder()
    decoder.dateDecodingStrategy = .custom { _ in Date(timeIntervalSince1970: 0) }
    #expect(throws: DecodingError.self) { try decoder.decode([Date].self, from: "[null]") }
  }

  /// Decodes through `superDecoder(forKey:)` for a key that may be absent.
  struct Base: Decodable {
    var list: [Int]
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: AnyKey.self)
      list = try container.superDecoder(forKey: AnyKey(stringValue: "base"))
        .singleValueContainer().decode([Int].self)
    }
  }

  @Test func anAbsentKeysSuperDecoderKeepsItsPath() throws {
    #expect(try JKDecoder().decode(Base.self, from: #"{"base":[1]}"#).list == [1])
    let ours = failure([Base].self, #"[{"other":1}]"#)
    guard case .valueNotFound = ours else {
      Issue.record("expected valueNotFound, got \(String(describing: ours))")
      return
    }
    #expect(path(ours) == ["[0]", "base"])
    #expect(path(ours) == path(foundationFailure([Base].self, #"[{"other":1}]"#)))
  }

  /// Under a key strategy, `[String: V]` keys are read as written, so the
  /// coding paths through them name them as written too.
  @Test func pathsThroughStringKeyedDictionariesUseTheKeysAsWritten() throws {
    let json = #"{"user_name":"a","id_list":[],"by_id":{"some_key":"x"}}"#
    let decoder = JKDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    var ours: DecodingError?
    do {
      _ = try decoder.decode(Snake.self, from: json)
    } catch {
      ours = error as? DecodingError
    }
    let theirs = foundationFailure(Snake.self, json) {
      $0.keyDecodingStrategy = .convertFromSnakeCase
    }
    #expect(path(ours) == ["byId", "some_key"])
    #expect(path(ours) == path(theirs))
  }

  struct Inner: Decodable, Equatable { var x: Int }
  struct Typed: Decodable, Equatable { var innerVal: Inner }
  struct ByStruct: Decodable, Equatable { var aB: Typed }

  /// Tries a `[String: Typed]` first, then decodes the same value as a struct.
  struct DictionaryFirst: Decodable, Equatable {
    var value: ByStruct
    init(from decoder: any Decoder) throws {
      _ = try? [String: Typed](from: decoder)
      _ = try? decoder.singleValueContainer().decode([String: Typed].self)
      value = try ByStruct(from: decoder)
    }
  }

  /// Tries a member as `[String: Inner]` first, then decodes it as a struct.
  struct MemberDictionaryFirst: Decodable, Equatable {
    var value: Typed
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: AnyKey.self)
      let key = AnyKey(stringValue: "aB")
      _ = try? container.decode([String: Inner].self, forKey: key)
      value = try container.decode(Typed.self, forKey: key)
    }
  }

  /// Paths name a `[String: V]`'s keys as written only while it decodes:
  /// after a failed attempt, the same object decoded as a struct has its
  /// keys converted, as in Foundation.
  @Test func pathsUseKeysAsWrittenOnlyWhileADictionaryDecodes() {
    for keys: JSONDecoder.KeyDecodingStrategy in [
      .convertFromSnakeCase,
      .custom { path in
        let words = path.last!.stringValue.split(separator: "_")
        return AnyKey(
          stringValue: words.prefix(1).joined() + words.dropFirst().map(\.capitalized).joined())
      },
    ] {
      var setup = DecodingSetup()
      setup.keys = keys
      let bad = #"{"a_b":{"inner_val":{"x":"bad"}}}"#
      let good = #"{"a_b":{"inner_val":{"x":1},"other_thing":{"x":2}}}"#
      for json in [bad, good] {
        DecodingOracle.expectSame(DictionaryFirst.self, json, setup)
        DecodingOracle.expectSame(MemberDictionaryFirst.self, json, setup)
        // While the dictionary decodes, its keys as written.
        DecodingOracle.expectSame([String: Typed].self, json, setup)
      }
      #expect(
        DecodingOracle.ourError(DictionaryFirst.self, bad, setup)?.path.map(\.string) == [
          "aB", "innerVal", "x",
        ])
      #expect(
        DecodingOracle.ourError([String: Typed].self, bad, setup)?.path.map(\.string) == [
          "a_b", "innerVal", "x",
        ])
    }
  }

  /// Reads the member `k5` by the name a path-dependent custom key strategy
  /// gives it, and notes the path it was read at.
  struct PathNamed: Decodable, Equatable {
    var path: [String]
    var value: Int
    init(from decoder: any Decoder) throws {
      path = decoder.codingPath.map(\.stringValue)
      let name = (path + ["k5"]).joined(separator: ".")
      value = try decoder.container(keyedBy: AnyKey.self).decode(
        Int.self, forKey: AnyKey(stringValue: name))
    }
  }

  /// A value that keeps its container after `init(from:)` returns.
  final class KeepsItsContainer: Decodable, @unchecked Sendable {
    // Unchecked: each test decodes its own instances on one thread.
    enum Keys: String, CodingKey { case id, late }
    let kept: KeyedDecodingContainer<Keys>
    init(from decoder: any Decoder) throws {
      kept = try decoder.container(keyedBy: Keys.self)
    }
  }

  @Test func aContainerKeptPastItsValueStillReadsItsOwnObject() throws {
    // Later values of the same type get containers of their own: the
    // kept ones are not handed to them.
    let json = #"[{"id":0,"late":"a"},{"id":1,"late":"b"},{"id":2,"late":"c"}]"#
    for keys: JSONDecoder.KeyDecodingStrategy in [.useDefaultKeys, .custom({ $0.last! })] {
      let decoder = JKDecoder()
      decoder.keyDecodingStrategy = keys
      let values = try decoder.decode([KeepsItsContainer].self, from: Data(json.utf8))
      #expect(try values.map { try $0.kept.decode(Int.self, forKey: .id) } == [0, 1, 2])
      #expect(try values.map { try $0.kept.decode(String.self, forKey: .late) } == ["a", "b", "c"])
      #expect(values.map { $0.kept.codingPath.map(\.intValue) } == [[0], [1], [2]])
    }
  }

  /// A value that keeps its decoder after `init(from:)` returns.
  final class KeepsItsDecoder: Decodable, @unchecked Sendable {
    // Unchecked: each test decodes its own instances on one thread.
    let decoder: any Decoder
    init(from decoder: any Decoder) throws { self.decoder = decoder }
  }

  struct HoldsKeptDecoder: Decodable {
    var a: KeepsItsDecoder
    var b: Int
  }

  @Test func aKeptDecoderReadsItsOwnValueWhereFoundationsReadsTheTopLevel() throws {
    let json = Data(#"{"a":{"x":1},"b":2}"#.utf8)
    let ours = try JKDecoder().decode(HoldsKeptDecoder.self, from: json)
    #expect(try ours.a.decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue) == ["x"])
    // The documented difference: Foundation's kept decoder has moved on.
    let theirs = try JSONDecoder().decode(HoldsKeptDecoder.self, from: json)
    #expect(
      try theirs.a.decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue).sorted()
        == ["a", "b"])
  }

  @Test func nestedValuesOfOneTypeEachReadTheirOwnObject() throws {
    let root = TreeNode.tree(depth: 4)
    let json = String(decoding: try JSONEncoder().encode(root), as: UTF8.self)
    #expect(DecodingOracle.expectSame(TreeNode.self, json) == .sameValue)
    #expect(try JKDecoder().decode(TreeNode.self, from: Data(json.utf8)) == root)
  }

  /// Tries the member `OBJ` as `[String: PathNamed]`, then decodes it as a
  /// struct holding one.
  struct PathNamedTwice: Decodable, Equatable {
    struct Holder: Decodable, Equatable {
      var inner: PathNamed
      enum CodingKeys: String, CodingKey { case inner = "OBJ.l" }
    }
    var first: [String: PathNamed]?
    var holder: Holder
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: AnyKey.self)
      let key = AnyKey(stringValue: "OBJ")
      first = try? container.decode([String: PathNamed].self, forKey: key)
      holder = try container.decode(Holder.self, forKey: key)
    }
  }

  /// A custom key strategy whose names depend on the path gives one large
  /// object other names once the dictionary holding it has decoded.
  @Test func customNamesOfALargeObjectFollowItsPath() {
    var setup = DecodingSetup()
    setup.keys = .custom { path in
      let names = path.map(\.stringValue)
      return AnyKey(
        stringValue: names.count == 1 ? names[0].uppercased() : names.joined(separator: "."))
    }
    let large = "{" + (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}"
    let json = #"{"obj":{"l":\#(large)}}"#
    DecodingOracle.expectSame(PathNamedTwice.self, json, setup)
    let ours = try? setup.jsonKit.decode(PathNamedTwice.self, from: json)
    #expect(ours?.first?["l"]?.path == ["OBJ", "l"])
    #expect(ours?.holder.inner.path == ["OBJ", "OBJ.l"])
    #expect(ours?.holder.inner.value == 5)
  }

  /// A `JSONValue` reads the same numbers, strings and arrays under every
  /// key strategy; only its objects' keys follow the strategy (a custom one
  /// seeing each key's path), and values inside them read as at the top.
  @Test func jsonValuesReadTheSameValuesUnderACustomKeyStrategy() throws {
    let custom = JKDecoder()
    custom.keyDecodingStrategy = .custom { path in
      AnyKey(stringValue: path.map(\.stringValue).joined(separator: "/").uppercased())
    }
    let plain = JKDecoder()
    for json in [
      "1e16", "5.475104176468169e+16", "-0", "-0.0", "1.0", "18446744073709551615", "[1e16, -0]",
      "null", #""s""#, "[[],{}]",
    ] {
      let expected = try plain.decode(JSONValue.self, from: json).jsonString()
      #expect(try custom.decode(JSONValue.self, from: json).jsonString() == expected, "\(json)")
    }
    for json in [
      "123456789012345678901234567890", "[1, {\"a\": [123456789012345678901234567890]}]",
    ] {
      for decoder in [plain, custom] {
        #expect(throws: DecodingError.self, "\(json)") {
          try decoder.decode(JSONValue.self, from: json)
        }
      }
    }
    // The keys Foundation's keyed containers give, each from its path.
    var setup = DecodingSetup()
    setup.keys = custom.keyDecodingStrategy
    let nested = #"{"a_b":[1e16,{"c_d":-0,"e":[{"f_g":1.0}]}],"h":{}}"#
    let ours = try custom.decode(JSONValue.self, from: nested)
    #expect(ours == (try setup.foundation.decode(JSONValue.self, from: Data(nested.utf8))))
    #expect(
      try ours.jsonString(options: [.sortedKeys, .withoutEscapingSlashes])
        == #"{"A_B":[1e+16,{"A_B/INDEX 1/C_D":-0,"A_B/INDEX 1/E":[{"A_B/INDEX 1/A_B/INDEX 1/E/INDEX 0/F_G":1}]}],"H":{}}"#
    )
    struct Holder: Decodable {
      var value: JSONValue
      enum CodingKeys: String, CodingKey { case value = "VALUE" }
    }
    let held = try custom.decode(Holder.self, from: #"{"value":{"x":[1e16]}}"#)
    #expect(try held.value.jsonString(options: .withoutEscapingSlashes) == #"{"VALUE/X":[1e+16]}"#)
  }

  #if os(macOS) || os(Linux)
    /// Code written for `JSONDecoder` that sets its JSON5 switches compiles
    /// against `JKDecoder` (they once were declared unavailable).
    @Test(.enabled(if: Typechecker.isAvailable))
    func json5SwitchesCompileAsFoundationSpellsThem() throws {
      let errors = try Typechecker.errors(
        in: """
          import JSONKit
          let decoder = JKDecoder()
          decoder.allowsJSON5 = true
          decoder.assumesTopLevelDictionary = true
          _ = decoder.allowsJSON5 && decoder.assumesTopLevelDictionary
          """)
      #expect(errors.isEmpty, "\(errors)")
    }

    /// Type-checks Swift source against the JSONKit module built with the
    /// tests, with the `swiftc` on the path.
    enum Typechecker {
      /// The directory of built modules next to the test bundle.
      static let modules: URL? = {
        var directories = Bundle.allBundles.filter { $0.bundleURL.pathExtension == "xctest" }
          .map { $0.bundleURL.deletingLastPathComponent() }
        if let path = CommandLine.arguments.first, path.contains("/") {
          directories.append(URL(fileURLWithPath: path).deletingLastPathComponent())
        }
        return directories.map { $0.appendingPathComponent("Modules") }.first {
          FileManager.default.fileExists(
            atPath: $0.appendingPathComponent("JSONKit.swiftmodule").path)
        }
      }()

      static let compiler: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map {
          URL(fileURLWithPath: String($0)).appendingPathComponent("swiftc")
        }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
      }()

      static var isAvailable: Bool { modules != nil && compiler != nil }

      /// `Sources/CZlib`, whose module map JSONKit's module refers to.
      static let zlibModuleMap = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/CZlib")

      /// What the compiler says of `source`.
      static func errors(in source: String) throws -> String {
        let file = FileManager.default.temporaryDirectory
          .appendingPathComponent("jsonkit-typecheck-\(UUID().uuidString).swift")
        try Data(source.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = compiler
        process.arguments = [
          "-typecheck", file.path, "-I", modules!.path, "-I", zlibModuleMap.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: text, as: UTF8.self)
      }
    }
  #endif

  struct Collision: Decodable, Equatable {
    var aB: Int
  }

  /// Keys that convert to one name are duplicates: the last one wins, and the
  /// container lists the name once.
  @Test func keysThatConvertToOneNameAreDuplicates() throws {
    let decoder = JKDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    for (json, expected) in [
      (#"{"a_b":1,"aB":2}"#, 2), (#"{"aB":2,"x":0,"a_b":1}"#, 1), (#"{"a_b":1}"#, 1),
    ] {
      #expect(try decoder.decode(Collision.self, from: json).aB == expected, "\(json)")
    }
    struct Keys: Decodable {
      var keys: [String]
      init(from decoder: any Decoder) throws {
        keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
      }
    }
    #expect(
      try decoder.decode(Keys.self, from: #"{"a_b":1,"x":0,"aB":2}"#).keys.sorted() == ["aB", "x"])
  }

  @Test func superDecoderAtTheEndOfAnUnkeyedContainer() throws {
    struct Probe: Decodable {
      init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        _ = try container.superDecoder()
      }
    }
    for error in [failure(Probe.self, "[]"), foundationFailure(Probe.self, "[]")] {
      guard case .valueNotFound(_, let context) = error else {
        Issue.record("expected valueNotFound, got \(String(describing: error))")
        continue
      }
      #expect(
        context.wordsWithoutLocation(error?.jsonLocation)
          == "Cannot get superDecoder() -- unkeyed container is at end.")
      #expect(path(error) == ["[0]"])
    }
  }

  // MARK: - Large objects

  /// `{"<prefix>0":0,"<prefix>1":1,…}` with `count` members, then `extra`.
  private static func numbered(
    _ count: Int, prefix: String = "", then extra: [(key: String, value: Int)] = []
  ) -> String {
    let members = (0..<count).map { (key: "\(prefix)\($0)", value: $0) } + extra
    return "{" + members.map { #""\#($0.key)":\#($0.value)"# }.joined(separator: ",") + "}"
  }

  /// Reads the members it is told to, in that order, and what a keyed
  /// container says of each.
  struct KeyedReads: Decodable {
    static let keys = CodingUserInfoKey(rawValue: "keys")!
    var values: [String: Int] = [:]
    var absent: [String] = []
    var count = 0
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: AnyKey.self)
      for name in decoder.userInfo[Self.keys] as? [String] ?? [] {
        let key = AnyKey(stringValue: name)
        guard container.contains(key) else {
          absent.append(name)
          #expect(throws: DecodingError.self) { try container.decode(Int.self, forKey: key) }
          continue
        }
        #expect(try !container.decodeNil(forKey: key))
        values[name] = try container.decode(Int.self, forKey: key)
        #expect(try Int(from: container.superDecoder(forKey: key)) == values[name])
      }
      count = container.allKeys.count
    }
  }

  private func reads(
    _ json: String, _ keys: [String], _ decoder: JKDecoder = JKDecoder()
  ) throws -> KeyedReads {
    decoder.userInfo[KeyedReads.keys] = keys
    return try decoder.decode(KeyedReads.self, from: json)
  }

  /// In a large object with duplicate keys every lookup, wherever it
  /// starts, finds the last member of that name.
  @Test func largeObjectsWithDuplicateKeys() throws {
    let count = 3000
    let json = Self.numbered(count, then: [("7", -7), ("\(count - 1)", -1), ("7", -70)])
    var expected = Dictionary(uniqueKeysWithValues: (0..<count).map { ($0, $0) })
    expected[7] = -70
    expected[count - 1] = -1
    #expect(try JKDecoder().decode([Int: Int].self, from: json) == expected)
    let byString = Dictionary(uniqueKeysWithValues: expected.map { ("\($0.key)", $0.value) })
    #expect(try JKDecoder().decode([String: Int].self, from: json) == byString)
    let decoder = JKDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    #expect(try decoder.decode([String: Int].self, from: json) == byString)
    #expect(try decoder.decode([Int: Int].self, from: json) == expected)

    let names = ["7", "\(count - 1)", "0", "missing", "1500", "7", "\(count)"]
    let read = try reads(json, names)
    #expect(read.values == ["7": -70, "\(count - 1)": -1, "0": 0, "1500": 1500])
    #expect(read.absent == ["missing", "\(count)"])
    #expect(read.count == count)

    // Few names, each many times: a dictionary keyed by an enum.
    let cycled = (0..<count).map { (key: ["x", "y", "z"][$0 % 3], value: $0) }
    let manyTimes = "{" + cycled.map { #""\#($0.key)":\#($0.value)"# }.joined(separator: ",") + "}"
    #expect(
      try JKDecoder().decode([Axis: Int].self, from: manyTimes)
        == [.x: count - 3, .y: count - 2, .z: count - 1])
  }

  enum Axis: String, Codable, CodingKeyRepresentable {
    case x, y, z
  }

  /// Under the custom key strategy a large object's names come from the
  /// closure; names it makes equal are duplicates, the last one wins.
  @Test func largeObjectsUnderTheCustomKeyStrategy() throws {
    let count = 3000
    var setup = DecodingSetup()
    setup.keys = .custom { path in
      AnyKey(stringValue: String(path.last!.stringValue.lowercased().dropFirst()))
    }
    DecodingOracle.expectSame([Int: Int].self, Self.numbered(count, prefix: "k"), setup)
    let json = Self.numbered(count, prefix: "k", then: [("K7", -7), ("x12", -12)])
    var expected = Dictionary(uniqueKeysWithValues: (0..<count).map { ($0, $0) })
    expected[7] = -7
    expected[12] = -12
    #expect(try setup.jsonKit.decode([Int: Int].self, from: json) == expected)
    let read = try reads(json, ["12", "7", "k7", "0", "2999", "3000"], setup.jsonKit)
    #expect(read.values == ["12": -12, "7": -7, "0": 0, "2999": 2999])
    #expect(read.absent == ["k7", "3000"])
    #expect(read.count == count)
  }

  /// Once a decoder has seen two keys that snake_case converts to one name,
  /// large objects still decode, and such keys in them are duplicates.
  @Test func largeObjectsAfterKeysThatConvertToOneName() throws {
    let decoder = JKDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    #expect(try decoder.decode(Collision.self, from: #"{"a_b":1,"aB":2}"#).aB == 2)
    let count = 3000
    let expected = Dictionary(uniqueKeysWithValues: (0..<count).map { ($0, $0) })
    #expect(try decoder.decode([Int: Int].self, from: Self.numbered(count)) == expected)
    for (extra, value) in [
      ([("a_b", 1), ("aB", 2)], 2), ([("aB", 2), ("a_b", 1)], 1), ([("a_b", 1)], 1),
    ] {
      let json = Self.numbered(count, then: extra)
      #expect(try decoder.decode(Collision.self, from: json).aB == value, "\(extra)")
      let read = try reads(json, ["aB", "a_b", "5", "2999"], decoder)
      #expect(read.values == ["aB": value, "5": 5, "2999": 2999], "\(extra)")
      #expect(read.count == count + 1, "\(extra)")
    }
  }
}
