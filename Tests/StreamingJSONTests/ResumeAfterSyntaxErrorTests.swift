// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// After a syntax error an array goes on at its next element, and where it
/// cannot, the stream says so on every later call. Checked against an oracle
/// built from the clean input: damage an input at one random place, read it
/// back, and every element the damage did not touch must come out, in order,
/// with every error naming the element it broke.
@Suite("Resuming after a syntax error", .onItsOwnThread)
struct ResumeAfterSyntaxErrorTests {
    // MARK: Each kind of damage

    /// `(input, the ids that must come out, the element indexes the errors name)`.
    static let damaged: [(String, [Int], [Int?])] = [
        (#"[{"id":0},{"id":1,"n":"b"x},{"id":2}]"#, [0, 2], [1]),              // a garbage byte
        (#"[{"id":0},{"id":1}{"id":2},{"id":3}]"#, [0, 1, 2, 3], [nil]),       // a missing comma
        (#"[{"id":0},,{"id":2}]"#, [0, 2], [1]),                               // an extra comma
        (#"[{"id":0},{"id":1,,"a":1},{"id":2}]"#, [0, 2], [1]),                // an extra comma inside
        (#"[{"id":0},{"id":12x3},{"id":2}]"#, [0, 2], [1]),                   // a bad number
        (#"[{"id":0},{"id":nul},{"id":2}]"#, [0, 2], [1]),                    // a bad literal
        ("[{\"id\":0},{\"id\":1,\"n\":\"a\u{1}\"},{\"id\":2}]", [0, 2], [1]),  // a raw control character
        (#"[{"id":0}"{"id":1},{"id":2}]"#, [0, 1, 2], [nil]),                 // a quote for a comma
        (#"[{"id":0},{"id":1]},{"id":2}]"#, [0, 2], [1]),                      // a stray closing bracket
        (#"[{"id":0},{"id":1],{"id":2}]"#, [0, 2], [1]),                       // a bracket for a brace
        (#"[{"id":0}],{"id":1},{"id":2}]"#, [0, 1, 2], [nil]),                 // a stray bracket closing the array
        (#"[{"id":0,"n":"abc},{"id":1,"n":"x"},{"id":2}]"#, [1, 2], [0]),     // a lost quote swallowing a start
        (#"[{"id":0,"na{"id":1,"n":"x"},{"id":2}]"#, [1, 2], [0]),           // cut short by the next one's start
        (#"[{"id":0},{"id":1,"t":"hel"o world","b":2},{"id":2}]"#, [0, 2], [1]),  // an extra quote
        (#"[1,2,]"#, [1, 2], [nil]),                                          // a comma before the end
    ]

    @Test("Each kind of damage: the elements after it come, the error names its element", arguments: 0..<15)
    func eachKindOfDamage(_ index: Int) throws {
        let (text, ids, indexes) = Self.damaged[index]
        for chunkSize in [1, 3, 7, 64, 1 << 16] {
            let outcome = Self.read(Array(text.utf8), format: .array, chunkSize: chunkSize)
            let got = outcome.values.map { value -> Int in
                if case .object(let object) = value, case .number(let id)? = object["id"] { return id.int ?? -1 }
                if case .number(let number) = value { return number.int ?? -1 }
                return -1
            }
            #expect(got == ids, "\(text) in chunks of \(chunkSize): \(outcome.errors)")
            #expect(outcome.errors.map(\.elementIndex) == indexes, "\(text) in chunks of \(chunkSize): \(outcome.errors)")
            #expect(!outcome.ended, "\(text): \(outcome.errors)")
        }
    }

    @Test("The error of a broken element: its coding path, index and the bytes passed over")
    func errorOfABrokenElement() throws {
        let text = #"[{"id":0},{"id":1,"n":"b"x},{"id":2}]"#
        var iterator = StreamingJSONDecoder().elements(of: JSONValue.self, from: Data(text.utf8)).makeIterator()
        _ = try iterator.next()
        do {
            _ = try iterator.next()
            Issue.record("no error")
        } catch DecodingError.dataCorrupted(let context) {
            let syntax = try #require(context.underlyingError as? JSONSyntaxError)
            #expect(context.codingPath.map(\.stringValue) == ["Index 1"])
            #expect(syntax.elementIndex == 1)
            #expect(syntax.byteOffset == 25 && syntax.line == 1 && syntax.column == 26)
            #expect(syntax.skippedBytes == 18)  // from the element's `{` to the next one's
            #expect(!syntax.endsStream)
        }
        #expect(try iterator.next() == JSONValue.object(["id": 2]))
        #expect(try iterator.next() == nil)
    }

    @Test("At a key path: the elements after the damage come, and what follows the array is read")
    func atAKeyPath() throws {
        let text = #"{"meta":{"n":3},"items":[{"id":0},{"id":1x},{"id":2}],"after":[1,2]}"#
        let outcome = Self.read(Array(text.utf8), format: .array, path: ["items"], chunkSize: 5)
        #expect(outcome.values == [.object(["id": 0]), .object(["id": 2])])
        #expect(outcome.errors.map(\.elementIndex) == [1])
        #expect(!outcome.ended)
    }

    @Test("Damage in elements larger than the search's window: the next element still comes")
    func damageInHugeElements() throws {
        // Five elements of about 6 MB, each an array of items, one damaged half
        // way: the search walks past 3 MB in a window, and no item passes for
        // an element (the broken element so far says how large elements are).
        let text = String(repeating: "y", count: 1000)
        func element(_ id: Int) -> String {
            #"{"id":\#(id),"items":["# + (0..<6000).map { #"{"n":\#($0),"t":"\#(text)"}"# }.joined(separator: ",") + "]}"
        }
        var elements = (0..<5).map(element)
        elements[2] = elements[2].replacingOccurrences(of: #"{"n":3000,"#, with: #"{"n":3000x,"#)
        let outcome = Self.read(Array(("[" + elements.joined(separator: ",\n") + "]").utf8), format: .array,
                                chunkSize: 1 << 16)
        let ids = outcome.values.map { value -> Int in
            if case .object(let object) = value, case .number(let id)? = object["id"] { return id.int ?? -1 }
            return -1
        }
        #expect(ids == [0, 1, 3, 4])
        #expect(outcome.errors.map(\.elementIndex) == [2])
        #expect(!outcome.ended)
    }

    @Test("Where no element can follow, the error ends the stream, on every later call")
    func terminal() throws {
        for text in [#"[{"id":0},{"id":1"#, #"[{"id":0},{"id":1,"n":"abc"#, #"{"a":[1,2],"b":x}"#] {
            let path = text.hasPrefix("{") ? ["a"] : []
            let outcome = Self.read(Array(text.utf8), format: .array, path: path, chunkSize: 1 << 16)
            #expect(outcome.ended, "\(text): \(outcome.errors)")
            #expect(outcome.errors.last?.endsStream == true, "\(text)")
        }
    }

    // MARK: Random damage against the clean input

    @Test("An array damaged at 200 random places, one at a time: every untouched element comes out")
    func randomDamageInAnArray() throws {
        try Self.damageAtRandom(format: .array, seed: 0xDA4A_6E01)
    }

    @Test("JSON Lines damaged at 200 random places, one at a time: every untouched value comes out")
    func randomDamageInJSONLines() throws {
        try Self.damageAtRandom(format: .jsonLines, seed: 0xDA4A_6E02)
    }

    /// The fixture's records in `format`, damaged one place at a time.
    static func damageAtRandom(format: JSONStreamFormat, seed: UInt64) throws {
        let fixture = RecordsFixture.make(count: 300, seed: seed)
        let clean = [UInt8](format == .array ? fixture.array : fixture.lines)
        let oracle = Self.read(clean, format: format, chunkSize: 1 << 16)
        let starts = Self.elementStarts(clean, isArray: format == .array)
        try #require(oracle.errors.isEmpty && oracle.values.count == 300 && starts.count == 300)
        var rng = XorShift(seed: seed)
        var terminal = 0, errors = 0
        for round in 0..<200 {
            // Inside the elements and between them, not the array's own brackets.
            let end = format == .array ? clean.lastIndex(of: UInt8(ascii: "]"))! : clean.count
            let offset = starts[0] + rng.below(end - starts[0])
            let (damaged, how) = Self.damage(clean, at: offset, rng: &rng)
            let touched = (starts.lastIndex { $0 <= offset })!
            let chunkSize = [1 << 16, 4096, 97][round % 3]
            let outcome = Self.read(damaged, format: format, chunkSize: chunkSize)
            let context = "round \(round): \(how) at \(offset) (element \(touched)), chunks of \(chunkSize): \(outcome.errors)"
            errors += outcome.errors.count
            // The untouched elements before the damage, then (unless the stream
            // could not go on) those after it, in order, each exactly once.
            let before = Array(oracle.values[..<touched])
            let after = Array(oracle.values[(touched + 1)...])
            #expect(Array(outcome.values.prefix(touched)) == before, "\(context)")
            if outcome.ended {
                terminal += 1
                #expect(outcome.errors.last?.endsStream == true, "\(context)")
            } else {
                let rest = Array(outcome.values.dropFirst(touched))
                #expect(isSubsequence(after, of: rest), "\(context): \(rest.count) values after it")
                // What the damaged element became, at most a few values (JSON
                // Lines reads `133}0391` as three); never a nested array's
                // elements taken for the stream's.
                #expect(rest.count <= after.count + 3, "\(context)")
            }
            // Every error names the element it broke (JSON Lines: its line):
            // the one damaged, or one that garbage after it began.
            for error in outcome.errors where error.elementIndex != nil && format == .array {
                #expect(error.elementIndex == touched || error.elementIndex == touched + 1, "\(context)")
            }
            for error in outcome.errors {
                #expect(error.byteOffset >= min(offset, starts[touched]) - 1, "\(context)")
            }
        }
        // The damage was seen (inside a string most bytes still parse).
        #expect(errors > 100, "\(errors) errors")
        #expect(terminal < 5, "\(terminal) of 200 could not go on")
    }

    /// Overwrites, deletes or inserts a byte at `offset`: mostly the bytes
    /// that move structure (quotes, brackets, commas), sometimes any byte.
    static func damage(_ bytes: [UInt8], at offset: Int, rng: inout XorShift) -> ([UInt8], String) {
        let structural = Array(#""{}[],:\x"#.utf8) + [0xFF, 0x0C, 0x20]
        let byte = rng.chance(70) ? structural[rng.below(structural.count)] : UInt8(rng.below(256))
        var damaged = bytes
        switch rng.below(3) {
        case 0:
            damaged[offset] = byte
            return (damaged, "0x\(String(bytes[offset], radix: 16)) overwritten with 0x\(String(byte, radix: 16))")
        case 1:
            damaged.remove(at: offset)
            return (damaged, "0x\(String(bytes[offset], radix: 16)) deleted")
        default:
            damaged.insert(byte, at: offset)
            return (damaged, "0x\(String(byte, radix: 16)) inserted")
        }
    }

    /// Where each top-level element of valid input starts: its first byte
    /// after the array's `[` or a comma (arrays), or a line's (JSON Lines).
    static func elementStarts(_ bytes: [UInt8], isArray: Bool) -> [Int] {
        var starts: [Int] = []
        var depth = 0, inString = false, escaped = false, expectsValue = !isArray
        for (index, byte) in bytes.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true }
                else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            if _isJSONWhitespace(byte) { continue }
            if expectsValue && depth == (isArray ? 1 : 0) { starts.append(index); expectsValue = false }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if isArray && depth == 1 { expectsValue = true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            case UInt8(ascii: ","): if isArray && depth == 1 { expectsValue = true }
            default: break
            }
            if !isArray && depth == 0 && (byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")) { expectsValue = true }
        }
        return starts
    }

    // MARK: Reading

    struct Outcome {
        var values: [JSONValue] = []
        var errors: [JSONSyntaxError] = []
        /// An error ended the stream (and was thrown again by the next call).
        var ended = false
    }

    /// Reads every element as a loop that catches errors and goes on does.
    static func read(_ bytes: [UInt8], format: JSONStreamFormat, path: [String] = [], chunkSize: Int) -> Outcome {
        let feed = JSONElementFeed(of: JSONValue.self, at: path, format: format)
        var outcome = Outcome()
        func note(_ error: any Error) {
            guard case .dataCorrupted(let context) = error as? DecodingError,
                  let syntax = context.underlyingError as? JSONSyntaxError else {
                Issue.record("not a syntax error: \(error)")
                outcome.ended = true
                return
            }
            if syntax.endsStream { outcome.ended = true }
            if outcome.errors.last != syntax || !syntax.endsStream { outcome.errors.append(syntax) }
        }
        var start = 0
        while start < bytes.count && !outcome.ended {
            do { outcome.values += try feed.feed(bytes[start..<min(start + chunkSize, bytes.count)]) } catch { note(error) }
            start += chunkSize
        }
        for _ in 0..<100_000 where !outcome.ended {
            do {
                let more = try feed.finish()
                if more.isEmpty { break }
                outcome.values += more
            } catch {
                note(error)
            }
        }
        return outcome
    }
}

/// Whether `needle`'s elements appear in `haystack` in the same order.
private func isSubsequence(_ needle: [JSONValue], of haystack: [JSONValue]) -> Bool {
    var iterator = haystack.makeIterator()
    return needle.allSatisfy { wanted in
        while let next = iterator.next() { if next == wanted { return true } }
        return false
    }
}
