import Foundation
import JSONKit
import Testing

/// A singly linked list, the shape of model whose depth is its length.
private final class Node: Encodable, @unchecked Sendable {
  // Unchecked: each test builds and encodes its own list on one thread.
  var next: Node?
  init(next: Node?) { self.next = next }

  /// A list of `length` nodes, as deep in JSON (`{"next":{"next":{}}}`).
  static func list(_ length: Int) -> Node {
    var head = Node(next: nil)
    for _ in 1..<length { head = Node(next: head) }
    return head
  }

  /// Lets go of a list one node at a time: releasing its head would free
  /// each node from inside the previous one's deinit, one call-stack frame
  /// per node.
  static func free(_ head: consuming Node) {
    var current: Node? = consume head
    while let node = current { current = node.next }
  }
}

/// A list as an indirect enum, encoded as nested arrays (`[[[]]]`).
private indirect enum Chain: Encodable {
  case end
  case link(Chain)

  static func of(_ length: Int) -> Chain {
    var chain = Chain.end
    for _ in 1..<length { chain = .link(chain) }
    return chain
  }

  /// Lets go of a chain one link at a time (see ``Node/free(_:)``).
  static func free(_ chain: consuming Chain) {
    var current = consume chain
    while case .link(let next) = current { current = next }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    if case .link(let next) = self { try container.encode(next) }
  }
}

/// Arrays nested `depth` deep whose `encode(to:)` calls are counted, and
/// which reach their elements through the way `via` names.
private struct Counted: Encodable {
  enum Via { case unkeyed, keyed, singleValue, superEncoder }
  final class Calls: @unchecked Sendable {
    // Unchecked: each test counts on one thread.
    var count = 0
  }
  let depth: Int
  let via: Via
  let calls: Calls

  func encode(to encoder: any Encoder) throws {
    calls.count += 1
    guard depth > 1 else {
      _ = encoder.unkeyedContainer()
      return
    }
    let inner = Counted(depth: depth - 1, via: via, calls: calls)
    switch via {
    case .unkeyed:
      var container = encoder.unkeyedContainer()
      try container.encode(inner)
    case .keyed:
      var container = encoder.container(keyedBy: AnyKey.self)
      try container.encode(inner, forKey: AnyKey("k"))
    case .singleValue:
      // One array level per value, its element through a wrapper's
      // single-value container.
      var container = encoder.unkeyedContainer()
      try container.encode(Wrapped(inner: inner))
    case .superEncoder:
      // A value encoded by calling its `encode(to:)` with the super encoder
      // makes no call JSONKit could throw from; its containers do.
      var container = encoder.container(keyedBy: AnyKey.self)
      var single = container.superEncoder().singleValueContainer()
      try single.encode(inner)
    }
  }

  struct Wrapped: Encodable {
    let inner: Counted
    func encode(to encoder: any Encoder) throws {
      var single = encoder.singleValueContainer()
      try single.encode(inner)
    }
  }
}

private struct AnyKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ name: String) { stringValue = name }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// Encodes `value` under a container used after a later sibling, so that
/// the rest of the encoding is done in tree form.
private struct InTreeForm<Value: Encodable>: Encodable {
  let value: Value
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyKey.self)
    var late = container.nestedUnkeyedContainer(forKey: AnyKey("late"))
    try container.encode(1, forKey: AnyKey("early"))
    try late.encode(value)
  }
}

/// The top-level error for too deep a value, the one `encode` threw before
/// it stopped early; its underlying error is thrown where the limit was
/// passed, at that coding path.
private func expectTooDeep(
  _ error: (any Error)?, maxDepth: Int, underlyingPathCount: Int? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  guard case EncodingError.invalidValue(_, let context)? = error else {
    Issue.record(
      "expected invalidValue, got \(String(describing: error))", sourceLocation: sourceLocation)
    return
  }
  #expect(context.codingPath.isEmpty, sourceLocation: sourceLocation)
  #expect(
    context.debugDescription.contains("nest deeper than maxDepth (\(maxDepth))"),
    sourceLocation: sourceLocation)
  guard let underlyingPathCount else { return }
  guard case EncodingError.invalidValue(_, let inner)? = context.underlyingError else {
    Issue.record("expected an underlying invalidValue", sourceLocation: sourceLocation)
    return
  }
  #expect(
    inner.codingPath.count == underlyingPathCount, "\(inner.codingPath.map(\.stringValue))",
    sourceLocation: sourceLocation)
  #expect(inner.debugDescription.contains("maxDepth (\(maxDepth))"), sourceLocation: sourceLocation)
}

private func isTopLevelInvalidValue(_ error: consuming (any Error)?) -> Bool {
  guard case EncodingError.invalidValue(_, let context)? = error else { return false }
  return context.codingPath.isEmpty
}

private func encodingError<T: Encodable>(_ encoder: JKEncoder, _ value: T) -> (any Error)? {
  do {
    _ = try encoder.encodeToBytes(value)
    return nil
  } catch {
    return error
  }
}

/// `JKEncoder` stops at `maxDepth` before it calls a deeper value's
/// `encode(to:)`, so that a recursive model deeper than the call stack
/// gets an error instead of a stack overflow.
@Suite("JKEncoder stops at maxDepth before encoding deeper")
struct EncoderDepthLimitTests {
  // The errors hold the values, so each is let go of before the value is.

  @Test func aLinkedListDeeperThanTheStackThrowsInsteadOfOverflowing() async {
    await #expect(processExitsWith: .success) {
      let list = Node.list(100_000)
      let threw = isTopLevelInvalidValue(encodingError(JKEncoder(), list))
      Node.free(consume list)
      if !threw { exit(1) }
    }
  }

  @Test func anIndirectEnumDeeperThanTheStackThrowsInsteadOfOverflowing() async {
    await #expect(processExitsWith: .success) {
      let chain = Chain.of(100_000)
      let encoder = JKEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      let threw = isTopLevelInvalidValue(encodingError(encoder, InTreeForm(value: chain)))
      Chain.free(consume chain)
      if !threw { exit(1) }
    }
  }

  /// A `maxDepth` past the ceiling (2,048) acts as the ceiling, so a model
  /// deeper than the stack still gets the error.
  @Test func aMaxDepthPastTheCeilingStillStopsADeepList() async {
    await #expect(processExitsWith: .success) {
      let list = Node.list(100_000)
      let encoder = JKEncoder()
      encoder.maxDepth = .max
      let error = encodingError(encoder, list)
      let threw = isTopLevelInvalidValue(error)
      let named =
        if case .invalidValue(_, let context) = error as? EncodingError {
          context.debugDescription.contains("containers of a model nest at most 2048 deep")
        } else { false }
      Node.free(consume list)
      if !threw || !named { exit(1) }
    }
  }

  /// Only the values down to one level past the limit are encoded, through
  /// every way a value reaches its children, streaming or in tree form.
  @Test(arguments: [Counted.Via.unkeyed, .keyed, .singleValue, .superEncoder])
  fileprivate func noValueBelowTheLimitIsEncoded(via: Counted.Via) {
    let maxDepth = 6
    for treeForm in [false, true] {
      let calls = Counted.Calls()
      let value = Counted(depth: 50, via: via, calls: calls)
      let encoder = JKEncoder()
      encoder.maxDepth = maxDepth
      let error =
        treeForm ? encodingError(encoder, InTreeForm(value: value)) : encodingError(encoder, value)
      expectTooDeep(error, maxDepth: maxDepth)
      // The value in the container past the limit opened it; its child is
      // refused. In tree form the value starts two levels down.
      #expect(calls.count == (treeForm ? maxDepth - 1 : maxDepth + 1), "tree form: \(treeForm)")
    }
  }

  /// Exactly `maxDepth` levels encode; one more throws, as before, at the
  /// top level with an empty path (Foundation's), the underlying error
  /// saying where.
  @Test func exactlyMaxDepthEncodesAndOneMoreThrows() throws {
    let encoder = JKEncoder()
    encoder.maxDepth = 8
    let deepest = String(repeating: "[", count: 8) + String(repeating: "]", count: 8)
    #expect(String(decoding: try encoder.encode(Chain.of(8)), as: UTF8.self) == deepest)
    // Nothing inside the container past the limit: caught when it is closed.
    expectTooDeep(encodingError(encoder, Chain.of(9)), maxDepth: 8)
    // A value inside it: refused before its encode(to:) runs.
    expectTooDeep(encodingError(encoder, Chain.of(10)), maxDepth: 8, underlyingPathCount: 9)
    let list = try encoder.encode(Node.list(8))
    #expect(String(decoding: list, as: UTF8.self).filter { $0 == "{" }.count == 8)
    expectTooDeep(encodingError(encoder, Node.list(10)), maxDepth: 8, underlyingPathCount: 9)
    // In tree form, the chain starts two levels down, its path one key
    // shorter: as in Foundation, a nested container's key is not in its
    // values' paths.
    _ = try encoder.encode(InTreeForm(value: Chain.of(6)))
    expectTooDeep(
      encodingError(encoder, InTreeForm(value: Chain.of(8))), maxDepth: 8,
      underlyingPathCount: 8)
  }

  /// An error caught inside `encode(to:)` does not make a value too deep
  /// fit: `encode` still throws.
  @Test func catchingTheErrorStillMakesEncodeThrow() {
    struct Catching: Encodable {
      let inner: Chain
      func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try? container.encode(inner)
        try container.encode(1)
      }
    }
    let encoder = JKEncoder()
    encoder.maxDepth = 4
    for treeForm in [false, true] {
      let value = Catching(inner: .of(10))
      let error =
        treeForm ? encodingError(encoder, InTreeForm(value: value)) : encodingError(encoder, value)
      expectTooDeep(error, maxDepth: 4)
    }
  }

  /// The default limit's worth of levels fits the stack of the main
  /// thread, of a Task, and of a 512 KiB secondary thread (the size of
  /// every secondary thread on Apple platforms, Tasks' included): a
  /// recursive model's encoding there gets the error, never an overflow.
  /// Unoptimized code has frames about twice as large, so a debug build
  /// gets twice the stack, and leaves out the Task where that is 512 KiB.
  @Test func theDefaultDepthFitsTheStack() async throws {
    #expect(await MainActor.run { Self.encodeAtAndPastTheDefault() } == nil)
    #if DEBUG
      let unoptimizedScale = 2
    #else
      let unoptimizedScale = 1
    #endif
    #if DEBUG && canImport(Darwin)
    #else
      #expect(Self.encodeAtAndPastTheDefault() == nil)
    #endif
    let outcome = await withCheckedContinuation { continuation in
      let thread = Thread { continuation.resume(returning: Self.encodeAtAndPastTheDefault()) }
      thread.stackSize = 512 * 1024 * unoptimizedScale * SanitizerScale.current
      thread.start()
    }
    #expect(outcome == nil)
  }

  /// Encodes a list as deep as the default limit, and one far deeper;
  /// returns what went wrong, if anything.
  private static func encodeAtAndPastTheDefault() -> String? {
    let encoder = JKEncoder()
    let fits = Node.list(encoder.maxDepth)
    let fitted = (try? encoder.encode(fits)) != nil
    let deeper = Node.list(20_000)
    let refused = isTopLevelInvalidValue(encodingError(encoder, deeper))
    Node.free(consume deeper)
    guard fitted else { return "the default depth" }
    return refused ? nil : "past the default"
  }
}
