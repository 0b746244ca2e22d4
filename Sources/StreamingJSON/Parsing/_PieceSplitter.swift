// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

// Cutting one input into pieces that threads parse on their own.
//
// A root array is cut just after a comma between two of its elements; JSON
// Lines (any run of top-level values) just after a line break between two
// values. The cut points come from a quote- and escape-aware scan in C
// (`sj_cut_scan_find`, SIMD where the CPU has it), far cheaper than parsing.
// Each array piece is made a whole array again: the comma it was cut at
// stands as `]` at the end of the piece before and as `[` at the start of the
// next, both at the comma's offset:
//
//   input:    [ e0 , e1 , e2 , e3 ]
//   pieces:   [ e0 , e1 ]              (`]` in place of the comma after e1)
//                       [ e2 , e3 ]    (`[` in place of the same comma)
//
// A fresh parser then reads a piece exactly as one parser reading the whole
// input would, provided every piece before it parsed without error: the first
// error in input order is the one a single parser reports, at the same place.
// (The scan is exact on a valid prefix, so it can only be fooled after that
// first error.) A cut is made only between two values — not after `[` or `,`,
// nor before `]` or `,` — so that no piece is an empty array standing for a
// missing element.
//
// The array at a key path (`["items"]`) is cut the same way, once a parse of
// the input's start has found its `[` (`sj_path_locator`). Each piece is then
// framed to read as a whole document with that path: the pieces after the
// first begin with the path's objects opened (`{"items":`) before the `[`,
// and the pieces before the last end with them closed (`}`), so that one
// parser reads each with the path as one parser reads the whole input:
//
//   input:    { "meta":{…}, "items": [ e0 , e1 , e2 ], "n": 3 }
//   pieces:   { "meta":{…}, "items": [ e0 , e1 ]}
//                            {"items":[ e2 ], "n": 3 }
//
// The frame's bytes are not the input's: a piece's origin is set back by
// the opening frame's length, which never reaches before the input's start
// (the input spells the same keys, and an element, before the comma). The
// scan stops at the array's closing bracket: the bytes after it, to the
// input's end, go to the last piece.

/// One piece of an input, with what its parser needs to report positions in
/// the whole input.
package struct _InputPiece: @unchecked Sendable {
    /// 0 for the input's first piece, then 1, 2, …
    package let sequence: Int
    let bytes: Data
    /// nil: the input's shape is left to its first byte (a single piece).
    let mode: _StreamMode?
    let origin: _InputOrigin
    /// The input's last piece.
    package let isLast: Bool
    /// The pieces are a root array's elements (errors end the whole input).
    package let isArray: Bool
    /// Bytes of the input up to the end of this piece.
    package let inputEnd: UInt64
    /// The key path of the array the pieces are elements of (empty: the root).
    package let path: [String]
}

/// Reads an input and cuts it into pieces of about `pieceSize` bytes, at
/// element boundaries (see the comment at the top of this file).
///
/// Only a root array (`.array`, or `.auto` starting with `[`) and top-level
/// values (`.jsonLines`, `.auto` otherwise) are cut; an input that cannot
/// be cut, or that ends before the first cut, is one piece.
@safe package final class _PieceSplitter {
    package static let defaultPieceSize = 512 << 10

    private var source: any _ByteSource
    private let fileSource: _ReaderSource?
    private let format: JSONStreamFormat
    /// The key path of the array to cut; empty: the root.
    let path: [String]
    /// `{"k1":{"k2":…[`, the path's objects and the array opened: what a
    /// piece after the first begins with (just `[` for a root array).
    private let opening: [UInt8]
    /// The search for the array at `path`, until it is found (or is not there).
    private var locator: _PathLocator?
    private let pieceSize: Int
    /// How the input is cut, once its first byte is known; `.none`: not at all.
    private var cutting: Cutting?
    /// The next piece's bytes, read so far; after the first array piece,
    /// the `[` that stands for the comma it was cut at, then the bytes after
    /// it. Handed over to the piece when it is cut off.
    private var storage: UnsafeMutableRawBufferPointer
    /// Bytes held in `storage`, from its start.
    private var count = 0
    /// Bytes of `storage` the scan has passed.
    private var scanned = 0
    private var scan = sj_cut_scan()
    /// Where `storage[0]` sits in the input (the `[` at its comma's offset).
    private var origin = _InputOrigin.start
    private var sequence = 0
    /// Piece buffers come back here when their pieces are done with.
    private let pool = _BufferPool()
    private var ended = false
    private var finished = false
    /// A pipe or a terminal: reads may wait for input (`next(mayWait:)`).
    package let waitsOnInput: Bool
    /// What was read cannot be read again (a pipe or a terminal, or
    /// standard input redirected from a compressed file, whose descriptor the
    /// decompressing thread moves on): one stream reads on from what the
    /// splitter holds, with `readerForTheRest`.
    package let readsOnce: Bool
    /// How long a pipe may have nothing to read while pieces are out before
    /// their results are written (milliseconds): a producer as fast as the
    /// workers writes again within it, and a live pipe's values wait no longer.
    static let briefWait: Int32 = 5
    /// The pipe buffer asked for (Linux; an unprivileged process may have 1 MiB).
    static let pipeSize: Int32 = 1 << 20
    /// How long a pipe may take to fill a piece, no piece being out, before
    /// the rest is left to one stream (milliseconds): a slow or live pipe's
    /// values are not held back longer than this.
    package var idleWait: Int32 = 100
    /// When the piece being filled began (`DispatchTime` nanoseconds).
    private var pieceBegan = DispatchTime.now().uptimeNanoseconds

    private enum Cutting {
        case array, lines, none
    }

    /// The input's size, when it is a regular file (for progress).
    package var size: UInt64? { fileSource?.size.map(UInt64.init) }

    /// Bytes read from the file so far (compressed bytes for a compressed file).
    package var bytesRead: UInt64 {
        if let fileSource, fileSource.isCompressedFile { return fileSource.bytesReadFromFile }
        return origin.byteOffset + UInt64(count)
    }

    /// - Throws: `POSIXError` when the file cannot be opened.
    package convenience init(contentsOfFile file: String, format: JSONStreamFormat, path: [String] = [],
                             limits: _ParserLimits = _ParserLimits(),
                             pieceSize: Int = _PieceSplitter.defaultPieceSize) throws {
        let reader = try _ReaderSource(path: file, beforeBlockingRead: nil)
        self.init(source: reader, file: reader, format: format, path: path, limits: limits, pieceSize: pieceSize)
    }

    /// Cuts standard input (an open descriptor, which the splitter does not
    /// close) from its offset on, after `readFirst` (bytes already read from
    /// it).
    ///
    /// A regular file (standard input redirected from one) can be read
    /// again from where it started, unless it is compressed. A pipe or a
    /// terminal is cut as its bytes arrive (`waitsOnInput`), decompressed
    /// on a thread of its own when it is compressed. What cannot be read
    /// again (`readsOnce`) is read on with `readerForTheRest`, before its
    /// first piece as after. `beforeBlockingRead` runs before a read of it
    /// that waits (when no piece is out).
    package convenience init(descriptor: Int32, readFirst: [UInt8] = [], format: JSONStreamFormat,
                              path: [String] = [], limits: _ParserLimits = _ParserLimits(),
                              pieceSize: Int = _PieceSplitter.defaultPieceSize,
                              beforeBlockingRead: (() -> Void)? = nil) {
        let reader = _ReaderSource(descriptor: descriptor, beforeBlockingRead: beforeBlockingRead)
        reader.readFirst = readFirst
        #if os(Linux)
        // A larger pipe lets the producer write on while the results out are written.
        // F_SETPIPE_SZ (Glibc's module leaves it out: it needs _GNU_SOURCE).
        if reader.size == nil { _ = fcntl(descriptor, 1031, Self.pipeSize) }
        #endif
        self.init(source: reader, file: reader, format: format, path: path, limits: limits, pieceSize: pieceSize,
                  waitsOnInput: reader.size == nil, readsOnce: reader.size == nil || reader.isCompressedFile)
    }

    /// Cuts bytes in memory (tests).
    package convenience init(data: Data, format: JSONStreamFormat, path: [String] = [],
                             limits: _ParserLimits = _ParserLimits(), pieceSize: Int) {
        self.init(source: _DataSource(data), file: nil, format: format, path: path, limits: limits,
                  pieceSize: pieceSize)
    }

    /// Cuts `source` (not yet read).
    convenience init(source: any _ByteSource, format: JSONStreamFormat, path: [String] = [],
                     limits: _ParserLimits = _ParserLimits(), pieceSize: Int) {
        self.init(source: source, file: nil, format: format, path: path, limits: limits, pieceSize: pieceSize)
    }

    private init(source: any _ByteSource, file: _ReaderSource?, format: JSONStreamFormat, path: [String],
                 limits: _ParserLimits, pieceSize: Int, waitsOnInput: Bool = false, readsOnce: Bool = false) {
        self.source = source.recognisingCompression()
        self.waitsOnInput = waitsOnInput
        self.readsOnce = readsOnce
        self.fileSource = file
        self.format = format
        self.path = path
        self.opening = _PathLocator.opening(path)
        self.pieceSize = max(1, pieceSize)
        unsafe storage = unsafe pool.take(Self.capacity(self.pieceSize))
        if format == .objectValues || (!path.isEmpty && format == .jsonLines) {
            cutting = Cutting.none
        } else if !path.isEmpty {
            locator = _PathLocator(path: path, allowsComments: limits.allowsComments)
            if locator == nil { cutting = Cutting.none }
        }
    }

    deinit {
        unsafe pool.give(storage)
    }

    /// Reads up to the input's first value; whether the input can be cut:
    /// false for an input with no value, or a root other than an array
    /// where one is asked for. Then nothing should be asked of the splitter.
    ///
    /// - Throws: what reading throws.
    package func prepare() throws -> Bool {
        while cutting == nil && !ended {
            do {
                try readMore()
            } catch {
                readFailure = error
                throw error
            }
            resolveCutting()
        }
        pieceBegan = DispatchTime.now().uptimeNanoseconds  // the first piece's bytes begin to come
        return cutting == .array || cutting == .lines
    }

    /// Whether a piece has been handed out.
    package var hasCut: Bool { sequence > 0 }

    /// The most a search for the array at the path reads: past it, the
    /// input is not cut (everything before the array would be one piece).
    static let locateLimit = 8 << 20

    /// The next piece, nil after the last.
    ///
    /// - Throws: what reading throws (`POSIXError`, `CompressedInputError`);
    ///   the pieces before it were complete.
    ///
    /// After `gaveUp`, nil: the rest is read by `readerForTheRest`.
    ///
    /// A pipe with nothing to read yet: nil unless `mayWait` (pieces are out,
    /// whose results are to be written first); when it may, and the piece
    /// has taken `idleWait` to fill, the splitter gives up, so that one
    /// stream hands each value on as it arrives (a slow or live pipe)
    /// instead of waiting for a piece to fill.
    package func next(mayWait: Bool = true) throws -> _InputPiece? {
        guard !finished && !gaveUp else { return nil }
        if let cut = firstCut {
            firstCut = nil
            return makePiece(upTo: cut)
        }
        switch try readToCut(mayWait: mayWait) {
        case .cut(let cut): return makePiece(upTo: cut)
        case .ended: return makeLastPiece()
        case .stuck:
            gaveUp = true
            return nil
        case .waiting: return nil
        }
    }

    /// For a pipe, before any thread is started: reads until the first piece
    /// can be cut (true; `next` then cuts it), or until the input ends,
    /// waits or has no cut in reach (false: one stream is to read it all).
    package func holdsAPiece() throws -> Bool {
        guard !finished && !gaveUp, case .cut(let cut) = try readToCut(mayWait: true) else { return false }
        firstCut = cut
        return true
    }

    /// Where `readToCut` stopped.
    private enum ReadProgress {
        case cut(Int)
        case ended
        /// No cut in `patience` pieces' worth, or an idle pipe.
        case stuck
        /// A pipe with nothing to read yet, and not `mayWait`.
        case waiting
    }

    /// Reads until the next cut (the end of the next piece in `storage`).
    private func readToCut(mayWait: Bool) throws -> ReadProgress {
        while true {
            if cutting == nil { resolveCutting() }
            if let cut = findCut() { return .cut(cut) }
            if ended { return .ended }
            if count >= Self.patience * pieceSize { return .stuck }
            if waitsOnInput && !source.isReady(within: 0) {
                guard mayWait else {
                    // Input soon, or the results out first.
                    if source.isReady(within: Self.briefWait) { continue }
                    return .waiting
                }
                // Waits at most until the piece has taken `idleWait` to fill.
                let waited = Int64((DispatchTime.now().uptimeNanoseconds &- pieceBegan) / 1_000_000)
                let left = Int32(clamping: max(0, Int64(idleWait) - waited))
                if left == 0 || !source.isReady(within: left) { return .stuck }
            }
            do {
                try readMore()
            } catch {
                readFailure = error
                throw error
            }
        }
    }

    /// A cut found by `holdsAPiece`, not made yet.
    private var firstCut: Int?

    /// What reading threw: the rest (`rest(from:)`) ends with it, after the
    /// bytes read before it.
    private var readFailure: (any Error)?

    /// Pieces' worth of bytes read without a cut, after which the splitter
    /// gives up: one huge element, a document that is one object spread over
    /// lines (read as JSON Lines), or a line left open by an error
    /// (`{"a": [1`), which keeps the scan's depth above 0 for good. Cutting
    /// anyway could split a value; buffering on would hold it all.
    static let patience = 4

    /// Set when the splitter found no cut in `patience` pieces' worth of
    /// bytes: the rest of the input is to be read in one stream.
    package private(set) var gaveUp = false

    /// A reader for the rest of the input, in one stream: `pieces` (handed
    /// out earlier, not read: JSON Lines pieces, in order), then what the
    /// splitter holds, then what it has not read. It reads exactly as one
    /// reader reading the whole input would from there, numbering elements
    /// from `firstIndex`; the splitter hands out nothing more.
    ///
    /// For the rest after the splitter gave up, `pieces` is empty; for a JSON
    /// Lines piece that ended inside a value (a cut fooled by an earlier
    /// malformed line, `}` then `[1` on the next lines), it is that piece
    /// and those after it.
    ///
    /// `followingRoots` (`--jq`, `--path`): it follows each document along
    /// the path as the run's own reader does; the array (or document) being
    /// cut reads as one that starts at the first piece, whose opening
    /// bracket stands for the comma it was cut at.
    package func readerForTheRest(from pieces: [_InputPiece] = [], limits: _ParserLimits, projection: _Projection?,
                                  firstIndex: Int, followingRoots: Bool = false) -> _ValueReader {
        let (source, mode, origin) = rest(from: pieces)
        return _ValueReader(source: source, mode: followingRoots ? .roots : mode, path: path, origin: origin,
                            limits: limits, projection: projection, firstIndex: firstIndex)
    }

    /// `readerForTheRest`'s input: the bytes, the mode to read them in and
    /// where they start.
    func rest(from pieces: [_InputPiece]) -> (source: any _ByteSource, mode: _StreamMode?, origin: _InputOrigin) {
        var held = Data()
        for piece in pieces { join(piece.bytes, to: &held, isArray: piece.isArray) }
        let tail = unsafe Data(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
        join(tail, to: &held, isArray: cutting == .array && sequence > 0)
        count = 0
        finished = true
        let start = pieces.first?.origin ?? origin
        let first = pieces.first?.sequence ?? sequence
        let mode: _StreamMode? = first == 0 ? firstMode : cutting == .array ? .array : .lines
        let after: any _ByteSource = readFailure.map { _FailingSource(error: $0) } ?? source
        return (_PrefixedSource(prefix: held, rest: after), mode, start)
    }

    /// The mode of the input's first piece, read from its first byte.
    private var firstMode: _StreamMode? { format.streamMode(path: path) }

    /// Appends the bytes of the piece after `joined`: array pieces meet at
    /// the comma they were cut at, which the first one's `]` and the second
    /// one's `[` stood for (each with the frame around it, see the top of
    /// the file, which goes).
    private func join(_ bytes: Data, to joined: inout Data, isArray: Bool) {
        guard isArray, !joined.isEmpty, bytes.starts(with: opening) else {
            joined.append(bytes)
            return
        }
        joined.removeLast(path.count)
        joined[joined.index(before: joined.endIndex)] = UInt8(ascii: ",")
        joined.append(bytes.dropFirst(opening.count))
    }

    // MARK: Cutting

    /// Decides how to cut at the first byte other than whitespace (or a BOM);
    /// with a path, once the array there is found.
    private func resolveCutting() {
        if locator != nil { return locateArray() }
        var index = unsafe _startsWithUTF8BOM(UnsafeRawBufferPointer(rebasing: storage[0..<count])) ? 3 : 0
        while unsafe index < count && _isJSONWhitespace(storage[index]) { index += 1 }
        guard index < count else { return }
        let opensArray = unsafe storage[index] == UInt8(ascii: "[")
        switch format {
        case .auto: cutting = opensArray ? .array : .lines
        case .array: cutting = opensArray ? .array : Cutting.none
        case .jsonLines: cutting = .lines
        case .objectValues: cutting = Cutting.none
        }
        scan.floor = cutting == .array ? 1 : .min
    }

    /// Goes on searching for the array at the path in the bytes read since;
    /// once found, the scan starts just inside it.
    private func locateArray() {
        guard let locator else { return }
        let base = unsafe UnsafeRawPointer(storage.baseAddress!).assumingMemoryBound(to: UInt8.self)
        switch unsafe locator.feed(base, upTo: count) {
        case .more where count < Self.locateLimit && !ended:
            return
        case .found(let start):
            cutting = .array
            let before = unsafe UnsafeRawBufferPointer(start: base, count: start)
            scan = sj_cut_scan(depth: 1, in_string: 0, escaped: 0,
                               newlines: UInt64(unsafe before.count(where: { $0 == 0x0A })), floor: 1, closed: 0)
            scanned = start
        case .none, .more, .foundObject:
            cutting = Cutting.none
        }
        self.locator = nil
    }

    /// The end of the next piece in `storage` (just past its separator), if
    /// the bytes read so far hold one.
    private func findCut() -> Int? {
        guard let cutting, cutting != .none, scan.closed == 0 else { return nil }
        let (separator, depth): (UInt8, Int64) = cutting == .array ? (UInt8(ascii: ","), 1) : (0x0A, 0)
        let base = unsafe storage.baseAddress!.assumingMemoryBound(to: UInt8.self)
        if scanned < pieceSize && count > scanned {
            let end = min(count, pieceSize)
            unsafe sj_cut_scan_advance(&scan, base + scanned, end - scanned)
            scanned = end
        }
        while scanned >= pieceSize && scanned < count {
            let before = scan
            let used = unsafe sj_cut_scan_find(&scan, base + scanned, count - scanned, separator, depth)
            // The array ended: what follows goes to the last piece.
            if scan.closed != 0 { return nil }
            let cut = scanned + used
            if unsafe cut == count && (used == 0 || base[cut - 1] != separator || scan.depth != depth
                                       || scan.in_string != 0) {
                scanned = count
                return nil
            }
            guard cutting == .array else {
                scanned = cut
                return cut
            }
            switch arrayCutIsBetweenValues(at: cut) {
            case true?:
                scanned = cut
                return cut
            case false?:
                scanned = cut  // not here: look for the next comma
            case nil:
                scan = before  // the next value's first byte is not read yet
                return nil
            }
        }
        return nil
    }

    /// Whether the comma before `cut` sits between two values, so that a
    /// parser sees the same tokens either side of it with `]` and `[` in
    /// its place: after a complete value (a string, container, number or
    /// literal that yajl accepts when `]` follows, as it does when `,` does)
    /// and before the first byte of one. nil when the bytes after it are not
    /// read yet. Anything else is malformed; the cut is not made there, and
    /// the error comes from a parser that sees the real bytes.
    private func arrayCutIsBetweenValues(at cut: Int) -> Bool? {
        var after = cut
        while unsafe after < count && _isJSONWhitespace(storage[after]) { after += 1 }
        if after == count && !ended { return nil }
        var before = cut - 2
        while unsafe before >= 0 && _isJSONWhitespace(storage[before]) { before -= 1 }
        guard before >= 0, after < count else { return false }
        return unsafe Self.endsValue(UnsafeRawBufferPointer(storage), at: before) && Self.beginsValue(storage[after])
    }

    // MARK: Pieces

    /// Hands `storage[0..<cut]` over as a piece, without copying it, and
    /// starts a new storage with what follows the cut.
    private func makePiece(upTo cut: Int) -> _InputPiece {
        let isArray = cutting == .array
        // The comma the array is cut at becomes the piece's closing bracket.
        if isArray { unsafe storage[cut - 1] = UInt8(ascii: "]") }
        let start = origin
        // The next piece starts at the comma (its `[`, after the opening
        // frame) or after the line break.
        let nextStart = isArray ? cut - 1 : cut
        // (A piece without a line break, all of a minified file's, is not searched.)
        let newline = Int(scan.newlines) > start.linesBefore ? lastNewline(before: nextStart) : nil
        let frame = isArray ? UInt64(opening.count - 1) : 0
        origin = _InputOrigin(byteOffset: start.byteOffset + UInt64(nextStart) - frame,
                              linesBefore: Int(scan.newlines),
                              lastNewline: newline.map { start.byteOffset + UInt64($0) } ?? start.lastNewline)
        var full = unsafe storage
        unsafe startStorage(keeping: UnsafeRawBufferPointer(rebasing: full[cut..<count]), opening: isArray)
        let length = unsafe closeFrame(of: &full, at: cut)
        sequence += 1
        return unsafe _InputPiece(sequence: sequence - 1, bytes: handOver(full, count: length),
                                  mode: isArray ? .array : .lines, origin: start, isLast: false, isArray: isArray,
                                  inputEnd: start.byteOffset + UInt64(cut), path: path)
    }

    /// Closes the path's objects after a piece's `]` at `end` (its bytes
    /// after that are copied out already): the piece's length then.
    private func closeFrame(of buffer: inout UnsafeMutableRawBufferPointer, at end: Int) -> Int {
        guard !path.isEmpty else { return end }
        if end + path.count > buffer.count { unsafe Self.grow(&buffer, keeping: end, to: end + path.count) }
        for index in end..<(end + path.count) { unsafe buffer[index] = UInt8(ascii: "}") }
        return end + path.count
    }

    private func makeLastPiece() -> _InputPiece {
        finished = true
        let single = sequence == 0
        let mode: _StreamMode? = single ? firstMode : cutting == .array ? .array : .lines
        let full = unsafe storage
        let length = count
        unsafe startStorage(keeping: UnsafeRawBufferPointer(start: nil, count: 0), opening: false)
        return unsafe _InputPiece(sequence: sequence, bytes: handOver(full, count: length), mode: mode,
                                  origin: origin, isLast: true, isArray: cutting == .array,
                                  inputEnd: origin.byteOffset + UInt64(length), path: path)
    }

    /// The first `count` bytes of `buffer`, as `Data` that gives it back to
    /// the pool when released. (Data may copy a few bytes and release the
    /// buffer at once: it is not used after.)
    private func handOver(_ buffer: UnsafeMutableRawBufferPointer, count: Int) -> Data {
        let pool = self.pool
        let capacity = buffer.count
        return unsafe Data(bytesNoCopy: buffer.baseAddress!, count: count, deallocator: .custom { pointer, _ in
            unsafe pool.give(UnsafeMutableRawBufferPointer(start: pointer, count: capacity))
        })
    }

    /// A new storage holding `kept` (bytes of the old one, which is about to
    /// become a piece), after `opening` (`[`, after the frame) when `opens`:
    /// the next array piece's.
    private func startStorage(keeping kept: UnsafeRawBufferPointer, opening opens: Bool) {
        pieceBegan = DispatchTime.now().uptimeNanoseconds
        let prefix = opens ? opening.count : 0
        unsafe storage = unsafe pool.take(max(Self.capacity(pieceSize), prefix + kept.count))
        if opens { unsafe storage.copyBytes(from: opening) }
        if unsafe !kept.isEmpty {
            unsafe (storage.baseAddress! + prefix).copyMemory(from: kept.baseAddress!, byteCount: kept.count)
        }
        count = prefix + kept.count
        scanned = prefix
    }

    private func lastNewline(before end: Int) -> Int? {
        unsafe UnsafeRawBufferPointer(rebasing: storage[0..<end]).lastIndex(of: 0x0A)
    }

    // MARK: Reading

    /// Moves `buffer`'s first `count` bytes into a new buffer of `capacity`
    /// bytes, which replaces it (the old one is freed, not pooled).
    private static func grow(_ buffer: inout UnsafeMutableRawBufferPointer, keeping count: Int, to capacity: Int) {
        let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        unsafe larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        unsafe buffer.deallocate()
        unsafe buffer = larger
    }

    /// Bytes a read asks for beyond a piece's size: what follows the cut,
    /// copied into the next piece's storage, is less than this.
    private static let readSize = 64 * 1024

    private static func capacity(_ pieceSize: Int) -> Int { pieceSize + 2 * readSize }

    private func readMore() throws {
        if unsafe count == storage.count { unsafe Self.grow(&storage, keeping: count, to: 2 * storage.count) }
        // Up to a piece and a bit: the cut then falls in the last read's bytes.
        let wanted = max(Self.readSize, pieceSize + Self.readSize - count)
        let end = unsafe min(storage.count, count + wanted)
        let read = unsafe try source.read(into: UnsafeMutableRawBufferPointer(rebasing: storage[count..<end]))
        if read <= 0 { ended = true } else { count += read }
    }
}
