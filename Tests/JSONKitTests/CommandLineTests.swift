// The tool runs as a subprocess, which only desktop and server systems allow.
#if os(macOS) || os(Linux)
  import Foundation
  import JSONKit
  import Testing

  #if canImport(Darwin)
    import Darwin
  #elseif canImport(Glibc)
    import Glibc
  #endif

  /// The `jsonkit` executable, run as users run it: exit statuses, messages,
  /// standard input, output options and safe rewriting in place.
  @Suite("Command-line tool")
  struct CommandLineTests {
    // MARK: - Help, version and usage errors

    @Test func versionIsOneLineWithTheVersionNumber() throws {
      let run = try JSONKitTool.run(["--version"])
      #expect(run.status == 0)
      #expect(run.error.isEmpty)
      #expect(run.output.wholeMatch(of: /jsonkit \d+\.\d+\.\d+\n/) != nil, "\(run.output)")
    }

    @Test func helpListsTheCommands() throws {
      let run = try JSONKitTool.run(["--help"])
      #expect(run.status == 0)
      #expect(run.error.isEmpty)
      for command in ["validate", "format", "bench", "--version"] {
        #expect(run.output.contains(command))
      }
      #expect(try JSONKitTool.run(["-h"]).output == run.output)
      #expect(try JSONKitTool.run(["help"]).output == run.output)
    }

    @Test(arguments: ["validate", "format", "bench"])
    func eachCommandHasHelp(_ command: String) throws {
      let run = try JSONKitTool.run([command, "--help"])
      #expect(run.status == 0)
      #expect(run.error.isEmpty)
      #expect(run.output.hasPrefix("OVERVIEW: "))
      #expect(run.output.contains("USAGE: jsonkit \(command) "))
      #expect(try JSONKitTool.run([command, "-h"]).output == run.output)
      #expect(try JSONKitTool.run(["help", command]).output == run.output)
    }

    @Test func formatHelpStatesTheSlashDefault() throws {
      let help = try JSONKitTool.run(["format", "--help"]).output
      #expect(help.contains("--no-escape-slashes"))
      #expect(help.contains("(the default)"))
    }

    @Test(arguments: [
      ["--bogus"],
      ["frobnicate"],
      [],
      ["help", "frobnicate"],
      ["validate", "--bogus", "a.json"],
      ["validate", "-x", "a.json"],
      ["validate"],
      ["validate", "--max-depth"],
      ["validate", "--max-depth", "0", "a.json"],
      ["validate", "--max-depth", "1025", "a.json"],
      ["validate", "--max-depth=many", "a.json"],
      ["format", "--pretty=yes", "a.json"],
      ["format", "a.json", "b.json"],
      ["format", "--in-place"],
      ["format", "--in-place", "-"],
      ["bench", "--iterations", "none"],
      ["bench", "--warmup", "-1"],
    ])
    func usageErrorsExitWithTwoAndOneLine(_ arguments: [String]) throws {
      let run = try JSONKitTool.run(arguments)
      #expect(run.status == 2)
      #expect(run.output.isEmpty)
      #expect(run.errorLines.count == 1, "\(run.error)")
      #expect(run.error.hasPrefix("jsonkit"))
    }

    @Test func unknownOptionNamesTheOptionAndTheHelp() throws {
      let run = try JSONKitTool.run(["format", "--prety", "a.json"])
      #expect(
        run.error == "jsonkit format: unknown option '--prety' (see 'jsonkit format --help')\n")
    }

    @Test(arguments: [
      ["validate", "missing.json"],
      ["format", "missing.json"],
      ["format", "--in-place", "missing.json"],
      ["bench", "--iterations", "1", "--warmup", "0", "missing.json"],
    ])
    func missingFileExitsWithTwoAndOneLine(_ arguments: [String]) throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let run = try JSONKitTool.run(arguments, in: directory.url)
      #expect(run.status == 2)
      #expect(run.errorLines.count == 1, "\(run.error)")
      #expect(run.error.contains("'missing.json'"))
      #expect(!run.output.contains("missing.json"))
    }

    @Test func missingFileAmongValidOnesStillExitsWithTwo() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write("[1]", to: "good.json")
      let run = try JSONKitTool.run(["validate", "good.json", "missing.json"], in: directory.url)
      #expect(run.status == 2)
      #expect(run.errorLines.count == 1)
    }

    // MARK: - validate

    @Test func validFilesExitWithZeroAndPrintNothing() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write("{\"a\": [1, 2.5, null]}\n", to: "one.json")
      try directory.write("\"text\"", to: "two.json")
      let run = try JSONKitTool.run(["validate", "one.json", "two.json"], in: directory.url)
      #expect(run.status == 0)
      #expect(run.output.isEmpty)
      #expect(run.error.isEmpty)
    }

    @Test(arguments: [
      ("{\n  \"a\": tru\n}", "2:8: invalid literal"),
      ("[1,\r\n2,\r\n]", "3:1: "),
      ("[1,\r2,\r]", "3:1: "),
      ("[\"é😀\", x]", "1:8: "),
      ("\n\n  [1 2]", "3:6: "),
      ("[1, 2", "1:6: unexpected end of input"),
    ])
    func invalidFileIsReportedAtItsLineAndColumn(_ text: String, _ expected: String) throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write(text, to: "bad.json")
      let run = try JSONKitTool.run(["validate", "bad.json"], in: directory.url)
      #expect(run.status == 1)
      #expect(run.output.isEmpty)
      #expect(run.errorLines.count == 1)
      #expect(run.error.hasPrefix("bad.json:\(expected)"), "\(run.error)")
      #expect(run.error == Self.diagnostic(for: Data(text.utf8), in: "bad.json"))
    }

    @Test func json5IsValidatedWithJSON5AndFormattedAsStrictJSON() throws {
      let text = "// settings\n{name: 'a', size: 0x10, ratio: .5, list: [1, 2,],}\n"
      let strict = try JSONKitTool.run(["validate", "-"], input: Data(text.utf8))
      #expect(strict.status == 1)
      #expect(strict.error.contains("comments are accepted with"), "\(strict.error)")
      let validated = try JSONKitTool.run(["validate", "--json5", "-"], input: Data(text.utf8))
      #expect(validated.status == 0, "\(validated.error)")
      let formatted = try JSONKitTool.run(["format", "--json5", "-"], input: Data(text.utf8))
      #expect(formatted.status == 0, "\(formatted.error)")
      #expect(formatted.output == #"{"name":"a","size":16,"ratio":0.5,"list":[1,2]}"# + "\n")
      // Strict JSON has no spelling for Infinity.
      let infinite = try JSONKitTool.run(
        ["format", "--json5", "-"], input: Data("[Infinity]".utf8))
      #expect(infinite.status != 0)
      #expect(infinite.output.isEmpty)
    }

    @Test func trailingCommasAreAcceptedWithTheirOption() throws {
      let text = Data(#"{"a": [1, 2,],}"#.utf8)
      let strict = try JSONKitTool.run(["validate", "-"], input: text)
      #expect(strict.status == 1)
      #expect(strict.error.contains("trailing comma"), "\(strict.error)")
      let formatted = try JSONKitTool.run(["format", "--trailing-commas", "-"], input: text)
      #expect(formatted.status == 0, "\(formatted.error)")
      #expect(formatted.output == #"{"a":[1,2]}"# + "\n")
    }

    @Test func utf16AndUTF32FilesAreReadAsText() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let text = "{\"é\": [1, \"😀\"]}"
      try directory.write(
        Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)!, to: "le.json")
      try directory.write(text.data(using: .utf32BigEndian)!, to: "be.json")
      try directory.write("[1,\n x]".data(using: .utf16BigEndian)!, to: "bad.json")
      let valid = try JSONKitTool.run(["validate", "le.json", "be.json"], in: directory.url)
      #expect(valid.status == 0, "\(valid.error)")
      let formatted = try JSONKitTool.run(["format", "le.json"], in: directory.url)
      #expect(formatted.output == "{\"é\":[1,\"😀\"]}\n")
      let invalid = try JSONKitTool.run(["validate", "bad.json"], in: directory.url)
      #expect(invalid.status == 1)
      #expect(invalid.error.hasPrefix("bad.json:2:2: expected a value"), "\(invalid.error)")
    }

    /// The conformance files JSONKit answers `expectation` for (`accept` or `reject`).
    private static func conformanceFiles(_ expectation: String) throws -> [String] {
      let table = try String(
        contentsOf: Fixtures.directory.appendingPathComponent("expectations.tsv"), encoding: .utf8)
      return table.split(separator: "\n").dropFirst().compactMap { line in
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        return fields.count >= 2 && fields[1] == expectation ? String(fields[0]) : nil
      }
    }

    @Test func everyRejectedFileGetsOneCompilerStyleLine() throws {
      let folder = Fixtures.suite("test_parsing")
      let names = try Self.conformanceFiles("reject")
      #expect(names.count > 100)
      var expected = ""
      for name in names {
        expected += Self.diagnostic(
          for: try Data(contentsOf: folder.appendingPathComponent(name)), in: name)
      }
      let run = try JSONKitTool.run(["validate"] + names, in: folder)
      #expect(run.status == 1)
      #expect(run.errorLines.count == names.count)
      #expect(run.error == expected)
    }

    @Test func acceptedFilesAreValidTogether() throws {
      let names = try Self.conformanceFiles("accept")
      #expect(names.count > 50)
      let run = try JSONKitTool.run(["validate"] + names, in: Fixtures.suite("test_parsing"))
      #expect(run.status == 0, "\(run.error)")
      #expect(run.error.isEmpty)
    }

    @Test func onlyTheInvalidFilesAreReported() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write("[1]", to: "a.json")
      try directory.write("[1,]", to: "b.json")
      try directory.write("{}", to: "c.json")
      let run = try JSONKitTool.run(["validate", "a.json", "b.json", "c.json"], in: directory.url)
      #expect(run.status == 1)
      #expect(run.errorLines.count == 1)
      #expect(run.error.hasPrefix("b.json:1:4: "))
    }

    /// JSONKit's number rule, as JKDecoder and JSONValue apply it.
    @Test(arguments: [
      "18446744073709551616", "-9223372036854775809", "123456789012345678901234567890",
    ])
    func integersBeyond64BitsAreInvalid(_ literal: String) throws {
      let run = try JSONKitTool.run(["validate", "-"], input: Data("[\(literal)]".utf8))
      #expect(run.status == 1)
      #expect(run.error.hasPrefix("<stdin>:1:2: "), "\(run.error)")
      #expect(run.error.contains("integer does not fit"), "\(run.error)")
    }

    @Test func validateReadsStandardInputForDash() throws {
      let good = try JSONKitTool.run(["validate", "-"], input: Data("[true]".utf8))
      #expect(good.status == 0)
      #expect(good.error.isEmpty)
      let bad = try JSONKitTool.run(["validate", "-"], input: Data("[true false]".utf8))
      #expect(bad.status == 1)
      #expect(bad.error == "<stdin>:1:7: " + Self.message(for: Data("[true false]".utf8)) + "\n")
    }

    @Test(arguments: [
      ("[1] // one", ["--comments"]),
      ("/* a */ [1]", ["--comments"]),
      ("[1,\u{2028}2]", ["--unicode-newlines"]),
      ("[1,\u{0B}2]", ["--unicode-newlines"]),
      ("[\"\\ud800\"]", ["--loose-unicode"]),
      ("[1] tail", ["--permit-trailing-text"]),
    ])
    func parseOptionsAdmitTheirExtension(_ text: String, _ options: [String]) throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write(text, to: "input.json")
      let strict = try JSONKitTool.run(["validate", "input.json"], in: directory.url)
      let relaxed = try JSONKitTool.run(["validate"] + options + ["input.json"], in: directory.url)
      #expect(strict.status == 1)
      #expect(relaxed.status == 0, "\(relaxed.error)")
    }

    @Test func looseUnicodeAcceptsIllFormedUTF8() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write(Data([0x5B, 0x22, 0xFF, 0x22, 0x5D]), to: "input.json")
      #expect(try JSONKitTool.run(["validate", "input.json"], in: directory.url).status == 1)
      let run = try JSONKitTool.run(["format", "--loose-unicode", "input.json"], in: directory.url)
      #expect(run.status == 0)
      #expect(run.output == "[\"\u{FFFD}\"]\n")
    }

    @Test func maxDepthLimitsNesting() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write("[[[1]]]", to: "deep.json")
      let run = try JSONKitTool.run(
        ["validate", "--max-depth", "2", "deep.json"], in: directory.url)
      #expect(run.status == 1)
      #expect(run.error.hasPrefix("deep.json:1:3: "))
      let equals = try JSONKitTool.run(
        ["validate", "--max-depth=2", "deep.json"], in: directory.url)
      #expect(equals.error == run.error)
    }

    @Test func maxDepthReachesTheLibrarysLimit() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let depth = JSONValue.maxDepthLimit
      try directory.write(
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth), to: "deep.json"
      )
      let run = try JSONKitTool.run(
        ["validate", "--max-depth", "\(depth)", "deep.json"], in: directory.url)
      #expect(run.status == 0, "\(run.error)")
    }

    // MARK: - Progress

    /// Work that takes more than a second shows a line on a terminal's
    /// standard error, erased when the work is done. Here the input comes
    /// slowly through a pipe: the rest of it is sent once the line shows.
    @Test func slowWorkShowsAProgressLineOnATerminal() throws {
      let terminal = try PseudoTerminal()
      defer { terminal.closeBoth() }
      let (process, input) = try terminal.runValidatingStandardInput()
      input.write(Data("[1,".utf8))
      var shown = terminal.text(until: "… 1 s", timeout: .seconds(60))
      input.write(Data("2]".utf8))
      try input.close()
      process.waitUntilExit()
      shown += terminal.text(until: nil, timeout: .seconds(60))
      #expect(process.terminationStatus == 0)
      #expect(
        shown.hasPrefix("\r\u{1B}[Kjsonkit: validating <stdin>… 1 s"), "\(shown.debugDescription)")
      #expect(shown.hasSuffix("\r\u{1B}[K"), "\(shown.debugDescription)")
    }

    @Test func quickWorkShowsNoProgressLineOnATerminal() throws {
      let terminal = try PseudoTerminal()
      defer { terminal.closeBoth() }
      let (process, input) = try terminal.runValidatingStandardInput()
      input.write(Data("[1,2]".utf8))
      try input.close()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
      #expect(terminal.text(until: nil, timeout: .seconds(60)).isEmpty)
    }

    // MARK: - format

    private static let sample = "{ \"b\": \"a/b\", \"a\": [1, 2.50, \"é😀\", {}, []] }"

    @Test(arguments: [
      ([], "{\"b\":\"a/b\",\"a\":[1,2.5,\"é😀\",{},[]]}\n"),
      (["--escape-slashes"], "{\"b\":\"a\\/b\",\"a\":[1,2.5,\"é😀\",{},[]]}\n"),
      (
        ["--escape-slashes", "--no-escape-slashes"], "{\"b\":\"a/b\",\"a\":[1,2.5,\"é😀\",{},[]]}\n"
      ),
      (["--sort-keys"], "{\"a\":[1,2.5,\"é😀\",{},[]],\"b\":\"a/b\"}\n"),
      (["--escape-unicode"], "{\"b\":\"a/b\",\"a\":[1,2.5,\"\\u00e9\\ud83d\\ude00\",{},[]]}\n"),
      (
        ["--pretty", "--sort-keys"],
        """
        {
          "a" : [
            1,
            2.5,
            "é😀",
            {

            },
            [

            ]
          ],
          "b" : "a/b"
        }

        """
      ),
    ])
    func formatWritesWhatTheOptionsAskFor(_ options: [String], _ expected: String) throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write(Self.sample, to: "sample.json")
      let run = try JSONKitTool.run(["format"] + options + ["sample.json"], in: directory.url)
      #expect(run.status == 0)
      #expect(run.error.isEmpty)
      #expect(run.output == expected)
    }

    /// Every combination of output flags gives the library's bytes for the
    /// matching options, plus a line break.
    @Test func formatMapsEachFlagToTheLibraryOption() throws {
      let flags: [(String, JKOutputFormatting)] = [
        ("--pretty", .prettyPrinted), ("--sort-keys", .sortedKeys),
        ("--escape-unicode", .escapeUnicode), ("--escape-slashes", []),
      ]
      let value = try JSONValue(parsing: Self.sample)
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write(Self.sample, to: "sample.json")
      for mask in 0..<(1 << flags.count) {
        var arguments = ["format"]
        var options: JKOutputFormatting = [.withoutEscapingSlashes]
        for (bit, (flag, option)) in flags.enumerated() where mask & (1 << bit) != 0 {
          arguments.append(flag)
          options.insert(option)
          if flag == "--escape-slashes" { options.remove(.withoutEscapingSlashes) }
        }
        let run = try JSONKitTool.run(arguments + ["sample.json"], in: directory.url)
        #expect(run.status == 0)
        #expect(run.outputData == (try value.jsonData(options: options)) + Data([0x0A]))
      }
    }

    @Test func formatDropsCommentsWhenAskedToReadThem() throws {
      let input = Data("// header\n[1, /* two */ 2]".utf8)
      let run = try JSONKitTool.run(["format", "--comments", "-"], input: input)
      #expect(run.status == 0)
      #expect(run.output == "[1,2]\n")
    }

    @Test func formatReadsStandardInputWithoutFileOrWithDash() throws {
      let input = Data("[ 1 , {\"k\" : null} ]".utf8)
      for arguments in [["format"], ["format", "-"]] {
        let run = try JSONKitTool.run(arguments, input: input)
        #expect(run.status == 0)
        #expect(run.output == "[1,{\"k\":null}]\n")
      }
    }

    @Test func formatReadsAPipeToItsEnd() throws {
      // Larger than any pipe buffer, so the tool must read many times.
      let value = JSONValue.array((0..<200_000).map { .string("item \($0)") })
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let input = try value.jsonData(options: .prettyPrinted)
      try directory.write(input, to: "big.json")
      let run = try JSONKitTool.runShell(
        "cat big.json | \"$JSONKIT\" format --sort-keys", in: directory.url)
      #expect(run.status == 0, "\(run.error)")
      #expect(run.outputData == (try value.jsonData()) + Data([0x0A]))
    }

    @Test func formatReportsAParseErrorAndWritesNothing() throws {
      let run = try JSONKitTool.run(["format", "-"], input: Data("{\"a\":\n  01}".utf8))
      #expect(run.status == 1)
      #expect(run.output.isEmpty)
      #expect(run.error.hasPrefix("<stdin>:2:3: "))
      #expect(run.errorLines.count == 1)
    }

    // MARK: - JSON Lines

    @Test func validateLinesReportsEveryBadLineAtItsLineAndColumn() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write(
        "{\"a\": 1}\n\n[1, 2]\r\n{\"b\": tru}\n  \"x\" 1\n\"é😀\", x\n[3]", to: "log.jsonl")
      let run = try JSONKitTool.run(["validate", "--lines", "log.jsonl"], in: directory.url)
      #expect(run.status == 1)
      #expect(run.output.isEmpty)
      #expect(
        run.errorLines == [
          "log.jsonl:4:7: invalid literal, expected 'true'",
          "log.jsonl:5:7: unexpected '1' after the value",
          "log.jsonl:6:5: unexpected ',' after the value",
        ])
    }

    /// Lines that straddle the tool's 1 MiB reads are read whole.
    @Test func validateLinesReadsAFileLargerThanOneReadInChunks() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let record = "{\"id\":12345,\"text\":\"\(String(repeating: "é", count: 500))\"}\n"
      let count = 3 * (1 << 20) / record.utf8.count
      try directory.write(
        String(repeating: record, count: count) + "[1,]\n" + record, to: "big.jsonl")
      let run = try JSONKitTool.run(["validate", "--lines", "big.jsonl"], in: directory.url)
      #expect(run.status == 1)
      #expect(run.errorLines == ["big.jsonl:\(count + 1):4: \(Self.trailingComma)"])
    }

    /// Lines in UTF-16 (with a byte order mark, or told by their zero
    /// bytes), which reading a whole document would accept.
    static let utf16Lines: [[UInt8]] = [
      Array("[1]".utf8), [0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00],
      [0x5B, 0x00, 0x32, 0x00, 0x5D, 0x00],
      Array("[3]".utf8),
    ]

    /// What the library's JSON Lines reader says of line `number` read
    /// alone, as the tool words it.
    private static func libraryDiagnostic(_ line: [UInt8], number: Int) async -> String? {
      let outcome = await StreamOutcome(JSONValue.lines(from: ChunkedBytes(line, every: 4)))
      return outcome.parseError.map {
        "<stdin>:\(number + $0.line - 1):\($0.column): \($0.message)"
      }
    }

    @Test func validateLinesReadsEachLineAsUTF8AsTheLibraryDoes() async throws {
      for line in Self.utf16Lines[1...2] {
        // A whole document in these bytes is UTF-16 text, and valid.
        #expect((try? JSONValue.validate(Data(line))) != nil)
      }
      let input = Data(Self.utf16Lines.joined(separator: [0x0A]))
      let run = try JSONKitTool.run(["validate", "--lines", "-"], input: input)
      #expect(run.status == 1)
      var expected: [String] = []
      for (index, line) in Self.utf16Lines.enumerated() {
        if let diagnostic = await Self.libraryDiagnostic(line, number: index + 1) {
          expected.append(diagnostic)
        }
      }
      #expect(expected.count == 2)
      #expect(run.errorLines == expected)
    }

    @Test func formatLinesReadsEachLineAsUTF8AsTheLibraryDoes() async throws {
      let input = Data(Self.utf16Lines.joined(separator: [0x0A]))
      let run = try JSONKitTool.run(["format", "--lines", "-"], input: input)
      #expect(run.status == 1)
      #expect(run.output == "[1]\n")
      let expected = try #require(await Self.libraryDiagnostic(Self.utf16Lines[1], number: 2))
      #expect(run.errorLines == [expected])
    }

    @Test func formatLinesWritesEachRecordCompactlyOnItsOwnLine() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let text = "{ \"b\": 1, \"a\": [1, 2] }\r\n\n  \"a/b\"  \n[ ]"
      try directory.write(text, to: "in.jsonl")
      let run = try JSONKitTool.run(
        ["format", "--lines", "--sort-keys", "in.jsonl"], in: directory.url)
      #expect(run.status == 0)
      #expect(run.error.isEmpty)
      let values = try JKDecoder().decodeLines(JSONValue.self, from: Data(text.utf8))
      let encoder = JKEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      #expect(run.outputData == (try encoder.encodeLines(values)))
    }

    static let trailingComma =
      "a trailing comma before ']' is accepted only with parseOptions: .trailingCommas (or .json5)"

    @Test func formatLinesStopsAtTheFirstBadLine() throws {
      let run = try JSONKitTool.run(
        ["format", "--lines", "-"], input: Data("[1]\n[2,]\n[3]\n".utf8))
      #expect(run.status == 1)
      #expect(run.output == "[1]\n")
      #expect(run.errorLines == ["<stdin>:2:4: \(Self.trailingComma)"])
    }

    @Test func formatLinesRefusesPrettyPrinting() throws {
      let run = try JSONKitTool.run(
        ["format", "--lines", "--pretty", "-"], input: Data("[1]".utf8))
      #expect(run.status == 2)
      #expect(run.output.isEmpty)
      #expect(run.error.contains("--pretty cannot be used with --lines"))
    }

    // MARK: - format --in-place

    @Test func inPlaceReplacesTheFileAndKeepsItsPermissions() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let file = try directory.write("[ 1,\n  2 ]", to: "data.json")
      try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file.path)
      let before = try FileAttributes(file)
      // A handle opened before keeps reading the old file: the new text
      // arrived by rename, not by overwriting the old file's bytes.
      let handle = try FileHandle(forReadingFrom: file)
      defer { try? handle.close() }

      let run = try JSONKitTool.run(
        ["format", "--in-place", "--pretty", "data.json"], in: directory.url)
      #expect(run.status == 0)
      #expect(run.output.isEmpty)
      #expect(run.error.isEmpty)
      #expect(try String(contentsOf: file, encoding: .utf8) == "[\n  1,\n  2\n]\n")
      let after = try FileAttributes(file)
      #expect(after.permissions == 0o640)
      #expect(after.fileNumber != before.fileNumber)
      #expect(try handle.readToEnd() == Data("[ 1,\n  2 ]".utf8))
      #expect(try directory.names() == ["data.json"])
    }

    @Test(arguments: [0o600, 0o644, 0o604, 0o755])
    func inPlaceKeepsAnyPermissions(_ permissions: Int) throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let file = try directory.write("[1, 2]", to: "data.json")
      try FileManager.default.setAttributes(
        [.posixPermissions: permissions], ofItemAtPath: file.path)
      let run = try JSONKitTool.run(["format", "--in-place", "data.json"], in: directory.url)
      #expect(run.status == 0)
      #expect(try String(contentsOf: file, encoding: .utf8) == "[1,2]\n")
      #expect(try FileAttributes(file).permissions == permissions)
    }

    @Test func inPlaceLeavesAnInvalidFileUntouched() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let text = "{\"a\": [1, 2,]}"
      let file = try directory.write(text, to: "bad.json")
      let before = try FileAttributes(file)
      let run = try JSONKitTool.run(["format", "--in-place", "bad.json"], in: directory.url)
      #expect(run.status == 1)
      #expect(run.error.hasPrefix("bad.json:1:13: "))
      #expect(try Data(contentsOf: file) == Data(text.utf8))
      #expect(try FileAttributes(file) == before)
      #expect(try directory.names() == ["bad.json"])
    }

    @Test func inPlaceLeavesAFormattedFileAlone() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let file = try directory.write("{\"a\":[1,2]}\n", to: "done.json")
      let before = try FileAttributes(file)
      let run = try JSONKitTool.run(["format", "--in-place", "done.json"], in: directory.url)
      #expect(run.status == 0)
      #expect(try FileAttributes(file) == before)
    }

    @Test func inPlaceRewritesEachValidFileAndReportsTheOthers() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let good = try directory.write("[ true ]", to: "good.json")
      let bad = try directory.write("[ tru ]", to: "bad.json")
      let run = try JSONKitTool.run(
        ["format", "--in-place", "bad.json", "good.json"], in: directory.url)
      #expect(run.status == 1)
      #expect(run.errorLines == ["bad.json:1:3: " + Self.message(for: Data("[ tru ]".utf8))])
      #expect(try String(contentsOf: good, encoding: .utf8) == "[true]\n")
      #expect(try String(contentsOf: bad, encoding: .utf8) == "[ tru ]")
      #expect(try directory.names() == ["bad.json", "good.json"])
    }

    @Test func inPlaceThroughASymbolicLinkRewritesItsTarget() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let target = try directory.write("[ 1 ]", to: "target.json")
      let link = directory.url.appendingPathComponent("link.json")
      try FileManager.default.createSymbolicLink(
        atPath: link.path, withDestinationPath: "target.json")
      let run = try JSONKitTool.run(["format", "--in-place", "link.json"], in: directory.url)
      #expect(run.status == 0, "\(run.error)")
      #expect(
        try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "target.json")
      #expect(try String(contentsOf: target, encoding: .utf8) == "[1]\n")
      #expect(try directory.names() == ["link.json", "target.json"])
    }

    // MARK: - bench

    /// A twitter.json that the corpus's model decodes: a search with no results.
    private static let emptySearch = """
      {"statuses": [], "search_metadata": {"completed_in": 0.5, "max_id": 2,
      "max_id_str": "2", "next_results": "?max_id=1", "query": "q", "refresh_url": "?q",
      "count": 1, "since_id": 0, "since_id_str": "0"}}
      """

    @Test func benchMeasuresAGivenFile() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write("{\"list\": [1, 2.5, \"three\"]}", to: "tiny.json")
      let run = try JSONKitTool.run(
        ["bench", "--iterations", "1", "--warmup", "0", "tiny.json"], in: directory.url)
      #expect(run.status == 0)
      #expect(!run.error.contains("failed"))
      let lines = run.output.split(separator: "\n").map(String.init)
      #expect(lines.contains { $0.hasPrefix("tiny.json (") })
      #expect(lines.contains { $0.hasPrefix("  parse ") && $0.hasSuffix("×") })
      #expect(lines.contains { $0.hasPrefix("  write ") && $0.hasSuffix("×") })
      #expect(!lines.contains { $0.hasPrefix("  decode") })
      #expect(lines.allSatisfy { $0.count <= 100 })
    }

    @Test func benchDecodesAndEncodesATypedCorpusByItsName() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write(Self.emptySearch, to: "twitter.json")
      let run = try JSONKitTool.run(
        ["bench", "--iterations", "1", "--warmup", "0", "twitter.json"], in: directory.url)
      #expect(run.status == 0, "\(run.error)")
      for task in ["parse", "write", "decode", "decode snake_case", "encode", "encode pretty"] {
        #expect(run.output.contains("\n  \(task) "), "\(task)")
      }
      #expect(!run.output.contains("failed"))
    }

    @Test func benchDrawsTheRunItMadeAsAChart() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write(Self.emptySearch, to: "twitter.json")
      try directory.write("[1, 2, 3]", to: "tiny & small.json")
      let run = try JSONKitTool.run(
        [
          "bench", "--iterations", "1", "--warmup", "0", "--chart", "chart.svg",
          "twitter.json", "tiny & small.json",
        ],
        in: directory.url)
      #expect(run.status == 0, "\(run.error)")
      #expect(run.output.hasSuffix("Chart: chart.svg\n"))
      let svg = try String(
        contentsOf: directory.url.appendingPathComponent("chart.svg"), encoding: .utf8)
      #expect(svg.hasPrefix("<?xml "))
      // Decode and encode for the file with a model, parse and write for the
      // other, each for JSONKit and Foundation.
      #expect(svg.components(separatedBy: "<rect class=\"bar\"").count - 1 == 8)
      #expect(svg.contains(">twitter.json (") && svg.contains(">tiny &amp; small.json ("))
      #expect(svg.contains("jsonkit bench --iterations 1 --warmup 0 --chart chart.svg"))
      #expect(svg.contains("&apos;tiny &amp; small.json&apos;"))
      #expect(svg.contains(" cores, ") || svg.contains(" core, "))
    }

    @Test func benchSaysWhichClockItTimesWith() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write("[1]", to: "tiny.json")
      let arguments = ["bench", "--iterations", "1", "--warmup", "0", "tiny.json"]
      let wall = try JSONKitTool.run(arguments, in: directory.url)
      #expect(wall.status == 0)
      #expect(wall.output.hasPrefix("jsonkit ") && wall.output.contains(", wall-clock time\n"))
      let cpu = try JSONKitTool.run(arguments + ["--cpu-time"], in: directory.url)
      #expect(cpu.status == 0)
      #expect(cpu.output.contains(", thread CPU time\n"))
    }

    @Test func benchChecksWhereTheChartGoesBeforeMeasuring() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write("[1]", to: "tiny.json")
      let run = try JSONKitTool.run(
        ["bench", "--chart", "missing/chart.svg", "tiny.json"], in: directory.url)
      #expect(run.status == 2)
      #expect(run.error.hasPrefix("jsonkit bench: cannot write 'missing/chart.svg'"))
      #expect(!run.output.contains("tiny.json ("))
    }

    @Test func benchReportsAnInvalidFileAndGoesOn() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write("[1,", to: "bad.json")
      try directory.write("[1]", to: "good.json")
      let run = try JSONKitTool.run(
        ["bench", "--iterations", "1", "--warmup", "0", "bad.json", "good.json"],
        in: directory.url)
      #expect(run.status == 1)
      #expect(run.error.contains("bad.json:1:4: "))
      #expect(run.output.contains("good.json ("))
    }

    // MARK: - Oracles

    /// What the library says about `data`: the message of its parse error.
    private static func message(for data: Data) -> String {
      do {
        try JSONValue.validate(data)
        return "(valid)"
      } catch {
        return error.message
      }
    }

    /// The line `validate` should print for `data` read from `name`.
    private static func diagnostic(for data: Data, in name: String) -> String {
      do {
        try JSONValue.validate(data)
        return ""
      } catch {
        return "\(name):\(error.line):\(error.column): \(error.message)\n"
      }
    }
  }

  // MARK: - Running the tool

  /// The outcome of one run of the tool.
  struct ToolRun {
    var status: Int32
    var outputData: Data
    var errorData: Data

    var output: String { String(decoding: outputData, as: UTF8.self) }
    var error: String { String(decoding: errorData, as: UTF8.self) }
    var errorLines: [String] { error.split(separator: "\n").map(String.init) }
  }

  /// Finds the built `jsonkit` and runs it.
  enum JSONKitTool {
    /// `jsonkit` in the build products directory, which also holds the test
    /// bundle: on Linux the bundle is the test executable itself, on macOS a
    /// loaded `.xctest` bundle.
    static let executable: URL? = {
      var directories: [URL] = []
      for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
        directories.append(bundle.bundleURL.deletingLastPathComponent())
      }
      directories.append(Bundle.main.bundleURL)
      if let url = Bundle.main.executableURL {
        directories.append(url.deletingLastPathComponent())
      }
      if let path = CommandLine.arguments.first, path.contains("/") {
        directories.append(URL(fileURLWithPath: path).deletingLastPathComponent())
      }
      return directories.map { $0.appendingPathComponent("jsonkit") }.first {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: $0.path, isDirectory: &isDirectory)
          && !isDirectory.boolValue && FileManager.default.isExecutableFile(atPath: $0.path)
      }
    }()

    /// Runs `jsonkit arguments` in `directory`, with `input` as its
    /// standard input (a file, so nothing blocks), or none.
    static func run(_ arguments: [String], input: Data? = nil, in directory: URL? = nil) throws
      -> ToolRun
    {
      let executable = try #require(
        executable, "no jsonkit next to the test bundle; 'swift build' makes it")
      return try launch(executable, arguments, input: input, in: directory)
    }

    /// Runs `script` with `/bin/sh`, with `$JSONKIT` naming the tool.
    static func runShell(_ script: String, in directory: URL) throws -> ToolRun {
      let executable = try #require(
        executable, "no jsonkit next to the test bundle; 'swift build' makes it")
      return try launch(
        URL(fileURLWithPath: "/bin/sh"), ["-c", script], in: directory,
        environment: ["JSONKIT": executable.path])
    }

    private static func launch(
      _ executable: URL, _ arguments: [String], input: Data? = nil, in directory: URL?,
      environment: [String: String] = [:]
    ) throws -> ToolRun {
      let files = try TemporaryDirectory()
      defer { files.remove() }
      let inputFile = try files.write(input ?? Data(), to: "stdin")
      let outputFile = try files.write(Data(), to: "stdout")
      let errorFile = try files.write(Data(), to: "stderr")

      let process = Process()
      process.executableURL = executable
      process.arguments = arguments
      if let directory { process.currentDirectoryURL = directory }
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
      let standardInput = try FileHandle(forReadingFrom: inputFile)
      let standardOutput = try FileHandle(forWritingTo: outputFile)
      let standardError = try FileHandle(forWritingTo: errorFile)
      defer {
        try? standardInput.close()
        try? standardOutput.close()
        try? standardError.close()
      }
      process.standardInput = standardInput
      process.standardOutput = standardOutput
      process.standardError = standardError
      try process.run()
      process.waitUntilExit()
      return ToolRun(
        status: process.terminationStatus, outputData: try Data(contentsOf: outputFile),
        errorData: try Data(contentsOf: errorFile))
    }
  }

  /// A pseudo-terminal: what the tool writes to `secondary` is read back
  /// from the primary side, as a terminal emulator would.
  private final class PseudoTerminal {
    let primary: Int32
    private(set) var secondary: Int32

    init() throws {
      // The C library's pseudo-terminal calls, which Swift's Glibc module
      // leaves out (they need _XOPEN_SOURCE), looked up by name.
      let library = dlopen(nil, RTLD_NOW)
      func function<F>(_ name: String, _ type: F.Type) throws -> F {
        guard let symbol = dlsym(library, name) else { throw POSIXError(.ENOSYS) }
        return unsafeBitCast(symbol, to: type)
      }
      typealias Call = @convention(c) (Int32) -> Int32
      let openPrimary = try function("posix_openpt", (@convention(c) (Int32) -> Int32).self)
      let grant = try function("grantpt", Call.self)
      let unlock = try function("unlockpt", Call.self)
      let name = try function(
        "ptsname", (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
      primary = openPrimary(O_RDWR | O_NOCTTY)
      guard primary >= 0, grant(primary) == 0, unlock(primary) == 0, let path = name(primary)
      else { throw POSIXError(.EIO) }
      secondary = open(path, O_RDWR | O_NOCTTY)
      guard secondary >= 0 else { throw POSIXError(.EIO) }
    }

    /// Starts `jsonkit validate -` with this terminal as its standard
    /// error; returns it and the pipe to its standard input.
    func runValidatingStandardInput() throws -> (Process, FileHandle) {
      let executable = try #require(JSONKitTool.executable)
      let input = Pipe()
      let process = Process()
      process.executableURL = executable
      process.arguments = ["validate", "-"]
      process.standardInput = input
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle(fileDescriptor: secondary, closeOnDealloc: false)
      try process.run()
      closeSecondary()
      return (process, input.fileHandleForWriting)
    }

    /// Closes this process's copy of the secondary side, so that reading
    /// the primary side ends when the child closes its copy.
    func closeSecondary() {
      if secondary >= 0 { _ = close(secondary) }
      secondary = -1
    }

    func closeBoth() {
      closeSecondary()
      _ = close(primary)
    }

    /// What arrives until the text contains `marker`, or, with no marker,
    /// until the secondary side is closed; either way no longer than
    /// `timeout`.
    func text(until marker: String?, timeout: Duration) -> String {
      let deadline = ContinuousClock.now + timeout
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while ContinuousClock.now < deadline {
        if let marker, String(decoding: bytes, as: UTF8.self).contains(marker) { break }
        var descriptor = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 100) > 0 else { continue }
        let count = Foundation.read(primary, &buffer, buffer.count)
        // Once every copy of the secondary side is closed, Linux answers EIO.
        if count <= 0 { break }
        bytes += buffer[0..<count]
      }
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  /// A fresh directory for one test; `remove()` deletes it and its files.
  struct TemporaryDirectory {
    let url: URL

    init() throws {
      url = FileManager.default.temporaryDirectory
        .appendingPathComponent("jsonkit-cli-\(UUID().uuidString)", isDirectory: true)
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    func remove() {
      try? FileManager.default.removeItem(at: url)
    }

    @discardableResult
    func write(_ text: String, to name: String) throws -> URL {
      try write(Data(text.utf8), to: name)
    }

    @discardableResult
    func write(_ data: Data, to name: String) throws -> URL {
      let file = url.appendingPathComponent(name)
      try data.write(to: file)
      return file
    }

    /// The names in the directory, hidden ones included, sorted.
    func names() throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
  }

  /// What `format --in-place` must keep or change about a file.
  private struct FileAttributes: Equatable {
    var permissions: Int
    var fileNumber: UInt64
    var modified: Date
    var size: UInt64

    init(_ url: URL) throws {
      let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
      permissions = try #require((attributes[.posixPermissions] as? NSNumber)?.intValue)
      fileNumber = try #require((attributes[.systemFileNumber] as? NSNumber)?.uint64Value)
      modified = try #require(attributes[.modificationDate] as? Date)
      size = try #require((attributes[.size] as? NSNumber)?.uint64Value)
    }
  }
#endif
