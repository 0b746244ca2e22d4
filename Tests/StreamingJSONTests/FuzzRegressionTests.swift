// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// Every input a fuzz target (Fuzz/, scripts/fuzz) stopped on, kept in
/// Tests/Fixtures/fuzz-regressions/TARGET/ and run through that target's own
/// check (FuzzChecks/), with the outcome it must give now; then each bug the
/// fuzzers found, as a plain test of the API it was in. The filter target's
/// inputs and bugs are JSONFilter's, in JSONFilterFuzzRegressionTests.
@Suite struct FuzzRegressionTests {
    static let directory = Engine.fixtures.appendingPathComponent("fuzz-regressions")

    static func input(_ target: String, _ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(target).appendingPathComponent(name)))
    }

    static func saved(_ target: String) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(target).path)) ?? [])
    }

    // MARK: Saved inputs and their outcomes

    static let stream: [String: [String]] = [
        "feed-elements-before-syntax-error": [
            "element 1", "element 2", "error syntax error at 5:1:6 Unexpected character 'x'"],
        "feed-elements-before-syntax-error-chunked": [
            "element 1", "element 2", "error syntax error at 5:1:6 Unexpected character 'x'"],
        "lines-truncated-value-bytewise": ["error syntax error at 4:1:5 Unexpected end of input"],
        // JSON Lines, `["\` then a line break in the next chunk: the error ends line 1 only.
        "escape-newline-split-across-chunks": [
            "error syntax error at 3:1:4 Invalid escape sequence in string: unexpected U+000A after '\\'",
            "error syntax error at 4:2:1 Unexpected character 'I'"],
        // .objectValues on ["a" (the decode comparison looked at the wrong error).
        "object-values-of-an-array": ["error syntax error at 0:1:1 Expected an object at the root but found an array"],
        // .objectValues on "asd" in 1-byte chunks: the error was at the string's end.
        "object-values-of-a-split-string": ["error syntax error at 0:1:1 Expected an object at the root but found a string"],
        // JSON Lines "{\ns": restarting at the error's own line reported it a second time.
        "lines-restart-at-error-reports-it-twice": ["error syntax error at 2:2:1 Unexpected character 's'"],
        // JSON Lines "{\n {" in 3-byte chunks: whether the error was the first thing
        // on its line (then the line is parsed again from there) depended on the split.
        "lines-first-on-line-across-chunks": [
            "error syntax error at 3:2:2 Unexpected character '{' (expected a string key)",
            "error syntax error at 4:2:3 Unexpected end of input"],
        // The same, when the rejected token began in an earlier chunk (it is parsed again).
        "lines-restart-at-token-begun-in-earlier-chunk": [
            #"element {"sku":"A-101","title":"Gadget","price":24.5,"qty":0,"dims":{"w":7,"h":7},"labels":[]}"#,
            "error syntax error at 104:1:105 Unexpected character ',' (expected a value)",
            #"element {"sku":"B-200","title":"Doohickey","price":3,"qty":12,"dims":null,"labels":["sale"]}"#,
            "error syntax error at 207:2:102 Unexpected character ',' (expected a value)",
            "error syntax error at 273:4:8 Unexpected character ':' (expected ',' or '}')",
            "error syntax error at 442:5:79 Unexpected character 'p'",
            "error syntax error at 529:6:74 Unexpected character 'l'",
            #"element {"sku":"B-201","title":"Thingamajig, deluxe","price":199.0,"qty":1,"dims":{"w":40,"h":22,"d":3},"labels":["premium","new"]}"#,
            "error syntax error at 751:7:147 Unexpected character ',' (expected a value)",
            "error syntax error at 831:8:79 Unexpected character 'p'",
            "error syntax error at 924:9:80 Unexpected character U+0001",
            "error syntax error at 961:10:7 Unexpected character byte 0x8E",
            "error syntax error at 1038:11:7 Unexpected character byte 0x8E"],
        // {"e": 12": " : the rejected token is the string at byte 10; yajl's offset
        // was inside it (12), or the chunk's start when it was split.
        // " ]" bytewise: in .auto the leading whitespace was not kept for locating errors.
        "auto-whitespace-before-a-rejected-token": ["error syntax error at 1:1:2 Unexpected character ']' (expected a value)"],
        // .objectValues on {} "z<0x08>" in 2-byte chunks: the trailing string, rejected
        // inside (a control character), began before the chunk where yajl rejected it.
        "trailing-garbage-string-split": [
            #"error syntax error at 3:1:4 Unexpected character '"' after the end of the JSON value"#],
        // A 52-byte string as a JSON Lines value under maxElementBytes 48, split:
        // the element was placed at the string's end.
        "oversized-string-split": ["error syntax error at 0:1:1 Element larger than 48 bytes (maxElementBytes)"],
        // JSON Lines ["<F0 9B BF>] fed in pieces of 1 and 2 bytes: the string held
        // back at the end of the input was reported as truncated, not as invalid UTF-8.
        "held-string-invalid-utf8-at-end": [#"error syntax error at 5:1:6 Invalid UTF-8 in string: unexpected ']'"#],
        // A damaged array ending `]<0x0B>` (yajl takes a raw vertical tab for
        // whitespace, the stream does not): the search after the error bore out
        // the bracket as a stray one, where the stream failed again, for ever.
        "array-vertical-tab-after-its-end-bytewise": [
            "element 3", "element -1.5", "element 0", "element 10",
            "error syntax error at 15:1:16 Unexpected character byte 0xD5",
            #"element "  padeed  ""#, #"element "a,b,c""#, #"element "123""#, #"element "-7.5""#,
            #"element "ümlaut""#,
            "error syntax error at 365:1:366 Invalid UTF-8 in string: unexpected byte 0x93",
            #"element "foo_bar_baz""#, #"element "1023-01-15""#, #"element "helqo world hello""#,
            "error syntax error at 444:1:445 Unexpected character U+000B"],
        "grammar-error-at-a-string-token": [
            #"error syntax error at 10:2:9 Unexpected character '"' (expected ',' or '}')"#],
    ]

    static let typed: [String: String] = [
        // 1F 8B …: a gzip header whose compression method is not deflate. The
        // check took the decoder's CompressedInputError for a wrong error type.
        "damaged-gzip-document": "CompressedInputError",
        "number-out-of-range-coding-path": "dataCorrupted at [count]",
        // Foundation lists a dictionary's keys in hash order: its first bad key may differ.
        "dictionary-keys-in-document-order": "typeMismatch at [byIndex, founded]",
        // A dictionary key holding ", " and "]": the check split the path on it.
        "dictionary-key-with-comma": "typeMismatch at [byIndex, f$ounded]",
        // The same, with a key that starts with a combining mark (U+035A): the
        // ", " before it and the mark made one Character, and the prefix test failed.
        "dictionary-key-with-combining-mark": "typeMismatch at [byIndex, f$ounded]",
        // The same mark at the start of the key this package reports first.
        "dictionary-key-with-combining-mark-first": "typeMismatch at [byIndex, \u{35A}bsi--e]",
        // "id": -9223372036854775808.00 is Int.min exactly: decoded here, refused by Foundation.
        "int-min-with-zero-fraction": #"value containing "id":-9223372036854775808"#,
        // The same, then a type mismatch: Foundation stops at the first ("dataCorrupted at []").
        "int-min-with-zero-fraction-then-type-mismatch": "typeMismatch at [abv]",
        // The same with an empty key first: the check's path split dropped it.
        "dictionary-empty-key-first": "typeMismatch at [byIndex, ]",
        // [Int: String] with keys "0" and "-0": the later in the document wins
        // here; Foundation's pick follows its hash order, different each run.
        "integer-keys-zero-and-minus-zero": #"value containing "byIndex":{"0":"minus two"}"#,
        // The same inside the first of two "byIndex" members (the decoders read the first).
        "integer-keys-zero-and-minus-zero-repeated-member": #"value containing "byIndex":{"0":"minus two"}"#,
        // "id": -92337758008.000…0005 (a fraction 40 digits down, which Foundation's
        // Double drops), then "abv": "x": refused here at [id], while Foundation,
        // having truncated it, fails at [abv] (found by CI's typed run).
        "fraction-rounded-away-into-int-then-type-mismatch": "dataCorrupted at [id]",
        // "founded": "2021-03-14T09:26:53.123Z" with .iso8601: the fraction added last
        // gave 637406813.1229999, Foundation 637406813.123 (found by CI's typed run).
        "iso8601-fraction-last-bit": #"value containing "founded":637406813.123,"#,
        // "founded": "1010-03-14T09:26:53.123Z": Foundation counts in the Julian calendar
        // there, this package in the proleptic Gregorian one (documented; found by a typed run).
        "iso8601-date-before-gregorian": #"value containing "founded":-31266743586.877,"#,
        // "founded": "1010-03-14T02536.:9:123Z" with .iso8601: this package's path names
        // the key, Foundation's stops at the brewery (MigratingFromJSONDecoder, "Where Foundation on Linux decodes differently"; found by a typed run).
        "iso8601-invalid-date-path": "dataCorrupted at [0, brewery, founded]",
        // "founded": "1010-03-14T09:26:53.12+3Z": Foundation's .iso8601 takes it (a
        // one-digit offset, then a character after the zone); refused here.
        "iso8601-lenient-offset": "dataCorrupted at [0, brewery, founded]",
        // "flags": {"": null} into [String: Bool]: valueNotFound here, typeMismatch in
        // Foundation, which says so for a Bool alone (MigratingFromJSONDecoder, "Where Foundation on Linux decodes differently"; found by a typed run).
        "null-bool-in-dictionary": "valueNotFound at [flags, ]",
        // "founded": "2021-03-14t09:26:53.123Z": RFC 3339's lowercase t, accepted here,
        // refused by Foundation's .iso8601 (MigratingFromJSONDecoder, "Where Foundation on Linux decodes differently"; found by a typed run).
        "iso8601-lowercase-t": #"value containing "founded":637406813.123,"#,
        // The same lowercase t in element 1; element 2 lacks "id", where this package stops.
        "iso8601-lowercase-t-then-missing-key": "keyNotFound(id) at [2]",
        // "flags": {"": true, "": "minus two"}: the first "" is decoded here; Foundation
        // decodes the second too and fails (MigratingFromJSONDecoder, "Where Foundation on Linux decodes differently"; found by a typed run).
        "dictionary-repeated-key-later-value-wrong-type": #"value containing "flags":{"":true}"#,
        // The same repeated key, then "kind": "\rale", where this package fails first.
        "dictionary-repeated-key-then-bad-enum": "dataCorrupted at [kind]",
        // "location": [1.1e-04005, -2]: Foundation refuses a literal that rounds to zero.
        "double-underflow": "dataCorrupted at [brewery, location, 0]",
        // "count": 18446744073709551.615: Foundation truncates it into a UInt64, this package refuses it.
        "fraction-past-2-53-into-uint64": "dataCorrupted at [count]",
        // "count": 18e-6744073709551615: Foundation decodes 0 into a UInt64, this package refuses it.
        "underflow-into-uint64": "dataCorrupted at [count]",
        // "id": 4.00000000000000000044…: its nearest Double is 4, which Foundation decodes; refused here.
        "fraction-rounded-away-into-int": "dataCorrupted at [id]",
        // The same underflow into a UInt64, then a type mismatch Foundation reports instead.
        "underflow-then-type-mismatch": "dataCorrupted at [count]",
        // The same leniency of Foundation's, then a missing key later on.
        "large-fraction-then-missing-key": "dataCorrupted at [count]",
    ]

    static let roundTrip: [String: String] = [
        // The key "" first held NaN, then "": the value has no NaN to refuse.
        "duplicate-key-replaces-nan": #"{"null,n\#u{FFFF}\#u{FFFF}\#u{FFFF}\#u{FFFF}":"","":""}"#,
    ]

    static let decode: [String: String] = [:]

    @Test func everySavedInputHasAnExpectedOutcome() {
        #expect(Self.saved("stream") == Set(Self.stream.keys))
        #expect(Self.saved("typed") == Set(Self.typed.keys))
        #expect(Self.saved("roundtrip") == Set(Self.roundTrip.keys))
        #expect(Self.saved("decode") == Set(Self.decode.keys))
        // Every target's folder is one of these or filter's (JSONFilterFuzzRegressionTests).
        let targets = Set((try? FileManager.default.contentsOfDirectory(atPath: Self.directory.path)) ?? [])
        #expect(targets.isSubset(of: ["stream", "typed", "roundtrip", "decode", "filter"]), "\(targets.sorted())")
    }

    @Test(arguments: stream.keys.sorted())
    func streamInput(_ name: String) async throws {
        let events = try await StreamChunksCheck.run(Self.input("stream", name))
        #expect(events.map(\.description) == Self.stream[name])
    }

    /// The typed check's test for Foundation's rounding leniency.
    @Test func integralAsWritten() {
        for literal in ["4", "4.000", "1.5e1", "-0.0", "0e-99999999999999999999", "1e99999999999999999999", "120E-1"] {
            #expect(TypedModelCheck.isIntegralAsWritten(literal), "\(literal)")
        }
        for literal in ["4.5", "15e-1", "4.00000000000000000044", "18e-6744073709551615", "-0.01", "12E-1"] {
            #expect(!TypedModelCheck.isIntegralAsWritten(literal), "\(literal)")
        }
    }

    @Test(arguments: typed.keys.sorted())
    func typedInput(_ name: String) throws {
        let expected = Self.typed[name] ?? ""
        switch try TypedModelCheck.run(Self.input("typed", name)) {
        case .value(let value):
            let prefix = "value containing "
            #expect(expected.hasPrefix(prefix) && value.contains(expected.dropFirst(prefix.count)), "decoded \(value)")
        case .error(let summary): #expect(summary == expected)
        }
    }

    @Test(arguments: roundTrip.keys.sorted())
    func roundTripInput(_ name: String) throws {
        let value = try RoundTripCheck.run(Self.input("roundtrip", name)).description
        #expect(value == Self.roundTrip[name])
    }

    @Test(arguments: decode.keys.sorted())
    func decodeInput(_ name: String) throws {
        let outcome = switch try DecodeValueCheck.run(Self.input("decode", name)) {
        case .success(let value): "\(value)"
        case .failure(let error): "\(syntaxError(of: error).map { "\($0)" } ?? "\(error)")"
        }
        #expect(outcome == Self.decode[name])
    }

    // MARK: The bugs, through the API they were in

    /// The feed handed out the elements a call decoded before a syntax error
    /// only with the next call, which threw the error again instead. Now the
    /// call returns them and the next one throws the error.
    @Test func feedReturnsTheElementsBeforeASyntaxError() throws {
        let feed = JSONElementFeed(of: Int.self, format: .array)
        #expect(try feed.feed(Array("[1,2,x".utf8)) == [1, 2])
        let error = #expect(throws: DecodingError.self) { try feed.finish() }
        #expect(error.flatMap { syntaxError(of: $0) }?.byteOffset == 5)
        #expect(throws: DecodingError.self) { try feed.finish() }  // and again
    }

    /// After an array's end, a raw form feed or vertical tab: the search for
    /// the next element took the closing bracket for a stray one (its trial
    /// parse, yajl's, read on through the byte the stream stops at) and went
    /// on there, to fail at the same byte again: a stream that never ended.
    @Test func aRawVerticalTabAfterAnArrayEndsTheStream() throws {
        for (text, expected, offset) in [("[1]\u{0B}", [1], 3), ("[1, 2]\n\u{0C}", [1, 2], 7), ("[1, 2, 3] \u{0B}", [1, 2, 3], 10)] {
            var iterator = StreamingJSONDecoder().elements(of: Int.self, from: Data(text.utf8)).makeIterator()
            var values: [Int] = []
            var offsets: [Int] = []
            for _ in 0..<8 {  // a bounded number of calls: the bug was a stream without end
                do {
                    guard let value = try iterator.next() else { break }
                    values.append(value)
                } catch {
                    offsets.append(syntaxError(of: error)?.byteOffset ?? -1)
                    if (syntaxError(of: error)?.endsStream ?? true) { break }
                }
            }
            #expect(values == expected, "\(text.debugDescription)")
            #expect(offsets.last == offset, "\(text.debugDescription): \(offsets)")
        }
    }

    /// A string that yajl unescaped or that spanned chunks was placed past
    /// its closing quote (`CJSONTape.h`), so errors on it, and an element that is
    /// one, depended on the split; they are now at its opening quote.
    @Test func errorsOnAStringPointAtItsOpeningQuote() throws {
        func firstError(_ data: String, path: [String] = [], format: JSONStreamFormat, chunk: Int) -> JSONSyntaxError? {
            let feed = JSONElementFeed(of: JSONValue.self, at: path, format: format)
            let bytes = Array(data.utf8)
            do {
                for start in stride(from: 0, to: bytes.count, by: chunk) {
                    _ = try feed.feed(bytes[start..<min(bytes.count, start + chunk)])
                }
                _ = try feed.finish()
            } catch {
                return syntaxError(of: error)
            }
            return nil
        }
        for chunk in [1, 2, 100] {
            #expect(firstError(#"  "asd""#, format: .objectValues, chunk: chunk)?.byteOffset == 2, "chunk \(chunk)")
            #expect(firstError(#"{"a": "x\ny"}"#, path: ["a"], format: .array, chunk: chunk)?.byteOffset == 6,
                    "chunk \(chunk)")
            #expect(firstError(#"{"a": {"b": "\"q\""}}"#, path: ["a", "b"], format: .array, chunk: chunk)?.byteOffset == 12,
                    "chunk \(chunk)")
        }
        let decoder = StreamingJSONDecoder()
        decoder.maxStringLength = 3
        var iterator = decoder.elements(of: String.self, from: Data(#"["ab", "a\u00e9cd"]"#.utf8)).makeIterator()
        #expect(try iterator.next() == "ab")
        let error = #expect(throws: DecodingError.self) { try iterator.next() }
        #expect(error.flatMap { syntaxError(of: $0) }?.byteOffset == 7)

        // An element over maxElementBytes is reported where it begins.
        let limited = StreamingJSONDecoder()
        limited.maxElementBytes = 8
        for chunk in [1, 4, 100] {
            let feed = JSONElementFeed(of: JSONValue.self, decoder: limited, format: .jsonLines)
            let bytes = Array(#"1  "a\u00e9cdefghij" 2"#.utf8)
            var offsets: [Int] = []
            var values: [JSONValue] = []
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                do { values += try feed.feed(bytes[start..<min(bytes.count, start + chunk)]) } catch {
                    offsets.append(syntaxError(of: error)?.byteOffset ?? -1)
                }
            }
            // finish() until it has nothing more: an error it reaches after
            // elements comes with the next call.
            for _ in 0..<10 {
                do {
                    let more = try feed.finish()
                    if more.isEmpty { break }
                    values += more
                } catch {
                    offsets.append(syntaxError(of: error)?.byteOffset ?? -1)
                }
            }
            #expect(offsets == [3], "chunk \(chunk)")
            #expect(values == [1, 2], "chunk \(chunk)")
        }
    }

    /// A token yajl rejects is found by lexing from the last token it
    /// accepted: yajl's own offset was its end, or its end less its length,
    /// or the start of the chunk when the token began in an earlier one.
    @Test(arguments: [
        (#"{"a": 1 "xyz"}"#, 8, "'\"' (expected ',' or '}')"),
        (#"[1 true]"#, 3, "'t' (expected ',' or ']')"),
        (#"[1, ]"#, 4, "']' (expected a value)"),
        (#"{"a": 1, ]"#, 9, "']' (expected a string key)"),
        (#"{"a" "b"}"#, 5, "'\"' (expected ':')"),
        (#"[[1] 2]"#, 5, "'2' (expected ',' or ']')"),
        (#"{"a":"b"} {"#, 10, "'{' after the end of the JSON value"),
        (#"{"a":"b"}/**/"#, 9, "'/'"),
        ("\u{FEFF} ]", 4, "']' (expected a value)"),
        ("{} \"" + String(repeating: "x", count: 10_000) + "\u{8}\"", 3, "'\"' after the end of the JSON value"),
    ])
    func grammarErrorsPointAtTheRejectedToken(_ json: String, _ offset: Int, _ found: String) throws {
        for chunk in [1, 2, 3, 5, 100] {
            let error = #expect(throws: DecodingError.self, "chunk \(chunk)") {
                try Engine.decode(JSONValue.self, Data(json.utf8), chunk: chunk)
            }
            let syntax = error.flatMap { syntaxError(of: $0) }
            #expect(syntax?.byteOffset == offset, "chunk \(chunk): \(String(describing: syntax))")
            #expect(syntax?.message.hasPrefix("Unexpected character \(found)") == true, "\(String(describing: syntax))")
        }
    }

    /// In JSON Lines, a value broken by the first byte of a line was reported
    /// twice: for the value, and again for the line, restarted at that byte.
    @Test func aBrokenLineIsReportedOnce() throws {
        var iterator = StreamingJSONDecoder().elements(of: JSONValue.self, from: Data("{\ns\n[1]\n".utf8),
                                                       format: .jsonLines).makeIterator()
        let error = #expect(throws: DecodingError.self) { try iterator.next() }
        #expect(error.flatMap { syntaxError(of: $0) }.map { [$0.line, $0.column] } == [2, 1])
        #expect(try iterator.next() == [1])
        #expect(try iterator.next() == nil)
    }

    /// Whether the byte a JSON Lines value broke on is the first on its line
    /// (then that line is parsed again as a value) no longer depends on where
    /// the chunks end, even when the rejected token began in an earlier chunk.
    @Test func aLineAfterABrokenValueIsReadWhereverTheChunksEnd() throws {
        let text = "{\"a\":\n  {\"b\": 1}\n[\"xyz\"]\n"
        for chunk in 1...text.utf8.count {
            let feed = JSONElementFeed(of: JSONValue.self, format: .jsonLines)
            var values: [JSONValue] = []
            var errors: [Int] = []
            let bytes = Array(text.utf8) + [0x0A]
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                do { values += try feed.feed(bytes[start..<min(bytes.count, start + chunk)]) } catch {
                    errors.append(syntaxError(of: error)?.byteOffset ?? -1)
                }
            }
            values += try feed.finish()
            // {"a": {"b": 1} is broken by the '[' that begins line 3, a good value.
            #expect(values == [["xyz"]], "chunk \(chunk)")
            #expect(errors == [17], "chunk \(chunk)")
        }
    }
}
