import Benchmark

/// Every benchmark, named `<Operation>/<corpus>/<API>` so that one operation on one
/// corpus sorts together across libraries:
///
/// - `Parse`: JSON bytes to an untyped tree; `Write`: the tree back to bytes.
/// - `Decode`: JSON bytes to the corpus's Codable model, default key strategy;
///   `DecodeSnakeCase`: the same with `.convertFromSnakeCase`. The corpora's variants
///   (keys sorted or shuffled, the app-style Twitter model) are named after the variant,
///   as `Decode/twitter-shuffled/JKDecoder`, and a fresh decoder per iteration adds
///   `-fresh` to the API (`VariantBenchmarks.swift`).
/// - `Encode`: the model to compact JSON; `EncodePretty`: to `.prettyPrinted` JSON.
/// - `Decode/orders`, `Decode/github_events`, `Encode/orders`, `Encode/github_events`:
///   payloads made of Foundation's value types, with a coder made per iteration
///   (`-fresh`) or in setup (`SampleBenchmarks.swift`).
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
    timeUnits: .microseconds,
    units: [Rate.input: .mega, Rate.output: .mega, .mallocCountTotal: .count],
    warmupIterations: 1,
    maxDuration: .seconds(1),
    maxIterations: 1_000
  )
  foundationBenchmarks()
  jsonKitBenchmarks()
  variantBenchmarks()
  sampleBenchmarks()
}
