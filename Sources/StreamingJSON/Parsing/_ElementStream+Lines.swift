// SPDX-License-Identifier: Apache-2.0
import Foundation

// JSON Lines after a syntax error: yajl cannot recover, so the error is
// queued for the reader (it ends one value, not the stream), the parser
// restarts with a new handle, and parsing goes on where the next value can
// begin. Where that is depends on where the broken value began, which may be
// in an earlier chunk.

/// Where parsing goes on after a JSON Lines syntax error.
enum _Resynchronization {
    /// At this index of the current chunk.
    case parse(from: Int)
    /// Over these bytes (the start of a token from earlier chunks, then the
    /// current chunk), which begin at this input offset.
    case parseAgain([UInt8], base: UInt64)
}

extension _ElementStream {
    /// Queues `error` (found at `syntax`'s position while parsing `chunk`,
    /// which begins at `base`), restarts the parser, and says where to go on.
    /// When the broken value began on an earlier line and the error is the
    /// first thing on its line, that line may be a good value: parsing goes
    /// on right there; otherwise after the error's line.
    func resynchronize(after syntax: JSONSyntaxError, _ error: DecodingError,
                       in chunk: UnsafeRawBufferPointer, base: UInt64) -> _Resynchronization {
        let errorOffset = UInt64(syntax.byteOffset)
        let valueStart = parser.elementInProgressStart
        // Restarted at the previous error and failed on that very byte: it
        // is the same error, reported once; the line is skipped below.
        if restartedAt != errorOffset {
            unsafe pendingErrors.append((Int(parser.completedElements), error))
        }
        restartedAt = nil
        let errorIndex = Int(errorOffset) - Int(base)
        // The offending token may have begun in an earlier chunk: keep its
        // bytes (the recent ones) for a restart at it.
        let carried = errorIndex < 0 ? recent.bytes(from: errorOffset, to: base) : nil
        // Or it was inside a long token held back (`tape_feed.c`): its bytes,
        // up to this chunk, are still those yajl was given last.
        var earlier = carried
        let fed = unsafe parser.lastFed
        if earlier == nil, errorIndex < 0, unsafe errorOffset >= fed.base,
           unsafe fed.base + UInt64(fed.bytes.count) == base {
            earlier = unsafe Array(fed.bytes[Int(errorOffset - fed.base)...])
        }
        recent = _RecentBytes()
        parser.restart()
        handleSawContent = false
        let lineStart = errorOffset - UInt64(syntax.column - 1)
        let firstOnLine: Bool
        if lineStart < base, let content = lineContentStart {
            // The line began in an earlier chunk, with content there. (The
            // offending token may have begun there too: it holds no line break.)
            firstOnLine = content == errorOffset
        } else {
            let from = max(0, Int(lineStart) - Int(base))
            firstOnLine = unsafe errorIndex >= from && errorIndex <= chunk.count
                && chunk[from..<errorIndex].allSatisfy(_isJSONWhitespace)
        }
        if let valueStart, valueStart < lineStart, firstOnLine, errorIndex >= 0 || carried != nil {
            restartedAt = errorOffset
            // Parse the token's first bytes again, then the rest of this chunk.
            guard let carried else { return .parse(from: errorIndex) }
            return unsafe .parseAgain(carried + Array(chunk), base: errorOffset)
        } else if errorIndex < 0, let earlier, let newline = earlier.firstIndex(of: 0x0A) {
            // The error's line ended before this chunk: go on after it.
            return unsafe .parseAgain(Array(earlier[(newline + 1)...]) + Array(chunk),
                                      base: errorOffset + UInt64(newline + 1))
        }
        skipsToNextLine = true
        return .parse(from: max(0, min(errorIndex, chunk.count)))
    }

    /// Updates `lineContentStart` after a chunk.
    func noteLineContent(_ chunk: UnsafeRawBufferPointer, base: UInt64) {
        var from = 0
        if let newline = unsafe chunk.lastIndex(of: 0x0A) {
            from = newline + 1
            lineContentStart = nil
        }
        if lineContentStart == nil, let first = unsafe chunk[from...].firstIndex(where: { !_isJSONWhitespace($0) }) {
            lineContentStart = base + UInt64(first)
        }
    }
}
