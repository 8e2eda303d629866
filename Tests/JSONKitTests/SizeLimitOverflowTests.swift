import Foundation
import JSONKit
import Testing

/// Limits may be as large as `Int` allows: `Int.max` means "no limit", and
/// no arithmetic on a limit may overflow (which stops the process).
@Suite("Size limits as large as Int.max")
struct SizeLimitOverflowTests {
  @Test("An inflated size limit of Int.max reads gzip input")
  func theLargestInflatedSizeIsAccepted() async {
    // In a process of its own: before the fix, the overflow stopped the process.
    await #expect(processExitsWith: .success) {
      let stream = GzipStreams.member("[1, 2, 3]")
      let decoder = JKDecoder()
      decoder.decompression = .gzip(maxInflatedSize: .max)
      let decompression = JKDecompression.gzip(maxInflatedSize: .max)
      guard try decoder.decode([Int].self, from: Data(stream)) == [1, 2, 3],
        try JSONValue(parsing: stream, decompression: decompression) == [1, 2, 3],
        try GzipStreams.inflate(stream + stream, limit: .max) == Array("[1, 2, 3][1, 2, 3]".utf8)
      else {
        exit(1)
      }
      try JSONValue.validate(Data(stream), decompression: decompression)
    }
  }

  @Test("A nesting limit of Int.min or Int.max rejects or reads streamed array elements")
  func theExtremeNestingLimitsStreamArrayElements() async {
    await #expect(processExitsWith: .success) {
      let text = Array("[[1], {\"a\": [2]}]".utf8)
      for maxDepth in [Int.min, Int.max] {
        let outcome = await StreamOutcome(
          JSONValue.arrayElements(from: ChunkedBytes(text, every: 3), maxDepth: maxDepth))
        let expected: [JSONValue] = maxDepth > 0 ? [[1], ["a": [2]]] : []
        guard outcome.elements == expected, (outcome.error == nil) == (maxDepth > 0) else {
          exit(1)
        }
        let decoder = JKDecoder()
        decoder.maxDepth = maxDepth
        let decoded = await StreamOutcome(
          decoder.decodeArrayElements(JSONValue.self, from: ChunkedBytes(text, every: 3)))
        guard decoded.elements == expected else { exit(1) }
      }
    }
  }

  @Test("A record size limit of Int.max reads streams")
  func theLargestRecordSizeReadsStreams() async {
    let lines = await StreamOutcome(
      JSONValue.lines(from: ChunkedBytes(Array("[1]\n[2]\n".utf8), every: 3), maxRecordSize: .max))
    #expect(lines.elements == [[1], [2]] && lines.error == nil)
    let elements = await StreamOutcome(
      JKDecoder().decodeArrayElements(
        Int.self, from: ChunkedBytes(Array("[1, 2]".utf8), every: 2), maxRecordSize: .max))
    #expect(elements.elements == [1, 2] && elements.error == nil)
  }

  #if os(macOS) || os(Linux)
    @Test("The tool takes 9223372036854775807 for its size limits")
    func theToolTakesTheLargestSizes() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write(Data(GzipStreams.member("[1, 2]\n{\"a\": 3}\n")), to: "in.jsonl.gz")
      let largest = String(Int.max)
      let limits = ["--max-inflated-size", largest, "--max-record-size", largest]
      for (command, output) in [
        (["validate", "--lines"], ""), (["format", "--lines"], "[1,2]\n{\"a\":3}\n"),
      ] {
        let run = try JSONKitTool.run(command + limits + ["in.jsonl.gz"], in: directory.url)
        #expect(run.status == 0, "\(command): \(run.error)")
        #expect(run.output == output, "\(command)")
      }
      try directory.write(Data(GzipStreams.member("[1, 2]")), to: "in.json.gz")
      let run = try JSONKitTool.run(
        ["format", "--max-inflated-size", largest, "in.json.gz"], in: directory.url)
      #expect(run.status == 0, "\(run.error)")
      #expect(run.output == "[1,2]\n")
    }
  #endif
}
