import Foundation
import Testing

@testable import JSONKit

/// The page `Sources/JSONKit/Encoding/EncoderStates.md`, on how the encoder
/// streams and hands over to a tree: its model is this suite's, its bytes
/// and its tree are what encoding the model gives, and the situations it
/// lists hand over (or do not) as it says.
@Suite struct EncoderStatesPageTests {
  /// The page, read from the source tree.
  static let page = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/JSONKit/Encoding/EncoderStates.md")

  static func pageText() throws -> String {
    try String(contentsOf: page, encoding: .utf8)
  }

  /// What streaming had written when the model handed over.
  static let streamedText = #"{"summary":{},"id":7,"items":["pen","ink""#

  /// The tree's buffer once the model is encoded: the streamed text, then
  /// the two scalars written after the hand-over.
  static let treeText = #"{"summary":{},"id":7,"items":["pen","ink"2true"#

  /// The tree once the model is encoded, as ``listing(of:streamedCount:)``
  /// writes it.
  static let treeListing = """
    node 0  root pseudo-container (container 0)
              [0]        node 1
    node 1  object (container 1), value of node 0 member 0
              "summary"  node 2
              "id"       bytes 19..<20  7
              "items"    node 3
              "paid"     bytes 42..<46  true  (after the hand-over)
    node 2  object, nested (container 2), value of node 1 member 0
              "count"    bytes 41..<42  2  (after the hand-over)
    node 3  array (container 3), value of node 1 member 2
              [0]        bytes 30..<35  "pen"
              [1]        bytes 36..<41  "ink"
    """

  static let output = #"{"summary":{"count":2},"id":7,"items":["pen","ink"],"paid":true}"#
  static let sortedOutput = #"{"id":7,"items":["pen","ink"],"paid":true,"summary":{"count":2}}"#

  @Test func thePageShowsTheModelAndHowItIsEncoded() throws {
    let page = try Self.pageText()
    let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let blocks = ArticleSnippets.blocks(in: page, article: "EncoderStates.md")
    #expect(blocks.count == 2)
    for block in blocks {
      #expect(
        ArticleSnippets.contains(source, block.lines),
        "the block at line \(block.line) is not this suite's code")
    }
    for text in [
      Self.streamedText, Self.treeText, Self.treeListing, Self.output, Self.sortedOutput,
    ] {
      #expect(page.contains(text), "the page does not show \(text)")
    }
  }

  @Test func theModelGivesThePagesOutput() throws {
    let data = try JKEncoder().encode(Order(id: 7, items: ["pen", "ink"], paid: true))
    #expect(String(decoding: data, as: UTF8.self) == Self.output)

    let sorting = JKEncoder()
    sorting.outputFormatting = .sortedKeys
    let order = Order(id: 7, items: ["pen", "ink"], paid: true)
    let sorted = String(decoding: try sorting.encode(order), as: UTF8.self)
    #expect(sorted == Self.sortedOutput)
    let foundation = JSONEncoder()
    foundation.outputFormatting = .sortedKeys
    #expect(String(decoding: try foundation.encode(order), as: UTF8.self) == sorted)
  }

  @Test func theModelHandsOverToThePagesTree() throws {
    let snapshot = SessionSnapshot()
    let observed = Observed(model: Order(id: 7, items: ["pen", "ink"], paid: true), snapshot)
    let data = try JKEncoder().encode(observed)
    #expect(String(decoding: data, as: UTF8.self) == Self.output)
    // Streaming stopped: it has no open frame left.
    #expect(snapshot.innermostFrame == -1)
    // The records of the four containers streaming opened (the root's
    // pseudo-container first), which the tree was read with.
    #expect(snapshot.containerStarts == [-1, 0, 11, 29])
    #expect(snapshot.treeText == Self.treeText)
    #expect(snapshot.treeListing == Self.treeListing)
    #expect(Self.treeText.hasPrefix(Self.streamedText))
  }

  @Test(arguments: Situation.allCases)
  func theSituationsThePageListsHandOverAsItSays(_ situation: Situation) throws {
    let snapshot = SessionSnapshot()
    let encoder = JKEncoder()
    if situation == .failedMemberUnderKeyStrategy {
      encoder.keyEncodingStrategy = .convertToSnakeCase
    }
    if situation == .keysOutOfOrder { encoder.outputFormatting = .sortedKeys }
    let text = try? encoder.encode(Observed(model: situation, snapshot))
    #expect((snapshot.innermostFrame == -1) == situation.handsOver)
    #expect(text.map { String(decoding: $0, as: UTF8.self) } == situation.output)
  }
}

extension EncoderStatesPageTests {
  struct Order: Encodable {
    var id: Int
    var items: [String]
    var paid: Bool

    enum CodingKeys: String, CodingKey {
      case summary, id, items, paid
    }

    enum SummaryKeys: String, CodingKey {
      case count
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      // Asked for first, so that "summary" comes first; filled in last.
      var summary = container.nestedContainer(keyedBy: SummaryKeys.self, forKey: .summary)
      try container.encode(id, forKey: .id)
      try container.encode(items, forKey: .items)
      try summary.encode(items.count, forKey: .count)
      try container.encode(paid, forKey: .paid)
    }
  }
}

extension EncoderStatesPageTests {
  /// Encodes `model` with the encoder it is given, as `JKEncoder` encodes a
  /// root value, then notes what the session holds.
  struct Observed<Model: Encodable>: Encodable {
    var model: Model
    var snapshot: SessionSnapshot

    init(model: Model, _ snapshot: SessionSnapshot) {
      self.model = model
      self.snapshot = snapshot
    }

    func encode(to encoder: any Encoder) throws {
      try model.encode(to: encoder)
      if let session = (encoder as? SlotEncoder)?.session { snapshot.take(session) }
    }
  }

  /// What a session holds once the root value's `encode(to:)` has returned.
  final class SessionSnapshot {
    /// `EncodingSession.innermostFrame`: -1 once streaming has handed over.
    var innermostFrame: Int?
    /// Where the text of each container streaming opened starts.
    var containerStarts: [Int] = []
    /// The tree's buffer, if the session handed over.
    var treeText: String?
    /// The tree's nodes, if the session handed over.
    var treeListing: String?

    func take(_ session: EncodingSession) {
      innermostFrame = session.innermostFrame
      // The states are private to the session: found by their names.
      let stored = Mirror(reflecting: session).children
      if let streaming = stored.first(where: { $0.label == "streaming" })?.value
        as? UnsafeMutablePointer<StreamingState>
      {
        containerStarts = streaming.pointee.containers.map(\.start)
      }
      if let handedOver = stored.first(where: { $0.label == "handedOver" })?.value
        as? UnsafeMutablePointer<TreeState?>, let tree = handedOver.pointee
      {
        treeText = tree.writer.withBytes { String(decoding: $0, as: UTF8.self) }
        treeListing = EncoderStatesPageTests.listing(
          of: tree, streamedCount: EncoderStatesPageTests.streamedText.utf8.count)
      }
    }
  }

  /// The nodes of `tree`, one member a line; a scalar written at or after
  /// `streamedCount` in the tree's buffer is marked as written after the
  /// hand-over.
  static func listing(of tree: TreeState, streamedCount: Int) -> String {
    let bytes = tree.writer.withBytes { Array($0) }
    var lines: [String] = []
    for (index, node) in tree.nodes.enumerated() {
      let container = node.container.map { "container \($0)" } ?? "no container"
      if let parent = node.parent {
        let kind = (node.isObject ? "object" : "array") + (node.isNested ? ", nested" : "")
        lines.append(
          "node \(index)  \(kind) (\(container)), value of node \(parent.node) member "
            + "\(parent.member)")
      } else {
        lines.append("node \(index)  root pseudo-container (\(container))")
      }
      for (position, member) in node.members.enumerated() {
        let label = member.key.map { "\"\($0)\"" } ?? "[\(position)]"
        let value: String
        switch member.value {
        case .pending: value = "pending"
        case .discarded: value = "discarded"
        case .node(let child): value = "node \(child)"
        case .scalar(let range):
          let text = String(decoding: bytes[range], as: UTF8.self)
          let late = range.lowerBound >= streamedCount ? "  (after the hand-over)" : ""
          value = "bytes \(range.lowerBound)..<\(range.upperBound)  \(text)\(late)"
        }
        let column = label.padding(toLength: 11, withPad: " ", startingAt: 0)
        lines.append("          " + column + value)
      }
    }
    return lines.joined(separator: "\n")
  }
}

extension EncoderStatesPageTests {
  /// The situations the page lists, each as the `encode(to:)` of a root
  /// value.
  enum Situation: CaseIterable, Encodable, CustomTestStringConvertible {
    // Streaming hands over.
    case containerUsedAfterLaterSibling
    case nestedContainerAskedAgainForItsKey
    case superEncoderUsedLate
    case secondValueForOnePlace
    case failedMemberUnderKeyStrategy
    case codingPathOfSuperEncoderAfterLaterMember
    case countOfClosedUnkeyedContainer
    case failedEncodedValue
    // Streaming carries on.
    case keyEncodedTwice
    case keysOutOfOrder
    case superEncoderUsedAtOnce
    case containerAskedAgainWhileOpen
    case failedMemberUnderDefaultKeys

    var testDescription: String { "\(self)" }

    var handsOver: Bool {
      switch self {
      case .containerUsedAfterLaterSibling, .nestedContainerAskedAgainForItsKey,
        .superEncoderUsedLate, .secondValueForOnePlace, .failedMemberUnderKeyStrategy,
        .codingPathOfSuperEncoderAfterLaterMember, .countOfClosedUnkeyedContainer,
        .failedEncodedValue:
        return true
      case .keyEncodedTwice, .keysOutOfOrder, .superEncoderUsedAtOnce,
        .containerAskedAgainWhileOpen, .failedMemberUnderDefaultKeys:
        return false
      }
    }

    /// The output; nil when `encode` throws.
    var output: String? {
      switch self {
      case .containerUsedAfterLaterSibling: return #"{"n":{"x":2},"a":1}"#
      case .nestedContainerAskedAgainForItsKey: return #"{"n":{"x":1,"y":2}}"#
      case .superEncoderUsedLate: return #"{"super":{"x":1},"a":2}"#
      case .secondValueForOnePlace: return nil
      case .failedMemberUnderKeyStrategy, .failedEncodedValue: return #"{"a":1,"c":2}"#
      case .codingPathOfSuperEncoderAfterLaterMember: return #"{"s":{},"a":2}"#
      case .countOfClosedUnkeyedContainer: return #"{"n":[],"a":2}"#
      case .keyEncodedTwice: return #"{"a":3,"b":2}"#
      case .keysOutOfOrder: return #"{"a":{"y":3,"z":2},"b":1}"#
      case .superEncoderUsedAtOnce: return #"{"super":{"x":1},"a":2}"#
      case .containerAskedAgainWhileOpen: return #"{"a":{"x":1},"b":2}"#
      case .failedMemberUnderDefaultKeys: return #"{"a":1,"c":2}"#
      }
    }

    /// A value whose own `encode(to:)` writes, then fails.
    struct Fails: Encodable {
      func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(1)
        throw CancellationError()
      }
    }

    struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
      func key(_ name: String) -> Key { Key(stringValue: name) }
      var container = encoder.container(keyedBy: Key.self)
      switch self {
      case .containerUsedAfterLaterSibling:
        var nested = container.nestedContainer(keyedBy: Key.self, forKey: key("n"))
        try container.encode(1, forKey: key("a"))
        try nested.encode(2, forKey: key("x"))
      case .nestedContainerAskedAgainForItsKey:
        var first = container.nestedContainer(keyedBy: Key.self, forKey: key("n"))
        try first.encode(1, forKey: key("x"))
        var second = container.nestedContainer(keyedBy: Key.self, forKey: key("n"))
        try second.encode(2, forKey: key("y"))
      case .superEncoderUsedLate:
        let late = container.superEncoder()
        try container.encode(2, forKey: key("a"))
        var inner = late.container(keyedBy: Key.self)
        try inner.encode(1, forKey: key("x"))
      case .secondValueForOnePlace:
        try container.encode(1, forKey: key("a"))
        var single = encoder.singleValueContainer()
        try single.encode(2)
      case .failedMemberUnderKeyStrategy, .failedMemberUnderDefaultKeys:
        try container.encode(1, forKey: key("a"))
        try? container.encode(Double.nan, forKey: key("b"))
        try container.encode(2, forKey: key("c"))
      case .failedEncodedValue:
        try container.encode(1, forKey: key("a"))
        try? container.encode(Fails(), forKey: key("b"))
        try container.encode(2, forKey: key("c"))
      case .codingPathOfSuperEncoderAfterLaterMember:
        let late = container.superEncoder(forKey: key("s"))
        try container.encode(2, forKey: key("a"))
        _ = late.codingPath
      case .countOfClosedUnkeyedContainer:
        let list = container.nestedUnkeyedContainer(forKey: key("n"))
        try container.encode(2, forKey: key("a"))
        _ = list.count
      case .keyEncodedTwice:
        try container.encode(1, forKey: key("a"))
        try container.encode(2, forKey: key("b"))
        try container.encode(3, forKey: key("a"))
      case .keysOutOfOrder:
        try container.encode(1, forKey: key("b"))
        var nested = container.nestedContainer(keyedBy: Key.self, forKey: key("a"))
        try nested.encode(2, forKey: key("z"))
        try nested.encode(3, forKey: key("y"))
      case .superEncoderUsedAtOnce:
        var inner = container.superEncoder().container(keyedBy: Key.self)
        try inner.encode(1, forKey: key("x"))
        try container.encode(2, forKey: key("a"))
      case .containerAskedAgainWhileOpen:
        try container.encode(["x": 1], forKey: key("a"))
        var again = encoder.container(keyedBy: Key.self)
        try again.encode(2, forKey: key("b"))
      }
    }
  }
}
