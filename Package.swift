// swift-tools-version: 6.0

import PackageDescription

let package = Package(
  name: "JSONKit",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    .library(name: "JSONKit", targets: ["JSONKit"]),
    .library(name: "JSONKitCorpus", targets: ["JSONKitCorpus"]),
    .executable(name: "jsonkit", targets: ["jsonkit"]),
  ],
  targets: [
    // The platform's zlib, for reading and writing gzip: a system library,
    // not a package dependency.
    .systemLibrary(
      name: "CZlib", path: "Sources/CZlib",
      providers: [.apt(["zlib1g-dev"]), .yum(["zlib-devel"])]),
    // The pages on the tape and the encoder's states are Markdown beside the code.
    .target(
      name: "JSONKit", dependencies: ["CZlib"],
      exclude: ["Scanning/TapeLayout.md", "Encoding/EncoderStates.md"]),
    .target(name: "JSONKitCorpus"),
    .executableTarget(name: "jsonkit", dependencies: ["JSONKit", "JSONKitCorpus"]),
    // The tool is a dependency so that its chart drawing can be tested
    // directly; the tests also run it as a subprocess.
    .testTarget(name: "JSONKitTests", dependencies: ["JSONKit", "JSONKitCorpus", "jsonkit"]),
  ]
)
