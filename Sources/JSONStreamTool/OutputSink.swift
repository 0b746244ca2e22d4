// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why output stopped.
enum OutputError: Error {
    /// The reader went away (`EPIPE`: `jsonstream … | head -1`): stop quietly, exit 0.
    case closed
    /// Any other write failure (a full disk): reported, exit 2.
    case failed(path: String, errno: Int32)
}

/// Bytes on their way to a file descriptor: one reused buffer, written with
/// `write(2)` in blocks of at least `blockSize` bytes.
///
/// Results are appended straight into `buffer` (the writers take it
/// `inout`), so the hot loop allocates nothing for output. `SIGPIPE` must be
/// ignored by the process: a closed pipe then shows up here as `EPIPE`,
/// which becomes `OutputError.closed`.
///
/// While holding (`OutputSink+Holding.swift`), the buffer has two parts:
///
///     buffer:  [ released ........ | held ................ ]
///              0            releasedCount           buffer.count
///
/// Released bytes go to the descriptor as usual. Held bytes wait for
/// `release()` or `discardHeld()`. Where they wait depends on the output
/// (`HoldingPlace`): in a regular file they are written as usual and cut
/// off again by `discardHeld()`; for a pipe or a terminal, past
/// `spillThreshold` they move to an unlinked temporary file, which then
/// holds the oldest held bytes (and nothing released is left in the buffer
/// before them).
final class OutputSink {
    /// Bytes per `write(2)` call, at least.
    static let blockSize = 64 * 1024

    /// Pending bytes. Append, then call `resultEnded()`.
    var buffer: [UInt8] = []
    let descriptor: Int32
    /// For messages: the file's name, or `<stdout>`.
    let name: String
    /// Write after every result (a terminal, `--unbuffered`).
    let flushesEachResult: Bool
    private var ownsDescriptor: Bool
    /// Bytes handed to `write(2)` so far.
    var bytesWritten: UInt64 = 0
    /// Whether results are held back (`hold()`).
    var isHolding = false
    /// Whether they are held in the buffer and the spill file, not written.
    var holdsInMemory: Bool { isHolding && holdingPlace == .spillFile }
    /// While holding: the bytes of `buffer` before the held ones.
    var releasedCount = 0
    /// While holding: held bytes moved out of memory, oldest first.
    var spill: SpillFile?
    /// Where held bytes wait, decided at the first `hold()`.
    var holdingPlace: HoldingPlace?
    /// Holding in the output file: where the held bytes start in it.
    var heldOffset: Int64 = 0

    init(descriptor: Int32, name: String, flushesEachResult: Bool, ownsDescriptor: Bool = false) {
        self.descriptor = descriptor
        self.name = name
        self.flushesEachResult = flushesEachResult
        self.ownsDescriptor = ownsDescriptor
        // Room for a block plus the result that crosses it, so that appends rarely reallocate.
        buffer.reserveCapacity(2 * Self.blockSize)
    }

    /// Creates a file that appears at `path` only when complete: it is
    /// written as `path` + ``partialSuffix`` and renamed by `close()`, so
    /// that a run interrupted (a signal, a full disk) leaves nothing under
    /// the final name that could pass for a whole file.
    convenience init(creatingFileAt path: String) throws {
        let partial = path + Self.partialSuffix
        let fd = unsafe open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputError.failed(path: partial, errno: errno) }
        self.init(descriptor: fd, name: path, flushesEachResult: false, ownsDescriptor: true)
        finalPath = path
    }

    /// Added to a file's name while it is being written.
    static let partialSuffix = ".partial"
    /// Where `close()` moves a file written under a temporary name.
    private var finalPath: String?

    deinit {
        if ownsDescriptor { _ = Self.closeDescriptor(descriptor) }
    }

    /// Call after appending a result: writes when a block is full, or at once
    /// when flushing each result.
    @inline(__always)
    func resultEnded() throws {
        if flushesEachResult || buffer.count >= Self.blockSize { try flush() }
    }

    /// Writes everything pending (while holding: everything released).
    func flush() throws {
        guard !holdsInMemory else { return try flushHolding() }
        guard !buffer.isEmpty else { return }
        defer {
            buffer.removeAll(keepingCapacity: true)
            releasedCount = 0
        }
        unsafe try buffer.withUnsafeBytes { unsafe try writeAll($0) }
    }

    /// Appends many results' bytes at once: written straight from `bytes`,
    /// after what is pending, when they fill a block (no copy into the buffer).
    func append(results bytes: ArraySlice<UInt8>) throws {
        guard !holdsInMemory && buffer.count + bytes.count >= Self.blockSize else {
            buffer.append(contentsOf: bytes)
            if holdsInMemory { try resultEnded() }
            return
        }
        try flush()
        unsafe try bytes.withUnsafeBytes { unsafe try writeAll($0) }
    }

    func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = unsafe write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written >= 0 {
                offset += written
                continue
            }
            switch errno {
            case EINTR: continue
            case EPIPE: throw OutputError.closed
            case let code: throw OutputError.failed(path: name, errno: code)
            }
        }
        bytesWritten += UInt64(offset)
    }

    /// Flushes, then closes a descriptor this sink opened, reporting a failed
    /// close (some file systems report write errors only there).
    func close() throws {
        try release()
        try flush()
        guard ownsDescriptor else { return }
        ownsDescriptor = false  // whatever happens, the deinit must not close it again
        if Self.closeDescriptor(descriptor) != 0 && errno != EINTR {
            throw OutputError.failed(path: name, errno: errno)
        }
        if let finalPath {
            self.finalPath = nil
            guard unsafe rename(finalPath + Self.partialSuffix, finalPath) == 0 else {
                throw OutputError.failed(path: finalPath, errno: errno)
            }
        }
    }

    private static func closeDescriptor(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
        return Glibc.close(fd)
        #else
        return Darwin.close(fd)
        #endif
    }
}
