// SPDX-License-Identifier: Apache-2.0
import CJSONTape
import Foundation
import Testing

/// The cut-point scanner (`cut_scan.c`): 64-byte blocks of bitmasks must give
/// exactly what a byte-at-a-time scan gives, return value and every state
/// field, however the input is split across calls.
@Suite struct CutScanTests {
    /// A scan's state, comparable.
    struct State: Equatable, CustomStringConvertible {
        var depth: Int64 = 0
        var inString: UInt64 = 0
        var escaped: UInt64 = 0
        var newlines: UInt64 = 0
        /// No floor unless a test sets one.
        var floor: Int64 = .min
        var closed: UInt64 = 0

        init() {}
        init(depth: Int64, inString: UInt64, escaped: UInt64, newlines: UInt64, floor: Int64 = .min,
             closed: UInt64 = 0) {
            self.depth = depth
            self.inString = inString
            self.escaped = escaped
            self.newlines = newlines
            self.floor = floor
            self.closed = closed
        }
        init(_ scan: sj_cut_scan) {
            self.init(depth: scan.depth, inString: scan.in_string, escaped: scan.escaped, newlines: scan.newlines,
                      floor: scan.floor, closed: scan.closed)
        }

        var scan: sj_cut_scan {
            sj_cut_scan(depth: depth, in_string: inString, escaped: escaped, newlines: newlines, floor: floor,
                        closed: closed)
        }

        var description: String {
            "depth \(depth) in \(inString) esc \(escaped) nl \(newlines) floor \(floor) closed \(closed)"
        }
    }

    // MARK: - The reference

    /// The rules, one byte at a time: every LF counts; a byte after an
    /// unescaped backslash does nothing else; an unescaped quote opens or
    /// closes a string; outside strings brackets move the depth, and the
    /// separator at the target depth stops the scan just after it (`nil`: no
    /// separator, as `sj_cut_scan_advance`), as does a closing that takes the
    /// depth below the floor (then for good). Returns the bytes consumed.
    static func reference(_ state: inout State, _ bytes: ArraySlice<UInt8>, separator: UInt8?,
                          depth target: Int64) -> Int {
        guard state.closed == 0 else { return 0 }
        for (offset, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "\n") { state.newlines += 1 }
            if state.escaped == 1 {
                state.escaped = 0
                continue
            }
            switch byte {
            case UInt8(ascii: "\\"): state.escaped = 1
            case UInt8(ascii: "\""): state.inString ^= 1
            case _ where state.inString == 1: break
            case UInt8(ascii: "["), UInt8(ascii: "{"): state.depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                state.depth -= 1
                if state.depth < state.floor {
                    state.closed = 1
                    return offset + 1
                }
            case separator where state.depth == target: return offset + 1
            default: break
            }
        }
        return bytes.count
    }

    // MARK: - The C scanner

    /// `sj_cut_scan_find` over a copy of `bytes` (so that the buffer ends
    /// where the bytes do).
    static func find(_ state: inout State, _ bytes: ArraySlice<UInt8>, separator: UInt8,
                     depth: Int64) -> Int {
        var scan = state.scan
        let consumed = Array(bytes).withUnsafeBufferPointer {
            sj_cut_scan_find(&scan, $0.baseAddress, $0.count, separator, depth)
        }
        state = State(scan)
        return consumed
    }

    static func advance(_ state: inout State, _ bytes: ArraySlice<UInt8>) {
        var scan = state.scan
        Array(bytes).withUnsafeBufferPointer { sj_cut_scan_advance(&scan, $0.baseAddress, $0.count) }
        state = State(scan)
    }

    /// The offsets of every cut in `text` (each separator's), found by
    /// calling `sj_cut_scan_find` again after each one.
    static func cuts(_ text: String, separator: Character, depth: Int64) -> [Int] {
        // A space after the end, so that a cut is a call that stops short.
        let bytes = Array(text.utf8) + [UInt8(ascii: " ")]
        var state = State(), position = 0, found: [Int] = []
        while position < bytes.count {
            let consumed = find(&state, bytes[position...], separator: separator.asciiValue!, depth: depth)
            position += consumed
            if position < bytes.count { found.append(position - 1) }
        }
        return found
    }

    /// Scans `bytes` in calls that end at `ends` (then at the end), the
    /// scanner and the reference side by side from `start`; each call is a
    /// find, or an advance where `advances` says so. Records the first
    /// difference.
    static func compare(_ bytes: [UInt8], ends: [Int], advances: (Int) -> Bool = { _ in false },
                        separator: UInt8, depth: Int64, start: State = State(),
                        sourceLocation: SourceLocation = #_sourceLocation) {
        var scanned = start, expected = start, position = 0, call = 0
        for end in ends + [bytes.count] where end > position {
            while position < end {
                let piece = bytes[position..<end]
                let consumed: Int, wanted: Int
                if advances(call) {
                    advance(&scanned, piece)
                    wanted = reference(&expected, piece, separator: nil, depth: 0)
                    // An advance says nothing of where it closed but the state.
                    consumed = scanned.closed == 1 ? wanted : piece.count
                } else {
                    consumed = find(&scanned, piece, separator: separator, depth: depth)
                    wanted = reference(&expected, piece, separator: separator, depth: depth)
                }
                guard consumed == wanted, scanned == expected else {
                    Issue.record("""
                        call \(call) over \(position)..<\(end) of \(bytes.count) bytes, separator \
                        \(separator) at depth \(depth): returned \(consumed), expected \(wanted); \
                        state \(scanned), expected \(expected)
                        """, sourceLocation: sourceLocation)
                    return
                }
                position += consumed
                call += 1
                if scanned.closed == 1 { return }
            }
        }
    }

    // MARK: - Random bytes

    /// JSON-ish bytes: quotes, backslash runs of 0 to 5, brackets, braces,
    /// commas, LFs, letters, spaces and multibyte UTF-8.
    static func randomBytes(_ rng: inout XorShift, count: Int) -> [UInt8] {
        let pieces: [[UInt8]] = [
            [0x22], [0x22], [0x5B], [0x5D], [0x7B], [0x7D], [0x2C], [0x2C], [0x0A], [0x3A],
            Array("a".utf8), Array("z9".utf8), [0x20], Array("é".utf8), Array("€".utf8), Array("😀".utf8),
        ]
        var bytes: [UInt8] = []
        while bytes.count < count {
            if rng.chance(15) {
                bytes += repeatElement(UInt8(ascii: "\\"), count: rng.below(6))
            } else {
                bytes += pieces[rng.below(pieces.count)]
            }
        }
        return Array(bytes.prefix(count))
    }

    /// Call boundaries: short calls, calls near a block's length, long calls.
    static func randomEnds(_ rng: inout XorShift, count: Int) -> [Int] {
        var ends: [Int] = [], end = 0
        while end < count {
            switch rng.below(3) {
            case 0: end += 1 + rng.below(8)
            case 1: end += 60 + rng.below(10)
            default: end += 1 + rng.below(300)
            }
            ends.append(min(end, count))
        }
        return ends
    }

    @Test("random bytes, random call splits, both separators: equal to the reference")
    func randomInputs() {
        var rng = XorShift(seed: 0xC07_5CA9)
        for round in 0..<500 {
            let count = round < 100 ? round : rng.below(1001)
            let bytes = Self.randomBytes(&rng, count: count)
            for (separator, depth, floor) in [(UInt8(ascii: ","), Int64(1), Int64.min), (UInt8(ascii: "\n"), 0, .min),
                                              (UInt8(ascii: ","), 1, 1), (UInt8(ascii: ","), 1, Int64(rng.below(4)) - 1)] {
                // Whole, then split; from the start, then from a state
                // inside a string, after a backslash, at another depth.
                var initial = State()
                initial.floor = floor
                Self.compare(bytes, ends: [], separator: separator, depth: depth, start: initial)
                for _ in 0..<3 {
                    let ends = Self.randomEnds(&rng, count: count)
                    let pattern = rng.next()
                    let start = State(depth: Int64(rng.below(5)) - 2, inString: UInt64(rng.below(2)),
                                      escaped: UInt64(rng.below(2)), newlines: UInt64(rng.below(9)), floor: floor)
                    Self.compare(bytes, ends: ends, advances: { pattern >> ($0 % 64) & 3 == 0 },
                                 separator: separator, depth: depth, start: rng.chance(50) ? initial : start)
                }
            }
        }
    }

    @Test("every way of cutting an input into two calls, and one byte per call")
    func everySplit() {
        var rng = XorShift(seed: 77)
        for _ in 0..<6 {
            let bytes = Self.randomBytes(&rng, count: 200)
            for separator in [UInt8(ascii: ","), UInt8(ascii: "\n")] {
                let depth: Int64 = separator == UInt8(ascii: ",") ? 1 : 0
                for split in 0...bytes.count {
                    Self.compare(bytes, ends: [split], separator: separator, depth: depth)
                }
                Self.compare(bytes, ends: Array(1...bytes.count), separator: separator, depth: depth)
            }
        }
    }

    // MARK: - Hand-written cases

    /// `[` + `"`, then `a` up to `offset`, then `tail`: puts `tail`'s first
    /// byte at `offset`.
    static func placed(_ tail: String, at offset: Int) -> String {
        "[\"" + String(repeating: "a", count: offset - 2) + tail
    }

    /// Checks `text`'s cuts, and that every two-call split agrees with the reference.
    static func check(_ text: String, cuts expected: [Int], separator: Character = ",",
                      depth: Int64 = 1, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(cuts(text, separator: separator, depth: depth) == expected, sourceLocation: sourceLocation)
        let bytes = Array(text.utf8)
        for split in 0...bytes.count {
            compare(bytes, ends: [split], separator: separator.asciiValue!, depth: depth,
                    sourceLocation: sourceLocation)
        }
    }

    @Test("an escaped quote across the first block boundary keeps the string open")
    func escapedQuoteAtBoundary() {
        // The backslash is byte 63, the quote it escapes byte 64.
        let text = Self.placed(#"\",x",1]"#, at: 63)
        #expect(Array(text.utf8)[63] == UInt8(ascii: "\\"))
        Self.check(text, cuts: [68])
        // The quote at 63 escaped by the backslash at 62.
        Self.check(Self.placed(#"\",x",1]"#, at: 62), cuts: [67])
    }

    @Test("backslash runs across block boundaries escape by their length's parity")
    func backslashRunsAcrossBlocks() {
        for boundary in [64, 128] {
            for run in 1...5 {
                for end in boundary - 3...boundary + 3 {
                    // The run ends at `end`, the quote after it: escaped when
                    // the run is odd, so the first comma is in the string.
                    let text = Self.placed(String(repeating: "\\", count: run) + #"",x",1]"#, at: end - run + 1)
                    let quote = end + 1
                    Self.check(text, cuts: run % 2 == 1 ? [quote + 4] : [quote + 1])
                }
            }
        }
        // Backslashes only, across three blocks, then a quote.
        for run in 127...130 {
            let text = "[\"" + String(repeating: "\\", count: run) + #"",x",1]"#
            Self.check(text, cuts: run % 2 == 1 ? [run + 6] : [run + 3])
        }
    }

    @Test(#"\\\\\" sequences: an escaped backslash, then an escaped quote"#)
    func escapedBackslashThenQuote() {
        Self.check(#"["a\\\"b,c",1]"#, cuts: [11])
        Self.check(#"["a\\",1]"#, cuts: [6])
        Self.check(#"["\\\\\\",[","],"\"",2]"#, cuts: [9, 15, 20])
    }

    @Test("commas inside strings and in nested containers are not cuts")
    func stringsAndNesting() {
        Self.check(#"["a,b","c,d",{"e":[1,2],"f":"]"},3]"#, cuts: [6, 12, 32])
        Self.check("[[1,2],[3,[4,5]],6]", cuts: [6, 16])
        Self.check("[]", cuts: [])
        Self.check("[1]", cuts: [])
        Self.check(#"{"a":1,"b":[1,2]}"#, cuts: [6])
        Self.check(#"{"a":[1,2]}"#, cuts: [7], separator: ",", depth: 2)
        // JSON Lines: an LF inside a value's brackets is no cut, nor one
        // inside a (malformed) string.
        Self.check("{\"a\":1}\n[1,\n2]\n\"x\ny\"\n3", cuts: [7, 14, 20], separator: "\n", depth: 0)
        // Malformed: the depth goes negative, and is followed there.
        Self.check("],1,]],2", cuts: [1, 3], separator: ",", depth: -1)
    }

    @Test("a closing below the floor stops the scan there, for good, across blocks and calls")
    func floorStopsTheScan() {
        // The elements of `items`, scanned from after its `[` at depth 1: the
        // member commas of `x` after its `]` are at depth 1 again.
        let elements = Array(#"1,{"a":[2,3]},"],""#.utf8)  // 18 bytes, then the closing bracket
        let after = Array(#"],"x":{"a":1,"b":2},"y":[4,5]}"#.utf8)
        let comma = UInt8(ascii: ",")
        for pad in [0, 40, 45, 46, 110] {
            // Whitespace before the close moves it across block boundaries.
            let padded = elements + Array(repeating: UInt8(ascii: " "), count: pad) + after
            let start = State(depth: 1, inString: 0, escaped: 0, newlines: 0, floor: 1)
            var state = start
            #expect(Self.find(&state, padded[...], separator: comma, depth: 1) == 2)
            #expect(Self.find(&state, padded[2...], separator: comma, depth: 1) == 12)
            #expect(Self.find(&state, padded[14...], separator: comma, depth: 1) == 5 + pad)
            #expect(state == State(depth: 0, inString: 0, escaped: 0, newlines: 0, floor: 1, closed: 1))
            #expect(Self.find(&state, padded[(19 + pad)...], separator: comma, depth: 1) == 0)
            for split in 0...padded.count {
                Self.compare(padded, ends: [split], separator: comma, depth: 1, start: start)
                Self.compare(padded, ends: [split], advances: { $0 == 0 }, separator: comma, depth: 1, start: start)
            }
        }
    }

    @Test("the state after a stop mid-block and at a call's end")
    func stateAfterStop() {
        var state = State()
        let bytes = Array("[\"\n\",\n[1],2,3]".utf8)
        #expect(Self.find(&state, bytes[...], separator: UInt8(ascii: ","), depth: 1) == 5)
        #expect(state == State(depth: 1, inString: 0, escaped: 0, newlines: 1))
        #expect(Self.find(&state, bytes[5...], separator: UInt8(ascii: ","), depth: 1) == 5)
        #expect(state == State(depth: 1, inString: 0, escaped: 0, newlines: 2))
        Self.advance(&state, Array("[\"ab\\".utf8)[...])
        #expect(state == State(depth: 2, inString: 1, escaped: 1, newlines: 2))
        #expect(Self.find(&state, Array("\",\"],".utf8)[...], separator: UInt8(ascii: ","), depth: 1) == 5)
        #expect(state == State(depth: 1, inString: 0, escaped: 0, newlines: 2))
    }

    // MARK: - A realistic document

    /// An array of `count` objects with nested arrays and objects, strings
    /// with escaped quotes and backslashes, commas, brackets and non-ASCII.
    static func records(_ rng: inout XorShift, count: Int) -> [String] {
        let words = [#"plain"#, #"with \"quotes\""#, #"C:\\path\\"#, #"a, b]"#, #"{not: [an] object}"#,
                     #"\\\""#, "Zürich €", #"\u00e9\n\t"#, #"end\\"#]
        func word() -> String { "\"" + words[rng.below(words.count)] + "\"" }
        return (0..<count).map { index in
            var fields = [#""id":\#(index)"#, #""name":\#(word())"#]
            fields.append(#""tags":[\#((0..<rng.below(4)).map { _ in word() }.joined(separator: ","))]"#)
            fields.append(#""nested":{"list":[[1,2],[\#(word())],[]],"note":\#(word())}"#)
            if rng.chance(30) { fields.append(#""empty":{}"#) }
            return "{" + fields.joined(separator: ",") + "}"
        }
    }

    @Test("cutting a generated array at the found commas gives whole elements")
    func realisticArray() throws {
        var rng = XorShift(seed: 2026)
        let elements = Self.records(&rng, count: 2000)
        let text = "[\n" + elements.joined(separator: rng.chance(50) ? ",\n" : ",") + "\n]\n"
        let bytes = Array(text.utf8)
        // A splitter: skip ahead some bytes (advance), then cut at the next comma.
        var state = State(), position = 0, pieces: [ArraySlice<UInt8>] = [], start = 0
        while position < bytes.count {
            let skip = min(1 + rng.below(3000), bytes.count - position)
            Self.advance(&state, bytes[position..<(position + skip)])
            position += skip
            position += Self.find(&state, bytes[position...], separator: UInt8(ascii: ","), depth: 1)
            let end = position < bytes.count || bytes[position - 1] == UInt8(ascii: ",") ? position - 1 : position
            pieces.append(bytes[start..<end])
            start = position
        }
        #expect(pieces.count > 10)
        var total = 0
        for (index, piece) in pieces.enumerated() {
            let open: [UInt8] = index == 0 ? [] : Array("[".utf8)
            let close: [UInt8] = index == pieces.count - 1 ? [] : Array("]".utf8)
            let parsed = try JSONSerialization.jsonObject(with: Data(open + piece + close))
            let array = try #require(parsed as? [Any], "piece \(index)")
            #expect(!array.isEmpty)
            total += array.count
        }
        #expect(total == elements.count)
        #expect(Self.cuts(text, separator: ",", depth: 1).count == elements.count - 1)
        #expect(state.depth == 0 && state.inString == 0 && state.escaped == 0)
        #expect(state.newlines == UInt64(bytes.count(where: { $0 == UInt8(ascii: "\n") })))
    }

    @Test("cutting generated JSON Lines at the found line breaks gives whole values")
    func realisticLines() throws {
        var rng = XorShift(seed: 2027)
        let elements = Self.records(&rng, count: 1000)
        let text = elements.joined(separator: "\n") + "\n"
        let cuts = Self.cuts(text, separator: "\n", depth: 0)
        #expect(cuts.count == elements.count)
        let bytes = Array(text.utf8)
        var start = 0
        for cut in cuts {
            let value = try JSONSerialization.jsonObject(with: Data(bytes[start..<cut]))
            #expect(value is [String: Any])
            start = cut + 1
        }
    }
}
