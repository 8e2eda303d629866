import Foundation
import JSONKit
import JSONKitCorpus
import Testing

/// JKEncoder against Foundation's JSONEncoder on generated values: the same
/// bytes with `.sortedKeys` (Foundation's only deterministic order), the same
/// errors, every strategy; and JKEncoder's output decodes back to the value.
@Suite("Encoder against JSONEncoder")
struct EncoderOracleTests {
  /// Foundation's strategies and user info, set on both encoders at once.
  struct Setup: @unchecked Sendable {
    // Unchecked: `.formatted` strategies hold a DateFormatter, used read-only.
    var formatting: JKOutputFormatting = [.sortedKeys]
    var keys: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys
    var dates: JSONEncoder.DateEncodingStrategy = .deferredToDate
    var data: JSONEncoder.DataEncodingStrategy = .base64
    var floats: JSONEncoder.NonConformingFloatEncodingStrategy = .throw
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    var foundation: JSONEncoder {
      let encoder = JSONEncoder()
      // The options JSONEncoder has use the same bits.
      encoder.outputFormatting = JSONEncoder.OutputFormatting(
        rawValue: formatting.subtracting(.escapeUnicode).rawValue)
      encoder.keyEncodingStrategy = keys
      encoder.dateEncodingStrategy = dates
      encoder.dataEncodingStrategy = data
      encoder.nonConformingFloatEncodingStrategy = floats
      encoder.userInfo = userInfo
      return encoder
    }

    var jsonKit: JKEncoder {
      let encoder = JKEncoder()
      encoder.outputFormatting = formatting
      encoder.keyEncodingStrategy = keys
      encoder.dateEncodingStrategy = dates
      encoder.dataEncodingStrategy = data
      encoder.nonConformingFloatEncodingStrategy = floats
      encoder.userInfo = userInfo
      return encoder
    }
  }

  /// Every combination of the options both encoders have, sorted.
  static let formattings: [JKOutputFormatting] = [
    [.sortedKeys], [.sortedKeys, .prettyPrinted], [.sortedKeys, .withoutEscapingSlashes],
    [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes],
  ]

  /// What an `EncodingError` says: the case and the coding path.
  static func shape(_ error: any Error) -> String {
    guard case .invalidValue(_, let context) = error as? EncodingError else { return "\(error)" }
    return "invalidValue at \(oraclePath(context.codingPath))"
  }

  /// Encodes `value` with both encoders; nil when they agree (the same bytes,
  /// or errors of the same case and path), else what differs.
  static func difference<T: Encodable>(_ value: T, _ setup: Setup) -> String? {
    let theirs = OracleOutcome { try setup.foundation.encode(value) }
    let ours = OracleOutcome { try setup.jsonKit.encode(value) }
    switch (theirs, ours) {
    case (.value(let theirs), .value(let ours)):
      if theirs == ours {
        return ReadBack.holdsUnreadableScalar(ours)
          ? "JKEncoder wrote a string its reader rejects: \(String(decoding: ours, as: UTF8.self))"
          : nil
      }
      let mismatch =
        zip(theirs, ours).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(theirs.count, ours.count)
      let context = { (bytes: Data) in
        String(decoding: bytes.dropFirst(max(0, mismatch - 40)).prefix(80), as: UTF8.self)
      }
      return """
        output differs at byte \(mismatch) (formatting \(setup.formatting.rawValue)):
          JSONEncoder \(context(theirs))
          JKEncoder   \(context(ours))
        """
    case (.error(let theirs), .error(let ours)):
      guard theirs is EncodingError else { return "JSONEncoder threw \(theirs)" }
      return shape(theirs) == shape(ours) ? nil : "errors differ: \(theirs) / \(ours)"
    case (.error(let theirs), .value(let ours)):
      return "JSONEncoder threw \(theirs); JKEncoder wrote \(String(decoding: ours, as: UTF8.self))"
    case (.value(let theirs), .error(let ours)):
      // The documented difference: JSONKit does not write what it cannot read.
      if ReadBack.holdsUnreadableScalar(theirs), ReadBack.isUnreadableScalarError(ours) {
        return nil
      }
      return "JSONEncoder wrote \(String(decoding: theirs, as: UTF8.self)); JKEncoder threw \(ours)"
    }
  }

  static func expectSame<T: Encodable>(
    _ value: T, _ setup: Setup = Setup(), sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for formatting in formattings {
      var setup = setup
      setup.formatting = formatting
      if let difference = difference(value, setup) {
        Issue.record("\(value)\n\(difference)", sourceLocation: sourceLocation)
      }
    }
  }

  // MARK: - Generated values

  /// Encodes `count` generated model instances with both encoders, in every
  /// formatting, and checks that JKEncoder's output decodes back to the value.
  func run(
    seed: UInt64, count: Int, setup: Setup = Setup(),
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Int {
    var generator = OracleGenerator(seed: seed)
    var failures = 0
    for index in 0..<count {
      let schema =
        generator.chance(80)
        ? generator.object(depth: 3, level: 0) : generator.schema(depth: 3, level: 0)
      let value = generator.value(for: schema, strict: false)
      var withFormatting = setup
      for formatting in Self.formattings {
        withFormatting.formatting = formatting
        let instance = OracleInstance(value: value, schema: schema)
        guard let difference = Self.difference(instance, withFormatting) else {
          continue
        }
        failures += 1
        if failures <= 5 {
          Issue.record(
            "seed \(seed) case \(index)\nschema: \(schema)\nvalue: \(value)\n\(difference)",
            sourceLocation: sourceLocation)
        }
      }
    }
    return failures
  }

  @Test func generatedModels() {
    #expect(run(seed: 0xE1C0_0001, count: 400) == 0)
  }

  /// Keys that test `.convertToSnakeCase`: runs of capitals, digits, leading
  /// and trailing underscores, letters whose case mapping changes length.
  static let camelKeys = [
    "userName", "myURLValue", "already_snake", "_leading", "trailing_", "aB", "ABC", "a1B2",
    "éÉ", "ÀBc", "ǅx", "x", "", "URLs", "userID", "iOS", "IPv6Address", "snake__case", "ßig",
    "İstanbul", "ﬁeldName", "σΣ", "日本Go", "a😀B", "HTTPServer2Go", "_", "__x__", "oneTwoThree",
  ]

  @Test func generatedModelsWithSnakeCaseKeys() {
    var setup = Setup()
    setup.keys = .convertToSnakeCase
    var failures = 0
    // Keys of objects read through a keyed container are converted; those of
    // [String: V] are not: the generated values have both.
    failures += run(seed: 0xE1C0_0002, count: 200, setup: setup)
    for key in Self.camelKeys {
      let schema = OracleSchema.object([
        OracleField(name: key, schema: .scalar(.int), access: .typed)
      ])
      Self.expectSame(OracleInstance(value: .object([key: .int(1)]), schema: schema), setup)
    }
    #expect(failures == 0)
  }

  /// One object per key, so that keys converting to the same name stay apart.
  struct KeyList: Encodable {
    var keys: [String]
    func encode(to encoder: any Encoder) throws {
      var list = encoder.unkeyedContainer()
      for key in keys {
        var object = list.nestedContainer(keyedBy: OracleKey.self)
        try object.encode(0, forKey: OracleKey(stringValue: key))
      }
    }
  }

  /// `.convertToSnakeCase` on keys with combining marks, prepended marks,
  /// emoji sequences and Hangul jamo: Foundation finds capitals one scalar
  /// at a time but steps over whole characters around them.
  @Test func snakeCaseKeysOfManyScalarsPerCharacter() {
    var keys = [
      "aB\u{301}c", "xABC\u{301}d", "aB\u{600}a", "ÉB\u{308}C\u{301}dE\u{301}", "a\u{301}B",
      "\u{301}AB", "AB\u{301}", "aB\u{1F3FB}c", "aBC\u{200D}d", "a\u{1100}\u{1161}B\u{11A8}c",
    ]
    // U+0600, which joins the next character to it, is left out: Foundation
    // traps on some keys with it before a capital.
    let pool: [Unicode.Scalar] = [
      "a", "z", "A", "Z", "_", "1", "-", "\u{301}", "\u{308}", "\u{345}", "\u{200D}", "\u{FE0F}",
      "\u{20E3}", "\u{1F600}", "\u{1F3FB}", "\u{1F1E6}", "\u{1100}", "\u{1161}", "\u{11A8}",
      "\u{AC00}", "\u{1C5}", "\u{130}", "\u{3A3}", "\u{3C3}", "\u{DF}", "\u{FB01}", "\u{903}",
      "\u{915}", "\u{94D}", "\u{E33}", "\r", "\n", "\u{2160}", "\u{24B6}", "\u{1D400}", "\u{10400}",
      "\u{10428}", "\u{E0041}", "É", "é", "\u{1E9E}",
    ]
    var random = SplitMix64(seed: 0xE1C0_0008)
    for _ in 0..<2_000 {
      var key = ""
      for _ in 0..<Int.random(in: 1...9, using: &random) {
        key.unicodeScalars.append(pool.randomElement(using: &random)!)
      }
      keys.append(key)
    }
    var setup = Setup()
    setup.keys = .convertToSnakeCase
    Self.expectSame(KeyList(keys: keys), setup)
  }

  @Test func generatedModelsWithACustomKeyStrategy() {
    var setup = Setup()
    // The transform sees the whole path, which must be Foundation's (see
    // `codingPathsInNestedContainers`).
    setup.keys = .custom { path in
      OracleKey(stringValue: path.map(\.stringValue).joined(separator: ".").uppercased() + "!")
    }
    #expect(run(seed: 0xE1C0_0003, count: 200, setup: setup) == 0)
  }

  @Test func generatedJSONValues() {
    var generator = JSONValueGenerator(seed: 0xE1C0_0004)
    var failures = 0
    for index in 0..<500 {
      let value = generator.value(depth: 4)
      for formatting in Self.formattings {
        var setup = Setup()
        setup.formatting = formatting
        guard let difference = Self.difference(value, setup) else { continue }
        failures += 1
        if failures <= 5 { Issue.record("case \(index): \(value)\n\(difference)") }
      }
    }
    #expect(failures == 0)
  }

  /// Doubles from the whole bit range, Floats, every integer width at and
  /// near its limits, and strings from every plane with control characters,
  /// quotes, backslashes and slashes.
  @Test func scalarsOfEveryKind() {
    var generator = JSONValueGenerator(seed: 0xE1C0_0005)
    var doubles: [Double] = [0, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1e-7, 1e21]
    var floats: [Float] = [0, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1e-7, 1e21]
    // Strings JSONKit reads back, so that each collection below is compared
    // byte for byte (ReadBackParityTests has the others).
    var strings = ["", "/", "\\/", "\u{1}\u{1F}\u{7F}", "\u{2028}\u{2029}", "😀", "\"\\"]
    for _ in 0..<2000 {
      doubles.append(generator.finiteDouble())
      let bits = UInt32(truncatingIfNeeded: generator.random.next())
      if Float(bitPattern: bits).isFinite { floats.append(Float(bitPattern: bits)) }
      let string = generator.string()
      if OracleGenerator.isStrict(string) { strings.append(string) }
    }
    Self.expectSame(doubles)
    Self.expectSame(floats)
    Self.expectSame(strings)
    Self.expectSame(Set(strings))
    Self.expectSame(Dictionary(strings.map { ($0, 1) }, uniquingKeysWith: +))
    Self.expectSame([Int8.min, -1, 0, 1, .max])
    Self.expectSame([Int16.min, .max])
    Self.expectSame([Int32.min, .max])
    Self.expectSame([Int64.min, .max])
    Self.expectSame([Int.min, .max])
    Self.expectSame([UInt8.max, 0])
    Self.expectSame([UInt16.max])
    Self.expectSame([UInt32.max])
    Self.expectSame([UInt64.max, 1 << 63])
    Self.expectSame([UInt.max])
    let integers = (0..<500).map { _ in generator.integer() }
    Self.expectSame(integers)
    Self.expectSame(integers.map { Int32(truncatingIfNeeded: $0) })
    Self.expectSame(integers.map { UInt16(truncatingIfNeeded: $0) })
    for double in doubles.prefix(50) { Self.expectSame(double) }
  }

  // MARK: - Strategies

  struct Stamps: Codable, Equatable {
    var when: Date
    var list: [Date]
    var maybe: Date?
    var blob: Data
    var blobs: [Data]
  }

  static func stamps(_ generator: inout JSONValueGenerator) -> [Stamps] {
    (0..<20).map { _ in
      func date() -> Date {
        Date(
          timeIntervalSince1970: Double(
            Int64.random(in: -4_000_000_000...4_000_000_000, using: &generator.random)) / 1000
            * (Bool.random(using: &generator.random) ? 1 : 1000))
      }
      func data() -> Data {
        Data(
          (0..<Int.random(in: 0..<40, using: &generator.random)).map { _ in
            UInt8.random(in: 0...255, using: &generator.random)
          })
      }
      return Stamps(
        when: date(), list: [date(), date()],
        maybe: Bool.random(using: &generator.random) ? date() : nil,
        blob: data(), blobs: [data(), Data()])
    }
  }

  @Test func dateAndDataStrategies() {
    var generator = JSONValueGenerator(seed: 0xE1C0_0006)
    let values = Self.stamps(&generator)
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS"
    let dates: [JSONEncoder.DateEncodingStrategy] = [
      .deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601, .formatted(formatter),
      .custom { date, encoder in
        var container = encoder.unkeyedContainer()
        try container.encode(date.timeIntervalSince1970.rounded())
        try container.encode(oraclePath(encoder.codingPath))
      },
      .custom { _, _ in },
    ]
    let datas: [JSONEncoder.DataEncodingStrategy] = [
      .deferredToData, .base64,
      .custom { data, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(data.map { String($0, radix: 16) }.joined(separator: ":"))
      },
      .custom { _, _ in },
    ]
    for (dateIndex, date) in dates.enumerated() {
      var setup = Setup()
      setup.dates = date
      setup.data = datas[dateIndex % datas.count]
      Self.expectSame(values, setup)
      Self.expectSame(values[0].when, setup)
      Self.expectSame(values[0].blob, setup)
    }
  }

  struct Floats: Codable {
    var double: Double
    var float: Float
    var list: [Double]
    var floats: [Float?]
  }

  @Test func nonConformingFloats() {
    let cases = [
      Floats(double: .infinity, float: 1, list: [], floats: []),
      Floats(double: 1, float: -.infinity, list: [], floats: []),
      Floats(double: 1, float: 1, list: [0, .nan], floats: []),
      Floats(double: 1, float: 1, list: [], floats: [nil, 1, .nan]),
      Floats(double: -.infinity, float: .nan, list: [.infinity, -.nan], floats: [.infinity]),
    ]
    for strategy: JSONEncoder.NonConformingFloatEncodingStrategy in [
      .throw,
      .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN"),
      .convertToString(positiveInfinity: "+∞/", negativeInfinity: "\"-∞\"", nan: "\u{0}"),
    ] {
      var setup = Setup()
      setup.floats = strategy
      for value in cases {
        Self.expectSame(value, setup)
        Self.expectSame(value.list, setup)
        Self.expectSame(value.floats, setup)
      }
    }
  }

  /// Dates whose seconds or milliseconds since 1970 are not finite:
  /// Foundation throws for them even when told how to write non-finite
  /// floats.
  @Test func datesTooFarAwayForANumber() {
    let far = Date(timeIntervalSince1970: 1e306)
    let values = [
      Date(timeIntervalSince1970: .infinity), Date(timeIntervalSince1970: -.infinity),
      Date(timeIntervalSince1970: .nan), far,
    ]
    for dates: JSONEncoder.DateEncodingStrategy in [.secondsSince1970, .millisecondsSince1970] {
      for floats: JSONEncoder.NonConformingFloatEncodingStrategy in [
        .throw, .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan"),
      ] {
        var setup = Setup()
        setup.dates = dates
        setup.floats = floats
        for value in values {
          Self.expectSame(value, setup)
          Self.expectSame([value], setup)
          Self.expectSame(["when": value], setup)
          Self.expectSame(
            Stamps(when: far, list: [value], maybe: nil, blob: Data(), blobs: []), setup)
        }
        #expect(throws: EncodingError.self) {
          try setup.jsonKit.encode([Date(timeIntervalSince1970: .infinity)])
        }
      }
    }
  }

  static let userInfoKey = CodingUserInfoKey(rawValue: "oracle.encoder.tag")!

  /// Writes the user info it finds, and its coding path, at every level.
  struct Tagged: Encodable {
    var depth: Int
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: OracleKey.self)
      let tag = encoder.userInfo[EncoderOracleTests.userInfoKey] as? String ?? "none"
      try container.encode(
        tag + "@" + oraclePath(encoder.codingPath), forKey: .init(stringValue: "tag"))
      guard depth > 0 else { return }
      try container.encode([Tagged(depth: depth - 1)], forKey: .init(stringValue: "list"))
      try Tagged(depth: depth - 1).encode(to: container.superEncoder())
      try Tagged(depth: depth - 1).encode(
        to: container.superEncoder(forKey: .init(stringValue: "base")))
    }
  }

  @Test func userInfoAndCodingPaths() {
    var setup = Setup()
    setup.userInfo[Self.userInfoKey] = "tag"
    Self.expectSame(Tagged(depth: 3), setup)
    Self.expectSame(Tagged(depth: 2))
  }

  /// Writes the coding path its encoder reports.
  struct Path: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(oraclePath(encoder.codingPath))
    }
  }

  /// Writes the coding paths of its encoder and its containers, encoding
  /// values into containers nested in each other, one of them a NaN.
  struct Nested: Encodable {
    var nan = false
    var outOfOrder = false

    /// Encodes `value` through its single-value container.
    struct SingleValue<Value: Encodable>: Encodable {
      var value: Value
      func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
      }
    }

    /// Writes its encoder's path and its container's, and nests again.
    struct Inner: Encodable {
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: OracleKey.self)
        try container.encode(oraclePath(encoder.codingPath), forKey: .init(stringValue: "enc"))
        try container.encode(oraclePath(container.codingPath), forKey: .init(stringValue: "con"))
        var nested = container.nestedContainer(
          keyedBy: OracleKey.self, forKey: .init(stringValue: "n"))
        try nested.encode(Path(), forKey: .init(stringValue: "v"))
      }
    }

    func encode(to encoder: any Encoder) throws {
      func key(_ name: String) -> OracleKey { OracleKey(stringValue: name) }
      var container = encoder.container(keyedBy: OracleKey.self)
      var late = container.nestedContainer(keyedBy: OracleKey.self, forKey: key("late"))
      if outOfOrder { try container.encode(0, forKey: key("early")) }
      var nested = container.nestedContainer(keyedBy: OracleKey.self, forKey: key("a"))
      try nested.encode(Path(), forKey: key("x"))
      try nested.encode(oraclePath(nested.codingPath), forKey: key("con"))
      try nested.encode(["k": Path()], forKey: key("dict"))
      try nested.encode(["k": ["k": ["k": Path()]]], forKey: key("dicts"))
      try nested.encode([["k": [Path()]]], forKey: key("dictsInArray"))
      try nested.encode(SingleValue(value: ["k": Path()]), forKey: key("single"))
      try nested.encode(Inner(), forKey: key("inner"))
      var deeper = nested.nestedContainer(keyedBy: OracleKey.self, forKey: key("b"))
      try deeper.encode([Path()], forKey: key("list"))
      try Path().encode(to: deeper.superEncoder())
      try Inner().encode(to: deeper.superEncoder(forKey: key("base")))
      var list = container.nestedUnkeyedContainer(forKey: key("u"))
      try list.encode(Path())
      var inner = list.nestedContainer(keyedBy: OracleKey.self)
      try inner.encode(Path(), forKey: key("y"))
      try inner.encode(oraclePath(inner.codingPath), forKey: key("con"))
      var innerList = list.nestedUnkeyedContainer()
      try innerList.encode(Path())
      try Path().encode(to: list.superEncoder())
      try container.encode(Path(), forKey: key("direct"))
      try late.encode(Path(), forKey: key("z"))
      if nan { try deeper.encode([Double.nan], forKey: key("bad")) }
    }
  }

  /// A value encoded into a nested container gets the path of the encoder
  /// that made the outermost of those containers, plus its own key: in
  /// Foundation the keys of nested containers are in their own coding paths
  /// and in the paths a custom key strategy sees, but not in the paths of
  /// the values (or errors) inside them. JKEncoder gives the same paths.
  @Test func codingPathsInNestedContainers() throws {
    for outOfOrder in [false, true] {
      Self.expectSame(Nested(outOfOrder: outOfOrder))
      Self.expectSame(["top": Nested(outOfOrder: outOfOrder)])
      Self.expectSame(Nested(nan: true, outOfOrder: outOfOrder))
      Self.expectSame([Nested(nan: true, outOfOrder: outOfOrder)])
      var setup = Setup()
      setup.keys = .custom { path in OracleKey(stringValue: oraclePath(path)) }
      Self.expectSame(Nested(outOfOrder: outOfOrder), setup)
      Self.expectSame(["top": Nested(outOfOrder: outOfOrder)], setup)
      setup.keys = .convertToSnakeCase
      Self.expectSame(["top": Nested(outOfOrder: outOfOrder)], setup)
    }
    let ours = OracleOutcome { try JKEncoder().encode(Nested(nan: true)) }.error
    #expect(ours.map(Self.shape) == "invalidValue at bad/Index 0#0")
    let encoder = JKEncoder()
    encoder.outputFormatting = .sortedKeys
    let output = String(decoding: try encoder.encode(Nested()), as: UTF8.self)
    #expect(
      output.contains(
        #""b":{"base":{"con":"base","enc":"base","n":{"v":"base\/v"}},"list":["list\/Index 0#0"],"#
          + #""super":"super"}"#))
    #expect(output.contains(#""u":["Index 0#0",{"con":"u\/Index 1#1","y":"y"},["Index 0#0"]"#))
  }

  // MARK: - Round trips

  /// JKEncoder's output, sorted or not, decodes with JKDecoder to the value
  /// encoded; unsorted output is the same every time.
  @Test func roundTripsThroughJKDecoder() throws {
    var generator = OracleGenerator(seed: 0xE1C0_0007)
    let encoder = JKEncoder()
    for index in 0..<400 {
      let schema =
        generator.chance(80)
        ? generator.object(depth: 3, level: 0) : generator.schema(depth: 3, level: 0)
      let value = generator.value(for: schema, strict: true)
      let decoder = JKDecoder()
      decoder.userInfo = [OracleSchemaBox.key: OracleSchemaBox(schema)]
      let instance = OracleInstance(value: value, schema: schema)
      for formatting: JKOutputFormatting in [[], [.sortedKeys], [.prettyPrinted], [.escapeUnicode]]
      {
        encoder.outputFormatting = formatting
        let bytes = try encoder.encode(instance)
        let decoded = try decoder.decode(OracleNode.self, from: bytes).value.plain
        let expected = value.withoutNullMembers
        #expect(
          decoded.withoutNullMembers == expected,
          "case \(index) \(formatting.rawValue): \(expected.firstDifference(from: decoded) ?? "")")
        if formatting.isEmpty && !schema.hasUnorderedMembers {
          #expect(try encoder.encode(instance) == bytes, "case \(index)")
          #expect(try JKEncoder().encode(instance) == bytes, "case \(index)")
        }
      }
    }
  }

  // MARK: - Corpus models

  private func corpus(_ corpus: Corpus) throws -> Data {
    try corpus.data(in: try #require(Corpus.dataDirectory(nearSourceFile: #filePath)))
  }

  private func expectSameCorpusOutput<Model: Codable>(
    _ type: Model.Type, _ corpus: Corpus, snakeCase: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let decoder = JSONDecoder()
    if snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
    let model = try decoder.decode(type, from: try self.corpus(corpus))
    for formatting: JKOutputFormatting in [[.sortedKeys], [.sortedKeys, .prettyPrinted]] {
      var setup = Setup()
      setup.formatting = formatting
      if snakeCase { setup.keys = .convertToSnakeCase }
      let ours = try setup.jsonKit.encode(model)
      let theirs = try setup.foundation.encode(model)
      #expect(
        ours == theirs, "\(corpus.fileName) \(formatting.rawValue)", sourceLocation: sourceLocation)
    }
  }

  /// An object written with the keys in a given order, nested objects
  /// after its numbers.
  private struct OrderedObject: Encodable {
    struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }
    var pairs: [(key: String, value: Int)]
    var inner: [(key: String, value: OrderedObject)] = []

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      for (key, value) in pairs { try container.encode(value, forKey: Key(stringValue: key)) }
      for (key, value) in inner { try container.encode(value, forKey: Key(stringValue: key)) }
    }
  }

  /// Objects with the keys of one written before, in the same order or in
  /// another, with one key more or less, and keys alike for their first 8 or
  /// 16 bytes: sorted output is JSONEncoder's for each.
  @Test func objectsWithKeysSeenBeforeSortAsJSONEncoderDoes() throws {
    let keys = [
      "profile_background_color", "profile_background_image_url",
      "profile_background_image_url_https", "profile_image_url", "id", "id_str", "", "é",
      "e\u{301}", "z", "profile_",
    ]
    var generator = SplitMix64(seed: 0x5EED)
    var objects: [OrderedObject] = []
    var order = keys
    for round in 0..<200 {
      if round % 3 == 0 { order.shuffle(using: &generator) }
      let count = keys.count - round % 4
      let pairs = order.prefix(count).enumerated().map { (key: $0.element, value: $0.offset) }
      let inner = OrderedObject(pairs: Array(pairs.reversed()))
      objects.append(OrderedObject(pairs: pairs, inner: [(key: order[0], value: inner)]))
    }
    for formatting in Self.formattings {
      var setup = Setup()
      setup.formatting = formatting
      #expect(Self.difference(objects, setup) == nil)
    }
  }

  /// Keys that Swift's `String` holds equal (canonically equivalent) but
  /// spelled with other bytes are one key, as in JSONEncoder: the first
  /// spelling, the last value, and one nested container.
  @Test func canonicallyEquivalentKeysAreOneKey() {
    let spellings: [[String]] = [
      ["é", "e\u{301}"], ["e\u{301}", "é"], ["K", "\u{212A}"], ["\u{212A}", "K"],
      ["Å", "\u{212B}", "A\u{30A}"], ["q\u{323}\u{307}", "q\u{307}\u{323}"],
    ]
    for keys in spellings {
      let pairs = keys.enumerated().map { (key: $0.element, value: $0.offset) }
      let between = [pairs[0], (key: "a", value: 9)] + pairs.dropFirst()
      let nested = OrderedObject(
        pairs: [], inner: keys.map { (key: $0, value: OrderedObject(pairs: [(key: $0, value: 1)])) }
      )
      for formatting in Self.formattings {
        var setup = Setup()
        setup.formatting = formatting
        #expect(Self.difference(OrderedObject(pairs: pairs), setup) == nil, "\(keys)")
        #expect(Self.difference(OrderedObject(pairs: between), setup) == nil, "\(keys)")
        #expect(Self.difference(nested, setup) == nil, "\(keys)")
        #expect(Self.difference(NestedUnderEquivalentKeys(keys: keys), setup) == nil, "\(keys)")
      }
    }
  }

  /// Nested containers asked for under each of `keys` in turn, each given
  /// one member.
  private struct NestedUnderEquivalentKeys: Encodable {
    var keys: [String]
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: OrderedObject.Key.self)
      for (index, key) in keys.enumerated() {
        var nested = container.nestedContainer(
          keyedBy: OrderedObject.Key.self, forKey: OrderedObject.Key(stringValue: key))
        try nested.encode(index, forKey: OrderedObject.Key(stringValue: "m\(index)"))
      }
    }
  }

  @Test func corpusModelsEncodeAsJSONEncoderDoes() throws {
    try expectSameCorpusOutput(Twitter.SearchResult.self, .twitter)
    try expectSameCorpusOutput(TwitterFromSnakeCase.SearchResult.self, .twitter, snakeCase: true)
    try expectSameCorpusOutput(CITM.Catalog.self, .citmCatalog)
    try expectSameCorpusOutput(Canada.FeatureCollection.self, .canada)
  }
}
