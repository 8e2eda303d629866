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
    .target(name: "JSONKit"),
    .target(name: "JSONKitCorpus"),
    .executableTarget(name: "jsonkit", dependencies: ["JSONKit", "JSONKitCorpus"]),
    .testTarget(name: "JSONKitTests", dependencies: ["JSONKit", "JSONKitCorpus"]),
  ]
)
