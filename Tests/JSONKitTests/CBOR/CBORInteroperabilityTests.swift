import Foundation
import JSONKit
import Testing

/// What Python's cbor2 writes, JSONKit reads: committed fixtures, each with
/// the item the standard says it is (Scripts/cbor2-fixtures.py regenerates
/// them). Where cbor2 is installed, it also reads what JSONKit writes and
/// writes it back as the same items.
@Suite("CBOR: interoperability with Python's cbor2")
struct CBORInteroperabilityTests {
  /// `Tests/Fixtures/CBOR/cbor2`.
  static let directory = Fixtures.directory.appendingPathComponent("CBOR/cbor2")

  /// Each fixture's name and the diagnostic notation it must read as.
  static let expectations: [(name: String, diagnostic: String)] = {
    let url = directory.appendingPathComponent("expected.tsv")
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
      let fields = line.split(separator: "\t", maxSplits: 1)
      return (String(fields[0]), String(fields.count > 1 ? fields[1] : ""))
    }
  }()

  @Test("Every fixture cbor2 wrote reads as the item the standard says it is")
  func fixturesRead() throws {
    #expect(Self.expectations.count == 31)
    for (name, diagnostic) in Self.expectations {
      let bytes = try Data(contentsOf: Self.directory.appendingPathComponent(name + ".cbor"))
      let item = try CBORValue(cbor: bytes)
      #expect(item.description == diagnostic, "\(name)")
    }
  }

  struct Person: Decodable, Equatable {
    var name: String
    var email: String
  }

  final class SharedPerson: Decodable {
    var name: String
    var email: String
  }

  struct Task<Owner: Decodable>: Decodable {
    var title: String
    var state: String
    var owner: Owner
  }

  struct Records<Owner: Decodable>: Decodable {
    var owner: Owner
    var reviewer: Owner
    var tasks: [Task<Owner>]
    var labels: [String]
  }

  struct Nested: Decodable, Equatable {
    var pairs: [[Int]]
    var grid: [[[Int]]]
    var bytes: [Data]
  }

  /// The fixture `name` as bytes.
  static func fixture(_ name: String) throws -> Data {
    try Data(contentsOf: directory.appendingPathComponent(name + ".cbor"))
  }

  @Test(
    "cbor2's string references and shared values decode as the plain encoding does",
    arguments: ["stringref", "shared", "both"])
  func referencesDecodeAsPlain(_ variant: String) throws {
    let decoder = JKCBORDecoder()
    for name in ["records", "nested-shares", "many-strings"] {
      let plain = try Self.fixture(name)
      let referenced = try Self.fixture(name + "-" + variant)
      #expect(try CBORValue(cbor: referenced) == CBORValue(cbor: plain), "\(name)")
      #expect(
        try decoder.decode(JSONValue.self, from: referenced)
          == decoder.decode(JSONValue.self, from: plain), "\(name)")
    }
    let records = try decoder.decode(Records<Person>.self, from: Self.fixture("records-" + variant))
    let plainRecords = try decoder.decode(Records<Person>.self, from: Self.fixture("records"))
    #expect(records.owner == plainRecords.owner && records.reviewer == plainRecords.reviewer)
    #expect(records.tasks.map(\.owner) == plainRecords.tasks.map(\.owner))
    #expect(records.tasks.map(\.title) == plainRecords.tasks.map(\.title))
    #expect(records.labels == plainRecords.labels)
    #expect(
      try decoder.decode(Nested.self, from: Self.fixture("nested-shares-" + variant))
        == decoder.decode(Nested.self, from: Self.fixture("nested-shares")))
    #expect(
      try decoder.decode([[String: String]].self, from: Self.fixture("many-strings-" + variant))
        == decoder.decode([[String: String]].self, from: Self.fixture("many-strings")))
  }

  @Test("cbor2's shared dicts decode as one instance of a class", arguments: ["shared", "both"])
  func sharedInstances(_ variant: String) throws {
    let records = try JKCBORDecoder().decode(
      Records<SharedPerson>.self, from: Self.fixture("records-" + variant))
    #expect(records.owner === records.reviewer)
    #expect(records.tasks[0].owner === records.owner && records.tasks[1].owner === records.owner)
    #expect(records.tasks[2].owner !== records.owner)
    #expect(records.tasks[2].owner.name == "Charles")
    // Without shared values, every place is an instance of its own.
    let plain = try JKCBORDecoder().decode(
      Records<SharedPerson>.self, from: Self.fixture("records-stringref"))
    #expect(plain.owner !== plain.reviewer)
  }

  /// Whether `python3` with `cbor2` can be run here.
  static let cbor2IsInstalled: Bool = {
    #if os(macOS) || os(Linux)
      return (try? Python.run("import cbor2", input: Data())) != nil
    #else
      return false
    #endif
  }()

  #if os(macOS) || os(Linux)
    @Test(
      "cbor2 reads what JSONKit writes and writes it back as the same items",
      .enabled(if: cbor2IsInstalled, "needs python3 with cbor2 (pip install cbor2)"))
    func cbor2ReadsJSONKitsOutput() throws {
      // Items without the tags cbor2 turns into Python types of its own.
      var items: [CBORValue] = CBORAppendixATests.examples.filter(\.isPreferred).map(\.value)
        .filter {
          if case .tagged(let tag, _) = $0 { return tag == 2 || tag == 3 || tag == 23 }
          return true
        }
      items.append(["nested": [1, ["deep": [.bytes([0, 255]), .float(-0.0), .simple(99)]]]])
      items.append(.array((0..<100).map { CBORValue.text(String(repeating: "é", count: $0)) }))
      let script = """
        import sys, cbor2
        data = sys.stdin.buffer.read()
        items = cbor2.loads(data)
        sys.stdout.buffer.write(cbor2.dumps(items, canonical=False))
        """
      let written = CBORValue.array(items).cborBytes()
      let back = try Python.run(script, input: Data(written))
      #expect(try CBORValue(cbor: back) == .array(items))
    }
  #endif
}

#if os(macOS) || os(Linux)
  /// Runs Python scripts for the interoperability checks.
  enum Python {
    /// What `python3 -c script` writes to standard output, given `input`;
    /// throws when it cannot be run or exits with an error.
    static func run(_ script: String, input: Data) throws -> Data {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = ["python3", "-c", script]
      let stdin = Pipe()
      let stdout = Pipe()
      process.standardInput = stdin
      process.standardOutput = stdout
      process.standardError = FileHandle.nullDevice
      try process.run()
      try stdin.fileHandleForWriting.write(contentsOf: input)
      try stdin.fileHandleForWriting.close()
      let output = stdout.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      guard process.terminationStatus == 0 else { throw CocoaError(.fileReadUnknown) }
      return output
    }
  }
#endif
