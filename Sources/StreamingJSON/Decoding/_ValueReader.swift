// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

/// Reads the elements of a JSON stream as `JSONValue`s, one at a time, for
/// the `jsonstream` command line.
///
/// It is `JSONElements<JSONValue>` with what a command-line tool needs on
/// top: each element's index and the line and column where it starts, the
/// bytes read so far and the input's size (for a progress bar), a clear
/// difference between an error that loses one element (a malformed JSON
/// Lines value, an element over a limit) and one that ends the input (a
/// syntax error in an array, a read error), and a hook that runs before a
/// read that could block, so that the caller can flush its output first.
///
///     let reader = try _ValueReader(contentsOfFile: "dump.json", format: .auto, path: [])
///     while true {
///         switch reader.next() {
///         case .value(let value): …            // reader.index, reader.elementPosition()
///         case .elementError(let error, _): …  // reader.index is the lost element's
///         case .syntaxError, .readError: …     // nothing follows
///         case .end: return
///         }
///     }
///
/// Synchronous and single-pass; memory is bounded as for `JSONElements`.
/// Safe: it owns its scratch buffer, from creation to release, and reads
/// the tape only at indexes its stream handed out.
@safe package final class _ValueReader {
    /// What `next()` found.
    package enum Event {
        /// The next element.
        case value(JSONValue)
        /// One element is lost and the input goes on: a malformed JSON Lines
        /// value, or an element over a limit (`isLimit`: too deep, a number or
        /// string too long, an element over `maxElementBytes`).
        case elementError(JSONSyntaxError, isLimit: Bool)
        /// The input ends here: a syntax error or a limit in an array, the root
        /// not being an array, truncation. Elements before it were delivered.
        case syntaxError(JSONSyntaxError)
        /// Reading failed (`POSIXError`: EIO, EISDIR …); nothing follows.
        case readError(any Error)
        /// No more elements.
        case end
        /// Following roots (`followingRoots`): what the next elements are.
        case mark(_RootMark)
        /// Following roots, inside a target object: one of its members.
        case member(String, JSONValue)
        /// Making events (`makingEvents`): an object's key. A scalar comes as
        /// `.value`, a container's start as `.mark(.array)` or `.mark(.object)`,
        /// its end as `.mark(.end)`.
        case key(String)
    }

    /// The input's size in bytes, when known in advance (a regular file).
    package let size: UInt64?
    /// Index of the element `next()` returned last, counting lost elements
    /// too; -1 before the first. After `.syntaxError`, `index + 1` is the
    /// element the error is in.
    // Unchecked, these and the state below: read or written for every element,
    // where a dynamic exclusivity check is a runtime call each time. Only this
    // class's methods write them, none while another access to them is open.
    @exclusivity(unchecked) package private(set) var index = -1

    let stream: _ElementStream
    /// Where `writeLastElement` writes a value from the tape before
    /// appending it whole (`_JQWriter.writeTapeValue`); freed in `deinit`.
    @exclusivity(unchecked) private var scratch = unsafe _Growable<UInt8>(capacity: 4096)
    /// The file, for its compressed position (`bytesRead`); nil for a piece.
    let source: _ReaderSource?
    /// For the errors it describes (an element over the size limit).
    private let decoder: _TapeDecoder
    let builder = _ValueBuilder()

    /// The stream's own numbering, which skips lost JSON Lines values.
    @exclusivity(unchecked) private var ordinal = 0
    /// Absolute tape index of the last element returned as a value.
    @exclusivity(unchecked) private var elementStart: Int?
    @exclusivity(unchecked) private var finished = false
    /// When false, elements and members are parsed and counted but not
    /// built: `.value(.null)`, `.member(key, .null)` stand for them.
    @exclusivity(unchecked) package var buildsValues = true
    /// Following roots: between the marks of a target object.
    private var inTargetObject = false
    /// A piece's bytes and the input offset of the first (`init(piece:)`):
    /// where `writeLastElement` copies an element's text from.
    @exclusivity(unchecked) private var pieceText: (bytes: Data, offset: UInt64)?
    /// For `_JQWriter.verbatimLength`.
    private let maxDepth: Int
    /// Whether `index` counts the input's elements from its first: false
    /// for a JSON Lines piece of a plan after the first (`init(piece:…)`).
    package internal(set) var knowsElementIndexes = true
    /// Elements `writeLastElement` copied from the input's text.
    @exclusivity(unchecked) package private(set) var elementsCopied = 0

    /// Reads the file at `path`. `beforeBlockingRead` is as for a descriptor:
    /// the path may name a pipe (`<(command)`). `onOneThread`: parse and
    /// decompress on the calling thread, never on a thread of their own.
    ///
    /// - Throws: `POSIXError` when the file cannot be opened (`ENOENT`,
    ///   `EACCES` …), `EISDIR` for a directory.
    package convenience init(contentsOfFile path: String, format: JSONStreamFormat, path keyPath: [String],
                             followingRoots: Bool = false, makingEvents: Bool = false,
                             limits: _ParserLimits = _ParserLimits(), projection: _Projection? = nil,
                             onOneThread: Bool = false, beforeBlockingRead: (() -> Void)? = nil) throws {
        let source = try _ReaderSource(path: path, beforeBlockingRead: beforeBlockingRead)
        let mode: _StreamMode? = makingEvents ? .events : followingRoots ? .roots : format.streamMode(path: keyPath)
        self.init(source: source, mode: mode, path: makingEvents ? [] : keyPath,
                  limits: limits, projection: projection, onOneThread: onOneThread)
    }

    /// Reads an open descriptor (stdin, a pipe), which the reader does not close.
    ///
    /// `readFirst`: bytes already read from the descriptor, read before it.
    /// `beforeBlockingRead` runs before a read that would wait for more input
    /// (never for a regular file): the moment to flush buffered output, so
    /// that what was computed so far is not held back while waiting.
    package convenience init(descriptor: Int32, format: JSONStreamFormat, path keyPath: [String],
                             followingRoots: Bool = false, makingEvents: Bool = false,
                             limits: _ParserLimits = _ParserLimits(), projection: _Projection? = nil,
                             onOneThread: Bool = false, readFirst: [UInt8] = [],
                             beforeBlockingRead: (() -> Void)? = nil) {
        let source = _ReaderSource(descriptor: descriptor, beforeBlockingRead: beforeBlockingRead)
        source.readFirst = readFirst
        let mode: _StreamMode? = makingEvents ? .events : followingRoots ? .roots : format.streamMode(path: keyPath)
        self.init(source: source, mode: mode, path: makingEvents ? [] : keyPath,
                  limits: limits, projection: projection, onOneThread: onOneThread)
    }

    /// Whether parsing or decompressing runs on a thread of its own: false
    /// with `onOneThread`.
    package var runsBesideTheCaller: Bool { stream.runsBesideTheCaller }

    /// Reads one piece of a larger input (`_PieceSplitter`), on the calling
    /// thread; positions in its events are those of the whole input.
    package convenience init(piece: _InputPiece, limits: _ParserLimits = _ParserLimits(),
                             projection: _Projection? = nil) {
        let options = Self.options(limits: limits, projection: projection)
        let stream = _ElementStream(source: _DataSource(piece.bytes), mode: piece.mode, path: piece.path,
                                    limits: options.limits, origin: piece.origin)
        self.init(stream: stream, source: nil, options: options)
        unsafe pieceText = (piece.bytes, piece.origin.byteOffset)
    }

    /// Reads `source`, which starts at `origin` in the input, on the calling
    /// thread, numbering elements from `firstIndex` (`_PieceSplitter`).
    convenience init(source: any _ByteSource, mode: _StreamMode?, path: [String], origin: _InputOrigin,
                     limits: _ParserLimits, projection: _Projection?, firstIndex: Int) {
        let options = Self.options(limits: limits, projection: projection)
        let stream = _ElementStream(source: source, mode: mode, path: path, limits: options.limits, origin: origin)
        self.init(stream: stream, source: nil, options: options)
        unsafe index = firstIndex - 1
        // Following roots, the first target's mark starts the count again.
        if mode == .roots { firstTargetIndex = firstIndex }
    }

    private convenience init(source: _ReaderSource, mode: _StreamMode?, path: [String], limits: _ParserLimits,
                             projection: _Projection?, onOneThread: Bool) {
        var options = Self.options(limits: limits, projection: projection)
        if onOneThread {
            options.pipelining = .never
            source.readsAhead = false
        }
        let stream = options.makeStream(source: source, size: source.size, mode: mode, path: path)
        self.init(stream: stream, source: source, options: options)
    }

    deinit {
        unsafe scratch.deallocate()
    }

    private init(stream: _ElementStream, source: _ReaderSource?, options: _DecodingOptions) {
        size = source?.size.map(UInt64.init)
        self.source = source
        self.stream = stream
        stream.keepsPreviousElement = false  // an element is done with when the next is asked for
        decoder = _TapeDecoder(stream: stream, options: options)
        maxDepth = options.limits.maxDepth
    }

    private static func options(limits: _ParserLimits, projection: _Projection?) -> _DecodingOptions {
        var options = _DecodingOptions()
        options.limits = limits
        // An element that is an object is recorded with only the projection's
        // members (`sj_parser_project`): for a consumer that knows it reads
        // nothing else (`JSONFilter.observedMembers`), the rest is parsed but
        // never copied or built.
        options.limits.recordedMembers = projection
        return options
    }

    /// Input bytes consumed so far (parsed, or read ahead by the parsing
    /// thread). For a compressed file, bytes of the file, as `size` counts them.
    package var bytesRead: UInt64 {
        if let source, source.isCompressedFile { return source.bytesReadFromFile }
        return stream.bytesRead - bytesBefore
    }

    /// Where a piece of a plan starts in its file: its reader counts the
    /// bytes it reads from there (`init(piece:contentsOfFile:…)`).
    package internal(set) var bytesBefore: UInt64 = 0

    /// Whether the input's first byte other than whitespace is `[` (nil
    /// before it is read): a file named as JSON Lines that holds one array.
    package var startsWithBracket: Bool? {
        stream.firstContentByte.map { $0 == UInt8(ascii: "[") }
    }

    /// Whether the input turned out to be an array (`.auto` decides at the
    /// first byte); nil before the first `next()`.
    package var isArray: Bool? {
        guard let mode = stream.mode else { return nil }
        return mode != .lines && mode != .roots && mode != .events
    }

    /// The next element, error or the end. After `.syntaxError`, `.readError`
    /// or `.end`, every call returns `.end`.
    package func next() -> Event {
        guard unsafe !finished else { return .end }
        unsafe elementStart = nil
        let thrownBefore = stream.pendingErrorsThrown
        do {
            switch try stream.element(unsafe ordinal) {
            case .end, .needsInput, .dropped:  // a pulled source never needs input; nothing trails
                unsafe finished = true
                return .end
            case .element(let start):
                unsafe index += 1
                unsafe ordinal += 1
                guard let local = stream.local(start) else { return .end }
                if stream.mode == .events { return event(at: local) }
                if stream.mode == .roots, let event = rootsEvent(at: local) {
                    if case .mark = event {} else { unsafe elementStart = start }
                    return event
                }
                if unsafe stream.view[local].kind == _Kind.oversized {
                    let error = syntaxError(in: decoder.oversized(at: start, path: .root))
                    return .elementError(error, isLimit: true)
                }
                unsafe elementStart = start
                guard unsafe buildsValues else { return .value(.null) }
                return unsafe .value(builder.value(at: local, in: stream.view))
            }
        } catch {
            if stream.pendingErrorsThrown != thrownBefore {
                // A malformed JSON Lines value or array element: the stream
                // resumes after it. Its index is the reader's numbering.
                // (Damage between an array's elements breaks none.)
                var syntax = syntaxError(in: error)
                if (stream.mode != .array && stream.mode != .roots) || syntax.elementIndex != nil {
                    unsafe index += 1
                    syntax.elementIndex = unsafe index
                }
                return .elementError(syntax, isLimit: Self.isLimit(syntax))
            }
            unsafe finished = true
            if var syntax = (error as? DecodingError).flatMap(Self.underlyingSyntaxError) {
                if syntax.elementIndex != nil { syntax.elementIndex = unsafe index + 1 }
                return .syntaxError(syntax)
            }
            return .readError(error)
        }
    }

    /// Making events: what the one token of the element at `local` is.
    private func event(at local: Int) -> Event {
        let view = unsafe stream.view
        let token = unsafe view[local]
        switch token.kind {
        case _Kind.mark: return .mark(.end)
        case _Kind.array: return .mark(.array)
        case _Kind.object: return .mark(.object)
        case _Kind.key: return unsafe .key(builder.key(at: local, in: view))
        default: return unsafe .value(builder.value(at: local, in: view))
        }
    }

    /// Following roots: a mark, or a member of a target object (nil for
    /// anything else, which is read as any element is).
    private func rootsEvent(at local: Int) -> Event? {
        let token = unsafe stream.view[local]
        if token.kind == _Kind.mark {
            let mark = _RootMark(code: Int32(token.a), keysFollowed: Int(token.b))
            // A mark is no element: the index `next()` counted for it is taken
            // back, or starts again before a target's first element.
            switch mark {
            case .object:
                inTargetObject = true
                targetMemberKeys.removeAll()
                unsafe index = takeFirstTargetIndex() - 1
            case .array: unsafe index = takeFirstTargetIndex() - 1
            case .end: inTargetObject = false; unsafe index -= 1
            case .rootEnd:
                rootHasRepeatedKey = token.b != 0 || targetRepeatsKey
                targetRepeatsKey = false
                rootStartOffset = Int(token.position) - Int(bytesBefore)
                unsafe index -= 1
            default: unsafe index -= 1
            }
            return .mark(mark)
        }
        guard inTargetObject else { return nil }
        let view = unsafe stream.view
        if unsafe view[local + 1].kind == _Kind.oversized {
            return unsafe .elementError(syntaxError(in: decoder.oversized(at: local + stream.tokenBase, path: .root)),
                                        isLimit: true)
        }
        let key = unsafe builder.key(at: local, in: view)
        if !targetMemberKeys.insert(key.hashValue).inserted { targetRepeatsKey = true }
        guard unsafe buildsValues else { return .member(key, .null) }
        return unsafe .member(key, builder.value(at: local + 1, in: view))
    }

    /// Following roots, after `.mark(.rootEnd)`: whether the value that
    /// ended has a key along the path, or among a target object's members,
    /// more than once (or, rarely, two keys of the same hash). jq keeps a
    /// repeated key's last value; the marks and members read followed the
    /// first, so the value is to be read again whole (`rootStartOffset`).
    package private(set) var rootHasRepeatedKey = false
    /// Following roots, after `.mark(.rootEnd)`: where the value that ended
    /// starts (a byte offset, as `elementEndOffset()` is where it ends).
    package private(set) var rootStartOffset: Int?
    /// The hashes of the target object's keys so far.
    private var targetMemberKeys = Set<Int>()
    private var targetRepeatsKey = false

    /// Following roots, the index of the next target's first element, when
    /// it is not 0: a reader that reads on from a piece in the middle of it.
    private var firstTargetIndex: Int?

    private func takeFirstTargetIndex() -> Int {
        defer { firstTargetIndex = nil }
        return firstTargetIndex ?? 0
    }

    /// Writes the element (or member's value) last returned, which may not
    /// have been built (`buildsValues`), as `writer` would write it at `level`.
    package func writeLastElement(with writer: _JQWriter, level: Int, into bytes: inout [UInt8]) {
        guard let index = lastElementIndex else { return }
        // A member's value has no text of its own on the tape's elements. A
        // number, boolean or null is written from the tape for less than the
        // check that its text could be copied.
        if !inTargetObject, writer.writesVerbatim, unsafe Self.hasText(stream.view[index].kind),
           appendText(ofElementAt: index, into: &bytes) { return }
        write(at: index, with: writer, level: level, into: &bytes)
    }

    /// Whether a value of `kind` is worth copying from its input text.
    private static func hasText(_ kind: UInt8) -> Bool {
        kind == _Kind.string || kind == _Kind.array || kind == _Kind.object
    }

    /// The tape index of the element (or, following roots, the member's
    /// value) last returned; nil before the first or once it is dropped.
    var lastElementIndex: Int? {
        guard let start = unsafe elementStart, let local = stream.local(start) else { return nil }
        return inTargetObject ? local + 1 : local
    }

    /// Writes the value at tape index `value` as `writer` would write it.
    func write(at value: Int, with writer: _JQWriter, level: Int, into bytes: inout [UInt8]) {
        unsafe scratch.removeAll()
        if unsafe _JQWriter.writeTapeValue(stream.view, at: value, level: level, style: writer.style,
                                           into: &scratch) != nil {
            unsafe bytes.append(contentsOf: scratch.buffer)
        } else {
            unsafe writer.write(builder.value(at: value, in: stream.view), level: level, into: &bytes)
        }
    }

    /// Appends the input text of the element last returned, at `index`, when
    /// it is what `writeTapeValue` would write (`_JQWriter+Verbatim.swift`);
    /// false when it appended nothing. Only a piece keeps its text.
    private func appendText(ofElementAt index: Int, into bytes: inout [UInt8]) -> Bool {
        guard let pieceText = unsafe pieceText, let end = stream.elementEnd(unsafe ordinal - 1) else { return false }
        let view = unsafe stream.view
        let start = unsafe view[index].position
        guard start >= pieceText.offset, end >= start, end - pieceText.offset <= UInt64(pieceText.bytes.count),
              let length = unsafe _JQWriter.verbatimLength(view, at: index, maxDepth: maxDepth),
              UInt64(length) <= end - start else { return false }
        let from = Int(start - pieceText.offset), to = Int(end - pieceText.offset)
        let copied = unsafe pieceText.bytes.withUnsafeBytes { text in
            unsafe _JQWriter.appendVerbatim(UnsafeRawBufferPointer(rebasing: text[from..<to]), length: length,
                                            into: &bytes)
        }
        if copied { unsafe elementsCopied += 1 }
        return copied
    }

    /// Whether the element (or member's value) last returned is an array or
    /// object with something in it; read on the tape, whether built or not.
    package var lastElementIsNonEmptyContainer: Bool {
        guard let index = lastElementIndex else { return false }
        let token = unsafe stream.view[index]
        return (token.kind == _Kind.array || token.kind == _Kind.object) && token.count > 0
    }

    /// Whether the element (or member's value) last returned is `false` or
    /// `null`; read on the tape, whether built or not.
    package var lastElementIsFalseOrNull: Bool {
        guard let index = lastElementIndex else { return false }
        let kind = unsafe stream.view[index].kind
        return kind == _Kind.false || kind == _Kind.null
    }

    /// What the element last returned is, as messages name it ("a number").
    package var lastElementKind: String {
        guard let index = lastElementIndex else { return "nothing" }
        return unsafe _describeKind(stream.view[index].kind)
    }

    /// The element (or member's value) last returned, built now from the
    /// tape; an object with only the members in `members` (nil: all).
    package func lastElementValue(keeping members: _Projection?) -> JSONValue {
        guard let index = lastElementIndex else { return .null }
        return unsafe builder.value(at: index, in: stream.view, keeping: members)
    }

    /// Where the element last returned as a value starts: line, column and byte offset.
    package func elementPosition() -> (line: Int, column: Int, byteOffset: Int)? {
        guard let start = unsafe elementStart, let local = stream.local(start) else { return nil }
        let position = unsafe stream.position(of: stream.view[local].position)
        return (position.line, position.column, position.byteOffset)
    }

    /// The byte offset just past the element (or token, making events)
    /// last returned; nil when it is no longer known.
    package func elementEndOffset() -> Int? {
        guard unsafe ordinal > 0, let end = stream.elementEnd(unsafe ordinal - 1) else { return nil }
        return Int(end - bytesBefore)
    }

    /// jq's line for the element (or mark, such as a target's end) last
    /// returned (`input_line_number`, and its error messages'
    /// `(at FILE:LINE)`): jq reads its input a line at a time and counts the
    /// line breaks read, so this is the line the element ends on, or the one
    /// before when no line break follows it there (the input's last line).
    /// Nil when the element's end is no longer known.
    package func elementEndLine() -> Int? {
        guard unsafe ordinal > 0, let end = stream.elementEnd(unsafe ordinal - 1), end > 0 else { return nil }
        let line = stream.position(of: end - 1).line
        if stream.bytesRead > end, stream.position(of: stream.bytesRead).line > line { return line }
        // No line break after it in what is read: at the input's end, none
        // follows. (A pipe not yet seen to end is taken to have one.)
        let readWhole = stream.reachedEndOfInput
            || (source?.isCompressedFile == false && size.map { stream.bytesRead - bytesBefore >= $0 } == true)
        return readWhole ? line - 1 : line
    }

    private func syntaxError(in error: any Error) -> JSONSyntaxError {
        if let decoding = error as? DecodingError, let syntax = Self.underlyingSyntaxError(decoding) {
            return syntax
        }
        return JSONSyntaxError(message: "\(error)", byteOffset: 0, line: 1, column: 1)
    }

    private static func underlyingSyntaxError(_ error: DecodingError) -> JSONSyntaxError? {
        guard case .dataCorrupted(let context) = error else { return nil }
        return context.underlyingError as? JSONSyntaxError
    }

    /// The messages `_ElementStream.limitMessage` and `oversized` write for a
    /// broken limit, as opposed to invalid JSON.
    private static func isLimit(_ error: JSONSyntaxError) -> Bool {
        let prefixes = ["Nesting deeper than", "Number literal longer than", "String longer than",
                        "Element larger than"]
        return prefixes.contains { error.message.hasPrefix($0) }
    }
}

/// A file descriptor read with `read(2)`. For anything but a regular file
/// it first polls: when no input is ready, it runs `beforeBlockingRead`.
final class _ReaderSource: _ByteSource {
    let descriptor: Int32
    /// Bytes left to read in a regular file; nil for pipes and terminals.
    let size: Int?
    /// Whether it is a regular file that starts compressed, and the offset it starts at.
    let isCompressedFile: Bool
    let startOffset: Int64
    private let ownsDescriptor: Bool
    private var beforeBlockingRead: (() -> Void)?
    /// Whether a compressed input is decompressed on a thread of its own.
    var readsAhead = true
    /// Bytes read from the descriptor before, to be read again first.
    var readFirst: [UInt8] = []
    private var readFirstOffset = 0

    var prefersReadAhead: Bool { readsAhead }

    func takeBlockingReadHook() -> (() -> Void)? {
        defer { beforeBlockingRead = nil }
        return beforeBlockingRead
    }

    init(path: String, beforeBlockingRead: (() -> Void)?) throws {
        let fd = unsafe open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var info = stat()
        if unsafe fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw POSIXError(.EISDIR)
        }
        descriptor = fd
        ownsDescriptor = true
        size = Self.remainingSize(fd)
        (startOffset, isCompressedFile) = Self.compressedFileStart(fd, size: size)
        self.beforeBlockingRead = size == nil ? beforeBlockingRead : nil
    }

    init(descriptor: Int32, beforeBlockingRead: (() -> Void)?) {
        self.descriptor = descriptor
        ownsDescriptor = false
        size = Self.remainingSize(descriptor)
        (startOffset, isCompressedFile) = Self.compressedFileStart(descriptor, size: size)
        self.beforeBlockingRead = size == nil ? beforeBlockingRead : nil
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Where a regular file's reading starts, and whether it starts with a
    /// compression signature (looked at without moving the offset).
    private static func compressedFileStart(_ fd: Int32, size: Int?) -> (Int64, Bool) {
        guard size != nil else { return (0, false) }
        let start = Int64(max(0, lseek(fd, 0, SEEK_CUR)))
        var first = [UInt8](repeating: 0, count: CompressedInputError.Format.signatureLength)
        let count = unsafe first.withUnsafeMutableBytes { unsafe pread(fd, $0.baseAddress, $0.count, off_t(start)) }
        return (start, count > 0 && CompressedInputError.Format.recognise(first.prefix(count)) != nil)
    }

    /// Bytes read from the file so far: the descriptor's offset, which the
    /// decompressing thread moves (a system call, so only for progress reports).
    var bytesReadFromFile: UInt64 {
        UInt64(max(0, Int64(lseek(descriptor, 0, SEEK_CUR)) - startOffset))
    }

    /// For a regular file, the bytes from the current offset to the end
    /// (stdin redirected from a file may not start at 0).
    private static func remainingSize(_ fd: Int32) -> Int? {
        var info = stat()
        guard unsafe fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let offset = lseek(fd, 0, SEEK_CUR)
        return max(0, Int(info.st_size) - max(0, Int(offset)))
    }

    func isReady(within milliseconds: Int32) -> Bool {
        guard size == nil, readFirstOffset == readFirst.count else { return true }
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        // An error, or the end (POLLHUP), is for the read to report.
        return unsafe poll(&request, 1, milliseconds) != 0
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if readFirstOffset < readFirst.count {
            let count = min(buffer.count, readFirst.count - readFirstOffset)
            unsafe buffer.copyBytes(from: readFirst[readFirstOffset..<(readFirstOffset + count)])
            readFirstOffset += count
            return count
        }
        if let beforeBlockingRead {
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if unsafe poll(&request, 1, 0) == 0 { beforeBlockingRead() }
        }
        while true {
            let count = unsafe Foundation.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }
}
