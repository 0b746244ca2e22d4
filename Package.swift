// swift-tools-version: 6.2
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

let package = Package(
    name: "StreamingJSON",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "StreamingJSON", targets: ["StreamingJSON"]),
        .library(name: "JSONFilter", targets: ["JSONFilter"]),
        .executable(name: "jsonstream", targets: ["jsonstream"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `swift package generate-documentation` (scripts/docs); a plugin only, linked into nothing.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Property-based tests (Tests/StreamingJSONTests/PropertyTests*.swift) only.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // yajl, found through pkg-config. The shim header wraps the variadic
        // configuration calls.
        .systemLibrary(
            name: "CYajl",
            path: "CYajl",
            pkgConfig: "yajl",
            providers: [.apt(["libyajl-dev"]), .brew(["yajl"])]
        ),
        // The decompressors for gzip, zstd, bzip2 and xz input, recognised by
        // its first bytes (Decompression/_DecompressingSource.swift). gzip
        // through ISA-L's inflate, which keeps up with the parser where
        // zlib's does not.
        .systemLibrary(
            name: "CIsal",
            path: "CIsal",
            pkgConfig: "libisal",
            providers: [.apt(["libisal-dev"]), .brew(["isa-l"])]
        ),
        .systemLibrary(
            name: "CZstd",
            path: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
        ),
        // libbz2 ships no pkg-config file; its header and library are in the
        // default search paths (the SDK's on macOS).
        .systemLibrary(
            name: "CBzip2",
            path: "CBzip2",
            providers: [.apt(["libbz2-dev"]), .brew(["bzip2"])]
        ),
        .systemLibrary(
            name: "CLzma",
            path: "CLzma",
            pkgConfig: "liblzma",
            providers: [.apt(["liblzma-dev"]), .brew(["xz"])]
        ),
        // yajl's events recorded into a tape by C callbacks, the checks yajl
        // lacks, and the encoder's string escaper (include/CJSONTape.h).
        .target(
            name: "CJSONTape",
            dependencies: ["CYajl"]
        ),
        .target(
            name: "StreamingJSON",
            dependencies: ["CJSONTape", "CYajl", "CIsal", "CZstd", "CBzip2", "CLzma"],
            swiftSettings: [.swiftLanguageMode(.v6), .strictMemorySafety()]
        ),
        // Oniguruma, the regular-expression engine jq uses; only JSONFilter
        // needs it, so `import StreamingJSON` needs yajl alone.
        .systemLibrary(
            name: "COniguruma",
            path: "COniguruma",
            pkgConfig: "oniguruma",
            providers: [.apt(["libonig-dev"]), .brew(["oniguruma"])]
        ),
        // The jq-syntax filter language over JSONValue: lexer, parser, evaluator.
        .target(
            name: "JSONFilter",
            dependencies: ["StreamingJSON", "COniguruma"],
            swiftSettings: [.swiftLanguageMode(.v6), .strictMemorySafety()]
        ),
        // Everything `jsonstream` does (reading, filtering, writing, reports),
        // as a library so that it is tested without spawning processes.
        .target(
            name: "JSONStreamTool",
            dependencies: ["StreamingJSON", "JSONFilter"],
            swiftSettings: [.swiftLanguageMode(.v6), .strictMemorySafety()]
        ),
        // The command line: argument parsing only; the work is in JSONStreamTool.
        .executableTarget(
            name: "jsonstream",
            dependencies: [
                "JSONStreamTool",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6), .strictMemorySafety()]
        ),
        // Decodes a generated records dump and prints throughput and peak
        // memory: the engine behind scripts/demo and scripts/compare-decode.
        .executableTarget(
            name: "streamingjson-bench",
            dependencies: ["StreamingJSON"],
            path: "Sources/StreamingJSONBench",
            swiftSettings: [.swiftLanguageMode(.v6), .strictMemorySafety()]
        ),
        // One test target per layer; Tests/Fixtures is shared by all three.
        // StreamingJSON: the decoder, encoder, sources, values and writers.
        // Helpers the three test targets share (threads off the cooperative pool).
        .target(
            name: "TestSupport",
            path: "Tests/TestSupport",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "StreamingJSONTests",
            dependencies: [
                "StreamingJSON", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // JSONFilter: the jq language, against jq 1.8.2's suite and a recorded corpus.
        .testTarget(
            name: "JSONFilterTests",
            dependencies: ["JSONFilter", "StreamingJSON", "TestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Unit tests of JSONStreamTool and end-to-end tests of the built binary.
        .testTarget(
            name: "jsonstreamTests",
            dependencies: ["JSONStreamTool", "StreamingJSON", "jsonstream", "TestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
