import BenchmarkSupport
import Dispatch
import Foundation
import JSONKit
import JSONKitCorpus

extension Comparison {
  /// Reading records as JSON Lines and as the elements of one array, from 64 KiB chunks,
  /// against decoding the same records as one in-memory array and against Foundation
  /// line by line, for twitter's statuses (4–6 KB each) and for small records (about
  /// 130 bytes each); then the peak memory growth of a 1 GiB stream.
  func streamsSection() throws {
    guard options.includes("streams/speed") || options.includes("streams/memory") else { return }
    let twitter = try StreamSample.twitter()
    if options.includes("streams/speed") {
      for (name, sample) in [("twitter", twitter), ("small", try StreamSample.small())] {
        progress("streams/speed/\(name)")
        try streamSpeedTable(sample)
      }
    }

    if options.includes("streams/memory"), MemoryProbe.available {
      let size =
        ProcessInfo.processInfo.environment["JSONKIT_STREAM_BYTES"].flatMap { Int($0) } ?? 1 << 30
      let small = try StreamSample.small(count: 2_000)
      var table = MarkdownTable(
        "\(size >> 20) MiB generated on the fly", "records", "time", "MB/s", "RSS before",
        "peak RSS", "peak RSS growth")
      // The first row reads an empty stream: what the task that reads costs.
      for (name, records, isArray, total) in [
        ("empty stream (the reading task alone)", twitter.records, false, 0),
        ("twitter statuses as JSON Lines, decodeLines", twitter.records, false, size),
        ("twitter statuses as one array, decodeArrayElements", twitter.records, true, size),
        ("small records as JSON Lines, decodeLines", small.records, false, size),
        ("small records as one array, decodeArrayElements", small.records, true, size),
      ] {
        progress("streams/memory \(name)")
        let source = GeneratedStream(records: records, totalBytes: total, asArray: isArray)
        let isSmall = records.count == small.records.count
        MemoryProbe.resetPeak()
        let resident = try MemoryProbe.kilobytes("VmRSS")
        let before = try MemoryProbe.kilobytes("VmHWM")
        let start = ContinuousClock.now
        let count =
          switch (isArray, isSmall) {
          case (true, true):
            try StreamSample.drain(
              JKDecoder().decodeArrayElements(SmallRecords.Record.self, from: source))
          case (false, true):
            try StreamSample.drain(JKDecoder().decodeLines(SmallRecords.Record.self, from: source))
          case (true, false):
            try StreamSample.drain(
              JKDecoder().decodeArrayElements(Twitter.Status.self, from: source))
          case (false, false):
            try StreamSample.drain(JKDecoder().decodeLines(Twitter.Status.self, from: source))
          }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        let after = try MemoryProbe.kilobytes("VmHWM")
        table.append([
          name, "\(count)", String(format: "%.1f s", seconds),
          Figure.megabytesPerSecond(source.totalBytes, seconds),
          Figure.megabytes(resident * 1024) + " MB", Figure.megabytes(after * 1024) + " MB",
          Figure.megabytes((after - before) * 1024) + " MB",
        ])
      }
      print("### Streams: peak memory of a generated stream (MB = 10⁶ bytes)\n")
      table.print()
    }
  }

  /// One table of the ways of reading `sample`'s records, timed interleaved.
  private func streamSpeedTable(_ sample: StreamSample) throws {
    let ways = StreamSample.Way.allCases
    let timings = try Contender.timings(
      ways.map { way in Contender(name: way.rawValue) { try sample.read(way) } },
      rounds: options.rounds, batchSeconds: options.batchSeconds)
    var table = MarkdownTable(
      "reading \(sample.count) \(sample.name)", "time", "records/s", "MB/s",
      "÷ JKDecoder array")
    for (way, timing) in zip(ways, timings) {
      table.append([
        way.title, Figure.milliseconds(timing.median),
        Figure.significant(Double(sample.count) / timing.median),
        Figure.megabytesPerSecond(sample.lines.count, timing.median),
        Figure.ratio(timings[0].median / timing.median),
      ])
    }
    print(
      "### Streams of \(sample.name): records per second (median time per pass · "
        + "÷ = the in-memory array's time ÷ this one's, higher is faster)\n")
    table.print()
  }

}

/// A stream of about `totalBytes` of records, JSON Lines or one array, made 64 KiB at a
/// time as it is read and never held whole.
struct GeneratedStream: AsyncSequence, Sendable {
  typealias Element = [UInt8]
  let records: [Data]
  let totalBytes: Int
  let asArray: Bool

  struct AsyncIterator: AsyncIteratorProtocol {
    let stream: GeneratedStream
    var produced = 0
    var next = 0
    var finished = false

    mutating func next() async -> [UInt8]? {
      guard !finished else { return nil }
      var chunk: [UInt8] = []
      chunk.reserveCapacity(1 << 16 + 8192)
      if produced == 0, stream.asArray { chunk.append(UInt8(ascii: "[")) }
      while chunk.count < 1 << 16 {
        if produced + chunk.count >= stream.totalBytes {
          if stream.asArray { chunk.append(UInt8(ascii: "]")) }
          finished = true
          break
        }
        if stream.asArray, next > 0 { chunk.append(UInt8(ascii: ",")) }
        chunk += stream.records[next % stream.records.count]
        if !stream.asArray { chunk.append(0x0A) }
        next += 1
      }
      produced += chunk.count
      return chunk
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(stream: self) }
}
