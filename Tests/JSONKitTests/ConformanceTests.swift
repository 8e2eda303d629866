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
    let result = Result { try TestScan.tape(bytes) }
    switch result {
    case .success:
      #expect(testCase.accepts, "accepted, but expected rejection (\(testCase.reason))")
    case .failure(let error):
      #expect(!testCase.accepts, "rejected: \(error)")
    }
  }
}
