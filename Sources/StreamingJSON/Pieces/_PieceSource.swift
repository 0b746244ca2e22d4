// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

// Reading one piece of a plan.
//
// The delimiter before the piece's first element is found by a scan from
// its range's start, in the state the plan worked out for it (or, with only
// whitespace between, just before the range: `JSONPiece+Boundaries.swift`);
// its elements are then read from just after that delimiter, up to the one
// before the first element that begins past the range, which the scan finds
// as the bytes go by. An array's piece is
// framed as the in-process splitter frames its pieces (`_PieceSplitter`):
// the delimiter becomes `[` after the path's objects opened, the one at the
// end `]` before them closed, so that one parser reads the piece as a whole
// document and reports positions in the whole file:
//
//   file:        [ e0 , e1 , e2 | , e3 , e4 | , e5 ]      (| the ranges' ends)
//   piece 1:                      [ e3 , e4 ]             (the comma before e3 … the one after e4)
//   piece 2:                                  [ e5 ]      (to the file's end)
//
// The piece that reaches the array's closing bracket reads on to the file's
// end, as a single reader would, and so checks what follows the array. As
// the in-process splitter does, a comma counts as a delimiter only between
// two values (a few bytes either side are looked at): a malformed one is
// left inside a piece, whose parser reports it where it is.

/// The bytes of one piece, framed, from the file.
final class _PieceSource: _ByteSource {
    private let file: _PieceFile
    /// The frame before the file's bytes, and after them once the end is
    /// found, with what of each was handed out.
    private let prefix: [UInt8]
    private var suffix: [UInt8] = []
    private var prefixOffset = 0
    private var suffixOffset = 0
    /// The file's bytes from `start` read already (by the search for the
    /// piece's first delimiter), handed out before more are read.
    private let held: [UInt8]
    private let heldEnd: Int
    /// The next byte of the file to hand out.
    private var position: Int
    /// Where the range ends: from there on the scan looks for the end.
    private let rangeEnd: Int
    /// Where the piece's bytes end, once the scan has found it.
    private var stop: Int?
    /// The array closed: read on to the file's end without scanning.
    private var readsToEnd = false
    private var scan: sj_cut_scan
    private let shape: _PieceShape
    private let closing: [UInt8]

    /// The source for a piece whose bytes begin at `start`, just after its
    /// delimiter, where the scan stands in `scan`; `held`: the file's bytes
    /// from `start` read already; `stop`: where they end, when known. The
    /// frame's opening is handed out first, its closing in place of the
    /// delimiter that ends the piece.
    init(file: _PieceFile, start: Int, held: [UInt8] = [], rangeEnd: Int, stop: Int? = nil, scan: sj_cut_scan,
         shape: _PieceShape, frame: (opening: [UInt8], closing: [UInt8])) {
        self.file = file
        self.held = held
        self.heldEnd = start + held.count
        self.position = start
        self.rangeEnd = rangeEnd
        self.scan = scan
        self.shape = shape
        self.prefix = frame.opening
        closing = frame.closing
        // An end known already (`JSONPiece.endBefore`): a comma there stands as the closing frame.
        self.stop = stop
        if stop != nil, shape != .lines { suffix = closing }
    }

    /// The most read at once past the range's end.
    static let stepPastEnd = 4096

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if prefixOffset < prefix.count { return unsafe handOut(prefix, from: &prefixOffset, into: buffer) }
        if let stop, position >= stop { return unsafe handOut(suffix, from: &suffixOffset, into: buffer) }
        // Reads stop at the range's end, and past it are small: the element
        // that straddles the end is read, and little after it.
        let limit = stop ?? (readsToEnd ? file.size
                                        : position < rangeEnd ? rangeEnd : min(file.size, position + Self.stepPastEnd))
        guard position < limit, buffer.count > 0 else { return 0 }
        let wanted = min(buffer.count, limit - position)
        var count: Int
        if position < heldEnd {
            let from = held.count - (heldEnd - position)
            count = min(wanted, heldEnd - position)
            unsafe buffer.copyBytes(from: held[from..<(from + count)])
        } else {
            count = unsafe try file.read(at: position, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
        }
        if stop == nil && !readsToEnd && count > 0 {
            count = unsafe try scanForEnd(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            // The end is the first byte read: the closing frame comes next.
            if count == 0 { return unsafe try read(into: buffer) }
        }
        position += count
        return count
    }

    /// Bytes of `frame` from `offset` on, as many as fit.
    private func handOut(_ frame: [UInt8], from offset: inout Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, frame.count - offset)
        guard count > 0 else { return 0 }
        unsafe buffer.copyBytes(from: frame[offset..<(offset + count)])
        offset += count
        return count
    }

    /// Scans `bytes` (the file's from `position`): before the range's end to
    /// keep the scan's state, from there for the delimiter that ends the
    /// piece. The bytes that belong to the piece: all, or up to the end.
    private func scanForEnd(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        let base = unsafe bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var done = 0
        if position < rangeEnd {
            done = min(bytes.count, rangeEnd - position)
            unsafe sj_cut_scan_advance(&scan, base, done)
            if scan.closed != 0 { readsToEnd = true }
        }
        while !readsToEnd && done < bytes.count {
            let found = unsafe try _PieceBounds.next(in: file, bytes: UnsafeRawBufferPointer(rebasing: bytes[done...]),
                                              at: position + done, scan: &scan, shape: shape)
            switch found {
            case .delimiter(let offset):
                // A comma stands as the closing frame; a line break stays.
                if case .lines = shape { stop = offset + 1 } else { (stop, suffix) = (offset, closing) }
                return stop! - position
            case .closed:
                readsToEnd = true
            case .none(let consumed):
                done += consumed
            }
        }
        return bytes.count
    }
}

/// Finding delimiters with the cut-point scan.
enum _PieceBounds {
    enum Found {
        /// A delimiter at this offset of the file; the scan stands after it.
        case delimiter(Int)
        /// The array closed first.
        case closed
        /// None in the bytes; this many were scanned.
        case none(Int)
    }

    /// The next delimiter in `bytes` (the file's from `offset`), by `scan`.
    static func next(in file: _PieceFile, bytes: UnsafeRawBufferPointer, at offset: Int, scan: inout sj_cut_scan,
                     shape: _PieceShape) throws -> Found {
        let base = unsafe bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var done = 0
        // Between an array's elements the scan's depth is its floor, 1.
        let depth: Int64 = shape == .lines ? 0 : 1
        while done < bytes.count {
            let used = unsafe sj_cut_scan_find(&scan, base + done, bytes.count - done, shape.separator, depth)
            if scan.closed != 0 { return .closed }
            let end = done + used
            let found = unsafe used > 0 && base[end - 1] == shape.separator && scan.depth == depth
                && scan.in_string == 0 && scan.escaped == 0
            done = end
            guard found else { continue }
            if case .lines = shape { return .delimiter(offset + end - 1) }
            if try isBetweenValues(file, comma: offset + end - 1) { return .delimiter(offset + end - 1) }
        }
        return .none(done)
    }

    /// Whether the comma at `comma` stands between two values (see the top
    /// of the file); reads a few bytes either side.
    static func isBetweenValues(_ file: _PieceFile, comma: Int) throws -> Bool {
        var after = comma + 1
        var next: UInt8?
        while next == nil && after < file.size {
            let bytes = try file.bytes(after..<min(file.size, after + 32))
            if let index = bytes.firstIndex(where: { !_isJSONWhitespace($0) }) { next = bytes[index] }
            after += bytes.count
        }
        guard let next, _PieceSplitter.beginsValue(next) else { return false }
        var before = comma
        while before > 0 {
            var bytes = try file.bytes(max(0, before - 32)..<before)
            if var index = bytes.lastIndex(where: { !_isJSONWhitespace($0) }) {
                // The value's last byte, with a literal's four bytes before it
                // (read again only when the chunk starts too close to it).
                let end = before - bytes.count + index
                if index < 4 && end > index {
                    bytes = try file.bytes(max(0, end - 4)..<(end + 1))
                    index = bytes.count - 1
                }
                return unsafe bytes.withUnsafeBytes { unsafe _PieceSplitter.endsValue($0, at: index) }
            }
            before -= bytes.count
        }
        return false
    }
}
