// SPDX-License-Identifier: Apache-2.0
import Foundation

// Decoding ahead on the parsing thread.
//
// A pipelined stream (`_ParsePipeline.swift`) splits the work in two: yajl
// on the parsing thread, `init(from:)` on the caller's. For record-like
// elements decoding costs more than parsing, so the parsing thread would
// spend much of its time waiting for a free batch. When it would wait, it
// decodes instead: the last elements of the batch it is about to
// publish, into a `_DecodedElements` block that travels with the batch.
// The caller's thread decodes the rest as before and takes these as they come.
//
//   parsing thread:  parse chunk → decode its last k elements → publish batch
//   caller's thread: receive batch → decode elements 0..<n-k, take n-k..<n
//
// k follows the queue (`_BatchQueue.decodeAheadShare`): it grows each time the
// parsing thread finds no free batch (it is ahead), and shrinks each time the
// caller's thread finds no ready one (it is starved), so the two threads end
// up about equally busy.
//
// Only for `T: Sendable`. Such a value may cross threads, and its
// conformance is not isolated to an actor (`Sendable` implies
// `SendableMetatype`), so `init(from:)` may run on any thread: the language's
// own rule for calling it off the caller's. `elements(of:)` picks this for
// `Sendable` types by overload; a type that is not `Sendable` is decoded on
// the caller's thread only. What decoding ahead changes is visible only to an
// `init(from:)` with side effects: it may run on the parsing thread, at the
// same time as the caller's loop body, and for up to a few batches of
// elements past the one the loop stops at.

/// Decodes elements of the parsing thread's tape ahead of the caller.
/// Created by a `Sendable` overload of `elements(of:)`, used by one pipeline.
protocol _DecodingAhead: AnyObject {
    /// Decodes the last complete elements on `stream`'s tape (the parsing
    /// thread's, before they move to a batch): `balance` sixteenths of them,
    /// rounded, unless a test fixed the share (`decodeAheadShare`). Nil when
    /// that is none.
    func decodeAhead(balance: Int, of stream: _ElementStream) -> _DecodedElements?
}

/// Elements decoded ahead: a run of consecutive ordinals, each a value or the
/// error decoding it threw, taken once each by the caller's thread.
class _DecodedElements {
    /// The ordinal of the first element (as the caller's stream counts them).
    let firstOrdinal: Int
    let count: Int

    init(firstOrdinal: Int, count: Int) {
        self.firstOrdinal = firstOrdinal
        self.count = count
    }

    func covers(_ ordinal: Int) -> Bool {
        ordinal >= firstOrdinal && ordinal < firstOrdinal + count
    }
}

/// `_DecodedElements` of one type. The values live in raw storage moved out
/// by `take`, so that reading one costs no run-time metadata look-up (an
/// array of `Result<T, any Error>` needed one per access in unspecialized code).
///
/// Safe: it owns that storage and deinitializes what it holds; `take`
/// checks its index. `store` does not, hence `@unsafe`.
@safe final class _DecodedElementsOf<T>: _DecodedElements {
    private let values: UnsafeMutablePointer<T>
    /// Per element: 0 nothing yet, 1 a value in `values`, 2 an error in `errors`, 3 taken.
    private let states: UnsafeMutablePointer<UInt8>
    private var errors: [Int: any Error] = [:]

    override init(firstOrdinal: Int, count: Int) {
        unsafe values = .allocate(capacity: max(count, 1))
        unsafe states = .allocate(capacity: max(count, 1))
        unsafe states.initialize(repeating: 0, count: max(count, 1))
        super.init(firstOrdinal: firstOrdinal, count: count)
    }

    deinit {
        for index in 0..<count where unsafe states[index] == 1 {
            unsafe (values + index).deinitialize(count: 1)
        }
        unsafe values.deallocate()
        unsafe states.deallocate()
    }

    /// (Consuming: the value moves in. A copy would retain each of its
    /// references, and releasing the original undo that: atomic operations.)
    /// `index` must be in `0..<count` and not stored yet: unchecked.
    @unsafe func store(_ value: consuming T, at index: Int) {
        unsafe (values + index).initialize(to: value)
        unsafe states[index] = 1
    }

    @unsafe func store(_ error: any Error, at index: Int) {
        errors[index] = error
        unsafe states[index] = 2
    }

    /// The value of element `ordinal`, or the error that decoding it threw.
    func take(_ ordinal: Int) throws -> T {
        let index = ordinal - firstOrdinal
        unsafe precondition(index >= 0 && index < count && (states[index] == 1 || states[index] == 2),
                            "element \(ordinal) was not decoded ahead, or was taken already")
        if unsafe states[index] == 2 {
            unsafe states[index] = 3
            throw errors.removeValue(forKey: index)!
        }
        unsafe states[index] = 3
        return unsafe (values + index).move()
    }
}

/// The parsing thread's decoder for `T`: its own `_TapeDecoder` (and
/// container shelf) over the parsing thread's tape, made at the first use.
final class _AheadDecoder<T: Decodable & Sendable>: _DecodingAhead {
    private let options: _DecodingOptions
    private var decoder: _TapeDecoder?
    /// Keeps the decoder's container shelf in use while this lives.
    private var shelfScope: _ContainerShelfScope?

    init(options: _DecodingOptions) {
        self.options = options
    }

    func decodeAhead(balance: Int, of stream: _ElementStream) -> _DecodedElements? {
        let onTape = stream.elementsOnTape
        let count = (onTape * (options.decodeAheadShare ?? balance) + 8) / 16
        guard count > 0 else { return nil }
        let decoder = self.decoder ?? makeDecoder(stream)
        // The elements on the tape are the last `onTape` completed.
        let firstOrdinal = stream.elementsCompleted - count
        let block = _DecodedElementsOf<T>(firstOrdinal: firstOrdinal, count: count)
        for offset in 0..<count {
            do {
                let start = unsafe stream.tokenBase + stream.parser.elementStart(onTape - count + offset)
                let (index, path) = try decoder.streamedElement(at: start, ordinal: firstOrdinal + offset, under: .root)
                unsafe block.store(try decoder.decodeStreamedElement(T.self, at: index, path: path), at: offset)
            } catch {
                unsafe block.store(error, at: offset)
            }
        }
        return block
    }

    private func makeDecoder(_ stream: _ElementStream) -> _TapeDecoder {
        let decoder = _TapeDecoder(stream: stream, options: options)
        shelfScope = decoder.shelfScope()
        self.decoder = decoder
        return decoder
    }
}
