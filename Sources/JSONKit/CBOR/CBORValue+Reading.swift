import Foundation

extension CBORValue {
  /// Reads one CBOR data item from `bytes`, strictly: anything that is not
  /// well-formed CBOR (RFC 8949), a map with a repeated key, a known tag on
  /// content of the wrong type, or bytes after the item throws a
  /// ``JKCBORError`` that says what and at which byte.
  ///
  /// Nesting is limited to 512 levels, arrays and maps to 2²⁴ elements and
  /// strings to 256 MiB; a declared length is checked against the bytes
  /// that remain before anything is allocated for it.
  ///
  /// References are resolved, so that the item holds none: a string
  /// reference (tag 25) inside a string namespace (tag 256) is read as the
  /// string it refers to, and a shared reference (tag 29) as the value
  /// that a tag 28 marked, which is read without its tag. A reference to
  /// nothing, or to a value that contains it, is an error; so is a value
  /// made, by references, of more than four items for each byte read
  /// (and 65,536), so that walking it never takes exponential time.
  ///
  /// ```swift
  /// let item = try CBORValue(cbor: [0xA1, 0x61, 0x61, 0x01])  // {"a": 1}
  /// ```
  public init(cbor bytes: some Sequence<UInt8>) throws {
    self = try Self.read(bytes, configuration: CBORReader.Configuration())
  }

  /// Reads one CBOR data item from `data`, by the same rules as from a
  /// sequence of bytes.
  public init(cbor data: Data) throws {
    self = try Self.read(data, configuration: CBORReader.Configuration())
  }

  /// The item in `bytes` read with `configuration`.
  static func read(
    _ bytes: some Sequence<UInt8>, configuration: CBORReader.Configuration
  ) throws -> CBORValue {
    let value = try bytes.withContiguousStorageIfAvailable {
      try read(UnsafeRawBufferPointer($0), configuration: configuration)
    }
    if let value { return value }
    return try Array(bytes).withUnsafeBytes { try read($0, configuration: configuration) }
  }

  /// The item in `bytes` read with `configuration`.
  static func read(
    _ bytes: UnsafeRawBufferPointer, configuration: CBORReader.Configuration
  ) throws -> CBORValue {
    guard !bytes.isEmpty else { throw JKCBORError(.emptyInput, "The input is empty", at: 0) }
    var reader = CBORReader(bytes, configuration: configuration)
    var references = CBORValueReferences()
    let value = try reader.readValue(depth: 0, references: &references)
    if reader.remaining > 0 && !configuration.allowsBytesAfterItem {
      throw JKCBORError(
        .bytesAfterItem, "\(reader.remaining) bytes follow the top-level item",
        at: reader.position)
    }
    return value
  }
}

extension CBORReader {
  /// Reads the next item as a ``CBORValue``, `depth` levels down, with
  /// `references` to resolve its references.
  mutating func readValue(depth: Int, references: inout CBORValueReferences) throws -> CBORValue {
    let head = try readHead()
    return try readValue(head, depth: depth, references: &references)
  }

  /// Reads the rest of the item whose head is `head`.
  private mutating func readValue(
    _ head: Head, depth: Int, references: inout CBORValueReferences
  ) throws -> CBORValue {
    switch head.major {
    case .unsigned, .negative, .tag:
      guard !head.isIndefinite else {
        throw JKCBORError(
          .invalidIndefiniteLength,
          "An \(head.major == .tag ? "tag" : "integer") cannot have an indefinite length",
          at: head.start)
      }
      if head.major == .unsigned { return .unsigned(head.argument) }
      if head.major == .negative { return .negative(head.argument) }
      if CBORTags.isReference(head.argument) {
        return try readReference(head, depth: depth, references: &references)
      }
      guard depth < configuration.maxDepth else { throw tooDeep(at: head.start) }
      let contentStart = position
      let content = try readValue(depth: depth + 1, references: &references)
      try CBORTags.check(content, taggedWith: head.argument, at: contentStart)
      return .tagged(head.argument, content)
    case .bytes, .text:
      let value: [UInt8]
      if head.isIndefinite {
        value = try readChunks(of: head)
      } else {
        let count = try checkedLength(head, limit: configuration.maxStringLength)
        let start = skip(count)
        let item: CBORValue =
          head.major == .text
          ? .text(try text(at: start, count: count, itemStart: head.start))
          : .bytes(Array(UnsafeRawBufferPointer(rebasing: bytes[start..<start + count])))
        if references.hasNamespace { references.number(item, length: count) }
        return item
      }
      return head.major == .text ? .text(String(decoding: value, as: UTF8.self)) : .bytes(value)
    case .array:
      guard depth < configuration.maxDepth else { throw tooDeep(at: head.start) }
      var elements: [CBORValue] = []
      if head.isIndefinite {
        while try !readBreak() {
          guard elements.count < configuration.maxCollectionCount else {
            throw tooMany(at: head.start)
          }
          elements.append(try readValue(depth: depth + 1, references: &references))
        }
      } else {
        let count = try checkedLength(head, limit: configuration.maxCollectionCount)
        elements.reserveCapacity(count)
        for _ in 0..<count {
          elements.append(try readValue(depth: depth + 1, references: &references))
        }
      }
      return .array(elements)
    case .map:
      guard depth < configuration.maxDepth else { throw tooDeep(at: head.start) }
      var pairs = MapPairs(allowsDuplicates: configuration.allowsDuplicateKeys)
      if head.isIndefinite {
        while try !readBreak() {
          guard pairs.count < configuration.maxCollectionCount else {
            throw tooMany(at: head.start)
          }
          try readPair(into: &pairs, depth: depth, references: &references)
        }
      } else {
        let count = try checkedLength(
          head, limit: configuration.maxCollectionCount, bytesPerElement: 2)
        pairs.reserveCapacity(count)
        for _ in 0..<count { try readPair(into: &pairs, depth: depth, references: &references) }
      }
      return .map(pairs.pairs)
    case .simple:
      if head.isIndefinite { throw unexpectedBreak(at: head.start) }
      return try simpleValue(head)
    }
  }

  /// Reads one key and its value into `pairs`.
  private mutating func readPair(
    into pairs: inout MapPairs, depth: Int, references: inout CBORValueReferences
  ) throws {
    let keyStart = position
    let key = try readValue(depth: depth + 1, references: &references)
    let value = try readValue(depth: depth + 1, references: &references)
    try pairs.add(key, value, keyStart: keyStart)
  }

  /// Reads a string namespace (tag 256), a string reference (25), a shared
  /// value (28) or a shared reference (29), whose head is `head`, `depth`
  /// levels down: the item it stands for, with no tag.
  private mutating func readReference(
    _ head: Head, depth: Int, references: inout CBORValueReferences
  ) throws -> CBORValue {
    switch head.argument {
    case CBORTags.stringNamespace:
      let contentDepth = try contentDepth(
        of: head, depth: depth, contentIsTag: try peek() >> 5 == 6)
      references.namespaces.append(references.strings.count)
      let value = try readValue(depth: contentDepth, references: &references)
      references.strings.removeSubrange(references.namespaces.removeLast()...)
      return value
    case CBORTags.shareable:
      let contentDepth = try contentDepth(
        of: head, depth: depth, contentIsTag: try peek() >> 5 == 6)
      let number = references.shared.count
      references.shared.append(nil)
      let value = try readValue(depth: contentDepth, references: &references)
      references.shared[number] = value
      return value
    default:
      let content = try readHead()
      guard content.major == .unsigned, !content.isIndefinite else {
        if content.major == .unsigned {
          throw JKCBORError(
            .invalidIndefiniteLength, "An integer cannot have an indefinite length",
            at: content.start)
        }
        throw CBORTags.wrongContent(
          of: head.argument, found: content.major.description, needs: .unsignedInteger,
          at: content.start)
      }
      if head.argument == CBORTags.stringReference {
        return try references.string(content.argument, referenceStart: head.start)
      }
      return try references.sharedValue(
        content.argument, referenceStart: head.start, depth: depth,
        limit: 4 * position + 65_536, maxDepth: configuration.maxDepth)
    }
  }

  /// The error for an indefinite-length array or map with more elements
  /// than the limit.
  private func tooMany(at offset: Int) -> JKCBORError {
    JKCBORError(
      .limitExceeded,
      "An indefinite-length collection holds more than the limit of "
        + "\(configuration.maxCollectionCount) items", at: offset)
  }
}

/// A map's pairs as they are read, with its keys checked for repeats: by a
/// scan of the few keys small maps have, by a set once there are more.
struct MapPairs {
  /// The pairs, in the order read (a repeated key keeps its first place).
  private(set) var pairs: [(key: CBORValue, value: CBORValue)] = []
  /// Where each key is in ``pairs``, once the map is large.
  private var places: [CBORValue: Int]?
  /// Whether a repeated key replaces the earlier value instead of throwing.
  let allowsDuplicates: Bool

  /// A map with no pairs yet.
  init(allowsDuplicates: Bool) {
    self.allowsDuplicates = allowsDuplicates
  }

  /// The number of pairs.
  var count: Int { pairs.count }

  /// Makes room for `count` pairs.
  mutating func reserveCapacity(_ count: Int) {
    pairs.reserveCapacity(count)
  }

  /// Adds a pair whose key was read at `keyStart`.
  mutating func add(_ key: CBORValue, _ value: CBORValue, keyStart: Int) throws {
    if let earlier = place(of: key) {
      guard allowsDuplicates else {
        throw JKCBORError(.duplicateKey, "The map key \(key) is repeated", at: keyStart)
      }
      pairs[earlier].value = value
      return
    }
    pairs.append((key, value))
    if places != nil {
      places![key] = pairs.count - 1
    } else if pairs.count > 16 {
      places = Dictionary(
        pairs.indices.map { (pairs[$0].key, $0) }, uniquingKeysWith: { first, _ in first })
    }
  }

  /// The index in ``pairs`` of the pair whose key is `key`.
  private func place(of key: CBORValue) -> Int? {
    if let places { return places[key] }
    return pairs.firstIndex { $0.key == key }
  }
}

/// The tables that resolve the references of the item a ``CBORReader``
/// reads as a ``CBORValue``: the strings of the open string namespaces and
/// the shared values.
struct CBORValueReferences {
  /// The strings that the open string namespaces number, outermost
  /// namespace first.
  var strings: [CBORValue] = []
  /// Where each open string namespace's strings start in ``strings``,
  /// innermost last.
  var namespaces: [Int] = []
  /// The shared values (tag 28) by number; nil while one is read.
  var shared: [CBORValue?] = []
  /// Per shared value, by number, once a reference has asked: its items
  /// and how deep they nest.
  private var sizes: [Int: (items: Int, height: Int)] = [:]
  /// The items that shared references have repeated.
  private var copiedItems = 0

  /// Whether a string namespace is open.
  var hasNamespace: Bool { !namespaces.isEmpty }

  /// Adds `string`, a definite string of `length` bytes just read, to the
  /// innermost namespace's table if it is long enough.
  mutating func number(_ string: CBORValue, length: Int) {
    guard let first = namespaces.last else { return }
    if length >= CBORTags.shortestReferencedLength(tableCount: strings.count - first) {
      strings.append(string)
    }
  }

  /// The string at `index` of the innermost namespace, which the tag 25 at
  /// `referenceStart` refers to.
  func string(_ index: UInt64, referenceStart: Int) throws -> CBORValue {
    guard let first = namespaces.last else {
      throw JKCBORError(
        .invalidReference,
        "A string reference (tag 25) stands outside any string namespace (tag 256)",
        at: referenceStart)
    }
    let count = strings.count - first
    guard index < UInt64(count) else {
      throw JKCBORError(
        .invalidReference,
        "The string reference \(index) is past the table of its namespace, "
          + "which holds \(counted(UInt64(count), "string"))", at: referenceStart)
    }
    return strings[first + Int(index)]
  }

  /// The shared value `number`, which the tag 29 at `referenceStart`,
  /// `depth` levels down, refers to; it may not take the items repeated
  /// by references past `limit`, nor nest past `maxDepth`.
  mutating func sharedValue(
    _ number: UInt64, referenceStart: Int, depth: Int, limit: Int, maxDepth: Int
  ) throws -> CBORValue {
    guard number < UInt64(shared.count) else {
      throw JKCBORError(
        .invalidReference,
        "The shared reference \(number) refers to no value marked before it (tag 28), "
          + "of which there are \(shared.count)", at: referenceStart)
    }
    guard let value = shared[Int(number)] else {
      throw JKCBORError(
        .invalidReference,
        "The shared reference \(number) refers to a value that contains it", at: referenceStart)
    }
    let size: (items: Int, height: Int)
    if let known = sizes[Int(number)] {
      size = known
    } else {
      var items = 0
      let height = Self.measure(value, items: &items, limit: limit - copiedItems)
      size = (items, height)
      if items <= limit - copiedItems { sizes[Int(number)] = size }
    }
    guard depth + size.height <= maxDepth else {
      throw JKCBORError(
        .tooDeeplyNested,
        "Arrays, maps and tags nest deeper than the limit of \(maxDepth)", at: referenceStart)
    }
    guard size.items <= limit - copiedItems else {
      throw JKCBORError(
        .limitExceeded,
        "Shared references repeat more than the limit of \(limit) items "
          + "(4 for each byte read, and 65,536)", at: referenceStart)
    }
    copiedItems += size.items
    return value
  }

  /// How deep arrays, maps and tags nest in `value` (0 for a scalar), with
  /// its items added to `items`; stops counting once `items` passes `limit`.
  private static func measure(_ value: CBORValue, items: inout Int, limit: Int) -> Int {
    items += 1
    guard items <= limit else { return 0 }
    switch value {
    case .array(let elements):
      var height = 0
      for element in elements {
        height = max(height, measure(element, items: &items, limit: limit))
        if items > limit { break }
      }
      return height + 1
    case .map(let pairs):
      var height = 0
      for pair in pairs {
        height = max(height, measure(pair.key, items: &items, limit: limit))
        height = max(height, measure(pair.value, items: &items, limit: limit))
        if items > limit { break }
      }
      return height + 1
    case .tagged(_, let content):
      return measure(content, items: &items, limit: limit) + 1
    default:
      return 0
    }
  }
}
