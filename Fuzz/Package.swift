// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
// The fuzz targets (libFuzzer), kept in a package of their own so that the
// main package's default build and tests never need the sanitizer runtimes.
// Build and run them with scripts/fuzz.
import Foundation
import PackageDescription

// The main package is the parent directory; SwiftPM names a path dependency
// after its directory, which differs between clones and worktrees.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "StreamingJSONFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: "..")],
    targets: [
        // The checks are the test targets' (links to Tests/StreamingJSONTests/FuzzChecks
        // and Tests/JSONFilterTests/FuzzChecks), where the saved inputs run as regression tests.
        .target(
            name: "FuzzChecks",
            dependencies: [.product(name: "StreamingJSON", package: root)]
        ),
        .target(
            name: "FilterFuzzChecks",
            dependencies: [
                .product(name: "StreamingJSON", package: root),
                .product(name: "JSONFilter", package: root),
            ]
        ),
        .target(name: "FuzzDriver"),
        .executableTarget(name: "fuzz-decode", dependencies: ["FuzzChecks", "FuzzDriver"]),
        .executableTarget(name: "fuzz-stream", dependencies: ["FuzzChecks", "FuzzDriver"]),
        .executableTarget(name: "fuzz-typed", dependencies: ["FuzzChecks", "FuzzDriver"]),
        .executableTarget(name: "fuzz-filter", dependencies: ["FilterFuzzChecks", "FuzzDriver"]),
        .executableTarget(name: "fuzz-roundtrip", dependencies: ["FuzzChecks", "FuzzDriver"]),
    ]
)
