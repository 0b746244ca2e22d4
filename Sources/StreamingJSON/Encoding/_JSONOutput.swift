// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The bytes being written: all of them for `encode(_:)`, or up to about
/// 256 KiB at a time when a sink takes them as they come; also the
/// encoding tape's scalar text, written by the same methods
/// (`_JSONOutput+Scalars.swift`), so that both encoding paths format alike.
///
/// With a sink, full buffers are written by a second thread
/// (`_BackgroundWriter`) while encoding goes on into the other of two
/// buffers: `write(2)` overlaps encoding, and memory stays at two buffers.
/// The first buffer is written on the caller's thread when it is also the
/// last (small outputs start no thread).
///
/// A class holding a raw `malloc` buffer, so that the direct encoder (whose
/// containers reach it through a reference) appends with plain stores: every
/// access to `base`, `count` and `capacity` is instantaneous (a load or a
/// store, never an `inout` spanning a call), which lets the optimizer drop
/// the run-time exclusivity checks (see `_Growable`).
///
/// Safe: it owns the buffers; a writer stores through `reserve` and then
/// sets `count`, which is `@unsafe` since `base[0..<count]` is what is written out.
@safe final class _JSONOutput {
    private(set) var base: UnsafeMutablePointer<UInt8>
    @unsafe var count = 0
    private(set) var capacity: Int
    let sink: _FileSink?
    static let flushThreshold = 256 * 1024
    /// The buffer the background writer has (or had) while this one fills.
    private var spare: UnsafeMutablePointer<UInt8>?
    private var spareCapacity = 0
    private var writer: _BackgroundWriter?

    init(capacity: Int) {
        sink = nil
        self.capacity = max(capacity, 256)
        unsafe base = unsafe malloc(self.capacity)!.assumingMemoryBound(to: UInt8.self)
    }

    init(sink: _FileSink) {
        self.sink = sink
        capacity = Self.flushThreshold + 64 * 1024
        unsafe base = unsafe malloc(capacity)!.assumingMemoryBound(to: UInt8.self)
    }

    deinit {
        // Waits for a write in flight: the caller may close the descriptor next.
        writer?.stop()
        unsafe free(base)
        if let spare = unsafe spare { unsafe free(spare) }
    }

    /// Room for `n` more bytes; returns where they go. The caller stores
    /// them and then adds what it wrote to `count`.
    @inline(__always)
    func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if unsafe _slowPath(capacity &- count < n) { unsafe grow(toAtLeast: count + n) }
        return unsafe base + count
    }

    @inline(never)
    private func grow(toAtLeast minimum: Int) {
        let newCapacity = max(minimum, capacity * 2)
        unsafe base = unsafe realloc(base, newCapacity)!.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        unsafe reserve(1).pointee = byte
        unsafe count &+= 1
    }

    @inline(__always)
    func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        unsafe reserve(bytes.count).update(from: source, count: bytes.count)
        unsafe count &+= bytes.count
    }

    /// Drops what was written after `mark` (an element that failed to encode).
    @unsafe func truncate(to mark: Int) { unsafe count = mark }

    /// The bytes written so far (valid until the next write).
    var written: UnsafeBufferPointer<UInt8> { unsafe UnsafeBufferPointer(start: base, count: count) }

    @inline(__always)
    func flushIfNeeded() throws {
        if unsafe count >= Self.flushThreshold, sink != nil { try handOver() }
    }

    /// Gives the full buffer to the background writer (after it finished the
    /// previous one, whose failure is thrown here) and goes on in the other.
    private func handOver() throws {
        guard let sink else { return }
        let writer: _BackgroundWriter
        if let running = self.writer {
            writer = running
        } else {
            writer = _BackgroundWriter(sink: sink)
            self.writer = writer
        }
        unsafe try writer.submit(base, count)
        let full = unsafe base
        let fullCapacity = capacity
        if let spare = unsafe spare {
            unsafe base = unsafe spare
            capacity = spareCapacity
        } else {
            unsafe base = unsafe malloc(fullCapacity)!.assumingMemoryBound(to: UInt8.self)
        }
        unsafe spare = unsafe full
        spareCapacity = fullCapacity
        unsafe count = 0
    }

    /// Writes what is buffered to the sink and waits until every byte is
    /// written; a failed write is thrown.
    func flush() throws {
        guard let sink else { return }
        guard let writer else {
            // Nothing went to the background: write here, no thread needed.
            if unsafe count > 0 { unsafe try sink.write(UnsafeRawBufferPointer(start: base, count: count)) }
            unsafe count = 0
            return
        }
        if unsafe count > 0 { try handOver() }
        try writer.waitUntilIdle()
    }

    /// The bytes as `Data`, handing over the buffer without a copy; the
    /// output is empty afterwards.
    func takeData() -> Data {
        if unsafe count == 0 { return Data() }
        let data = unsafe Data(bytesNoCopy: base, count: count, deallocator: .free)
        capacity = 256
        unsafe base = unsafe malloc(capacity)!.assumingMemoryBound(to: UInt8.self)
        unsafe count = 0
        return data
    }
}

/// A thread that writes the buffers `_JSONOutput` hands over, one at a
/// time; the first failure is kept and thrown to the encoding side.
///
/// Safe: the buffer is the caller's, who must keep it until the next
/// `submit`, `waitUntilIdle` or `stop` returns (`submit` takes a pointer,
/// so every call is marked).
@safe final class _BackgroundWriter: @unchecked Sendable {
    private let sink: _FileSink
    private let condition = NSCondition()
    private var pending: (UnsafeMutablePointer<UInt8>, Int)?
    private var failure: (any Error)?
    private var stopping = false
    private var exited = false

    init(sink: _FileSink) {
        self.sink = sink
        let thread = Thread { [self] in run() }
        thread.name = "StreamingJSON writer"
        thread.start()
    }

    private func run() {
        condition.lock()
        while true {
            while unsafe pending == nil, !stopping { condition.wait() }
            guard let (base, count) = unsafe pending else { break }
            let failed = failure != nil
            condition.unlock()
            var error: (any Error)?
            if !failed {
                do {
                    unsafe try sink.write(UnsafeRawBufferPointer(start: base, count: count))
                } catch let thrown {
                    error = thrown
                }
            }
            condition.lock()
            if let error, failure == nil { failure = error }
            unsafe pending = nil
            condition.broadcast()
        }
        exited = true
        condition.broadcast()
        condition.unlock()
    }

    /// Queues `count` bytes at `base` once the previous buffer is written;
    /// throws an earlier write's failure instead.
    func submit(_ base: UnsafeMutablePointer<UInt8>, _ count: Int) throws {
        condition.lock()
        defer { condition.unlock() }
        while unsafe pending != nil { condition.wait() }
        if let failure { throw failure }
        unsafe pending = unsafe (base, count)
        condition.broadcast()
    }

    func waitUntilIdle() throws {
        condition.lock()
        defer { condition.unlock() }
        while unsafe pending != nil { condition.wait() }
        if let failure { throw failure }
    }

    /// Lets the write in flight finish, then ends the thread.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !exited { condition.wait() }
        condition.unlock()
    }
}

/// A file descriptor written with `write(2)`: every failure is thrown.
struct _FileSink {
    let descriptor: Int32

    func write(_ buffer: UnsafeRawBufferPointer) throws {
        // `print` writes standard output through the C library's buffer: what
        // it holds was printed before these bytes and goes out first. (NULL:
        // every stream, since Swift 6 rejects `stdout`, a global C variable.)
        if descriptor == STDOUT_FILENO { fflush(nil) }
        var offset = 0
        while offset < buffer.count {
            let written = unsafe Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
            }
            offset += written
        }
    }
}
