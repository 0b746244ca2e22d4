// SPDX-License-Identifier: Apache-2.0
import Foundation
import TestSupport
import Testing

/// The built `jsonstream` executable: next to the test bundle in the build
/// products directory (SwiftPM builds it for this test target, which depends
/// on it), or built on demand when missing.
enum JSONStreamBinary {
    private final class Marker {}

    static let url: URL = {
        // Linux: the bundle is the directory of the test executable; macOS: the .xctest bundle.
        var products = Bundle(for: Marker.self).bundleURL
        if products.pathExtension == "xctest" { products.deleteLastPathComponent() }
        let binary = products.appendingPathComponent("jsonstream")
        if !FileManager.default.isExecutableFile(atPath: binary.path) { build(into: products) }
        return binary
    }()

    /// `swift build --product jsonstream` into the same scratch directory and configuration.
    private static func build(into products: URL) {
        let configuration = products.lastPathComponent  // debug or release
        // products is <scratch>/<triple>/<configuration> (or the <scratch>/<configuration> link).
        var scratch = products.deletingLastPathComponent()
        if scratch.lastPathComponent.contains("-") { scratch.deleteLastPathComponent() }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // The `swift test` running this suite holds the scratch directory's lock
        // but is not building any more: without --ignore-lock this would wait forever.
        process.arguments = ["swift", "build", "--package-path", package.path, "--scratch-path", scratch.path,
                             "-c", configuration, "--product", "jsonstream", "--ignore-lock"]
        try? process.run()
        process.waitUntilExit()
    }

    /// The fixtures directory, `Tests/Fixtures`.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func fixture(_ path: String) -> String { fixtures.appendingPathComponent(path).path }
}

/// What a finished `jsonstream` run left behind.
struct Run {
    var stdout: Data
    var stderr: String
    var status: Int32

    var output: String { String(decoding: stdout, as: UTF8.self) }
    /// stdout split into lines at LF bytes, without the final newline.
    /// (On bytes: Swift reads "\r\n" as one Character, which a split on "\n" misses.)
    var lines: [String] {
        guard !stdout.isEmpty else { return [] }
        var bytes = [UInt8](stdout)
        if bytes.last == 0x0A { bytes.removeLast() }
        return bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// Runs the binary to completion. stdin is a file (`stdinPath`), bytes
/// (`input`), or empty; stdout and stderr go to files, so that no pipe can
/// fill up. `timeout` is a safety net that fails the test instead of hanging it.
/// The wait happens off the cooperative pool (see `offThePool`).
/// `environment` replaces variables of this process's environment for the run.
func jsonstream(_ arguments: [String], input: String? = nil, stdinPath: String? = nil,
                environment: [String: String] = [:], timeout: TimeInterval = 300) async throws -> Run {
    await ProcessSlots.shared.acquire()
    let result = await Result(catching: { try await offThePool {
        try runToCompletion(arguments, input: input, stdinPath: stdinPath, environment: environment, timeout: timeout)
    } })
    await ProcessSlots.shared.release()
    return try result.get()
}

/// At most one running `jsonstream` per core. Swift Testing starts hundreds
/// of corpus cases at once; unbounded, their processes would leave no CPU
/// to the async tests of the other suites, whose time limits then expire.
actor ProcessSlots {
    static let shared = ProcessSlots(count: max(1, ProcessInfo.processInfo.activeProcessorCount))

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) {
        free = count
    }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

private func runToCompletion(_ arguments: [String], input: String?, stdinPath: String?,
                             environment: [String: String], timeout: TimeInterval) throws -> Run {
    let scratch = try TemporaryDirectory()
    let process = Process()
    process.executableURL = JSONStreamBinary.url
    process.arguments = arguments
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    if let input {
        let path = scratch.url.appendingPathComponent("stdin")
        try Data(input.utf8).write(to: path)
        process.standardInput = try FileHandle(forReadingFrom: path)
    } else if let stdinPath {
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: stdinPath))
    } else {
        process.standardInput = FileHandle.nullDevice
    }
    let out = scratch.url.appendingPathComponent("stdout"), err = scratch.url.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    try process.run()
    try waitForExit(process, timeout: timeout)
    return Run(stdout: try Data(contentsOf: out), stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self),
               status: process.terminationStatus)
}

struct TimedOut: Error, CustomStringConvertible {
    var description: String
}

/// Waits for `process`, killing it and throwing after `timeout` seconds.
func waitForExit(_ process: Process, timeout: TimeInterval) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning {
        if Date() > deadline {
            process.terminate()
            process.waitUntilExit()
            throw TimedOut(description: "jsonstream did not finish within \(Int(timeout)) s")
        }
        usleep(5_000)
    }
    process.waitUntilExit()
}

/// A directory removed when the value goes away.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("jsonstream-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `text` to `name` inside the directory and returns its path.
    @discardableResult
    func file(_ name: String, _ text: String) throws -> String {
        let path = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: path)
        return path.path
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// A JSON array of `count` generated records, one per line, about 150 bytes each.
func recordsArray(count: Int) -> String {
    var text = "[\n"
    text.reserveCapacity(count * 160)
    for index in 0..<count {
        if index > 0 { text += ",\n" }
        text += #"{"id":\#(index),"name":"Beer \#(index)","abv":\#(Double(index % 150) / 10),"#
        text += #""brewery":{"city":"Zürich","country":"CH"},"tags":["a","b"],"note":"line\nbreak \"q\""}"#
    }
    return text + "\n]\n"
}

extension Result where Failure == any Error {
    /// The outcome of an async throwing body.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
