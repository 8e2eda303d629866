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
    let value = try reader.readValue(depth: 0)
    if reader.remaining > 0 && !configuration.allowsBytesAfterItem {
      throw JKCBORError(
        .bytesAfterItem, "\(reader.remaining) bytes follow the top-level item",
        at: reader.position)
    }
    return value
  }
}

extension CBORReader {
  /// Reads the next item as a ``CBORValue``, `depth` levels down.
  mutating func readValue(depth: Int) throws -> CBORValue {
    let head = try readHead()
    return try readValue(head, depth: depth)
  }

  /// Reads the rest of the item whose head is `head`.
  private mutating func readValue(_ head: Head, depth: Int) throws -> CBORValue {
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
      guard depth < configuration.maxDepth else { throw tooDeep(at: head.start) }
      let contentStart = position
      let content = try readValue(depth: depth + 1)
      try CBORTags.check(content, taggedWith: head.argument, at: contentStart)
      return .tagged(head.argument, content)
    case .bytes, .text:
      let value: [UInt8]
      if head.isIndefinite {
        value = try readChunks(of: head)
      } else {
        let count = try checkedLength(head, limit: configuration.maxStringLength)
        let start = skip(count)
        if head.major == .text {
          return .text(try text(at: start, count: count, itemStart: head.start))
        }
        value = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<start + count]))
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
          elements.append(try readValue(depth: depth + 1))
        }
      } else {
        let count = try checkedLength(head, limit: configuration.maxCollectionCount)
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(try readValue(depth: depth + 1)) }
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
          try readPair(into: &pairs, depth: depth)
        }
      } else {
        let count = try checkedLength(
          head, limit: configuration.maxCollectionCount, bytesPerElement: 2)
        pairs.reserveCapacity(count)
        for _ in 0..<count { try readPair(into: &pairs, depth: depth) }
      }
      return .map(pairs.pairs)
    case .simple:
      if head.isIndefinite { throw unexpectedBreak(at: head.start) }
      return try simpleValue(head)
    }
  }

  /// Reads one key and its value into `pairs`.
  private mutating func readPair(into pairs: inout MapPairs, depth: Int) throws {
    let keyStart = position
    let key = try readValue(depth: depth + 1)
    let value = try readValue(depth: depth + 1)
    try pairs.add(key, value, keyStart: keyStart)
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
