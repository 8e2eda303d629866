import Foundation
import JSONKit
import Testing

// MARK: - Keys in any order

extension FoundationParityTests {
  /// A model with more members than the decoder scans before it makes a
  /// table of an object's members, and one with fewer.
  struct WideRecord: Codable, Equatable {
    var f00: Int
    var f01: String
    var f02: Double
    var f03: Bool
    var f04: Int?
    var f05: String?
    var f06: [Int]
    var f07: NarrowRecord
    var f08: NarrowRecord?
    var f09: Int
    var f10: Int
    var f11: Int
    var f12: Int
    var f13: Int
    var f14: Int
    var f15: Int
    var f16: Int
    var f17: Int
    var f18: Int
    var f19: Int
    var absent: Int?
  }

  struct NarrowRecord: Codable, Equatable {
    var name: String
    var id: Int
    var tag: String?
  }

  /// The members of one `WideRecord` object, as key and JSON text.
  static func wideMembers(_ seed: Int) -> [(String, String)] {
    var members = [
      ("f00", "\(seed)"), ("f01", #""s\#(seed)""#), ("f02", "\(seed).5"), ("f03", "true"),
      ("f04", "null"), ("f05", #""x""#), ("f06", "[1,2,\(seed)]"),
      ("f07", #"{"tag":"t","id":\#(seed),"name":"n"}"#), ("f08", #"{"id":2,"name":"m"}"#),
    ]
    for index in 9...19 { members.append((String(format: "f%02d", index), "\(index * seed)")) }
    members.append(("unknown", #"{"f00":"not this one"}"#))
    return members
  }

  static func object(_ members: [(String, String)]) -> String {
    "{" + members.map { #""\#($0.0)":\#($0.1)"# }.joined(separator: ",") + "}"
  }

  /// The ways keys are ordered in real JSON: as the model declares them,
  /// sorted, reversed, and shuffled (hash-map order).
  static func orders(of members: [(String, String)], seed: UInt64) -> [[(String, String)]] {
    var generator = SplitMix64(seed: seed)
    return [
      members, members.sorted { $0.0 < $1.0 }, members.reversed(),
      members.shuffled(using: &generator), members.shuffled(using: &generator),
    ]
  }

  @Test func aModelDecodesAlikeWhateverTheOrderOfItsKeys() throws {
    // One decoder for every document, so that the orders follow each other
    // through one warm key cache.
    let decoder = JKDecoder()
    for seed in 0..<6 {
      for members in Self.orders(of: Self.wideMembers(seed), seed: UInt64(seed)) {
        let json = Self.object(members)
        let ours = try decoder.decode(WideRecord.self, from: json)
        #expect(
          ours == (try JSONDecoder().decode(WideRecord.self, from: Data(json.utf8))), "\(json)")
        #expect(ours.f07.id == seed && ours.f19 == 19 * seed && ours.absent == nil)
        expectSameDecoding([WideRecord].self, "[\(json),\(json)]")
      }
    }
  }

  @Test func anArrayOfObjectsWithKeysInAnotherOrderEachDecodesAsFoundationDoes() throws {
    var generator = SplitMix64(seed: 7)
    var elements: [String] = []
    for seed in 0..<40 {
      elements.append(Self.object(Self.wideMembers(seed).shuffled(using: &generator)))
    }
    expectSameDecoding([WideRecord].self, "[" + elements.joined(separator: ",") + "]")
  }

  /// The members without those whose name (as `name` spells it) comes
  /// again later, or earlier when `keepingFirst`.
  static func deduplicated(
    _ members: [(String, String)], keepingFirst: Bool = false, name: (String) -> String = { $0 }
  ) -> [(String, String)] {
    var seen = Set<String>()
    let kept = (keepingFirst ? members : members.reversed()).filter {
      seen.insert(name($0.0)).inserted
    }
    return keepingFirst ? kept : kept.reversed()
  }

  /// The documented difference for duplicate keys, wherever they stand:
  /// JSONKit decodes what Foundation decodes from the object without the
  /// earlier duplicates (the last one wins), and Foundation what it decodes
  /// without the later ones.
  static func expectLastWins<T: Decodable & Equatable>(
    _ type: T.Type, _ members: [(String, String)],
    keys: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys, name: (String) -> String = { $0 },
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let foundation = JSONDecoder()
    foundation.keyDecodingStrategy = keys
    let jsonKit = JKDecoder()
    jsonKit.keyDecodingStrategy = keys
    func decode(_ decoder: (Data) throws -> T, _ members: [(String, String)])
      -> DecodeParityOutcome<T>
    {
      DecodeParityOutcome { try decoder(Data(object(members).utf8)) }
    }
    let ours = decode({ try jsonKit.decode(type, from: $0) }, members)
    let theirs = decode({ try foundation.decode(type, from: $0) }, members)
    let last = decode({ try foundation.decode(type, from: $0) }, deduplicated(members, name: name))
    let first = decode(
      { try foundation.decode(type, from: $0) },
      deduplicated(members, keepingFirst: true, name: name))
    #expect(ours == last, "\(object(members))", sourceLocation: sourceLocation)
    #expect(theirs == first, "\(object(members))", sourceLocation: sourceLocation)
  }

  @Test(arguments: [false, true])
  func duplicateKeysInShuffledOrderLastOneWinsWhereFoundationKeepsTheFirst(wide: Bool) throws {
    var generator = SplitMix64(seed: wide ? 11 : 12)
    for round in 0..<20 {
      var members = wide ? Self.wideMembers(round) : [("name", #""a""#), ("id", "1")]
      members.append(("f09", "-\(round)"))
      members.append(("name", #""b\#(round)""#))
      members.append(("id", "\(round + 100)"))
      members.shuffle(using: &generator)
      if wide {
        Self.expectLastWins(WideRecord.self, members)
      } else {
        Self.expectLastWins(NarrowRecord.self, members)
      }
    }
  }

  /// Canonically equivalent spellings of a key are duplicates of each other.
  @Test func canonicallyEquivalentDuplicatesInEitherOrderLastOneWins() throws {
    let spellings = [("\u{E9}", "1"), ("e\u{301}", "2"), ("K", "3"), ("\u{212A}", "4")]
    var generator = SplitMix64(seed: 31)
    for _ in 0..<12 {
      Self.expectLastWins(Kelvin.self, spellings.shuffled(using: &generator)) {
        $0.precomposedStringWithCanonicalMapping
      }
    }
  }

  /// The members a decoder may ask for and find missing: `contains`,
  /// `allKeys` and `decodeIfPresent`, in every order of the keys.
  struct Probe: Decodable, Equatable {
    var contained: [String]
    var all: [String]
    var present: [String: Int]

    static let names = ["f00", "f09", "f19", "absent", "unknown", "F00", ""]

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: ProbeKey.self)
      contained = Self.names.filter { container.contains(ProbeKey($0)) }
      all = container.allKeys.map(\.stringValue).sorted()
      var present: [String: Int] = [:]
      for name in Self.names {
        present[name] = try? container.decodeIfPresent(Int.self, forKey: ProbeKey(name))
      }
      self.present = present
    }
  }

  struct ProbeKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  @Test func containsAllKeysAndAbsentKeysAgreeWithFoundationInEveryOrder() throws {
    for members in Self.orders(of: Self.wideMembers(3), seed: 5) {
      let json = Self.object(members)
      let outcome = expectSameDecoding(Probe.self, json)
      guard case .value(let probe) = outcome else { continue }
      #expect(probe.contained == ["f00", "f09", "f19", "unknown"])
      #expect(probe.present["f09"] == 27)
      #expect(probe.all.count == 21)
    }
  }

  /// Keys spelled with other bytes that Swift holds equal: canonically
  /// equivalent spellings are one key, and an ASCII name finds a key
  /// spelled with a compatibility character equal to it, as in Foundation.
  struct Kelvin: Codable, Equatable {
    var kelvin: Int
    var acute: Int?

    enum CodingKeys: String, CodingKey {
      case kelvin = "K"
      case acute = "\u{E9}"
    }
  }

  @Test(arguments: [
    "{\"\u{212A}\":1}",
    "{\"\u{212A}\":1,\"\u{E9}\":2}",
    "{\"e\u{301}\":1,\"K\":2}",
    "{\"K\":2,\"e\u{301}\":4}",
    "{\"e\u{301}\":4,\"\u{212A}\":2}",
  ])
  func canonicallyEquivalentKeysDecodeAsFoundationDoesInEitherOrder(_ json: String) throws {
    expectSameDecoding(Kelvin.self, json)
    expectSameDecoding(KelvinSign.self, json)
    // With a decoder whose cache already holds the other spellings.
    let decoder = JKDecoder()
    _ = try? decoder.decode(Kelvin.self, from: "{\"K\":0,\"\u{E9}\":0}")
    _ = try? decoder.decode(KelvinSign.self, from: "{\"e\u{301}\":0,\"\u{212A}\":0}")
    #expect(
      (try? decoder.decode(Kelvin.self, from: json))
        == (try? JSONDecoder().decode(Kelvin.self, from: Data(json.utf8))), "\(json)")
    #expect(
      (try? decoder.decode(KelvinSign.self, from: json))
        == (try? JSONDecoder().decode(KelvinSign.self, from: Data(json.utf8))), "\(json)")
  }

  /// The other way round: the model's names spelled otherwise than the
  /// JSON's keys.
  struct KelvinSign: Codable, Equatable {
    var kelvin: Int
    var acute: Int?

    enum CodingKeys: String, CodingKey {
      case kelvin = "\u{212A}"
      case acute = "e\u{301}"
    }
  }

  /// Keys that `.convertFromSnakeCase` converts to one name, in every order
  /// and in objects small and large.
  struct SnakeRecord: Codable, Equatable {
    var aB: Int
    var userName: String?
    var f00: Int?
  }

  @Test(arguments: [false, true])
  func snakeCaseCollisionsInShuffledOrderLastOneWinsWhereFoundationKeepsTheFirst(wide: Bool) throws
  {
    var generator = SplitMix64(seed: wide ? 21 : 22)
    var members = [("a_b", "1"), ("aB", "2"), ("user_name", #""u""#), ("userName", #""v""#)]
    if wide { members += (0..<20).map { (String(format: "f_%02d", $0), "\($0)") } }
    let camelCased = ["a_b": "aB", "user_name": "userName", "f_00": "f00"]
    for _ in 0..<12 {
      members.shuffle(using: &generator)
      Self.expectLastWins(SnakeRecord.self, members, keys: .convertFromSnakeCase) {
        camelCased[$0] ?? $0
      }
    }
    // Without a collision, every order decodes as in Foundation.
    expectSameDecoding(
      [SnakeRecord].self, #"[{"f_00":1,"a_b":3},{"a_b":3,"user_name":"x"}]"#,
      keys: .convertFromSnakeCase)
  }

  /// Every member read by the names `allKeys` gives: more names than the
  /// decoder remembers as asked for, in a large object whose keys come in
  /// no order.
  struct EveryMember: Decodable, Equatable {
    var values: [String: Int]

    init(values: [String: Int]) {
      self.values = values
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: ProbeKey.self)
      var values: [String: Int] = [:]
      for key in container.allKeys {
        values[key.stringValue] = try container.decode(Int.self, forKey: key)
      }
      // Names no member has, asked for after all the others.
      for index in 0..<100 where container.contains(ProbeKey("absent\(index)")) {
        values["absent"] = index
      }
      self.values = values
    }
  }

  @Test func aLargeObjectReadThroughAllKeysDecodesAsInFoundation() throws {
    var generator = SplitMix64(seed: 41)
    let members = (0..<6_000).map { ("k\($0)", "\($0)") }.shuffled(using: &generator)
    let json = Self.object(members)
    let outcome = expectSameDecoding(EveryMember.self, json)
    #expect(
      outcome
        == .value(
          EveryMember(values: Dictionary(uniqueKeysWithValues: members.map { ($0.0, Int($0.1)!) })))
    )
    // Again through the same names, now remembered (or forgotten) already.
    expectSameDecoding([EveryMember].self, "[\(json),\(json)]")
  }

  /// A large object whose members are read in another order than written,
  /// around one member holding many more large objects read the same way:
  /// the decoder has long forgotten the outer object's member table by the
  /// time the members after the array are read, and finds them again.
  struct WideHolder: Decodable, Equatable {
    var first: Int
    var records: [WideRecord]
    var rest: [Int]

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: ProbeKey.self)
      first = try container.decode(Int.self, forKey: ProbeKey("first"))
      records = try container.decode([WideRecord].self, forKey: ProbeKey("records"))
      rest = try (0..<20).map { try container.decode(Int.self, forKey: ProbeKey("r\($0)")) }
    }
  }

  @Test func largeObjectsAroundManyOtherLargeObjectsDecodeAsInFoundation() throws {
    var generator = SplitMix64(seed: 23)
    let records = (0..<200).map { Self.object(Self.wideMembers($0).shuffled(using: &generator)) }
    var members = (0..<20).map { ("r\($0)", "\($0 * 3)") }
    members.append(("first", "7"))
    members.append(("records", "[" + records.joined(separator: ",") + "]"))
    let holders = (0..<3).map { _ in Self.object(members.shuffled(using: &generator)) }
    let outcome = expectSameDecoding([WideHolder].self, "[" + holders.joined(separator: ",") + "]")
    guard case .value(let decoded) = outcome else {
      Issue.record("expected a value, got \(outcome)")
      return
    }
    for holder in decoded {
      #expect(holder.first == 7 && holder.rest == (0..<20).map { $0 * 3 })
      #expect(holder.records.map(\.f00) == Array(0..<200))
    }
  }

  /// A name asked for before any document held it is found once one does.
  @Test func aKeyMissingFromEarlierDocumentsIsFoundInALaterOne() throws {
    let decoder = JKDecoder()
    #expect(throws: DecodingError.self) {
      try decoder.decode(NarrowRecord.self, from: #"{"id":1}"#)
    }
    #expect(
      try decoder.decode(NarrowRecord.self, from: #"{"tag":"t","id":1,"name":"n"}"#)
        == NarrowRecord(name: "n", id: 1, tag: "t"))
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    #expect(try decoder.decode(SnakeRecord.self, from: #"{"a_b":1}"#).userName == nil)
    #expect(
      try decoder.decode(SnakeRecord.self, from: #"{"user_name":"x","a_b":1}"#).userName == "x")
  }
}
