// swift-tools-version: 6.1
import PackageDescription

/// Heartwork: a self-hosted heart-rate training platform.
/// Layers (see docs/ARCHITECTURE.md): Core (pure domain) ← Formats (bytes, files) ← CLI.
let package = Package(
    name: "Heartwork",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "heartwork", targets: ["heartwork"]),
        .library(name: "HeartworkCore", targets: ["HeartworkCore"]),
        .library(name: "HeartworkFormats", targets: ["HeartworkFormats"]),
        .library(name: "HeartworkCharts", targets: ["HeartworkCharts"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/vapor/sql-kit", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit", from: "2.17.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .target(name: "HeartworkCore"),
        .target(name: "HeartworkFormats", dependencies: ["HeartworkCore"]),
        .target(name: "HeartworkCharts", dependencies: ["HeartworkCore"]),
        .target(
            name: "HeartworkStore",
            dependencies: [
                "HeartworkCore",
                "HeartworkFormats",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "HeartworkServer",
            dependencies: [
                "HeartworkCore",
                "HeartworkFormats",
                "HeartworkCharts",
                "HeartworkStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            resources: [.copy("Resources")]
        ),
        .target(
            name: "HeartworkCLI",
            dependencies: [
                "HeartworkCore",
                "HeartworkFormats",
                "HeartworkCharts",
                "HeartworkStore",
                "HeartworkServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "heartwork", dependencies: ["HeartworkCLI"]),
        .executableTarget(name: "heartwork-benchmarks", dependencies: ["HeartworkCore"], path: "Benchmarks/HRVBenchmark"),
        .target(name: "HeartworkTestSupport", dependencies: ["HeartworkStore"], path: "Tests/HeartworkTestSupport"),
        .testTarget(
            name: "HeartworkCoreTests",
            dependencies: ["HeartworkCore", "HeartworkTestSupport"],
            resources: [.copy("Resources")]
        ),
        .testTarget(name: "HeartworkFormatsTests", dependencies: ["HeartworkFormats", "HeartworkTestSupport"]),
        .testTarget(name: "HeartworkChartsTests", dependencies: ["HeartworkCharts"]),
        .testTarget(name: "HeartworkStoreTests", dependencies: ["HeartworkStore", "HeartworkTestSupport"]),
        .testTarget(
            name: "HeartworkServerTests",
            dependencies: [
                "HeartworkServer",
                "HeartworkTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(name: "HeartworkCLITests", dependencies: ["HeartworkCLI", "HeartworkTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
