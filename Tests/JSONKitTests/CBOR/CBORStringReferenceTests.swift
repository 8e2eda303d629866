import Foundation
import JSONKit
import Testing

/// String references (tags 256 and 25, http://cbor.schmorp.de/stringref):
/// inside a namespace, a reference reads as the string it refers to, for
/// `CBORValue` and for Codable models alike; a reference to nothing is an
/// error that says where.
@Suite("CBOR: string references")
struct CBORStringReferenceTests {
  /// The item `hex` reads as, and what `JKCBORDecoder` decodes from it as
  /// `T`.
  private func read<T: Decodable>(_ hex: String, as type: T.Type) throws -> (CBORValue, T) {
    let bytes = CBORBytes.fromHex(hex)
    return (try CBORValue(cbor: bytes), try JKCBORDecoder().decode(type, from: bytes))
  }

  @Test("A reference reads as the text or bytes it refers to; short strings are not numbered")
  func valuesAndNumbering() throws {
    // 256(["aaa", 25(0), "bb", h'010203', 25(1)]): "bb" is too short to number.
    let hex = "d9010085" + "63616161" + "d81900" + "626262" + "43010203" + "d81901"
    let item = try CBORValue(cbor: CBORBytes.fromHex(hex))
    #expect(item == ["aaa", "aaa", "bb", .bytes([1, 2, 3]), .bytes([1, 2, 3])])
    struct Row: Decodable, Equatable {
      var a: String
      var b: String
      var c: String
      var d: Data
      var e: Data
      init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        (a, b, c) = try (
          container.decode(String.self), container.decode(String.self),
          container.decode(String.self)
        )
        (d, e) = try (container.decode(Data.self), container.decode(Data.self))
      }
    }
    let row = try JKCBORDecoder().decode(Row.self, from: CBORBytes.fromHex(hex))
    #expect([row.a, row.b, row.c] == ["aaa", "aaa", "bb"])
    #expect(row.d == Data([1, 2, 3]) && row.e == Data([1, 2, 3]))
  }

  @Test("A reference stands for its string as it was: bytes do not read as text")
  func referencesKeepTheirType() throws {
    // 256([h'010203', 25(0)]) as [String]: the reference is bytes.
    let hex = "d9010082" + "43010203" + "d81900"
    #expect(throws: DecodingError.self) {
      try JKCBORDecoder().decode([String].self, from: CBORBytes.fromHex(hex))
    }
    #expect(try JKCBORDecoder().decode([Data].self, from: CBORBytes.fromHex(hex)).count == 2)
  }

  @Test("Map keys are numbered and read from references")
  func mapKeys() throws {
    // 256([{"name": 1, "kind": 2}, {25(0): 3, 25(1): 4}])
    let hex = "d9010082" + "a2646e616d6501646b696e6402" + "a2d8190003d8190104"
    let (item, decoded) = try read(hex, as: [[String: Int]].self)
    #expect(item == [["name": 1, "kind": 2], ["name": 3, "kind": 4]])
    #expect(decoded == [["name": 1, "kind": 2], ["name": 3, "kind": 4]])
    struct Entry: Decodable, Equatable {
      var name: Int
      var kind: Int
    }
    #expect(
      try read(hex, as: [Entry].self).1 == [Entry(name: 1, kind: 2), Entry(name: 3, kind: 4)])
  }

  @Test("A reference to a repeated key is a repeated key")
  func repeatedKeyByReference() throws {
    // 256({"name": 1, 25(0): 2}): the second key is at byte 10.
    let error = try cborReferenceError("d90100a2646e616d6501d8190002", decoding: [String: Int].self)
    #expect(error.kind == .duplicateKey)
  }

  @Test("A reference to bytes is no map key for Codable")
  func bytesKeyByReference() throws {
    // 256([h'010203', {25(0): 1}])
    let bytes = CBORBytes.fromHex("d9010082" + "43010203" + "a1d8190001")
    #expect(try CBORValue(cbor: bytes) == [.bytes([1, 2, 3]), [.bytes([1, 2, 3]): 1]])
    #expect(throws: DecodingError.self) {
      try JKCBORDecoder().decode([[String: Int]].self, from: bytes)
    }
  }

  @Test("Past 24 strings, a string needs 4 bytes to be numbered")
  func lengthThresholds() throws {
    // 256([24 strings "a00"..."a23", "xyz", "wxyz", 25(24), 25(23)]): the
    // table is full at 24 for 3 bytes, so "xyz" is not numbered.
    let strings = (0..<24).map { "a" + ($0 < 10 ? "0" : "") + String($0) }
    var hex = "d90100981c" + strings.map { "63" + hexText($0) }.joined()
    hex += "63" + hexText("xyz") + "64" + hexText("wxyz") + "d8191818" + "d81917"
    let expected = strings + ["xyz", "wxyz", "wxyz", "a23"]
    let (item, decoded) = try read(hex, as: [String].self)
    #expect(item == .array(expected.map { .text($0) }))
    #expect(decoded == expected)
  }

  @Test("Namespaces nest; an inner table is dropped when its namespace ends")
  func nestedNamespaces() throws {
    // 256(["aaa", 256(["bbb", 25(0)]), 25(0)])
    let hex = "d9010083" + "63616161" + "d9010082" + "63626262" + "d81900" + "d81900"
    let (item, decoded) = try read(hex, as: JSONValue.self)
    #expect(item == ["aaa", ["bbb", "bbb"], "aaa"])
    #expect(decoded == ["aaa", ["bbb", "bbb"], "aaa"])
    // 256([256(["bbb"]), 25(0)]): the outer table is empty.
    let error = try cborReferenceError(
      "d9010082" + "d901008163626262" + "d81900", decoding: JSONValue.self)
    #expect(error.kind == .invalidReference)
    #expect(error.offset == 12)
  }

  @Test("A reference under tags 32, 37 and 2 reads as that tag's string")
  func tagContents() throws {
    // 256(["https://a.example", 32(25(0))])
    let uri = "d9010082" + "71" + hexText("https://a.example") + "d820d81900"
    #expect(
      try read(uri, as: [URL].self).1.map(\.absoluteString) == [
        "https://a.example", "https://a.example",
      ])
    #expect(
      try read(uri, as: JSONValue.self).0 == [
        "https://a.example", .tagged(32, "https://a.example"),
      ])
    // 256([h'f81d…', 37(25(0))]) as [Data, UUID]
    let uuid = "f81d4fae7dec11d0a76500a0c91e6bf6"
    let hex = "d9010082" + "50" + uuid + "d825d81900"
    struct Pair: Decodable {
      var data: Data
      var id: UUID
      init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        data = try container.decode(Data.self)
        id = try container.decode(UUID.self)
      }
    }
    let pair = try read(hex, as: Pair.self).1
    #expect(pair.id == UUID(uuidString: "F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6"))
    // 256([2(h'010000000000000000'), 2(25(0))]): 2⁶⁴ twice.
    let bignum = "d9010082" + "c249010000000000000000" + "c2d81900"
    #expect(try read(bignum, as: [UInt128].self).1 == [UInt128(1) << 64, UInt128(1) << 64])
  }

  @Test("A tag's content check sees the referenced string's type")
  func tagContentChecks() throws {
    // 256(["abcd", 37(25(0))]): the reference at byte 10 is text.
    let error = try cborReferenceError(
      "d9010082" + "6461626364" + "d825d81900", decoding: JSONValue.self)
    #expect(error.kind == .invalidTagContent)
    #expect(error.offset == 11)
    #expect(error.message == "Tag 37 holds a text string where it needs a byte string of 16 bytes")
  }

  @Test("Chunked strings are not numbered")
  func indefiniteStringsAreNotNumbered() throws {
    // 256([(_ "aaa"), 25(0)])
    let error = try cborReferenceError(
      "d9010082" + "7f63616161ff" + "d81900", decoding: JSONValue.self)
    #expect(error.kind == .invalidReference)
    #expect(error.offset == 10)
  }

  @Test("A reference outside a namespace, past the table or to no integer is an error")
  func errors() throws {
    let outside = try cborReferenceError("81d81900", decoding: [String].self)
    #expect(outside.kind == .invalidReference)
    #expect(outside.offset == 1)
    #expect(outside.message.contains("outside any string namespace"))
    let keyOutside = try cborReferenceError("a1d8190001", decoding: [String: Int].self)
    #expect(keyOutside.kind == .invalidReference)
    #expect(keyOutside.offset == 1)
    let underTag = try cborReferenceError("d820d81900", decoding: URL.self)
    #expect(underTag.kind == .invalidReference)
    #expect(underTag.offset == 2)
    // 256(["aaa", 25(1)])
    let past = try cborReferenceError("d9010082" + "63616161" + "d81901", decoding: [String].self)
    #expect(past.kind == .invalidReference)
    #expect(past.offset == 8)
    #expect(
      past.message
        == "The string reference 1 is past the table of its namespace, which holds 1 string")
    // 256(["aaa", 25("a")])
    let notInteger = try cborReferenceError(
      "d9010082" + "63616161" + "d8196161", decoding: [String].self)
    #expect(notInteger.kind == .invalidTagContent)
    #expect(notInteger.offset == 10)
    // 256([25(-1)])
    let negative = try cborReferenceError("d9010081" + "d81920", decoding: [String].self)
    #expect(negative.kind == .invalidTagContent)
    #expect(negative.offset == 6)
  }
}

/// The hexadecimal digits of `text`'s UTF-8 bytes.
func hexText(_ text: String) -> String {
  text.utf8.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}

/// The error that reading `hex` throws, as `CBORValue` and through
/// `JKCBORDecoder` as `T`: the same kind at the same byte.
func cborReferenceError<T: Decodable>(
  _ hex: String, decoding type: T.Type, sourceLocation: SourceLocation = #_sourceLocation
) throws -> JKCBORError {
  let bytes = CBORBytes.fromHex(hex)
  let untyped = try #require(
    throws: JKCBORError.self, sourceLocation: sourceLocation
  ) { try CBORValue(cbor: bytes) }
  let decoding = try #require(
    throws: DecodingError.self, sourceLocation: sourceLocation
  ) { try JKCBORDecoder().decode(type, from: bytes) }
  guard case .dataCorrupted(let context) = decoding,
    let typed = context.underlyingError as? JKCBORError
  else {
    Issue.record("not a JKCBORError underneath: \(decoding)", sourceLocation: sourceLocation)
    return untyped
  }
  #expect(typed.kind == untyped.kind, sourceLocation: sourceLocation)
  #expect(typed.offset == untyped.offset, sourceLocation: sourceLocation)
  return untyped
}
