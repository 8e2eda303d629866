import Foundation
import JSONKit
import Testing

/// Round trips of seeded random values under every option: what JSONKit
/// writes, it reads back as the same value, and Foundation reads it alike.
@Suite("Properties")
struct PropertyTests {
  /// All sixteen subsets of the output options.
  static let allFormattings: [JKOutputFormatting] = (0..<16).map { bits in
    var formatting: JKOutputFormatting = []
    if bits & 1 != 0 { formatting.insert(.prettyPrinted) }
    if bits & 2 != 0 { formatting.insert(.sortedKeys) }
    if bits & 4 != 0 { formatting.insert(.withoutEscapingSlashes) }
    if bits & 8 != 0 { formatting.insert(.escapeUnicode) }
    return formatting
  }

  // MARK: - JSONValue

  /// The generator's strings hold U+0000 and noncharacters, which strict
  /// JSON as JSONKit reads it rejects; those round trips are checked on
  /// their own below.
  private static func readable(_ value: JSONValue) -> JSONValue {
    switch value {
    case .string(let string): .string(readable(string))
    case .array(let elements): .array(elements.map(readable))
    case .object(let object):
      .object(JSONObject(object.map { (readable($0.key), readable($0.value)) }))
    default: value
    }
  }

  private static func readable(_ string: String) -> String {
    String(String.UnicodeScalarView(string.unicodeScalars.map { isRejected($0) ? "\u{FFFD}" : $0 }))
  }

  /// Whether strict parsing rejects `scalar` in a string.
  static func isRejected(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value == 0 || (0xFDD0...0xFDEF).contains(scalar.value) || scalar.value & 0xFFFE == 0xFFFE
  }

  /// Writes with every option set and reads back: the same value, with the
  /// same doubles to the bit and keys in the same order (or sorted); and
  /// `JKEncoder` writes the same bytes as the value writer.
  @Test func randomValuesRoundTripUnderEveryFormatting() throws {
    var generator = JSONValueGenerator(seed: 0x9E0_BEEF)
    let decoder = JKDecoder()
    for round in 0..<300 {
      let value = Self.readable(generator.value(depth: 4))
      for formatting in Self.allFormattings {
        let bytes = try value.jsonBytes(options: formatting)
        let reread = try JSONValue(parsing: bytes)
        #expect(reread == value, "\(round) \(formatting)")
        #expect(
          Self.sameDoubles(reread, value)
            && Self.keyOrderKept(reread, value, sorted: formatting.contains(.sortedKeys)),
          "\(round) \(formatting)")
        let encoder = JKEncoder()
        encoder.outputFormatting = formatting
        #expect(try encoder.encodeToBytes(value) == bytes, "\(round) \(formatting)")
        #expect(try decoder.decode(JSONValue.self, from: bytes) == value, "\(round) \(formatting)")
      }
    }
  }

  /// Whether every `.double` in `left` is, bit for bit, the number at the
  /// same place in `right` (which may hold it as an integer when it is one).
  private static func sameDoubles(_ left: JSONValue, _ right: JSONValue) -> Bool {
    switch (left, right) {
    case (.double(let a), .double(let b)): return a.bitPattern == b.bitPattern
    case (.double(let a), _): return a.sign == .plus || a != 0
    case (_, .double(let b)): return b.sign == .plus || b != 0
    case (.array(let a), .array(let b)): return zip(a, b).allSatisfy { sameDoubles($0, $1) }
    case (.object(let a), .object(let b)):
      return a.allSatisfy { member in b[member.key].map { sameDoubles(member.value, $0) } ?? false }
    default: return true
    }
  }

  private static func keyOrderKept(_ reread: JSONValue, _ original: JSONValue, sorted: Bool) -> Bool
  {
    switch (reread, original) {
    case (.array(let a), .array(let b)):
      return zip(a, b).allSatisfy { keyOrderKept($0, $1, sorted: sorted) }
    case (.object(let a), .object(let b)):
      let expected =
        sorted ? b.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } : b.keys
      return a.keys.elementsEqual(expected) { $0.utf8.elementsEqual($1.utf8) }
        && a.allSatisfy { member in
          b[member.key].map { keyOrderKept(member.value, $0, sorted: sorted) } ?? false
        }
    default:
      return true
    }
  }

  // MARK: - Strings

  /// Strings from every plane, with escapes and control characters, as
  /// string values, as keys, and as Codable `String`s: those strict JSON
  /// allows are written and come back exactly; JSONKit's writers refuse those
  /// with U+0000 or a noncharacter, which Foundation writes, and JSONKit
  /// rejects Foundation's text strictly and reads it with U+FFFD under
  /// `.looseUnicode`.
  @Test func randomStringsRoundTrip() throws {
    var generator = JSONValueGenerator(seed: 0x57_2165)
    let encoder = JKEncoder()
    let decoder = JKDecoder()
    let looseDecoder = JKDecoder()
    looseDecoder.parseOptions = .looseUnicode
    for round in 0..<2000 {
      let string = generator.string() + String(generator.anyScalar())
      let expected = Self.readable(string)
      let rejected =
        expected != string || !expected.unicodeScalars.elementsEqual(string.unicodeScalars)
      for formatting in [
        JKOutputFormatting(), .withoutEscapingSlashes, .escapeUnicode,
        [.prettyPrinted, .sortedKeys],
      ] {
        let value: JSONValue = [.string(string), .object([string: .string(string)])]
        encoder.outputFormatting = formatting
        let bytes: Data
        let encoded: Data
        if rejected {
          let writing = #expect(throws: EncodingError.self, "\(round)") {
            try value.jsonBytes(options: formatting)
          }
          let encoding = #expect(throws: EncodingError.self, "\(round)") {
            try encoder.encode([string: [string]])
          }
          #expect(writing.map(ReadBack.isUnreadableScalarError) == true, "\(round)")
          #expect(encoding.map(ReadBack.isUnreadableScalarError) == true, "\(round)")
          let foundationEncoder = JSONEncoder()
          foundationEncoder.outputFormatting = JSONEncoder.OutputFormatting(
            rawValue: formatting.subtracting(.escapeUnicode).rawValue)
          bytes = try foundationEncoder.encode(value)
          encoded = try foundationEncoder.encode([string: [string]])
          #expect(throws: JKParseError.self, "\(round)") { try JSONValue(parsing: bytes) }
        } else {
          bytes = Data(try value.jsonBytes(options: formatting))
          encoded = try encoder.encode([string: [string]])
          #expect(Self.exactly(try JSONValue(parsing: bytes)[0], string), "\(round)")
          #expect(try decoder.decode([String: [String]].self, from: encoded) == [string: [string]])
        }
        let loose = try JSONValue(parsing: bytes, options: .looseUnicode)
        #expect(
          Self.exactly(loose[0], expected) && Self.exactly(loose[1]?[expected], expected),
          "\(round)")
        let foundation = try JSONDecoder().decode([String: [String]].self, from: encoded)
        #expect(
          foundation.first.map { Self.same($0.key, string) && Self.same($0.value[0], string) }
            == true)
        let ours = try looseDecoder.decode([String: [String]].self, from: encoded)
        #expect(
          ours.first.map { Self.same($0.key, expected) && Self.same($0.value[0], expected) } == true
        )
      }
    }
  }

  private static func exactly(_ value: JSONValue?, _ string: String) -> Bool {
    value?.stringValue.map { same($0, string) } ?? false
  }

  /// String equality by scalars, stricter than `==` (which equates
  /// canonically equivalent strings).
  private static func same(_ left: String, _ right: String) -> Bool {
    left.unicodeScalars.elementsEqual(right.unicodeScalars)
  }

  // MARK: - Codable models

  /// Random models through `JKEncoder` and `JKDecoder` under every output
  /// format and key, date, data and float strategy: decoded equal to what
  /// was encoded; Foundation's decoder reads the same model from the text;
  /// with sorted keys the text is Foundation's own.
  @Test func randomModelsRoundTripUnderEveryOption() throws {
    var random = JSONValueGenerator(seed: 0xC0DA_B1E)
    for round in 0..<120 {
      var model = PropertyModel.random(using: &random, depth: 2)
      let formatting = Self.allFormattings[round % 16]
      let strategies = Strategies(round / 16 % 8)
      if strategies.snakeCase {
        // Key strategies convert the keys of untyped objects too (as in
        // Foundation), and arbitrary keys do not survive the conversion.
        model = model.withoutUntypedValues()
      }
      let (encoder, foundationEncoder) = strategies.encoders(formatting)
      let (decoder, foundationDecoder) = strategies.decoders()
      let bytes = try encoder.encode(model)
      #expect(try decoder.decode(PropertyModel.self, from: bytes) == model, "\(round)")
      #expect(try foundationDecoder.decode(PropertyModel.self, from: bytes) == model, "\(round)")
      if formatting.contains(.sortedKeys), !formatting.contains(.escapeUnicode) {
        #expect(try foundationEncoder.encode(model) == bytes, "\(round)")
      }
      // Every other format for the same model.
      for other in Self.allFormattings {
        encoder.outputFormatting = other
        #expect(try decoder.decode(PropertyModel.self, from: encoder.encode(model)) == model)
      }
    }
  }

  /// One combination of the strategies both coders share.
  struct Strategies {
    var snakeCase: Bool
    var dates: Int
    var deferredData: Bool

    init(_ bits: Int) {
      snakeCase = bits & 1 != 0
      dates = bits >> 1 & 1
      deferredData = bits & 4 != 0
    }

    func encoders(_ formatting: JKOutputFormatting) -> (JKEncoder, JSONEncoder) {
      let ours = JKEncoder()
      let theirs = JSONEncoder()
      ours.outputFormatting = formatting
      theirs.outputFormatting = JSONEncoder.OutputFormatting(
        rawValue: formatting.subtracting(.escapeUnicode).rawValue)
      if snakeCase {
        ours.keyEncodingStrategy = .convertToSnakeCase
        theirs.keyEncodingStrategy = .convertToSnakeCase
      }
      if dates == 1 {
        ours.dateEncodingStrategy = .millisecondsSince1970
        theirs.dateEncodingStrategy = .millisecondsSince1970
      }
      if deferredData {
        ours.dataEncodingStrategy = .deferredToData
        theirs.dataEncodingStrategy = .deferredToData
      }
      let floats = JSONEncoder.NonConformingFloatEncodingStrategy.convertToString(
        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
      ours.nonConformingFloatEncodingStrategy = floats
      theirs.nonConformingFloatEncodingStrategy = floats
      return (ours, theirs)
    }

    func decoders() -> (JKDecoder, JSONDecoder) {
      let ours = JKDecoder()
      let theirs = JSONDecoder()
      if snakeCase {
        ours.keyDecodingStrategy = .convertFromSnakeCase
        theirs.keyDecodingStrategy = .convertFromSnakeCase
      }
      if dates == 1 {
        ours.dateDecodingStrategy = .millisecondsSince1970
        theirs.dateDecodingStrategy = .millisecondsSince1970
      }
      if deferredData {
        ours.dataDecodingStrategy = .deferredToData
        theirs.dataDecodingStrategy = .deferredToData
      }
      let floats = JSONDecoder.NonConformingFloatDecodingStrategy.convertFromString(
        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
      ours.nonConformingFloatDecodingStrategy = floats
      theirs.nonConformingFloatDecodingStrategy = floats
      return (ours, theirs)
    }
  }
}

/// A model with every kind of field Codable coders treat differently.
struct PropertyModel: Codable, Equatable {
  var id: Int
  var small: Int8
  var short: Int16?
  var medium: Int32
  var large: Int64
  var unsigned: UInt
  var byte: UInt8?
  var unsignedShort: UInt16
  var unsignedMedium: UInt32
  var unsignedLarge: UInt64
  var ratio: Double
  var single: Float?
  var amount: Decimal
  var when: Date
  var blob: Data
  var link: URL?
  var name: String
  var flag: Bool?
  var tags: [String]
  var grid: [[Int16]]
  var scores: [String: Double]
  var names: [Int: String]?
  var shape: PropertyShape?
  var shapes: [PropertyShape?]
  var extra: JSONValue?
  var children: [PropertyModel]

  static func random(using generator: inout JSONValueGenerator, depth: Int) -> PropertyModel {
    func integer<T: FixedWidthInteger>(_ type: T.Type) -> T {
      T(truncatingIfNeeded: generator.integer())
        &+ (Bool.random(using: &generator.random) ? 0 : T.max)
    }
    let strings = (0..<Int.random(in: 0...3, using: &generator.random)).map { _ in
      PropertyTests.readableString(&generator)
    }
    return PropertyModel(
      id: integer(Int.self), small: integer(Int8.self),
      short: Bool.random(using: &generator.random) ? integer(Int16.self) : nil,
      medium: integer(Int32.self), large: integer(Int64.self), unsigned: integer(UInt.self),
      byte: integer(UInt8.self), unsignedShort: integer(UInt16.self),
      unsignedMedium: integer(UInt32.self), unsignedLarge: integer(UInt64.self),
      ratio: randomDouble(&generator),
      single: Float(exactly: generator.finiteDouble())
        ?? Float(Int8.random(in: -9...9, using: &generator.random)),
      amount: randomDecimal(&generator),
      when: Date(
        timeIntervalSinceReferenceDate: Double(
          Int32.random(in: .min ... .max, using: &generator.random))),
      blob: Data(
        (0..<Int.random(in: 0...9, using: &generator.random)).map { _ in
          UInt8.random(in: 0...255, using: &generator.random)
        }),
      link: URL(
        string:
          "https://example.com/\(Int.random(in: 0...999, using: &generator.random))/a%20b?q=\u{E9}"),
      name: PropertyTests.readableString(&generator),
      flag: [true, false, nil][Int.random(in: 0...2, using: &generator.random)],
      tags: strings,
      grid: (0..<Int.random(in: 0...3, using: &generator.random)).map { _ in
        (0..<Int.random(in: 0...3, using: &generator.random)).map { _ in integer(Int16.self) }
      },
      scores: Dictionary(
        strings.map { ($0, randomDouble(&generator)) }, uniquingKeysWith: { a, _ in a }),
      names: Bool.random(using: &generator.random)
        ? [Int(integer(Int32.self)): PropertyTests.readableString(&generator)] : nil,
      shape: PropertyShape.random(using: &generator, depth: depth),
      shapes: (0..<Int.random(in: 0...3, using: &generator.random)).map { _ in
        PropertyShape.random(using: &generator, depth: depth)
      },
      // A null `extra` would decode as nil, as with any optional.
      extra: Bool.random(using: &generator.random)
        ? [PropertyTests.readableValue(&generator)] : nil,
      children: depth > 0
        ? (0..<Int.random(in: 0...2, using: &generator.random)).map { _ in
          random(using: &generator, depth: depth - 1)
        } : [])
  }

  /// The model with every `extra` removed.
  func withoutUntypedValues() -> PropertyModel {
    var model = self
    model.extra = nil
    model.children = children.map { $0.withoutUntypedValues() }
    return model
  }

  /// Any finite double, or now and then an infinity (written by the
  /// non-conforming float strategy).
  private static func randomDouble(_ generator: inout JSONValueGenerator) -> Double {
    Int.random(in: 0..<20, using: &generator.random) == 0
      ? [Double.infinity, -.infinity][Int.random(in: 0...1, using: &generator.random)]
      : generator.finiteDouble()
  }

  /// A Decimal with up to 39 significant digits, anywhere in its range.
  private static func randomDecimal(_ generator: inout JSONValueGenerator) -> Decimal {
    while true {
      let digits = Int.random(in: 1...39, using: &generator.random)
      var text = String(
        (0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &generator.random))) }
      )
      text = String(text.drop { $0 == "0" })
      guard let significand = Decimal(string: text.isEmpty ? "0" : text),
        text.count < 39 || text <= "340282366920938463463374607431768211455"
      else { continue }
      let exponent = Int.random(in: -128...127, using: &generator.random)
      let value = Decimal(
        sign: Bool.random(using: &generator.random) ? .plus : .minus, exponent: exponent,
        significand: significand)
      if !value.isNaN { return value }
    }
  }
}

/// An enum whose cases carry values, recursively.
indirect enum PropertyShape: Codable, Equatable {
  case point
  case circle(radius: Double)
  case label(String, size: Int8?)
  case group([PropertyShape])
  case wide(Int64, UInt64)

  static func random(using generator: inout JSONValueGenerator, depth: Int) -> PropertyShape {
    switch Int.random(in: 0..<(depth > 0 ? 5 : 4), using: &generator.random) {
    case 0: return .point
    case 1: return .circle(radius: generator.finiteDouble())
    case 2:
      return .label(
        PropertyTests.readableString(&generator),
        size: Bool.random(using: &generator.random)
          ? Int8.random(in: .min ... .max, using: &generator.random) : nil)
    case 3:
      return .wide(generator.integer(), UInt64.random(in: 0 ... .max, using: &generator.random))
    default:
      return .group(
        (0..<Int.random(in: 0...3, using: &generator.random)).map { _ in
          random(using: &generator, depth: depth - 1)
        })
    }
  }
}

extension PropertyTests {
  /// A random string that strict parsing accepts.
  static func readableString(_ generator: inout JSONValueGenerator) -> String {
    readable(generator.string())
  }

  /// A random value that strict parsing accepts.
  static func readableValue(_ generator: inout JSONValueGenerator) -> JSONValue {
    readable(generator.value(depth: 2))
  }
}
