// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Runs a blocking source on its own thread: the thread fills chunks, the
/// reader copies out of them. At most `chunkCount` chunks are in flight, so
/// memory stays bounded however far the thread could run ahead.
final class _ReadAheadSource: _ByteSource {
    private let queue: _ChunkQueue
    private var current: _Chunk?
    private var offset = 0
    /// Runs on the reader's thread before it waits for a chunk (the hook a
    /// descriptor source had for "a read would block").
    private let beforeWaiting: (() -> Void)?

    static let chunkSize = 256 << 10
    static let chunkCount = 4

    init(running source: some _ByteSource, beforeWaiting: (() -> Void)?) {
        queue = _ChunkQueue(chunks: Self.chunkCount, size: Self.chunkSize)
        self.beforeWaiting = beforeWaiting
        let filler = _ChunkFiller(source: source, queue: queue)
        _ParsingThreads.started()
        let thread = Thread {
            filler.run()
            _ParsingThreads.ended()
        }
        thread.name = "StreamingJSON decompressor"
        thread.start()
    }

    deinit {
        if let current { queue.recycle(current) }
        queue.cancel()
    }

    /// Whether a read would return at once, waiting up to `milliseconds`
    /// for the thread to fill a chunk.
    func isReady(within milliseconds: Int32) -> Bool {
        if let current, offset < current.count || current.isLast { return true }
        return queue.hasReady(within: milliseconds)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if current == nil || offset == current!.count {
            if let current {
                if current.isLast { return try current.end() }
                queue.recycle(current)
            }
            current = queue.takeReady(beforeWaiting: beforeWaiting)
            offset = 0
        }
        let chunk = current!
        if offset == chunk.count { return try chunk.end() }
        let count = min(buffer.count, chunk.count - offset)
        unsafe buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: chunk.bytes[offset..<(offset + count)]))
        offset += count
        return count
    }
}

/// Bytes the thread read, and whether they are the last.
/// Safe: it owns `bytes`, allocated for its whole life.
@safe final class _Chunk {
    let bytes: UnsafeMutableRawBufferPointer
    var count = 0
    /// The source ended (or failed) after these bytes.
    var isLast = false
    var failure: (any Error)?

    init(size: Int) {
        unsafe bytes = .allocate(byteCount: size, alignment: 16)
    }

    deinit {
        unsafe bytes.deallocate()
    }

    /// What a read returns once the last chunk is drained: 0, or the failure.
    func end() throws -> Int {
        if let failure { throw failure }
        return 0
    }
}

/// Free and filled chunks between the two threads.
final class _ChunkQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var free: [_Chunk]
    private var ready: [_Chunk] = []
    private var cancelled = false

    init(chunks: Int, size: Int) {
        free = (0..<chunks).map { _ in _Chunk(size: size) }
    }

    /// Thread: a chunk to fill, or nil once the reader is gone.
    func takeFree() -> _Chunk? {
        condition.lock()
        defer { condition.unlock() }
        while free.isEmpty && !cancelled { condition.wait() }
        return cancelled ? nil : free.removeLast()
    }

    func publish(_ chunk: _Chunk) {
        condition.lock()
        ready.append(chunk)
        condition.broadcast()
        condition.unlock()
    }

    /// Reader: the next chunk in order; `beforeWaiting` runs first when none is ready.
    func takeReady(beforeWaiting: (() -> Void)?) -> _Chunk {
        condition.lock()
        if ready.isEmpty, let beforeWaiting {
            condition.unlock()
            beforeWaiting()
            condition.lock()
        }
        while ready.isEmpty { condition.wait() }
        let chunk = ready.removeFirst()
        condition.unlock()
        return chunk
    }

    /// Reader: whether a chunk is ready, waiting up to `milliseconds` for one.
    func hasReady(within milliseconds: Int32) -> Bool {
        let deadline = Date(timeIntervalSinceNow: Double(max(0, milliseconds)) / 1000)
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && condition.wait(until: deadline) {}
        return !ready.isEmpty
    }

    func recycle(_ chunk: _Chunk) {
        chunk.count = 0
        condition.lock()
        free.append(chunk)
        condition.broadcast()
        condition.unlock()
    }

    /// The reader stopped: the thread ends at its next chunk.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}

/// The thread's side: reads the source into free chunks until it ends, fails
/// or the reader goes away. The source is let go of as soon as it is done.
private final class _ChunkFiller: @unchecked Sendable {
    private var source: (any _ByteSource)?
    private let queue: _ChunkQueue

    init(source: any _ByteSource, queue: _ChunkQueue) {
        self.source = source
        self.queue = queue
    }

    func run() {
        defer { source = nil }
        while let chunk = queue.takeFree() {
            do {
                let count = unsafe try source!.read(into: chunk.bytes)
                chunk.count = max(count, 0)
                chunk.isLast = count <= 0
            } catch {
                chunk.failure = error
                chunk.isLast = true
            }
            let last = chunk.isLast
            queue.publish(chunk)
            if last { return }
        }
    }
}
