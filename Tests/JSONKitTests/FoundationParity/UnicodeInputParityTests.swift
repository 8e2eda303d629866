import Foundation
import JSONKit
import Testing

/// Documents in UTF-16 and UTF-32, big- and little-endian, with and without a
/// byte order mark: JSONKit tells the encoding apart as `JSONDecoder` does
/// and reads the same values, through every entry point.
extension FoundationParityTests {
  /// A model with non-ASCII and astral text in keys, values and escapes.
  struct WideTextPostcard: Codable, Equatable {
    var city: String
    var greeting: String
    var tags: [String]
    var stamps: Int
    var weight: Double
    var sender: [String: String]
  }

  /// The postcard's text, with line breaks (CRLF too) and indentation, so
  /// that whitespace is transcoded as well.
  static let postcardText = """
    {"city": "Zürich", "greeting": "Grüße 😀 🇨🇭",\r
      "tags": ["日本語", "\\u00e9\\ud83d\\ude00", "𝄞"],
      "stamps": -12, "weight": 1.5e3,
      "sender": {"名前": "Zoë", "emoji": "👩‍👩‍👧"}}
    """

  /// A byte order and unit width, and whether a byte order mark comes first.
  struct WideEncoding: CustomTestStringConvertible, Sendable {
    let encoding: String.Encoding
    let name: String
    let mark: [UInt8]

    var testDescription: String { mark.isEmpty ? name : "\(name) with a byte order mark" }

    func bytes(_ text: String) -> Data {
      Data(mark) + text.data(using: encoding)!
    }

    /// Every variant: UTF-16 and UTF-32, both byte orders, with and without
    /// a mark.
    static let all: [WideEncoding] = [
      (String.Encoding.utf16LittleEndian, "UTF-16LE", [0xFF, 0xFE] as [UInt8]),
      (.utf16BigEndian, "UTF-16BE", [0xFE, 0xFF]),
      (.utf32LittleEndian, "UTF-32LE", [0xFF, 0xFE, 0x00, 0x00]),
      (.utf32BigEndian, "UTF-32BE", [0x00, 0x00, 0xFE, 0xFF]),
    ].flatMap { encoding, name, mark in
      [
        WideEncoding(encoding: encoding, name: name, mark: []),
        WideEncoding(encoding: encoding, name: name, mark: mark),
      ]
    }

    /// UTF-32LE with its byte order mark, which `JSONDecoder` takes for
    /// UTF-16LE's mark followed by U+0000.
    var foundationMisreadsTheMark: Bool { name == "UTF-32LE" && !mark.isEmpty }
  }

  @Test(arguments: WideEncoding.all)
  func aWideDocumentDecodesAsJSONDecoderDecodesIt(_ wide: WideEncoding) throws {
    let data = wide.bytes(Self.postcardText)
    let expected = try JSONDecoder().decode(
      WideTextPostcard.self, from: Data(Self.postcardText.utf8))
    #expect(expected.greeting == "Grüße 😀 🇨🇭" && expected.tags[1] == "é😀")
    let ours = DecodeParityOutcome { try JKDecoder().decode(WideTextPostcard.self, from: data) }
    #expect(ours == .value(expected))
    let theirs = DecodeParityOutcome { try JSONDecoder().decode(WideTextPostcard.self, from: data) }
    if wide.foundationMisreadsTheMark {
      // JSONKit's documented difference: it reads the real mark as UTF-32LE's.
      #expect(theirs == .error(kind: "dataCorrupted", path: ParityPath([])))
    } else {
      #expect(theirs == ours)
    }
  }

  /// Every way of handing `JKDecoder` bytes reads them alike.
  @Test(arguments: WideEncoding.all)
  func everyByteEntryPointReadsWideText(_ wide: WideEncoding) throws {
    let data = wide.bytes(Self.postcardText)
    let decoder = JKDecoder()
    let fromData = try decoder.decode(WideTextPostcard.self, from: data)
    #expect(try decoder.decode(WideTextPostcard.self, from: Array(data)) == fromData)
    #expect(
      try Array(data).withUnsafeBytes { try decoder.decode(WideTextPostcard.self, from: $0) }
        == fromData)
    let configured = try decoder.decode(
      WideTextGreeting.self, from: data, configuration: WideTextGreeting.Field.greeting)
    #expect(configured.text == fromData.greeting)
    #expect(try JSONValue(parsing: data) == (try JSONValue(parsing: Self.postcardText)))
    #expect(try JSONValue(parsing: Array(data)) == (try JSONValue(parsing: Self.postcardText)))
    try JSONValue.validate(data)
  }

  /// A model that reads one field named by its decoding configuration.
  struct WideTextGreeting: DecodableWithConfiguration {
    enum Field: String, CodingKey { case greeting }
    let text: String

    init(from decoder: any Decoder, configuration: Field) throws {
      text = try decoder.container(keyedBy: Field.self).decode(String.self, forKey: configuration)
    }
  }

  /// Short documents: a digit in two bytes (Foundation's own extension of
  /// RFC 4627's four-byte patterns), strings and numbers as the root.
  @Test(arguments: WideEncoding.all)
  func shortWideDocumentsDecodeAsInJSONDecoder(_ wide: WideEncoding) throws {
    for (text, value) in [("7", JSONValue.int(7)), ("\"é😀\"", "é😀"), (" [] ", [])] {
      let data = wide.bytes(text)
      #expect(try JKDecoder().decode(JSONValue.self, from: data) == value, "\(text)")
      guard !wide.foundationMisreadsTheMark else { continue }
      #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value, "\(text)")
    }
  }

  /// `JSONSerialization` (whose detection differs from `JSONDecoder`'s in
  /// a few documents that are not JSON in any encoding) and the `Any`
  /// bridge read every variant alike.
  @Test(arguments: WideEncoding.all)
  func theAnyBridgeReadsWideTextAsJSONSerialization(_ wide: WideEncoding) throws {
    let data = wide.bytes(Self.postcardText)
    let theirs = try JSONSerialization.jsonObject(with: data)
    let ours = try JKSerialization.jsonObject(with: data)
    #expect(try JSONValue(foundationObject: ours) == JSONValue(foundationObject: theirs))
    #expect(try JSONValue(foundationObject: ours) == JSONValue(parsing: Self.postcardText))
  }

  /// Where `JSONSerialization` tells the encoding apart differently from
  /// `JSONDecoder`, the `Any` bridge follows `JSONDecoder`; where both
  /// Foundation readers drop an incomplete last code unit, JSONKit rejects it.
  @Test func theAnyBridgeDiffersFromJSONSerializationWhereJSONDecoderDoes() throws {
    let utf32 = "[1]".data(using: .utf32LittleEndian)!
    let cases: [(bytes: Data, serializationReads: Bool, jsonKitReads: Bool)] = [
      (Data([0x31, 0x00, 0x20]), true, false),  // three bytes: UTF-8 to JSONDecoder
      (Data([0xFE, 0xFF, 0x00, 0x00]) + utf32, false, true),  // JSONDecoder's UTF-32LE mark
      (Data([0x31, 0x00, 0x20, 0x00, 0x20]), true, false),  // an incomplete last unit
    ]
    for (bytes, serializationReads, jsonKitReads) in cases {
      let theirs = try? JSONSerialization.jsonObject(with: bytes, options: .fragmentsAllowed)
      let ours = try? JKSerialization.jsonObject(with: bytes)
      #expect((theirs != nil) == serializationReads, "\(Array(bytes))")
      #expect((ours != nil) == jsonKitReads, "\(Array(bytes))")
      let decoded = try? JSONDecoder().decode(JSONValue.self, from: bytes)
      #expect((decoded != nil) == (jsonKitReads || bytes.count == 5), "\(Array(bytes))")
    }
  }

  /// The first bytes that decide the encoding, and how each reader answers
  /// them. JSONKit answers as `JSONDecoder` except where the third column
  /// says why not.
  @Test func theFirstBytesDecideAsInJSONDecoder() throws {
    let cases: [(bytes: [UInt8], difference: String?)] = [
      ([0x31, 0x00], nil),  // "1" in UTF-16LE
      ([0x00, 0x31], nil),  // "1" in UTF-16BE
      ([0x31, 0x00, 0x00, 0x00], nil),  // "1" in UTF-32LE
      ([0x00, 0x00, 0x00, 0x31], nil),  // "1" in UTF-32BE
      ([0xFF, 0xFE, 0x31, 0x00], nil),
      ([0xFE, 0xFF, 0x00, 0x31], nil),
      ([0x00, 0x00, 0xFE, 0xFF, 0x00, 0x00, 0x00, 0x31], nil),
      // JSONDecoder's own UTF-32LE mark, which is also read as it reads it.
      ([0xFE, 0xFF, 0x00, 0x00, 0x31, 0x00, 0x00, 0x00], nil),
      ([0xFF, 0xFE, 0x00, 0x00, 0x31, 0x00, 0x00, 0x00], "the real UTF-32LE mark"),
      ([0xEF, 0xBB, 0xBF, 0x31], nil),  // UTF-8's mark is skipped
      ([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 0x31], nil),  // but only one
      ([0xFF, 0xFE, 0xFF, 0xFE, 0x31, 0x00], nil),  // as in UTF-16
      ([0xFF, 0xFE], nil),  // a mark alone is empty input
      ([0xFE, 0xFF], nil),
      ([0x00, 0x00, 0xFE, 0xFF], nil),
      ([0xFF, 0xFE, 0x00, 0x00], nil),
      ([0x31, 0x00, 0x20], nil),  // three bytes are UTF-8, and U+0000 is an error
      ([0x00, 0x31, 0x00], nil),
      ([0x00, 0x00, 0x00, 0x00], nil),
      ([0x31, 0x00, 0x00, 0x32], nil),
      ([0x00], nil),
      // Without a mark, a first character outside Latin-1 hides UTF-16.
      ([0x22, 0x00, 0x3D, 0xD8, 0x00, 0xDE, 0x22, 0x00], nil),
      ([], nil),
      // An incomplete last code unit: Foundation drops it, JSONKit's
      // Unicode rule rejects it as ill-formed text.
      ([0x31, 0x00, 0x20, 0x00, 0x20], "a byte left over in UTF-16"),
      ([0x31, 0x00, 0x00, 0x00, 0x20, 0x00], "bytes left over in UTF-32"),
      // Foundation rejects an unpaired surrogate when it converts; JSONKit
      // when it scans, as it rejects ill-formed UTF-8.
      ([0x22, 0x00, 0x00, 0xD8, 0x22, 0x00], nil),
      ([0x22, 0x00, 0x00, 0xDC, 0x22, 0x00], nil),
      ([0x00, 0x22, 0xDB, 0xFF, 0x00, 0x22], nil),
      ([0x22, 0x00, 0x00, 0x00, 0x00, 0xD8, 0x00, 0x00, 0x22, 0x00, 0x00, 0x00], nil),
      ([0x22, 0x00, 0x00, 0x00, 0x00, 0x00, 0x11, 0x00, 0x22, 0x00, 0x00, 0x00], nil),
    ]
    for (bytes, difference) in cases {
      let data = Data(bytes)
      let theirs = DecodeParityOutcome { try JSONDecoder().decode(JSONValue.self, from: data) }
      let ours = DecodeParityOutcome { try JKDecoder().decode(JSONValue.self, from: data) }
      let shown = bytes.map { String($0, radix: 16) }
      if let difference {
        #expect(theirs != ours, "\(shown): \(difference)")
        #expect(
          (theirs == .error(kind: "dataCorrupted", path: ParityPath([])))
            != (ours == .error(kind: "dataCorrupted", path: ParityPath([]))),
          "\(shown): one reads a value, the other rejects: \(difference)")
      } else {
        #expect(theirs == ours, "\(shown)")
      }
    }
  }
}
