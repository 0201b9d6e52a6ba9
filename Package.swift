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
    ],
    targets: [
        .target(name: "HeartworkCore"),
        .target(name: "HeartworkFormats", dependencies: ["HeartworkCore"]),
        .target(name: "HeartworkCharts", dependencies: ["HeartworkCore"]),
        .target(
            name: "HeartworkCLI",
            dependencies: [
                "HeartworkCore",
                "HeartworkFormats",
                "HeartworkCharts",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "heartwork", dependencies: ["HeartworkCLI"]),
        .executableTarget(name: "heartwork-benchmarks", dependencies: ["HeartworkCore"], path: "Benchmarks/HRVBenchmark"),
        .target(name: "HeartworkTestSupport", path: "Tests/HeartworkTestSupport"),
        .testTarget(
            name: "HeartworkCoreTests",
            dependencies: ["HeartworkCore", "HeartworkTestSupport"],
            resources: [.copy("Resources")]
        ),
        .testTarget(name: "HeartworkFormatsTests", dependencies: ["HeartworkFormats", "HeartworkTestSupport"]),
        .testTarget(name: "HeartworkChartsTests", dependencies: ["HeartworkCharts"]),
        .testTarget(name: "HeartworkCLITests", dependencies: ["HeartworkCLI", "HeartworkTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
