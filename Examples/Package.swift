// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

// A package of its own, beside the library, so that `import StreamingJSON`
// never brings in SwiftNIO: only these examples depend on Hummingbird and
// AsyncHTTPClient.
let package = Package(
    name: "StreamingJSONExamples",
    // Synchronization.Mutex (RecordKit) needs macOS 15.
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StreamingJSONNIO", targets: ["StreamingJSONNIO"]),
        .executable(name: "record-server", targets: ["record-server"]),
        .executable(name: "record-client", targets: ["record-client"]),
    ],
    dependencies: [
        // The library, by path: its identity is its folder's name, so the
        // products below name it by `name:` rather than by identity.
        .package(name: "StreamingJSON", path: ".."),
        // Hummingbird's default traits pull in swift-configuration support
        // and full Foundation, which these examples do not use.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
    ],
    targets: [
        // The adapter: NIO `ByteBuffer` chunks as the `DataProtocol` chunks
        // `StreamingJSONDecoder.elements(of:from:)` reads.
        .target(
            name: "StreamingJSONNIO",
            dependencies: [
                .product(name: "StreamingJSON", package: "StreamingJSON"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // What the server, the client and the tests share: the record model,
        // its validation, the generator of record streams, error reports.
        .target(
            name: "RecordKit",
            dependencies: [
                "StreamingJSONNIO",
                .product(name: "StreamingJSON", package: "StreamingJSON"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "record-server",
            dependencies: [
                "RecordKit", "StreamingJSONNIO",
                .product(name: "StreamingJSON", package: "StreamingJSON"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "record-client",
            dependencies: [
                "RecordKit", "StreamingJSONNIO",
                .product(name: "StreamingJSON", package: "StreamingJSON"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // End-to-end: the built record-server in a process of its own, fed
        // by AsyncHTTPClient over loopback (and by record-client). Depending
        // on the executables makes SwiftPM build them before the tests run.
        .testTarget(
            name: "RecordServerTests",
            dependencies: [
                "RecordKit", "StreamingJSONNIO", "record-server", "record-client",
                .product(name: "StreamingJSON", package: "StreamingJSON"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
