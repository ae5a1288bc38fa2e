// swift-tools-version:6.0
import PackageDescription

// An app team's package that embeds LiveryClient, as it would from a release of Livery, here by path
// (the repository root). It is built by `make test` and run against `livery serve` by
// Tests/LiveryTests/ExampleConsumerTests.swift.
let package = Package(
    name: "ClientApp",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(name: "Livery", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "client-app", dependencies: [.product(name: "LiveryClient", package: "Livery")]),
    ]
)
