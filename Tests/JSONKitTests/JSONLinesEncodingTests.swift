import Foundation
import JSONKit
import Testing

/// `encodeLines`: each value minified on its own line, read back by
/// `decodeLines`.
@Suite("JSON Lines encoding")
struct JSONLinesEncodingTests {
  struct Entry: Codable, Equatable {
    var id: Int
    var text: String
    var value: Double?
  }

  static let entries = [
    Entry(id: 1, text: "line\nbreak and \"quotes\"", value: 1.5),
    Entry(id: 2, text: "astral 😀 and \u{2028}", value: nil),
    Entry(id: 3, text: "", value: -0.0),
  ]

  @Test("Each value is written as encode(_:) writes it, on one line ending in a newline")
  func eachValueOnOneLine() throws {
    let encoder = JKEncoder()
    encoder.outputFormatting = .sortedKeys
    let output = try encoder.encodeLines(Self.entries)
    var expected = Data()
    for entry in Self.entries {
      expected += try encoder.encode(entry)
      expected.append(0x0A)
    }
    #expect(output == expected)
    #expect(output.filter { $0 == 0x0A }.count == Self.entries.count)
    #expect(try JKEncoder().encodeLines([Entry]()).isEmpty)
  }

  @Test("Encoded lines decode back to the same values")
  func roundTrip() throws {
    let data = try JKEncoder().encodeLines(Self.entries)
    let decoded = try JKDecoder().decodeLines(Entry.self, from: data)
    #expect(decoded.count == Self.entries.count)
    for (decodedEntry, entry) in zip(decoded, Self.entries) {
      #expect(decodedEntry == entry)
      #expect(decodedEntry.value?.sign == entry.value?.sign)
    }
  }

  @Test("Pretty printing is refused, since it would break values across lines")
  func prettyPrintedIsAnError() {
    let encoder = JKEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    #expect {
      try encoder.encodeLines(Self.entries)
    } throws: { error in
      guard case .invalidValue(_, let context) = error as? EncodingError else { return false }
      return context.debugDescription.contains(".prettyPrinted")
    }
  }

  @Test("An error names the value's index first in its coding path, as for an array")
  func errorPath() throws {
    let values = [1.0, 2.0, .nan]
    let encoderError = #expect(throws: EncodingError.self) {
      try JKEncoder().encodeLines(values)
    }
    let foundationError = #expect(throws: EncodingError.self) {
      try JSONEncoder().encode(values)
    }
    guard case .invalidValue(_, let context) = encoderError,
      case .invalidValue(_, let foundationContext) = foundationError
    else {
      Issue.record("expected invalidValue from both")
      return
    }
    #expect(ParityPath(context.codingPath) == ParityPath(foundationContext.codingPath))
  }
}
