import Foundation
import JSONKit
import Testing

/// `JKCBOREncoder.Options.deterministic`, `.sharedReferences` and
/// `.stringReferences`: the bytes each writes, and, where cbor2 is
/// installed, what cbor2 makes of them.
@Suite("CBOR: deterministic output, shared instances and string references")
struct CBOREncoderReferenceTests {
  // MARK: - Models

  struct Outer: Encodable {
    var zeta = 1
    var alpha = Inner()
    var mid = "m"
  }

  struct Inner: Encodable {
    var b = 2
    var aa = 3
    var c = [XY()]
  }

  struct XY: Encodable {
    var y = 1
    var x = 2
  }

  final class Box: Encodable {
    let name: String
    init(_ name: String) { self.name = name }
  }

  struct Trio: Encodable {
    let first: Box
    let second: Box
    let other: Box
  }

  /// Writes a nested map after a later sibling is begun, so that the
  /// instance's second occurrence comes first in the output.
  struct WrittenOutOfOrder: Encodable {
    let box: Box
    enum Key: CodingKey { case x, y, z }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      var nested = container.nestedContainer(keyedBy: Key.self, forKey: .x)
      try container.encode(box, forKey: .y)
      try nested.encode(box, forKey: .z)
    }
  }

  final class Node: Encodable {
    var name: String
    var next: Node?
    init(_ name: String, next: Node? = nil) {
      self.name = name
      self.next = next
    }
  }

  struct Record: Encodable {
    var name: String
    var value: Int
  }

  static func encoder(_ options: JKCBOREncoder.Options) -> JKCBOREncoder {
    let encoder = JKCBOREncoder()
    encoder.options = options
    return encoder
  }

  static func hex<T: Encodable>(_ value: T, _ options: JKCBOREncoder.Options) throws -> String {
    CBORBytes.hex(try encoder(options).encodeToBytes(value))
  }

  // MARK: - Deterministic

  @Test("Deterministic maps order members by their keys' bytes, at every level")
  func deterministicOrder() throws {
    // cbor2.dumps(the same dict, canonical=True); the plain bytes keep the
    // declared order.
    #expect(
      try Self.hex(Outer(), [])
        == "a3647a6574610165616c706861a361620262616103616381a2617901617802636d6964616d")
    #expect(
      try Self.hex(Outer(), .deterministic)
        == "a3636d6964616d647a6574610165616c706861a3616202616381a261780261790162616103")
  }

  @Test("Equal dictionaries give equal bytes whatever their order in memory")
  func equalDictionariesEqualBytes() throws {
    let keys = (0..<200).map { "key\($0 * 7919 % 1000)" }
    var small: [String: Int] = [:]
    var large: [String: Int] = [:]
    large.reserveCapacity(4096)
    for (index, key) in keys.enumerated() { small[key] = index }
    for (index, key) in keys.enumerated().reversed() { large[key] = index }
    #expect(Array(small.keys) != Array(large.keys))
    let encoder = Self.encoder(.deterministic)
    #expect(try encoder.encodeToBytes(small) == encoder.encodeToBytes(large))
    let integers = Dictionary(uniqueKeysWithValues: [(10, "a"), (1, "b"), (100, "c"), (-1, "d")])
    // Keys 1, 10, 100 and −1 encode as 01, 0A, 18 64 and 20.
    #expect(try Self.hex(integers, .deterministic) == "a40161620a616118646163206164")
  }

  // MARK: - Shared references

  @Test("An instance met twice is tagged 28 once and referred to by tag 29")
  func sharedInstance() throws {
    let box = Box("b")
    let trio = Trio(first: box, second: box, other: Box("x"))
    // {"first": 28({"name": "b"}), "second": 29(0), "other": {"name": "x"}}
    #expect(
      try Self.hex(trio, .sharedReferences)
        == "a3656669727374d81ca1646e616d656162667365636f6e64d81d00656f74686572a1646e616d656178")
    // Without the option, both are written in full.
    #expect(
      try Self.hex(trio, [])
        == "a3656669727374a1646e616d656162667365636f6e64a1646e616d656162656f74686572a1646e616d656178"
    )
  }

  @Test("Instances met once and values of other types are written as without the option")
  func nothingSharedNothingTagged() throws {
    let nodes = Node("a", next: Node("b", next: Node("c")))
    #expect(try Self.hex(nodes, .sharedReferences) == Self.hex(nodes, []))
    let records = (0..<50).map { Record(name: "n\($0 % 3)", value: $0) }
    #expect(try Self.hex(records, .sharedReferences) == Self.hex(records, []))
  }

  @Test("A reference written before its instance takes the instance's place")
  func referenceBeforeInstance() throws {
    let value = WrittenOutOfOrder(box: Box("b"))
    // {"x": {"z": 28({"name": "b"})}, "y": 29(0)}
    #expect(
      try Self.hex(value, .sharedReferences)
        == "a26178a1617ad81ca1646e616d6561626179d81d00")
  }

  @Test("Shared numbers follow the deterministic order")
  func sharedInDeterministicOrder() throws {
    struct TwoKeys: Encodable {
      let b: Box
      let a: Box
    }
    let box = Box("q")
    // {"a": 28({"name": "q"}), "b": 29(0)}
    #expect(
      try Self.hex(TwoKeys(b: box, a: box), [.sharedReferences, .deterministic])
        == "a26161d81ca1646e616d6561716162d81d00")
  }

  @Test("An instance that contains itself is an error at the place it recurs")
  func cycleThrows() throws {
    let node = Node("loop")
    node.next = Node("inner", next: node)
    #expect {
      try Self.encoder(.sharedReferences).encodeToBytes(node)
    } throws: { error in
      guard case EncodingError.invalidValue(_, let context) = error else { return false }
      return context.codingPath.map(\.stringValue) == ["next", "next"]
        && context.debugDescription.contains("contains itself")
    }
    node.next = nil
  }

  @Test("Errors inside a shared instance carry the whole coding path")
  func errorPathInsideInstance() throws {
    final class Holder: Encodable {
      let amounts: [Decimal]
      init(_ amounts: [Decimal]) { self.amounts = amounts }
    }
    struct Root: Encodable { let holders: [Holder] }
    let root = Root(holders: [Holder([1]), Holder([2, .nan])])
    for options: JKCBOREncoder.Options in [[], .sharedReferences] {
      #expect {
        try Self.encoder(options).encodeToBytes(root)
      } throws: { error in
        guard case EncodingError.invalidValue(_, let context) = error else { return false }
        return context.codingPath.map(\.stringValue) == [
          "holders", "Index 1", "amounts", "Index 1",
        ]
      }
    }
  }

  @Test("Depth is counted through shared instances")
  func depthThroughInstances() throws {
    var node = Node("0")
    for index in 1...40 { node = Node(String(index), next: node) }
    let encoder = Self.encoder(.sharedReferences)
    encoder.maxDepth = 20
    #expect(throws: EncodingError.self) { try encoder.encodeToBytes(node) }
    encoder.maxDepth = 41
    #expect(try encoder.encodeToBytes(node) == Self.encoder([]).encodeToBytes(node))
  }

  @Test("A recursive model deeper than maxDepth throws, with every option, before the stack ends")
  func deepRecursiveModel() async throws {
    let outcome = await withCheckedContinuation { continuation in
      let thread = Thread {
        var node = Node("0")
        for index in 1...5_000 { node = Node(String(index), next: node) }
        let encoder = Self.encoder([.sharedReferences, .stringReferences, .deterministic])
        var outcome = ""
        do {
          _ = try encoder.encodeToBytes(node)
          outcome = "encoded"
        } catch EncodingError.invalidValue(_, let context) {
          outcome = context.debugDescription.contains("maxDepth") ? "too deep" : "\(context)"
        } catch {
          outcome = "\(error)"
        }
        // Freed a level at a time: releasing 5,000 levels at once recurses.
        var next: Node? = node
        while let current = next {
          next = current.next
          current.next = nil
        }
        continuation.resume(returning: outcome)
      }
      thread.stackSize = 16 << 20
      thread.start()
    }
    #expect(outcome == "too deep")
  }

  // MARK: - String references

  @Test("Repeated strings are written once, then as tag 25, in one namespace")
  func stringReferences() throws {
    let records = [Record(name: "abc", value: 1), Record(name: "abc", value: 2)]
    // cbor2.dumps(the same list, string_referencing=True)
    #expect(
      try Self.hex(records, .stringReferences)
        == "d9010082a2646e616d65636162636576616c756501a2d81900d81901d8190202")
  }

  @Test("Strings join the table by the specification's length rule")
  func stringTableLengths() throws {
    // Two-byte strings are never in the table; three-byte ones are while it
    // holds fewer than 24; from then on, four bytes are needed.
    var strings = ["ab", "ab"]
    strings += (0..<24).map { String(format: "%03d", $0) }
    strings += ["100", "100", "1000", "1000"]
    let bytes = try Self.encoder(.stringReferences).encodeToBytes(strings)
    let hex = CBORBytes.hex(bytes)
    #expect(hex.hasPrefix("d90100981e" + "626162" + "626162" + "63303030"))
    // "100" (table full for three bytes) twice in full, then "1000" as
    // string 24, referred to as d8 19 18 18.
    #expect(hex.hasSuffix("63313030" + "63313030" + "6431303030" + "d8191818"))
  }

  // MARK: - Round trips

  @Test("What each option writes reads back as what plain CBOR reads as")
  func roundTrips() throws {
    struct Shelf: Codable, Equatable {
      var books: [Book]
      var tags: [String: Int]
    }
    struct Book: Codable, Equatable {
      var title: String
      var author: String
      var cover: Data
    }
    let books = (0..<60).map {
      Book(
        title: "Title \($0 % 9)", author: "Author \($0 % 4)",
        cover: Data(repeating: 7, count: $0 % 5))
    }
    let shelf = Shelf(books: books, tags: ["novel": 3, "poetry": 1, "essays": 2])
    let plain = try CBORValue(cbor: Self.encoder([]).encodeToBytes(shelf))
    for options: JKCBOREncoder.Options in [
      .stringReferences, .sharedReferences, .deterministic,
      [.stringReferences, .sharedReferences, .deterministic, .selfDescribed],
    ] {
      let bytes = try Self.encoder(options).encodeToBytes(shelf)
      #expect(try JKCBORDecoder().decode(Shelf.self, from: bytes) == shelf, "\(options)")
      var item = try CBORValue(cbor: bytes)
      if case .tagged(55799, let content) = item { item = content }
      #expect(CBORDeterministicOrderTests.sorted(item) == CBORDeterministicOrderTests.sorted(plain))
    }
  }

  @Test("Shared class instances come back as one instance, others as distinct ones")
  func sharedRoundTrip() throws {
    final class Tag: Codable {
      var name: String
      init(_ name: String) { self.name = name }
    }
    struct Post: Codable {
      var tags: [Tag]
      var main: Tag
    }
    let swift = Tag("swift")
    let cbor = Tag("cbor")
    let post = Post(tags: [swift, cbor, swift], main: cbor)
    let shared = try JKCBORDecoder().decode(
      Post.self, from: Self.encoder(.sharedReferences).encodeToBytes(post))
    #expect(shared.tags[0] === shared.tags[2] && shared.tags[1] === shared.main)
    #expect(
      shared.tags[0] !== shared.tags[1] && shared.tags.map(\.name) == ["swift", "cbor", "swift"])
    let plain = try JKCBORDecoder().decode(Post.self, from: Self.encoder([]).encodeToBytes(post))
    #expect(plain.tags[0] !== plain.tags[2] && plain.tags[0].name == plain.tags[2].name)
  }

  // MARK: - cbor2

  #if os(macOS) || os(Linux)
    @Test(
      "cbor2 reads shared instances as one object, and writes the same string references and deterministic bytes",
      .enabled(
        if: CBORInteroperabilityTests.cbor2IsInstalled,
        "needs python3 with cbor2 (pip install cbor2)"))
    func cbor2Agrees() throws {
      let box = Box("shared")
      let trio = Trio(first: box, second: box, other: Box("x"))
      let shared = try Self.encoder(.sharedReferences).encode(trio)
      let answer = try Python.run(
        """
        import sys, cbor2
        v = cbor2.loads(sys.stdin.buffer.read())
        print(v["first"] is v["second"], v["first"] is v["other"], v["first"] == {"name": "shared"})
        """, input: shared)
      #expect(String(decoding: answer, as: UTF8.self) == "True False True\n")

      let records = (0..<100).map { Record(name: "name \($0 % 7)", value: $0) }
      let plainRecords = try Self.encoder([]).encode(records)
      let theirs = try Python.run(
        """
        import sys, cbor2
        plain = cbor2.loads(sys.stdin.buffer.read())
        sys.stdout.write(cbor2.dumps(plain, string_referencing=True).hex() + " "
          + cbor2.dumps(plain, canonical=True).hex())
        """, input: plainRecords)
      let hexes = String(decoding: theirs, as: UTF8.self).split(separator: " ")
      #expect(hexes.count == 2)
      #expect(try Self.hex(records, .stringReferences) == hexes.first.map(String.init))
      #expect(try Self.hex(records, .deterministic) == hexes.last.map(String.init))
    }
  #endif
}

/// `CBORValue.cborBytes(options:)`: the options that apply to an item.
@Suite("CBOR: an item written with the encoder's options")
struct CBORValueWritingOptionsTests {
  @Test("Deterministic and string-referenced items read back as the same item")
  func itemOptions() throws {
    let item: CBORValue = [
      "zz": ["name": "abc", "list": ["abc", "abc", .bytes([1, 2, 3]), .bytes([1, 2, 3])]],
      "a": 1, "long key": [10: "ten", 1: "one"],
    ]
    let sorted = item.cborBytes(options: .deterministic)
    // "a" (61 61) sorts before "zz" (62 7a 7a), which sorts before "long key".
    #expect(CBORBytes.hex(sorted).hasPrefix("a3616101627a7a"))
    #expect(try CBORValue(cbor: sorted) == CBORValue(cbor: item.cborBytes(options: .deterministic)))
    let referenced = item.cborBytes(options: [.stringReferences, .selfDescribed])
    #expect(CBORBytes.hex(referenced).hasPrefix("d9d9f7d90100"))
    #expect(referenced.count < item.cborBytes().count + 6)
    #expect(item.cborBytes(options: .sharedReferences) == item.cborBytes())
  }

  @Test("An item with string-reference tags of its own is written without references")
  func ownReferenceTagsKept() {
    let item: CBORValue = ["abc", "abc", .tagged(25, 0)]
    #expect(item.cborBytes(options: .stringReferences) == item.cborBytes())
    let marks: CBORValue = .tagged(0xFFFF_FFFF_0000_0001, "abc")
    #expect(marks.cborBytes(options: .deterministic) == marks.cborBytes())
  }
}

/// Deterministic bytes against a plain model of the rule, on generated items.
@Suite("CBOR: deterministic order on generated items")
struct CBORDeterministicOrderTests {
  /// `item` with every map's pairs ordered by their keys' encoded bytes.
  static func sorted(_ item: CBORValue) -> CBORValue {
    switch item {
    case .array(let elements): return .array(elements.map(sorted))
    case .map(let pairs):
      let ordered = pairs.map { (key: sorted($0.key), value: sorted($0.value)) }
        .sorted { $0.key.cborBytes().lexicographicallyPrecedes($1.key.cborBytes()) }
      return .map(ordered.map { ($0.key, $0.value) })
    case .tagged(let tag, let content): return .tagged(tag, sorted(content))
    default: return item
    }
  }

  static func generate(depth: Int, _ random: inout SystemRandomNumberGenerator) -> CBORValue {
    switch depth > 3 ? Int.random(in: 0..<3, using: &random) : Int.random(in: 0..<6, using: &random)
    {
    case 0: return .unsigned(UInt64.random(in: 0..<70_000, using: &random))
    case 1: return .text(String(repeating: "k", count: Int.random(in: 0..<30, using: &random)))
    case 2: return .float(Double.random(in: -1e6..<1e6, using: &random))
    case 3:
      return .array(
        (0..<Int.random(in: 0..<4, using: &random)).map { _ in generate(depth: depth + 1, &random) }
      )
    case 4: return .tagged(1, generate(depth: depth + 1, &random))
    default:
      var pairs: [(key: CBORValue, value: CBORValue)] = []
      for _ in 0..<Int.random(in: 0..<6, using: &random) {
        let key: CBORValue =
          Bool.random(using: &random)
          ? .text(String(UInt32.random(in: 0..<5_000, using: &random), radix: 36))
          : .negative(UInt64.random(in: 0..<300, using: &random))
        guard !pairs.contains(where: { $0.key == key }) else { continue }
        pairs.append((key, generate(depth: depth + 1, &random)))
      }
      return .map(pairs)
    }
  }

  @Test("Every map at every level is in the order of its keys' bytes")
  func generatedItems() throws {
    var random = SystemRandomNumberGenerator()
    for _ in 0..<500 {
      let item = Self.generate(depth: 0, &random)
      let expected = Self.sorted(item).cborBytes()
      #expect(item.cborBytes(options: .deterministic) == expected, "\(item)")
      #expect(Self.sorted(item).cborBytes(options: .deterministic) == expected)
    }
  }
}
