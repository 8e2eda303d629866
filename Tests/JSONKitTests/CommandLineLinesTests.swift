// The tool runs as a subprocess, which only desktop and server systems allow.
#if os(macOS) || os(Linux)
  import Foundation
  import Testing

  /// `--lines` reads gzip input as the other modes do: inflated first,
  /// here a chunk at a time, each line of the text then read as UTF-8.
  @Suite("jsonkit --lines reads gzip input")
  struct CommandLineGzipLinesTests {
    static let text = "{\"a\": 1}\n\n[1, 2]\r\n{\"b\": tru}\n  \"x\" 1\n[3]"
    static let diagnostics = [
      ":4:7: invalid literal, expected 'true'", ":5:7: unexpected '1' after the value",
    ]

    @Test func validateLinesReportsEachBadLineOfGzipInput() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write(Data(GzipStreams.member(Self.text)), to: "log.jsonl.gz")
      let run = try JSONKitTool.run(["validate", "--lines", "log.jsonl.gz"], in: directory.url)
      #expect(run.status == 1)
      #expect(run.errorLines == Self.diagnostics.map { "log.jsonl.gz" + $0 })
      let stdin = try JSONKitTool.run(
        ["validate", "--lines", "-"], input: Data(GzipStreams.member(Self.text)))
      #expect(stdin.errorLines == Self.diagnostics.map { "<stdin>" + $0 })
    }

    @Test func formatLinesWritesTheRecordsOfGzipInput() throws {
      let input = Data(GzipStreams.member("{ \"b\": 1 }\n\n[ 1,2 ]\n"))
      let run = try JSONKitTool.run(["format", "--lines", "-"], input: input)
      #expect(run.status == 0, "\(run.error)")
      #expect(run.output == "{\"b\":1}\n[1,2]\n")
    }

    /// Lines that straddle the inflater's chunks, in several members.
    @Test func linesAcrossChunksAndMembersAreReadWhole() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let record = "{\"id\":12345,\"text\":\"\(String(repeating: "é", count: 500))\"}\n"
      let count = 3 * (1 << 20) / record.utf8.count
      let body = String(repeating: record, count: count)
      let stream = GzipStreams.member(body) + GzipStreams.member("[1,]\n" + record)
      try directory.write(Data(stream), to: "big.jsonl.gz")
      let run = try JSONKitTool.run(["validate", "--lines", "big.jsonl.gz"], in: directory.url)
      #expect(run.status == 1)
      #expect(run.errorLines.count == 1)
      #expect(run.errorLines.first?.hasPrefix("big.jsonl.gz:\(count + 1):4: ") == true)
    }

    @Test func noGunzipReadsTheCompressedBytesAsText() throws {
      let input = Data(GzipStreams.member("[1]\n"))
      let run = try JSONKitTool.run(["validate", "--lines", "--no-gunzip", "-"], input: input)
      #expect(run.status == 1)
      #expect(run.errorLines.first == "<stdin>:1:1: expected a value, found '\\x1F'")
    }

    @Test func aCorruptStreamIsReportedAfterTheLinesBeforeIt() throws {
      let stream = GzipStreams.member("[1]\n[2]\n" + String(repeating: "[3]\n", count: 5000))
      let truncated = Data(stream.prefix(stream.count - 20))
      let run = try JSONKitTool.run(["format", "--lines", "-"], input: truncated)
      #expect(run.status == 1)
      #expect(run.output.hasPrefix("[1]\n[2]\n"))
      #expect(run.errorLines.count == 1)
      #expect(
        run.error.hasPrefix(
          "<stdin>: the gzip stream ends inside its compressed data (compressed byte offset "),
        "\(run.error)")
    }

    @Test func theInflatedSizeLimitHolds() throws {
      let input = Data(GzipStreams.member("[1]\n[2]\n[3]\n"))
      let run = try JSONKitTool.run(
        ["validate", "--lines", "--max-inflated-size", "9", "-"], input: input)
      #expect(run.status == 1)
      #expect(run.error.contains("inflates to more than the limit of 9 bytes"), "\(run.error)")
      let fits = try JSONKitTool.run(
        ["validate", "--lines", "--max-inflated-size", "12", "-"], input: input)
      #expect(fits.status == 0, "\(fits.error)")
    }
  }

  /// `--lines` bounds a line by `--max-record-size` (64 MiB by default, as
  /// the library's JSON Lines readers), so that one endless line cannot
  /// take all memory; a longer line is a bad line, and `validate` goes on.
  @Suite("jsonkit --lines bounds the length of a line")
  struct CommandLineRecordSizeTests {
    static let text = "[1]\n\"\(String(repeating: "x", count: 100))\"\n[2,]\n[3]"
    static let tooLong =
      "in.jsonl:2:1: the line is longer than the limit of 50 bytes for one record"
      + " (see --max-record-size)"

    @Test func validateReportsALongLineAndGoesOn() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write(Self.text, to: "in.jsonl")
      let run = try JSONKitTool.run(
        ["validate", "--lines", "--max-record-size", "50", "in.jsonl"], in: directory.url)
      #expect(run.status == 1)
      #expect(run.errorLines.count == 2)
      #expect(run.errorLines.first == Self.tooLong)
      #expect(run.errorLines.last?.hasPrefix("in.jsonl:3:4: ") == true)
      let fits = try JSONKitTool.run(
        ["validate", "--lines", "--max-record-size", "102", "in.jsonl"], in: directory.url)
      #expect(fits.errorLines.count == 1)
    }

    @Test func formatStopsAtALongLine() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write(Self.text, to: "in.jsonl")
      let run = try JSONKitTool.run(
        ["format", "--lines", "--max-record-size=50", "in.jsonl"], in: directory.url)
      #expect(run.status == 1)
      #expect(run.output == "[1]\n")
      #expect(run.errorLines == [Self.tooLong])
    }

    /// A line longer than the limit that is still being read when the
    /// limit is passed is skipped without being held.
    @Test func aLineLongerThanAReadIsSkipped() throws {
      let long = String(repeating: " ", count: 3 << 20)
      let input = Data("[1]\n[\(long)]\n[2,]\n".utf8)
      let run = try JSONKitTool.run(
        ["validate", "--lines", "--max-record-size", "1048576", "-"], input: input)
      #expect(run.status == 1)
      #expect(run.errorLines.count == 2)
      #expect(run.errorLines.first?.hasPrefix("<stdin>:2:1: the line is longer") == true)
      #expect(run.errorLines.last?.hasPrefix("<stdin>:3:4: ") == true)
    }

    @Test(arguments: ["0", "-1", "many", ""])
    func theLimitIsAPositiveWholeNumber(_ value: String) throws {
      let run = try JSONKitTool.run(
        ["validate", "--lines", "--max-record-size", value, "-"], input: Data("[1]".utf8))
      #expect(run.status == 2)
      #expect(
        run.error
          == "jsonkit validate: --max-record-size needs a positive whole number of bytes, not '\(value)'\n"
      )
    }

    @Test func bothCommandsListTheOption() throws {
      for command in ["validate", "format"] {
        let help = try JSONKitTool.run([command, "--help"]).output
        #expect(help.contains("--max-record-size BYTES"), "\(command)")
      }
    }
  }
#endif
