// swift-tools-version: 6.1

import PackageDescription

let package = Package(
  name: "JSONKitBenchmarks",
  platforms: [.macOS(.v13), .iOS(.v16)],
  dependencies: [
    // Named, because a path dependency's identity is otherwise its directory's name,
    // which depends on where the repository was cloned.
    .package(name: "JSONKit", path: ".."),
    .package(
      url: "https://github.com/ordo-one/benchmark", .upToNextMinor(from: "1.38.0"),
      traits: ["MallocInterposer"]),
  ],
  targets: [
    // What both executables share: the generic decode functions and the calls that
    // decode each corpus variant.
    .target(
      name: "BenchmarkSupport",
      dependencies: [
        .product(name: "JSONKit", package: "JSONKit"),
        .product(name: "JSONKitCorpus", package: "JSONKit"),
      ]
    ),
    // One target for all libraries, so that each Foundation benchmark and its JSONKit
    // twin sort next to each other in the results.
    .executableTarget(
      name: "CorpusBenchmarks",
      dependencies: [
        "BenchmarkSupport",
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "JSONKit", package: "JSONKit"),
        .product(name: "JSONKitCorpus", package: "JSONKit"),
      ],
      path: "Benchmarks/CorpusBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    // Foundation and JSONKit interleaved in one process: `swift run -c release compare`.
    // Plain Swift and Foundation, so that it runs where the benchmark plugin does not.
    .executableTarget(
      name: "compare",
      dependencies: [
        "BenchmarkSupport",
        .product(name: "JSONKit", package: "JSONKit"),
        .product(name: "JSONKitCorpus", package: "JSONKit"),
      ]
    ),
  ]
)
