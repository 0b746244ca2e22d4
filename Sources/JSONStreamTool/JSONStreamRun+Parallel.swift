// SPDX-License-Identifier: Apache-2.0
import Foundation
import JSONFilter
import StreamingJSON

// Filtering a large file on several cores.
//
// The main thread cuts the file into pieces of about 512 KiB at element
// boundaries (`_PieceSplitter`); each worker thread parses a piece with its
// own parser, runs its own copy of the filter on every element, and writes
// the results into the piece's own buffer, noting where among them each
// error falls (`_PieceFlow` hands the pieces round). The main thread takes
// the finished pieces in input order, writes their bytes and reports their
// errors as the one reader would have at that point, element indexes counted
// on from the pieces before. An error that ends the input ends it there:
// later pieces are dropped.

/// What a worker made of one piece.
struct PieceResult: @unchecked Sendable {
    /// An error among the results, reported by the main thread in order.
    enum Event {
        /// The filter failed on element `index` (of the piece).
        case runtimeError(tail: String, index: Int, line: Int?, column: Int?)
        /// An error of the reader's, with the reader's `index` then (of the piece).
        case readProblem(_ValueReader.Event, index: Int)
        /// Where a table's header goes, unless written before; the columns
        /// the piece's first object set, if it set them.
        case tableHeader(keys: [String]?)
    }

    let isArray: Bool
    /// A piece (not the last) that ended inside a value: JSON Lines cut
    /// where the scan was fooled by a malformed line before, or an array
    /// whose damage left no element within the piece; or an array's piece
    /// with a malformed element, after which the scan's cuts cannot be
    /// trusted (a lost quote turns strings inside out). It and the pieces
    /// after it must be read again as one stream, which resumes after the
    /// damage where the structure says.
    var endsInsideValue = false
    var output: [UInt8] = []
    /// Each error, after the first `offset` bytes of `output`.
    var events: [(offset: Int, event: Event)] = []
    /// Elements read, counting those lost to errors: the next piece's first index.
    var elements = 0
    var values = 0
    var results = 0
    /// An object along the path has the path's key twice (in the tail of
    /// the document, after the array): jq would keep the last one.
    var repeatsPathKey = false

    /// A table's columns as the piece's first object set them (`TableWriter`).
    var tableKeys: [String]? {
        for (_, event) in events { if case .tableHeader(let keys) = event { return keys } }
        return nil
    }
}

/// One worker thread's parser options, filter and output layout.
final class PieceWorker: @unchecked Sendable {
    private let filter: JSONFilter
    let context = JSONFilterContext()
    // Unchecked: used for every element, where a dynamic exclusivity check
    // is a runtime call; only this worker's thread touches it.
    @exclusivity(unchecked) private var formatter: ResultFormatter
    private let layout: JSONStreamRun.ElementOutput
    private let limits: _ParserLimits
    private let projection: _Projection?
    private let skips: Bool

    init(run: JSONStreamRun) throws {
        // `--jq '.[] | F'`: each element goes through `F`, as `jsonstream F` runs it.
        filter = try (run.eachElement?.filter ?? run.filter).independentCopy()
        context.namedArguments = run.context.namedArguments
        unsafe formatter = run.formatter
        layout = run.elementOutput(of: filter, inPieces: true)
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
        var result = PieceResult(isArray: piece.isArray, output: output)
        unsafe formatter.beginPiece()
        reading: while true {
            let event = reader.next()
            switch event {
            case .value(let value):
                result.values += 1
                if let tail = apply(to: value, reader: reader, into: &result) {
                    let position = reader.elementPosition()
                    result.events.append((result.output.count, .runtimeError(
                        tail: tail, index: reader.index, line: position?.line, column: position?.column)))
                    // A runtime error stops an array (see `readAll`).
                    if piece.isArray && !skips { break reading }
                }
            case .elementError(_, let isLimit):
                if piece.isArray && !isLimit && skips {
                    result.endsInsideValue = true
                    break reading
                }
                result.events.append((result.output.count, .readProblem(event, index: reader.index)))
                if !isLimit && !skips { break reading }
            case .syntaxError, .readError:
                // Only at the end of the input can the stream not go on: a
                // piece before it was cut in the wrong place (JSON Lines
                // after a malformed line), or its damage leaves no element
                // within it (an array): read again from it in one stream.
                if case .syntaxError = event { result.endsInsideValue = !piece.isLast }
                result.events.append((result.output.count, .readProblem(event, index: reader.index)))
                break reading
            case .end:
                break reading
            case .mark, .member, .key:
                continue  // only when following roots or making events
            }
        }
        result.elements = reader.index + 1
        result.repeatsPathKey = reader.metRepeatedPathKey
        return result
    }

    /// The element's results, appended; the runtime error's report (`elementFailed`'s tail) if the filter failed.
    private func apply(to value: JSONValue, reader: _ValueReader, into result: inout PieceResult) -> String? {
        do {
            switch layout {
            case .copied:
                unsafe formatter.append(from: reader, into: &result.output)
                result.results += 1
            case .selected(let selection):
                try selection.forEachOutput(of: reader, context: context) {
                    unsafe formatter.append(from: reader, into: &result.output)
                    result.results += 1
                }
            case .members(let layout, let selection):
                let written = try JSONStreamRun.forEachMembersOutput(of: reader, selection: selection,
                                                                     context: context) {
                    guard unsafe formatter.append(members: layout, from: reader, into: &result.output) != nil else {
                        return false
                    }
                    result.results += 1
                    return true
                }
                if !written {
                    try filter.apply(to: reader.lastElementValue(keeping: nil), context: context) { value in
                        try unsafe formatter.append(value, into: &result.output)
                        result.results += 1
                    }
                }
            case .filtered:
                try filter.apply(to: value, context: context) { value in
                    let start = result.output.count
                    try unsafe formatter.append(value, into: &result.output)
                    result.results += 1
                    let header = unsafe formatter.takeTableHeaderMark()
                    if header.marked { result.events.append((start, .tableHeader(keys: header.pieceKeys))) }
                }
            }
        } catch let error as any ElementFailure {
            return error.reportTail
        } catch {
            return ": \(error)"
        }
        return nil
    }
}

/// Result buffers written out, kept for the next pieces' results.
final class SpareOutputs: @unchecked Sendable {
    private let lock = NSLock()
    private var buffers: [[UInt8]] = []

    func take() -> [UInt8] {
        lock.withLock { buffers.popLast() } ?? []
    }

    func recycle(_ output: [UInt8]) {
        var output = output
        output.removeAll(keepingCapacity: true)
        lock.withLock { buffers.append(output) }
    }
}

/// The workers' filters, made when a file first turns out large enough
/// to cut: a run on a small file makes none.
final class PieceWorkers {
    private var make: (() throws -> [PieceWorker])?
    private var workers: [PieceWorker]?

    init(make: @escaping () throws -> [PieceWorker]) {
        self.make = make
    }

    /// The workers, made on the first call; nil when there are not two or
    /// they cannot be made (one thread reads then).
    func made() -> [PieceWorker]? {
        if let make {
            self.make = nil
            workers = (try? make()).flatMap { $0.count > 1 ? $0 : nil }
        }
        return workers
    }
}

extension JSONStreamRun {
    /// The threads for `readAll` to filter large files with, when the run
    /// allows it: nil for one thread.
    /// `--threads 1`: reading, decompressing, parsing and filtering all on
    /// the main thread, nothing beside it.
    var runsOnOneThread: Bool { options.threads == 1 }

    func parallelWorkers() -> PieceWorkers? {
        // A piece of a plan is one process's share already: one thread reads it.
        guard options.threads != 1, runsElementsApart, options.piece == nil else { return nil }
        return PieceWorkers { [unowned self] in
            // The cores are counted only for a file large enough to cut.
            let threads = options.threads ?? ProcessInfo.processInfo.activeProcessorCount
            guard threads > 1 else { return [] }
            return try (0..<threads).map { _ in try PieceWorker(run: self) }
        }
    }

    /// Whether each element's results can be made apart from the others and
    /// joined in order: element-wise filtering of whole elements into plain
    /// output, nothing read, written or decided across elements.
    private var runsElementsApart: Bool {
        // `--jq`: each top-level value (no plan), or `.[] | F` on a root array.
        (plan == nil || eachElement != nil)
            && !options.slurp && !options.nullInput && !options.rawInput && !makesEvents
            && streamIdiom == nil && slurpPlan == nil
            && (split == nil || splitsByLine) && options.limit == nil && !options.exitStatus
            && !sink.flushesEachResult
            && !readsFurtherInputs && filter.isElementLocal
    }

    /// Whether each result is one line, so that `--split-lines` can cut the
    /// pieces' output by line: JSON, not raw strings (which may hold line breaks).
    private var splitsByLine: Bool {
        !options.rawOutput && !options.joinOutput && !options.rawOutput0 && options.layout == .lines
    }

    /// How a file filtered in pieces ended.
    enum PiecesEnd {
        /// All of it was read, or the rest is left to `inputs.reader`.
        case read
        /// `--jq '.[] | F'`: the file goes on past what the pieces could
        /// take. It is to be read again in one stream, the root array's
        /// first `skipping` elements (which the pieces read and counted)
        /// passed over, then the rest of the array filtered (`runsRest`: one
        /// element too long to cut around) or passed over (after a runtime
        /// error, or with values after the array).
        case readAgain(skipping: Int, runsRest: Bool)
        /// `.readAgain` for a pipe, which cannot be: `inputs.reader` reads on
        /// from the pieces, the root array (or document) starting at the
        /// first piece not filtered (`runsRest`) or at the one whose error
        /// ended the array (to be passed over), whose first `skipping`
        /// elements were counted.
        case readOn(skipping: Int, runsRest: Bool)
    }

    /// Filters `file` with `workers`, if it is a regular file of at least
    /// two pieces that can be cut; nil (nothing read) otherwise. Standard
    /// input counts when it is redirected from a regular file; where a named
    /// file would be opened again (nil, `.readAgain`), an uncompressed one
    /// is set back to where it started, and a compressed one read on from
    /// what the splitter holds (`.read`, `.readOn`). A pipe on standard
    /// input (compressed or not) is cut while it holds a piece and more, and
    /// read on from what the splitter holds otherwise (`.read`).
    func readInParallel(_ file: String, workers: PieceWorkers) throws -> PiecesEnd? {
        guard file == "-" else { return try filterInPieces(file, workers: workers) }
        let start = lseek(streams.input, 0, SEEK_CUR)
        let end = try filterInPieces(file, workers: workers)
        switch end {
        case nil, .readAgain?: if start >= 0 { lseek(streams.input, start, SEEK_SET) }
        case .read?, .readOn?: break  // read on where the splitter left it
        }
        return end
    }

    /// `readInParallel`, standard input left where the pieces stopped.
    private func filterInPieces(_ file: String, workers pool: PieceWorkers) throws -> PiecesEnd? {
        let pieceSize = options.pieceSize ?? _PieceSplitter.defaultPieceSize
        guard let splitter = makeSplitter(file, pieceSize: pieceSize) else { return nil }
        if !splitter.waitsOnInput {
            guard let size = splitter.size, size >= UInt64(2 * pieceSize) else { return nil }
        }
        // A pipe too short for two pieces, or idle before one, is read as one
        // stream without starting a thread.
        let prepared = (try? splitter.prepare()) == true
            && (!splitter.waitsOnInput || (try? splitter.holdsAPiece()) == true)
        let name = Self.inputName(file)
        let spares = SpareOutputs()
        let workers = prepared ? pool.made() : nil
        var unassigned = (workers ?? []).makeIterator()
        guard let workers, let flow = _PieceFlow<PieceResult>(splitter: splitter, threads: workers.count,
                                                           start: startOnLargeStack, makeWork: {
            let worker = unassigned.next()!
            worker.context.inputFilename = .string(name)
            return { worker.process($0, output: spares.take()) }
        }) else { return declined(splitter, named: name) }
        begin(named: name)
        if let plan { holdResultsUntilTheRootEnds(plan) }
        counters.pieceThreads = workers.count
        let countedBefore = counters.elementsIn
        flow.keepsLastTaken = followedPath != nil
        switch try filterPieces(flow, spares: spares) {
        case .ended:
            counters.bytesOfFinishedInputs += splitter.bytesRead
        case .rootArrayEnded(let valuesInLastPiece) where plan == nil:
            // `--path`: the documents after the first are followed in one
            // stream, from the last piece, whose elements are passed over.
            openRest(of: splitter, named: name, from: flow.piecesFromLastTaken(), followingRoots: true)
            passOver(valuesInLastPiece)
        case .rootArrayEnded(let valuesInLastPiece) where splitter.readsOnce:
            openRest(of: splitter, named: name, from: flow.piecesFromLastTaken(), followingRoots: true)
            return .readOn(skipping: valuesInLastPiece, runsRest: false)
        case .rootArrayEnded:
            return .readAgain(skipping: counters.elementsIn - countedBefore, runsRest: false)

        case .readOn(let pieces, _) where pieces.isEmpty && !splitter.hasCut:
            return declined(splitter, named: name)
        case .readOn(let pieces, _) where plan != nil && splitter.readsOnce:
            openRest(of: splitter, named: name, from: pieces, followingRoots: true)
            return .readOn(skipping: 0, runsRest: true)
        case .readOn where plan != nil:
            return .readAgain(skipping: counters.elementsIn - countedBefore, runsRest: true)
        case .readOn(let pieces, let index) where followedPath != nil:
            // `--path`: read on as one stream follows documents, elements numbered on.
            openRest(of: splitter, named: name, from: pieces, index: index, followingRoots: true)
        case .readOn(let pieces, let index):
            // The rest is read here, as one stream, by `readAll`.
            openRest(of: splitter, named: name, from: pieces, index: index)
        }
        return .read
    }

    /// Passes over the first `count` elements of `inputs.reader`, and the
    /// mark before them: elements the pieces filtered and counted.
    private func passOver(_ count: Int) {
        guard let reader = inputs.reader else { return }
        reader.buildsValues = false
        defer { reader.buildsValues = true }
        var passed = 0
        while passed < count {
            switch reader.next() {
            case .mark: continue
            case .value, .member: passed += 1
            default: return
            }
        }
    }

    /// The input is to be read as one stream: nil, for it to be opened
    /// again (a file); `.read` for one that cannot be read twice (a pipe,
    /// compressed standard input), which `inputs.reader` reads on from what
    /// the splitter holds.
    private func declined(_ splitter: _PieceSplitter, named name: String) -> PiecesEnd? {
        guard splitter.readsOnce else { return nil }
        openRest(of: splitter, named: name, from: [], followingRoots: followedPath != nil)
        return .read
    }

    /// A splitter for `file`, or nil when it is not to be cut.
    private func makeSplitter(_ file: String, pieceSize: Int) -> _PieceSplitter? {
        // `--jq '.[] | F'` cuts a root array only (`.items[] | F`, the array
        // at the plan's path): any other value is read whole.
        let format = plan != nil ? JSONStreamFormat.array : streamFormat(for: file)
        let path = plan?.path ?? options.path
        guard file == "-" else {
            return try? _PieceSplitter(contentsOfFile: file, format: format, path: path, limits: options.limits,
                                       pieceSize: pieceSize)
        }
        let flush = { [unowned self] in self.flushBeforeBlockingRead() }
        let splitter = _PieceSplitter(descriptor: streams.input, readFirst: stdinPeeked, format: format, path: path,
                                      limits: options.limits, pieceSize: pieceSize, beforeBlockingRead: flush)
        stdinPeeked = []
        if let idleWait = options.pipeIdleWait { splitter.idleWait = idleWait }
        return splitter
    }

    /// The input read on as one stream, from `pieces` (handed out, not
    /// read) and what the splitter holds and has not read; with
    /// `followingRoots`, each document followed along the path as the run's
    /// reader follows it (`--jq`, `--path`).
    private func openRest(of splitter: _PieceSplitter, named name: String, from pieces: [_InputPiece],
                          index: Int = 0, followingRoots: Bool = false) {
        inputs.reader = splitter.readerForTheRest(from: pieces, limits: options.limits, projection: projection,
                                                  firstIndex: index, followingRoots: followingRoots)
        begin(named: name)
    }

    /// How `filterPieces` left the input.
    private enum PiecesOutcome {
        case ended
        /// To be read on in one stream from these pieces (if any) and element index.
        case readOn(from: [_InputPiece], index: Int)
        /// `--jq`: the root array ended before the file did: a runtime error
        /// stopped it, or more values follow it.
        case rootArrayEnded(valuesInLastPiece: Int)
    }

    /// The main thread's loop: write the pieces' results in order.
    private func filterPieces(_ flow: _PieceFlow<PieceResult>, spares: SpareOutputs) throws -> PiecesOutcome {
        var indexBase = 0
        var isArray = false
        while true {
            // A piece read again: cut where a malformed line fooled the scan,
            // or a table's rows made with other columns than the run's.
            switch flow.next(readsAgain: { [formatter] in
                $0.endsInsideValue || !formatter.agreesWithTablePiece(keys: $0.tableKeys)
            }) {
            case .readOn(let pieces):
                return .readOn(from: pieces, index: indexBase)
            case .end:
                handleReadProblem(.end, index: indexBase - 1, isArray: isArray)
                return .ended
            case .result(let result):
                counters.pieces += 1
                isArray = result.isArray
                if let end = try write(result, indexBase: &indexBase) { return end }
                spares.recycle(result.output)
                progress?.tick(bytes: counters.bytesOfFinishedInputs + flow.splitter.bytesRead,
                               elements: counters.elementsIn)
            }
        }
    }

    /// Writes a piece's results and reports its errors; how the input ends
    /// when one of them ends it, else nil.
    private func write(_ result: PieceResult, indexBase: inout Int) throws -> PiecesOutcome? {
        // `--jq`: the path's key comes again after the array. The document
        // is read on, or again, to its end in one stream, where the reader
        // finds the key again and the program runs on it whole (`runAgainWhole`).
        if result.repeatsPathKey && options.jqMode { return .rootArrayEnded(valuesInLastPiece: result.values) }
        counters.elementsIn += result.values
        counters.resultsOut += result.results
        var done = 0
        if result.results > 0, let opening = formatter.pieceOpening {
            try writeOutput(opening[...])
            done = opening.count
        }
        formatter.addResultsMadeApart(result.results)
        for (offset, event) in result.events {
            try writeOutput(result.output[done..<max(done, offset)])
            done = max(done, offset)
            switch event {
            case .runtimeError(let tail, let index, let line, let column):
                // `--jq`: the array is passed over to its end, where jq places the error.
                elementFailed(tail, at: ElementLocation(file: inputs.name, index: indexBase + index,
                                                           line: line, column: column))
                if result.isArray && options.errorPolicy != .skip {
                    closeCurrentInput()
                    // `--jq`: the values after the array still run.
                    return options.jqMode ? .rootArrayEnded(valuesInLastPiece: result.values) : .ended
                }
            case .readProblem(.syntaxError(let error), _) where (options.jqMode || followedPath != nil)
                    && error.followsTheValue:
                // More values after the root array; with --path, more documents to follow.
                return .rootArrayEnded(valuesInLastPiece: result.values)
            case .readProblem(let problem, let index):
                if !handleReadProblem(problem, index: indexBase + index, isArray: result.isArray) { return .ended }
            case .tableHeader(let keys):
                var header: [UInt8] = []
                formatter.appendMarkedTableHeader(pieceKeys: keys, into: &header)
                try writeOutput(header[...])
            }
        }
        try writeOutput(result.output[done...])
        indexBase += result.elements
        if options.jqMode && !result.isArray { noteLastValue(of: result) }
        return nil
    }

    /// `--jq` over top-level values: jq's exit status is its last value's,
    /// so each piece's last value is the unit that counts so far.
    private func noteLastValue(of result: PieceResult) {
        guard result.elements > 0 else { return }
        exitRule.beginUnit()
        if case .runtimeError(_, let index, _, _)? = result.events.last?.event, index == result.elements - 1 {
            exitRule.runtimeError()
        }
    }

    private func writeOutput(_ bytes: ArraySlice<UInt8>) throws {
        guard !bytes.isEmpty else { return }
        if let split {
            try split.append(lines: bytes, to: &sink)
        } else {
            try sink.append(results: bytes)
        }
    }
}
