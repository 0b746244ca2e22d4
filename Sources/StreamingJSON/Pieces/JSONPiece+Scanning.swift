// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

// The scan of one range, for a start in any state.
//
// A range may start inside a string or not, and just after an escaping
// backslash or not: four cases. The C tally (`cut_tally.c`) follows the two
// string cases at once. Escapes do not depend on strings, and an escape at
// the start reaches only through the range's leading run of backslashes:
// the first byte after the run (`x`) is escaped or not depending on the
// run's length and the start, and from the byte after `x` on the cases meet
// again, nothing escaped. So the tally starts after `x`, and each case is
// that tally with `x`'s effect (if any) before it:
//
//   range:   \ \ \ x | tallied from here, in both string cases …
//            ^ run ^ escaped when (run length + escaped at the start) is odd

/// What the scan of one range found.
struct _RangeTally: Hashable, Sendable, Codable {
    /// For a start escaped or not, in a string or not: `outcomes[2 * escaped + inString]`.
    var outcomes: [_RangeOutcome]
    /// Line breaks in the range, and the offset of the last one.
    var newlines: Int
    var lastNewline: Int?

    /// The outcome for a range that starts in `state`.
    func outcome(escaped: Bool, inString: Bool) -> _RangeOutcome {
        outcomes[(escaped ? 2 : 0) + (inString ? 1 : 0)]
    }
}

/// Where a range leaves the scan, for one way it could start.
struct _RangeOutcome: Hashable, Sendable, Codable {
    /// Containers opened minus closed (outside strings).
    var depth: Int
    /// The lowest depth reached (0 or less), and the separators met there.
    var lowest: Int
    var atLowest: Int
    /// The state after the range's last byte.
    var inString: Bool
    var escaped: Bool

    private enum CodingKeys: String, CodingKey {
        case depth = "d", lowest = "low", atLowest = "sep", inString = "str", escaped = "esc"
    }
}

extension JSONPiece {
    /// The piece with its range scanned: step 2 of a plan, on any machine
    /// that can read the file. It reads the range once (not the element
    /// that straddles its end); ``JSONPiece/joined(_:)`` then needs every
    /// piece of the plan scanned.
    ///
    /// - Throws: `CocoaError` when the file cannot be opened, `POSIXError`
    ///   when it cannot be read, ``JSONPieceError`` when its size is not the
    ///   one planned.
    public func scanned(contentsOf url: URL) throws -> JSONPiece {
        let file = try _PieceFile(url: url)
        return try scanned(file)
    }

    func scanned(_ file: _PieceFile) throws -> JSONPiece {
        try file.check(self)
        guard tally == nil, let range = talliedRange else { return self }
        var piece = self
        piece.tally = try Self.tally(file, range: range, separator: shape.separator)
        return piece
    }

    /// The bytes the scan covers: an array's after its bracket.
    var talliedRange: Range<Int>? {
        switch shape {
        case .whole: return nil
        case .lines: return byteRange
        case .array, .object:
            let start = max(byteRange.lowerBound, header!.bracket + 1)
            return start..<max(start, byteRange.upperBound)
        }
    }

    private static let chunkSize = 1 << 20

    /// Tallies `range` of `file` (see the top of this file).
    static func tally(_ file: _PieceFile, range: Range<Int>, separator: UInt8) throws -> _RangeTally {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, min(chunkSize, range.count)),
                                                            alignment: 64)
        defer { unsafe buffer.deallocate() }
        var position = range.lowerBound
        var run = 0                   // the leading backslashes
        var first: UInt8?             // `x`, once read
        var tally = sj_cut_tally()
        var tallyStart = range.upperBound
        while position < range.upperBound {
            let wanted = min(chunkSize, range.upperBound - position)
            let count = unsafe try file.read(at: position, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
            guard count > 0 else { throw JSONPieceError("The file ended at byte \(position), inside a planned range") }
            var skip = 0
            if first == nil {
                while unsafe skip < count && buffer[skip] == UInt8(ascii: "\\") { skip += 1 }
                run += skip
                if skip < count {
                    first = unsafe buffer[skip]
                    skip += 1
                    tallyStart = position + skip
                }
            }
            if skip < count {
                let base = unsafe buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
                unsafe sj_cut_scan_tally(&tally, base + skip, count - skip, separator)
            }
            position += count
        }
        var outcomes: [_RangeOutcome] = []
        for escaped in [false, true] {
            for inString in [false, true] {
                outcomes.append(outcome(of: tally, run: run, first: first, separator: separator,
                                        escaped: escaped, inString: inString))
            }
        }
        let newline = first == 0x0A ? 1 : 0
        let lastNewline = tally.last_newline > 0 ? tallyStart + Int(tally.last_newline) - 1
            : newline == 1 ? tallyStart - 1 : nil
        return _RangeTally(outcomes: outcomes, newlines: Int(tally.newlines) + newline, lastNewline: lastNewline)
    }

    /// One case's outcome: `first`'s effect, then the tally's.
    private static func outcome(of tally: sj_cut_tally, run: Int, first: UInt8?, separator: UInt8,
                                escaped: Bool, inString: Bool) -> _RangeOutcome {
        guard let first else {
            // All backslashes (or nothing): they pair up, the last may escape what follows.
            return _RangeOutcome(depth: 0, lowest: 0, atLowest: 0, inString: inString,
                                 escaped: (run + (escaped ? 1 : 0)) % 2 == 1)
        }
        var inString = inString
        var depth = 0, lowest = 0, atLowest = 0
        if (run + (escaped ? 1 : 0)) % 2 == 0 {  // `first` is not escaped
            switch first {
            case UInt8(ascii: "\""): inString.toggle()
            case _ where inString: break
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth = 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"): (depth, lowest) = (-1, -1)
            case separator: atLowest = 1
            default: break
            }
        }
        let k = inString ? 1 : 0
        let tallyLowest = depth + Int(pick(tally.lowest, k))
        if tallyLowest < lowest {
            (lowest, atLowest) = (tallyLowest, Int(pick(tally.at_lowest, k)))
        } else if tallyLowest == lowest {
            atLowest += Int(pick(tally.at_lowest, k))
        }
        let endsInString = (tally.in_string == 1) != inString
        return _RangeOutcome(depth: depth + Int(pick(tally.depth, k)), lowest: lowest, atLowest: atLowest,
                             inString: endsInString, escaped: tally.escaped == 1)
    }
}

/// Element `k` (0 or 1) of a C array of two.
private func pick<Value>(_ pair: (Value, Value), _ k: Int) -> Value { k == 0 ? pair.0 : pair.1 }

extension _PieceShape {
    /// The byte that separates elements: an array's comma, a line break.
    var separator: UInt8 {
        if case .lines = self { return 0x0A }
        return UInt8(ascii: ",")
    }
}
