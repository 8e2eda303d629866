import Foundation
import JSONKit
import Testing

/// JKDecoder against Foundation's JSONDecoder on generated documents and
/// models: the same values, the same errors at the same coding paths, and the
/// documented differences checked for what they are.
@Suite("Decoder against JSONDecoder")
struct DecoderOracleTests {
  /// Tallies of how generated cases compared.
  struct Tally {
    var sameValue = 0
    var sameError = 0
    var numberPath = 0
    var different = 0
  }

  /// Decodes `count` generated documents with both decoders. `mistakes` is
  /// the percentage of documents with one mistake in them.
  func run(
    seed: UInt64, count: Int, mistakes: Int, keyStyle: OracleKeyStyle = .plain,
    setup: DecodingSetup = DecodingSetup(), sourceLocation: SourceLocation = #_sourceLocation
  ) -> Tally {
    var generator = OracleGenerator(seed: seed)
    generator.keyStyle = keyStyle
    var tally = Tally()
    for index in 0..<count {
      let schema =
        generator.chance(80)
        ? generator.object(depth: 3, level: 0) : generator.schema(depth: 3, level: 0)
      var sites: [OracleSite] = []
      var document = generator.document(for: schema, sites: &sites)
      var mistake = "none"
      if generator.chance(mistakes),
        let (changed, what) = generator.mistake(
          in: document, sites: sites)
      {
        (document, mistake) = (changed, what)
      }
      var text = ""
      var style = OracleTextStyle(seed: generator.random.next())
      document.write(into: &text, style: &style)
      let data = Data(text.utf8)

      var foundationSetup = setup
      foundationSetup.userInfo[OracleSchemaBox.key] = OracleSchemaBox(schema)
      let foundation = OracleOutcome {
        try foundationSetup.foundation.decode(OracleNode.self, from: data).value
      }
      let ours = OracleOutcome {
        try foundationSetup.jsonKit.decode(OracleNode.self, from: data).value
      }
      let verdict = DecodingOracle.compare(
        foundation, ours, document: keyStyle.isPlain ? document : nil, equal: ==)
      switch verdict {
      case .sameValue: tally.sameValue += 1
      case .sameError: tally.sameError += 1
      case .numberPathDifference: tally.numberPath += 1
      case .different(let difference):
        tally.different += 1
        if tally.different <= 10 {
          Issue.record(
            """
            seed \(seed) case \(index), mistake: \(mistake)
            schema: \(schema)
            json: \(text)
            \(difference)
            """, sourceLocation: sourceLocation)
        }
      }
    }
    return tally
  }

  @Test func documentsThatMatchTheirSchemas() {
    let tally = run(seed: 0x5EED_0001, count: 1500, mistakes: 0)
    #expect(tally.different == 0)
    // Every document matches its schema, so nothing may fail.
    #expect(tally.sameValue == 1500)
  }

  @Test func documentsWithOneMistake() {
    let tally = run(seed: 0x5EED_0002, count: 500, mistakes: 100)
    #expect(tally.different == 0)
    #expect(tally.sameError > 200)
    #expect(tally.numberPath > 10)
  }

  // MARK: - Key strategies

  /// Keys that test every rule of `.convertFromSnakeCase`: underscores at
  /// either end, runs of them, capitals, digits, and letters whose case
  /// mapping changes their length or needs more than one scalar.
  static let snakeKeys = [
    "_leading", "trailing__", "a__b", "ALLCAPS", "x_1_y", "snake_case_key", "__", "_", "",
    "é_ü", "ÉCOLE_normale", "ß_straße", "ǆ_ǆ", "i_ı", "ﬁ_ﬂ", "1_a", "a_1", "a-b_c", "a_b_",
    "__a__b__", "A_B", "aB_cD", "σ_Σ_ς", "日本_語", "😀_x", "e\u{301}_b", "ǅ_x", "already",
    "user_id", "URL_value", "_x_", "İ_i", "ŉ_x", "x_ǰ", "_\u{301}a_b", "a_\u{301}b",
  ]

  /// Each snake key with its conversion, as Foundation converts it.
  static let snakePool: [(json: String, converted: String)] = snakeKeys.map { key in
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let json = Data(OracleJSON.object([OracleMember(key: key, value: .null)]).text.utf8)
    let names = try? decoder.decode(KeyIDNames.self, from: json).names
    return (key, names?.first ?? "?")
  }

  /// The keys a keyed container lists, sorted.
  struct KeyIDNames: Decodable, Equatable {
    let names: [String]
    init(from decoder: any Decoder) throws {
      names = try decoder.container(keyedBy: OracleKey.self).allKeys.map(\.stringValue).sorted()
    }
  }

  @Test func snakeCaseConversionsOfTrickyKeys() throws {
    var setup = DecodingSetup()
    setup.keys = .convertFromSnakeCase
    for key in Self.snakeKeys {
      let json = OracleJSON.object([OracleMember(key: key, value: .number("1"))]).text
      DecodingOracle.expectSame(KeyIDNames.self, json, setup)
    }
    // All at once, then again from the decoder's cache of converted keys.
    var seen = Set<String>()
    let members = Self.snakePool.filter { seen.insert($0.converted).inserted }.map {
      OracleMember(key: $0.json, value: .number("1"))
    }
    let json = OracleJSON.object(members).text
    let decoder = setup.jsonKit
    let expected = try setup.foundation.decode(KeyIDNames.self, from: Data(json.utf8))
    #expect(try decoder.decode(KeyIDNames.self, from: json) == expected)
    #expect(try decoder.decode(KeyIDNames.self, from: json) == expected)
  }

  @Test func documentsWithSnakeCaseKeys() {
    var setup = DecodingSetup()
    setup.keys = .convertFromSnakeCase
    let tally = run(
      seed: 0x5EED_0003, count: 400, mistakes: 30,
      keyStyle: .snakeCase(Self.snakePool.filter { $0.converted != "?" }), setup: setup)
    #expect(tally.different == 0)
    #expect(tally.sameValue > 150)
  }

  @Test func documentsWithACustomKeyStrategy() {
    var setup = DecodingSetup()
    setup.keys = .custom(OracleKeyStyle.customTransform)
    let tally = run(seed: 0x5EED_0004, count: 400, mistakes: 30, keyStyle: .custom, setup: setup)
    #expect(tally.different == 0)
    #expect(tally.sameValue > 150)
  }

  struct SnakeModel: Decodable, Equatable {
    var userName: String
    var byID: [String: Int]
    var nested: [String: [Int: String]]
    var list: [Inner]
    struct Inner: Decodable, Equatable { var innerValue: Int? }
  }

  @Test func keyStrategiesLeaveStringKeyedDictionariesAlone() {
    for keys: JSONDecoder.KeyDecodingStrategy in [
      .useDefaultKeys, .convertFromSnakeCase,
      .custom { path in
        OracleKey(stringValue: path.last!.stringValue.replacingOccurrences(of: "-", with: ""))
      },
    ] {
      var setup = DecodingSetup()
      setup.keys = keys
      for json in [
        #"{"user_name":"a","by_i_d":{"x_y":1},"nested":{"a_b":{"1":"c"}},"list":[{"inner_value":1},{}]}"#,
        #"{"userName":"b","byID":{"x_y":2},"nested":{"a_b":{"1":"c"}},"list":[{"innerValue":1},{}]}"#,
        #"{"user-name":"a","byID":{"x_y":1},"nested":{"a_b":{"1":"c"}},"list":[{"inner-value":1}]}"#,
        // Errors inside the dictionaries: paths name their keys as written.
        #"{"user_name":"a","by_i_d":{"x_y":"1"},"nested":{},"list":[]}"#,
        #"{"userName":"a","byID":{"x_y":"1"},"nested":{},"list":[]}"#,
        #"{"user_name":"a","by_i_d":{},"nested":{"a_b":{"1":2}},"list":[]}"#,
        #"{"user_name":"a","by_i_d":{},"nested":{"a_b":{"x":"y"}},"list":[]}"#,
      ] {
        DecodingOracle.expectSame(SnakeModel.self, json, setup)
      }
    }
  }

  // MARK: - Dates, data and non-conforming floats

  struct Stamps: Decodable, Equatable {
    var at: Date
    var list: [Date]
    var maybe: Date?
  }

  @Test func dateStrategies() {
    let utc = TimeZone(identifier: "UTC")!
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = utc
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    let cases: [(JSONDecoder.DateDecodingStrategy, [String])] = [
      (.deferredToDate, ["1.5", "-1e9", "0", #""1""#, "null", "true", "[]"]),
      (.secondsSince1970, ["1700000000.25", "-1", "0", #""1""#, "null", "{}"]),
      (.millisecondsSince1970, ["1700000000250", "1.5", #""x""#, "null"]),
      (
        .iso8601,
        [
          #""2024-02-29T12:34:56Z""#, #""2024-02-29T12:34:56+05:30""#,
          #""2024-02-29T12:34:56-08:00""#, "1", "null",
        ]
      ),
      (.formatted(formatter), [#""2024-02-29 12:34""#, "1", "null"]),
      (
        .custom { decoder in
          let container = try decoder.singleValueContainer()
          let text = try container.decode(String.self)
          guard text.hasPrefix("@"), let seconds = Double(text.dropFirst()) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "no @")
          }
          return Date(timeIntervalSince1970: seconds)
        },
        [#""@12.5""#, #""12""#, "12", "null", "[]"]
      ),
      (
        // Never asked for null: Foundation reports null as missing first.
        .custom { _ in Date(timeIntervalSince1970: 7) },
        ["1", "null", #""x""#]
      ),
    ]
    for (strategy, values) in cases {
      var setup = DecodingSetup()
      setup.dates = strategy
      for value in values {
        DecodingOracle.expectSame(
          Stamps.self, #"{"at":\#(value),"list":[\#(value),\#(value)],"maybe":\#(value)}"#, setup)
        DecodingOracle.expectSame([Date?].self, "[\(value)]", setup)
        DecodingOracle.expectSame(Date.self, value, setup)
      }
    }
  }

  /// Foundation reports an ISO 8601 string it cannot parse at the path of
  /// the decoder that asked for the date: for a member of a keyed or
  /// unkeyed container, the container's decoder (one key short); for a
  /// single-value container, the date's own path; for a member of a
  /// `[String: Date]` read under a key strategy, the decoder that asked for
  /// the dictionary. JKDecoder reports the same paths.
  @Test func iso8601Dates() {
    var setup = DecodingSetup()
    setup.dates = .iso8601
    let valid = [
      "2024-02-29T12:34:56Z", "2024-02-29T12:34:56+05:30", "2024-02-29T12:34:56-0800",
      "1970-01-01T00:00:00Z", "2024-02-29T12:34:56+00:00", "9999-12-31T23:59:59Z",
      "2024-02-29T12:34:56.789Z", "2024-02-30T00:00:00Z",
    ]
    for text in valid {
      DecodingOracle.expectSame([Date].self, #"["\#(text)"]"#, setup)
      DecodingOracle.expectSame(Stamps.self, #"{"at":"\#(text)","list":[]}"#, setup)
    }
    let invalid = [
      "2024-02-29", "2024-02-29T12:34:56", "2024-13-01T00:00:00Z", "", "2024-02-29 12:34:56Z",
      "yesterday",
    ]
    let ok = #""2024-02-29T12:34:56Z""#
    for text in invalid.map({ #""\#($0)""# }) {
      for (json, path) in [
        (#"{"at":\#(text),"list":[]}"#, [String]()),
        (#"{"at":\#(ok),"list":[\#(text)]}"#, ["list"]),
        (#"{"at":\#(ok),"list":[],"maybe":\#(text)}"#, []),
      ] {
        DecodingOracle.expectSame(Stamps.self, json, setup)
        #expect(DecodingOracle.ourError(Stamps.self, json, setup)?.path.map(\.string) == path)
      }
      for keys: JSONDecoder.KeyDecodingStrategy in [.useDefaultKeys, .convertFromSnakeCase] {
        var strategies = setup
        strategies.keys = keys
        DecodingOracle.expectSame(Date.self, text, strategies)
        DecodingOracle.expectSame([Date].self, "[\(ok),\(text)]", strategies)
        DecodingOracle.expectSame([[Date]].self, "[[],[\(text)]]", strategies)
        DecodingOracle.expectSame([Date?].self, "[\(text)]", strategies)
        DecodingOracle.expectSame([Set<Date>].self, "[[\(text)]]", strategies)
        DecodingOracle.expectSame([Int: Date].self, #"{"1":\#(text)}"#, strategies)
        DecodingOracle.expectSame(SuperDate.self, #"{"inner":\#(text)}"#, strategies)
        DecodingOracle.expectSame([SuperDate].self, #"[{"inner":\#(text)}]"#, strategies)
        for json in [#"{"inner":{"d":\#(text)}}"#, #"{"inner":{"d":\#(ok),"e_f":\#(text)}}"#] {
          DecodingOracle.expectSame([String: [String: Date]].self, json, strategies)
          DecodingOracle.expectSame([String: [String: [Date]]].self, #"{"a":\#(json)}"#, strategies)
          DecodingOracle.expectSame(DateMap.self, json, strategies)
          DecodingOracle.expectSame([DateMap].self, "[\(json)]", strategies)
          DecodingOracle.expectSame(SingleDateMap.self, json, strategies)
        }
        DecodingOracle.expectSame(
          [String: [String: [Date]]].self, #"{"a":{"b":[\#(ok),\#(text)]}}"#, strategies)
      }
    }
    // One difference: Foundation reports a member of a nested container at
    // the path of the decoder the outermost container came from; JKDecoder
    // at the nested container's own path (one key short of the date).
    let nested = #"{"inner":{"at":"x","list":[]}}"#
    #expect(DecodingOracle.foundationError(NestedDate.self, nested, setup)?.path == [])
    #expect(
      DecodingOracle.ourError(NestedDate.self, nested, setup)?.path.map(\.string) == ["inner"])
  }

  /// Reads `inner` as a date through a superdecoder's single-value container.
  struct SuperDate: Decodable, Equatable {
    var date: Date
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: OracleKey.self)
      date = try SingleDate(from: container.superDecoder(forKey: OracleKey(stringValue: "inner")))
        .date
    }
  }

  /// A dictionary of dates as a member: under a key strategy, Foundation
  /// decodes its members with the decoder that asked for it.
  struct DateMap: Decodable, Equatable {
    var inner: [String: Date]
  }

  /// A dictionary of dates through a single-value container.
  struct SingleDateMap: Decodable, Equatable {
    var inner: [String: Date]
    init(from decoder: any Decoder) throws {
      inner = try decoder.singleValueContainer().decode([String: [String: Date]].self)["inner"]!
    }
  }

  /// Reads `inner.at` through a nested keyed container.
  struct NestedDate: Decodable, Equatable {
    var date: Date
    init(from decoder: any Decoder) throws {
      let inner = try decoder.container(keyedBy: OracleKey.self)
        .nestedContainer(keyedBy: OracleKey.self, forKey: OracleKey(stringValue: "inner"))
      date = try inner.decode(Date.self, forKey: OracleKey(stringValue: "at"))
    }
  }

  /// A date read through a single-value container.
  struct SingleDate: Decodable {
    var date: Date
    init(from decoder: any Decoder) throws {
      date = try decoder.singleValueContainer().decode(Date.self)
    }
  }

  /// `.formatted` and `.secondsSince1970` report a failure at the date's own
  /// path, as Foundation does.
  @Test func formattedAndNumericDateFailures() {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")!
    formatter.dateFormat = "yyyy-MM-dd"
    for (strategy, bad) in [
      (JSONDecoder.DateDecodingStrategy.formatted(formatter), #""2024/01/01""#),
      (.formatted(formatter), "1"), (.secondsSince1970, #""1""#), (.secondsSince1970, "true"),
      (.millisecondsSince1970, #""x""#),
    ] {
      var setup = DecodingSetup()
      setup.dates = strategy
      let ok = strategy.isFormatted ? #""2024-01-01""# : "1"
      for json in [
        #"{"at":\#(bad),"list":[]}"#, #"{"at":\#(ok),"list":[\#(ok),\#(bad)]}"#,
        #"{"at":\#(ok),"list":[],"maybe":\#(bad)}"#,
      ] {
        DecodingOracle.expectSame(Stamps.self, json, setup)
      }
      DecodingOracle.expectSame(Date.self, bad, setup)
      DecodingOracle.expectSame([[Date]].self, "[[],[\(bad)]]", setup)
      DecodingOracle.expectSame(SuperDate.self, #"{"inner":\#(bad)}"#, setup)
      DecodingOracle.expectSame(NestedDate.self, #"{"inner":{"at":\#(bad)}}"#, setup)
      DecodingOracle.expectSame(DateMap.self, #"{"inner":{"d":\#(ok),"e":\#(bad)}}"#, setup)
    }
  }

  struct Blobs: Decodable, Equatable {
    var data: Data
    var list: [Data]
    var maybe: Data?
  }

  @Test func dataStrategies() {
    let cases: [(JSONDecoder.DataDecodingStrategy, [String])] = [
      (
        .base64,
        [
          #""AQID""#, #""""#, #""AQI=""#, #""AQ==""#, #""AQ""#, #""AQI\/""#, #""\u0041QID""#,
          #""A QID""#, #""====""#, #""*""#, "5", "null", "[1]",
        ]
      ),
      (.deferredToData, ["[1,2,3]", "[]", "[256]", "[-1]", "[1.5]", #""AQID""#, "null", "[null]"]),
      (
        .custom { decoder in
          var container = try decoder.unkeyedContainer()
          var bytes: [UInt8] = []
          while !container.isAtEnd {
            bytes.append(UInt8(try container.decode(String.self), radix: 16) ?? 0)
          }
          return Data(bytes)
        },
        [#"["ff","1"]"#, "[1]", "[]", "null", #""ff""#]
      ),
    ]
    for (strategy, values) in cases {
      var setup = DecodingSetup()
      setup.data = strategy
      for value in values {
        DecodingOracle.expectSame(
          Blobs.self, #"{"data":\#(value),"list":[\#(value)],"maybe":\#(value)}"#, setup)
        DecodingOracle.expectSame(Data.self, value, setup)
      }
    }
  }

  /// Doubles and floats as bit patterns, so that NaNs compare.
  struct FloatBits: Decodable, Equatable {
    var doubles: [UInt64]
    var floats: [UInt32]
    var single: UInt64
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: OracleKey.self)
      doubles = try container.decode([Double].self, forKey: OracleKey(stringValue: "d")).map(
        \.bitPattern)
      floats = try container.decode([Float].self, forKey: OracleKey(stringValue: "f")).map(
        \.bitPattern)
      single = try container.decode(Double.self, forKey: OracleKey(stringValue: "s")).bitPattern
    }
  }

  @Test func nonConformingFloatStrategies() {
    let strategies: [JSONDecoder.NonConformingFloatDecodingStrategy] = [
      .throw,
      .convertFromString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN"),
      .convertFromString(positiveInfinity: "+∞", negativeInfinity: "-∞", nan: "?"),
    ]
    let values = [
      #""Infinity""#, #""-Infinity""#, #""NaN""#, #""+∞""#, #""-∞""#, #""?""#, #""nan""#,
      #""inf""#, "1.5", "null", "true",
    ]
    for strategy in strategies {
      var setup = DecodingSetup()
      setup.floats = strategy
      for value in values {
        DecodingOracle.expectSame(
          FloatBits.self, #"{"d":[\#(value)],"f":[\#(value)],"s":\#(value)}"#, setup)
      }
    }
  }

  // MARK: - User info, configuration and class hierarchies

  static let userInfoKey = CodingUserInfoKey(rawValue: "oracle.tag")!

  /// Records the user info it finds at every level it decodes.
  struct Tagged: Decodable, Equatable {
    var tags: [String]
    init(from decoder: any Decoder) throws {
      let own = decoder.userInfo[DecoderOracleTests.userInfoKey] as? String ?? "none"
      let container = try decoder.container(keyedBy: OracleKey.self)
      var tags = [own + "@" + oraclePath(decoder.codingPath)]
      for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
        if try container.decodeNil(forKey: key) { continue }
        if let nested = try? container.decode([Tagged].self, forKey: key) {
          tags += nested.flatMap(\.tags)
        } else {
          tags += try Tagged(from: container.superDecoder(forKey: key)).tags
        }
      }
      self.tags = tags
    }
  }

  @Test func userInfoReachesEveryInitializer() {
    var setup = DecodingSetup()
    setup.userInfo[Self.userInfoKey] = "tag"
    DecodingOracle.expectSame(Tagged.self, #"{"a":{"b":{}},"c":[{"d":{}},{}],"e":null}"#, setup)
    DecodingOracle.expectSame(Tagged.self, #"{"a":{"b":{}}}"#)
  }

  struct Configured: DecodableWithConfiguration, Equatable {
    var value: Int
    init(from decoder: any Decoder, configuration: Int) throws {
      value = try decoder.singleValueContainer().decode(Int.self) * configuration
    }
  }

  enum ConfigurationProvider: DecodingConfigurationProviding {
    static let decodingConfiguration = 3
  }

  @Test func decodingWithConfiguration() throws {
    guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
    for json in ["5", #""5""#, "null"] {
      let data = Data(json.utf8)
      let foundation = OracleOutcome {
        try JSONDecoder().decode(Configured.self, from: data, configuration: 2)
      }
      let ours = OracleOutcome {
        try JKDecoder().decode(Configured.self, from: data, configuration: 2)
      }
      #expect(DecodingOracle.compare(foundation, ours, equal: ==).isSame, "\(json)")
      let provided = OracleOutcome {
        try JKDecoder().decode(
          Configured.self, from: data, configuration: ConfigurationProvider.self)
      }
      let theirsProvided = OracleOutcome {
        try JSONDecoder().decode(
          Configured.self, from: data, configuration: ConfigurationProvider.self)
      }
      #expect(DecodingOracle.compare(theirsProvided, provided, equal: ==).isSame, "\(json)")
    }
  }

  class Animal: Decodable, Equatable, @unchecked Sendable {
    var legs: Int
    enum Keys: String, CodingKey { case legs }
    required init(from decoder: any Decoder) throws {
      legs = try decoder.container(keyedBy: Keys.self).decode(Int.self, forKey: .legs)
    }
    var summary: String { "legs \(legs)" }
    static func == (lhs: Animal, rhs: Animal) -> Bool { lhs.summary == rhs.summary }
  }

  /// Its superclass decodes from `superDecoder()`: the member "super".
  final class Dog: Animal, @unchecked Sendable {
    var name = ""
    enum Keys: String, CodingKey { case name }
    required init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Keys.self)
      name = try container.decode(String.self, forKey: .name)
      try super.init(from: container.superDecoder())
    }
    override var summary: String { "dog \(name) " + super.summary }
  }

  /// Its superclass decodes from `superDecoder(forKey:)`.
  final class Cat: Animal, @unchecked Sendable {
    var lives = 0
    enum Keys: String, CodingKey { case lives, base }
    required init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Keys.self)
      lives = try container.decode(Int.self, forKey: .lives)
      try super.init(from: container.superDecoder(forKey: .base))
    }
    override var summary: String { "cat \(lives) " + super.summary }
  }

  /// Its superclass decodes from the same decoder, and so the same object.
  final class Bird: Animal, @unchecked Sendable {
    var wings = 0
    enum Keys: String, CodingKey { case wings }
    required init(from decoder: any Decoder) throws {
      wings = try decoder.container(keyedBy: Keys.self).decode(Int.self, forKey: .wings)
      try super.init(from: decoder)
    }
    override var summary: String { "bird \(wings) " + super.summary }
  }

  struct Zoo: Decodable, Equatable {
    var dog: Dog?
    var cat: Cat?
    var bird: Bird?
  }

  @Test func classHierarchiesThroughSuperDecoders() {
    for json in [
      #"{"dog":{"name":"Rex","super":{"legs":4}},"cat":{"lives":9,"base":{"legs":4}},"bird":{"wings":2,"legs":2}}"#,
      #"{"dog":{"name":"Rex"}}"#,
      #"{"dog":{"name":"Rex","super":null}}"#,
      #"{"dog":{"name":"Rex","super":[4]}}"#,
      #"{"dog":{"name":"Rex","super":{}}}"#,
      #"{"cat":{"lives":9}}"#,
      #"{"cat":{"lives":9,"base":{"legs":"four"}}}"#,
      #"{"cat":{"lives":9,"super":{"legs":4}}}"#,
      #"{"bird":{"wings":2}}"#,
    ] {
      DecodingOracle.expectSame(Zoo.self, json)
    }
  }

  /// Reads whatever its super decoders hold, present or not.
  struct SuperProbe: Decodable, Equatable {
    var notes: [String] = []
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: OracleKey.self)
      for name in ["super", "absent", "null", "list"] {
        let key = OracleKey(stringValue: name)
        let sub =
          name == "super" ? try container.superDecoder() : try container.superDecoder(forKey: key)
        let single = try sub.singleValueContainer()
        notes.append("\(name) at \(oraclePath(sub.codingPath)) nil \(single.decodeNil())")
        notes.append(Self.probe { try single.decode(Int.self) })
        notes.append(Self.probe { try single.decode([Int].self) })
        notes.append(Self.probe { try single.decode(Int?.self).map(String.init) ?? "nil" })
        notes.append(Self.probe { try sub.container(keyedBy: OracleKey.self).allKeys.count })
        notes.append(Self.probe { try sub.unkeyedContainer().count ?? -1 })
      }
    }

    static func probe(_ body: () throws -> some Any) -> String {
      do {
        return "\(try body())"
      } catch {
        return DecodingOracle.describe(error)
      }
    }
  }

  @Test func superDecodersOfPresentAndAbsentKeys() {
    DecodingOracle.expectSame(SuperProbe.self, #"{"super":1,"null":null,"list":[1,2]}"#)
    DecodingOracle.expectSame(SuperProbe.self, #"{"super":{"a":1},"list":{"b":2}}"#)
  }

  // MARK: - Enums, sets and dictionaries

  enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case rect(width: Int, height: Int)
    case point
    case labeled(String, Int)
    case nested(inner: [Shape])
    case optional(Int?)
  }

  enum Suit: String, Codable, CaseIterable { case hearts, spades }
  enum Rank: Int, Codable {
    case one = 1
    case two = 2
  }

  @Test func enumsWithAssociatedValues() {
    for json in [
      #"{"circle":{"radius":1.5}}"#, #"{"rect":{"width":1,"height":2}}"#, #"{"point":{}}"#,
      #"{"labeled":{"_0":"a","_1":2}}"#,
      #"{"nested":{"inner":[{"point":{}},{"circle":{"radius":0}}]}}"#,
      #"{"optional":{"_0":null}}"#, #"{"optional":{}}"#, #"{"optional":{"_0":3}}"#,
      "{}", #"{"circle":{"radius":1},"point":{}}"#, #"{"square":{}}"#, #"{"circle":{}}"#,
      #"{"circle":{"radius":"x"}}"#, #"{"point":5}"#, #"{"circle":null}"#,
      #"{"labeled":{"_0":"a"}}"#,
      #"{"nested":{"inner":[{"point":{}},{"bad":{}}]}}"#, "[]", "null",
    ] {
      DecodingOracle.expectSame(Shape.self, json)
      DecodingOracle.expectSame([Shape].self, "[\(json)]")
    }
    for json in [#"["hearts","spades"]"#, #"["clubs"]"#, "[1]", "[null]"] {
      DecodingOracle.expectSame([Suit].self, json)
    }
    for json in ["[1,2]", "[3]", "[1.0]", #"["1"]"#] {
      DecodingOracle.expectSame([Rank].self, json)
    }
  }

  struct ColorKey: Hashable, Codable, CodingKeyRepresentable {
    var name: String
    var codingKey: any CodingKey { OracleKey(stringValue: name) }
    init?<T: CodingKey>(codingKey: T) {
      guard codingKey.stringValue.first?.isUppercase == true else { return nil }
      name = codingKey.stringValue
    }
  }

  @Test func setsAndDictionariesOfEveryKeyKind() {
    for json in [#"["a","b","a"]"#, "[]", "[1]", "null", #"[null]"#] {
      DecodingOracle.expectSame(Set<String>.self, json)
    }
    DecodingOracle.expectSame([Set<Int>].self, "[[1,2,2],[],[-0]]")
    for json in [
      #"{"1":"a","-2":"b","+3":"c"}"#, #"{"x":"a"}"#, "{}", #"{"1":1}"#, #"{"1.5":"a"}"#,
      #"{"9223372036854775808":"a"}"#, "[]", "null",
    ] {
      DecodingOracle.expectSame([Int: String].self, json)
    }
    for json in [#"{"hearts":1,"spades":2}"#, #"{"clubs":1}"#, #"{"hearts":"1"}"#] {
      DecodingOracle.expectSame([Suit: Int].self, json)
    }
    for json in [#"{"Red":1,"Blue":2}"#, #"{"red":1}"#] {
      DecodingOracle.expectSame([ColorKey: Int].self, json)
    }
    // Keys that are neither String, Int nor CodingKeyRepresentable: an array
    // of alternating keys and values.
    for json in [#"[1,"a",2,"b"]"#, #"[1,"a",2]"#, #"{"1":"a"}"#, #"[300,"a"]"#] {
      DecodingOracle.expectSame([Int8: String].self, json)
    }
    DecodingOracle.expectSame([Double: Int].self, "[1.5,1,-0.0,2]")
  }

  @Test func arraysOfStrings() {
    // All strings (read from a collection over the tape): in place, escaped,
    // non-ASCII, empty, long; then arrays holding something else, whose
    // error names the element.
    for json in [
      "[]", #"["a"]"#, #"["plain","esc\"aped\n","é","\u00e9","𝄞","\ud834\udd1e",""]"#,
      "[\"" + String(repeating: "long text ", count: 40) + "\"]",
      #"["a",1]"#, #"[null,"b"]"#, #"["a",["b"]]"#, #"["a",{"b":"c"}]"#, #"["a",true]"#,
    ] {
      DecodingOracle.expectSame([String].self, json)
      DecodingOracle.expectSame([[String]].self, "[\(json),[\"x\"]]")
    }
  }

  @Test func urlsAndDecimals() {
    for text in [
      "https://example.com/a?b=c#d", "relative/path", "", "http://[::1]:80/", "a b", "%zz",
      "https://例え.jp/ü", "mailto:x@y.z", "file:///tmp/x",
    ] {
      DecodingOracle.expectSame([URL].self, #"["\#(text)"]"#)
    }
    DecodingOracle.expectSame([URL].self, "[5]")
    DecodingOracle.expectSame([URL].self, "[null]")
    for text in [
      "0", "-0", "1.5", "-1.50", "1e10", "1E-10", "12345678901234567890123456789012345678",
      "3.14159265358979323846264338327950288", "1e+2", "0.000001", "123e125", "1e-127",
      "18446744073709551616", "-9223372036854775809", "0.1", "100", "-1e-5",
    ] {
      DecodingOracle.expectSame([Decimal].self, "[\(text)]")
    }
    for json in [#"["1"]"#, "[null]", "[true]", "[{}]"] {
      DecodingOracle.expectSame([Decimal].self, json)
    }
  }

  // MARK: - Containers

  /// Records what an unkeyed container says at every step, and what each
  /// way of reading past its end throws.
  struct UnkeyedProbe: Decodable, Equatable {
    var notes: [String] = []
    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      func note(_ text: String) {
        notes.append(
          "\(text) @\(container.currentIndex) end \(container.isAtEnd) count \(container.count ?? -1)"
        )
      }
      note("start")
      while !container.isAtEnd {
        if try container.decodeNil() {
          note("nil")
        } else if let int = try? container.decode(Int.self) {
          note("int \(int)")
        } else if var nested = try? container.nestedUnkeyedContainer() {
          note("nested \(nested.count ?? -1) \(oraclePath(nested.codingPath))")
          if !nested.isAtEnd { note("first \(SuperProbe.probe { try nested.decode(Int.self) })") }
        } else if let keyed = try? container.nestedContainer(keyedBy: OracleKey.self) {
          note("keyed \(keyed.allKeys.count) \(oraclePath(keyed.codingPath))")
        } else {
          let sub = try container.superDecoder()
          note("super \(oraclePath(sub.codingPath)) \(SuperProbe.probe { try String(from: sub) })")
        }
      }
      note("end \(SuperProbe.probe { try container.decode(Int.self) })")
      note("end \(SuperProbe.probe { try container.decode(String.self) })")
      note("end \(SuperProbe.probe { try container.decode([Int].self) })")
      note("end \(SuperProbe.probe { try container.decodeNil() })")
      note("end \(SuperProbe.probe { try container.nestedUnkeyedContainer().count ?? -1 })")
      note(
        "end \(SuperProbe.probe { try container.nestedContainer(keyedBy: OracleKey.self).allKeys.count })"
      )
      note("end \(SuperProbe.probe { try container.superDecoder().codingPath.count })")
    }
  }

  @Test func unkeyedContainerBookkeepingAndErrorsAtTheEnd() {
    for json in ["[]", #"[1,null,[2,3],{"a":1},"s",[],true]"#, "[[]]", "[null,null]"] {
      DecodingOracle.expectSame(UnkeyedProbe.self, json)
      DecodingOracle.expectSame([String: UnkeyedProbe].self, #"{"k":\#(json)}"#)
    }
    DecodingOracle.expectSame(UnkeyedProbe.self, "{}")
    DecodingOracle.expectSame(UnkeyedProbe.self, "null")
  }

  /// Records what a keyed container says about a fixed list of keys.
  struct KeyedProbe: Decodable, Equatable {
    var notes: [String] = []
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: OracleKey.self)
      notes.append("keys \(container.allKeys.map(\.stringValue).sorted())")
      notes.append("path \(oraclePath(container.codingPath))")
      for name in ["a", "b", "n", "o", "l", "missing"] {
        let key = OracleKey(stringValue: name)
        notes.append("\(name) contains \(container.contains(key))")
        notes.append(SuperProbe.probe { try container.decodeNil(forKey: key) })
        notes.append(
          SuperProbe.probe { try container.decodeIfPresent(Int.self, forKey: key) as Any })
        notes.append(
          SuperProbe.probe { try container.decodeIfPresent(Bool.self, forKey: key) as Any })
        notes.append(
          SuperProbe.probe { try container.decodeIfPresent([Int].self, forKey: key) as Any })
        notes.append(
          SuperProbe.probe {
            try container.nestedContainer(keyedBy: OracleKey.self, forKey: key).allKeys.count
          })
        notes.append(
          SuperProbe.probe { try container.nestedUnkeyedContainer(forKey: key).count as Any })
      }
    }
  }

  @Test func keyedContainerQueries() {
    DecodingOracle.expectSame(KeyedProbe.self, #"{"a":1,"b":true,"n":null,"o":{"x":1},"l":[1]}"#)
    DecodingOracle.expectSame([KeyedProbe].self, #"[{},{"a":"1","missing":[]}]"#)
  }

  /// Foundation's unkeyed `decodeIfPresent` at the end returns nil and still
  /// advances `currentIndex`, and so does JKDecoder's (it used the
  /// protocol's own `decodeIfPresent`, which leaves it where it was).
  @Test func unkeyedDecodeIfPresentAtTheEnd() throws {
    struct Probe: Decodable {
      var indices: [Int] = []
      init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        indices.append(try container.decode(Int.self))
        for _ in 0..<2 {
          #expect(try container.decodeIfPresent(Int.self) == nil)
          #expect(try container.decodeIfPresent(String.self) == nil)
          indices.append(container.currentIndex)
        }
      }
    }
    #expect(try JSONDecoder().decode(Probe.self, from: Data("[7]".utf8)).indices == [7, 3, 5])
    #expect(try JKDecoder().decode(Probe.self, from: "[7]").indices == [7, 3, 5])
  }

  // MARK: - Integers written with a fraction or an exponent

  @Test func integersWithFractionsAndExponents() throws {
    // Beyond 2^53 the nearest Double is not the integer written: both read
    // the digits.
    for json in [
      "[9007199254740993.0]", "[9007199254740993e0]", "[90071992547409930e-1]",
      "[-9007199254740993.000]", "[1.2345678901234567890e19]",
    ] {
      DecodingOracle.expectSame([Int64].self, json)
      DecodingOracle.expectSame([UInt64].self, json)
    }
    // A fraction: Foundation drops it (through Decimal); JKDecoder converts
    // exactly or not at all.
    #expect(
      try JSONDecoder().decode([Int64].self, from: Data("[9007199254740993.5]".utf8))
        == [9_007_199_254_740_993])
    #expect(
      DecodingOracle.ourError([Int64].self, "[9007199254740993.5]")?.path.map(\.string) == [
        "Index 0"
      ])
    // Foundation fails where the Double rounds past the type's maximum, or
    // (for Int64.min) where Decimal's magnitude does not fit; JKDecoder reads
    // the digits.
    for (json, value) in [
      ("[9223372036854775807.0]", Int64.max), ("[-922337203685477580.8e1]", Int64.min),
      ("[9223372036854775806e0]", Int64.max - 1),
    ] {
      #expect(DecodingOracle.foundationError([Int64].self, json)?.kind == "dataCorrupted")
      #expect(try JKDecoder().decode([Int64].self, from: json) == [value])
    }
    #expect(DecodingOracle.foundationError([UInt64].self, "[18446744073709551615.0]") != nil)
    #expect(try JKDecoder().decode([UInt64].self, from: "[18446744073709551615.0]") == [.max])
  }

  /// Below 2^53 too, an integer type takes the literal's own value, not its
  /// nearest Double: digits that the Double rounds away still make it no
  /// integer. Foundation reads the rounded value.
  @Test func integersFromLiteralsThatRoundToAnInteger() throws {
    for (json, rounded) in [
      ("[1.00000000000000001]", 1), ("[0.99999999999999999999]", 1),
      ("[4.9999999999999999999]", 5), ("[-2.0000000000000000001e0]", -2),
      ("[1234567890.00000000001]", 1_234_567_890), ("[99999999999999999e-17]", 1),
    ] {
      #expect(try JSONDecoder().decode([Int].self, from: Data(json.utf8)) == [rounded], "\(json)")
      let ours = DecodingOracle.ourError([Int].self, json)
      #expect(ours?.kind == "dataCorrupted", "\(json)")
      #expect(ours?.path.map(\.string) == ["Index 0"], "\(json)")
    }
    let nested = DecodingOracle.ourError(Outer.self, #"{"a":{"bytes":[127.0000000000000000001]}}"#)
    #expect(nested?.kind == "dataCorrupted")
    #expect(nested?.path.map(\.string) == ["a", "bytes", "Index 0"])
    #expect(DecodingOracle.ourError([Int8].self, "[127.0000000000000000001]") != nil)
    #expect(DecodingOracle.ourError([UInt].self, "[-0.0000000000000000001]") != nil)
    // Literals that are integers, however written, still are.
    #expect(
      try JKDecoder().decode(
        [Int].self,
        from: "[1.0, 1e2, -0, -0.0, 100e-2, 0e999999999999999999, 0.00000000000000000001e20, "
          + "1.000000000000000000000, 12.50e1, -9007199254740991.0, 0.0e-400]")
        == [1, 100, 0, 0, 1, 0, 1, 1, 125, -9_007_199_254_740_991, 0])
    #expect(
      try JKDecoder().decode([UInt].self, from: "[-0, -0.0, 0.00000000000000000001e20, 5e0]")
        == [0, 0, 1, 5])
    #expect(
      try JKDecoder().decode([Int8].self, from: "[127.000, -128.0, -1.28e2, 1.27E+2]")
        == [127, -128, -128, 127])
    for json in ["[1.0, 1e2, -0, 100e-2]", "[-0.0, 12.50e1, 0.00000000000000000001e20]"] {
      DecodingOracle.expectSame([Int].self, json)
      DecodingOracle.expectSame([Int64].self, json)
    }
  }

  @Test func integersWiderThanSixtyFourBits() throws {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    for json in [
      "[170141183460469231731687303715884105727]", "[-170141183460469231731687303715884105728]",
      "[5]", "[-0]", "[1.0]", "[null]", #"["1"]"#,
    ] {
      DecodingOracle.expectSame([Int128].self, json)
      DecodingOracle.expectSame([UInt128].self, json)
    }
    DecodingOracle.expectSame([UInt128].self, "[340282366920938463463374607431768211455]")
    // Out of range: the number's path, as for every width.
    let tooBig = "[170141183460469231731687303715884105728]"
    #expect(DecodingOracle.foundationError([Int128].self, tooBig)?.path == [])
    #expect(DecodingOracle.ourError([Int128].self, tooBig)?.path.map(\.string) == ["Index 0"])
    // Beyond 64 bits with a fraction or exponent, Foundation's conversion
    // goes through UInt64 and fails; JKDecoder reads the digits.
    for (json, digits) in [
      ("[1e30]", "1000000000000000000000000000000"),
      ("[12345678901234567890123.0]", "12345678901234567890123"),
    ] {
      #expect(DecodingOracle.foundationError([Int128].self, json)?.kind == "dataCorrupted")
      #expect(try JKDecoder().decode([Int128].self, from: json) == [Int128(digits)!])
    }
  }

  /// Keys are equal when their Strings are: a decomposed "é" finds a
  /// precomposed one.
  @Test func keysCompareAsStrings() {
    struct Probe: Decodable, Equatable {
      var value: Int?
      var contains: Bool
      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: OracleKey.self)
        let key = OracleKey(stringValue: "e\u{301}")
        value = try container.decodeIfPresent(Int.self, forKey: key)
        contains = container.contains(key)
      }
    }
    DecodingOracle.expectSame(Probe.self, "{\"\u{E9}\":1}")
    DecodingOracle.expectSame(Probe.self, "{\"e\u{301}\":1}")
    DecodingOracle.expectSame(Probe.self, "{\"e\":1}")
  }

  /// Floats round the literal itself, once, as Foundation does (through
  /// `strtof`): never the Double nearest to it a second time.
  @Test func floatsRoundOnce() {
    for text in [
      // 1 + 2^-24 + 2^-60: its nearest Double is the midpoint 1 + 2^-24.
      "1.00000005960464477539062500000000000086736173798840354720596224069595336914062500",
      "1.000000059604644775390625", "1.0000000596046447753906249999999999",
      "3.4028235677973366e38", "3.40282356779733661637539395458142568447e38",
      "3.4028235677973365e38",
      "7.0064923216240853546186479164495806564013097093825788587853414194489554134293030074331909418106079101562500e-46",
      "7.00649232162408535461864791644958065640130970938257885878534141944895541342930300743319094181060791015625000001e-46",
      "1e-45", "1.4e-45", "1e-46", "-1e-46", "1.1754942e-38", "1.17549435e-38", "16777217",
      "16777217.0", "0.1", "-0.0", "0e0", "33554431", "1e39",
    ] {
      DecodingOracle.expectSame([Float].self, "[\(text)]")
    }
  }

  /// Foundation compares a non-conforming float string as written, so an
  /// escaped spelling does not match; JKDecoder compares the string's value.
  @Test func nonConformingFloatsWithEscapes() throws {
    var setup = DecodingSetup()
    setup.floats = .convertFromString(
      positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    let json = #"["\u004EaN","Infinity"]"#
    #expect(DecodingOracle.foundationError([Double].self, json, setup)?.kind == "typeMismatch")
    let ours = try setup.jsonKit.decode([Double].self, from: json)
    #expect(ours[0].isNaN && ours[1] == .infinity)
  }

  /// Keys that differ as written but convert to the same name: Foundation
  /// keeps the first; JKDecoder treats them as duplicates, the last wins.
  @Test func keysThatConvertToTheSameName() throws {
    struct Model: Decodable, Equatable {
      var aB: Int
      var x: Int?
    }
    for keys: JSONDecoder.KeyDecodingStrategy in [
      .convertFromSnakeCase, .custom { OracleKey(stringValue: $0.last!.stringValue.lowercased()) },
    ] {
      var setup = DecodingSetup()
      setup.keys = keys
      for (json, first, last) in [
        (#"{"a_b":1,"aB":2}"#, 1, 2), (#"{"x":0,"ab":1,"a_b":2,"aB":3,"AB":4}"#, 2, 3),
        (#"{"aB":2,"x":0,"a_b":1}"#, 2, 1),
      ] {
        let names = try setup.jsonKit.decode(KeyIDNames.self, from: json)
        #expect(names == (try setup.foundation.decode(KeyIDNames.self, from: Data(json.utf8))))
        #expect(names.names.count == Set(names.names).count)
        guard case .convertFromSnakeCase = keys else { continue }
        #expect(try setup.foundation.decode(Model.self, from: Data(json.utf8)).aB == first)
        #expect(try setup.jsonKit.decode(Model.self, from: json).aB == last)
      }
    }
  }

  // MARK: - Documented differences

  struct Outer: Decodable, Equatable {
    var a: Inner
    struct Inner: Decodable, Equatable {
      var bytes: [UInt8]
      var small: Float?
      var big: Int?
    }
  }

  /// (a) Foundation reports a number its type cannot hold as invalid JSON
  /// at the root; JKDecoder says which number, at its full coding path.
  @Test func numberConversionErrorsCarryTheFullPath() {
    for (json, path) in [
      (#"{"a":{"bytes":[1,300]}}"#, ["a", "bytes", "Index 1"]),
      (#"{"a":{"bytes":[-1]}}"#, ["a", "bytes", "Index 0"]),
      (#"{"a":{"bytes":[1.5]}}"#, ["a", "bytes", "Index 0"]),
      (#"{"a":{"bytes":[1e30]}}"#, ["a", "bytes", "Index 0"]),
      (#"{"a":{"bytes":[],"small":1e39}}"#, ["a", "small"]),
      (#"{"a":{"bytes":[],"small":1e-50}}"#, ["a", "small"]),
      (#"{"a":{"bytes":[],"big":18446744073709551616}}"#, ["a", "big"]),
      (#"{"a":{"bytes":[],"big":9223372036854775808}}"#, ["a", "big"]),
    ] {
      let foundation = DecodingOracle.foundationError(Outer.self, json)
      let ours = DecodingOracle.ourError(Outer.self, json)
      #expect(foundation?.kind == "dataCorrupted", "\(json)")
      #expect(foundation?.path == [], "\(json)")
      #expect(ours?.kind == "dataCorrupted", "\(json)")
      #expect(ours?.path.map(\.string) == path, "\(json)")
      #expect(ours?.message.hasPrefix("Number ") == true, "\(json)")
    }
  }

  /// (b) Input Foundation accepts and JKDecoder rejects: Foundation never
  /// validates members nobody reads, and accepts a trailing comma anywhere;
  /// JSONKit's rules also reject U+0000 and noncharacters in strings.
  @Test func malformedInputFoundationAccepts() throws {
    struct A: Decodable, Equatable { var a: Int }
    struct S: Decodable, Equatable { var a: String }
    let acceptedAsA = [
      #"{"a":1,}"#, #"{"a":1,"b":[1,]}"#, #"{"a":1,"b":{"c":2,}}"#, #"{"a":1,"b":01}"#,
      #"{"a":1,"b":"\x"}"#, #"{"a":1,"b":"\ud800"}"#, #"{"a":1,"b":1.}"#, #"{"a":1,"b":1e}"#,
      #"{"a":1,"b":1e400}"#, #"{"a":1,"b":-1e-400}"#, "{\"a\":1,\"b\":\"\u{1}\"}",
      #"{"a":1,"b":"\u0000"}"#,
    ]
    for json in acceptedAsA {
      #expect(try JSONDecoder().decode(A.self, from: Data(json.utf8)) == A(a: 1), "\(json)")
      try expectParseError(A.self, json)
    }
    // Ill-formed UTF-8 where nobody reads it: a lone byte, an encoded surrogate.
    for bytes: [UInt8] in [[0xC3, 0x28], [0xED, 0xA0, 0x80], [0xFF]] {
      let json = Data(#"{"a":1,"b":""#.utf8) + Data(bytes) + Data(#""}"#.utf8)
      #expect(try JSONDecoder().decode(A.self, from: json) == A(a: 1), "\(bytes)")
      #expect(throws: DecodingError.self, "\(bytes)") { try JKDecoder().decode(A.self, from: json) }
    }
    for json in [
      #"{"a":"\u0000"}"#, #"{"a":"\uFFFF"}"#, #"{"a":"\uFDD0"}"#, "{\"a\":\"\u{10FFFE}\"}",
    ] {
      _ = try JSONDecoder().decode(S.self, from: Data(json.utf8))
      try expectParseError(S.self, json)
    }
  }

  private func expectParseError<T: Decodable>(
    _ type: T.Type, _ json: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    do {
      _ = try JKDecoder().decode(type, from: json)
      Issue.record("JKDecoder accepted \(json)", sourceLocation: sourceLocation)
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.codingPath.isEmpty, sourceLocation: sourceLocation)
      #expect(context.underlyingError is JKParseError, sourceLocation: sourceLocation)
    }
  }

  /// Paths hold the keys the caller used, so a key of a `[Int: V]`
  /// dictionary has its `intValue` there, below it too (JKDecoder once
  /// rebuilt such keys from the document, by their strings only).
  @Test func codingPathsThroughIntKeyedDictionaries() {
    struct Inner: Decodable, Equatable { var x: Int }
    let json = #"{"5":{"x":"s"}}"#
    let foundation = DecodingOracle.foundationError([Int: Inner].self, json)
    let ours = DecodingOracle.ourError([Int: Inner].self, json)
    #expect(foundation?.path == [.init(string: "5", int: 5), .init(string: "x", int: nil)])
    #expect(ours?.path == foundation?.path)
    #expect(foundation?.kind == ours?.kind && foundation?.subject == ours?.subject)
    // The key the dictionary itself decodes with is the caller's, in both.
    let direct = #"{"5":"s"}"#
    DecodingOracle.expectSame([Int: Int].self, direct)
  }

  /// A UTF-8 byte order mark is skipped by both (UTF-16 and UTF-32 input
  /// is compared in the Foundation parity suite).
  @Test func aUTF8ByteOrderMarkIsSkipped() {
    DecodingOracle.expectSame([Int].self, "\u{FEFF}[1]")
  }

  /// JKDecoder's nesting limit is Foundation's: 512 levels.
  @Test func nestingLimitAndEmptyInput() {
    struct Ignored: Decodable, Equatable {
      init(from decoder: any Decoder) throws {}
    }
    for depth in [511, 512, 513, 2000] {
      let json = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
      DecodingOracle.expectSame(Ignored.self, json)
    }
    for json in ["", " ", "\n\t", "nul", "[", "{}x", "1 2"] {
      DecodingOracle.expectSame([Int].self, json)
    }
  }

  /// A Decimal keeps every digit or throws (JKDecoder's documented rule);
  /// Foundation rounds to Decimal's 38 digits.
  @Test func decimalsBeyondThirtyEightDigits() throws {
    let json = "[1.234567890123456789012345678901234567891]"
    let theirs = try JSONDecoder().decode([Decimal].self, from: Data(json.utf8))
    #expect(theirs == [Decimal(string: "1.23456789012345678901234567890123456789")!])
    #expect(DecodingOracle.ourError([Decimal].self, json)?.path.map(\.string) == ["Index 0"])
  }

  /// Decimal's exponent stops at 127, but its significand may end in zeros:
  /// `100e126` is 10 × 10^127, which it holds exactly, as it does every
  /// zero. Values it cannot hold still throw.
  @Test func decimalsAtTheEdgesOfTheirExponent() throws {
    for text in [
      "100e126", "10e127", "-100e126", "12300e125", "1e127", "99999999999999999999e110",
      "340282366920938463463374607431768211450e127", "3402823669209384634633746074317682114550e126",
      "1e-128", "0.1e-127", "-1.25e-126",
    ] {
      DecodingOracle.expectSame([Decimal].self, "[\(text)]")
      let ours = try JKDecoder().decode([Decimal].self, from: "[\(text)]")
      #expect(ours == [Decimal(string: text)!], "\(text)")
    }
    // Foundation rejects these, though they equal `10e127`, a 39-digit
    // significand times 10^127, and zero.
    #expect(
      try JKDecoder().decode([Decimal].self, from: "[1e128, 3.4e165]")
        == [
          Decimal(string: "10e127")!,
          Decimal(string: "340000000000000000000000000000000000000e127")!,
        ])
    #expect(
      try JKDecoder().decode(
        [Decimal].self, from: "[0e99999999999, -0.0e-99999999999, 0.00e200, -0e-300]")
        == [0, 0, 0, 0])
    for text in [
      "4e165", "3402823669209384634633746074317682114560e126", "1e-129", "10e-130",
      "1.0000000000000000000000000000000000000000001", "340282366920938463463374607431768211456",
      "-12.5e-128", "1e166",
    ] {
      let ours = DecodingOracle.ourError([Decimal].self, "[\(text)]")
      #expect(ours?.kind == "dataCorrupted", "\(text)")
      #expect(ours?.path.map(\.string) == ["Index 0"], "\(text)")
    }
  }

  /// (c) Duplicate keys: Foundation keeps the first value, JKDecoder the last.
  @Test func duplicateKeys() throws {
    struct A: Decodable, Equatable { var a: Int }
    let json = #"{"a":1,"b":0,"a":2}"#
    #expect(try JSONDecoder().decode(A.self, from: Data(json.utf8)) == A(a: 1))
    #expect(try JKDecoder().decode(A.self, from: json) == A(a: 2))
    #expect(try JSONDecoder().decode([String: Int].self, from: Data(json.utf8))["a"] == 1)
    #expect(try JKDecoder().decode([String: Int].self, from: json)["a"] == 2)
    // Either way there is one key.
    DecodingOracle.expectSame(KeyIDNames.self, json)
  }
}

extension DecodingOracle.Verdict {
  var isSame: Bool { self == .sameValue || self == .sameError }
}

extension OracleKeyStyle {
  var isPlain: Bool {
    if case .plain = self { return true }
    return false
  }
}

extension JSONDecoder.DateDecodingStrategy {
  var isFormatted: Bool {
    #if canImport(Darwin)
      if case .formatted = self { return true }
      return false
    #else
      // Elsewhere Foundation spells `.formatted` as a `.custom` closure.
      if case .custom = self { return true }
      return false
    #endif
  }
}
