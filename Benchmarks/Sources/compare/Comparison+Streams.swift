import BenchmarkSupport
import Dispatch
import Foundation
import JSONKit
import JSONKitCorpus

extension Comparison {
  /// Reading twitter's statuses as JSON Lines and as the elements of one array, from
  /// 64 KiB chunks, against decoding the same records as one in-memory array and
  /// against Foundation line by line; then the peak memory growth of a 1 GiB stream.
  func streamsSection() throws {
    guard options.includes("streams/speed") || options.includes("streams/memory") else { return }
    let original = try Corpus.twitter.data(in: BenchmarkData.directory)
    let statuses = try JSONValue(parsing: original)["statuses"]?.arrayValue ?? []
    // Ten copies of the hundred statuses: a few megabytes, many records.
    let lines = try (0..<10).flatMap { _ in statuses }.map { try $0.jsonData() }
    var jsonLines = Data()
    for line in lines {
      jsonLines += line
      jsonLines.append(0x0A)
    }
    var array = Data("[".utf8)
    for (index, line) in lines.enumerated() {
      if index > 0 { array.append(UInt8(ascii: ",")) }
      array += line
    }
    array.append(UInt8(ascii: "]"))
    let lineChunks = Self.chunks(of: jsonLines)
    let arrayChunks = Self.chunks(of: array)

    if options.includes("streams/speed") {
      progress("streams/speed")
      let timings = try Contender.timings(
        [
          Contender(name: "array") {
            consume(try decode([Twitter.Status].self, array, with: JKDecoder()))
          },
          Contender(name: "lines") {
            try Self.drain(JKDecoder().decodeLines(Twitter.Status.self, from: lineChunks))
          },
          Contender(name: "elements") {
            try Self.drain(
              JKDecoder().decodeArrayElements(Twitter.Status.self, from: arrayChunks))
          },
          Contender(name: "lines in memory") {
            consume(try JKDecoder().decodeLines(Twitter.Status.self, from: jsonLines))
          },
          Contender(name: "Foundation lines") {
            let decoder = JSONDecoder()
            for line in jsonLines.split(separator: 0x0A) {
              consume(try decoder.decode(Twitter.Status.self, from: line))
            }
          },
          Contender(name: "Foundation array") {
            consume(try decode([Twitter.Status].self, array, with: JSONDecoder()))
          },
        ], rounds: options.rounds, batchSeconds: options.batchSeconds)
      var table = MarkdownTable(
        "reading \(lines.count) twitter statuses", "time", "records/s", "MB/s",
        "÷ JKDecoder array")
      let names = [
        "JKDecoder decode([Status].self) of one array in memory",
        "JKDecoder decodeLines, 64 KiB chunks",
        "JKDecoder decodeArrayElements, 64 KiB chunks",
        "JKDecoder decodeLines of Data in memory",
        "Foundation line by line (split + JSONDecoder)",
        "Foundation decode([Status].self) of one array in memory",
      ]
      for (name, timing) in zip(names, timings) {
        table.append([
          name, Figure.milliseconds(timing.median),
          Figure.significant(Double(lines.count) / timing.median),
          Figure.megabytesPerSecond(jsonLines.count, timing.median),
          Figure.ratio(timings[0].median / timing.median),
        ])
      }
      print(
        "### Streams: records per second (median time per pass · "
          + "÷ = the in-memory array's time ÷ this one's, higher is faster)\n")
      table.print()
    }

    if options.includes("streams/memory"), MemoryProbe.available {
      let size =
        ProcessInfo.processInfo.environment["JSONKIT_STREAM_BYTES"].flatMap { Int($0) } ?? 1 << 30
      var table = MarkdownTable(
        "1 GiB generated on the fly", "records", "time", "MB/s", "RSS before", "peak RSS",
        "peak RSS growth")
      // The first row reads an empty stream: what the task that reads costs.
      for (name, isArray, total) in [
        ("empty stream (the reading task alone)", false, 0),
        ("JSON Lines, decodeLines", false, size), ("one array, decodeArrayElements", true, size),
      ] {
        progress("streams/memory \(name)")
        let source = GeneratedStream(records: lines, totalBytes: total, asArray: isArray)
        MemoryProbe.resetPeak()
        let resident = try MemoryProbe.kilobytes("VmRSS")
        let before = try MemoryProbe.kilobytes("VmHWM")
        let start = ContinuousClock.now
        let count =
          isArray
          ? try Self.drain(JKDecoder().decodeArrayElements(Twitter.Status.self, from: source))
          : try Self.drain(JKDecoder().decodeLines(Twitter.Status.self, from: source))
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        let after = try MemoryProbe.kilobytes("VmHWM")
        table.append([
          name, "\(count)", String(format: "%.1f s", seconds),
          Figure.megabytesPerSecond(source.totalBytes, seconds),
          Figure.megabytes(resident * 1024) + " MB", Figure.megabytes(after * 1024) + " MB",
          Figure.megabytes((after - before) * 1024) + " MB",
        ])
      }
      print("### Streams: peak memory of a 1 GiB stream (MB = 10⁶ bytes)\n")
      table.print()
    }
  }

  /// `data` in chunks of 64 KiB, as a file reader delivers it.
  private static func chunks(of data: Data) -> ChunkList {
    ChunkList(
      chunks: stride(from: 0, to: data.count, by: 1 << 16).map {
        [UInt8](data[$0..<min($0 + (1 << 16), data.count)])
      })
  }

  /// Reads every record of `sequence` to its end, from a synchronous caller.
  @discardableResult
  private static func drain<T>(_ sequence: JKRecordSequence<T>) throws -> Int {
    let result = ResultBox()
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) let sequence = sequence
    Task {
      do {
        var count = 0
        for try await record in sequence {
          consume(record)
          count += 1
        }
        result.value = .success(count)
      } catch {
        result.value = .failure(error)
      }
      done.signal()
    }
    done.wait()
    return try result.value.get()
  }
}

/// Where a task leaves its result for the thread that waits for it.
private final class ResultBox: @unchecked Sendable {
  // Unchecked: written before the semaphore is signalled, read after the wait.
  var value: Result<Int, any Error> = .success(0)
}

/// Chunks made ahead, delivered in turn.
struct ChunkList: AsyncSequence, Sendable {
  typealias Element = [UInt8]
  let chunks: [[UInt8]]

  struct AsyncIterator: AsyncIteratorProtocol {
    var chunks: [[UInt8]]
    var index = 0
    mutating func next() async -> [UInt8]? {
      guard index < chunks.count else { return nil }
      defer { index += 1 }
      return chunks[index]
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: chunks) }
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
