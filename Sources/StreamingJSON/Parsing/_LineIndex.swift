// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Turns absolute byte offsets into line and column numbers.
///
/// Every chunk is scanned for LF bytes as it is fed; the offsets are kept only
/// for the part of the input that is still on the tape (`prune(before:)` drops
/// the rest and keeps their count), so memory follows the tape, not the file.
struct _LineIndex {
    /// Offsets of the LF bytes at or after `prunedBefore`, ascending.
    private var newlines: [UInt64] = []
    /// Number of LF bytes before the kept ones.
    private var linesBefore = 0
    /// Offset of the last LF dropped by pruning, if any.
    private var lastPrunedNewline: UInt64? = nil

    init() {}

    /// An index for input that starts at `origin`, the line breaks before it
    /// already counted (a piece of a larger input, `_PieceSplitter`).
    init(origin: _InputOrigin) {
        linesBefore = origin.linesBefore
        lastPrunedNewline = origin.lastNewline
    }

    mutating func scan(_ chunk: UnsafeRawBufferPointer, base: UInt64) {
        guard let start = chunk.baseAddress else { return }
        var offset = 0
        while offset < chunk.count,
              let hit = unsafe memchr(start + offset, 0x0A, chunk.count - offset) {
            let index = unsafe start.distance(to: UnsafeRawPointer(hit))
            newlines.append(base + UInt64(index))
            offset = index + 1
        }
    }

    /// Line breaks found by another index (the producer thread's), in order.
    mutating func append(contentsOf offsets: [UInt64]) {
        newlines.append(contentsOf: offsets)
    }

    /// The offsets of the line breaks kept, from the `index`th on.
    func kept(from index: Int) -> ArraySlice<UInt64> { newlines[index...] }
    var keptCount: Int { newlines.count }

    /// Forgets line breaks before `offset` (keeping their count).
    mutating func prune(before offset: UInt64) {
        var dropped = 0
        while dropped < newlines.count && newlines[dropped] < offset { dropped += 1 }
        guard dropped > 0 else { return }
        lastPrunedNewline = newlines[dropped - 1]
        linesBefore += dropped
        newlines.removeFirst(dropped)
    }

    func position(of offset: UInt64) -> _SourcePosition {
        // Number of kept newlines before `offset` (binary search).
        var low = 0, high = newlines.count
        while low < high {
            let mid = (low + high) / 2
            if newlines[mid] < offset { low = mid + 1 } else { high = mid }
        }
        let lineStart: UInt64
        if low > 0 {
            lineStart = newlines[low - 1] + 1
        } else if let lastPrunedNewline {
            lineStart = lastPrunedNewline + 1
        } else {
            lineStart = 0
        }
        return _SourcePosition(byteOffset: Int(offset), line: linesBefore + low + 1,
                               column: Int(offset - min(lineStart, offset)) + 1)
    }
}

/// Where a piece of a larger input starts: its first byte's offset in the
/// whole input, and the line breaks before it. Positions in the piece's
/// errors are then those of the whole input.
package struct _InputOrigin: Sendable, Equatable {
    package var byteOffset: UInt64
    /// Line breaks before `byteOffset`.
    package var linesBefore: Int
    /// Offset of the last line break before `byteOffset`, if any.
    package var lastNewline: UInt64?

    static let start = _InputOrigin(byteOffset: 0, linesBefore: 0, lastNewline: nil)
}
