// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

// Parsing on a second core.
//
// For large inputs, yajl runs on a producer thread while the caller's thread
// decodes. The producer is an ordinary single-threaded `_ElementStream`; after
// each chunk it moves the elements that chunk completed into a *batch* (a tape
// with no parser behind it) and publishes it. The decoding thread's stream
// appends each batch to its own tape, which has the same C layout, so the
// decoder, absolute indices and the trail-by-one rule work unchanged.
//
//   producer:  read chunk → yajl → tape ──move──▶ batch ─┐
//   decoder:   ◀──move── batch ◀── ready queue ◀─────────┘  (3 batches, recycled)
//
// Memory stays bounded: at most three batches (one chunk's elements each)
// are in flight besides the two tapes. Wall-clock time becomes that of the
// slower side instead of the sum of both.

/// One chunk's worth of complete elements, handed from the producer to the decoder.
final class _Batch {
    let tape: _TapeParser
    /// Offsets of the line breaks in the bytes this batch covers.
    var newlines: [UInt64] = []
    /// Input offset after the bytes this batch covers.
    var end: UInt64 = 0
    var failure: (any Error)?
    /// Errors that end one value only (JSON Lines), by element ordinal.
    var pendingErrors: [(ordinal: Int, error: any Error)] = []
    var finished = false
    var mode: _StreamMode?
    var streamsRootArray = false
    /// The batch's last elements, decoded on the parsing thread (`_DecodeAhead.swift`).
    var decodedAhead: _DecodedElements?

    init() {
        tape = _TapeParser(tapeOnly: ())
    }
}

/// The two queues between the threads: free batches and ready ones.
final class _BatchQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var free: [_Batch]
    private var ready: [_Batch] = []
    private var cancelled = false
    /// Sixteenths of each batch that the producer decodes ahead, when it
    /// decodes ahead at all (`_DecodeAhead.swift`): one more each time it
    /// finds no free batch, one fewer each time the decoder finds no ready one.
    private var decodeAheadShare = 0
    private var decoderStarted = false

    init(batches: Int) {
        free = (0..<batches).map { _ in _Batch() }
    }

    /// Producer: an empty batch to fill, or nil once the decoder is gone; and
    /// the share of it to decode ahead, in sixteenths.
    func takeFree() -> (batch: _Batch, decodeAheadShare: Int)? {
        condition.lock()
        defer { condition.unlock() }
        if free.isEmpty && !cancelled { decodeAheadShare = min(decodeAheadShare + 1, 16) }
        while free.isEmpty && !cancelled { condition.wait() }
        return cancelled ? nil : (free.removeLast(), decodeAheadShare)
    }

    func publish(_ batch: _Batch) {
        condition.lock()
        ready.append(batch)
        condition.broadcast()
        condition.unlock()
    }

    /// Decoder: the next batch, in order (waits for the producer).
    func takeReady() -> _Batch {
        condition.lock()
        defer { condition.unlock() }
        // (Waiting for the first batch says nothing about the balance.)
        if ready.isEmpty && decoderStarted { decodeAheadShare = max(decodeAheadShare - 1, 0) }
        decoderStarted = true
        while ready.isEmpty { condition.wait() }
        return ready.removeFirst()
    }

    func recycle(_ batch: _Batch) {
        batch.decodedAhead = nil
        batch.newlines.removeAll(keepingCapacity: true)
        batch.pendingErrors.removeAll()
        batch.failure = nil
        condition.lock()
        free.append(batch)
        condition.broadcast()
        condition.unlock()
    }

    /// The decoder stopped early: the producer ends at its next chunk.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}

/// Hands the producer stream to its thread.
private struct _Producer: @unchecked Sendable {
    let stream: _ElementStream
    let queue: _BatchQueue
    let ahead: (any _DecodingAhead)?

    func run() {
        while let (batch, balance) = queue.takeFree() {
            stream.advance()
            if let ahead { batch.decodedAhead = ahead.decodeAhead(balance: balance, of: stream) }
            if !stream.moveCompleteElements(to: batch.tape) && stream.failure == nil {
                batch.failure = DecodingError.dataCorrupted(.init(
                    codingPath: [], debugDescription: "Out of memory while handing elements to the decoder"))
            }
            stream.forwardNewlines(into: &batch.newlines)
            stream.forwardPendingErrors(into: &batch.pendingErrors)
            batch.end = stream.bytesRead
            batch.failure = batch.failure ?? stream.failure
            batch.finished = stream.isFinished
            batch.mode = stream.mode
            batch.streamsRootArray = stream.streamsRootArray
            let done = batch.failure != nil || batch.finished
            queue.publish(batch)
            if done { return }
        }
    }
}

/// The producer, let go as soon as it returns: the thread's closure (and
/// whatever holds it) may outlive the run.
private final class _ProducerHolder: @unchecked Sendable {
    private var producer: _Producer?

    init(_ producer: _Producer) {
        self.producer = producer
    }

    func run() {
        producer?.run()
        producer = nil
    }
}

/// Counts the parsing threads that still hold their stream. A test hook: a
/// leak check right after an iteration (libFuzzer's, per input) must wait
/// for the thread of that iteration to let go of the source and its values,
/// which it does at its next batch after the iterator is dropped.
enum _ParsingThreads {
    private static let lock = NSCondition()
    nonisolated(unsafe) private static var running = 0

    static func started() {
        lock.lock()
        unsafe running += 1
        lock.unlock()
    }

    static func ended() {
        lock.lock()
        unsafe running -= 1
        lock.broadcast()
        lock.unlock()
    }

    /// Waits until no parsing thread holds a stream, or `timeout` seconds;
    /// returns whether none does.
    @discardableResult
    static func waitUntilNoneRunning(timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock()
        defer { lock.unlock() }
        while unsafe running > 0 && lock.wait(until: deadline) {}
        return unsafe running == 0
    }
}

extension _ElementStream {
    /// Starts parsing `source` on a new thread; returns the queue to read batches from.
    static func startProducer(source: any _ByteSource, mode: _StreamMode?, path: [String],
                              limits: _ParserLimits, ahead: (any _DecodingAhead)?) -> _BatchQueue {
        let producerStream = _ElementStream(source: source, mode: mode, path: path, limits: limits,
                                            forwardsNewlines: true, chunkSize: pipelinedChunkSize)
        let queue = _BatchQueue(batches: 3)
        let producer = _ProducerHolder(_Producer(stream: producerStream, queue: queue, ahead: ahead))
        _ParsingThreads.started()
        let thread = Thread {
            producer.run()
            _ParsingThreads.ended()
        }
        thread.name = "StreamingJSON parser"
        // It may run `init(from:)`, as deep as the caller's thread could
        // (macOS gives secondary threads 512 KiB by default).
        if ahead != nil { thread.stackSize = 8 << 20 }
        thread.start()
        return queue
    }

    /// Producer side: moves the elements completed so far into `tape`.
    func moveCompleteElements(to tape: _TapeParser) -> Bool {
        guard let parser else { return true }
        return unsafe sj_parser_move_complete(parser.state, tape.state) != 0
    }
}
