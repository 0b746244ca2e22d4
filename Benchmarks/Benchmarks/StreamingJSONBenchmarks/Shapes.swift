// SPDX-License-Identifier: Apache-2.0
import Benchmark
import Foundation
import StreamingJSON

// The datasets of the "shapes" section of scripts/compare, small: written
// by scripts/generate-shapes.py itself (run once per benchmark process, in
// setup), so that both measure the same shapes with the same models
// (GitHubEventModel, LogModel and CitmModel are symbolic links to
// Sources/StreamingJSONBench; twitter's `Status` is TwitterModel.swift).

/// The size of each dataset: a few MB, so that Foundation gets several
/// iterations in a benchmark's time.
let shapeSize = 4_000_000

/// `scripts/generate-shapes.py --shape NAME --size shapeSize`, its output.
func generateShape(_ shape: String) -> Data {
    let script = nativeJSONDirectory
        .deletingLastPathComponent()  // Fixtures
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository root
        .appendingPathComponent("scripts/generate-shapes.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, "--shape", shape, "--size", "\(shapeSize)", "--out", "-"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
        try process.run()
    } catch {
        fatalError("cannot run \(script.path) (needs python3): \(error)")
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    precondition(process.terminationStatus == 0, "\(script.path) --shape \(shape) failed")
    return data
}

let twitterShape = generateShape("twitter")
let citmShape = generateShape("citm")
let canadaShape = generateShape("canada")
let githubShape = generateShape("github")
let logsShape = generateShape("logs")

/// One dataset: its bytes, and how each decoder reads it (the element count).
struct ShapeBenchmark: Sendable {
    var name: String
    var data: @Sendable () -> Data
    var streamed: @Sendable (Data) throws -> Int
    var foundation: @Sendable (Data) throws -> Int

    /// Both decoders once, in setup: they must read every element, the same number.
    func check() {
        let input = data()
        let (ours, theirs) = (try! streamed(input), try! foundation(input))
        precondition(ours > 0 && ours == theirs, "shape \(name): streamed \(ours) elements, Foundation \(theirs)")
    }
}

/// elements(of:) from memory, every element read.
func streamedCount<T: Decodable & Sendable>(_ type: T.Type, _ data: Data, at path: [String] = [],
                                            format: JSONStreamFormat = .auto) throws -> Int {
    var iterator = makeStreamingDecoder().elements(of: type, from: data, at: path, format: format).makeIterator()
    var count = 0
    while let element = try iterator.next() {
        count += 1
        blackHole(element)
    }
    return count
}

/// JSON Lines as users read them with Foundation: split at newlines, one decoder for every line.
func foundationLinesCount<T: Decodable>(_ type: T.Type, _ data: Data) throws -> Int {
    let decoder = makeFoundationDecoder()
    var count = 0
    for line in data.split(separator: UInt8(ascii: "\n")) {
        blackHole(try decoder.decode(type, from: line))
        count += 1
    }
    return count
}

let shapeBenchmarks: [ShapeBenchmark] = [
    ShapeBenchmark(name: "twitter", data: { twitterShape },
                   streamed: { try streamedCount(Status.self, $0) },
                   foundation: { try makeFoundationDecoder().decode([Status].self, from: $0).count }),
    ShapeBenchmark(name: "citm", data: { citmShape },
                   streamed: { try streamedCount(CitmEvent.self, $0, at: ["events"], format: .objectValues) },
                   foundation: { try makeFoundationDecoder().decode(CitmEvents.self, from: $0).events.count }),
    ShapeBenchmark(name: "canada", data: { canadaShape },
                   streamed: { try streamedCount([[Double]].self, $0) },
                   foundation: { try makeFoundationDecoder().decode([[[Double]]].self, from: $0).count }),
    ShapeBenchmark(name: "github", data: { githubShape },
                   streamed: { try streamedCount(GitHubEvent.self, $0, format: .jsonLines) },
                   foundation: { try foundationLinesCount(GitHubEvent.self, $0) }),
    ShapeBenchmark(name: "logs", data: { logsShape },
                   streamed: { try streamedCount(LogEvent.self, $0, format: .jsonLines) },
                   foundation: { try foundationLinesCount(LogEvent.self, $0) }),
]
