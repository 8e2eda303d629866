import BenchmarkSupport
import Dispatch
import Foundation
import JSONKit
import JSONKitCorpus

/// The same records as JSON Lines and as one JSON array, in memory and in 64 KiB chunks,
/// with every way of reading them that the streams tables compare.
struct StreamSample {
  /// What the records are, for the tables.
  let name: String
  /// How many records there are.
  let count: Int
  /// Each record's bytes.
  let records: [Data]
  /// The records, each followed by a newline.
  let lines: Data
  /// The records as the elements of one array.
  let array: Data
  /// `lines` and `array` in chunks of 64 KiB, as a file reader delivers them.
  let lineChunks: ChunkList
  let arrayChunks: ChunkList
  /// `lines` and `array` one byte at a time.
  let lineBytes: ByteList
  let arrayBytes: ByteList
  /// Each way, with the record type fixed.
  private let reader: (StreamSample, Way) throws -> Void

  /// A way of reading the records.
  enum Way: String, CaseIterable {
    case array, lines, elements
    case linesBytes = "lines bytes"
    case elementsBytes = "elements bytes"
    case linesInMemory = "lines in memory"
    case valueArray = "JSONValue array"
    case valueLines = "JSONValue lines"
    case valueElements = "JSONValue elements"
    case foundationLines = "Foundation lines"
    case foundationArray = "Foundation array"

    /// The way's row title.
    var title: String {
      switch self {
      case .array: "JKDecoder decode([T].self) of one array in memory"
      case .lines: "JKDecoder decodeLines, 64 KiB chunks"
      case .elements: "JKDecoder decodeArrayElements, 64 KiB chunks"
      case .linesBytes: "JKDecoder decodeLines, async bytes"
      case .elementsBytes: "JKDecoder decodeArrayElements, async bytes"
      case .linesInMemory: "JKDecoder decodeLines of Data in memory"
      case .valueArray: "JSONValue(parsing:) of one array in memory"
      case .valueLines: "JSONValue.lines, 64 KiB chunks"
      case .valueElements: "JSONValue.arrayElements, 64 KiB chunks"
      case .foundationLines: "Foundation line by line (split + JSONDecoder)"
      case .foundationArray: "Foundation decode([T].self) of one array in memory"
      }
    }
  }

  init<T: Decodable>(name: String, records: [Data], as type: T.Type) {
    self.name = name
    self.records = records
    count = records.count
    var lines = Data()
    var array = Data("[".utf8)
    for (index, record) in records.enumerated() {
      lines += record
      lines.append(0x0A)
      if index > 0 { array.append(UInt8(ascii: ",")) }
      array += record
    }
    array.append(UInt8(ascii: "]"))
    self.lines = lines
    self.array = array
    lineChunks = Self.chunks(of: lines)
    arrayChunks = Self.chunks(of: array)
    lineBytes = ByteList(lines)
    arrayBytes = ByteList(array)
    reader = { sample, way in try sample.read(T.self, way) }
  }

  /// Ten copies of twitter's hundred statuses: a few megabytes, 4–6 KB a record.
  static func twitter() throws -> StreamSample {
    let original = try Corpus.twitter.data(in: BenchmarkData.directory)
    let statuses = try JSONValue(parsing: original)["statuses"]?.arrayValue ?? []
    let records = try (0..<10).flatMap { _ in statuses }.map { try $0.jsonData() }
    return StreamSample(name: "twitter statuses", records: records, as: Twitter.Status.self)
  }

  /// 69,592 small records, about 130 bytes each, 8.8 MB.
  static func small(count: Int = 69_592) throws -> StreamSample {
    let lines = Data(SmallRecords.sample(count: count).lines)
    let records = lines.split(separator: 0x0A).map { Data($0) }
    return StreamSample(name: "small records", records: records, as: SmallRecords.Record.self)
  }

  /// Reads every record once, in `way`.
  func read(_ way: Way) throws {
    try reader(self, way)
  }

  private func read<T: Decodable>(_ type: T.Type, _ way: Way) throws {
    switch way {
    case .array:
      consume(try decode([T].self, array, with: JKDecoder()))
    case .lines:
      try Self.drain(JKDecoder().decodeLines(T.self, from: lineChunks))
    case .elements:
      try Self.drain(JKDecoder().decodeArrayElements(T.self, from: arrayChunks))
    case .linesBytes:
      try Self.drain(JKDecoder().decodeLines(T.self, from: lineBytes))
    case .elementsBytes:
      try Self.drain(JKDecoder().decodeArrayElements(T.self, from: arrayBytes))
    case .linesInMemory:
      consume(try JKDecoder().decodeLines(T.self, from: lines))
    case .valueArray:
      consume(try JSONValue(parsing: array))
    case .valueLines:
      try Self.drain(JSONValue.lines(from: lineChunks))
    case .valueElements:
      try Self.drain(JSONValue.arrayElements(from: arrayChunks))
    case .foundationLines:
      let decoder = JSONDecoder()
      for line in lines.split(separator: 0x0A) {
        consume(try decoder.decode(T.self, from: line))
      }
    case .foundationArray:
      consume(try decode([T].self, array, with: JSONDecoder()))
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
  static func drain<T>(_ sequence: JKRecordSequence<T>) throws -> Int {
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

/// Bytes delivered one at a time by an async sequence, as a file's or a
/// response's `bytes` deliver them; its iterator never suspends.
struct ByteList: AsyncSequence, Sendable {
  typealias Element = UInt8
  let bytes: [UInt8]

  init(_ data: Data) {
    bytes = Array(data)
  }

  struct AsyncIterator: AsyncIteratorProtocol {
    let bytes: [UInt8]
    var index = 0
    mutating func next() async -> UInt8? {
      guard index < bytes.count else { return nil }
      defer { index += 1 }
      return bytes[index]
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes) }
}

extension StreamSample {
  /// The hidden `--stream-probe SAMPLE WAY` mode, for counting one pass under callgrind:
  /// `SAMPLE` is `twitter` or `small`, `WAY` a ``Way``'s name (`lines`, `array`, …);
  /// one pass warms up, the next runs inside ``measuredDecode(_:_:)``.
  ///
  /// By hand: `valgrind --tool=callgrind --toggle-collect='*measuredDecode*'
  /// .build/release/compare --stream-probe small lines`.
  static func runProbe(_ arguments: [String]) throws {
    guard arguments.count == 2, arguments[0] == "twitter" || arguments[0] == "small",
      let way = Way(rawValue: arguments[1])
    else {
      throw ProbeFailure(message: "usage: --stream-probe twitter|small WAY")
    }
    let sample = try arguments[0] == "twitter" ? twitter() : small()
    try sample.read(way)
    try measuredDecode({ _ in try sample.read(way) }, sample.lines)
  }
}
