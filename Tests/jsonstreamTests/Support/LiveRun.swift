// SPDX-License-Identifier: Apache-2.0
import Foundation
import TestSupport

/// `jsonstream` running with pipes on stdin and stdout that the test drives:
/// feeding input bit by bit, reading output as it comes, closing either end.
///
/// Reads and writes use the raw descriptors (poll, read, write) with SIGPIPE
/// ignored, so that a closed pipe is an `EPIPE` result, never a crash, and a
/// read can give up after a timeout instead of hanging the suite.
final class LiveRun {
    let process: Process
    private let input: Int32
    private let output: Int32
    private let errorFile: URL
    private let directory: TemporaryDirectory
    private var pending: [UInt8] = []
    private var inputOpen = true
    private var outputOpen = true

    init(_ arguments: [String]) throws {
        signal(SIGPIPE, SIG_IGN)
        directory = try TemporaryDirectory()
        errorFile = directory.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let stdin = Pipe(), stdout = Pipe()
        process = Process()
        process.executableURL = JSONStreamBinary.url
        process.arguments = arguments
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        // Our copies of the child's ends must be closed, or EOF and EPIPE never come.
        try? stdin.fileHandleForReading.close()
        try? stdout.fileHandleForWriting.close()
        input = dup(stdin.fileHandleForWriting.fileDescriptor)
        output = dup(stdout.fileHandleForReading.fileDescriptor)
        try? stdin.fileHandleForWriting.close()
        try? stdout.fileHandleForReading.close()
    }

    deinit {
        closeInput()
        closeOutput()
        if process.isRunning { process.terminate() }
    }

    /// Writes all of `text` to the child's stdin; false once the child has
    /// closed it (EPIPE: it stopped reading, or exited).
    @discardableResult
    func write(_ text: String) async throws -> Bool {
        try await write(bytes: Array(text.utf8))
    }

    /// Writes all of `bytes` to the child's stdin; false once it has closed it.
    @discardableResult
    func write(bytes: [UInt8]) async throws -> Bool {
        let run = Unchecked(value: self)
        return try await offThePool { run.value.writeBlocking(bytes) }
    }

    /// Writes until the child closes its stdin (true) or `limit` bytes were
    /// written (false), `make(index)` giving each piece.
    func writeUntilClosed(limit: Int, _ make: @escaping @Sendable (Int) -> String) async throws -> Bool {
        let run = Unchecked(value: self)
        return try await offThePool {
            var written = 0, index = 0
            while written < limit {
                let piece = Array(make(index).utf8)
                index += 1
                guard run.value.writeBlocking(piece) else { return true }
                written += piece.count
            }
            return false
        }
    }

    /// Starts writing `make(index)` every `interval` milliseconds, at once,
    /// on a thread of its own, until `limit` pieces are written, the
    /// trickle is stopped, or the child closes its stdin. (A task would
    /// first wait for a thread of the cooperative pool, which the suite's
    /// blocking tests may hold for longer than a read's timeout.)
    func startTrickle(every interval: UInt32, limit: Int, _ make: @escaping @Sendable (Int) -> String) -> Trickle {
        let run = Unchecked(value: self), trickle = Trickle()
        let thread = Thread {
            for index in 0..<limit where !trickle.isStopped {
                guard run.value.writeBlocking(Array(make(index).utf8)) else { break }
                usleep(interval * 1000)
            }
            trickle.done.signal()
        }
        thread.start()
        return trickle
    }

    private func writeBlocking(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Foundation.write(input, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    func closeInput() {
        if inputOpen { close(input) }
        inputOpen = false
    }

    /// Closes the read end of stdout, as `head` does when it has its line.
    func closeOutput() {
        if outputOpen { close(output) }
        outputOpen = false
    }

    /// The next line of stdout (without its newline), or nil at the end of
    /// output. Throws `TimedOut` when nothing completes a line in time.
    func readLine(timeout: TimeInterval = 120) async throws -> String? {
        let run = Unchecked(value: self)
        return try await offThePool { try run.value.readLineBlocking(timeout: timeout) }
    }

    private func readLineBlocking(timeout: TimeInterval) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw TimedOut(description: "no complete line on stdout within \(Int(timeout)) s") }
            var request = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard poll(&request, 1, Int32(min(left, 1) * 1000)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                if pending.isEmpty { return nil }
                defer { pending.removeAll() }
                return String(decoding: pending, as: UTF8.self)
            }
            pending.append(contentsOf: chunk[..<count])
        }
    }

    /// Waits for the child to exit; its status and stderr.
    func finish(timeout: TimeInterval = 300) async throws -> (status: Int32, stderr: String) {
        let process = Unchecked(value: process)
        try await offThePool { try waitForExit(process.value, timeout: timeout) }
        let stderr = String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self)
        return (process.value.terminationStatus, stderr)
    }
}

/// A `LiveRun.startTrickle` under way.
final class Trickle: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    fileprivate let done = DispatchSemaphore(value: 0)

    fileprivate var isStopped: Bool { lock.withLock { stopped } }

    /// Stops the writes and waits for the writing thread to end.
    func stop() async throws {
        lock.withLock { stopped = true }
        try await offThePool { self.done.wait() }
    }
}
