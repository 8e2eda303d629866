import Foundation
import JSONKitCorpus
import Testing

@testable import JSONKit

/// CBOR read onto the tape is the tape the same document's JSON gives:
/// the same kinds, values, strings, keys, counts and ends, so that the
/// decoder reads both alike; and what only CBOR has is marked as the tape's
/// page says.
@Suite("CBOR: the tape of a CBOR document")
struct CBORTapeTests {
  /// The entries, arena and key strings of `bytes` scanned as CBOR.
  static func cborTape(
    _ bytes: [UInt8], _ configuration: CBORTapeScanner.Configuration = .init()
  ) throws -> (entries: [TapeEntry], strings: [String?]) {
    let context = ScanContext()
    return try bytes.withUnsafeBytes { input in
      try CBORTapeScanner.scan(input, into: &context.state, configuration: configuration)
      let tape = Tape(context: context, input: input)
      let entries = Array(UnsafeBufferPointer(start: tape.entries, count: tape.count))
      return (entries, entries.map { Self.text(of: $0, in: tape) })
    }
  }

  /// What a string, bytes or key entry holds, as text.
  static func text(of entry: TapeEntry, in tape: Tape) -> String? {
    switch entry.kind {
    case .string, .bytes: String(decoding: tape.stringBytes(entry), as: UTF8.self)
    case .key: tape.keys[Int(entry.payload)]
    default: nil
    }
  }

  @Test("A corpus document's CBOR tape is its JSON tape, offsets aside")
  func corpusTapesAgree() throws {
    let directory = try #require(Corpus.dataDirectory(nearSourceFile: #filePath))
    for corpus in [Corpus.citmCatalog, .canada, .twitter] {
      let json = try corpus.data(in: directory)
      let cbor = CBORValue(try JSONValue(parsing: json)).cborBytes()
      let (cborEntries, cborStrings) = try Self.cborTape(cbor)
      let context = ScanContext()
      try json.withUnsafeBytes { input in
        try Scanner<TapeRecording>.scan(
          input, into: context, configuration: ScanConfiguration(options: [], maxDepth: 512))
        let tape = Tape(context: context, input: input)
        let entries = Array(UnsafeBufferPointer(start: tape.entries, count: tape.count))
        #expect(entries.count == cborEntries.count, "\(corpus)")
        for (index, (a, b)) in zip(entries, cborEntries).enumerated() {
          let same =
            a.kind == b.kind
            && a.payloadMeaning(Self.text(of: a, in: tape))
              == b.payloadMeaning(cborStrings[index])
            && (a.kind != .string || a.flags & TapeEntry.isASCII == b.flags & TapeEntry.isASCII
              || a.flags & TapeEntry.inArena != 0)
          if !same {
            Issue.record("\(corpus) entry \(index): \(a) vs \(b)")
            break
          }
        }
      }
    }
  }

  @Test("What only CBOR has is marked on the tape")
  func cborOnlyMarks() throws {
    let item: CBORValue = [
      .bytes([1, 2]), .tagged(2, .bytes([1, 0])), .negative(.max),
      .tagged(37, .bytes(Array(0..<16))),
      .tagged(4, [-2, 12345]), .undefined, .tagged(1, 1.5), .tagged(55799, "x"), [7: "seven"],
    ]
    let (entries, strings) = try Self.cborTape(item.cborBytes())
    let kinds = entries.map(\.kind)
    #expect(
      kinds == [
        .array, .bytes, .bytes, .bytes, .bytes, .array, .int, .int, .null, .double, .string,
        .object,
        .key, .string,
      ])
    #expect(entries[1].flags == 0 && strings[1] == "\u{1}\u{2}")
    #expect(entries[2].flags == TapeEntry.positiveBignum)
    #expect(entries[3].flags == TapeEntry.negativeBignum && entries[3].payload == 8)
    #expect(entries[4].flags == TapeEntry.uuidBytes && entries[4].payload == 16)
    #expect(entries[5].flags == TapeEntry.decimalFraction && entries[5].childCount == 2)
    #expect(entries[8].flags == TapeEntry.undefined)
    #expect(strings[12] == "7")
  }

  @Test(
    "What Codable cannot read from CBOR is an error at its byte",
    arguments: [
      ("c16161", JKCBORError.Kind.invalidTagContent, 1),
      ("d903e801", .unknownTag, 0),
      ("a1410101", .invalidTagContent, 1),
      ("f0", .invalidTagContent, 0),
      ("a2616101616102", .duplicateKey, 4),
      ("c48101", .invalidTagContent, 1),
      ("d82541ff", .invalidTagContent, 2),
      ("a11f01", .invalidIndefiniteLength, 1),
    ])
  func refusals(_ hex: String, _ kind: JKCBORError.Kind, _ offset: Int) {
    #expect {
      _ = try Self.cborTape(CBORBytes.fromHex(hex))
    } throws: { error in
      (error as? JKCBORError)?.kind == kind && (error as? JKCBORError)?.offset == offset
    }
  }

  @Test("With unknown tags skipped, their content is read; with repeats allowed, the map is marked")
  func relaxations() throws {
    var configuration = CBORTapeScanner.Configuration()
    configuration.skipsUnknownTags = true
    configuration.reader.allowsDuplicateKeys = true
    let (entries, _) = try Self.cborTape(CBORBytes.fromHex("a26161016161d903e802"), configuration)
    #expect(entries.map(\.kind) == [.object, .key, .int, .key, .int])
    #expect(entries[0].flags == TapeEntry.hasDuplicateKeys)
  }

  @Test("A large map's repeated key is found once the map ends, at the second occurrence")
  func largeMapRepeats() throws {
    var pairs: [(key: CBORValue, value: CBORValue)] = (0..<40).map { (.text("k\($0)"), 0) }
    pairs.append((.text("k3"), [1, 2]))
    pairs.append((.text("k40"), 0))
    let bytes = CBORValue.map(pairs).cborBytes()
    #expect {
      _ = try Self.cborTape(bytes)
    } throws: { error in
      guard let error = error as? JKCBORError, error.kind == .duplicateKey else { return false }
      // The second "k3" key's head.
      return bytes[error.offset] == 0x62
        && bytes[error.offset + 1...error.offset + 2] == [0x6B, 0x33]
    }
  }
}

extension TapeEntry {
  /// What the payload means, for comparing tapes whose strings lie in
  /// different places: a string's or key's text, a container's count and
  /// end, a scalar's bits.
  fileprivate func payloadMeaning(_ text: String?) -> String {
    if let text { return text }
    return String(payload)
  }
}
