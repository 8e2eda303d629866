import Foundation
import JSONKit
import Testing

/// `.stringReferences` as the encoder writes it while it streams: the
/// bytes must be those of the reference numbering of the plain output in
/// output order (what `CBORValue.cborBytes(options:)` writes, and cbor2
/// with `string_referencing=True`), whatever wrote the strings (keys,
/// values, byte strings, dictionaries' keys, tagged strings) and however
/// the encode went (out of order, a value that failed, an error's path).
@Suite("CBOR: string references written while encoding")
struct CBORStreamedStringReferenceTests {
  /// The encoder's bytes with `options`, and the reference: the plain
  /// bytes read as an item and written again with `options`.
  static func bytesAndReference<T: Encodable>(
    _ value: T, _ options: JKCBOREncoder.Options = .stringReferences
  ) throws -> (encoded: [UInt8], reference: [UInt8]) {
    let plain = try CBOREncoderReferenceTests.encoder([]).encodeToBytes(value)
    let reference = try CBORValue(cbor: plain).cborBytes(options: options)
    return (try CBOREncoderReferenceTests.encoder(options).encodeToBytes(value), reference)
  }

  struct Account: Codable, Equatable {
    var id: UUID
    var name: String
    var site: URL
    var avatar: Data
    var tags: [String]
    var labels: [String: String]
    var balance: Decimal
    var created: Date
    var scores: [Double]
    var owner: String?
  }

  static func accounts(_ count: Int) -> [Account] {
    let ids = (0..<5).map { UUID(uuidString: "00000000-0000-0000-0000-00000000000\($0)")! }
    let small = Decimal(string: "1234.56")!
    let large = Decimal(string: "123456789012345678901234567.8")!
    var accounts: [Account] = []
    for index in 0..<count {
      let site = URL(string: "https://example.com/\(index % 3)")!
      let avatar = Data(repeating: UInt8(index % 4), count: 3 + index % 3)
      let tags = ["tag \(index % 7)", "tag \((index + 1) % 7)", "ab"]
      let labels = ["label \(index % 11)": "value \(index % 13)", "kind": "account"]
      let created = Date(timeIntervalSince1970: Double(index % 4) * 1000.5)
      let owner: String? = index % 3 == 0 ? nil : "owner \(index % 300)"
      accounts.append(
        Account(
          id: ids[index % 5], name: "name \(index % 30)", site: site, avatar: avatar, tags: tags,
          labels: labels, balance: index % 2 == 0 ? small : large, created: created,
          scores: [1.5, Double(index)], owner: owner))
    }
    return accounts
  }

  @Test(
    "Keys, values, byte strings, dictionaries' keys and tagged strings: the bytes of the reference numbering"
  )
  func sameBytesAsReference() throws {
    // Past 24 and past 256 strings in the table, where the shortest string
    // added grows to four and then five bytes.
    for count in [1, 2, 40, 700] {
      let accounts = Self.accounts(count)
      for options: JKCBOREncoder.Options in [
        .stringReferences, [.stringReferences, .selfDescribed],
      ] {
        let (encoded, reference) = try Self.bytesAndReference(accounts, options)
        #expect(encoded == reference, "\(count) accounts, \(options)")
        #expect(try JKCBORDecoder().decode([Account].self, from: encoded) == accounts)
      }
    }
  }

  @Test("Strings in arrays of strings and in single-value containers")
  func stringsInsideItems() throws {
    struct Wrapped: Encodable {
      var text: String
      func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
      }
    }
    let value: [String: [String]] = [
      "first": ["alpha", "beta", "alpha"], "second": ["beta", "gamma", "first"],
    ]
    let (encoded, reference) = try Self.bytesAndReference(value)
    #expect(encoded == reference)
    let wrapped = (0..<30).map { Wrapped(text: "text \($0 % 4)") }
    let (wrappedBytes, wrappedReference) = try Self.bytesAndReference(wrapped)
    #expect(wrappedBytes == wrappedReference)
  }

  /// Opens a nested map, writes to a later sibling, then writes into the
  /// nested map again: streaming hands over to the tree after strings
  /// were already written as references.
  struct LateWrite: Encodable {
    var names: [String]
    enum Key: String, CodingKey { case names, nested, later, again }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(names, forKey: .names)
      var nested = container.nestedContainer(keyedBy: Key.self, forKey: .nested)
      try nested.encode(names, forKey: .names)
      try container.encode("names", forKey: .later)
      try nested.encode(names[0], forKey: .again)
      try container.encode(names, forKey: .again)
    }
  }

  @Test("A hand-over after references were written gives the reference numbering of the output")
  func handOverAfterReferences() throws {
    let value = LateWrite(names: ["names", "nested", "again", "names", "later"])
    for options: JKCBOREncoder.Options in [.stringReferences, [.stringReferences, .selfDescribed]] {
      let (encoded, reference) = try Self.bytesAndReference(value, options)
      #expect(encoded == reference, "\(options)")
    }
    let items = (0..<40).map { LateWrite(names: ["name \($0 % 5)", "nested", "n\($0 % 3)"]) }
    let (encoded, reference) = try Self.bytesAndReference(items)
    #expect(encoded == reference)
  }

  /// Writes a string, then throws.
  struct Failing: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode("written before failing")
      throw CancellationError()
    }
  }

  /// Tries a failing value inside open maps, after repeated keys.
  struct TriesFailing: Encodable {
    enum Key: String, CodingKey { case outer, inner, value, failed }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      var outer = container.nestedContainer(keyedBy: Key.self, forKey: .outer)
      try outer.encode("written before failing", forKey: .value)
      var inner = outer.nestedContainer(keyedBy: Key.self, forKey: .inner)
      try inner.encode("value", forKey: .value)
      try? inner.encode(Failing(), forKey: .failed)
      try inner.encode("outer", forKey: .outer)
    }
  }

  @Test("A value that fails inside open maps leaves the references of what stays")
  func failedValueInsideOpenMaps() throws {
    let value = [TriesFailing(), TriesFailing()]
    let (encoded, reference) = try Self.bytesAndReference(value)
    #expect(encoded == reference)
    let read = try CBORValue(cbor: encoded)
    let plain = try CBORValue(cbor: CBOREncoderReferenceTests.encoder([]).encodeToBytes(value))
    #expect(read == plain)
  }

  /// Writes a string, or throws with its coding path.
  struct Payload: Encodable {
    var fails = false
    func encode(to encoder: any Encoder) throws {
      guard fails else {
        var container = encoder.singleValueContainer()
        return try container.encode("fine")
      }
      throw EncodingError.invalidValue(
        0, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "thrown"))
    }
  }

  struct Row: Encodable {
    var label = "label"
    var payload = Payload()
  }

  @Test("A coding path through a key written as a reference names the key")
  func codingPathThroughReferencedKey() throws {
    let rows = [Row(), Row(), Row(payload: Payload(fails: true))]
    func path(_ options: JKCBOREncoder.Options) -> [String] {
      do {
        _ = try CBOREncoderReferenceTests.encoder(options).encodeToBytes(rows)
      } catch EncodingError.invalidValue(_, let context) {
        return context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
      } catch {
        return ["unexpected \(error)"]
      }
      return []
    }
    #expect(path(.stringReferences) == ["2", "payload"])
    #expect(path(.stringReferences) == path([]))
    let dictionaries = [["label": "a", "payload": "b"], ["label": "c"]]
    let (encoded, reference) = try Self.bytesAndReference(dictionaries)
    #expect(encoded == reference)
  }
}
