import Foundation
import JSONKit
import Testing

/// One JKDecoder and one JKEncoder shared by many concurrent tasks give the
/// same answers as when used one call at a time: the decoder's key cache and
/// the encoder's options and buffer sizing are safe to share.
@Suite("Concurrent coding")
struct ConcurrentCodingTests {
  /// Generated documents that all decode through one root schema: member
  /// `caseN` of the root holds document N, and every member is optional, so
  /// that `{"caseN": …}` decodes alone.
  struct Cases {
    var schema: OracleSchema
    var documents: [Data] = []
    var instances: [OracleInstance] = []

    init(seed: UInt64, count: Int, keyStyle: OracleKeyStyle) {
      var generator = OracleGenerator(seed: seed)
      generator.keyStyle = keyStyle
      var fields: [OracleField] = []
      for index in 0..<count {
        let schema = generator.object(depth: 3, level: 1)
        var sites: [OracleSite] = []
        let document = generator.document(for: schema, level: 1, sites: &sites)
        let name = "case\(index)"
        documents.append(
          Data(OracleJSON.object([OracleMember(key: name, value: document)]).text.utf8))
        fields.append(OracleField(name: name, schema: .optional(schema), access: .node))
        let value = generator.value(for: schema, strict: true)
        instances.append(OracleInstance(value: value, schema: schema))
      }
      schema = .object(fields)
    }
  }

  /// Decodes every document `rounds` times from concurrent tasks, in an order
  /// of their own, and expects what serial decoding gave.
  func expectSameConcurrently(_ decoder: JKDecoder, _ cases: Cases, rounds: Int) async throws {
    decoder.userInfo = [OracleSchemaBox.key: OracleSchemaBox(cases.schema)]
    let serial = try cases.documents.map { try decoder.decode(OracleNode.self, from: $0).value }
    decoder.clearCache()
    let documents = cases.documents
    try await withThrowingTaskGroup(of: (Int, OracleValue).self) { group in
      for task in 0..<rounds {
        var generator = SplitMix64(seed: UInt64(task))
        for index in documents.indices.shuffled(using: &generator) {
          group.addTask {
            (index, try decoder.decode(OracleNode.self, from: documents[index]).value)
          }
        }
      }
      var seen = 0
      for try await (index, value) in group {
        #expect(value == serial[index], "document \(index)")
        seen += 1
      }
      #expect(seen == rounds * documents.count)
    }
  }

  @Test func oneDecoderManyTasks() async throws {
    try await expectSameConcurrently(
      JKDecoder(), Cases(seed: 0xC0C0_0001, count: 32, keyStyle: .plain), rounds: 4)
  }

  @Test func oneSnakeCaseDecoderManyTasks() async throws {
    let decoder = JKDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let pool = DecoderOracleTests.snakePool.filter { $0.converted != "?" }
    try await expectSameConcurrently(
      decoder, Cases(seed: 0xC0C0_0002, count: 32, keyStyle: .snakeCase(pool)), rounds: 4)
  }

  @Test func oneDecoderManyTasksReadingJSONValues() async throws {
    var generator = JSONValueGenerator(seed: 0xC0C0_0003)
    // Only what JSONKit writes, which its strict rules accept (a value with
    // U+0000 or a noncharacter does not write).
    let documents = (0..<64).compactMap { _ in try? generator.value(depth: 4).jsonData() }
    #expect(documents.count > 32)
    let decoder = JKDecoder()
    let serial = try documents.map { try decoder.decode(JSONValue.self, from: $0) }
    try await withThrowingTaskGroup(of: (Int, JSONValue).self) { group in
      for _ in 0..<4 {
        for index in documents.indices {
          group.addTask { (index, try decoder.decode(JSONValue.self, from: documents[index])) }
        }
      }
      for try await (index, value) in group {
        #expect(value == serial[index], "document \(index)")
      }
    }
  }

  @Test(arguments: [JKOutputFormatting.sortedKeys, [], [.prettyPrinted, .sortedKeys]])
  func oneEncoderManyTasks(_ formatting: JKOutputFormatting) async throws {
    let cases = Cases(seed: 0xC0C0_0004, count: 32, keyStyle: .plain)
    // Unsorted output follows the order values encode in, which a Swift
    // Dictionary or Set does not keep between equal instances.
    let instances = cases.instances.filter {
      formatting.contains(.sortedKeys) || !$0.schema.hasUnorderedMembers
    }
    let encoder = JKEncoder()
    encoder.outputFormatting = formatting
    encoder.keyEncodingStrategy = .convertToSnakeCase
    let serial = try instances.map { try encoder.encode($0) }
    try await withThrowingTaskGroup(of: (Int, Data).self) { group in
      for task in 0..<4 {
        var generator = SplitMix64(seed: UInt64(task))
        for index in instances.indices.shuffled(using: &generator) {
          group.addTask { (index, try encoder.encode(instances[index])) }
        }
      }
      for try await (index, data) in group {
        #expect(data == serial[index], "instance \(index)")
      }
    }
  }
}
