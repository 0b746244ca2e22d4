// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

/// How a piece's framed bytes are read: the parser mode and path, where the
/// bytes sit in the file, and the index of its first element in the whole
/// stream when known (an array's; a JSON Lines value's only in the first piece).
struct _PieceLayout {
    let mode: _StreamMode?
    let path: [String]
    let origin: _InputOrigin
    let firstIndex: Int?
}

/// A piece opened for reading, with the file it reads (for what it read, in tests).
struct _OpenedPiece {
    let input: _OpenedInput
    let file: _PieceFile?

    init(source: any _ByteSource, mode: _StreamMode?, path: [String], origin: _InputOrigin, firstIndex: Int?,
         file: _PieceFile?) {
        input = _OpenedInput(source: source, piece: _PieceLayout(mode: mode, path: path, origin: origin,
                                                                firstIndex: firstIndex))
        self.file = file
    }

    var source: any _ByteSource { input.source }
    var layout: _PieceLayout { input.piece! }
}

extension JSONPiece {
    /// Opens the piece of `url`'s file for one stream (see `_PieceSource`).
    ///
    /// - Throws: ``JSONPieceError`` for a piece not ready or a file that
    ///   changed, `CocoaError` or `POSIXError` from the file.
    func open(_ url: URL, format: JSONStreamFormat, recordsReads: Bool = false) throws -> _OpenedPiece {
        guard isReady else {
            throw JSONPieceError("Piece \(index) of \(count) is not ready: scan every piece of the plan and join them first")
        }
        if case .whole = shape {
            guard index == 0 else { return Self.emptyPiece }
            let source = try _FileDescriptorSource(url: url)
            return _OpenedPiece(source: source, mode: format.streamMode(path: path), path: path, origin: .start,
                                firstIndex: 0, file: nil)
        }
        let file = try _PieceFile(url: url)
        file.recordsReads = recordsReads
        try file.check(self)
        let entry = entry!
        guard !entry.outside else { return Self.emptyPiece }
        if case .lines = shape { return try openLines(file, entry: entry) }
        return try openContainer(file, entry: entry, format: format)
    }

    /// A piece with no element.
    private static var emptyPiece: _OpenedPiece {
        _OpenedPiece(source: _DataSource(Data()), mode: .lines, path: [], origin: .start, firstIndex: nil, file: nil)
    }

    private func openLines(_ file: _PieceFile, entry: _PieceEntry) throws -> _OpenedPiece {
        var scan = sj_cut_scan(depth: Int64(entry.depth), in_string: entry.inString ? 1 : 0,
                               escaped: entry.escaped ? 1 : 0, newlines: 0, floor: .min, closed: 0)
        let before = index == 0 ? nil : try delimiter(before: byteRange.lowerBound, state: entry, in: file)
        let stop = try endBefore(in: file).map { $0 + 1 }  // the line break stays with its line
        if index == 0 || before?.offset == -1 {
            guard (stop ?? 1) > 0 else { return Self.emptyPiece }
            let source = _PieceSource(file: file, start: 0, rangeEnd: byteRange.upperBound, stop: stop, scan: scan,
                                      shape: shape, frame: ([], []))
            return _OpenedPiece(source: source, mode: .lines, path: [], origin: .start, firstIndex: 0, file: file)
        }
        let delimiter: Int, linesBefore: Int, held: [UInt8]
        if let before {
            (delimiter, linesBefore, held) = (before.offset, entry.newlines - before.newlines, [])
            scan = sj_cut_scan(depth: 0, in_string: 0, escaped: 0, newlines: 0, floor: .min, closed: 0)
        } else if let found = try firstDelimiter(file, entry: entry, scan: &scan) {
            (delimiter, linesBefore, held) = (found.0, found.1.linesBefore, found.2)
        } else {
            return Self.emptyPiece
        }
        guard (stop ?? .max) > delimiter + 1 else { return Self.emptyPiece }
        let after = _InputOrigin(byteOffset: UInt64(delimiter + 1), linesBefore: linesBefore + 1,
                                 lastNewline: UInt64(delimiter))
        let source = _PieceSource(file: file, start: delimiter + 1, held: held, rangeEnd: byteRange.upperBound,
                                  stop: stop, scan: scan, shape: shape, frame: ([], []))
        return _OpenedPiece(source: source, mode: .lines, path: [], origin: after, firstIndex: nil, file: file)
    }

    /// An array's piece, or an object's: framed as a document with the path.
    private func openContainer(_ file: _PieceFile, entry: _PieceEntry, format: JSONStreamFormat) throws
        -> _OpenedPiece {
        let header = header!
        let isObject = shape == .object
        let opening = _PathLocator.opening(path, container: UInt8(ascii: isObject ? "{" : "["))
        let closing = [UInt8(ascii: isObject ? "}" : "]")] + Array(repeating: UInt8(ascii: "}"), count: path.count)
        var scan = sj_cut_scan(depth: 1 + Int64(entry.depth), in_string: entry.inString ? 1 : 0,
                               escaped: entry.escaped ? 1 : 0, newlines: 0, floor: 1, closed: 0)
        let bracketOrigin = _InputOrigin(byteOffset: UInt64(header.bracket), linesBefore: header.newlines,
                                         lastNewline: header.lastNewline.map(UInt64.init))
        let delimiter: Int, before: _InputOrigin
        var held: [UInt8] = [], firstIndex = entry.firstIndex
        if byteRange.contains(header.bracket) {
            (delimiter, before) = (header.bracket, bracketOrigin)
        } else if let found = try self.delimiter(before: byteRange.lowerBound, state: entry, in: file) {
            // The first element began after a delimiter in the range before.
            delimiter = found.offset
            scan = sj_cut_scan(depth: 1, in_string: 0, escaped: 0, newlines: 0, floor: 1, closed: 0)
            if delimiter == header.bracket {
                (before, firstIndex) = (bracketOrigin, 0)
            } else {
                // (The last line break before the delimiter matters only for the whitespace after it.)
                before = _InputOrigin(byteOffset: UInt64(delimiter), linesBefore: entry.newlines - found.newlines,
                                      lastNewline: found.newlines == 0 ? entry.lastNewline.map(UInt64.init) : nil)
                firstIndex = entry.firstIndex.map { $0 - 1 }
            }
        } else {
            guard let found = try firstDelimiter(file, entry: entry, scan: &scan) else { return Self.emptyPiece }
            (delimiter, before, held) = found
        }
        let stop = try endBefore(in: file)
        guard (stop ?? .max) > delimiter else { return Self.emptyPiece }
        // The frame's `[` stands at the delimiter's offset, the path's objects before it.
        var origin = before
        origin.byteOffset -= UInt64(opening.count - 1)
        let source = _PieceSource(file: file, start: delimiter + 1, held: held, rangeEnd: byteRange.upperBound,
                                  stop: stop, scan: scan, shape: shape, frame: (opening, closing))
        // An object's values are read as the whole file's are: as members,
        // or following the document along the path (`jsonstream --path`).
        let mode: _StreamMode = isObject ? (format == .objectValues ? .members : .roots) : .array
        return _OpenedPiece(source: source, mode: mode, path: path, origin: origin,
                            firstIndex: firstIndex, file: file)
    }

    /// The first delimiter in the range, from its start in `entry`'s state:
    /// its offset, the place of that offset (lines before it) and the bytes
    /// after it read so far; nil when the range has none (or the array
    /// closes first).
    private func firstDelimiter(_ file: _PieceFile, entry: _PieceEntry,
                                scan: inout sj_cut_scan) throws -> (Int, _InputOrigin, [UInt8])? {
        var position = byteRange.lowerBound
        var lastNewline = entry.lastNewline
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, min(64 << 10, byteRange.count)),
                                                            alignment: 64)
        defer { unsafe buffer.deallocate() }
        while position < byteRange.upperBound {
            let wanted = min(buffer.count, byteRange.upperBound - position)
            let count = unsafe try file.read(at: position, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
            guard count > 0 else { return nil }
            let bytes = unsafe UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            switch unsafe try _PieceBounds.next(in: file, bytes: bytes, at: position, scan: &scan, shape: shape) {
            case .delimiter(let offset):
                if let newline = unsafe bytes[0..<(offset - position)].lastIndex(of: 0x0A) {
                    lastNewline = position + newline
                }
                let place = _InputOrigin(byteOffset: UInt64(offset), linesBefore: entry.newlines + Int(scan.newlines)
                                            - (shape == .lines ? 1 : 0),
                                         lastNewline: lastNewline.map(UInt64.init))
                return unsafe (offset, place, Array(bytes[(offset - position + 1)...]))
            case .closed:
                return nil
            case .none:
                if let newline = unsafe bytes.lastIndex(of: 0x0A) { lastNewline = position + newline }
                position += count
            }
        }
        return nil
    }
}

extension _ValueReader {
    /// Reads one piece of a plan of the file at `path` (`jsonstream --piece`),
    /// on the calling thread; positions are the whole file's.
    /// `knowsElementIndexes` is false where the elements before the piece
    /// are not counted (JSON Lines after the first piece).
    ///
    /// - Throws: ``JSONPieceError`` for a piece not ready or a file that
    ///   changed; `CocoaError` or `POSIXError` from the file.
    package convenience init(piece: JSONPiece, contentsOfFile path: String, format: JSONStreamFormat,
                             limits: _ParserLimits, projection: _Projection?) throws {
        let opened = try piece.open(URL(fileURLWithPath: path), format: format)
        let layout = opened.layout
        self.init(source: opened.source, mode: layout.mode, path: layout.path, origin: layout.origin,
                  limits: limits, projection: projection, firstIndex: layout.firstIndex ?? 0)
        knowsElementIndexes = layout.firstIndex != nil
        bytesBefore = layout.origin.byteOffset
    }
}

extension StreamingJSONDecoder {
    /// The elements of one piece of a file, decoded one at a time: what a
    /// worker does with the piece it was sent (see ``JSONPiece``).
    ///
    /// ```swift
    /// let piece = try JSONDecoder().decode(JSONPiece.self, from: message)
    /// for try await item in decoder.elements(of: Item.self, contentsOf: url, piece: piece) { … }
    /// ```
    ///
    /// The pieces' elements, taken in order, are those of
    /// ``elements(of:contentsOf:at:format:)`` over the whole file, with the
    /// same errors: a syntax error carries its line, column and byte in the
    /// file, and an array's element index (a JSON Lines piece after the
    /// first counts its values from 0). After damage in one piece the scans
    /// of the ranges after it may be wrong: treat a piece that throws as a
    /// failed job.
    ///
    /// - Parameters:
    ///   - type: The type of each element.
    ///   - url: The file the piece was planned for.
    ///   - piece: A piece ready to read (``JSONPiece/isReady``).
    ///   - format: The format the plan was made with.
    /// - Returns: The piece's elements; the first `next()` throws
    ///   ``JSONPieceError`` for a piece not ready or a file that changed.
    public func elements<T: Decodable>(of type: T.Type, contentsOf url: URL, piece: JSONPiece,
                                       format: JSONStreamFormat = .auto) -> JSONElements<T> {
        JSONElements(options: options, path: piece.path, format: format) { try piece.open(url, format: format).input }
    }
}
