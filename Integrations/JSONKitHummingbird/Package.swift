// swift-tools-version: 6.1

import PackageDescription

let package = Package(
  name: "JSONKitHummingbird",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17)],
  products: [
    .library(name: "JSONKitHummingbird", targets: ["JSONKitHummingbird"])
  ],
  dependencies: [
    // Named, because a path dependency's identity is otherwise its directory's name,
    // which depends on where the repository was cloned.
    .package(name: "JSONKit", path: "../.."),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
  ],
  targets: [
    .target(
      name: "JSONKitHummingbird",
      dependencies: [
        .product(name: "JSONKit", package: "JSONKit"),
        .product(name: "Hummingbird", package: "hummingbird"),
      ]
    ),
    // The load benchmark's server: `Scripts/load` builds it in release and drives it with wrk.
    .executableTarget(
      name: "HummingbirdLoadServer",
      dependencies: [
        "JSONKitHummingbird",
        .product(name: "JSONKit", package: "JSONKit"),
        .product(name: "JSONKitCorpus", package: "JSONKit"),
        .product(name: "Hummingbird", package: "hummingbird"),
      ]
    ),
    .testTarget(
      name: "JSONKitHummingbirdTests",
      dependencies: [
        "JSONKitHummingbird",
        .product(name: "JSONKit", package: "JSONKit"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
      ]
    ),
  ]
)
