import JSONKit
import Testing

/// What is not well-formed CBOR (RFC 8949 §3 and Appendix F), or breaks
/// one of JSONKit's strict rules, is an error that says what and at which
/// byte; a declared length is never trusted before the bytes are there.
@Suite("CBOR: ill-formed and hostile input is an error at its byte")
struct CBORWellFormednessTests {
  /// An input in hex, the error it must give, and at which byte offset.
  struct Case: CustomTestStringConvertible, Sendable {
    let hex: String
    let kind: JKCBORError.Kind
    let offset: Int
    let why: String

    init(_ hex: String, _ kind: JKCBORError.Kind, at offset: Int, _ why: String) {
      self.hex = hex
      self.kind = kind
      self.offset = offset
      self.why = why
    }

    var testDescription: String { "\(why): \(hex)" }
  }

  static let cases: [Case] = [
    Case("", .emptyInput, at: 0, "no bytes"),
    Case("18", .unexpectedEndOfInput, at: 0, "a one-byte argument missing"),
    Case("1900", .unexpectedEndOfInput, at: 0, "a two-byte argument cut short"),
    Case("1b00000000000000", .unexpectedEndOfInput, at: 0, "an eight-byte argument cut short"),
    Case("8201", .lengthBeyondInput, at: 0, "an array with fewer bytes than it declares elements"),
    Case("82011a0000", .unexpectedEndOfInput, at: 2, "an array whose last element is cut short"),
    Case("a16161", .unexpectedEndOfInput, at: 3, "a map key without its value"),
    Case("6261", .lengthBeyondInput, at: 0, "a text string longer than the input"),
    Case("5b7fffffffffffffff", .lengthBeyondInput, at: 0, "a byte string of 2⁶³ bytes"),
    Case("7bffffffffffffffff00", .lengthBeyondInput, at: 0, "a text string of 2⁶⁴ − 1 bytes"),
    Case("9bffffffffffffffff00", .lengthBeyondInput, at: 0, "an array of 2⁶⁴ − 1 elements"),
    Case("bb4000000000000000010203", .lengthBeyondInput, at: 0, "a map of 2⁶² pairs"),
    Case("a301020304", .lengthBeyondInput, at: 0, "a map with fewer bytes than two per pair"),
    Case("1c", .reservedAdditionalInformation, at: 0, "additional information 28"),
    Case("3d", .reservedAdditionalInformation, at: 0, "additional information 29"),
    Case("fe", .reservedAdditionalInformation, at: 0, "additional information 30"),
    Case("811e", .reservedAdditionalInformation, at: 1, "a reserved head inside an array"),
    Case("1f", .invalidIndefiniteLength, at: 0, "an unsigned integer of indefinite length"),
    Case("3f", .invalidIndefiniteLength, at: 0, "a negative integer of indefinite length"),
    Case("df00", .invalidIndefiniteLength, at: 0, "a tag of indefinite length"),
    Case("5f4101616100ff", .invalidIndefiniteLength, at: 3, "a text chunk in a byte string"),
    Case("7f7f6161ffff", .invalidIndefiniteLength, at: 1, "an indefinite chunk in a text string"),
    Case("5f01ff", .invalidIndefiniteLength, at: 1, "an integer chunk in a byte string"),
    Case("5f4100", .unexpectedEndOfInput, at: 3, "an indefinite string without its break"),
    Case("9f01", .unexpectedEndOfInput, at: 2, "an indefinite array without its break"),
    Case("ff", .unexpectedBreak, at: 0, "a break at the top"),
    Case("81ff", .unexpectedBreak, at: 1, "a break in a definite array"),
    Case("bf6161ff", .unexpectedBreak, at: 3, "a break where a map value should be"),
    Case("f800", .invalidSimpleValue, at: 0, "simple value 0 in two bytes"),
    Case("f81f", .invalidSimpleValue, at: 0, "simple value 31 in two bytes"),
    Case("62c328", .invalidUTF8, at: 1, "a lead byte without its continuation"),
    Case("61ff", .invalidUTF8, at: 1, "a byte that never starts UTF-8"),
    Case("63eda080", .invalidUTF8, at: 1, "a UTF-16 surrogate in UTF-8"),
    Case("a161ff01", .invalidUTF8, at: 2, "a map key that is not UTF-8"),
    Case("a261610162c32802", .invalidUTF8, at: 5, "a map key after a valid one"),
    Case("7f61c3ff", .invalidUTF8, at: 2, "a chunk that ends inside a scalar"),
    Case("a2616101616102", .duplicateKey, at: 4, "a repeated text key"),
    Case("a2010101f93c00", .duplicateKey, at: 3, "no: 1 and 1.0 are different keys"),
    Case("0000", .bytesAfterItem, at: 1, "a second item after the first"),
    Case("c16161", .invalidTagContent, at: 1, "tag 1 on text"),
    Case("c06161" + "00", .bytesAfterItem, at: 3, "tag 0 on text, then a byte"),
    Case("c001", .invalidTagContent, at: 1, "tag 0 on an integer"),
    Case("c201", .invalidTagContent, at: 1, "a bignum that is not a byte string"),
    Case("c48101", .invalidTagContent, at: 1, "a decimal fraction of one part"),
    Case("c482f93c0001", .invalidTagContent, at: 1, "a decimal fraction with a float exponent"),
    Case("d825410f", .invalidTagContent, at: 2, "a UUID of one byte"),
    Case("d8206161" + "ff", .bytesAfterItem, at: 4, "a URI, then a stray break"),
  ]

  @Test("Each case is its error at its byte", arguments: cases)
  func rejects(_ example: Case) {
    let bytes = CBORBytes.fromHex(example.hex)
    #expect {
      try CBORValue(cbor: bytes)
    } throws: { error in
      guard let error = error as? JKCBORError else { return false }
      return error.kind == example.kind && error.offset == example.offset
    }
  }

  @Test("1 and 1.0 are different map keys, so both are kept")
  func anIntegerAndAFloatAreDifferentKeys() throws {
    let value = try CBORValue(cbor: CBORBytes.fromHex("a20101f93c0002"))
    #expect(value.mapValue?.count == 2)
    #expect(value[.float(1)] == 2)
  }

  @Test("Nesting 512 levels deep reads; 513 is an error at the 513th, not a stack overflow")
  func depthIsLimited() throws {
    let fits = [UInt8](repeating: 0x81, count: 512) + [0]
    #expect(try CBORValue(cbor: fits).arrayValue != nil)
    for opener: UInt8 in [0x81, 0x9F, 0xC1, 0xA1] {
      // Arrays, indefinite arrays, tags and maps (as keys) all count.
      let tooDeep = [UInt8](repeating: opener, count: 100_000) + [0]
      #expect {
        try CBORValue(cbor: tooDeep)
      } throws: { error in
        (error as? JKCBORError)?.kind == .tooDeeplyNested && (error as? JKCBORError)?.offset == 512
      }
    }
  }

  @Test("Every proper prefix of every Appendix A example is an error, never a crash")
  func everyPrefixIsAnError() {
    for example in CBORAppendixATests.examples {
      let bytes = example.bytes
      for end in 0..<bytes.count {
        #expect(throws: JKCBORError.self, "\(example.hex)[..<\(end)]") {
          try CBORValue(cbor: bytes[..<end])
        }
      }
    }
  }

  @Test("Every byte at every place of the examples gives a value or an error, never a crash")
  func everyByteEverywhere() throws {
    var values = 0
    for example in CBORAppendixATests.examples.prefix(40) {
      for place in example.bytes.indices {
        for byte in UInt8.min...UInt8.max {
          var bytes = example.bytes
          bytes[place] = byte
          if let value = try? CBORValue(cbor: bytes) {
            // What reads, writes and reads again as the same item.
            values += 1
            #expect(try CBORValue(cbor: value.cborBytes()) == value)
          }
        }
      }
    }
    #expect(values > 0)
  }

  @Test("The error says what and where")
  func theDescriptionSaysWhatAndWhere() {
    let error = #expect(throws: JKCBORError.self) {
      try CBORValue(cbor: CBORBytes.fromHex("a2616101616102"))
    }
    #expect(error?.description == "The map key \"a\" is repeated (byte offset 4).")
  }
}
