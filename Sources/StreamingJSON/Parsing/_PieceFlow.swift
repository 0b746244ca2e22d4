// SPDX-License-Identifier: Apache-2.0
import Foundation

// Pieces of one input, worked on by several threads, results in order.
//
// The consumer's thread cuts pieces (`_PieceSplitter`) a few ahead and queues
// them; each worker takes the next piece, works on it (parses and decodes, or
// filters) and files the result under the piece's sequence number; the
// consumer takes the results in input order. `jsonstream --threads` and
// `elements(of:)`'s `maxThreads` differ only in the work and in what they do
// with a result.
//
//   consumer:  cut ──▶ waiting ──▶ workers 1…N ──▶ done[sequence] ──▶ consumer, in order
//
// Memory stays bounded: at most `lookahead` pieces (and their results) are
// out at once.

/// What comes next from a `_PieceFlow`.
package enum _PieceStep<Result> {
    /// The next piece's result.
    case result(Result)
    /// From these pieces on (none: from what the splitter holds), the input
    /// is to be read as one stream (`_PieceSplitter.rest(from:)`): the
    /// splitter gave up, reading failed, or a result asked for it.
    case readOn(from: [_InputPiece])
    case end
}

/// The pieces of one input, on their way to the workers and back. The
/// consumer's; its workers hold only the queue, so that letting the flow go
/// stops them.
package final class _PieceFlow<Result> {
    package let splitter: _PieceSplitter
    private let queue = _PieceQueue<Result>()
    private let lookahead: Int
    /// Cut and queued, result not taken yet, in order.
    private var queued: [_InputPiece] = []
    /// Kept for `piecesFromLastTaken()`: the piece whose result was taken last.
    package var keepsLastTaken = false
    private var lastTaken: _InputPiece?
    private var readFailed = false

    /// Starts `threads` workers with `start`, each running the work that
    /// `makeWork` makes for it (once per thread: a worker may keep state).
    /// nil when `start` could not start them all.
    package init?(splitter: _PieceSplitter, threads: Int,
                  start: (@escaping @Sendable () -> Void) -> Bool,
                  makeWork: () throws -> (_InputPiece) -> Result) rethrows {
        self.splitter = splitter
        lookahead = threads + 1
        for _ in 0..<threads {
            let (queue, work) = (self.queue, _Unchecked(try makeWork()))
            guard start({
                while let piece = queue.take() { queue.finish(work.value(piece), sequence: piece.sequence) }
            }) else {
                queue.close()
                return nil
            }
        }
    }

    deinit {
        queue.close()
    }

    /// The next result in input order, waiting for it; `readsAgain` says
    /// which results are not to be used (their piece and the rest are read
    /// as one stream instead).
    package func next(readsAgain: (Result) -> Bool = { _ in false }) -> _PieceStep<Result> {
        fill()
        guard let piece = queued.first else {
            queue.close()
            return splitter.gaveUp || readFailed ? .readOn(from: []) : .end
        }
        let result = queue.result(piece.sequence)
        if readsAgain(result) {
            queue.close()
            return .readOn(from: queued)
        }
        let taken = queued.removeFirst()
        if keepsLastTaken { lastTaken = taken }
        return .result(result)
    }

    /// Stops the workers; the piece whose result was taken last (with
    /// `keepsLastTaken`), then those cut after it, for one stream to read
    /// on from (`_PieceSplitter.rest(from:)`).
    package func piecesFromLastTaken() -> [_InputPiece] {
        queue.close()
        return (lastTaken.map { [$0] } ?? []) + queued
    }

    /// Cuts and queues pieces until `lookahead` are out or the input ends.
    /// A read error ends the cutting; the bytes before it are read with the rest.
    private func fill() {
        while !readFailed && queued.count < lookahead {
            do {
                // A pipe with nothing to read yet: the results out come first.
                guard let piece = try splitter.next(mayWait: queued.isEmpty) else { return }
                queue.put(piece)
                queued.append(piece)
            } catch {
                readFailed = true
            }
        }
    }

    /// The workers stop at their next piece; results not taken are dropped.
    package func close() {
        queue.close()
    }
}

/// The pieces waiting for a worker, and the results by sequence number.
private final class _PieceQueue<Result>: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: [_InputPiece] = []
    private var done: [Int: Result] = [:]
    private var closed = false

    func put(_ piece: _InputPiece) {
        condition.lock()
        waiting.append(piece)
        condition.broadcast()
        condition.unlock()
    }

    /// Worker: the next piece, nil once closed.
    func take() -> _InputPiece? {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty && !closed { condition.wait() }
        return closed ? nil : waiting.removeFirst()
    }

    func finish(_ result: Result, sequence: Int) {
        condition.lock()
        if !closed { done[sequence] = result }
        condition.broadcast()
        condition.unlock()
    }

    /// Consumer: piece `sequence`'s result (waits for it).
    func result(_ sequence: Int) -> Result {
        condition.lock()
        defer { condition.unlock() }
        while done[sequence] == nil { condition.wait() }
        return done.removeValue(forKey: sequence)!
    }

    func close() {
        condition.lock()
        closed = true
        waiting.removeAll()
        done.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}

/// A value handed to another thread that only that thread then uses.
private struct _Unchecked<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
