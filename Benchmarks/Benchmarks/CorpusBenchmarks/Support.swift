import Benchmark
import BenchmarkSupport
import Foundation
import JSONKitCorpus

/// Bytes per second through a reader (input) or out of a writer (output), shown in
/// MB/s (10⁶ bytes per second) through the `.mega` unit.
///
/// ordo-one/benchmark has no bytes-per-second metric. Its `throughput` counts
/// iterations per second, and its scaling factors are powers of 1000 that also change
/// how many inner iterations run, so neither can carry a corpus's size; working MB/s out
/// afterwards from exported wall-clock times would need a step outside the tool. A
/// custom metric can carry it: each iteration times its own body and records
/// `bytes / seconds`, so MB/s is printed, stored in baselines and compared like every
/// other metric. The body's own clock covers the same work as the wall-clock metric
/// (the result is released before the second clock read); only the closure call
/// itself is outside it.
enum Rate {
  /// Input bytes per second, for parsers and decoders.
  static let input = BenchmarkMetric.custom(
    "Input (bytes/s)", polarity: .prefersLarger, useScalingFactor: false)
  /// Output bytes per second, for writers and encoders.
  static let output = BenchmarkMetric.custom(
    "Output (bytes/s)", polarity: .prefersLarger, useScalingFactor: false)

  static func bytesPerSecond(_ count: Int, since start: ContinuousClock.Instant) -> Int {
    let elapsed = start.duration(to: .now).components
    let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
    return Int((Double(count) / seconds).rounded())
  }
}

/// The corpus files (see `BenchmarkData.directory`).
let dataDirectory = BenchmarkData.directory

extension Corpus {
  /// The corpus's name in benchmark names: the file name without `.json`.
  var benchmarkName: String { String(fileName.dropLast(".json".count)) }
}

/// Registers a benchmark that reads a corpus's bytes, which are loaded once in setup,
/// outside the measured region.
func readBenchmark(
  _ operation: String, _ corpus: Corpus, _ api: String,
  read: @escaping (Data) throws -> some Any
) {
  readBenchmark(
    operation, corpus.benchmarkName, api, load: { try corpus.data(in: dataDirectory) },
    read: read)
}

/// Registers a benchmark that reads a variant of a corpus (`CorpusVariant`), made once
/// in setup from the corpus file, outside the measured region.
func readBenchmark(
  _ operation: String, _ variant: CorpusVariant, _ api: String,
  read: @escaping (Data) throws -> some Any
) {
  readBenchmark(
    operation, variant.name, api, load: { try variant.data(in: dataDirectory) }, read: read)
}

private func readBenchmark(
  _ operation: String, _ input: String, _ api: String, load: @escaping () throws -> Data,
  read: @escaping (Data) throws -> some Any
) {
  var configuration = Benchmark.defaultConfiguration
  configuration.metrics.append(Rate.input)
  Benchmark("\(operation)/\(input)/\(api)", configuration: configuration) {
    benchmark, input in
    let start = ContinuousClock.now
    blackHole(try read(input))
    benchmark.measurement(Rate.input, Rate.bytesPerSecond(input.count, since: start))
  } setup: {
    try load()
  }
}

/// Registers a benchmark that writes a value made in setup from a corpus's bytes,
/// outside the measured region.
func writeBenchmark<Input>(
  _ operation: String, _ corpus: Corpus, _ api: String,
  prepare: @escaping (Data) throws -> Input,
  write: @escaping (Input) throws -> Data
) {
  var configuration = Benchmark.defaultConfiguration
  configuration.metrics.append(Rate.output)
  Benchmark("\(operation)/\(corpus.benchmarkName)/\(api)", configuration: configuration) {
    benchmark, input in
    let start = ContinuousClock.now
    let count = try write(input).count
    benchmark.measurement(Rate.output, Rate.bytesPerSecond(count, since: start))
  } setup: {
    try prepare(corpus.data(in: dataDirectory))
  }
}

/// The sizes of the generated documents that the `Scale` benchmarks read: equal
/// MB/s at every size means time that grows linearly with the input.
let scaleSizes = [1, 10, 100]

/// Registers a benchmark that reads a generated document of `megabytes` MB
/// (`Records.document(size:)`), made once in setup, outside the measured region.
/// Each iteration of the largest takes seconds, so these run for longer.
func scaleBenchmark(
  _ megabytes: Int, _ api: String, read: @escaping (Data) throws -> some Any
) {
  var configuration = Benchmark.defaultConfiguration
  configuration.metrics.append(Rate.input)
  configuration.maxDuration = .seconds(5)
  configuration.maxIterations = 100
  Benchmark("Scale/records-\(megabytes)MB/\(api)", configuration: configuration) {
    benchmark, input in
    let start = ContinuousClock.now
    blackHole(try read(input))
    benchmark.measurement(Rate.input, Rate.bytesPerSecond(input.count, since: start))
  } setup: {
    Data(Records.document(size: megabytes * 1_000_000).bytes)
  }
}
