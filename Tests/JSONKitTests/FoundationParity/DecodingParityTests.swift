import Foundation
import JSONKit
import Testing

// MARK: - Integers beyond 64 bits

extension FoundationParityTests {
  static let integersBeyond64Bits = [
    "18446744073709551616", "-9223372036854775809", "123456789012345678901234567890",
  ]

  /// Expects the error JSONKit gives for an integer beyond 64 bits read as
  /// a type that cannot hold it exactly.
  static func expectBeyond64Bits(
    _ body: () throws -> Any, at path: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      let value = try body()
      Issue.record("decoded \(value)", sourceLocation: sourceLocation)
    } catch DecodingError.dataCorrupted(let context) {
      #expect(
        context.codingPath.map(\.stringValue) == path, "\(context.codingPath)",
        sourceLocation: sourceLocation)
      #expect(
        context.debugDescription.contains("does not fit in 64 bits"), "\(context.debugDescription)",
        sourceLocation: sourceLocation)
    } catch {
      Issue.record("threw \(error)", sourceLocation: sourceLocation)
    }
  }

  struct DoubleField: Decodable, Equatable {
    let a: Double
  }

  struct FloatField: Decodable, Equatable {
    let a: Float?
  }

  /// The documented difference: Foundation rounds an integer literal that
  /// no 64-bit integer holds to the nearest Double; JSONKit's number rule
  /// makes it an error, so that no digit is lost without a word.
  @Test(arguments: integersBeyond64Bits)
  func anIntegerBeyond64BitsIsAnErrorAsADoubleWhereFoundationRoundsIt(_ literal: String) throws {
    let nearest = try #require(Double(literal))
    let foundation = JSONDecoder()
    #expect(try foundation.decode([Double].self, from: Data("[\(literal)]".utf8)) == [nearest])
    #expect(
      try foundation.decode(DoubleField.self, from: Data(#"{"a":\#(literal)}"#.utf8))
        == DoubleField(a: nearest))
    #expect(
      try foundation.decode(FloatField.self, from: Data(#"{"a":\#(literal)}"#.utf8))
        == FloatField(a: Float(nearest)))

    let decoder = JKDecoder()
    Self.expectBeyond64Bits(
      { try decoder.decode([Double].self, from: "[\(literal)]") }, at: ["Index 0"])
    Self.expectBeyond64Bits(
      { try decoder.decode([Float].self, from: "[\(literal)]") }, at: ["Index 0"])
    Self.expectBeyond64Bits(
      { try decoder.decode(DoubleField.self, from: #"{"a":\#(literal)}"#) }, at: ["a"])
    Self.expectBeyond64Bits(
      { try decoder.decode(FloatField.self, from: #"{"a":\#(literal)}"#) }, at: ["a"])
    Self.expectBeyond64Bits(
      { try decoder.decode([String: [Double]].self, from: #"{"k":[1,\#(literal)]}"#) },
      at: ["k", "Index 1"])
  }

  /// Untyped code that tries Int64, UInt64 and then Double: Foundation
  /// settles on a rounded Double, JSONKit on the error.
  @Test(arguments: integersBeyond64Bits)
  func untypedDecodingOfAnIntegerBeyond64BitsIsAnError(_ literal: String) throws {
    let json = #"{"list":[\#(literal)]}"#
    let foundation = try JSONDecoder().decode(
      DecoderConformanceTests.Untyped.self, from: Data(json.utf8))
    guard case .object(let members) = foundation, case .array(let list)? = members["list"],
      case .double(let value)? = list.first
    else {
      Issue.record("Foundation gave \(foundation)")
      return
    }
    #expect(value == Double(literal))
    Self.expectBeyond64Bits(
      { try JKDecoder().decode(DecoderConformanceTests.Untyped.self, from: json) },
      at: ["list", "Index 0"])
  }

  /// Every other way in says the same: the untyped tree, the `Any` bridge
  /// and `JSONValue` as a Codable field.
  @Test(arguments: integersBeyond64Bits)
  func everyPathRejectsAnIntegerBeyond64Bits(_ literal: String) throws {
    #expect(throws: JKParseError.self) { try JSONValue(parsing: "[\(literal)]") }
    #expect(throws: JKParseError.self) {
      try JKSerialization.jsonObject(with: Data("[\(literal)]".utf8))
    }
    Self.expectBeyond64Bits(
      { try JKDecoder().decode([String: JSONValue].self, from: #"{"a":[\#(literal)]}"#) },
      at: ["a", "Index 0"])
  }

  /// The types that hold such an integer exactly still take it.
  @Test(arguments: integersBeyond64Bits)
  func wideExactTypesTakeIntegersBeyond64Bits(_ literal: String) throws {
    let decoder = JKDecoder()
    let decimal = try #require(Decimal(string: literal))
    #expect(try decoder.decode([Decimal].self, from: "[\(literal)]") == [decimal])
    #expect(try JSONDecoder().decode([Decimal].self, from: Data("[\(literal)]".utf8)) == [decimal])
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      let wide = try #require(Int128(literal))
      #expect(try decoder.decode([Int128].self, from: "[\(literal)]") == [wide])
      if wide > 0 {
        #expect(try decoder.decode([UInt128].self, from: "[\(literal)]") == [UInt128(wide)])
      }
    }
  }
}

// MARK: - The metatype given is the type built

/// A class whose subclass adds a field, decoded through a superclass
/// metatype.
class ParityPerson: Decodable, CustomStringConvertible {
  let name: String
  enum CodingKeys: String, CodingKey { case name }

  required init(from decoder: any Decoder) throws {
    name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
  }

  /// The dynamic type and the fields, for comparing what two decoders built.
  var description: String { "\(type(of: self))(\(name))" }
}

final class ParityEmployee: ParityPerson {
  let salary: Int
  enum EmployeeKeys: String, CodingKey { case salary }

  required init(from decoder: any Decoder) throws {
    salary = try decoder.container(keyedBy: EmployeeKeys.self).decode(Int.self, forKey: .salary)
    try super.init(from: decoder)
  }

  override var description: String { "\(type(of: self))(\(name), \(salary))" }
}

/// Decodes `ParityEmployee.self as ParityPerson.Type` at every entry point a
/// container has, and notes what each built.
struct MetatypeProbe: Decodable, Equatable {
  var built: [String] = []
  enum CodingKeys: String, CodingKey { case one, list, absent }

  init(from decoder: any Decoder) throws {
    let type: ParityPerson.Type = ParityEmployee.self
    let keyed = try decoder.container(keyedBy: CodingKeys.self)
    built.append("keyed \(try keyed.decode(type, forKey: .one))")
    built.append(
      "keyed if present \(try keyed.decodeIfPresent(type, forKey: .one).map(\.description) ?? "nil")"
    )
    built.append(
      "absent \(try keyed.decodeIfPresent(type, forKey: .absent).map(\.description) ?? "nil")")
    var unkeyed = try keyed.nestedUnkeyedContainer(forKey: .list)
    built.append("unkeyed \(try unkeyed.decode(type))")
    built.append(
      "unkeyed if present \(try unkeyed.decodeIfPresent(type).map(\.description) ?? "nil")")
    built.append("after super decoder \(try type.init(from: try unkeyed.superDecoder()))")
    let single = try keyed.superDecoder(forKey: .one).singleValueContainer()
    built.append("single value \(try single.decode(type))")
    built.append(
      "root single value \(try decoder.singleValueContainer().decode([String: JSONValue].self).count)"
    )
  }
}

struct ConfiguredPersonConfiguration: DecodingConfigurationProviding {
  static let decodingConfiguration = "configured"
}

class ConfiguredPerson: DecodableWithConfiguration, CustomStringConvertible {
  let name: String

  required init(from decoder: any Decoder, configuration: String) throws {
    name = try decoder.singleValueContainer().decode(String.self) + " " + configuration
  }

  var description: String { "\(type(of: self))(\(name))" }
}

final class ConfiguredEmployee: ConfiguredPerson {}

extension FoundationParityTests {
  static let employeeJSON = #"{"name":"Ada","salary":3}"#

  @Test func decodingThroughASuperclassMetatypeBuildsTheSubclassAtTheTopLevel() throws {
    let type: ParityPerson.Type = ParityEmployee.self
    let foundation = try JSONDecoder().decode(type, from: Data(Self.employeeJSON.utf8))
    #expect(foundation.description == "ParityEmployee(Ada, 3)")
    let decoder = JKDecoder()
    #expect(
      try decoder.decode(type, from: Data(Self.employeeJSON.utf8)).description
        == foundation.description)
    #expect(
      try decoder.decode(type, from: Array(Self.employeeJSON.utf8)).description
        == foundation.description)
    #expect(try decoder.decode(type, from: Self.employeeJSON).description == foundation.description)
    let bytes = Array(Self.employeeJSON.utf8)
    let fromBuffer = try bytes.withUnsafeBytes { try decoder.decode(type, from: $0) }
    #expect(fromBuffer.description == foundation.description)
  }

  @Test func decodingThroughASuperclassMetatypeBuildsTheSubclassInEveryContainer() {
    let json = """
      {"one":\(Self.employeeJSON),"list":[\(Self.employeeJSON),\(Self.employeeJSON),\(Self.employeeJSON)]}
      """
    let outcome = expectSameDecoding(MetatypeProbe.self, json)
    guard case .value(let probe) = outcome else { return }
    // Through a keyed container the standard library's own wrapper passes
    // on `T.self`, the static type, to Foundation and JSONKit alike.
    #expect(
      probe.built == [
        "keyed ParityPerson(Ada)", "keyed if present ParityPerson(Ada)", "absent nil",
        "unkeyed ParityEmployee(Ada, 3)", "unkeyed if present ParityEmployee(Ada, 3)",
        "after super decoder ParityEmployee(Ada, 3)", "single value ParityEmployee(Ada, 3)",
        "root single value 2",
      ])
  }

  @Test func decodingWithAConfigurationBuildsTheMetatypeGiven() throws {
    let type: ConfiguredPerson.Type = ConfiguredEmployee.self
    let data = Data(#""Ada""#.utf8)
    let theirs = try JSONDecoder().decode(type, from: data, configuration: "x")
    let ours = try JKDecoder().decode(type, from: data, configuration: "x")
    #expect(theirs.description == "ConfiguredEmployee(Ada x)")
    #expect(ours.description == theirs.description)
    let provided = try JKDecoder().decode(
      type, from: data, configuration: ConfiguredPersonConfiguration.self)
    let foundationProvided = try JSONDecoder().decode(
      type, from: data, configuration: ConfiguredPersonConfiguration.self)
    #expect(provided.description == foundationProvided.description)
    #expect(provided.description == "ConfiguredEmployee(Ada configured)")
  }
}
