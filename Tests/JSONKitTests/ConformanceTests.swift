import Foundation
import Testing

@testable import JSONKit

/// JSONTestSuite's parsing cases, each answered as `expectations.tsv` says.
@Suite("Conformance: JSONTestSuite")
struct ConformanceTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let file: String
    let accepts: Bool
    let reason: String
    var testDescription: String { file }
  }

  static let cases: [Case] = {
    let url = Fixtures.directory.appendingPathComponent("expectations.tsv")
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").dropFirst().map { line in
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      return Case(
        file: String(fields[0]), accepts: fields[1] == "accept",
        reason: fields.count > 2 ? String(fields[2]) : "")
    }
  }()

  @Test func everyFileHasAnExpectation() throws {
    let files = try FileManager.default.contentsOfDirectory(
      atPath: Fixtures.suite("test_parsing").path)
    #expect(files.count == 318)
    #expect(Set(files) == Set(Self.cases.map(\.file)))
  }

  @Test(arguments: cases)
  func parsing(_ testCase: Case) throws {
    let bytes = try Fixtures.bytes("test_parsing", testCase.file)
    let result = Result { try TestScan.documentTape(bytes) }
    switch result {
    case .success:
      #expect(testCase.accepts, "accepted, but expected rejection (\(testCase.reason))")
    case .failure(let error):
      #expect(!testCase.accepts, "rejected: \(error)")
    }
  }
}

/// JSONTestSuite's parsing cases through `JKDecoder`, answered as
/// `expectations.tsv` says: typed decoding follows the same rules as the
/// parser, also where a number reaches a `Double` through Codable.
@Suite("Conformance: JSONTestSuite through JKDecoder")
struct DecoderConformanceTests {
  /// Any JSON value, decoded as Foundation-style untyped code decodes it:
  /// a single value tried as Bool, Int64, UInt64, Double, String and null in
  /// turn, containers walked member by member, so that every number that
  /// no 64-bit integer holds reaches the `Double` path.
  indirect enum Untyped: Decodable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case array([Untyped])
    case object([String: Untyped])

    struct Key: CodingKey {
      let stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
      if var array = try? decoder.unkeyedContainer() {
        var elements: [Untyped] = []
        while !array.isAtEnd { elements.append(try array.decode(Untyped.self)) }
        self = .array(elements)
        return
      }
      if let object = try? decoder.container(keyedBy: Key.self) {
        var members: [String: Untyped] = [:]
        for key in object.allKeys {
          members[key.stringValue] = try object.decode(Untyped.self, forKey: key)
        }
        self = .object(members)
        return
      }
      let value = try decoder.singleValueContainer()
      if let bool = try? value.decode(Bool.self) {
        self = .bool(bool)
      } else if let int = try? value.decode(Int64.self) {
        self = .int(int)
      } else if let uint = try? value.decode(UInt64.self) {
        self = .uint(uint)
      } else if let double = try? value.decode(Double.self) {
        self = .double(double)
      } else if let string = try? value.decode(String.self) {
        self = .string(string)
      } else if value.decodeNil() {
        self = .null
      } else {
        // Whatever the last attempt says is wrong with the value.
        self = .double(try value.decode(Double.self))
      }
    }
  }

  static func expect(_ testCase: ConformanceTests.Case, _ result: Result<some Any, any Error>) {
    switch result {
    case .success:
      #expect(testCase.accepts, "decoded, but expected rejection (\(testCase.reason))")
    case .failure(let error):
      #expect(!testCase.accepts, "rejected: \(error)")
      #expect(error is DecodingError, "\(error)")
    }
  }

  @Test(arguments: ConformanceTests.cases)
  func decodingAsJSONValue(_ testCase: ConformanceTests.Case) throws {
    let bytes = try Fixtures.bytes("test_parsing", testCase.file)
    Self.expect(testCase, Result { try JKDecoder().decode(JSONValue.self, from: bytes) })
  }

  @Test(arguments: ConformanceTests.cases)
  func decodingUntyped(_ testCase: ConformanceTests.Case) throws {
    let bytes = try Fixtures.bytes("test_parsing", testCase.file)
    Self.expect(testCase, Result { try JKDecoder().decode(Untyped.self, from: bytes) })
  }
}
