// SPDX-License-Identifier: Apache-2.0

// Where an array's next element begins after a syntax error.
//
// yajl cannot go on after an error, and the damage may have moved quotes or
// brackets, so the bytes after it cannot be trusted to say where strings and
// elements are. The search tries the places where an element could begin,
// most likely first, and keeps the first one that a parse from there, with
// a fresh parser standing inside the array, bears out:
//
//   1. inside the string accepted just before the error, when the error
//      follows it: a quote lost at a string's end makes it swallow the start
//      of the next element (`"abc},{"id":2` or a cut-short `"na{"id":2`);
//   2. at the error itself, when it stands between elements and could begin
//      one (a missing comma: `{…}{…}`), or is a bracket after garbage that
//      was taken for an element's start (`},{{…}`);
//   3. after each comma at the array's depth, at each bracket opening there
//      (garbage for a comma), and at the array's closing bracket, following
//      strings and brackets from the last token accepted, an offending
//      bracket or quote passed over (it is likely an extra one);
//   4. after any comma past the error, and at any bracket that begins a
//      line, whatever the scan says: when the damage turned strings inside
//      out, its depths mean nothing.
//
// Kinds 3 and 4 are tried in input order, so that the place nearest the
// damage wins whichever kind it is.
//
// Places of kinds 1 and 4 may lie inside the broken element's own nested
// arrays, so they are held to more: the parse from them must get past the
// error and go on without one for `strictSpan` bytes, or for three elements
// over twice the largest element seen before the error (more than a nested
// array inside one element spans), or through an element and into the next
// (more damage close by: the next one breaks after it began). Places of kinds 2 and
// 3 are where the structure says elements begin; one complete element and a
// token accepted after it are proof enough (an error after that is the next
// element's own).
// (An element followed at once by a `:` or `}` is no proof: a key read as
// an element, `"items": [`, is one.)

/// What a parse from a candidate place showed.
enum _ResumeVerdict {
    case holds, fails
    /// The bytes gathered end before the parse could tell.
    case needsMore
}

/// How much a candidate place must show (see the top of this file).
enum _ResumeProof {
    /// One complete element and a token after it (or the array's end, and
    /// nothing wrong after).
    case element
    /// Also no error before the error being resumed from, and none for
    /// `strictSpan` bytes.
    case longRun
}

enum _ResumeOutcome: Equatable {
    case resume(at: UInt64)
    case needsMore
    /// No place holds in the bytes gathered, and no more can help.
    case none
}

/// The bytes after an error and what is known about them.
struct _ResumeSearch {
    /// The bytes gathered; `bytes[0]` is at input offset `base`.
    var bytes: [UInt8]
    var base: UInt64
    /// The first byte that could not be accepted.
    let errorOffset: UInt64
    /// Where the structural scan starts (a token boundary, outside strings)
    /// and the depth there, counting the array's own bracket (1: between
    /// or at the start of elements); nil when those bytes are gone.
    let scanStart: (offset: UInt64, depth: Int)?
    /// The contents of the string accepted just before the error, when the
    /// error follows it (kind 1).
    var lastString: Range<UInt64>?

    init(bytes: [UInt8], base: UInt64, errorOffset: UInt64, scanStart: (offset: UInt64, depth: Int)?,
         lastString: Range<UInt64>? = nil) {
        self.bytes = bytes
        self.base = base
        self.errorOffset = errorOffset
        self.scanStart = scanStart
        self.lastString = lastString
    }

    /// Places at or before this offset are not tried: where the parse
    /// resumed last, and failed again at once (no progress, no loop).
    var notBefore: UInt64 = 0

    /// The largest complete element before the error (0: none known): a
    /// `longRun` proof may also be three elements over twice its size.
    var typicalElementBytes: UInt64 = 0

    /// Bytes after its first element over which an `element` proof is judged.
    static let elementHorizon: UInt64 = 512

    /// Bytes a `longRun` proof must parse without error.
    static let strictSpan: UInt64 = 16 * 1024

    var end: UInt64 { base + UInt64(bytes.count) }

    func byte(at offset: UInt64) -> UInt8? {
        offset >= base && offset < end ? bytes[Int(offset - base)] : nil
    }

    /// How far the search has got. A place that failed fails again with
    /// more bytes, so a search that needs more goes on from where it stopped.
    private var stage = Stage.insideString(next: 0)

    private enum Stage {
        /// Kind 1, at `next` of `lastString` (0: its start).
        case insideString(next: UInt64)
        /// Kind 2, with the scan standing at the error (nil: its bytes are gone).
        case atError(_StructureScan?)
        /// Kinds 3 and 4 in input order: the scan before the byte at `next`.
        case afterError(_StructureScan?, next: UInt64)
    }

    /// Tries the places in order with `verify` until one holds. `atEnd`:
    /// no more bytes will come.
    mutating func run(atEnd: Bool, verify: (UInt64, _ResumeProof) -> _ResumeVerdict) -> _ResumeOutcome {
        while true {
            switch stage {
            case .insideString(let next):
                guard let lastString, lastString.contains(max(next, lastString.lowerBound)) else {
                    stage = .atError(scanToTheError())
                    continue
                }
                let offset = max(next, lastString.lowerBound)
                if couldBeginElement(at: offset) || byte(at: offset) == UInt8(ascii: "]") {
                    switch verify(offset, .longRun) {
                    case .holds: return .resume(at: offset)
                    case .needsMore: return .needsMore
                    case .fails: break
                    }
                }
                stage = .insideString(next: offset + 1)
            case .atError(let scan):
                if errorOffset >= end && !atEnd { return .needsMore }
                // Between elements anything that may begin one; deeper, a
                // bracket (garbage before it was taken for the element's start).
                let opens = byte(at: errorOffset) == UInt8(ascii: "{") || byte(at: errorOffset) == UInt8(ascii: "[")
                if let scan, !scan.inString, scan.depth == 1 || opens,
                   couldBeginElement(at: errorOffset) || byte(at: errorOffset) == UInt8(ascii: "]") {
                    switch verify(errorOffset, .element) {
                    case .holds: return .resume(at: errorOffset)
                    case .needsMore: return .needsMore
                    case .fails: break
                    }
                }
                // An offending bracket or quote is likely an extra one: passed
                // over. (A comma is scanned: an extra one still separates.)
                let skips = scan?.inString == false && byte(at: errorOffset).map(Self.isBracketOrQuote) == true
                stage = .afterError(scan, next: max(errorOffset, base) + (skips ? 1 : 0))
            case .afterError(let scan, let next):
                return searchAfterTheError(scan, from: next, atEnd: atEnd, verify: verify)
            }
        }
    }

    /// The scan brought to the error from its start; nil when the bytes it
    /// starts from are gone.
    private func scanToTheError() -> _StructureScan? {
        guard let scanStart, scanStart.offset >= base, scanStart.offset <= errorOffset, errorOffset <= end else {
            return nil
        }
        var scan = _StructureScan(depth: scanStart.depth)
        for offset in scanStart.offset..<errorOffset { _ = scan.step(bytes[Int(offset - base)]) }
        return scan
    }

    /// Kinds 3 and 4 from `next`, in input order (`stage` kept for more).
    private mutating func searchAfterTheError(_ start: _StructureScan?, from next: UInt64, atEnd: Bool,
                                              verify: (UInt64, _ResumeProof) -> _ResumeVerdict) -> _ResumeOutcome {
        var scan = start, offset = next
        while offset < end {
            let before = scan
            let byte = bytes[Int(offset - base)]
            let found = scan?.step(byte)
            var candidate: (offset: UInt64, proof: _ResumeProof)?
            if let scan, let found, scan.depth >= 0 {
                switch found {
                case .comma where scan.depth == 1:
                    candidate = firstNonWhitespace(after: offset).map { ($0, .element) }
                case .open where before?.depth == 1 && !followsSeparator(offset):
                    candidate = (offset, .element)  // after garbage, with no comma (not a member's value)
                case .close where scan.depth == 0 && byte == UInt8(ascii: "]"):
                    candidate = (offset, .element)
                default:
                    break
                }
            }
            if candidate == nil {
                // Whatever the scan says: after a comma, or at a bracket that
                // begins a line (one element per line, a common layout).
                if byte == UInt8(ascii: ",") {
                    candidate = firstNonWhitespace(after: offset).map { ($0, .longRun) }
                } else if (byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")) && beginsLine(offset) {
                    candidate = (offset, .longRun)
                }
            }
            if let candidate {
                switch verify(candidate.offset, candidate.proof) {
                case .holds: return .resume(at: candidate.offset)
                case .needsMore:
                    stage = .afterError(before, next: offset)
                    return .needsMore
                case .fails: break
                }
            }
            offset += 1
        }
        stage = .afterError(scan, next: offset)
        return atEnd ? .none : .needsMore
    }

    /// Drops the bytes before the next place kinds 3 and 4 will try (every
    /// place before it failed), but a few: a search through a long element
    /// keeps a window, not the element. False when nothing can go.
    mutating func slide() -> Bool {
        guard case .afterError(_, let next) = stage, next > base + 16 else { return false }
        let keep = next - 16  // the line start or separator before a place is looked for there
        bytes.removeFirst(Int(keep - base))
        base = keep
        return true
    }

    /// Whether only spaces and tabs stand between `offset` and the line break before it.
    private func beginsLine(_ offset: UInt64) -> Bool {
        let previous = lastByte(before: offset) { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        return previous.map { bytes[Int($0 - base)] == 0x0A } ?? false
    }

    /// Whether the last byte before `offset` that is not whitespace is a
    /// comma or a colon: a bracket there opens an element the comma's
    /// candidate covers, or a member's value. (Not the offending byte: that
    /// is garbage.)
    private func followsSeparator(_ offset: UInt64) -> Bool {
        guard let previous = lastByte(before: offset, skipping: _isJSONWhitespace), previous != errorOffset else {
            return false
        }
        let byte = bytes[Int(previous - base)]
        return byte == UInt8(ascii: ",") || byte == UInt8(ascii: ":")
    }

    /// The offset of the last byte before `offset` that `skipping` does not
    /// pass over, among the bytes gathered.
    private func lastByte(before offset: UInt64, skipping: (UInt8) -> Bool) -> UInt64? {
        var previous = offset
        while previous > base {
            previous -= 1
            if !skipping(bytes[Int(previous - base)]) { return previous }
        }
        return nil
    }

    /// The first raw form feed or vertical tab at or after `offset` in the
    /// bytes gathered.
    func firstFormFeedOrVerticalTab(from offset: UInt64) -> UInt64? {
        let start = Int(max(offset, base) - base)
        let found = unsafe bytes.withUnsafeBytes { unsafe _firstFormFeedOrVerticalTab(in: $0, from: start) }
        return found.map { base + UInt64($0) }
    }

    /// The first byte after `offset` that is not whitespace, or the end of
    /// the bytes gathered (a parse from there then needs more).
    func firstNonWhitespace(after offset: UInt64) -> UInt64? {
        var next = offset + 1
        while let byte = byte(at: next), _isJSONWhitespace(byte) { next += 1 }
        return next
    }

    private static func isBracketOrQuote(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}")
            || byte == UInt8(ascii: "\"")
    }

    /// Whether a value could begin at `offset`: a cheap look, so that a
    /// parse is tried only where it might hold (not at every `n` of a text).
    func couldBeginElement(at offset: UInt64) -> Bool {
        guard let first = byte(at: offset) else { return false }
        switch first {
        case UInt8(ascii: "\""), UInt8(ascii: "["), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "{"):
            guard let next = firstNonWhitespace(after: offset), let byte = byte(at: next) else { return true }
            return byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "}")
        case UInt8(ascii: "t"): return literal(Self.trueBytes, at: offset)
        case UInt8(ascii: "f"): return literal(Self.falseBytes, at: offset)
        case UInt8(ascii: "n"): return literal(Self.nullBytes, at: offset)
        default: return false
        }
    }

    private static let trueBytes = Array("true".utf8), falseBytes = Array("false".utf8), nullBytes = Array("null".utf8)

    private func literal(_ word: [UInt8], at offset: UInt64) -> Bool {
        for (index, expected) in word.enumerated() {
            guard let byte = byte(at: offset + UInt64(index)) else { return true }  // not known yet
            if byte != expected { return false }
        }
        return true
    }
}

/// Follows strings and brackets, as `sj_cut_scan` does, one byte at a time:
/// a search after an error reads a few KiB, where clarity beats SIMD.
struct _StructureScan {
    var depth: Int
    private(set) var inString = false
    private var escaped = false

    init(depth: Int) { self.depth = depth }

    enum Found { case comma, open, close }

    /// Takes in one byte; says what it was, outside strings.
    mutating func step(_ byte: UInt8) -> Found? {
        if escaped { escaped = false; return nil }
        if byte == UInt8(ascii: "\\") { escaped = true; return nil }
        if byte == UInt8(ascii: "\"") { inString.toggle(); return nil }
        if inString { return nil }
        switch byte {
        case UInt8(ascii: ","): return .comma
        case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1; return .open
        case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1; return .close
        default: return nil
        }
    }
}
