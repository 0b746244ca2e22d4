// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

/// Reads a byte source through one reused 64 KiB buffer, feeds yajl, and hands
/// out the elements it frames, by ordinal.
///
/// Elements are numbered from 0 in document order. `element(_:)` returns the
/// tape index of an element, reading and parsing more input only when that
/// element is not complete yet. Before it reads, it drops every element older
/// than the one just before the requested one: a cursor may trail the newest
/// by one element (peek, then decode), never more. Tape indices handed out are
/// *absolute* (they keep counting across drops); `local(_:)` maps them back and
/// rejects those that were dropped.
///
/// Safe: it owns its read buffer and parser. The tape pointers it hands out
/// (`tape`, `tokens`, `arena`) are valid until `tapeGeneration` changes;
/// their types make every use of them `unsafe`.
@safe final class _ElementStream {
    static let chunkSize = 64 * 1024
    /// The parsing thread's reads: larger, so that the threads hand over a
    /// batch (a lock, a wake-up, often a context switch) a quarter as often.
    static let pipelinedChunkSize = 256 * 1024

    /// Created when the mode is known: at once, or for `.auto` when the first
    /// non-whitespace byte (or the end of input) is seen.
    private(set) var parser: _TapeParser! {
        didSet { unsafe tape = unsafe parser.tape }
    }
    /// `parser.tape`, read by every token access of the decoders: held here
    /// it is one load fewer in a chain of dependent ones.
    @exclusivity(unchecked) private(set) var tape: UnsafeMutablePointer<sj_tape>?
    /// nil until `.auto` has been resolved.
    private(set) var mode: _StreamMode!
    let path: [String]
    let limits: _ParserLimits
    private var source: any _ByteSource
    private let buffer: UnsafeMutableRawBufferPointer
    var lines = _LineIndex()
    /// The last few KiB of input before the current chunk, to find where a
    /// rejected token that straddles chunks begins.
    var recent = _RecentBytes()

    /// Absolute offset of the next byte to read.
    private var inputOffset: UInt64 = 0
    /// What the buffer holds: the last chunk read.
    private var lastChunkBase: UInt64 = 0
    /// The source said it has no more bytes.
    private(set) var reachedEndOfInput = false
    private var started = false
    /// The source is a piece of a larger input, from its `origin`.
    private var beginsMidInput = false
    private var sawContent = false
    /// The input's first byte other than whitespace (after a BOM), once seen.
    private(set) var firstContentByte: UInt8?

    /// Ordinal of the oldest element still on the tape.
    private(set) var firstOrdinal = 0
    /// Whether reading on keeps the element before the one asked for, for a
    /// copy of the incremental container that trails by one. A consumer that
    /// never looks back (`JSONElements`, `_ValueReader`) turns it off: the
    /// tape is then empty when the next batch arrives, and the batch's buffers
    /// are taken over instead of copied (`sj_parser_swap_complete`).
    var keepsPreviousElement = true
    /// Whether streamed elements stay on the tape once read: for a second
    /// pass over a document that a two-pass `init(from:)` asked for.
    var keepsEveryElement = false
    /// Whether the shape was left to the input (`.auto`): a first byte other
    /// than `[` made it JSON Lines.
    private(set) var guessesMode = false
    /// Set when a decoder asked for an element already dropped: a second
    /// pass over a streamed array (`_TapeDecoder.dropped(path:)`).
    var askedForDroppedElement = false
    /// Changes whenever the tape may have: tokens dropped, moved or added
    /// (`advance()`, `dropElements(before:)`). A reader that keeps pointers
    /// into the tape keeps this with them, and trusts them while it is the same.
    @exclusivity(unchecked) private(set) var tapeGeneration = 0
    /// Tokens dropped so far: absolute index = tape index + tokenBase.
    @exclusivity(unchecked) private(set) var tokenBase = 0
    /// yajl accepted the whole input.
    private(set) var isFinished = false
    /// The first syntax or system error; every later request rethrows it.
    var failure: (any Error)?
    /// Whether `failure` has been thrown. Until then the elements queued
    /// before it can still be read, and an error decoding one of them is
    /// that element's, not the end of the stream.
    private(set) var failureThrown = false
    /// In `.document` mode: the root is an array whose elements are streamed.
    private(set) var streamsRootArray = false

    /// Set when parsing runs on another thread (`_ParsePipeline.swift`): the
    /// batches of elements it publishes.
    private let pipeline: _BatchQueue?

    /// Whether parsing or decompressing runs on a thread of its own.
    var runsBesideTheCaller: Bool {
        pipeline != nil || (source as? _SniffingSource)?.decompressesOnItsOwnThread == true
    }
    /// Producer side: line breaks found since the last batch, for the decoder's index.
    private let forwardsNewlines: Bool
    private var forwardedFrom = 0
    /// Whether parsing runs on another thread.
    var isPipelined: Bool { pipeline != nil }
    /// Input bytes read so far.
    var bytesRead: UInt64 { inputOffset }

    /// `mode` nil means `.auto`: an array when the input starts with `[`
    /// (after whitespace and a BOM), otherwise JSON Lines.
    /// `origin`: where the source's bytes sit in a larger input (a piece
    /// parsed on its own thread); a byte-order mark is looked for only at 0.
    init(source: any _ByteSource, mode: _StreamMode?, path: [String] = [], limits: _ParserLimits,
         forwardsNewlines: Bool = false, chunkSize: Int = _ElementStream.chunkSize,
         origin: _InputOrigin = .start) {
        self.source = origin == .start ? source.recognisingCompression() : source
        self.inputOffset = origin.byteOffset
        self.lastChunkBase = origin.byteOffset
        self.lines = _LineIndex(origin: origin)
        self.started = origin.byteOffset > 0
        self.beginsMidInput = origin.byteOffset > 0
        self.path = path
        self.limits = limits
        unsafe self.buffer = .allocate(byteCount: chunkSize, alignment: 16)
        self.pipeline = nil
        self.forwardsNewlines = forwardsNewlines
        self.guessesMode = mode == nil
        if let mode { resolve(mode) }
    }

    /// A stream whose parsing runs on another thread; this one only decodes.
    /// `ahead` decodes some elements on the parsing thread (`_DecodeAhead.swift`).
    init(pipelining source: any _ByteSource, mode: _StreamMode?, path: [String] = [], limits: _ParserLimits,
         decodingAhead ahead: (any _DecodingAhead)? = nil) {
        self.source = _DataSource(Data())
        self.path = path
        self.limits = limits
        unsafe self.buffer = .allocate(byteCount: 0, alignment: 16)
        self.forwardsNewlines = false
        self.parser = _TapeParser(tapeOnly: ())
        unsafe self.tape = unsafe parser.tape
        self.mode = mode
        self.guessesMode = mode == nil
        self.pipeline = Self.startProducer(source: source, mode: mode, path: path, limits: limits, ahead: ahead)
    }

    private func resolve(_ mode: _StreamMode) {
        self.mode = mode
        self.parser = _TapeParser(mode: mode, path: path, limits: limits)
        if beginsMidInput { parser.beginsAtFirstFedByte() }
    }

    deinit {
        pipeline?.cancel()
        unsafe buffer.deallocate()
    }

    // MARK: Elements

    enum Lookup {
        case element(Int)
        case end
        /// The element was dropped from the tape (a cursor fell too far behind).
        case dropped
        /// A pushed source has nothing more for now (`_PushSource`).
        case needsInput
    }

    /// Errors that end one value, not the stream (a malformed line of JSON
    /// Lines), thrown when the element after them is asked for. `ordinal` is
    /// the number of elements completed before the error.
    @exclusivity(unchecked) var pendingErrors: [(ordinal: Int, error: any Error)] = []
    /// Hook for `_ValueReader`: how many queued per-value errors `element(_:)`
    /// has thrown, so that a caller can tell one from the stream's `failure`.
    private(set) var pendingErrorsThrown = 0
    /// An array after a syntax error, looking for its next element
    /// (`_ElementStream+Resume.swift`).
    var resume: _ArrayResume?
    /// Array elements lost to syntax errors so far (parsing side): an
    /// error's element index counts them.
    var elementsLost = 0
    /// Where the array last went on after a syntax error, and where that
    /// error was.
    var resumedAt: UInt64?
    var resumedAfterError: UInt64?
    /// Reading side: the ordinals of the elements after lost ones whose
    /// errors were thrown, not yet passed by `lostElements(before:)`.
    var lostOrdinals: [Int] = []
    var lostPassed = 0
    /// JSON Lines after a syntax error: skip input up to the next line break.
    var skipsToNextLine = false
    /// JSON Lines: where the parser last restarted at an error's own line
    /// (the line might hold a good value).
    var restartedAt: UInt64?
    /// JSON Lines: the first byte other than whitespace on the line the
    /// chunks so far end in (nil while it is blank), so that whether an
    /// error is the first thing on its line does not depend on where the
    /// chunks end.
    var lineContentStart: UInt64?
    /// The tokens after the parser's boundary as of the last body parsed,
    /// for locating a rejected token that began more than 4 KiB before the
    /// chunk where yajl rejects it (`_tokensAfter`).
    var tokensAfterBoundary: (boundary: UInt64, tokens: [_TokenStart])?
    /// The last read found no input available (pushed sources only).
    private var needsInput = false
    /// The current yajl handle was given something besides whitespace (JSON
    /// Lines restarts the handle after a syntax error).
    var handleSawContent = false

    /// The absolute tape index of element `ordinal`'s first token.
    func element(_ ordinal: Int) throws -> Lookup {
        while true {
            if let pending = unsafe pendingErrors.first, pending.ordinal <= ordinal {
                unsafe pendingErrors.removeFirst()
                pendingErrorsThrown += 1
                if mode == .array || mode == .roots, pending.error.brokenElementIndex != nil {
                    lostOrdinals.append(pending.ordinal)
                }
                throw pending.error
            }
            if ordinal < firstOrdinal { return .dropped }
            let available = parser?.elementCount ?? 0
            if ordinal < firstOrdinal + available {
                return unsafe .element(tokenBase + parser.elementStart(ordinal - firstOrdinal))
            }
            if let failure { failureThrown = true; throw endingTheStream(failure) }
            if isFinished { return .end }
            // Keep only the element just before the one asked for (or none).
            dropElements(before: keepsPreviousElement ? ordinal - 1 : ordinal)
            advance()
            if needsInput {
                needsInput = false
                return .needsInput
            }
        }
    }

    /// Absolute input offset just past element `ordinal`'s last byte, when
    /// it is still on the tape; reads nothing.
    func elementEnd(_ ordinal: Int) -> UInt64? {
        guard let parser, ordinal >= firstOrdinal, ordinal < firstOrdinal + parser.elementCount else { return nil }
        return unsafe parser.elementEnd(ordinal - firstOrdinal)
    }

    /// Whether element `ordinal` exists, reading as far as needed.
    func hasElement(_ ordinal: Int) throws -> Bool {
        switch try element(ordinal) {
        case .end, .needsInput: return false
        case .element, .dropped: return true
        }
    }

    /// Parses the rest of the input without decoding it: for `decode(_:from:)`,
    /// which validates the whole document.
    func drain() throws {
        while true {
            if let failure { failureThrown = true; throw endingTheStream(failure) }
            if isFinished { return }
            dropElements(before: Int.max)
            advance()
        }
    }

    private func dropElements(before ordinal: Int) {
        guard let parser, !keepsEveryElement else { return }
        let count = min(max(ordinal - firstOrdinal, 0), parser.elementCount)
        guard count > 0 else { return }
        unsafe tokenBase += parser.dropElements(count)
        firstOrdinal += count
        unsafe tapeGeneration &+= 1
    }

    /// The tape index of an absolute index, or nil when it was dropped.
    @inline(__always)
    func local(_ absolute: Int) -> Int? {
        let index = unsafe absolute &- tokenBase
        guard let tape = unsafe tape, unsafe index >= 0 && index < tape.pointee.tokenCount else { return nil }
        return index
    }

    /// Complete elements on the tape.
    var elementsOnTape: Int { parser?.elementCount ?? 0 }
    /// Elements completed since the start: the last one on the tape is this minus one.
    var elementsCompleted: Int { Int(parser?.completedElements ?? 0) }

    /// Blocks of elements the parsing thread decoded ahead, oldest first
    /// (`_DecodeAhead.swift`): at most one per batch in flight.
    @exclusivity(unchecked) private var decodedAhead: [_DecodedElements] = [] {
        didSet { unsafe firstDecodedAhead = unsafe decodedAhead.first?.firstOrdinal ?? .max }
    }
    /// The first ordinal of the first block (`Int.max`: none). Most elements
    /// come before it, and the check costs no reference count.
    @exclusivity(unchecked) private var firstDecodedAhead = Int.max

    /// The block holding element `ordinal` decoded ahead, if it was; blocks
    /// before it are let go.
    @inline(__always)
    func decodedAhead(covering ordinal: Int) -> _DecodedElements? {
        if unsafe ordinal < firstDecodedAhead { return nil }
        return decodedAheadBlock(covering: ordinal)
    }

    private func decodedAheadBlock(covering ordinal: Int) -> _DecodedElements? {
        while let block = unsafe decodedAhead.first {
            if block.covers(ordinal) { return block }
            if ordinal < block.firstOrdinal { return nil }
            unsafe decodedAhead.removeFirst()  // passed
        }
        return nil
    }

    /// The tape as it is now (taken again after anything that parses).
    @inline(__always) var view: _TapeView {
        unsafe _TapeView(tokens: UnsafePointer(tape!.pointee.tokens), arena: UnsafePointer(tape!.pointee.arena))
    }

    // MARK: Reading

    /// Reads and parses one chunk, or completes the parse at the end of input.
    /// An error is recorded in `failure` rather than thrown: the elements the
    /// chunk completed before it are still handed out first.
    func advance() {
        unsafe tapeGeneration &+= 1
        if let pipeline {
            receive(from: pipeline)
            return
        }
        do {
            if Task.isCancelled { throw CancellationError() }
            var count = unsafe try source.read(into: buffer)
            if count < 0 {
                needsInput = true
                return
            }
            var skip = 0
            if !started {
                started = true
                // A BOM split by a slow pipe is still seen: while the bytes so far
                // could begin one, wait for three.
                while count > 0 && count < 3 && (0..<count).allSatisfy({ unsafe buffer[$0] == _utf8BOM[$0] }) {
                    let more = unsafe try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
                    if more <= 0 { break }
                    count += more
                }
                if unsafe _startsWithUTF8BOM(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { skip = 3 }
            }
            if count == 0 {
                reachedEndOfInput = true
                if parser == nil { resolve(.lines) }
                if resume != nil {
                    driveResume(atEnd: true)
                    if failure != nil { return }
                }
                try complete()
                return
            }
            unsafe try feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), skip: skip)
        } catch {
            failure = error
        }
    }

    /// Decoding side of a pipeline: appends the next batch to the tape.
    private func receive(from pipeline: _BatchQueue) {
        if Task.isCancelled {
            failure = CancellationError()
            pipeline.cancel()
            return
        }
        let batch = pipeline.takeReady()
        if unsafe sj_parser_move_complete(batch.tape.state, parser.state) == 0 {
            failure = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Out of memory while receiving elements"))
        }
        if let decoded = batch.decodedAhead {
            unsafe decodedAhead.append(decoded)
            batch.decodedAhead = nil
        }
        lines.append(contentsOf: batch.newlines)
        unsafe pendingErrors.append(contentsOf: batch.pendingErrors)
        unsafe lines.prune(before: parser.tokenCount > 0 ? parser.view[0].position : batch.end)
        inputOffset = batch.end
        mode = batch.mode
        streamsRootArray = batch.streamsRootArray
        if failure == nil, let error = batch.failure { failure = error }
        if batch.finished { isFinished = true }
        pipeline.recycle(batch)
    }

    /// Producer side: hands over the errors queued since the last call.
    func forwardPendingErrors(into errors: inout [(ordinal: Int, error: any Error)]) {
        unsafe errors.append(contentsOf: pendingErrors)
        unsafe pendingErrors.removeAll()
    }

    /// Producer side: hands over the line breaks scanned since the last call.
    func forwardNewlines(into offsets: inout [UInt64]) {
        forwardedFrom = min(forwardedFrom, lines.keptCount)
        offsets.append(contentsOf: lines.kept(from: forwardedFrom))
        forwardedFrom = lines.keptCount
    }

    private func feed(_ chunk: UnsafeRawBufferPointer, skip: Int) throws {
        defer { if mode == .document { streamsRootArray = parser?.streamsRootArray ?? false } }
        let base = inputOffset
        let keptBefore = lines.keptCount
        pruneLines()
        if forwardsNewlines { forwardedFrom = max(0, forwardedFrom - (keptBefore - lines.keptCount)) }
        unsafe lines.scan(chunk, base: base)
        lastChunkBase = base
        inputOffset += UInt64(chunk.count)
        if resume != nil {  // looking for an array's next element
            unsafe gatherForResume(UnsafeRawBufferPointer(rebasing: chunk[skip...]))
            driveResume(atEnd: false)
            if let failure { throw failure }
            return
        }
        if !sawContent, let first = unsafe chunk[skip...].firstIndex(where: { !_isJSONWhitespace($0) }) {
            sawContent = true
            unsafe firstContentByte = chunk[first]
            if parser == nil { unsafe resolve(path.isEmpty && chunk[first] != UInt8(ascii: "[") ? .lines : .array) }
        }
        guard parser != nil else {  // only whitespace so far, in `.auto`
            unsafe recent.append(UnsafeRawBufferPointer(rebasing: chunk[skip...]), base: base + UInt64(skip))
            return
        }
        unsafe parseBody(chunk, from: skip, base: base)
        if resume != nil { driveResume(atEnd: false) }
        if mode == .lines { unsafe noteLineContent(chunk, base: base) }
        if let failure { throw failure }
    }

    /// Parses `chunk[start...]`. In JSON Lines a syntax error ends only its
    /// line: it is queued for the reader, the parser restarts, and parsing
    /// goes on at the next line (`_ElementStream+Lines.swift`). Elsewhere it
    /// becomes the stream's failure.
    func parseBody(_ chunk: UnsafeRawBufferPointer, from start: Int, base: UInt64) {
        var start = start
        // One pass per malformed line: a loop, not recursion, so that a chunk
        // of thousands of bad lines costs no stack.
        while true {
            if skipsToNextLine {
                guard let newline = unsafe _firstIndex(of: 0x0A, in: chunk, from: start) else { return }
                skipsToNextLine = false
                start = newline + 1
            }
            guard start < chunk.count, let (error, outcome) = unsafe parseSpan(chunk, from: start, base: base) else { return }
            if case .dataCorrupted(let context) = error, let syntax = context.underlyingError as? JSONSyntaxError,
               mayResume(after: outcome),
               unsafe beginResume(after: syntax, outcome: outcome, chunk: chunk, from: start, base: base) {
                return  // `driveResume` goes on
            }
            guard mode == .lines, case .dataCorrupted(let context) = error,
                  let syntax = context.underlyingError as? JSONSyntaxError else {
                failure = error
                return
            }
            switch unsafe resynchronize(after: syntax, error, in: chunk, base: base) {
            case .parse(let index):
                start = index
            case .parseAgain(let bytes, let offset):
                unsafe bytes.withUnsafeBytes { unsafe parseBody($0, from: 0, base: offset) }
                return
            }
        }
    }

    /// Parses `chunk[start...]` up to the first form feed or vertical tab
    /// (yajl takes them for whitespace; JSON never allows them raw), and
    /// returns the error that stopped it, if any, with yajl's outcome (nil:
    /// a form feed or vertical tab).
    private func parseSpan(_ chunk: UnsafeRawBufferPointer, from start: Int,
                           base: UInt64) -> (DecodingError, _ParseOutcome?)? {
        let end = unsafe _firstFormFeedOrVerticalTab(in: chunk, from: start) ?? chunk.count
        let body = unsafe UnsafeRawBufferPointer(rebasing: chunk[start..<end])
        if !handleSawContent { handleSawContent = unsafe body.contains { !_isJSONWhitespace($0) } }
        let outcome = unsafe parser.parse(body, base: base + UInt64(start))
        guard case .ok = outcome else {
            let fed = unsafe parser.lastFed  // `body`, or a long token's bytes held back
            return unsafe (syntaxError(outcome, chunk: fed.bytes, base: fed.base), outcome)
        }
        let window = unsafe _ByteWindow(recent: recent, chunk: body, chunkBase: base + UInt64(start))
        let boundary = parser.boundary.offset
        if let tokens = unsafe _tokensAfter(boundary, in: window, allowsComments: limits.allowsComments) {
            tokensAfterBoundary = (boundary, tokens)
        }
        unsafe recent.append(body, base: base + UInt64(start))
        guard end < chunk.count else { return nil }
        if case let held = parser.flushHeld(), !held.isOK {
            let fed = unsafe parser.lastFed  // an error in a long token held back comes first
            return unsafe (syntaxError(held, chunk: fed.bytes, base: fed.base), held)
        }
        return (decodingError(JSONSyntaxError(
            message: unsafe "Unexpected character \(_describeByte(chunk[end]))",
            position: position(of: base + UInt64(end)))), nil)
    }

    private func complete() throws {
        let openString = parser.openStringStart
        let outcome = parser.complete(end: inputOffset)
        switch outcome {
        case .ok:
            // Between top-level values yajl ends without a word about a string
            // left open by the input's end (`1\n"abc`).
            if openString != nil && (mode == .lines || mode == .roots || mode == .events) {
                throw decodingError(JSONSyntaxError(message: "Unexpected end of input",
                                                    position: position(of: inputOffset)))
            }
        case .invalid(let message, _, _) where message.contains("premature EOF"):
            if !sawContent || ((mode == .lines || mode == .roots || mode == .events) && !handleSawContent) {
                if mode == .lines || mode == .roots || mode == .events { break }
                throw decodingError(JSONSyntaxError(message: "No JSON value (the input is empty)",
                                                    position: position(of: inputOffset)))
            }
            throw decodingError(JSONSyntaxError(message: "Unexpected end of input",
                                                position: position(of: inputOffset)))
        case .invalid where unsafe parser.lastFed.bytes.count > 0:
            // In the bytes of a long token, held back until the end (yajl's
            // end of input leaves nothing fed); the error may be at its last byte.
            let fed = unsafe parser.lastFed
            throw unsafe syntaxError(outcome, chunk: fed.bytes, base: fed.base)
        default:
            // A token that yajl could only finish at the end (a number) was
            // rejected: look for it among the last bytes read.
            throw unsafe syntaxError(outcome, chunk: UnsafeRawBufferPointer(start: nil, count: 0),
                                     base: inputOffset, atEnd: true)
        }
        if (mode == .array || mode == .members) && !parser.foundTarget {
            let kind = mode == .array ? "array" : "object"
            throw decodingError(JSONSyntaxError(
                message: "No \(kind) at path \(_describePath(path)): the key is missing",
                position: position(of: inputOffset)))
        }
        isFinished = true
    }

    private func pruneLines() {
        var keepFrom = lastChunkBase
        if let parser, parser.tokenCount > 0 { keepFrom = unsafe min(keepFrom, parser.view[0].position) }
        // A long token held back (`tape_feed.c`): its errors show up when it ends.
        if let parser, let held = parser.openTokenStart { keepFrom = min(keepFrom, held) }
        if let resume { keepFrom = min(keepFrom, resume.search.base) }
        lines.prune(before: keepFrom)
    }
}
