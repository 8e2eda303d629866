import Foundation
import JSONKit
import JSONKitCorpus
import Testing

/// Between the two untyped values: JSON converts to CBOR whole, and CBOR to
/// JSON exactly where JSON can hold it, with an error naming the first
/// place it cannot.
@Suite("CBOR: conversion to and from JSONValue")
struct CBORJSONValueTests {
  @Test("A corpus document converts to CBOR and back unchanged, and is smaller as CBOR")
  func corpusRoundTrip() throws {
    let directory = try #require(Corpus.dataDirectory(nearSourceFile: #filePath))
    for corpus in [Corpus.citmCatalog, .canada, .twitter] {
      let name = corpus.fileName
      let json = try JSONValue(parsing: corpus.data(in: directory))
      let cbor = CBORValue(json)
      let bytes = cbor.cborBytes()
      #expect(try CBORValue(cbor: bytes) == cbor)
      #expect(try JSONValue(CBORValue(cbor: bytes)) == json, "\(name)")
      #expect(bytes.count < (try json.jsonBytes()).count, "\(name)")
    }
  }

  @Test("Objects keep their order; integers, doubles and strings keep their kinds")
  func kinds() throws {
    let json: JSONValue = ["z": 1, "a": [-2, 2.5, "x", true, nil], "big": .uint(.max)]
    let cbor = CBORValue(json)
    #expect(cbor == ["z": 1, "a": [-2, 2.5, "x", true, nil], "big": .unsigned(.max)])
    #expect(try JSONValue(cbor) == json)
  }

  @Test(
    "What JSON cannot hold is an error that says what and where",
    arguments: [
      (CBORValue.bytes([1]), "JSON cannot hold a byte string (at the top)."),
      (["a": [1, .undefined]], "JSON cannot hold undefined (at /a/1)."),
      ([1: 2], "JSON cannot hold a map key that is an integer (at the top)."),
      (["x": .tagged(1, 0)], "JSON cannot hold an item with tag 1 (at /x)."),
      ([.float(.nan)], "JSON cannot hold NaN or an infinity (at /0)."),
      ([["k/~": .negative(.max)]], "JSON cannot hold an integer below −2⁶³ (at /0/k~1~0)."),
      (
        ["\u{E9}": 1, "e\u{301}": 2],
        "JSON cannot hold two map keys that Swift's strings count as equal (at the top)."
      ),
    ] as [(CBORValue, String)])
  func refusals(_ cbor: CBORValue, _ message: String) {
    #expect {
      try JSONValue(cbor)
    } throws: { error in
      (error as? JSONValue.CBORConversionError)?.description == message
    }
  }

  @Test("Tag 55799 only marks CBOR, so its content converts")
  func selfDescribedConverts() throws {
    #expect(try JSONValue(.tagged(55799, [1])) == [1])
  }

  @Test("Text keys that differ only as Unicode's canonical equivalents are two CBOR keys")
  func canonicalEquivalentsAreDistinct() throws {
    let map: CBORValue = ["\u{E9}": 1, "e\u{301}": 2]
    #expect(try CBORValue(cbor: map.cborBytes()).mapValue?.count == 2)
  }
}
