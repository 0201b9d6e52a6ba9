// swift-tools-version: 6.1
import PackageDescription

/// Heartwork: a self-hosted heart-rate training platform.
/// Layers (see docs/ARCHITECTURE.md): Core (pure domain) ← Formats (bytes, files) ← Store ← App (services, no HTTP)
/// ← Server (HTTP and WebSocket edge) ← CLI.
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
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.0.0", traits: []),
    ],
    targets: [
        .target(name: "HeartworkCore"),
        // zlib for the ZIP reader (raw inflate, CRC-32); Debian's zlib1g-dev.
        .systemLibrary(name: "HeartworkZlib", path: "Sources/HeartworkZlib"),
        .target(name: "HeartworkFormats", dependencies: ["HeartworkCore", "HeartworkZlib"]),
        .target(name: "HeartworkCharts", dependencies: ["HeartworkCore"]),
        // BlueZ over the D-Bus system bus, for `heartwork gateway` only: the wire protocol
        // spoken over a Unix socket (the codec is HeartworkFormats/DBus), no libdbus.
        .target(name: "HeartworkBlueZ", dependencies: ["HeartworkFormats"]),
        // The records the store keeps and every layer speaks (plain values, no SQL).
        .target(name: "HeartworkModel", dependencies: ["HeartworkCore"]),
        .target(
            name: "HeartworkStore",
            dependencies: [
                "HeartworkCore",
                "HeartworkModel",
                "HeartworkFormats",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "HeartworkApp",
            dependencies: [
                "HeartworkCore",
                "HeartworkFormats",
                "HeartworkStore",
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            // The strength catalogue, routines, lexicon and messages (docs/STRENGTH.md), compiled
            // into the binary by EmbedResourcesPlugin.
            exclude: ["Resources"],
            plugins: ["EmbedResourcesPlugin"]
        ),
        .target(
            name: "HeartworkServer",
            dependencies: [
                "HeartworkCore",
                "HeartworkFormats",
                "HeartworkCharts",
                "HeartworkModel",
                "HeartworkStore",
                "HeartworkApp",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            // Embedded in the binary by EmbedResourcesPlugin, so one file runs from anywhere (see
            // EmbeddedResources).
            exclude: ["Resources"],
            plugins: ["EmbedResourcesPlugin"]
        ),
        .target(
            name: "HeartworkCLI",
            dependencies: [
                "HeartworkCore",
                "HeartworkFormats",
                "HeartworkCharts",
                "HeartworkStore",
                "HeartworkApp",
                "HeartworkServer",
                "HeartworkBlueZ",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .executableTarget(name: "heartwork", dependencies: ["HeartworkCLI"]),
        // Resources/ as string literals (SwiftPM's embedInCode byte arrays took minutes to compile).
        .executableTarget(name: "EmbedResources"),
        .plugin(name: "EmbedResourcesPlugin", capability: .buildTool(), dependencies: ["EmbedResources"]),
        .executableTarget(name: "heartwork-benchmarks", dependencies: ["HeartworkCore"], path: "Benchmarks/HRVBenchmark"),
        .executableTarget(
            name: "heartwork-codec-benchmarks",
            dependencies: [
                "HeartworkCore", "HeartworkFormats", "HeartworkStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            path: "Benchmarks/CodecBenchmark"
        ),
        .executableTarget(name: "heartwork-linearity", dependencies: ["HeartworkCore", "HeartworkFormats"], path: "Benchmarks/LinearityCheck"),
        .target(name: "HeartworkTestSupport", dependencies: ["HeartworkStore", "HeartworkZlib"], path: "Tests/HeartworkTestSupport"),
        .testTarget(
            name: "HeartworkCoreTests",
            dependencies: ["HeartworkCore", "HeartworkTestSupport"],
            resources: [.copy("Resources")]
        ),
        .testTarget(name: "HeartworkFormatsTests", dependencies: ["HeartworkFormats", "HeartworkZlib", "HeartworkTestSupport"], resources: [.copy("Resources")]),
        .testTarget(name: "HeartworkChartsTests", dependencies: ["HeartworkCharts"]),
        .testTarget(name: "HeartworkStoreTests", dependencies: ["HeartworkStore", "HeartworkTestSupport"]),
        .testTarget(name: "HeartworkAppTests", dependencies: ["HeartworkApp", "HeartworkTestSupport", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]),
        .testTarget(
            name: "HeartworkServerTests",
            dependencies: [
                "HeartworkServer",
                "HeartworkApp",
                "HeartworkCharts",
                "HeartworkCore",
                "HeartworkTestSupport",
                "HeartworkZlib",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            resources: [.copy("Resources")]
        ),
        .testTarget(name: "HeartworkCLITests", dependencies: ["HeartworkCLI", "HeartworkBlueZ", "HeartworkTestSupport"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
