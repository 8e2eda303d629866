// The tool runs as a subprocess, which only desktop and server systems allow.
#if os(macOS) || os(Linux)
  import Foundation
  import JSONKit
  import Testing

  /// `format --pointer` writes the value a JSON Pointer names; `validate
  /// --pointer` also requires that it name one.
  @Suite("jsonkit --pointer")
  struct CommandLinePointerTests {
    static let document = #"{"data": {"items": [1, {"a/b": "x", "m~n": [true]}]}, "s": "text"}"#

    /// Runs `jsonkit arguments` on ``document`` saved as `doc.json`.
    private static func run(_ arguments: [String]) throws -> ToolRun {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write(document, to: "doc.json")
      return try JSONKitTool.run(arguments + ["doc.json"], in: directory.url)
    }

    // MARK: - format

    @Test(arguments: [
      ("", #"{"data":{"items":[1,{"a/b":"x","m~n":[true]}]},"s":"text"}"#),
      ("/data/items", #"[1,{"a/b":"x","m~n":[true]}]"#),
      ("/data/items/0", "1"),
      ("/data/items/1/a~1b", #""x""#),
      ("/data/items/1/m~0n/0", "true"),
      ("/s", #""text""#),
    ])
    func formatWritesTheValueThePointerNames(_ pointer: String, _ expected: String) throws {
      let run = try Self.run(["format", "--pointer", pointer])
      #expect(run.status == 0, "\(run.error)")
      #expect(run.error.isEmpty)
      #expect(run.output == expected + "\n")
    }

    @Test func formatHonoursTheOutputOptions() throws {
      let pretty = try Self.run(["format", "--pretty", "--sort-keys", "--pointer=/data/items/1"])
      #expect(pretty.status == 0, "\(pretty.error)")
      #expect(pretty.output == "{\n  \"a/b\" : \"x\",\n  \"m~n\" : [\n    true\n  ]\n}\n")
      let slashes = try Self.run(["format", "--escape-slashes", "--pointer", "/data/items/1/a~1b"])
      #expect(slashes.output == "\"x\"\n")
      let keys = try Self.run(["format", "--escape-slashes", "--pointer", "/data/items/1"])
      #expect(keys.output == #"{"a\/b":"x","m~n":[true]}"# + "\n")
    }

    @Test func formatCompressesTheValueWithGzip() throws {
      let run = try Self.run(["format", "--gzip", "--pointer", "/data/items/1/m~0n"])
      #expect(run.status == 0, "\(run.error)")
      #expect(run.outputData.starts(with: [0x1F, 0x8B]))
      #expect(try JSONValue(parsing: run.outputData) == [true])
    }

    @Test func formatReadsStandardInput() throws {
      let run = try JSONKitTool.run(
        ["format", "--pointer", "/1/k", "-"], input: Data(#"[0, {"k": null}]"#.utf8))
      #expect(run.status == 0, "\(run.error)")
      #expect(run.output == "null\n")
    }

    @Test(arguments: [
      ("/nope", "the document is an object without the key 'nope'"),
      ("/data/items/2", "'/data/items' is an array of 2 elements, none at '2'"),
      ("/data/items/01", "'/data/items' is an array of 2 elements, none at '01'"),
      ("/data/items/-", "'/data/items' is an array of 2 elements, none at '-'"),
      ("/data/items/0/x", "'/data/items/0' is a number"),
      ("/s/0", "'/s' is a string"),
      ("/data/items/1/m~0n/0/x", "'/data/items/1/m~0n/0' is a Boolean"),
      ("/data/items/1/a/b", "'/data/items/1' is an object without the key 'a'"),
    ])
    func aPointerThatNamesNothingFailsWithOneAndSaysWhere(_ pointer: String, _ reason: String)
      throws
    {
      for command in ["format", "validate"] {
        let run = try Self.run([command, "--pointer", pointer])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(run.error == "doc.json: JSON Pointer '\(pointer)' names no value: \(reason)\n")
      }
    }

    @Test func invalidInputIsReportedBeforeThePointerIsLookedUp() throws {
      let run = try JSONKitTool.run(
        ["format", "--pointer", "/a", "-"], input: Data(#"{"a": 1,}"#.utf8))
      #expect(run.status == 1)
      #expect(run.output.isEmpty)
      #expect(run.error.hasPrefix("<stdin>:1:9: "), "\(run.error)")
    }

    // MARK: - validate

    @Test func validateAcceptsAPointerThatNamesAValue() throws {
      for pointer in ["", "/data", "/data/items/1/a~1b", "/s"] {
        let run = try Self.run(["validate", "--pointer", pointer])
        #expect(run.status == 0, "\(pointer): \(run.error)")
        #expect(run.output.isEmpty)
        #expect(run.error.isEmpty)
      }
    }

    @Test func validateChecksThePointerInEachFile() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write(#"{"id": 1}"#, to: "one.json")
      try directory.write(#"{"name": 1}"#, to: "two.json")
      try directory.write(#"{"id": "#, to: "bad.json")
      try directory.write(#"[{"id": 1}]"#, to: "three.json")
      let run = try JSONKitTool.run(
        ["validate", "--pointer", "/id", "one.json", "two.json", "bad.json", "three.json"],
        in: directory.url)
      #expect(run.status == 1)
      #expect(
        run.errorLines == [
          "two.json: JSON Pointer '/id' names no value: the document is an object without the key 'id'",
          "bad.json:1:8: unexpected end of input, expected a value",
          "three.json: JSON Pointer '/id' names no value: the document is an array of 1 element, none at 'id'",
        ])
    }

    @Test func aMissingFileStillExitsWithTwo() throws {
      let run = try Self.run(["validate", "--pointer", "/x", "missing.json"])
      #expect(run.status == 2)
      #expect(run.errorLines.count == 2, "\(run.error)")
    }

    // MARK: - Usage errors

    @Test(arguments: [
      ("a", 0, #"a pointer other than "" must start with '/'"#),
      ("/~", 2, "'~' must be followed by '0' or '1'"),
      ("/a~2", 3, "'~' must be followed by '0' or '1'"),
      ("/a~", 3, "'~' must be followed by '0' or '1'"),
    ])
    func aMalformedPointerIsAUsageError(_ pointer: String, _ offset: Int, _ message: String)
      throws
    {
      for command in ["format", "validate"] {
        let run = try Self.run([command, "--pointer", pointer])
        #expect(run.status == 2)
        #expect(run.output.isEmpty)
        #expect(
          run.error
            == "jsonkit \(command): --pointer '\(pointer)' is not a JSON Pointer: \(message)"
            + " (at byte \(offset))\n")
      }
    }

    @Test func thePointerNeedsAValue() throws {
      let run = try JSONKitTool.run(["format", "--pointer"])
      #expect(run.status == 2)
      #expect(run.error == "jsonkit format: option '--pointer' needs a value (--pointer POINTER)\n")
    }

    @Test func inPlaceRefusesAPointerAndLeavesTheFile() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let file = try directory.write(Self.document, to: "doc.json")
      let run = try JSONKitTool.run(
        ["format", "--in-place", "--pointer", "/s", "doc.json"], in: directory.url)
      #expect(run.status == 2)
      #expect(run.errorLines.count == 1)
      #expect(run.error.contains("--pointer cannot be used with --in-place"))
      #expect(try String(contentsOf: file, encoding: .utf8) == Self.document)
    }

    @Test(arguments: ["format", "validate"])
    func helpDescribesThePointer(_ command: String) throws {
      let help = try JSONKitTool.run([command, "--help"]).output
      #expect(help.contains("--pointer POINTER"))
      #expect(help.contains("RFC 6901"))
      #expect(help.contains("--lines"))
    }

    // MARK: - JSON Lines

    static let lines = "{\"a\": 1}\n{\"b\": 2}\n\n{\"a\": [3]}\n[1]\n"

    @Test func formatLinesWritesThePointersValueOfEachRecordUntilOneLacksIt() throws {
      let run = try JSONKitTool.run(
        ["format", "--lines", "--pointer", "/a", "-"], input: Data(Self.lines.utf8))
      #expect(run.status == 1)
      #expect(run.output == "1\n")
      #expect(
        run.error
          == "<stdin>:2: JSON Pointer '/a' names no value: the record is an object without the key 'a'\n"
      )
      let all = try JSONKitTool.run(
        ["format", "--lines", "--pointer", "/a", "-"],
        input: Data("{\"a\": {\"x\": 1}}\n\n{\"a\": [3]}\n".utf8))
      #expect(all.status == 0, "\(all.error)")
      #expect(all.output == "{\"x\":1}\n[3]\n")
    }

    @Test func validateLinesReportsEachRecordThatLacksIt() throws {
      let run = try JSONKitTool.run(
        ["validate", "--lines", "--pointer", "/a", "-"],
        input: Data((Self.lines + "{\"a\": tru}\n").utf8))
      #expect(run.status == 1)
      #expect(run.output.isEmpty)
      #expect(
        run.errorLines == [
          "<stdin>:2: JSON Pointer '/a' names no value: the record is an object without the key 'a'",
          "<stdin>:5: JSON Pointer '/a' names no value: the record is an array of 1 element, none at 'a'",
          "<stdin>:6:7: invalid literal, expected 'true'",
        ])
      let fine = try JSONKitTool.run(
        ["validate", "--lines", "--pointer", "", "-"], input: Data(Self.lines.utf8))
      #expect(fine.status == 0, "\(fine.error)")
    }
  }
#endif
