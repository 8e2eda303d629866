import Foundation
import JSONKit
import Testing

/// A decoding session outlives its `decode` call: its scan context keeps it,
/// with its keyed containers, for the next call that takes the context. Each
/// call must read only its own document with its own options, an error must
/// leave nothing behind, and nothing the caller passed may be kept.
@Suite("One session for a decoder's calls")
struct CallSessionReuseTests {
  private struct Item: Codable, Equatable {
    var id: Int
    var userName: String?
    var when: Date?
  }

  private struct Order: Codable, Equatable {
    var items: [Item]
    var note: String
  }

  private static let markerKey = CodingUserInfoKey(rawValue: "marker")!

  @Test("Nothing a call was given is kept once it returns: userInfo, strategies' closures")
  func nothingOfTheCallIsKept() throws {
    let item = Item(id: 1, when: Date(timeIntervalSince1970: 5))
    let json = Data(#"{"id":1,"when":5}"#.utf8)
    let userInfoLetGo = try isLetGo { marker in
      let decoder = JKDecoder()
      decoder.userInfo[Self.markerKey] = marker
      let decoded = try decoder.decode(Item.self, from: json)
      #expect(decoded.id == 1)
    }
    #expect(userInfoLetGo)
    let dateClosureLetGo = try isLetGo { marker in
      let decoder = JKDecoder()
      decoder.dateDecodingStrategy = .custom { decoder in
        withExtendedLifetime(marker) {}
        return Date(
          timeIntervalSince1970: try decoder.singleValueContainer().decode(Double.self))
      }
      let decoded = try decoder.decode(Item.self, from: json)
      #expect(decoded == item)
    }
    #expect(dateClosureLetGo)
    let dataClosureLetGo = try isLetGo { marker in
      let decoder = JKDecoder()
      decoder.dataDecodingStrategy = .custom { decoder in
        withExtendedLifetime(marker) {}
        return Data(try decoder.singleValueContainer().decode(String.self).utf8)
      }
      let decoded = try decoder.decode([Data].self, from: Data(#"["ab"]"#.utf8))
      #expect(decoded == [Data("ab".utf8)])
    }
    #expect(dataClosureLetGo)
    let cbor = try JKCBOREncoder().encode(item)
    let cborUserInfoLetGo = try isLetGo { marker in
      let decoder = JKCBORDecoder()
      decoder.userInfo[Self.markerKey] = marker
      let decoded = try decoder.decode(Item.self, from: cbor)
      #expect(decoded == item)
    }
    #expect(cborUserInfoLetGo)
  }

  @Test("Calls with other key strategies, one after another, each read as JSONDecoder does")
  func callsReadWithTheirOwnOptions() throws {
    // Two spellings that one strategy or the other reads (none that both name
    // alike: there JSONKit's last-wins rule departs from JSONDecoder).
    let documents = [#"{"id":7,"user_name":"snake"}"#, #"{"id":8,"userName":"camel"}"#]
    let strategies: [JSONDecoder.KeyDecodingStrategy] = [
      .useDefaultKeys, .convertFromSnakeCase, .useDefaultKeys,
      .custom { path in path.last! }, .convertFromSnakeCase, .convertFromSnakeCase,
      .useDefaultKeys,
    ]
    for strategy in strategies {
      for json in documents.map({ Data($0.utf8) }) {
        try check(strategy, json)
      }
    }
  }

  /// Checks that `json` decodes as an `Item` under `strategy` as JSONDecoder
  /// decodes it.
  private func check(_ strategy: JSONDecoder.KeyDecodingStrategy, _ json: Data) throws {
    let mine = JKDecoder()
    mine.keyDecodingStrategy = strategy
    let foundation = JSONDecoder()
    foundation.keyDecodingStrategy = strategy
    let expected = Result { try foundation.decode(Item.self, from: json) }
    let actual = Result { try mine.decode(Item.self, from: json) }
    switch (expected, actual) {
    case (.success(let expected), .success(let actual)): #expect(actual == expected)
    case (.failure, .failure): break
    default: Issue.record("Foundation gave \(expected), JSONKit \(actual)")
    }
  }

  @Test("Unknown keys are rejected in the calls that ask for it, and only in those")
  func unknownKeysPerCall() throws {
    let json = Data(#"{"id":1,"extra":true}"#.utf8)
    for reject in [true, false, true, false, false, true] {
      let decoder = JKDecoder()
      decoder.unknownKeyStrategy = reject ? .reject : .ignore
      let result = Result { try decoder.decode(Item.self, from: json) }
      if reject {
        #expect(throws: DecodingError.self) { try result.get() }
      } else {
        #expect(try result.get() == Item(id: 1))
      }
    }
  }

  @Test("An error's coding path is its own call's, after calls that failed deeper")
  func errorsLeaveNothingBehind() throws {
    let deep = Data(#"{"items":[{"id":1},{"id":2},{"id":"three"}],"note":""}"#.utf8)
    let shallow = Data(#"{"items":[],"note":4}"#.utf8)
    let good = Data(#"{"items":[{"id":1,"userName":"a"}],"note":"n"}"#.utf8)
    for _ in 0..<3 {
      #expect(paths(of: deep) == ["items", "Index 2", "id"])
      #expect(try JKDecoder().decode(Order.self, from: good).items[0].userName == "a")
      #expect(paths(of: shallow) == ["note"])
    }
  }

  /// The coding path of the error that decoding `json` as an `Order` throws.
  private func paths(of json: Data) -> [String] {
    do {
      _ = try JKDecoder().decode(Order.self, from: json)
      return []
    } catch let DecodingError.typeMismatch(_, context) {
      return context.codingPath.map(\.stringValue)
    } catch {
      return ["unexpected \(error)"]
    }
  }

  /// Keeps its decoder, to read `note` only when asked.
  private struct KeepsDecoder: Decodable {
    let decoder: any Decoder

    private enum CodingKeys: String, CodingKey { case note }

    init(from decoder: any Decoder) throws { self.decoder = decoder }

    func note() throws -> String {
      try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .note)
    }
  }

  @Test("A decoder a value kept reads its own document while later calls decode others")
  func keptDecoderKeepsItsDocument() throws {
    let kept = try (0..<5).map { index in
      let value = try JKDecoder().decode(
        KeepsDecoder.self, from: Data(#"{"note":"kept \#(index)"}"#.utf8))
      let other = try JKDecoder().decode(
        Order.self, from: Data(#"{"items":[{"id":\#(index)}],"note":"other"}"#.utf8))
      #expect(other.items == [Item(id: index)])
      return value
    }
    for (index, value) in kept.enumerated() {
      #expect(try value.note() == "kept \(index)")
    }
  }

  @Test("CBOR and JSON calls take turns on one session")
  func cborAndJSONTakeTurns() throws {
    let order = Order(items: [Item(id: 1, userName: "a"), Item(id: 2)], note: "n")
    let cbor = try JKCBOREncoder().encode(order)
    let json = try JSONEncoder().encode(order)
    for _ in 0..<3 {
      #expect(try JKCBORDecoder().decode(Order.self, from: cbor) == order)
      #expect(try JKDecoder().decode(Order.self, from: json) == order)
      #expect(throws: DecodingError.self) { try JKDecoder().decode(Order.self, from: cbor) }
    }
  }

  /// A tree whose nodes share one key type, so that a document holds many
  /// containers of it and its maker keeps a spare.
  private final class Node: Decodable {
    let name: String
    let children: [Node]
  }

  /// Keeps the container of its object, to read `note` only when asked.
  private struct KeepsContainer: Decodable {
    let container: KeyedDecodingContainer<CodingKeys>

    enum CodingKeys: String, CodingKey { case note }

    init(from decoder: any Decoder) throws {
      container = try decoder.container(keyedBy: CodingKeys.self)
    }

    func note() throws -> String { try container.decode(String.self, forKey: .note) }
  }

  @Test("Models that take turns, and one back after many calls, read their own documents")
  func modelsTakingTurns() throws {
    let tree = Data(
      #"{"name":"a","children":[{"name":"b","children":[]},{"name":"c","children":[]}]}"#.utf8)
    let order = Data(#"{"items":[{"id":1},{"id":2,"userName":"u"}],"note":"n"}"#.utf8)
    func checkTree() throws {
      let root = try JKDecoder().decode(Node.self, from: tree)
      #expect(root.name == "a")
      #expect(root.children.map(\.name) == ["b", "c"])
    }
    func checkOrder() throws {
      let decoded = try JKDecoder().decode(Order.self, from: order)
      #expect(decoded.items == [Item(id: 1), Item(id: 2, userName: "u")])
    }
    var kept: [KeepsContainer] = []
    for round in 0..<40 {
      // The tree in the first rounds and then only every 13th, so that its
      // makers go idle in between.
      if round < 4 || round % 13 == 0 { try checkTree() }
      try checkOrder()
      if round % 7 == 0 {
        kept.append(
          try JKDecoder().decode(KeepsContainer.self, from: Data(#"{"note":"\#(round)"}"#.utf8)))
      }
    }
    #expect(try kept.map { try $0.note() } == stride(from: 0, to: 40, by: 7).map { "\($0)" })
  }
}
