import Foundation

@testable import JSONKit

// CBOR: the strict reader, the writer and the conversions, on any bytes.
//
// Selector bit 0 chooses what the document is. When set, it is CBOR as it
// stands (or anything else). When clear, it is JSON text: what parses is
// converted to CBOR, written, and altered as bits 1–3 say: not at all, cut
// short at a place the document's first byte picks, one byte changed there,
// or a byte appended. Checked for every input:
//
// - reading never traps, never reads outside the bytes, and never nests
//   deeper than the limit; a read error names a byte inside the input (or
//   its end);
// - what reads writes back as bytes that read as the same item, and writing
//   those again gives the same bytes (preferred serialization is a fixed
//   point); its diagnostic notation can be made;
// - what reads with the strict rules reads the same with duplicate keys
//   allowed; what is refused for a repeated key or extra bytes reads when
//   they are allowed, or fails for another reason;
// - what converts to JSON converts back to CBOR and to JSON again unchanged,
//   and `JKCBORDecoder` reads it as that JSON through the tape;
// - `JKCBORDecoder` decoding models throws nothing but `DecodingError`, and
//   what it reads as `JSONValue` is well-formed CBOR;
// - what decodes, `JKCBOREncoder` encodes as strict CBOR that decodes again,
//   and encoding that gives the same bytes but for the order of a
//   dictionary's pairs (a model and a `JSONValue` come back as what was
//   encoded after one round trip: floats read as what they write, dates and
//   decimals as their tags);
// - JSON converted to CBOR reads back as the conversion; cut short it is
//   an error about the end of the input, with a byte appended an error
//   about the extra byte (or, allowing it, the same item).

let fuzzTargetUsesModels = false
let fuzzTargetSeedsGzip = false
let fuzzTargetSeedsCBOR = true

private let strict = CBORReader.Configuration()
private let relaxed: CBORReader.Configuration = {
  var configuration = CBORReader.Configuration()
  configuration.allowsDuplicateKeys = true
  configuration.allowsBytesAfterItem = true
  return configuration
}()

/// libFuzzer's entry point: reads the bytes as CBOR, or JSON made CBOR.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBOR(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let input = FuzzInput(data, size) else { return 0 }
  if input.selector & 1 != 0 {
    checkReading(input.document)
    checkDecoding(input.document)
    return 0
  }
  guard let json = try? JSONValue(parsing: input.document) else { return 0 }
  let item = CBORValue(json)
  var bytes = item.cborBytes()
  require((try? JSONValue(item)) == json, "JSON converts to CBOR and back unchanged", "\(json)")
  let place = Int(input.document.first ?? 0) % bytes.count
  switch input.selector >> 1 & 7 {
  case 1:
    bytes.removeSubrange(place...)
    expectError(bytes, [.unexpectedEndOfInput, .lengthBeyondInput, .emptyInput], "a cut")
  case 2:
    bytes[place] ^= UInt8(truncatingIfNeeded: input.document.count) | 1
  case 3:
    bytes.append(UInt8(truncatingIfNeeded: input.document.count))
    expectError(bytes, [.bytesAfterItem], "a byte appended")
    let read = bytes.withUnsafeBytes { try? CBORValue.read($0, configuration: relaxed) }
    require(read == item, "a byte appended is ignored when allowed", "\(item)")
  default:
    let read = bytes.withUnsafeBytes { try? CBORValue.read($0, configuration: strict) }
    require(read == item, "JSON made CBOR reads back as itself", "\(item)")
  }
  bytes.withUnsafeBytes { checkReading($0) }
  return 0
}

/// Reads `bytes` strictly and relaxed, and checks what reads.
private func checkReading(_ bytes: UnsafeRawBufferPointer) {
  let item: CBORValue
  do {
    item = try CBORValue.read(bytes, configuration: strict)
  } catch let error as JKCBORError {
    require(error.offset <= bytes.count, "an error names a byte of the input", "\(error)")
    if error.kind == .duplicateKey || error.kind == .bytesAfterItem {
      // Allowed, the input reads, or fails later for another reason.
      do {
        _ = try CBORValue.read(bytes, configuration: relaxed)
      } catch let later as JKCBORError {
        require(
          later.kind != .duplicateKey && later.kind != .bytesAfterItem,
          "a repeated key or extra bytes, allowed, are passed over", "\(error) then \(later)")
      } catch {
        violated("the reader throws only JKCBORError", "\(error)")
      }
    }
    return
  } catch {
    violated("the reader throws only JKCBORError", "\(error)")
  }
  require(
    (try? CBORValue.read(bytes, configuration: relaxed)) == item,
    "relaxed rules read what strict ones read the same", "\(item)")
  let written = item.cborBytes()
  let reread = written.withUnsafeBytes { try? CBORValue.read($0, configuration: strict) }
  require(reread == item, "what reads writes back as itself", "\(item)")
  require(reread?.cborBytes() == written, "preferred serialization is a fixed point", "\(item)")
  _ = item.description
  if let json = try? JSONValue(item) {
    require(
      (try? JSONValue(CBORValue(json))) == json, "CBOR made JSON converts both ways unchanged",
      "\(json)")
    // What converts to JSON, JKCBORDecoder reads through the tape as the same
    // value, unless shared references repeat more than it allows (it counts
    // tape entries where the reader counts items) or a map key is tagged.
    let decoded = Result { try JKCBORDecoder().decode(JSONValue.self, from: bytes) }
    require(
      (try? decoded.get()) == json || failed(decoded, with: [.limitExceeded])
        || refusedTaggedKey(decoded, in: bytes),
      "JKCBORDecoder reads what converts to JSON as that JSON", "\(json) vs \(decoded)")
  }
}

/// Decodes `bytes` into models with `JKCBORDecoder`, which may fail only
/// with a `DecodingError`; what it reads as `JSONValue` reads as an item too.
private func checkDecoding(_ bytes: UnsafeRawBufferPointer) {
  let decoder = JKCBORDecoder()
  for decode in [
    { checkEncoding(try decoder.decode(FuzzModel.self, from: bytes)) },
    { checkEncoding(try decoder.decode([FuzzModel].self, from: bytes)) },
    { checkEncoding(try decoder.decode([String: Int].self, from: bytes)) },
    {
      checkEncoding(try decoder.decode(JSONValue.self, from: bytes))
      // Copies that shared references make count tags as levels and as
      // items for the reader, not on the tape.
      let read = Result { try CBORValue.read(bytes, configuration: strict) }
      require(
        (try? read.get()) != nil || failed(read, with: [.limitExceeded, .tooDeeplyNested]),
        "what JKCBORDecoder reads is well-formed CBOR", "\(read)")
    },
  ] as [() throws -> Void] {
    do {
      try decode()
    } catch let error as DecodingError {
      _ = String(describing: error)
    } catch {
      violated("JKCBORDecoder throws DecodingError", "\(type(of: error)): \(error)")
    }
  }
  checkGraph(bytes)
}

/// A node of a graph of instances, which shared references make one
/// instance wherever they refer to it.
private final class GraphNode: Codable {
  var v: Int?
  var a: GraphNode?
  var b: [GraphNode]?
}

/// ``GraphNode`` made in two steps, so that cycles decode.
private final class CyclicNode: Codable, JKCBORCyclicDecodable {
  var v: Int?
  var a: CyclicNode?
  var b: [CyclicNode]?

  init() {}

  init(from decoder: any Decoder) throws { try decodeMembers(from: decoder) }

  func decodeMembers(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    v = try container.decodeIfPresent(Int.self, forKey: .v)
    a = try container.decodeIfPresent(CyclicNode.self, forKey: .a)
    b = try container.decodeIfPresent([CyclicNode].self, forKey: .b)
  }

  /// Drops every member of every node reachable from `root`, so that the
  /// cycles among them are freed.
  static func release(_ root: CyclicNode) {
    var seen: Set<ObjectIdentifier> = []
    var pending = [root]
    while let node = pending.popLast() {
      guard seen.insert(ObjectIdentifier(node)).inserted else { continue }
      if let a = node.a { pending.append(a) }
      pending.append(contentsOf: node.b ?? [])
      node.a = nil
      node.b = nil
    }
  }
}

/// ``GraphNode``'s shape as a value type, read from copies.
private struct TreeNode: Decodable, Equatable {
  var v: Int?
  var a: Box?
  var b: [TreeNode]?

  /// Indirection for the recursive member.
  final class Box: Decodable, Equatable {
    let node: TreeNode
    init(_ node: TreeNode) { self.node = node }
    required init(from decoder: any Decoder) throws { node = try TreeNode(from: decoder) }
    static func == (left: Box, right: Box) -> Bool { left.node == right.node }
  }
}

/// The tree a graph unfolds to, or `nil` past `budget` nodes.
private func unfold(_ node: GraphNode, _ budget: inout Int) -> TreeNode? {
  budget -= 1
  guard budget >= 0 else { return nil }
  var tree = TreeNode(v: node.v, a: nil, b: nil)
  if let a = node.a {
    guard let unfolded = unfold(a, &budget) else { return nil }
    tree.a = TreeNode.Box(unfolded)
  }
  if let b = node.b {
    var elements: [TreeNode] = []
    for element in b {
      guard let unfolded = unfold(element, &budget) else { return nil }
      elements.append(unfolded)
    }
    tree.b = elements
  }
  return tree
}

/// Decodes `bytes` as a graph of instances, which reads shared references
/// without copies, and as value types, which read copies: what the value
/// types read, the graph reads as the same tree; what the graph refuses,
/// they refuse too. A graph of instances made in two steps reads what the
/// other graph reads, the same, and cycles too, which it writes as bytes
/// that read back as the same graph.
private func checkGraph(_ bytes: UnsafeRawBufferPointer) {
  let graph = Result { try JKCBORDecoder().decode(GraphNode.self, from: bytes) }
  checkCycles(bytes, graph: try? graph.get())
  let tree = Result { try JKCBORDecoder().decode(TreeNode.self, from: bytes) }
  switch (graph, tree) {
  case (.success(let graph), .success(let tree)):
    var budget = 100_000
    if let unfolded = unfold(graph, &budget) {
      require(unfolded == tree, "a graph of instances unfolds to the tree value types read", "")
    }
  case (.failure, .success(let tree)):
    violated("what value types read, a graph of instances reads", "\(tree) vs \(graph)")
  default:
    break
  }
}

/// Decodes `bytes` as ``CyclicNode``s: they read what `graph` was read
/// from, as the same graph, and what they read, cycles included, encodes
/// as bytes that decode and encode again to the same bytes.
private func checkCycles(_ bytes: UnsafeRawBufferPointer, graph: GraphNode?) {
  let encoder = JKCBOREncoder()
  encoder.options = .sharedReferences
  encoder.maxDepth = 1024
  let decoder = JKCBORDecoder()
  decoder.maxDepth = 1024
  guard let cyclic = try? decoder.decode(CyclicNode.self, from: bytes) else {
    require(graph == nil, "what a graph of instances reads, one made in two steps reads")
    return
  }
  defer { CyclicNode.release(cyclic) }
  do {
    let written = try encoder.encodeToBytes(cyclic)
    if let graph {
      require(
        (try? encoder.encodeToBytes(graph)) == written,
        "a graph made in two steps is the graph of instances read", "")
    }
    let again = try decoder.decode(CyclicNode.self, from: written)
    defer { CyclicNode.release(again) }
    let rewritten = try encoder.encodeToBytes(again)
    require(
      rewritten == written,
      "a graph with cycles writes bytes that read back as the same graph", "")
  } catch {
    violated("a graph made in two steps encodes and decodes again", "\(error)")
  }
}

/// Encodes a decoded `value` with `JKCBOREncoder`: the bytes read strictly
/// and decode again, and that value encodes to the same bytes.
private func checkEncoding<T: Codable>(_ value: T) {
  let first: [UInt8]
  let second: [UInt8]
  // The decoder reads 512 levels and the encoder, as JKEncoder, writes 511
  // by default; tags the encoder adds (a date's) are levels to the decoder.
  let encoder = JKCBOREncoder()
  encoder.maxDepth = 1024
  let decoder = JKCBORDecoder()
  decoder.maxDepth = 1024
  do {
    first = try encoder.encodeToBytes(value)
    require(
      first.withUnsafeBytes { (try? CBORValue.read($0, configuration: strict)) != nil },
      "JKCBOREncoder writes well-formed CBOR", "\(value)")
    let back = try decoder.decode(T.self, from: first)
    second = try encoder.encodeToBytes(back)
  } catch {
    violated("a decoded value encodes and decodes again", "\(error)\n\(value)")
  }
  require(
    keysOrdered(first) == keysOrdered(second),
    "encoding what encoding wrote decodes to gives the same bytes", "\(value)")
  checkEncodingOptions(value, plain: first, encoder, decoder)
}

/// What the encoder's options write: deterministic bytes are the plain
/// bytes with every map in its keys' order; string references alone, the
/// plain bytes with their strings numbered in order; with string and
/// shared references, the same item once read, which decodes.
private func checkEncodingOptions<T: Codable>(
  _ value: T, plain: [UInt8], _ encoder: JKCBOREncoder, _ decoder: JKCBORDecoder
) {
  let ordered = keysOrdered(plain)
  require(ordered != nil, "what JKCBOREncoder writes reads", "\(value)")
  do {
    encoder.options = .deterministic
    let sorted = try encoder.encodeToBytes(value)
    require(sorted == ordered, "deterministic bytes order every map", "\(value)")
    encoder.options = .stringReferences
    let streamed = try encoder.encodeToBytes(value)
    let numbered = try CBORValue(cbor: plain).cborBytes(options: .stringReferences)
    require(
      streamed == numbered,
      "string references written while encoding are the plain output's, numbered in order",
      "\(value)")
    encoder.options = [.stringReferences, .sharedReferences]
    let referenced = try encoder.encodeToBytes(value)
    require(
      keysOrdered(referenced) == ordered,
      "string and shared references read as the plain item", "\(value)")
    _ = try decoder.decode(T.self, from: referenced)
  } catch {
    violated("the encoder's options write what decodes", "\(error)\n\(value)")
  }
}

/// The item `bytes` hold, written again with every map's pairs in the order
/// of their keys' bytes: a Swift dictionary's pairs come in an order that
/// differs from one instance to another.
private func keysOrdered(_ bytes: [UInt8]) -> [UInt8]? {
  func ordered(_ item: CBORValue) -> CBORValue {
    switch item {
    case .array(let elements): return .array(elements.map(ordered))
    case .map(let pairs):
      let sorted = pairs.map { (key: ordered($0.key), value: ordered($0.value)) }.sorted {
        $0.key.cborBytes().lexicographicallyPrecedes($1.key.cborBytes())
      }
      return .map(sorted)
    case .tagged(let tag, let content): return .tagged(tag, ordered(content))
    default: return item
    }
  }
  // What the encoder writes with a maxDepth of 1,024 reads at that depth.
  var deep = strict
  deep.maxDepth = 1024
  let item = bytes.withUnsafeBytes { try? CBORValue.read($0, configuration: deep) }
  return item.map { ordered($0).cborBytes() }
}

/// Whether `result` failed with a `JKCBORError` of one of `kinds`, as it is
/// or under a `DecodingError`.
private func failed<T>(_ result: Result<T, any Error>, with kinds: Set<JKCBORError.Kind>) -> Bool {
  guard case .failure(let error) = result else { return false }
  var underlying: (any Error)? = error
  if case DecodingError.dataCorrupted(let context) = error { underlying = context.underlyingError }
  guard let cbor = underlying as? JKCBORError else { return false }
  return kinds.contains(cbor.kind)
}

/// Whether `result` failed for a map key under a tag other than a string
/// reference (say, a shared value's tag 28), which Codable does not read
/// as a key and the reader resolves.
private func refusedTaggedKey<T>(_ result: Result<T, any Error>, in bytes: UnsafeRawBufferPointer)
  -> Bool
{
  guard case .failure(DecodingError.dataCorrupted(let context)) = result,
    let error = context.underlyingError as? JKCBORError, error.kind == .invalidTagContent,
    error.offset < bytes.count
  else { return false }
  return bytes[error.offset] >> 5 == 6
}

/// Requires that `bytes` be refused for one of `kinds`.
private func expectError(_ bytes: [UInt8], _ kinds: Set<JKCBORError.Kind>, _ what: String) {
  do {
    let item = try bytes.withUnsafeBytes { try CBORValue.read($0, configuration: strict) }
    violated("\(what) is an error", "\(item)")
  } catch let error as JKCBORError {
    require(kinds.contains(error.kind), "\(what) is an error of the right kind", "\(error)")
  } catch {
    violated("the reader throws only JKCBORError", "\(error)")
  }
}
