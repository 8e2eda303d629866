// The tool runs as a subprocess, which only desktop and server systems allow.
#if os(macOS) || os(Linux)
  import Foundation
  import JSONKit
  import Testing

  /// `format --to cbor --shared-references`: arrays and maps that occur more
  /// than once with equal contents are written once (tag 28) and then
  /// referred to (tag 29), numbered in output order, when that is smaller.
  @Suite("jsonkit format --shared-references writes repeated arrays and maps once")
  struct CommandLineSharedValuesTests {
    struct Person: Codable, Equatable {
      var name: String
      var born: Int
    }

    struct Document: Codable, Equatable {
      var a: Person
      var b: Person
      var c: [Person]
    }

    static let ada = #"{"name":"Ada Lovelace","born":1815}"#
    static let document = #"{"a":\#(ada),"b":\#(ada),"c":[\#(ada)]}"#

    static func cbor(_ json: String, _ flags: [String]) throws -> [UInt8] {
      let run = try JSONKitTool.run(["format", "--to", "cbor"] + flags, input: Data(json.utf8))
      #expect(run.status == 0, "\(run.error)")
      return Array(run.outputData)
    }

    @Test func repeatedMapIsWrittenOnceThenReferred() throws {
      let shared = try Self.cbor(Self.document, ["--shared-references"])
      let plain = try Self.cbor(Self.document, [])
      let person: String =
        "a2" + "646e616d65" + "6c" + "416461204c6f76656c616365" + "64626f726e" + "190717"
      // {"a": 28(person), "b": 29(0), "c": [29(0)]}
      let expected: String = "a36161d81c" + person + "6162d81d00" + "616381d81d00"
      #expect(CBORBytes.hex(shared) == expected)
      #expect(shared.count < plain.count)
      #expect(try CBORValue(cbor: shared) == CBORValue(cbor: plain))
      let document = try JKCBORDecoder().decode(Document.self, from: shared)
      #expect(try document == JSONDecoder().decode(Document.self, from: Data(Self.document.utf8)))
    }

    @Test func sharedValuesAreNumberedInOutputOrder() throws {
      // X holds Y; Y also stands alone: X is numbered 0 where it is first
      // written, Y 1 inside it, and both are referred to afterwards.
      let y = #"{"k":"a value long enough"}"#
      let x = #"{"y":\#(y),"z":"another long value"}"#
      let json = "[\(x),\(x),\(y)]"
      let shared = try Self.cbor(json, ["--shared-references"])
      let hex = CBORBytes.hex(shared)
      let start: String = "83" + "d81c" + "a2" + "6179" + "d81c" + "a1"
      #expect(hex.hasPrefix(start))
      #expect(hex.hasSuffix("d81d00d81d01"))
      #expect(try CBORValue(cbor: shared) == CBORValue(cbor: Self.cbor(json, [])))
    }

    @Test func smallOrUniqueValuesAreNotShared() throws {
      let json = #"[[1],[1],[1],{"a":1},{"a":1},[1,2,3,4,5,6,7,8,9,10,11,12],{"b":[2]}]"#
      #expect(try Self.cbor(json, ["--shared-references"]) == Self.cbor(json, []))
    }

    @Test func deterministicOrderComesFirst() throws {
      let value = #"{"y":1,"x":"some longer text"}"#
      let json = #"{"b":\#(value),"a":\#(value)}"#
      let shared = try Self.cbor(json, ["--shared-references", "--deterministic"])
      // {"a": 28({"x": ..., "y": 1}), "b": 29(0)}: the first in key order is
      // the one written whole.
      #expect(CBORBytes.hex(shared).hasPrefix("a26161d81ca26178"))
      #expect(CBORBytes.hex(shared).hasSuffix("6162d81d00"))
      let sorted = try Self.cbor(json, ["--deterministic"])
      #expect(try CBORValue(cbor: shared) == CBORValue(cbor: sorted))
      let both = try Self.cbor(
        json, ["--shared-references", "--deterministic", "--string-references"])
      #expect(try CBORValue(cbor: both) == CBORValue(cbor: sorted))
      #expect(CBORBytes.hex(both).hasPrefix("d90100a26161d81c"))
    }

    @Test func needsCBOROutput() throws {
      let run = try JSONKitTool.run(["format", "--shared-references"], input: Data("[]".utf8))
      #expect(run.status == 2)
      #expect(run.error.contains("--shared-references need --to cbor"), "\(run.error)")
    }

    @Test(
      "cbor2 reads a shared map as one object",
      .enabled(
        if: CBORInteroperabilityTests.cbor2IsInstalled,
        "needs python3 with cbor2 (pip install cbor2)"))
    func cbor2ReadsOneObject() throws {
      let shared = try Self.cbor(Self.document, ["--shared-references"])
      let answer = try Python.run(
        """
        import sys, cbor2
        v = cbor2.loads(sys.stdin.buffer.read())
        print(v["a"] is v["b"], v["a"] is v["c"][0], v["a"]["name"])
        """, input: Data(shared))
      #expect(String(decoding: answer, as: UTF8.self) == "True True Ada Lovelace\n")
    }
  }
#endif
