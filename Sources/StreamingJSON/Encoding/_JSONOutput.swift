import Foundation

/// The bytes being written: all of them for `encode(_:)`, or up to about
/// 256 KiB at a time when a sink takes them as they come.
///
/// A class holding a raw `malloc` buffer, so that the direct encoder (whose
/// containers reach it through a reference) appends with plain stores: every
/// access to `base`, `count` and `capacity` is instantaneous (a load or a
/// store, never an `inout` spanning a call), which lets the optimizer drop
/// the run-time exclusivity checks (see `_Growable`).
final class _JSONOutput: _ByteAppending {
    private(set) var base: UnsafeMutablePointer<UInt8>
    var count = 0
    private(set) var capacity: Int
    let sink: _FileSink?
    static let flushThreshold = 256 * 1024

    init(capacity: Int) {
        sink = nil
        self.capacity = max(capacity, 256)
        base = malloc(self.capacity)!.assumingMemoryBound(to: UInt8.self)
    }

    init(sink: _FileSink) {
        self.sink = sink
        capacity = Self.flushThreshold + 64 * 1024
        base = malloc(capacity)!.assumingMemoryBound(to: UInt8.self)
    }

    deinit { free(base) }

    /// Room for `n` more bytes; returns where they go. The caller stores
    /// them and then adds what it wrote to `count`.
    @inline(__always)
    func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(capacity &- count < n) { grow(toAtLeast: count + n) }
        return base + count
    }

    @inline(never)
    private func grow(toAtLeast minimum: Int) {
        let newCapacity = max(minimum, capacity * 2)
        base = realloc(base, newCapacity)!.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1).pointee = byte
        count &+= 1
    }

    @inline(__always)
    func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count).update(from: source, count: bytes.count)
        count &+= bytes.count
    }

    /// Drops what was written after `mark` (an element that failed to encode).
    func truncate(to mark: Int) { count = mark }

    @inline(__always)
    func flushIfNeeded() throws {
        if count >= Self.flushThreshold, sink != nil { try flush() }
    }

    /// Writes what is buffered to the sink.
    func flush() throws {
        guard let sink, count > 0 else { return }
        try sink.write(UnsafeRawBufferPointer(start: base, count: count))
        count = 0
    }

    /// The bytes as `Data`, handing over the buffer without a copy; the
    /// output is empty afterwards.
    func takeData() -> Data {
        if count == 0 { return Data() }
        let data = Data(bytesNoCopy: base, count: count, deallocator: .free)
        capacity = 256
        base = malloc(capacity)!.assumingMemoryBound(to: UInt8.self)
        count = 0
        return data
    }
}

/// A file descriptor written with `write(2)`: every failure is thrown.
struct _FileSink {
    let descriptor: Int32

    func write(_ buffer: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < buffer.count {
            let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
            }
            offset += written
        }
    }
}
