import Foundation
import JSONKit
import Testing

/// An encoding session outlives its `encode` call: a pool keeps it, with the
/// memory of its records and the makers of its keyed containers, for the
/// next call. Each call must write only its own value with its own options,
/// a failed call must leave nothing behind, and nothing the caller passed
/// may be kept.
@Suite("One session for an encoder's calls")
struct EncoderSessionReuseTests {
  private struct Item: Codable, Equatable {
    var id: Int
    var userName: String?
    var when: Date?
    var tags: [String] = []
  }

  private struct Order: Codable, Equatable {
    var items: [Item]
    var note: String
  }

  private static let markerKey = CodingUserInfoKey(rawValue: "marker")!

  /// Reads the marker in `userInfo`, so that the encoder must hold it.
  private struct ReadsUserInfo: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(encoder.userInfo[markerKey] == nil ? "missing" : "here")
    }
  }

  @Test("Nothing a call was given is kept once it returns: userInfo, strategies' closures")
  func nothingOfTheCallIsKept() throws {
    let item = Item(id: 1, userName: "u", when: Date(timeIntervalSince1970: 5))
    let userInfoLetGo = try isLetGo { marker in
      let encoder = JKEncoder()
      encoder.userInfo[Self.markerKey] = marker
      let output = try encoder.encode([ReadsUserInfo()])
      #expect(output == Data(#"["here"]"#.utf8))
    }
    #expect(userInfoLetGo)
    let dateClosureLetGo = try isLetGo { marker in
      let encoder = JKEncoder()
      encoder.dateEncodingStrategy = .custom { date, encoder in
        withExtendedLifetime(marker) {}
        var container = encoder.singleValueContainer()
        try container.encode(date.timeIntervalSince1970)
      }
      let output = try encoder.encode(item)
      #expect(String(decoding: output, as: UTF8.self).contains(#""when":5"#))
    }
    #expect(dateClosureLetGo)
    let keyClosureLetGo = try isLetGo { marker in
      let encoder = JKEncoder()
      encoder.keyEncodingStrategy = .custom { path in
        withExtendedLifetime(marker) {}
        return path.last!
      }
      let output = try encoder.encode(item)
      #expect(String(decoding: output, as: UTF8.self).contains(#""userName":"u""#))
    }
    #expect(keyClosureLetGo)
  }

  @Test("Calls with other options, one after another, each write JSONEncoder's bytes")
  func callsWriteWithTheirOwnOptions() throws {
    let order = Order(
      items: [
        Item(id: 1, userName: "first", when: Date(timeIntervalSince1970: 86_400), tags: ["a"]),
        Item(id: 2),
      ], note: "n")
    // Sorted on both sides, so that the bytes compare whatever the order.
    let formattings: [(JSONEncoder.OutputFormatting, JKOutputFormatting)] = [
      ([.sortedKeys], [.sortedKeys]),
      ([.prettyPrinted, .sortedKeys], [.prettyPrinted, .sortedKeys]),
      ([.withoutEscapingSlashes, .sortedKeys], [.withoutEscapingSlashes, .sortedKeys]),
    ]
    let keys: [JSONEncoder.KeyEncodingStrategy] = [
      .useDefaultKeys, .convertToSnakeCase, .custom { path in path.last! },
    ]
    let dates: [JSONEncoder.DateEncodingStrategy] = [
      .deferredToDate, .iso8601, .secondsSince1970, .millisecondsSince1970,
    ]
    for round in 0..<24 {
      let formatting = formattings[round % formattings.count]
      let key = keys[round % keys.count]
      let date = dates[round % dates.count]
      let foundation = JSONEncoder()
      foundation.outputFormatting = formatting.0
      foundation.keyEncodingStrategy = key
      foundation.dateEncodingStrategy = date
      let mine = JKEncoder()
      mine.outputFormatting = formatting.1
      mine.keyEncodingStrategy = key
      mine.dateEncodingStrategy = date
      #expect(try mine.encode(order) == foundation.encode(order), "round \(round)")
    }
  }

  /// Throws from its `encode(to:)` after writing part of its object.
  private struct FailsHalfway: Encodable {
    private enum CodingKeys: String, CodingKey { case written, failing }
    struct Failure: Error {}

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode([1, 2, 3], forKey: .written)
      var nested = container.nestedUnkeyedContainer(forKey: .failing)
      try nested.encode("x")
      throw Failure()
    }
  }

  /// JSONEncoder with `.sortedKeys`: without it, Foundation's member order is
  /// its own.
  private func sortedEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return encoder
  }

  /// JKEncoder with `.sortedKeys`.
  private func sortedJKEncoder() -> JKEncoder {
    let encoder = JKEncoder()
    encoder.outputFormatting = .sortedKeys
    return encoder
  }

  @Test("A call that failed, or went too deep, leaves nothing for the next")
  func failuresLeaveNothingBehind() throws {
    let order = Order(items: [Item(id: 7, tags: ["t"])], note: "after")
    let expected = try sortedEncoder().encode(order)
    for _ in 0..<3 {
      #expect(throws: FailsHalfway.Failure.self) { try JKEncoder().encode(FailsHalfway()) }
      #expect(try sortedJKEncoder().encode(order) == expected)
      let shallow = sortedJKEncoder()
      shallow.maxDepth = 2
      #expect(throws: EncodingError.self) { try shallow.encode(order) }
      #expect(try sortedJKEncoder().encode(order) == expected)
    }
  }

  /// Keeps the encoder it was given, which writes nowhere once its call is
  /// over.
  private final class KeepsEncoder: Encodable, @unchecked Sendable {
    var kept: (any Encoder)?

    func encode(to encoder: any Encoder) throws {
      kept = encoder
      var container = encoder.singleValueContainer()
      try container.encode("kept")
    }
  }

  @Test("An encoder that a value kept does not share its session with later calls")
  func keptEncoderKeepsItsSession() throws {
    let keeper = KeepsEncoder()
    #expect(try JKEncoder().encode([keeper]) == Data(#"["kept"]"#.utf8))
    let order = Order(items: [Item(id: 1, userName: "a")], note: "n")
    let expected = try sortedEncoder().encode(order)
    for _ in 0..<3 {
      #expect(try sortedJKEncoder().encode(order) == expected)
      var late = keeper.kept?.singleValueContainer()
      try? late?.encode("late")
      #expect(try sortedJKEncoder().encode(order) == expected)
    }
  }
}
