import Benchmark
import BenchmarkSupport
import Foundation

/// Decoding and encoding payloads made of Foundation's value types, by both libraries:
/// the generated orders (`Orders` in `JSONKitCorpus`, about 1 MB: UUIDs, ISO 8601 dates,
/// decimals, URLs, an enum) and `github_events.json` as `GitHubEvents` (snake_case keys,
/// dates, URLs). Each is made in setup, outside the measured region, and every call goes
/// through the generic `decode(_:_:with:)` or `encode(_:with:)` with the sample's
/// strategies:
///
/// - `Decode/<sample>/<API>-fresh` and `Encode/<sample>/<API>-fresh`: a coder made in
///   every iteration;
/// - `Decode/<sample>/<API>` and `Encode/<sample>/<API>`: one made in setup.
func sampleBenchmarks() {
  let samples: [(name: String, make: () throws -> SampleCalls)] = [
    ("orders", SampleCalls.orders),
    ("github_events", SampleCalls.githubEvents),
  ]
  for (name, make) in samples {
    sampleDecodeBenchmark(name, "JSONDecoder-fresh", make, \.decodeFoundationFresh)
    sampleDecodeBenchmark(name, "JKDecoder-fresh", make, \.decodeJSONKitFresh)
    sampleDecodeBenchmark(name, "JSONDecoder", make, \.decodeFoundationReused)
    sampleDecodeBenchmark(name, "JKDecoder", make, \.decodeJSONKitReused)
    sampleEncodeBenchmark(name, "JSONEncoder-fresh", make, \.encodeFoundationFresh)
    sampleEncodeBenchmark(name, "JKEncoder-fresh", make, \.encodeJSONKitFresh)
    sampleEncodeBenchmark(name, "JSONEncoder", make, \.encodeFoundationReused)
    sampleEncodeBenchmark(name, "JKEncoder", make, \.encodeJSONKitReused)
  }
}

/// Registers `Decode/<sample>/<api>`: one call of `call` on the sample's JSON per
/// iteration, with MB/s of input.
private func sampleDecodeBenchmark(
  _ sample: String, _ api: String, _ make: @escaping () throws -> SampleCalls,
  _ call: KeyPath<SampleCalls, (Data) throws -> Void>
) {
  var configuration = Benchmark.defaultConfiguration
  configuration.metrics.append(Rate.input)
  Benchmark("Decode/\(sample)/\(api)", configuration: configuration) {
    benchmark, calls in
    let decode = calls[keyPath: call]
    let start = ContinuousClock.now
    try decode(calls.json)
    benchmark.measurement(Rate.input, Rate.bytesPerSecond(calls.json.count, since: start))
  } setup: {
    try make()
  }
}

/// Registers `Encode/<sample>/<api>`: one call of `call` per iteration, with MB/s of
/// output.
private func sampleEncodeBenchmark(
  _ sample: String, _ api: String, _ make: @escaping () throws -> SampleCalls,
  _ call: KeyPath<SampleCalls, () throws -> Data>
) {
  var configuration = Benchmark.defaultConfiguration
  configuration.metrics.append(Rate.output)
  Benchmark("Encode/\(sample)/\(api)", configuration: configuration) {
    benchmark, calls in
    let encode = calls[keyPath: call]
    let start = ContinuousClock.now
    let count = try encode().count
    benchmark.measurement(Rate.output, Rate.bytesPerSecond(count, since: start))
  } setup: {
    try make()
  }
}
