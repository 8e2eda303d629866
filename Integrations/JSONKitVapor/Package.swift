// swift-tools-version: 6.0

import PackageDescription

let package = Package(
  name: "JSONKitVapor",
  platforms: [.macOS(.v13)],
  products: [
    .library(name: "JSONKitVapor", targets: ["JSONKitVapor"])
  ],
  dependencies: [
    // Named, because a path dependency's identity is otherwise its directory's name,
    // which depends on where the repository was cloned.
    .package(name: "JSONKit", path: "../.."),
    .package(url: "https://github.com/vapor/vapor.git", from: "4.0.0"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.0.0"),
  ],
  targets: [
    .target(
      name: "JSONKitVapor",
      dependencies: [
        .product(name: "JSONKit", package: "JSONKit"),
        .product(name: "Vapor", package: "vapor"),
      ]
    ),
    // The load benchmark's server: `Scripts/load` builds it in release and drives it with wrk.
    .executableTarget(
      name: "JSONKitVaporLoad",
      dependencies: [
        "JSONKitVapor",
        .product(name: "JSONKit", package: "JSONKit"),
        .product(name: "JSONKitCorpus", package: "JSONKit"),
        .product(name: "Vapor", package: "vapor"),
        .product(name: "NIOFoundationCompat", package: "swift-nio"),
      ]
    ),
    .testTarget(
      name: "JSONKitVaporTests",
      dependencies: [
        "JSONKitVapor",
        .product(name: "JSONKit", package: "JSONKit"),
        .product(name: "Vapor", package: "vapor"),
        .product(name: "VaporTesting", package: "vapor"),
        .product(name: "NIOFoundationCompat", package: "swift-nio"),
      ]
    ),
  ]
)
