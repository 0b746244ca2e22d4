// SPDX-License-Identifier: Apache-2.0
import Foundation
import JSONFilter
import StreamingJSON

// Filtering a large file on several cores.
//
// The main thread cuts the file into pieces of about 512 KiB at element
// boundaries (`_PieceSplitter`) and queues them. Each worker thread parses a
// piece with its own parser, runs its own copy of the filter on every
// element, and writes the results into the piece's own buffer, noting where
// among them each error falls. The main thread takes the finished pieces in
// input order, writes their bytes and reports their errors as the one reader
// would have at that point, element indexes counted on from the pieces before.
// An error that ends the input ends it there: later pieces are dropped.
//
//   main:     read, cut ──▶ waiting ──▶ workers 1…N ──▶ finished[sequence]
//   main:     ◀── write, report, in order ───────────────────────┘
//
// Memory stays bounded: at most `2N + 1` pieces (their input and results)
// are out at once.

/// What a worker made of one piece.
struct PieceResult: @unchecked Sendable {
    /// An error among the results, reported by the main thread in order.
    enum Event {
        /// The filter failed on element `index` (of the piece).
        case runtimeError(message: String, index: Int, line: Int?, column: Int?)
        /// An error of the reader's, with the reader's `index` then (of the piece).
        case readProblem(_ValueReader.Event, index: Int)
    }

    let sequence: Int
    let isArray: Bool
    /// A JSON Lines piece (not the last) that ended inside a value: it was
    /// cut where the scan was fooled by a malformed line before, and it and
    /// the pieces after it must be read again as one stream.
    var endsInsideValue = false
    /// Bytes of the input up to the end of the piece.
    let inputEnd: UInt64
    var output: [UInt8] = []
    /// Each error, after the first `offset` bytes of `output`.
    var events: [(offset: Int, event: Event)] = []
    /// Elements read, counting those lost to errors: the next piece's first index.
    var elements = 0
    var values = 0
    var results = 0
}

/// One worker thread's parser options, filter and output layout.
final class PieceWorker: @unchecked Sendable {
    private let filter: JSONFilter
    let context = JSONFilterContext()
    private var formatter: ResultFormatter
    private let layout: JSONStreamRun.ElementOutput
    private let limits: _ParserLimits
    private let projection: _Projection?
    private let skips: Bool

    init(run: JSONStreamRun) throws {
        filter = try run.filter.independentCopy()
        context.namedArguments = run.context.namedArguments
        formatter = run.formatter
        layout = run.elementOutput
        limits = run.options.limits
        projection = run.projection
        skips = run.options.errorPolicy == .skip
    }

    /// Reads `piece`, runs the filter on each element and keeps the results.
    /// `output`: an empty buffer to write the results into (one of an
    /// earlier piece's, kept for its capacity).
    func process(_ piece: _InputPiece, output: [UInt8]) -> PieceResult {
        let reader = _ValueReader(piece: piece, limits: limits, projection: projection)
        if case .filtered = layout {} else { reader.buildsValues = false }
        var result = PieceResult(sequence: piece.sequence, isArray: piece.isArray, inputEnd: piece.inputEnd,
                                 output: output)
        reading: while true {
            let event = reader.next()
            switch event {
            case .value(let value):
                result.values += 1
                if let message = apply(to: value, reader: reader, into: &result) {
                    let position = reader.elementPosition()
                    result.events.append((result.output.count, .runtimeError(
                        message: message, index: reader.index, line: position?.line, column: position?.column)))
                    // A runtime error stops an array (see `readAll`).
                    if piece.isArray && !skips { break reading }
                }
            case .elementError(_, let isLimit):
                result.events.append((result.output.count, .readProblem(event, index: reader.index)))
                if !isLimit && !skips { break reading }
            case .syntaxError, .readError:
                // In JSON Lines only the end of the input is a syntax error.
                result.endsInsideValue = !piece.isArray && !piece.isLast
                result.events.append((result.output.count, .readProblem(event, index: reader.index)))
                break reading
            case .end:
                break reading
            case .mark, .member, .key:
                continue  // only when following roots or making events
            }
        }
        result.elements = reader.index + 1
        return result
    }

    /// The element's results, appended; the runtime error's message if the filter failed.
    private func apply(to value: JSONValue, reader: _ValueReader, into result: inout PieceResult) -> String? {
        do {
            switch layout {
            case .copied:
                formatter.append(from: reader, into: &result.output)
                result.results += 1
            case .selected(let members):
                let reduced = reader.lastElementValue(keeping: members)
                try filter.apply(to: reduced, context: context) { _ in
                    formatter.append(from: reader, into: &result.output)
                    result.results += 1
                }
            case .filtered:
                try filter.apply(to: value, context: context) { value in
                    try formatter.append(value, into: &result.output)
                    result.results += 1
                }
            }
        } catch let error as JSONFilterError {
            return error.message
        } catch let error as ResultFormatter.Problem {
            return error.description
        } catch {
            return "\(error)"
        }
        return nil
    }
}

/// The pieces between the main thread and the workers.
final class PieceQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: [_InputPiece] = []
    private var finished: [Int: PieceResult] = [:]
    private var closed = false
    /// Output buffers written out, for the next pieces' results.
    private var spareOutputs: [[UInt8]] = []

    func put(_ piece: _InputPiece) {
        condition.lock()
        waiting.append(piece)
        condition.broadcast()
        condition.unlock()
    }

    /// Worker: the next piece to read and a buffer for its results, nil
    /// once the queue is closed.
    func take() -> (piece: _InputPiece, output: [UInt8])? {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty && !closed { condition.wait() }
        return closed ? nil : (waiting.removeFirst(), spareOutputs.popLast() ?? [])
    }

    /// Main thread: a result's buffer, written out.
    func recycle(_ output: [UInt8]) {
        var output = output
        output.removeAll(keepingCapacity: true)
        condition.lock()
        spareOutputs.append(output)
        condition.unlock()
    }

    func finish(_ result: PieceResult) {
        condition.lock()
        finished[result.sequence] = result
        condition.broadcast()
        condition.unlock()
    }

    /// Main thread: piece `sequence`'s result (waits for it).
    func result(_ sequence: Int) -> PieceResult {
        condition.lock()
        defer { condition.unlock() }
        while finished[sequence] == nil { condition.wait() }
        return finished.removeValue(forKey: sequence)!
    }

    /// The workers stop at their next `take()`; pieces not read are dropped.
    func close() {
        condition.lock()
        closed = true
        waiting.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}

extension JSONStreamRun {
    /// The threads for `readAll` to filter large files with, when the run
    /// allows it: nil for one thread.
    func parallelWorkers() -> [PieceWorker]? {
        let threads = options.threads ?? ProcessInfo.processInfo.activeProcessorCount
        guard threads > 1, runsElementsApart else { return nil }
        return try? (0..<threads).map { _ in try PieceWorker(run: self) }
    }

    /// Whether each element's results can be made apart from the others and
    /// joined in order: element-wise filtering of whole elements into plain
    /// output, nothing read, written or decided across elements.
    private var runsElementsApart: Bool {
        !options.jqMode && !options.slurp && !options.nullInput && !options.rawInput && !makesEvents
            && streamIdiom == nil && plan == nil && slurpPlan == nil && options.path.isEmpty
            && split == nil && options.limit == nil && !options.exitStatus && !sink.flushesEachResult
            && formatter.writesEachResultAlone && !readsFurtherInputs && filter.isElementLocal
    }

    /// Filters `file` with `workers`, if it is a regular file of at least
    /// two pieces that can be cut; false (nothing read) otherwise.
    func readInParallel(_ file: String, workers: [PieceWorker]) throws -> Bool {
        let pieceSize = options.pieceSize ?? _PieceSplitter.defaultPieceSize
        guard file != "-",
              let splitter = try? _PieceSplitter(contentsOfFile: file, format: streamFormat, pieceSize: pieceSize),
              let size = splitter.size, size >= UInt64(2 * pieceSize),
              (try? splitter.prepare()) == true else { return false }
        let queue = PieceQueue()
        defer { queue.close() }
        for worker in workers {
            worker.context.inputFilename = .string(file)
            let started = startOnLargeStack {
                while let (piece, output) = queue.take() { queue.finish(worker.process(piece, output: output)) }
            }
            if !started { return false }
        }
        inputs.name = file
        inputs.unitStarted = false
        context.inputFilename = .string(file)
        switch try filterPieces(from: splitter, queue: queue, lookahead: workers.count + 1) {
        case .ended:
            counters.bytesOfFinishedInputs += splitter.bytesRead
        case .readOn(let pieces, let index):
            // The rest is read here, as one stream, by `readAll`.
            inputs.reader = splitter.readerForTheRest(from: pieces, limits: options.limits, projection: projection,
                                                      firstIndex: index)
        }
        return true
    }

    /// How `filterPieces` left the input.
    private enum PiecesOutcome {
        case ended
        /// To be read on in one stream from these pieces (if any) and element index.
        case readOn(from: [_InputPiece], index: Int)
    }

    /// The main thread's loop: cut and queue pieces ahead, write the results
    /// in order. Returns the index of the next element, when the input has
    /// not ended (the splitter gave up before its end).
    private func filterPieces(from splitter: _PieceSplitter, queue: PieceQueue,
                              lookahead: Int) throws -> PiecesOutcome {
        var queued: [_InputPiece] = []  // handed to the workers, not written yet
        var written = 0, indexBase = 0
        var last: Int?
        var readError: (any Error)?
        var isArray = false
        while true {
            while last == nil && queued.count < lookahead {
                do {
                    guard let piece = try splitter.next() else { break }
                    queue.put(piece)
                    queued.append(piece)
                    if piece.isLast { last = piece.sequence }
                } catch {
                    readError = error
                    last = written + queued.count - 1
                }
            }
            // The bytes read before a cut was found, then the rest of the
            // input or the read error: read in one stream.
            if queued.isEmpty && (splitter.gaveUp || readError != nil) { return .readOn(from: [], index: indexBase) }
            if let last, written > last { break }
            let result = queue.result(written)
            if result.endsInsideValue { return .readOn(from: queued, index: indexBase) }
            written += 1
            queued.removeFirst()
            isArray = result.isArray
            guard try write(result, indexBase: &indexBase) else { return .ended }
            queue.recycle(result.output)
            progress?.tick(bytes: counters.bytesOfFinishedInputs + splitter.bytesRead, elements: counters.elementsIn)
        }
        handleReadProblem(.end, index: indexBase - 1, isArray: isArray)
        return .ended
    }

    /// Writes a piece's results and reports its errors; false when one of
    /// them ends the input.
    private func write(_ result: PieceResult, indexBase: inout Int) throws -> Bool {
        counters.elementsIn += result.values
        counters.resultsOut += result.results
        var done = 0
        for (offset, event) in result.events {
            try writeOutput(result.output[done..<offset])
            done = offset
            switch event {
            case .runtimeError(let message, let index, let line, let column):
                elementFailed(message, at: ElementLocation(file: inputs.name, index: indexBase + index,
                                                           line: line, column: column))
                if result.isArray && options.errorPolicy != .skip {
                    closeCurrentInput()
                    return false
                }
            case .readProblem(let problem, let index):
                if !handleReadProblem(problem, index: indexBase + index, isArray: result.isArray) { return false }
            }
        }
        try writeOutput(result.output[done...])
        indexBase += result.elements
        return true
    }

    private func writeOutput(_ bytes: ArraySlice<UInt8>) throws {
        guard !bytes.isEmpty else { return }
        try sink.append(results: bytes)
    }
}
