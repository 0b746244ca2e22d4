// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// Hostile and oversized inputs: each ends in a clear error at the right
/// place, and tokens that span many reads are held to their limit before
/// yajl buffers them (`tape_feed.c` in CJSONTape). Peak memory for the same inputs
/// at full size is measured by `scripts/limits`, not here.
@Suite struct LimitsTests {
    /// The syntax error decoding `data` (in chunks of `chunk` bytes) throws.
    private func syntaxError<T: Decodable>(_ type: T.Type, _ data: Data, chunk: Int = 65_536,
                                           decoder: StreamingJSONDecoder = StreamingJSONDecoder(),
                                           sourceLocation: SourceLocation = #_sourceLocation) -> JSONSyntaxError? {
        do {
            _ = try Engine.decode(type, data, chunk: chunk, decoder: decoder)
            Issue.record("no error", sourceLocation: sourceLocation)
        } catch let DecodingError.dataCorrupted(context) {
            if let syntax = context.underlyingError as? JSONSyntaxError { return syntax }
            Issue.record("not a syntax error: \(context)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    private func decoder(maxStringLength: Int? = nil, allowsComments: Bool = false) -> StreamingJSONDecoder {
        let decoder = StreamingJSONDecoder()
        if let maxStringLength { decoder.maxStringLength = maxStringLength }
        decoder.allowsComments = allowsComments
        return decoder
    }

    @Test(arguments: [1_000, 65_536])
    func unclosedStringStopsAtTheLimit(chunk: Int) throws {
        let data = Data("[\"".utf8) + Data(repeating: UInt8(ascii: "a"), count: 8 << 20)
        let error = try #require(syntaxError([String].self, data, chunk: chunk, decoder: decoder(maxStringLength: 1 << 20)))
        #expect(error.message == "String longer than 1048576 bytes (maxStringLength)")
        #expect((error.byteOffset, error.line, error.column) == (1, 1, 2))
    }

    @Test func unclosedStringWithinTheLimitIsTruncatedInput() throws {
        let data = Data("[\"".utf8) + Data(repeating: UInt8(ascii: "a"), count: 300_000)
        let error = try #require(syntaxError([String].self, data, chunk: 4_096))
        #expect(error.message == "Unexpected end of input")
        #expect(error.byteOffset == data.count)
    }

    @Test func stringsAtTheLimitPassAndOneByteMoreFails() throws {
        let limit = 200_000
        for chunk in [997, 65_536, Int.max] {
            let fits = "[\"" + String(repeating: "x", count: limit) + "\"]"
            #expect(try Engine.decode([String].self, Data(fits.utf8), chunk: chunk,
                                      decoder: decoder(maxStringLength: limit)) == [String(repeating: "x", count: limit)])
            let over = "[\"" + String(repeating: "x", count: limit + 1) + "\"]"
            let error = syntaxError([String].self, Data(over.utf8), chunk: chunk, decoder: decoder(maxStringLength: limit))
            #expect(error?.message == "String longer than 200000 bytes (maxStringLength)", "chunk \(chunk)")
            #expect(error?.byteOffset == 1, "chunk \(chunk)")
        }
    }

    /// Escapes, escaped quotes and backslashes, and multi-byte characters
    /// falling on every kind of chunk boundary inside strings much longer
    /// than a chunk: the same value as in one piece.
    @Test(arguments: [1, 2, 7, 1_000])
    func longStringsAcrossReadsDecodeExactly(chunk: Int) throws {
        var text = ""
        for index in 0..<(chunk == 1 ? 2_000 : 20_000) {
            text += ["a", "\\\"", "\\\\", "é", "\\u00e9", "😀", "\\uD83D\\uDE00", "\\n", " ", "\\/"][index % 10]
        }
        let json = Data("[\"\(text)\", {\"k\\\\\": \"\(text)\"}, 12345678901234567890, -1.5e+300]".utf8)
        let whole = try Engine.decode(AnyJSON.self, json)
        #expect(try Engine.decode(AnyJSON.self, json, chunk: chunk) == whole)
        #expect(try Engine.decodePipelined(AnyJSON.self, json, chunk: chunk) == whole)
        guard case .array(let items) = whole, case .string(let decoded) = items[0] else {
            Issue.record("not an array of a string: \(whole)")
            return
        }
        #expect(decoded.unicodeScalars.count == (chunk == 1 ? 2_000 : 20_000) / 10 * 10)
    }

    /// yajl re-lexes a token it buffered from its first byte on every read;
    /// held back until it ends, a 16 MiB string fed 1 KiB at a time is lexed
    /// twice, not 16 000 times (this would take minutes otherwise).
    @Test func aLongStringInSmallReadsIsLexedOnce() throws {
        let length = 16 << 20
        let data = Data("[\"".utf8) + Data(repeating: UInt8(ascii: "b"), count: length) + Data("\"]".utf8)
        let strings = try Engine.decode([String].self, data, chunk: 1_024)
        #expect(strings.first?.utf8.count == length)
    }

    @Test func errorsInsideAHeldStringPointAtTheirByte() throws {
        var bytes = Array("[\"".utf8) + Array(repeating: UInt8(ascii: "c"), count: 100_000)
        bytes[70_000] = 0xFF  // not UTF-8
        bytes += Array("\"]".utf8)
        for chunk in [1_000, 65_536] {
            let error = syntaxError([String].self, Data(bytes), chunk: chunk)
            #expect(error?.message.contains("UTF-8") == true, "chunk \(chunk): \(String(describing: error))")
            #expect(error?.byteOffset == 70_000, "chunk \(chunk)")
        }
        // A control character, in the pipelined engine too.
        var control = Array("[\"".utf8) + Array(repeating: UInt8(ascii: "d"), count: 100_000) + Array("\"]".utf8)
        control[80_000] = 0x0A
        let decoder = Engine.pipelinedDecoder()
        do {
            _ = try decoder._decodeDocument([String].self, size: nil, rereadable: true) { _DataSource(Data(control), chunkLimit: 4_096) }
            Issue.record("no error")
        } catch let DecodingError.dataCorrupted(context) {
            let syntax = try #require(context.underlyingError as? JSONSyntaxError)
            #expect(syntax.byteOffset == 80_000)
            #expect((syntax.line, syntax.column) == (1, 80_001))
        }
    }

    @Test func hugeNumberStopsAtTheLimit() throws {
        let data = Data("[".utf8) + Data(repeating: UInt8(ascii: "7"), count: 2_000_000) + Data("]".utf8)
        for chunk in [4_096, Int.max] {
            let error = syntaxError([Double].self, data, chunk: chunk)
            #expect(error?.message == "Number literal longer than 1000 characters (maxNumberLength)", "chunk \(chunk)")
            #expect(error?.byteOffset == 1, "chunk \(chunk)")
        }
        // Numbers up to the limit split at any byte still parse.
        let long = "[" + String(repeating: "1", count: 300) + ".5e-3, -0.25]"
        for chunk in [1, 3, 64] {
            #expect(try Engine.decode(AnyJSON.self, Data(long.utf8), chunk: chunk)
                    == Engine.decode(AnyJSON.self, Data(long.utf8)))
        }
    }

    @Test func millionOpenBracketsStopAtMaxDepth() throws {
        let data = Data(repeating: UInt8(ascii: "["), count: 1_000_000)
        let error = try #require(syntaxError(AnyJSON.self, data))
        #expect(error.message == "Nesting deeper than 512 levels (maxDepth)")
        #expect((error.byteOffset, error.column) == (512, 513))
    }

    @Test func nulBytesAreRejectedAtTheFirstOne() throws {
        let data = Data(repeating: 0, count: 1 << 20)
        let error = try #require(syntaxError(AnyJSON.self, data))
        #expect(error.message == "Unexpected character U+0000")
        #expect(error.byteOffset == 0)
        // After a valid prefix, too.
        let late = Data("[1, 2".utf8) + Data(repeating: 0, count: 100_000)
        #expect(syntaxError([Int].self, late)?.byteOffset == 5)
    }

    @Test func objectWithManyKeysIsDecoded() throws {
        let count = 200_000
        var json = "[{"
        for index in 0..<count { json += (index == 0 ? "" : ",") + "\"key\(index)\":\(index)" }
        json += "}]"
        let objects = try StreamingJSONDecoder().decode([[String: Int]].self, from: Data(json.utf8))
        #expect(objects.first?.count == count)
        #expect(objects.first?["key199999"] == 199_999)
    }

    @Test func longCommentsAcrossReads() throws {
        let comment = String(repeating: "z * / ", count: 50_000)
        let json = Data("[1, /* \(comment) */ 2, // \(comment)\n 3]".utf8)
        for chunk in [1_000, 65_536] {
            #expect(try Engine.decode([Int].self, json, chunk: chunk, decoder: decoder(allowsComments: true)) == [1, 2, 3])
        }
        let error = syntaxError([Int].self, json, chunk: 1_000, decoder: decoder(maxStringLength: 10_000, allowsComments: true))
        #expect(error?.message == "Comment longer than 10000 bytes (maxStringLength)")
        #expect(error?.byteOffset == 4)
    }

    /// JSON Lines resynchronize after a line whose long string is over the limit.
    @Test func jsonLinesGoOnAfterAnOversizedString() throws {
        let long = String(repeating: "q", count: 300_000)
        let lines = Data("{\"a\":1}\n\"\(long)\"\n{\"a\":3}\n".utf8)
        let decoder = StreamingJSONDecoder()
        decoder.maxStringLength = 100_000
        var seen: [String] = []
        var iterator = decoder.elements(of: [String: Int].self, from: lines, format: .jsonLines).makeIterator()
        while seen.count < 5 {
            do {
                guard let value = try iterator.next() else { break }
                seen.append("a=\(value["a"] ?? -1)")
            } catch {
                seen.append("error: \(error)")
            }
        }
        #expect(seen.count == 3)
        #expect(seen.first == "a=1")
        #expect(seen.last == "a=3")
        #expect(seen[1].contains("String longer than 100000 bytes (maxStringLength)"))
    }
}

/// Unpaired UTF-16 surrogates in `\u` escapes are rejected before yajl
/// decodes them (yajl 2.1.0 would invent a code point, write invalid UTF-8,
/// or assert: CVE-2017-16516), as Foundation's JSONDecoder rejects them.
@Suite struct SurrogateEscapeTests {
    static let chunkSizes = [1, 2, 3, 5, 7, 64, Int.max]

    private func error(_ text: String, chunk: Int, pipelined: Bool = false) -> JSONSyntaxError? {
        do {
            _ = pipelined ? try Engine.decodePipelined(AnyJSON.self, Data(text.utf8), chunk: chunk)
                          : try Engine.decode(AnyJSON.self, Data(text.utf8), chunk: chunk)
        } catch let DecodingError.dataCorrupted(context) {
            return context.underlyingError as? JSONSyntaxError
        } catch {}
        return nil
    }

    /// Each is reported at the byte that shows the surrogate unpaired (the
    /// first byte no valid document could have there), naming the escape.
    @Test(arguments: [
        (#"["\uD800"]"#, 8, "\\uD800 is a high surrogate not followed by a \\u escape of a low surrogate"),
        (#"["ab\uDBFFx"]"#, 10, "\\uDBFF is a high surrogate not followed"),
        (#"["\uD800\u0041"]"#, 13, "\\uD800 is a high surrogate not followed"),
        (#"["\uD800\uD800"]"#, 13, "\\uD800 is a high surrogate not followed"),
        (#"["\uD800\\"]"#, 9, "\\uD800 is a high surrogate not followed"),
        (#"["\uD800\n"]"#, 9, "\\uD800 is a high surrogate not followed"),
        (#"["\uDC00"]"#, 7, "\\uDC00 is a low surrogate without a high surrogate before it"),
        (#"["x\udfff\uD83D\uDE00"]"#, 8, "\\uDFFF is a low surrogate"),
        (#"{"\uD834":1}"#, 8, "\\uD834 is a high surrogate"),
        (#"[1, "ok", "\\", "\uDE00"]"#, 22, "\\uDE00 is a low surrogate"),
    ])
    func unpairedSurrogatesAreRejected(text: String, offset: Int, message: String) {
        for chunk in Self.chunkSizes {
            for pipelined in [false, true] {
                let found = error(text, chunk: chunk, pipelined: pipelined)
                #expect(found?.byteOffset == offset, "chunk \(chunk) pipelined \(pipelined): \(String(describing: found))")
                #expect(found?.message.contains(message) == true, "chunk \(chunk): \(String(describing: found))")
            }
        }
    }

    @Test func pairsAndEscapedBackslashesAreNotSurrogates() throws {
        let cases: [(String, String)] = [
            (#"["\uD83D\uDE00"]"#, "😀"),
            (#"["\ud834\udd1e!"]"#, "𝄞!"),
            (#"["\\uD800"]"#, #"\uD800"#),       // an escaped backslash, then text
            (#"["\\\uD83D\uDE00"]"#, #"\😀"#),
            (#"["\uDBFF\uDFFF"]"#, "\u{10FFFF}"),
            (#"["\uD7FF\uE000"]"#, "\u{D7FF}\u{E000}"),
        ]
        for (text, expected) in cases {
            for chunk in Self.chunkSizes {
                #expect(try Engine.decode([String].self, Data(text.utf8), chunk: chunk) == [expected], "\(text) chunk \(chunk)")
            }
        }
    }

    /// A syntax error before the surrogate is the one reported.
    @Test func anEarlierSyntaxErrorWins() {
        #expect(error(#"[1 2, "\uD800"]"#, chunk: .max)?.byteOffset == 3)
    }

    /// JSON Lines report the line and go on with the next.
    @Test func jsonLinesGoOn() throws {
        let lines = Data("\"a\"\n\"\\uD800x\"\n\"b\"\n".utf8)
        var iterator = StreamingJSONDecoder().elements(of: String.self, from: lines, format: .jsonLines).makeIterator()
        var seen: [String] = []
        while seen.count < 5 {
            do {
                guard let value = try iterator.next() else { break }
                seen.append(value)
            } catch {
                seen.append("error")
            }
        }
        #expect(seen == ["a", "error", "b"])
    }
}

/// An element that fails to decode, then a syntax error in the same read:
/// every source delivers the elements between them, in order, then the
/// syntax error. Nothing is dropped.
@Suite struct ErrorsInOneReadTests {
    static let text = #"[1,"x",3,4,oops]"#
    static let expected = ["1", "typeMismatch", "3", "4", "syntax at 11"]

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch: return "typeMismatch"
        case DecodingError.dataCorrupted(let context):
            if let syntax = context.underlyingError as? JSONSyntaxError { return "syntax at \(syntax.byteOffset)" }
            return "dataCorrupted"
        default: return "\(error)"
        }
    }

    @Test func pulledElements() {
        var iterator = StreamingJSONDecoder().elements(of: Int.self, from: Data(Self.text.utf8)).makeIterator()
        var seen: [String] = []
        while seen.count < 10 {
            do {
                guard let value = try iterator.next() else { break }
                seen.append("\(value)")
            } catch {
                seen.append(Self.describe(error))
                if seen.last!.hasPrefix("syntax") { break }
            }
        }
        #expect(seen == Self.expected)
        // After the syntax error the stream is over.
        #expect((try? iterator.next()) == nil)
    }

    @Test func asyncChunks() async {
        let chunks = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array(Self.text.utf8))
            continuation.finish()
        }
        var iterator = StreamingJSONDecoder().elements(of: Int.self, from: chunks).makeAsyncIterator()
        var seen: [String] = []
        while seen.count < 10 {
            do {
                guard let value = try await iterator.next() else { break }
                seen.append("\(value)")
            } catch {
                seen.append(Self.describe(error))
                if seen.last!.hasPrefix("syntax") { break }
            }
        }
        #expect(seen == Self.expected)
    }

    @Test func feed() {
        let feed = JSONElementFeed(of: Int.self)
        var seen: [String] = []
        func record(_ call: () throws -> [Int]) -> Bool {
            do {
                let values = try call()
                seen += values.map { "\($0)" }
                return !values.isEmpty
            } catch {
                seen.append(Self.describe(error))
                return !seen.last!.hasPrefix("syntax")
            }
        }
        _ = record { try feed.feed(Array(Self.text.utf8)) }
        while seen.count < 10 && record({ try feed.finish() }) {}
        #expect(seen == Self.expected)
    }
}

@Suite struct ElementSizeInWholeDocumentsTests {
    /// decode(_:from:) reports an element over maxElementBytes as streams do:
    /// dataCorrupted with a JSONSyntaxError at the element's first byte.
    @Test func wholeDocumentElementOverTheLimit() throws {
        let decoder = StreamingJSONDecoder()
        decoder.maxElementBytes = 10
        do {
            _ = try decoder.decode([String].self, from: Data(#"["short", "much longer than ten bytes"]"#.utf8))
            Issue.record("no error")
        } catch let DecodingError.dataCorrupted(context) {
            let syntax = try #require(context.underlyingError as? JSONSyntaxError)
            #expect(syntax.message == "Element larger than 10 bytes (maxElementBytes)")
            #expect(syntax.byteOffset == 10)
            #expect(context.codingPath.map(\.stringValue) == ["Index 1"])
        }
        #expect(try decoder.decode([String].self, from: Data(#"["short", "ok"]"#.utf8)) == ["short", "ok"])
    }
}

/// JSON Lines resynchronize the same way when the broken string was held
/// back over several reads (`tape_feed.c`): the line after the error's line is
/// read, however the input was split (found by fuzz target stream).
@Suite struct HeldTokenResyncTests {
    static func events(_ text: String, chunk: Int) -> [String] {
        let feed = JSONElementFeed(of: JSONValue.self, format: .jsonLines)
        var events: [String] = []
        func record(_ call: () throws -> [JSONValue]) -> Bool {
            do {
                let values = try call()
                events += values.map { "\($0)" }
                return !values.isEmpty
            } catch {
                if case .dataCorrupted(let context) = error as? DecodingError,
                   let syntax = context.underlyingError as? JSONSyntaxError {
                    events.append("error at \(syntax.byteOffset)")
                } else {
                    events.append("\(error)")
                }
                return true
            }
        }
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            _ = record { try feed.feed(bytes[start..<min(bytes.count, start + chunk)]) }
        }
        for _ in 0..<20 where record({ try feed.finish() }) {}
        return events
    }

    @Test func theLineAfterABrokenHeldStringIsRead() {
        let text = "[\"new\nline\"]\n[1]\n"
        let whole = Self.events(text, chunk: .max)
        #expect(whole == ["error at 5", "error at 6", "[1]"])
        for chunk in [1, 2, 3, 4] {
            #expect(Self.events(text, chunk: chunk) == whole, "chunk \(chunk)")
        }
    }
}

extension HeldTokenResyncTests {
    /// A raw control character ends the hold at once, so a JSON Lines error in
    /// a string still open at the end of the input is reported while reading,
    /// and the lines after it are read (found by fuzz target stream).
    @Test func aControlCharacterInAHeldStringIsReportedAtOnce() {
        let text = "@\n[\"4a,\n,1\n[2]\n"
        let whole = Self.events(text, chunk: .max)
        #expect(whole.count == 4 && whole.last == "[2]", "\(whole)")
        for chunk in [1, 2, 3, 5] {
            #expect(Self.events(text, chunk: chunk) == whole, "chunk \(chunk)")
        }
    }
}

extension HeldTokenResyncTests {
    /// An error inside a string held back comes before one found after it
    /// (a raw vertical tab, an unpaired surrogate), as with the input in one
    /// piece (found by fuzz target stream).
    @Test func errorsInHeldBytesComeFirst() {
        for text in ["[\"\\uFFsyntax error and more text\u{0B}\"]\n", "[\"a\\q long string\\uD800x\"]\n",
                     "[\"\\uFFsyntax\", \"x\\uDC00\"]\n"] {
            let whole = Self.events(text, chunk: .max)
            #expect(whole.first == "error at 6" || whole.first == "error at 4", "\(whole)")
            for chunk in [1, 2, 3] {
                #expect(Self.events(text, chunk: chunk) == whole, "\(text) chunk \(chunk)")
            }
        }
    }
}
