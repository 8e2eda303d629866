import BenchmarkSupport
import Foundation
import JSONKitCorpus

extension Comparison {
  /// How many times over `twitter.json`'s statuses the linearity rows hold.
  static let repeats = [1, 4, 16, 64]

  /// `twitter.json` with its statuses repeated, decoded by `JKDecoder()` through the
  /// generic function: time and peak memory growth per MB of input, which stay the same
  /// at every size when both grow linearly.
  func linearitySection() throws {
    let repeats = Self.repeats.filter { options.includes("linear/twitter-x\($0)") }
    guard !repeats.isEmpty else { return }
    progress("linear")
    let original = try Corpus.twitter.data(in: BenchmarkData.directory)
    let variant = CorpusVariant(.twitter)
    let calls = DecodeCalls(variant)
    let documents = try repeats.map { try CorpusVariant.twitterRepeated(original, times: $0) }
    let timings = try Contender.timings(
      documents.map { data in Contender(name: "\(data.count)") { try calls.jsonKitFresh(data) } },
      rounds: options.rounds, batchSeconds: options.batchSeconds)
    let times = timings.map(\.median)
    var table = MarkdownTable(
      "input", "MB", "JKDecoder() generic", "ms per MB", "spread", "memory growth", "growth per MB")
    for (index, count) in repeats.enumerated() {
      let data = documents[index]
      let megabytes = Double(data.count) / 1e6
      var growth = "—"
      var growthPerMegabyte = "—"
      if MemoryProbe.available {
        progress("linear/twitter-x\(count) memory")
        let file = try scratchFile("twitter-x\(count)", data)
        let bytes = try MemoryProbe.growth(.jsonKit, variant, input: file)
        try? FileManager.default.removeItem(at: file)
        growth = Figure.megabytes(bytes) + " MB"
        growthPerMegabyte = Figure.significant(Double(bytes) / 1e6 / megabytes)
      }
      table.append([
        "twitter-x\(count)", Figure.megabytes(data.count), Figure.milliseconds(times[index]),
        Figure.significant(times[index] * 1000 / megabytes),
        Figure.percent(timings[index].spread), growth, growthPerMegabyte,
      ])
    }
    print("### Linearity (twitter.json's statuses repeated, minified; JKDecoder())\n")
    table.print()
  }
}
