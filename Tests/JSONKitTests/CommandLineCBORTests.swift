// The tool runs as a subprocess, which only desktop and server systems allow.
#if os(macOS) || os(Linux)
  import Foundation
  import JSONKit
  import Testing

  /// `format --to cbor` writes CBOR, `format` reads a `.cbor` file (or
  /// `--from cbor`) back as JSON, and `--to diagnostic` prints RFC 8949's
  /// diagnostic notation.
  @Suite("jsonkit format converts between JSON and CBOR")
  struct CommandLineCBORTests {
    static let json = #"{"id":7,"name":"Ada","scores":[1.5,-2,true,null]}"#

    @Test func jsonBecomesCBORAndBackTheSame() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write(Self.json, to: "doc.json")
      let toCBOR = try JSONKitTool.run(["format", "--to", "cbor", "doc.json"], in: directory.url)
      #expect(toCBOR.status == 0, "\(toCBOR.error)")
      #expect(
        try CBORValue(cbor: toCBOR.outputData)
          == ["id": 7, "name": "Ada", "scores": [1.5, -2, true, nil]])
      try directory.write(toCBOR.outputData, to: "doc.cbor")
      let back = try JSONKitTool.run(["format", "doc.cbor"], in: directory.url)
      #expect(back.status == 0, "\(back.error)")
      #expect(back.output == Self.json + "\n")
    }

    @Test func standardInputIsReadAsCBORWhenAskedOrSelfDescribed() throws {
      let item: CBORValue = ["a": [1, 2]]
      let plain = try JSONKitTool.run(["format", "--from", "cbor"], input: item.cborData())
      #expect(plain.output == #"{"a":[1,2]}"# + "\n", "\(plain.error)")
      let described = try JSONKitTool.run(
        ["format", "--pretty"], input: CBORValue.tagged(55799, item).cborData())
      #expect(described.output == "{\n  \"a\" : [\n    1,\n    2\n  ]\n}\n", "\(described.error)")
    }

    @Test func deterministicAndStringReferencesAreWrittenOnRequest() throws {
      let json = #"{"b":[{"name":"abc"},{"name":"abc"}],"a":1}"#
      let run = try JSONKitTool.run(
        ["format", "--to", "cbor", "--deterministic", "--string-references"],
        input: Data(json.utf8))
      #expect(run.status == 0, "\(run.error)")
      // 256({"a": 1, "b": [{"name": "abc"}, {25(0): 25(1)}]})
      #expect(
        CBORBytes.hex(Array(run.outputData))
          == "d90100a26161016162" + "82a1646e616d6563616263" + "a1d81900d81901")
      let misplaced = try JSONKitTool.run(["format", "--deterministic"], input: Data(json.utf8))
      #expect(misplaced.status == 2)
      #expect(misplaced.error.contains("need --to cbor"), "\(misplaced.error)")
    }

    @Test func diagnosticNotationIsPrinted() throws {
      let run = try JSONKitTool.run(["format", "--to", "diagnostic"], input: Data(Self.json.utf8))
      #expect(run.output == #"{"id": 7, "name": "Ada", "scores": [1.5, -2, true, null]}"# + "\n")
      let bytes = CBORValue.tagged(1, .bytes([0xFF])).cborData()
      let fromCBOR = try JSONKitTool.run(
        ["format", "--from", "cbor", "--to", "diagnostic"], input: bytes)
      #expect(fromCBOR.status == 1)
      #expect(fromCBOR.error.contains("Tag 1 holds a byte string"), "\(fromCBOR.error)")
      let item = CBORValue.tagged(37, .bytes(Array(repeating: 0xAB, count: 16)))
      let uuid = try JSONKitTool.run(
        ["format", "--from", "cbor", "--to", "diagnostic"], input: item.cborData())
      #expect(uuid.output == "37(h'" + String(repeating: "ab", count: 16) + "')\n")
    }

    @Test func aPointerNamesPartOfACBORDocument() throws {
      let item: CBORValue = ["data": ["items": [1, "x"]]]
      let run = try JSONKitTool.run(
        ["format", "--from", "cbor", "--to", "cbor", "--pointer", "/data/items/1"],
        input: item.cborData())
      #expect(try CBORValue(cbor: run.outputData) == "x", "\(run.error)")
    }

    @Test func badCBORAndWhatJSONCannotHoldAreReportedWithStatus1() throws {
      let truncated = try JSONKitTool.run(["format", "--from", "cbor"], input: Data([0x82, 0x01]))
      #expect(truncated.status == 1)
      #expect(
        truncated.error
          == "<stdin>: byte 0: An array of 2 elements is declared, but only 1 byte remains\n")
      let bytes = (["k": .bytes([1])] as CBORValue).cborData()
      let unheld = try JSONKitTool.run(["format", "--from", "cbor"], input: bytes)
      #expect(unheld.status == 1)
      #expect(unheld.error == "<stdin>: JSON cannot hold a byte string (at /k).\n")
    }

    @Test(arguments: ["--lines", "--in-place", "--gzip"])
    func cborCannotBeUsedWith(_ option: String) throws {
      let run = try JSONKitTool.run(["format", "--to", "cbor", option], input: Data("1".utf8))
      #expect(run.status == 2)
      #expect(run.error == "jsonkit format: \(option) cannot be used with CBOR\n")
    }

    @Test func anUnknownFormatIsAUsageError() throws {
      let run = try JSONKitTool.run(["format", "--to", "yaml"], input: Data("1".utf8))
      #expect(run.status == 2)
      #expect(run.error.contains("--to needs json, cbor or diagnostic, not 'yaml'"))
    }
  }
#endif
