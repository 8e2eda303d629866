import Foundation
import JSONKit
import Testing

/// JSONKit reads back what it writes. Foundation writes U+0000 (as
/// `\u0000`) and the noncharacters (U+FDD0 to U+FDEF, U+nFFFE, U+nFFFF),
/// which JSONKit's strict reader rejects; JSONKit's writers throw
/// `EncodingError.invalidValue` for them instead, with the coding path
/// Foundation gives an error at the same place (the documented difference).
/// Every other string is written byte for byte as Foundation writes it and
/// reads back equal.
extension FoundationParityTests {
  /// Scalars JSONKit's reader rejects, at the edges of each range.
  /// (Swift's literals refuse U+FDD0 to U+FDEF, hence the numbers.)
  static let unreadableScalars: [Unicode.Scalar] = [
    0, 0xFDD0, 0xFDDF, 0xFDEF, 0xFFFE, 0xFFFF, 0x1_FFFE, 0x1_FFFF, 0xE_FFFF, 0x10_FFFE, 0x10_FFFF,
  ].map { Unicode.Scalar($0)! }

  /// Scalars next to those, which JSONKit reads and so writes, several of
  /// whose UTF-8 sequences share the lead bytes of the rejected ones.
  static let readableNeighbours: [Unicode.Scalar] = [
    "\u{1}", "\u{1F}", "\u{FDCF}", "\u{FDF0}", "\u{FFFD}", "\u{FEFF}", "\u{F000}", "\u{FFEF}",
    "\u{1FFFD}", "\u{1F600}", "\u{10000}", "\u{10FFFD}", "\u{EFFFD}", "\u{2028}", "\u{7F}",
  ]

  // MARK: - Models with the payload in one place

  /// The payload as a member of an object.
  private struct Member<Payload: Encodable>: Encodable {
    let id = 1
    let value: Payload
  }

  /// The payload as the second element of an array.
  private struct Element<Payload: Encodable>: Encodable {
    let value: Payload
    func encode(to encoder: any Encoder) throws {
      var container = encoder.unkeyedContainer()
      try container.encode(0)
      try container.encode(value)
    }
  }

  /// The payload deep inside: an object in an array in an object.
  private struct Deep<Payload: Encodable>: Encodable {
    let value: Payload
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      try container.encode([Member(value: value), Member(value: value)], forKey: AnyKey("items"))
    }
  }

  /// The payload in a single-value container, in an object member.
  private struct Single<Payload: Encodable>: Encodable {
    let value: Payload
    struct Wrapped: Encodable {
      let value: Payload
      func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
      }
    }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      try container.encode(Wrapped(value: value), forKey: AnyKey("wrapped"))
    }
  }

  /// A coding key made from any string.
  private struct AnyKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(_ string: String) {
      stringValue = string
      intValue = nil
    }
    init(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { nil }
  }

  /// A member named `key`, holding `value`.
  private struct Named<Payload: Encodable>: Encodable {
    let key: String
    let value: Payload
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      try container.encode(1, forKey: AnyKey("first"))
      try container.encode(value, forKey: AnyKey(key))
    }
  }

  /// What one encoder did: the bytes, or the error's case and path.
  private enum Outcome {
    case wrote(Data)
    case invalidValue(ParityPath, String)
    case other(any Error)

    init(_ body: () throws -> Data) {
      do {
        self = .wrote(try body())
      } catch EncodingError.invalidValue(_, let context) {
        self = .invalidValue(ParityPath(context.codingPath), context.debugDescription)
      } catch {
        self = .other(error)
      }
    }
  }

  /// Encodes `unreadable(text)` with JKEncoder and `unreadable(text)` with
  /// JSONEncoder, which writes it; then `nan` with JSONEncoder, which throws
  /// at the same place. JSONKit's error has Foundation's case and path there.
  private func expectRefusedWhereFoundationFails<Unreadable: Encodable, NaN: Encodable>(
    _ unreadable: (String) -> Unreadable, nan: NaN, scalar: Unicode.Scalar,
    configure: (JKEncoder, JSONEncoder) -> Void = { _, _ in },
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let text = "ab\(scalar)cd"
    let jsonKit = JKEncoder()
    let foundation = JSONEncoder()
    foundation.outputFormatting = .sortedKeys
    jsonKit.outputFormatting = .sortedKeys
    configure(jsonKit, foundation)
    let ours = Outcome { try jsonKit.encode(unreadable(text)) }
    let theirs = Outcome { try foundation.encode(unreadable(text)) }
    let reference = Outcome { try foundation.encode(nan) }
    guard case .wrote(let written) = theirs else {
      Issue.record("JSONEncoder did not write \(text.debugDescription): \(theirs)")
      return
    }
    // Foundation's text is one JSONKit's strict reader rejects.
    #expect(ReadBack.holdsUnreadableScalar(written), sourceLocation: sourceLocation)
    guard case .invalidValue(let path, let reason) = ours,
      case .invalidValue(let expectedPath, _) = reference
    else {
      Issue.record(
        "U+\(String(scalar.value, radix: 16)): JKEncoder \(ours), JSONEncoder \(reference)",
        sourceLocation: sourceLocation)
      return
    }
    #expect(
      path == expectedPath, "U+\(String(scalar.value, radix: 16))", sourceLocation: sourceLocation)
    let name = String(scalar.value, radix: 16, uppercase: true)
    #expect(
      reason.contains("U+" + String(repeating: "0", count: max(0, 4 - name.count)) + name),
      "\(reason)", sourceLocation: sourceLocation)
    #expect(
      reason.contains("cannot be read back by JSONKit's strict reader"), "\(reason)",
      sourceLocation: sourceLocation)
  }

  @Test func aStringValueJSONKitCannotReadBackThrowsWithFoundationsPath() {
    for scalar in Self.unreadableScalars {
      expectRefusedWhereFoundationFails({ $0 }, nan: Double.nan, scalar: scalar)
      expectRefusedWhereFoundationFails(
        { Member(value: $0) }, nan: Member(value: Double.nan), scalar: scalar)
      expectRefusedWhereFoundationFails(
        { Element(value: $0) }, nan: Element(value: Double.nan), scalar: scalar)
      expectRefusedWhereFoundationFails(
        { Deep(value: $0) }, nan: Deep(value: Double.nan), scalar: scalar)
      expectRefusedWhereFoundationFails(
        { Single(value: $0) }, nan: Single(value: Double.nan), scalar: scalar)
      expectRefusedWhereFoundationFails(
        { [["x": [$0]]] }, nan: [["x": [Double.nan]]], scalar: scalar)
      expectRefusedWhereFoundationFails(
        { Member(value: JSONValue.array([1, ["k": .string($0)]])) },
        nan: Member(value: JSONValue.array([1, ["k": .double(.nan)]])), scalar: scalar)
    }
  }

  @Test func aKeyJSONKitCannotReadBackThrowsWithThePathOfItsMember() {
    for scalar in Self.unreadableScalars {
      // A coding key's string value, a dictionary's key, a JSONValue's key.
      expectRefusedWhereFoundationFails(
        { Named(key: $0, value: 2) }, nan: Named(key: "ab\(scalar)cd", value: Double.nan),
        scalar: scalar)
      expectRefusedWhereFoundationFails(
        { Member(value: [$0: 2]) }, nan: Member(value: ["ab\(scalar)cd": Double.nan]),
        scalar: scalar)
      expectRefusedWhereFoundationFails(
        { Member(value: JSONValue.object([$0: 2])) },
        nan: Member(value: JSONValue.object(["ab\(scalar)cd": .double(.nan)])), scalar: scalar)
    }
  }

  @Test func aKeyTheKeyStrategyMakesUnreadableThrowsWithThePathOfItsMember() {
    let scalar = Unicode.Scalar(0xFDD0)!
    let renamed = JSONEncoder.KeyEncodingStrategy.custom { path in
      AnyKey(path.last!.stringValue == "value" ? "bad\(scalar)" : path.last!.stringValue)
    }
    expectRefusedWhereFoundationFails(
      { Member(value: $0.count) }, nan: Member(value: Double.nan), scalar: scalar,
      configure: { jsonKit, foundation in
        jsonKit.keyEncodingStrategy = renamed
        foundation.keyEncodingStrategy = renamed
      })
    // snake_case keeps the scalar.
    expectRefusedWhereFoundationFails(
      { Named(key: "camel\(scalar)Case", value: $0.count) },
      nan: Named(key: "camel\(scalar)Case", value: Double.nan), scalar: scalar,
      configure: { jsonKit, foundation in
        jsonKit.keyEncodingStrategy = .convertToSnakeCase
        foundation.keyEncodingStrategy = .convertToSnakeCase
      })
  }

  @Test func aNonConformingFloatStringJSONKitCannotReadBackThrowsWithFoundationsPath() throws {
    let strategy = JSONEncoder.NonConformingFloatEncodingStrategy.convertToString(
      positiveInfinity: "+", negativeInfinity: "-", nan: "\u{0}")
    let value = Member(value: [1, Double.nan])
    let foundation = JSONEncoder()
    let reference = #expect(throws: EncodingError.self) { try foundation.encode(value) }
    foundation.nonConformingFloatEncodingStrategy = strategy
    #expect(ReadBack.holdsUnreadableScalar(try foundation.encode(value)))
    let jsonKit = JKEncoder()
    jsonKit.nonConformingFloatEncodingStrategy = strategy
    let error = #expect(throws: EncodingError.self) { try jsonKit.encode(value) }
    guard case .invalidValue(_, let context) = error,
      case .invalidValue(_, let expected) = reference
    else { return }
    #expect(ParityPath(context.codingPath) == ParityPath(expected.codingPath))
    #expect(ReadBack.isUnreadableScalarError(error!))
  }

  @Test func aKeyOfANestedContainerJSONKitCannotReadBackThrowsAtTheEnd() throws {
    struct Nested: Encodable {
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        var nested = container.nestedUnkeyedContainer(forKey: AnyKey("n\u{FFFE}"))
        try nested.encode(1)
        try container.encode(2, forKey: AnyKey("z"))
      }
    }
    #expect(throws: Never.self) { try JSONEncoder().encode(Nested()) }
    let error = #expect(throws: EncodingError.self) { try JKEncoder().encode([Nested()]) }
    guard case .invalidValue(let value, let context) = error else { return }
    #expect(value as? String == "n\u{FFFE}")
    #expect(ParityPath(context.codingPath).description == "[Index 0#0, n\u{FFFE}]")
  }

  /// A member written into a nested container after a later sibling,
  /// which JSONKit writes as a tree, with `value` under `key`.
  private struct Late<Payload: Encodable>: Encodable {
    let key: String
    let value: Payload
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      var nested = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("a"))
      try container.encode(1, forKey: AnyKey("b"))
      try nested.encode(value, forKey: AnyKey(key))
    }
  }

  @Test func aStringOrKeyJSONKitCannotReadBackThrowsWhenWrittenAsATree() {
    for scalar in Self.unreadableScalars {
      expectRefusedWhereFoundationFails(
        { Late(key: "k", value: $0) }, nan: Late(key: "k", value: Double.nan), scalar: scalar)
      expectRefusedWhereFoundationFails(
        { Late(key: $0, value: 2) }, nan: Late(key: "ab\(scalar)cd", value: Double.nan),
        scalar: scalar)
    }
  }

  @Test func aValueErrorCaughtInsideEncodeLeavesTextJSONKitReadsBack() throws {
    struct Careful: Encodable {
      /// Whether the encoder refuses the strings (JSONKit's does).
      let refuses: Bool
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        try container.encode(1, forKey: AnyKey("a"))
        do {
          try container.encode("x\u{0}", forKey: AnyKey("b"))
          #expect(!refuses)
        } catch {
          #expect(refuses && ReadBack.isUnreadableScalarError(error))
        }
        var list = container.nestedUnkeyedContainer(forKey: AnyKey("c"))
        try list.encode("ok")
        do {
          try list.encode("\u{FFFE}")
          #expect(!refuses)
        } catch {
          #expect(refuses && ReadBack.isUnreadableScalarError(error))
        }
        try list.encode("fine")
      }
    }
    // Foundation writes both strings; JSONKit leaves out the two it refused.
    let theirs = try JSONEncoder().encode(Careful(refuses: false))
    #expect(
      try JSONValue(parsing: theirs, options: .looseUnicode)
        == ["a": 1, "b": "x\u{FFFD}", "c": ["ok", "\u{FFFD}", "fine"]])
    let ours = try JKEncoder().encode(Careful(refuses: true))
    #expect(try JSONValue(parsing: ours) == ["a": 1, "c": ["ok", "fine"]])
    // Under a key strategy the refused string's text cannot be taken out
    // from between the members; the tree the output goes to leaves it out.
    let strategies: [JKEncoder.KeyEncodingStrategy] = [
      .convertToSnakeCase, .custom { $0.last! },
    ]
    for strategy in strategies {
      let encoder = JKEncoder()
      encoder.keyEncodingStrategy = strategy
      let output = try encoder.encode(Careful(refuses: true))
      #expect(try JSONValue(parsing: output) == ["a": 1, "c": ["ok", "fine"]])
    }
  }

  @Test func aKeyOfAMemberWhoseValueFailedAndWasCaughtIsNotWritten() throws {
    struct Caught: Encodable {
      let keepsUnreadableKey: Bool
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        try container.encode(1, forKey: AnyKey(keepsUnreadableKey ? "k\u{FFFF}" : "k"))
        try? container.encode(Double.nan, forKey: AnyKey("x\u{0}"))
        var list = container.nestedUnkeyedContainer(forKey: AnyKey("list"))
        try? list.encode(["y\u{FFFE}": Double.nan])
        try list.encode(2)
      }
    }
    // Both encoders leave out the members whose values failed, keys and all.
    let foundation = JSONEncoder()
    foundation.outputFormatting = .sortedKeys
    let jsonKit = JKEncoder()
    jsonKit.outputFormatting = .sortedKeys
    let expected = try foundation.encode(Caught(keepsUnreadableKey: false))
    #expect(try jsonKit.encode(Caught(keepsUnreadableKey: false)) == expected)
    #expect(String(decoding: expected, as: UTF8.self) == #"{"k":1,"list":[2]}"#)
    // A key that stays is still refused.
    let error = #expect(throws: EncodingError.self) {
      try jsonKit.encode(Caught(keepsUnreadableKey: true))
    }
    guard case .invalidValue(let value, _) = error else { return }
    #expect(value as? String == "k\u{FFFF}")
  }

  @Test func jsonValuesWriterThrowsForAStringItCannotReadBack() throws {
    for scalar in Self.unreadableScalars {
      for options: JKOutputFormatting in [[], .escapeUnicode, [.prettyPrinted, .sortedKeys]] {
        let value: JSONValue = ["list": [1, .string("a\(scalar)")]]
        let error = #expect(throws: EncodingError.self) { try value.jsonString(options: options) }
        guard case .invalidValue(let invalid, let context) = error else { continue }
        #expect(invalid as? String == "a\(scalar)")
        #expect(ParityPath(context.codingPath).description == "[list, Index 1#1]")
        #expect(ReadBack.isUnreadableScalarError(error!))
        let key: JSONValue = ["a": ["k\(scalar)": true]]
        let keyError = #expect(throws: EncodingError.self) { try key.jsonData(options: options) }
        guard case .invalidValue(_, let keyContext) = keyError else { continue }
        #expect(ParityPath(keyContext.codingPath).description == "[a, k\(scalar)]")
      }
      // Text for people still shows it.
      #expect(JSONValue.string("a\(scalar)").description.contains("a"))
      #expect(JSONValue.quote("\(scalar)").count == (scalar == "\u{0}" ? 8 : 3))
    }
  }

  // MARK: - Every other string

  @Test func everyOtherStringIsWrittenAsFoundationWritesItAndReadsBackEqual() throws {
    var random = SplitMix64(seed: 0x7EAD_BAC7)
    let pool: [Unicode.Scalar] =
      Self.readableNeighbours + ["\"", "\\", "/", "\u{8}", "\u{C}", "\n", "\r", "\t", "é", "a"]
    func scalar() -> Unicode.Scalar {
      if Bool.random(using: &random) { return pool.randomElement(using: &random)! }
      while true {
        let value = UInt32.random(in: 1...0x10_FFFF, using: &random)
        guard let scalar = Unicode.Scalar(value) else { continue }  // a surrogate
        if value >= 0xFDD0 && value <= 0xFDEF || value & 0xFFFE == 0xFFFE { continue }
        return scalar
      }
    }
    var strings: [String] = Self.readableNeighbours.map { String($0) }
    for _ in 0..<3000 {
      var scalars = String.UnicodeScalarView()
      for _ in 0..<Int.random(in: 0...16, using: &random) { scalars.append(scalar()) }
      strings.append(String(scalars))
    }
    let foundation = JSONEncoder()
    foundation.outputFormatting = .sortedKeys
    let jsonKit = JKEncoder()
    jsonKit.outputFormatting = .sortedKeys
    let dictionary = Dictionary(strings.map { ($0, $0) }, uniquingKeysWith: { first, _ in first })
    for (index, string) in strings.enumerated() {
      let ours = try jsonKit.encode([string: [string]])
      #expect(ours == (try foundation.encode([string: [string]])), "\(index)")
      #expect(try JKDecoder().decode([String: [String]].self, from: ours) == [string: [string]])
      let value = try JSONValue(parsing: ours)
      #expect(
        value[string]?[0]?.stringValue.map {
          $0.unicodeScalars.elementsEqual(string.unicodeScalars)
        } == true, "\(index)")
    }
    let ours = try jsonKit.encode(dictionary)
    #expect(ours == (try foundation.encode(dictionary)))
    #expect(try JKDecoder().decode([String: String].self, from: ours) == dictionary)
    let value = JSONValue.object(
      JSONObject(dictionary.map { ($0.key, JSONValue.string($0.value)) }))
    #expect(try value.jsonData(options: .sortedKeys) == ours)
    #expect(try JSONValue(parsing: value.jsonData(options: .escapeUnicode)) == value)
  }
}
