// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import JSONFilter
import StreamingJSON

/// Writes messages to stderr, unbuffered, each in one `write(2)`.
struct Diagnostics {
    let descriptor: Int32

    /// `jsonstream: error …` lines and the like; `text` gets its newline here.
    func print(_ text: String) {
        var line = text
        line.append("\n")
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = unsafe systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }  // stderr is gone: nothing to tell anyone
                offset += written
            }
        }
    }

    /// Raw bytes (the progress line, which must not end with a newline).
    func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = unsafe systemWrite(descriptor, bytes.baseAddress, bytes.count) }
    }
}

/// `write(2)`, under a name that `Diagnostics.write(_:)` does not shadow.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    unsafe write(fd, bytes, count)
}

/// Seconds on a monotonic clock.
func monotonicSeconds() -> Double {
    var now = timespec()
    unsafe clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// The process's peak resident memory so far, in bytes.
///
/// On Linux, the kernel's high-water mark for this program's memory
/// (`VmHWM`): `getrusage` keeps the larger peak of the process that forked
/// this one (a Python or JVM worker that started `jsonstream`) across `exec`.
func peakResidentBytes() -> UInt64 {
    #if os(Linux)
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
       let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
       let kib = UInt64(line.dropFirst(6).filter(\.isNumber)) {
        return kib * 1024
    }
    #endif
    var usage = rusage()
    #if canImport(Glibc)
    guard unsafe getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
    #else
    guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
    #endif
    #if canImport(Darwin)
    return UInt64(usage.ru_maxrss)          // bytes on macOS
    #else
    return UInt64(usage.ru_maxrss) * 1024   // KiB on Linux
    #endif
}

/// Counts for `--stats`, the `--on-error skip` summary and the progress line.
struct RunCounters {
    /// Elements read, including those lost to errors.
    var elementsIn = 0
    var resultsOut = 0
    var skipped = 0
    /// Inputs a syntax error ended before their end, with the bytes left
    /// unread when known (`--on-error skip`'s summary).
    var inputsCutShort: [(name: String, unreadBytes: UInt64?)] = []
    /// Bytes of the inputs finished so far (the current one's are its reader's).
    var bytesOfFinishedInputs: UInt64 = 0
    /// Pieces filtered on worker threads (`--threads`), and how many threads.
    var pieces = 0
    var pieceThreads = 0
}

/// `1234567` → `1,234,567`.
func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (position, digit) in digits.enumerated() {
        if position > 0 && (digits.count - position) % 3 == 0 { result.append(",") }
        result.append(digit)
    }
    return value < 0 ? "-" + result : result
}

/// `value` with `decimals` digits after the point (no Foundation formatter needed).
func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "-" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    let fraction = Int(scaled - Double(whole) * scale)
    var text = (value < 0 && scaled > 0 ? "-" : "") + String(whole)
    if decimals > 0 {
        let digits = String(fraction)
        text += "." + String(repeating: "0", count: decimals - digits.count) + digits
    }
    return text
}

/// `1.5 MB`, `200.0 MB`, `3.2 GB`: decimal units, as throughput is quoted.
func byteSize(_ bytes: UInt64) -> String {
    let value = Double(bytes)
    if value < 1e3 { return "\(bytes) B" }
    if value < 1e6 { return fixed(value / 1e3, 1) + " kB" }
    if value < 1e9 { return fixed(value / 1e6, 1) + " MB" }
    return fixed(value / 1e9, 2) + " GB"
}

/// `--stats`: one summary line on stderr at the end.
func statisticsLine(_ counters: RunCounters, bytes: UInt64, seconds: Double, peakBytes: UInt64) -> String {
    let rate = seconds > 0 ? Double(bytes) / 1e6 / seconds : 0
    return "jsonstream: stats: \(grouped(counters.elementsIn)) elements in, \(grouped(counters.resultsOut)) results out, "
        + "\(grouped(counters.skipped)) skipped; \(byteSize(bytes)) in \(fixed(seconds, 2)) s (\(fixed(rate, 1)) MB/s); "
        + "peak memory \(fixed(Double(peakBytes) / 1048576, 1)) MiB"
        + (counters.pieces > 0 ? "; \(grouped(counters.pieces)) pieces on \(counters.pieceThreads) threads" : "")
}

/// The progress line on stderr (`--progress`): bytes done of the total,
/// percentage, MB/s, elements and time left, redrawn in place a few times a
/// second and erased at the end so that it never mixes with other output.
final class ProgressMeter {
    private let diagnostics: Diagnostics
    /// Bytes of all inputs, when every size is known.
    private let totalBytes: UInt64?
    private let start: Double
    private var lastDraw: Double
    private var drawn = false
    /// Seconds between redraws, at least.
    private static let interval = 0.25
    /// Characters in the bar.
    private static let barWidth = 20

    init(diagnostics: Diagnostics, totalBytes: UInt64?, start: Double) {
        self.diagnostics = diagnostics
        self.totalBytes = totalBytes
        self.start = start
        self.lastDraw = start
    }

    /// Called often: checks the clock, draws only when the interval passed.
    @inline(__always)
    func tick(bytes: @autoclosure () -> UInt64, elements: Int) {
        let now = monotonicSeconds()
        guard now - lastDraw >= Self.interval else { return }
        lastDraw = now
        draw(bytes: bytes(), elements: elements, now: now)
    }

    private func draw(bytes: UInt64, elements: Int, now: Double) {
        let seconds = now - start
        let rate = seconds > 0 ? Double(bytes) / seconds : 0
        var line = "\r\u{1B}[K"
        if let totalBytes, totalBytes > 0 {
            let fraction = min(1, Double(bytes) / Double(totalBytes))
            let filled = Int(fraction * Double(Self.barWidth))
            line += "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: Self.barWidth - filled) + "] "
            line += byteSize(bytes) + " / " + byteSize(totalBytes) + "  " + fixed(fraction * 100, 0) + "%"
            line += "  " + fixed(rate / 1e6, 1) + " MB/s  " + grouped(elements) + " elements"
            if rate > 0 {
                let left = Int((Double(totalBytes - min(bytes, totalBytes)) / rate).rounded())
                line += "  ETA " + Self.clock(left)
            }
        } else {
            line += byteSize(bytes) + "  " + fixed(rate / 1e6, 1) + " MB/s  " + grouped(elements) + " elements"
        }
        diagnostics.write(line)
        drawn = true
    }

    /// Erases the line (before an error message, and at the end).
    func clear() {
        guard drawn else { return }
        diagnostics.write("\r\u{1B}[K")
        drawn = false
    }

    /// `75` → `1:15`, `3725` → `1:02:05`.
    static func clock(_ seconds: Int) -> String {
        let hours = seconds / 3600, minutes = seconds / 60 % 60, secs = seconds % 60
        let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(secs))" : "\(minutes):\(two(secs))"
    }
}

/// An error of one element's filter or of its output, reported in the
/// element's place (`JSONStreamRun.elementFailed`).
protocol ElementFailure: Error {
    /// What follows `error (at …)` in the report.
    var reportTail: String { get }
}

extension ResultFormatter.Problem: ElementFailure {
    var reportTail: String { ": " + description }
}

extension JSONFilterError: ElementFailure {
    /// As jq 1.8.2 writes it: `": message"`, or for `error(v)` with a value
    /// that is not a string, `" (not a string): v"`.
    var reportTail: String {
        if case .string(let text) = value { return ": " + text }
        return " (not a string): " + message.dropLast(" (not a string)".count)
    }
}

/// Why a read or an open failed: `No such file or directory` for a `POSIXError`, not a dump.
func reason(_ error: any Error) -> String {
    openFailure(error) ?? describe(error)
}

/// The system's words for a file that could not be opened or read
/// (`No such file or directory`), also under Foundation's file errors;
/// nil for any other error.
func openFailure(_ error: any Error) -> String? {
    if let posix = error as? POSIXError { return unsafe String(cString: strerror(posix.code.rawValue)) }
    if let cocoa = error as? CocoaError, let underlying = cocoa.underlying { return openFailure(underlying) }
    return nil
}

/// An error's message, without the `DecodingError` wrapping around a syntax error.
func describe(_ error: any Error) -> String {
    if case DecodingError.dataCorrupted(let context) = error {
        if let syntax = context.underlyingError as? JSONSyntaxError { return syntax.description }
        return context.debugDescription
    }
    return "\(error)"
}
