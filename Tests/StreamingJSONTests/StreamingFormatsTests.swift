// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// Stream shapes and their errors: key paths, `.objectValues`, JSON Lines and
/// `.auto`, empty inputs, `maxElementBytes`, and a decoding error in the middle
/// of a stream — each through the pulled sources, async chunks and `JSONElementFeed`.
@Suite struct StreamingFormatsTests {
    struct Item: Decodable, Equatable {
        var id: Int
        var name: String
    }

    static func items(_ ids: [Int]) -> String {
        ids.map { #"{"id": \#($0), "name": "r\#($0)"}"# }.joined(separator: ", ")
    }

    /// One entry per element or error, in order: "3" for an element with id 3,
    /// "error: <kind> <path>" for an error, so that whole sequences compare.
    static func log(_ outcome: Outcome<Item>) -> [String] { outcome.elements.map { "\($0.id)" } }

    /// Runs `input` through Data, async chunks of 1 and 7 bytes, and a feed of 3-byte pieces.
    static func everySource<T: Decodable>(
        _ type: T.Type, _ input: Data, at path: [String] = [], format: JSONStreamFormat = .auto,
        decoder: @escaping () -> StreamingJSONDecoder = { StreamingJSONDecoder() }
    ) async -> [(source: String, outcome: Outcome<T>)] {
        var results: [(String, Outcome<T>)] = []
        results.append(("Data", Collect.sync(decoder().elements(of: type, from: input, at: path, format: format))))
        for size in [1, 7] {
            let stream = Chunks.stream(Chunks.fixed(input, size: size))
            results.append(("async \(size)-byte chunks",
                            await Collect.async(decoder().elements(of: type, from: stream, at: path, format: format))))
        }
        results.append(("async single bytes",
                        await Collect.async(decoder().elements(of: type, from: Chunks.byteStream(input), at: path, format: format))))
        let feed = JSONElementFeed(of: type, decoder: decoder(), at: path, format: format)
        results.append(("feed of 3-byte pieces", Collect.feed(feed, Chunks.fixed(input, size: 3))))
        return results
    }

    static func json(_ text: String) -> Data { Data(text.utf8) }

    // MARK: Key paths

    @Test func pathTwoLevelsDeepAmongDecoys() async throws {
        let input = Self.json(#"""
        {"meta": {"items": [99], "data": {"items": [98]}},
         "data": {"count": 3, "other": [97], "nested": {"items": [96]},
                  "items": [\#(Self.items([1, 2, 3]))],
                  "after": {"items": [95]}, "list": [{"items": [94]}]},
         "items": [93], "tail": [1, {"data": {"items": [92]}}]}
        """#)
        for (source, outcome) in await Self.everySource(Item.self, input, at: ["data", "items"]) {
            #expect(outcome.errors.isEmpty, "\(source): \(outcome.errors.map(streamErrorText))")
            #expect(outcome.elements.map(\.id) == [1, 2, 3], "\(source)")
        }
    }

    @Test func decodingErrorAtAPathHasARelativeCodingPathAndTheStreamGoesOn() async throws {
        let input = Self.json(#"{"payload": {"entries": [{"id": 1, "name": "a"}, {"id": "two", "name": "b"}, {"id": 3, "name": "c"}]}}"#)
        for (source, outcome) in await Self.everySource(Item.self, input, at: ["payload", "entries"]) {
            #expect(outcome.elements.map(\.id) == [1, 3], "\(source)")
            #expect(outcome.errors.count == 1, "\(source)")
            #expect(outcome.errors.first.flatMap(streamErrorPath) == ["Index 1", "id"], "\(source)")
            if case DecodingError.typeMismatch? = outcome.errors.first as? DecodingError {} else {
                Issue.record("\(source): expected typeMismatch, got \(outcome.errors.map(streamErrorText))")
            }
        }
    }

    @Test func pathWhoseArrayIsEmpty() async throws {
        for text in [#"{"data": {"before": {"items": [1]}, "items": [], "after": [1, 2]}}"#,
                     #"{"data": {"items": [ \#n ]}, "more": [{"id": 1, "name": "x"}]}"#] {
            for (source, outcome) in await Self.everySource(Item.self, Self.json(text), at: ["data", "items"]) {
                #expect(outcome.errors.isEmpty, "\(source) \(text): \(outcome.errors.map(streamErrorText))")
                #expect(outcome.elements.isEmpty, "\(source) \(text)")
            }
        }
    }

    /// About 2 MB of nested objects and arrays, with decoys of the path inside.
    static let bigSibling: String = {
        var parts: [String] = []
        for index in 0..<14_000 {
            parts.append(#""k\#(index)": {"items": [\#(index), {"data": {"items": ["decoy"]}}], "#
                         + #""text": "data items [ ] { } \" \\ é 東京", "n": [[[]], {}, null, true, -1.5e3]}"#)
        }
        return "{" + parts.joined(separator: ", ") + "}"
    }()

    @Test func pathAfterALargeSiblingWithKeysInAnyOrder() async throws {
        #expect(Self.bigSibling.utf8.count > 2_000_000)
        let items = "[" + Self.items([1, 2, 3, 4, 5]) + "]"
        let big = Self.bigSibling
        let documents = [
            #"{"big": \#(big), "data": {"meta": {"items": [0]}, "items": \#(items), "more": \#(big)}}"#,
            #"{"data": {"items": \#(items), "zzz": \#(big)}, "big": \#(big)}"#,
            #"{"a": 1, "data": {"big": \#(big), "items": \#(items)}, "z": \#(big)}"#,
            #"{"data": {"big": [\#(big), \#(big)], "x": "y", "items": \#(items)}}"#,
        ]
        for (number, text) in documents.enumerated() {
            let data = Self.json(text)
            let path = ["data", "items"]
            let whole = Collect.sync(StreamingJSONDecoder().elements(of: Item.self, from: data, at: path))
            #expect(whole.errors.isEmpty, "document \(number): \(whole.errors.map(streamErrorText))")
            #expect(whole.elements.map(\.id) == [1, 2, 3, 4, 5], "document \(number), Data")
            let single = Collect.sync(Engine.pipelinedDecoder().elements(of: Item.self, from: data, at: path))
            #expect(single.elements.map(\.id) == [1, 2, 3, 4, 5], "document \(number), pipelined")
            let chunks = await Collect.async(StreamingJSONDecoder().elements(
                of: Item.self, from: Chunks.stream(Chunks.fixed(data, size: 4096)), at: path))
            #expect(chunks.errors.isEmpty)
            #expect(chunks.elements.map(\.id) == [1, 2, 3, 4, 5], "document \(number), async chunks")
            let feed = Collect.feed(JSONElementFeed(of: Item.self, at: path), Chunks.random(data, seed: 41, maxSize: 30_000))
            #expect(feed.elements.map(\.id) == [1, 2, 3, 4, 5], "document \(number), feed")
        }
    }

    /// The single error a stream gives, checked to be a `.dataCorrupted` whose text holds every word.
    static func expectOneError(_ outcome: Outcome<Item>, mentioning words: [String], _ comment: String,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome.elements.isEmpty, "\(comment)", sourceLocation: sourceLocation)
        #expect(outcome.errors.count == 1, "\(comment): \(outcome.errors.map(streamErrorText))", sourceLocation: sourceLocation)
        guard let error = outcome.errors.first else { return }
        guard case DecodingError.dataCorrupted? = error as? DecodingError else {
            Issue.record("\(comment): expected dataCorrupted, got \(streamErrorText(error))", sourceLocation: sourceLocation)
            return
        }
        let text = streamErrorText(error).lowercased()
        for word in words {
            #expect(text.contains(word.lowercased()), "\(comment): \(text) does not mention \(word)", sourceLocation: sourceLocation)
        }
    }

    @Test func missingPathIsAnErrorNamingThePath() async throws {
        let path = ["payload", "entries"]
        for text in [#"{"payload": {"other": [1], "entry": []}}"#, #"{"x": {"entries": [1]}, "payloads": {"entries": []}}"#,
                     #"{}"#, #"{"payload": {}}"#] {
            for (source, outcome) in await Self.everySource(Item.self, Self.json(text), at: path) {
                Self.expectOneError(outcome, mentioning: ["payload", "entries"], "\(source) \(text)")
            }
        }
    }

    @Test func nonArrayAtThePathIsAClearError() async throws {
        for value in [#"{"id": 1, "name": "a"}"#, "5", #""entries""#, "null", "true"] {
            let text = #"{"payload": {"entries": \#(value)}, "after": [1]}"#
            for (source, outcome) in await Self.everySource(Item.self, Self.json(text), at: ["payload", "entries"]) {
                Self.expectOneError(outcome, mentioning: ["payload", "entries", "array"], "\(source) \(value)")
            }
        }
    }

    @Test func nonObjectOnTheWayToThePathIsAClearError() async throws {
        for text in [#"{"payload": [{"entries": [{"id": 1, "name": "a"}]}]}"#, #"{"payload": 5}"#, #"{"payload": "entries"}"#,
                     #"[{"payload": {"entries": []}}]"#] {
            for (source, outcome) in await Self.everySource(Item.self, Self.json(text), at: ["payload", "entries"]) {
                Self.expectOneError(outcome, mentioning: ["payload", "object"], "\(source) \(text)")
            }
        }
    }

    // MARK: .objectValues

    @Test func objectValuesAtTheRootInDocumentOrder() async throws {
        let input = Self.json(#"{"b": {"id": 2, "name": "r2"}, "a": {"id": 1, "name": "r1"},"#
                              + #" "k\"é": {"id": 9, "name": "r9"}, "c": {"id": 3, "name": "r3"}}"#)
        for (source, outcome) in await Self.everySource(Item.self, input, format: .objectValues) {
            #expect(outcome.errors.isEmpty, "\(source): \(outcome.errors.map(streamErrorText))")
            #expect(outcome.elements == [2, 1, 9, 3].map { Item(id: $0, name: "r\($0)") }, "\(source)")
        }
    }

    @Test func objectValuesAtAPath() async throws {
        let input = Self.json(#"{"meta": {"x": {"id": 0, "name": "r0"}}, "users": {"u1": {"id": 1, "name": "r1"}, "#
                              + #""u2": {"id": 2, "name": "r2"}}, "z": {"u9": {"id": 9, "name": "r9"}}}"#)
        for (source, outcome) in await Self.everySource(Item.self, input, at: ["users"], format: .objectValues) {
            #expect(outcome.errors.isEmpty, "\(source): \(outcome.errors.map(streamErrorText))")
            #expect(outcome.elements.map(\.id) == [1, 2], "\(source)")
        }
    }

    @Test func objectValuesErrorPathStartsWithTheMemberKey() async throws {
        let input = Self.json(#"{"users": {"u1": {"id": 1, "name": "a"}, "bad \"one\" é": {"id": "x", "name": "b"},"#
                              + #" "u3": {"id": 3, "name": "c"}, "u4": {"id": 4}, "u5": {"id": 5, "name": "e"}}}"#)
        for (source, outcome) in await Self.everySource(Item.self, input, at: ["users"], format: .objectValues) {
            #expect(outcome.elements.map(\.id) == [1, 3, 5], "\(source)")
            #expect(outcome.errors.compactMap(streamErrorPath) == [["bad \"one\" é", "id"], ["u4"]], "\(source)")
        }
    }

    @Test func objectValuesOfAnEmptyObjectAreNone() async throws {
        for (text, path) in [("{}", [String]()), (" { \n } ", []), (#"{"users": {}, "more": {"a": 1}}"#, ["users"])] {
            for (source, outcome) in await Self.everySource(Item.self, Self.json(text), at: path, format: .objectValues) {
                #expect(outcome.errors.isEmpty, "\(source) \(text): \(outcome.errors.map(streamErrorText))")
                #expect(outcome.elements.isEmpty, "\(source) \(text)")
            }
        }
        // An array where an object is expected is an error.
        for (source, outcome) in await Self.everySource(Item.self, Self.json("[]"), format: .objectValues) {
            Self.expectOneError(outcome, mentioning: ["object"], source)
        }
    }

    // MARK: JSON Lines and .auto

    @Test func jsonLinesWithCRLFBlankLinesAndMultiLineValues() async throws {
        let cases: [(String, [Int])] = [
            ("{\"id\": 1, \"name\": \"r1\"}\r\n{\"id\": 2, \"name\": \"r2\"}\r\n", [1, 2]),
            ("{\"id\": 1, \"name\": \"r1\"}\r\n\r\n{\"id\": 2, \"name\": \"r2\"}", [1, 2]),
            ("\n\n{\"id\": 1, \"name\": \"r1\"}\n\n   \n\t\n{\"id\": 2, \"name\": \"r2\"}\n{\"id\": 3, \"name\": \"r3\"}\n\n", [1, 2, 3]),
            ("{\"id\": 1, \"name\": \"r1\"}\n\n", [1]),
            ("{\n  \"id\": 1,\n  \"name\":\n    \"r1\"\n}\n{\"id\": 2,\r\n \"name\": \"r2\"}\n", [1, 2]),
            ("{\"id\": 1, \"name\": \"r1\"} {\"id\": 2, \"name\": \"r2\"}\n", [1, 2]),
        ]
        for (text, ids) in cases {
            for format in [JSONStreamFormat.jsonLines, .auto] {
                for (source, outcome) in await Self.everySource(Item.self, Self.json(text), format: format) {
                    #expect(outcome.errors.isEmpty, "\(source) \(format) \(text.debugDescription): \(outcome.errors.map(streamErrorText))")
                    #expect(outcome.elements == ids.map { Item(id: $0, name: "r\($0)") }, "\(source) \(format) \(text.debugDescription)")
                }
            }
        }
    }

    /// Elements and errors in the order the stream gave them.
    static func sequence(_ text: String, format: JSONStreamFormat = .jsonLines) -> [String] {
        var log: [String] = []
        var iterator = StreamingJSONDecoder().elements(of: Item.self, from: json(text), format: format).makeIterator()
        for _ in 0..<100 {
            do {
                guard let item = try iterator.next() else { break }
                log.append("\(item.id)")
            } catch {
                if let syntax = streamSyntaxError(error) {
                    log.append("syntax \(syntax.line):\(syntax.column)")
                } else {
                    log.append("decoding \(streamErrorPath(error) ?? [])")
                }
            }
        }
        return log
    }

    @Test func malformedLineInTheMiddleIsReportedWithItsLineAndTheRestDecodes() async throws {
        let lines = [#"{"id": 1, "name": "a"}"#, #"{"id": 2, "name": "b"}"#, #"{"id": 3, oops}"#, #"{"id": 4, "name": "d"}"#,
                     #"{"id": "five", "name": "e"}"#, #"{"id": 6, "name": "f"}"#]
        for newline in ["\n", "\r\n"] {
            let text = lines.joined(separator: newline) + newline
            // The malformed line is not a value: the ordinals of values go 0, 1, (line 3), 2, 3, 4.
            #expect(Self.sequence(text) == ["1", "2", "syntax 3:11", "4", #"decoding ["Index 3", "id"]"#, "6"],
                    "\(newline.debugDescription)")
            #expect(Self.sequence(text, format: .auto) == Self.sequence(text))
            try Self.checkTheSyncIterator(text, lines: lines, newline: newline)
            for (source, outcome) in await Self.everySource(Item.self, Self.json(text), format: .jsonLines) {
                #expect(outcome.elements.map(\.id) == [1, 2, 4, 6], "\(source)")
                #expect(outcome.errors.compactMap(streamSyntaxError).map(\.line) == [3], "\(source)")
                #expect(outcome.errors.compactMap(streamErrorPath).filter { !$0.isEmpty } == [["Index 3", "id"]], "\(source)")
            }
        }
    }

    /// The syntax error's position and the later decoding error's line, one `next()` at a time.
    static func checkTheSyncIterator(_ text: String, lines: [String], newline: String) throws {
        var iterator = StreamingJSONDecoder().elements(of: Item.self, from: Self.json(text), format: .jsonLines).makeIterator()
        _ = try iterator.next(); _ = try iterator.next()
        do {
            _ = try iterator.next()
            Issue.record("line 3 decoded")
        } catch let DecodingError.dataCorrupted(context) {
            let syntax = try #require(context.underlyingError as? JSONSyntaxError)
            #expect(syntax.line == 3)
            #expect(syntax.byteOffset == lines[0..<2].map { $0.utf8.count + newline.utf8.count }.reduce(0, +) + 10)
        }
        #expect(try iterator.next()?.id == 4)
        do {
            _ = try iterator.next()
            Issue.record("line 5 decoded")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.debugDescription.contains("line 5"), "\(context.debugDescription)")
        }
    }

    @Test func malformedLineInTheFixture() async throws {
        let fixture = RecordsFixture.make(count: 500, seed: 77, badAt: 400)
        var lines = [UInt8](fixture.lines).split(separator: 0x0A, omittingEmptySubsequences: false).map { Data($0) }
        lines[250] = Self.json(#"{"id": 1,, "serial": 2}"#)
        let text = Data(lines.joined(separator: [0x0A]))
        var expected = fixture.records
        expected.remove(at: 250)  // records before 400 keep their place; 400 was left out already
        let decoder = { RecordsFixture.decoder() }
        var outcomes = [("Data", Collect.sync(decoder().elements(of: RecordsFixture.Record.self, from: text, format: .jsonLines)))]
        outcomes.append(("async", await Collect.async(decoder().elements(
            of: RecordsFixture.Record.self, from: Chunks.stream(Chunks.random(text, seed: 5, maxSize: 2_000)), format: .jsonLines))))
        outcomes.append(("feed", Collect.feed(JSONElementFeed(of: RecordsFixture.Record.self, decoder: decoder(), format: .jsonLines),
                                              Chunks.random(text, seed: 6, maxSize: 700))))
        for (source, outcome) in outcomes {
            expectSameElements(outcome.elements, expected, "\(source): \(outcome.elements.count) elements")
            #expect(outcome.errors.count == 2, "\(source): \(outcome.errors.map(streamErrorText))")
            #expect(outcome.errors.compactMap(streamSyntaxError).map { [$0.line, $0.column] } == [[251, 10]], "\(source)")
            // Record 400 is the 400th value: the malformed line 251 is not one.
            #expect(outcome.errors.compactMap(streamErrorPath).filter { !$0.isEmpty } == [["Index 399", "id"]], "\(source)")
        }
    }

    @Test func autoPicksArrayAfterWhitespaceOrABOMAndJSONLinesOtherwise() async throws {
        let bom = "\u{FEFF}"
        let arrays = ["  \n\t [1, 2, 3]", "\(bom)[1, 2, 3]", "\(bom) \r\n [1, 2, 3]\n", "[1,\n2,\n3]"]
        for text in arrays {
            for (source, outcome) in await Self.everySource(Int.self, Self.json(text)) {
                #expect(outcome.errors.isEmpty, "\(source) \(text.debugDescription): \(outcome.errors.map(streamErrorText))")
                #expect(outcome.elements == [1, 2, 3], "\(source) \(text.debugDescription)")
            }
        }
        let lines = ["1 2\n3", "\(bom)1\n2\n3\n", "  \n1\r\n2\r\n3", "\n\n1\n\n2\n3\n\n"]
        for text in lines {
            for (source, outcome) in await Self.everySource(Int.self, Self.json(text)) {
                #expect(outcome.errors.isEmpty, "\(source) \(text.debugDescription): \(outcome.errors.map(streamErrorText))")
                #expect(outcome.elements == [1, 2, 3], "\(source) \(text.debugDescription)")
            }
        }
        // A root object is JSON Lines of one value under .auto.
        for (source, outcome) in await Self.everySource(Item.self, Self.json("\(bom)\n" + Self.items([1]) + "\n" + Self.items([2]))) {
            #expect(outcome.elements.map(\.id) == [1, 2], "\(source)")
        }
        // An array under .jsonLines is one value.
        for (source, outcome) in await Self.everySource([Int].self, Self.json("\(bom)[1, 2]\n[3]"), format: .jsonLines) {
            #expect(outcome.elements == [[1, 2], [3]], "\(source)")
        }
    }

    @Test func emptyAndWhitespaceOnlyInput() async throws {
        for text in ["", " ", "\n\r\n\t ", "\u{FEFF}", "\u{FEFF} \n"] {
            for format in [JSONStreamFormat.jsonLines, .auto] {
                for (source, outcome) in await Self.everySource(Item.self, Self.json(text), format: format) {
                    #expect(outcome.errors.isEmpty, "\(source) \(format) \(text.debugDescription): \(outcome.errors.map(streamErrorText))")
                    #expect(outcome.elements.isEmpty)
                }
            }
            for (source, outcome) in await Self.everySource(Item.self, Self.json(text), format: .array) {
                #expect(outcome.elements.isEmpty)
                #expect(outcome.errors.count == 1, "\(source) .array \(text.debugDescription)")
                #expect(outcome.errors.first.flatMap(streamSyntaxError)?.byteOffset == text.utf8.count,
                        "\(source) .array \(text.debugDescription): \(outcome.errors.map(streamErrorText))")
            }
        }
        // An empty pipe and an empty file.
        let pipe = Pipe()
        try pipe.fileHandleForWriting.close()
        #expect(Collect.sync(StreamingJSONDecoder().elements(of: Int.self, from: pipe.fileHandleForReading)).errors.isEmpty)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("StreamingFormatsTests-\(UUID().uuidString).json")
        try Data().write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let lines = Collect.sync(StreamingJSONDecoder().elements(of: Int.self, contentsOf: url, format: .jsonLines))
        #expect(lines.errors.isEmpty && lines.elements.isEmpty)
        #expect(Collect.sync(StreamingJSONDecoder().elements(of: Int.self, contentsOf: url, format: .array)).errors.count == 1)
    }

    // MARK: maxElementBytes

    static func limited() -> StreamingJSONDecoder {
        let decoder = StreamingJSONDecoder()
        decoder.maxElementBytes = 64
        return decoder
    }

    static let oversizedElements = [
        #"{"id": 1, "name": "r1"}"#,
        #"{"id": 2, "name": "\#(String(repeating: "x", count: 300))"}"#,
        #"{"id": 3, "name": "r3"}"#,
        #"{"id": 4, "name": "r4", "pad": [\#((0..<100).map(String.init).joined(separator: ", "))]}"#,
        #"{"id": 5, "name": "r5"}"#,
    ]

    static func expectOversizedOutcome(_ outcome: Outcome<Item>, _ comment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome.elements.map(\.id) == [1, 3, 5], "\(comment)", sourceLocation: sourceLocation)
        #expect(outcome.errors.count == 2, "\(comment): \(outcome.errors.map(streamErrorText))", sourceLocation: sourceLocation)
        for (error, index) in zip(outcome.errors, [1, 3]) {
            guard case DecodingError.dataCorrupted(let context)? = error as? DecodingError else {
                Issue.record("\(comment): expected dataCorrupted, got \(streamErrorText(error))", sourceLocation: sourceLocation)
                continue
            }
            #expect(context.codingPath.first?.stringValue == "Index \(index)", "\(comment)", sourceLocation: sourceLocation)
            #expect(streamErrorText(error).contains("maxElementBytes"), "\(comment): \(streamErrorText(error))",
                    sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [JSONStreamFormat.array, .jsonLines])
    func maxElementBytesRejectsTheBigElementAndTheNextOneDecodes(format: JSONStreamFormat) async throws {
        let text = format == .array ? "[" + Self.oversizedElements.joined(separator: ",\n") + "]"
                                    : Self.oversizedElements.joined(separator: "\n") + "\n"
        for (source, outcome) in await Self.everySource(Item.self, Self.json(text), format: format, decoder: Self.limited) {
            Self.expectOversizedOutcome(outcome, "\(source), \(format)")
        }
        // Without the limit every element decodes.
        #expect(Collect.sync(StreamingJSONDecoder().elements(of: Item.self, from: Self.json(text), format: format))
                .elements.map(\.id) == [1, 2, 3, 4, 5])
    }

    @Test func maxElementBytesWithAHugeElementFedInPieces() throws {
        let huge = #"{"id": 2, "name": "\#(String(repeating: "é", count: 500_000))"}"#
        let text = "[" + Self.items([1]) + ", " + huge + ", " + Self.items([3]) + "]"
        let decoder = StreamingJSONDecoder()
        decoder.maxElementBytes = 1024
        let feed = JSONElementFeed(of: Item.self, decoder: decoder)
        let outcome = Collect.feed(feed, Chunks.fixed(Self.json(text), size: 4096))
        #expect(outcome.elements.map(\.id) == [1, 3])
        #expect(outcome.errors.compactMap(streamErrorPath) == [["Index 1"]])
    }

    // MARK: A decoding error in element N leaves N+1… decodable

    @Test func decodingErrorInTheMiddleOfTheFixture() async throws {
        let fixture = RecordsFixture.make(count: 500, seed: 99, badAt: 250)
        typealias Record = RecordsFixture.Record
        var outcomes = [("Data", Collect.sync(RecordsFixture.decoder().elements(of: Record.self, from: fixture.array)))]
        for (seed, maxSize) in [(UInt64(51), 3_000), (52, 40)] {
            let pieces = Chunks.random(fixture.array, seed: seed, maxSize: maxSize)
            outcomes.append(("async \(maxSize)", await Collect.async(RecordsFixture.decoder().elements(of: Record.self, from: Chunks.stream(pieces)))))
            outcomes.append(("feed \(maxSize)", Collect.feed(JSONElementFeed(of: Record.self, decoder: RecordsFixture.decoder()), pieces)))
        }
        for (source, outcome) in outcomes {
            expectSameElements(outcome.elements, fixture.records, "\(source): \(outcome.elements.count) elements")
            #expect(outcome.errors.compactMap(streamErrorPath) == [["Index 250", "id"]], "\(source): \(outcome.errors.map(streamErrorText))")
            #expect(outcome.errors.count == 1)
        }
    }

    /// Elements and errors in input order: a call returns the elements before
    /// the first error it reached, the next call throws that error, the one
    /// after goes on.
    @Test func feedReturnsTheElementsBeforeAnErrorThenThrowsIt() throws {
        let text = "[" + Self.items([0, 1, 2, 3, 4]) + #", {"id": "bad", "name": "x"}, "# + Self.items([6, 7, 8]) + "]"
        let feed = JSONElementFeed(of: Item.self, format: .array)
        #expect(try feed.feed(Self.json(text)).map(\.id) == [0, 1, 2, 3, 4])
        do {
            let got = try feed.feed([UInt8]())
            Issue.record("no error; got \(got.map(\.id))")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["Index 5", "id"])
        }
        #expect(try feed.finish().map(\.id) == [6, 7, 8])
        #expect(try feed.finish().isEmpty)

        // JSON Lines: the bytes of the call that throws are kept and parsed.
        let second = JSONElementFeed(of: Item.self, format: .jsonLines)
        let first = [Self.items([0]), Self.items([1]), #"{"id": 2}"#, #"{"id": 3, "na"#].joined(separator: "\n")
        #expect(try second.feed(Self.json(first)).map(\.id) == [0, 1])
        do {
            let got = try second.feed(Self.json(#"me": "r3"}"# + "\n"))
            Issue.record("no error; got \(got.map(\.id))")
        } catch let DecodingError.keyNotFound(key, context) {
            #expect(key.stringValue == "name")
            #expect(context.codingPath.map(\.stringValue) == ["Index 2"])
        }
        #expect(try second.finish().map(\.id) == [3])
        #expect(try second.finish().isEmpty)
    }

    /// Thousands of malformed lines in one 64 KiB chunk: each is reported, in
    /// order, and recovery does not use stack per line.
    @Test func manyMalformedLinesInOneChunk() throws {
        let bad = 30_000
        let json = "{\"id\": 1}\n" + String(repeating: "x\n", count: bad) + "{\"id\": 2}\n"
        struct Item: Decodable { var id: Int }
        var iterator = StreamingJSONDecoder().elements(of: Item.self, from: Data(json.utf8), format: .jsonLines)
            .makeIterator()
        #expect(try iterator.next()?.id == 1)
        var lines: [Int] = []
        while true {
            do {
                guard let item = try iterator.next() else { break }
                #expect(item.id == 2)
                break
            } catch let DecodingError.dataCorrupted(context) {
                lines.append((context.underlyingError as? JSONSyntaxError)?.line ?? -1)
            }
        }
        #expect(lines == Array(2...(bad + 1)))
        #expect(try iterator.next() == nil)
    }
}
