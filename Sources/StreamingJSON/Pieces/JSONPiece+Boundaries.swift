// SPDX-License-Identifier: Apache-2.0
import Foundation

// An element belongs to the piece whose range holds its first byte. A
// piece is read from a delimiter (the comma, bracket or line break before
// its first element) to the delimiter after its last one; where a range
// boundary falls between a delimiter and the first byte of its element
// (only whitespace between them), that delimiter, before the boundary, is
// the one: both pieces either side of the boundary find it, in the same
// state, so each element is read exactly once.

/// A delimiter before a range boundary whose element begins at or after it.
struct _DelimiterBefore {
    /// Its offset; -1 for the start of a JSON Lines file (no delimiter).
    let offset: Int
    /// Line breaks from it (included) to the boundary.
    let newlines: Int
}

extension JSONPiece {
    /// The delimiter, before `boundary`, of the element whose first byte is
    /// the first at or after it, when only whitespace lies between; nil
    /// when there is none (the element's delimiter is at or after the
    /// boundary). `state`: the input's state at the boundary.
    func delimiter(before boundary: Int, state: _PieceEntry, in file: _PieceFile) throws -> _DelimiterBefore? {
        guard !state.outside, state.depth == 0, !state.inString, !state.escaped, boundary > 0 else { return nil }
        var end = boundary
        var newlines = 0
        while end > 0 {
            let bytes = try file.bytes(max(0, end - 32)..<end)
            for (index, byte) in bytes.enumerated().reversed() {
                let offset = end - bytes.count + index
                if byte == 0x0A {
                    // JSON Lines: the line break nearest the boundary is the delimiter.
                    if shape == .lines { return _DelimiterBefore(offset: offset, newlines: 1) }
                    newlines += 1
                } else if !_isJSONWhitespace(byte) {
                    return try containerDelimiter(byte, at: offset, newlines: newlines, in: file)
                }
            }
            end -= bytes.count
        }
        // Only whitespace before the boundary: the file's first value begins after it.
        return shape == .lines ? _DelimiterBefore(offset: -1, newlines: 0) : nil
    }

    /// For an array or an object: the comma between two values, or the
    /// bracket that opens it, at `offset`; nil for anything else.
    private func containerDelimiter(_ byte: UInt8, at offset: Int, newlines: Int,
                                    in file: _PieceFile) throws -> _DelimiterBefore? {
        guard shape != .lines else { return nil }  // a value on the same line: no line break between
        let isDelimiter = try offset == header?.bracket
            || (byte == UInt8(ascii: ",") && _PieceBounds.isBetweenValues(file, comma: offset))
        return isDelimiter ? _DelimiterBefore(offset: offset, newlines: newlines) : nil
    }

    /// The state of the input at the range's end, from the scans (as `joined(_:)` works it out).
    var exitState: _PieceEntry? {
        guard var state = entry, let tally else { return nil }
        state.advance(over: tally, endsAt: shape == .lines ? .min : 0)
        return state
    }

    /// Where the piece's bytes end when that is decided before its range
    /// ends (see the top of the file): the delimiter of the element that
    /// begins after the range; nil when it is to be found past the range.
    func endBefore(in file: _PieceFile) throws -> Int? {
        guard byteRange.upperBound < inputSize, let state = exitState else { return nil }
        return try delimiter(before: byteRange.upperBound, state: state, in: file)?.offset
    }
}
