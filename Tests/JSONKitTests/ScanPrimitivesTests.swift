import Testing

@testable import JSONKit

/// The scanner's word-at-a-time and run-skipping loops give what the plain
/// byte-at-a-time loops give, wherever the byte that stops them sits.
@Suite("Scan primitives")
struct ScanPrimitivesTests {
  // MARK: - References, one byte or one sequence at a time

  private static func plainStringBytesEnd(_ bytes: [UInt8], from start: Int) -> Int {
    var position = start
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 {
        return position
      }
      position += 1
    }
    return position
  }

  private static func spacesEnd(_ bytes: [UInt8], from start: Int) -> Int {
    var position = start
    while position < bytes.count, bytes[position] == 0x20 { position += 1 }
    return position
  }

  /// Sequences that the full decoder accepts, of two bytes, or of three
  /// bytes with a lead byte other than E0, ED and EF.
  private static func commonMultibyteEnd(_ bytes: [UInt8], from start: Int) -> Int {
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return start }
      var position = start
      while position < buffer.count, base[position] >= 0x80 {
        let lead = base[position]
        let (length, _) = UTF8Validation.decodeMultibyte(base, at: position, end: buffer.count)
        guard length == 2 || (length == 3 && lead != 0xE0 && lead != 0xED && lead != 0xEF) else {
          break
        }
        position += length
      }
      return position
    }
  }

  /// Up to `maximum` of `pieces` end to end: each one of the first `first`,
  /// except one time in `oneIn`, when it is any of them.
  private static func randomMix(
    of pieces: [[UInt8]], mostlyFirst first: Int, oneIn: Int, upTo maximum: Int,
    using random: inout SplitMix64
  ) -> [UInt8] {
    var bytes: [UInt8] = []
    for _ in 0..<Int.random(in: 0...maximum, using: &random) {
      bytes +=
        Int.random(in: 0..<oneIn, using: &random) == 0
        ? pieces.randomElement(using: &random)! : pieces[Int.random(in: 0..<first, using: &random)]
    }
    return bytes
  }

  private static func withBase<R>(_ bytes: [UInt8], _ body: (UnsafePointer<UInt8>) -> R) -> R {
    // A buffer of its own, so that no load can read past the bytes unseen.
    let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
    defer { copy.deallocate() }
    copy.initialize(from: bytes, count: bytes.count)
    return body(copy)
  }

  // MARK: - Plain string bytes and spaces

  @Test(arguments: [
    UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x00, 0x1F, 0x80, 0xC3, 0xFF,
  ])
  func plainStringBytesStopAtTheSpecialByteWhereverItSits(_ special: UInt8) {
    // Past the first word, 16-byte blocks: up to 48 bytes puts the special
    // byte in each lane of two blocks, and in the words after them.
    for length in 0...48 {
      for at in 0...length {
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        if at < length { bytes[at] = special }
        for start in 0...min(3, length) {
          let found = Self.withBase(bytes) {
            ScanPrimitives.skipPlainStringBytes($0, from: start, end: bytes.count)
          }
          #expect(found == Self.plainStringBytesEnd(bytes, from: start), "\(bytes) from \(start)")
        }
      }
    }
  }

  @Test func plainStringBytesMatchTheByteLoopOnRandomInput() {
    var random = SplitMix64(seed: 0x5CA7)
    let alphabet: [UInt8] = [0x20, 0x41, 0x7A, 0x22, 0x5C, 0x0A, 0x1F, 0x7F, 0x80, 0xE6, 0xFF]
    for _ in 0..<2_000 {
      let bytes = (0..<Int.random(in: 0...72, using: &random)).map { _ in
        Bool.random(using: &random)
          ? UInt8(ascii: "x") : alphabet.randomElement(using: &random)!
      }
      let start = Int.random(in: 0...bytes.count, using: &random)
      let found = Self.withBase(bytes) {
        ScanPrimitives.skipPlainStringBytes($0, from: start, end: bytes.count)
      }
      #expect(found == Self.plainStringBytesEnd(bytes, from: start), "\(bytes) from \(start)")
    }
  }

  @Test func spacesEndAtTheFirstOtherByteWhereverItSits() {
    for other: UInt8 in [0x0A, 0x09, 0x21, 0x00, 0xA0] {
      for length in 0...24 {
        for at in 0...length {
          var bytes = [UInt8](repeating: 0x20, count: length)
          if at < length { bytes[at] = other }
          let found = Self.withBase(bytes) {
            ScanPrimitives.skipSpaces($0, from: 0, end: bytes.count)
          }
          #expect(found == Self.spacesEnd(bytes, from: 0), "\(bytes)")
        }
      }
    }
  }

  // MARK: - Common multibyte sequences

  @Test func commonMultibyteMatchesTheFullDecoderForEveryLeadAndSecondByte() {
    for lead in UInt8(0x80)...0xFF {
      for second in UInt8(0x00)...0xFF {
        for third: UInt8 in [0x41, 0x80, 0xA5, 0xBF, 0xC0] {
          for bytes in [[lead, second, third], [lead, second], [lead]] {
            let found = Self.withBase(bytes) {
              UTF8Validation.skipCommonSequences($0, from: 0, end: bytes.count)
            }
            #expect(found == Self.commonMultibyteEnd(bytes, from: 0), "\(bytes)")
          }
        }
      }
    }
  }

  @Test func commonMultibyteSkipsOnlyWellFormedScalarsThatNeedNoOtherCheck() {
    var random = SplitMix64(seed: 0xC0DE)
    let pieces: [[UInt8]] = [
      [0xC3, 0xA9], [0xDF, 0xBF], [0xE6, 0x97, 0xA5], [0xEC, 0x9D, 0xB4], [0xEE, 0x80, 0x80],
      [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xEF, 0xB7, 0x90],
      [0xEF, 0xBF, 0xBD], [0xF0, 0x9F, 0x98, 0x80], [0xC0, 0xAF], [0xC3], [0xE6, 0x97], [0x80],
      [0xFF], [0x41], [0x22],
    ]
    for _ in 0..<3_000 {
      // Mostly common sequences, so that runs are long before a stop.
      let bytes = Self.randomMix(
        of: pieces, mostlyFirst: 5, oneIn: 4, upTo: 12, using: &random)
      let found = Self.withBase(bytes) {
        UTF8Validation.skipCommonSequences($0, from: 0, end: bytes.count)
      }
      #expect(found == Self.commonMultibyteEnd(bytes, from: 0), "\(bytes)")
      let skipped = Array(bytes[..<found])
      #expect(String(validating: skipped, as: UTF8.self) != nil, "\(skipped)")
    }
  }

  @Test func firstIllFormedOffsetMatchesASequenceBySequenceWalk() {
    var random = SplitMix64(seed: 0x0FF5E7)
    let pieces: [[UInt8]] = [
      [0x41], [0x7F], [0x00], [0xC3, 0xA9], [0xDF, 0xBF], [0xE6, 0x97, 0xA5], [0xEE, 0x80, 0x80],
      [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEF, 0xBF, 0xBF], [0xF0, 0x9F, 0x98, 0x80],
      [0xF4, 0x8F, 0xBF, 0xBF], [0xED, 0xA0, 0x80], [0xE0, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80],
      [0xC0, 0xAF], [0xC3], [0xE6, 0x97], [0x80], [0xFF], Array("plain ascii".utf8),
    ]
    for _ in 0..<5_000 {
      // Mostly well-formed pieces, so that an ill-formed one comes late.
      let bytes = Self.randomMix(
        of: pieces, mostlyFirst: 12, oneIn: 6, upTo: 16, using: &random)
      let found = bytes.withUnsafeBytes { UTF8Validation.firstIllFormedOffset($0) }
      let expected = Self.withBase(bytes) { base -> Int? in
        var position = 0
        while position < bytes.count {
          if base[position] < 0x80 {
            position += 1
            continue
          }
          let length = UTF8Validation.decodeMultibyte(base, at: position, end: bytes.count).length
          guard length > 0 else { return position }
          position += length
        }
        return nil
      }
      #expect(found == expected, "\(bytes)")
      #expect((found == nil) == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
    }
  }

  // MARK: - Strings through the scanner

  /// A piece of a string's body: its bytes, and either the text it decodes
  /// to or the error it must cause at its byte `errorAt`. No piece starts
  /// with a continuation byte, so pieces never join into other sequences.
  private struct Piece {
    var bytes: [UInt8]
    var text: String
    var error: JKParseError.Kind?
    var errorAt = 0

    init(_ bytes: [UInt8], _ text: String) {
      self.bytes = bytes
      self.text = text
    }

    init(_ bytes: [UInt8], error: JKParseError.Kind, at errorAt: Int = 0) {
      self.bytes = bytes
      text = ""
      self.error = error
      self.errorAt = errorAt
    }
  }

  private static let validPieces: [Piece] = [
    Piece([0x61], "a"), Piece(Array("hello, ".utf8), "hello, "), Piece([0xC3, 0xA9], "é"),
    Piece([0xE6, 0x97, 0xA5], "日"), Piece([0xE3, 0x81, 0x82], "あ"),
    Piece([0xE0, 0xA0, 0x80], "\u{800}"), Piece([0xED, 0x9F, 0xBF], "\u{D7FF}"),
    Piece([0xEF, 0xBF, 0xBD], "\u{FFFD}"), Piece([0xF0, 0x9F, 0x98, 0x80], "😀"),
    Piece(Array(#"\n"#.utf8), "\n"), Piece(Array(#"\u00e9"#.utf8), "é"),
  ]

  private static let invalidPieces: [Piece] = [
    Piece([0xFF], error: .invalidUTF8), Piece([0xC3], error: .invalidUTF8),
    Piece([0xE6, 0x97], error: .invalidUTF8), Piece([0xED, 0xA0, 0x80], error: .invalidUTF8),
    Piece([0xC0, 0xAF], error: .invalidUTF8), Piece([0x61, 0x80], error: .invalidUTF8, at: 1),
    Piece([0xEF, 0xB7, 0x90], error: .noncharacter),
    Piece([0x01], error: .unescapedControlCharacter),
  ]

  @Test func stringsOfMixedScriptsDecodeOrFailAtTheirFirstBadByte() throws {
    var random = SplitMix64(seed: 0x57_12)
    for _ in 0..<3_000 {
      var body: [UInt8] = []
      var text = ""
      var firstError: (kind: JKParseError.Kind, offset: Int)?
      for _ in 0..<Int.random(in: 0...24, using: &random) {
        let piece =
          Int.random(in: 0..<12, using: &random) == 0
          ? Self.invalidPieces.randomElement(using: &random)!
          : Self.validPieces.randomElement(using: &random)!
        if let kind = piece.error, firstError == nil {
          firstError = (kind, 1 + body.count + piece.errorAt)
        }
        body += piece.bytes
        text += piece.text
      }
      // Closed, or cut off at the end of the input.
      let closed = Int.random(in: 0..<4, using: &random) != 0
      let document = [0x22] + body + (closed ? [0x22] : [])
      let outcome = Result { () throws(JKParseError) in try JSONValue(parsing: document) }
      switch (outcome, firstError) {
      case (.success(let value), nil):
        #expect(closed, "\(document) was accepted unclosed")
        #expect(value == .string(text), "\(document)")
      case (.failure(let error), let expected?):
        #expect(error.kind == expected.kind, "\(document): \(error)")
        #expect(error.offset == expected.offset, "\(document): \(error)")
      case (.failure(let error), nil):
        #expect(!closed, "\(document): \(error)")
        #expect(error.kind == .unterminated, "\(document): \(error)")
        #expect(error.offset == 0, "\(document): \(error)")
      default:
        Issue.record("\(document): \(outcome), expected \(String(describing: firstError))")
      }
    }
  }

  @Test func looseUnicodeRepairsAnIllFormedByteAfterARunOfCommonSequences() throws {
    for count in 0...10 {
      for prefix in [[0xC3, 0xA9], [0xE6, 0x97, 0xA5]] as [[UInt8]] {
        for escaped in [false, true] {
          let run = Array([[UInt8]](repeating: prefix, count: count).joined())
          let document: [UInt8] =
            [0x22] + (escaped ? Array(#"\t"#.utf8) : []) + run + [0xE6, 0x97, 0x22]
          let value = try JSONValue(parsing: document, options: .looseUnicode)
          let expected =
            (escaped ? "\t" : "") + String(decoding: run, as: UTF8.self) + "\u{FFFD}"
          #expect(value == .string(expected), "\(document)")
        }
      }
    }
  }
}
