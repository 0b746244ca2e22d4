// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// The built executables: next to the test bundle in the build products
/// directory, where SwiftPM puts them since this test target depends on them.
enum Products {
    private final class Marker {}

    static func url(of name: String) -> URL {
        // Linux: the bundle is the directory of the test executable; macOS: the .xctest bundle.
        var products = Bundle(for: Marker.self).bundleURL
        if products.pathExtension == "xctest" { products.deleteLastPathComponent() }
        return products.appendingPathComponent(name)
    }
}

/// A `record-server` running in a process of its own on loopback, on a port
/// it picked: its memory is its own, measured apart from the test's.
final class ServerProcess {
    let process = Process()
    let port: Int
    private let stdout = Pipe()

    /// Starts the server and waits for its `listening on HOST:PORT` line.
    init(arguments: [String] = []) throws {
        process.executableURL = Products.url(of: "record-server")
        process.arguments = ["--host", "127.0.0.1", "--port", "0"] + arguments
        process.standardOutput = stdout
        // Hummingbird's "server started" notice on stderr, once per test, is noise.
        process.environment = ProcessInfo.processInfo.environment.merging(["LOG_LEVEL": "warning"]) { $1 }
        try process.run()
        let line = Self.firstLine(of: stdout.fileHandleForReading)
        guard line.hasPrefix("listening on "), let text = line.split(separator: ":").last, let port = Int(text) else {
            process.terminate()
            process.waitUntilExit()
            throw ServerFailure(description: "record-server did not say where it listens; it said '\(line)'")
        }
        self.port = port
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    var recordsURL: String { "http://127.0.0.1:\(port)/records" }

    /// The server's peak resident set size so far (`VmHWM`), in bytes.
    func peakResidentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        else { throw ServerFailure(description: "no VmHWM in /proc/\(process.processIdentifier)/status") }
        return kilobytes * 1024
    }

    /// Stops the server as an operator would (SIGTERM, a graceful shutdown)
    /// and returns its exit status.
    @discardableResult
    func stop() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Reads up to the first line break, a byte at a time so as to read no further.
    private static func firstLine(of handle: FileHandle) -> String {
        var bytes: [UInt8] = []
        while let byte = try? handle.read(upToCount: 1)?.first, byte != 0x0A {
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

struct ServerFailure: Error, CustomStringConvertible {
    var description: String
}

/// Runs one of the built executables to its end and returns its status and standard output.
func run(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = Products.url(of: name)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
