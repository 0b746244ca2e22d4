// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
// Benchmarks of StreamingJSON with ordo-one/benchmark, kept in a package of
// their own so that the library itself never depends on the benchmark tool.
//
//     cd Benchmarks && swift package benchmark        (or scripts/benchmarks from the root)
import PackageDescription

let package = Package(
    name: "StreamingJSONBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "StreamingJSON", path: ".."),
        // The malloc interposer counts allocations without jemalloc; naming the
        // trait alone also leaves out the Linux ARC runtime interposer.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "StreamingJSONBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "StreamingJSON", package: "StreamingJSON"),
                .product(name: "JSONFilter", package: "StreamingJSON"),
            ],
            path: "Benchmarks/StreamingJSONBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ]
)
