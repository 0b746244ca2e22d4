// SPDX-License-Identifier: Apache-2.0
import Foundation
import TestSupport
import Testing
@testable import StreamingJSON

/// Every way bytes reach the streaming decoder (Data, a file, a FileHandle on a
/// file or a pipe, async chunks, async single bytes, `JSONElementFeed`, the
/// pipelined engine) yields the same elements as decoding the whole array;
/// chunk boundaries inside tokens; prompt delivery from slow pipes; leaving
/// and cancelling. Formats, paths and errors are in StreamingFormatsTests.swift.
@Suite struct StreamingSourcesTests {
    typealias Record = RecordsFixture.Record
    static var fixture: RecordsFixture.Fixture { RecordsFixture.standard }

    /// What every source must produce: the whole array decoded at once.
    static func wholeArray() throws -> [Record] {
        try RecordsFixture.decoder().decode([Record].self, from: fixture.array)
    }

    static func temporaryFile(_ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("StreamingSourcesTests-\(UUID().uuidString).json")
        try data.write(to: url)
        return url
    }

    // MARK: The fixture itself

    @Test func fixtureHoldsTheCasesItClaimsAndDecodesToItsModel() throws {
        let fixture = Self.fixture
        #expect(fixture.records.count == 500)
        #expect(fixture.array.count > 3 * 64 * 1024, "several 64 KiB reads")
        #expect(fixture.array.count < 1 << 20, "below the pipelining threshold: Data streams use the plain engine")
        let parsed = try JSONSerialization.jsonObject(with: fixture.array) as? [Any]
        #expect(parsed?.count == 500)
        let text = String(decoding: fixture.array, as: UTF8.self)
        for needle in [#"\""#, #"\\"#, #"\n"#, #"\t"#, #"\u00e9"#, #"\ud83c\udf7a"#, "é", "東京", "🍺", "null", ".250Z\"",
                       "e-", "e+", "-9223372036854775808", "18446744073709551615", "[]", "{}"] {
            #expect(text.contains(needle), "fixture lacks \(needle)")
        }
        let records = fixture.records
        #expect(records.contains { $0.serial > UInt64(Int64.max) })
        #expect(records.contains { $0.note == nil } && records.contains { $0.note != nil })
        #expect(records.contains { $0.location == nil } && records.contains { $0.location?.code != nil })
        #expect(records.contains { $0.items.contains { $0.attributes["k\"q"] != nil } })
        #expect(records.contains { $0.updated.map { $0.timeIntervalSince1970.truncatingRemainder(dividingBy: 1) == 0.25 } ?? false })
        #expect(records.contains { $0.matrix.contains { !$0.isEmpty } })

        // The whole decode equals the Swift values the text was written from.
        let whole = try Self.wholeArray()
        #expect(whole.count == records.count)
        for (index, (decoded, expected)) in zip(whole, records).enumerated() where decoded != expected {
            Issue.record("record \(index): decoded \(decoded)\nexpected \(expected)")
            break
        }
        // The JSON Lines form has the same records.
        var lines: [Record] = []
        try RecordsFixture.decoder().elements(of: Record.self, from: fixture.lines, format: .jsonLines).forEach {
            lines.append($0)
        }
        expectSameElements(lines, whole)
    }

    // MARK: Every source yields the whole array's elements

    @Test func dataSourceSyncAsyncAndForEach() async throws {
        let expected = try Self.wholeArray()
        let elements = RecordsFixture.decoder().elements(of: Record.self, from: Self.fixture.array)
        let sync = Collect.sync(elements)
        #expect(sync.errors.isEmpty)
        expectSameElements(sync.elements, expected)
        var viaAwait: [Record] = []
        for try await record in elements { viaAwait.append(record) }
        expectSameElements(viaAwait, expected)
        var viaForEach: [Record] = []
        try elements.forEach { viaForEach.append($0) }
        expectSameElements(viaForEach, expected)
    }

    @Test func fileURLSourceThenTheFileIsRemoved() async throws {
        let expected = try Self.wholeArray()
        let url = try Self.temporaryFile(Self.fixture.array)
        defer { try? FileManager.default.removeItem(at: url) }
        let elements = RecordsFixture.decoder().elements(of: Record.self, contentsOf: url)
        let sync = Collect.sync(elements)
        #expect(sync.errors.isEmpty)
        expectSameElements(sync.elements, expected)
        var viaAwait: [Record] = []
        for try await record in elements { viaAwait.append(record) }
        expectSameElements(viaAwait, expected)
        // The JSON Lines form from a file.
        let linesURL = try Self.temporaryFile(Self.fixture.lines)
        defer { try? FileManager.default.removeItem(at: linesURL) }
        expectSameElements(Collect.sync(RecordsFixture.decoder().elements(of: Record.self, contentsOf: linesURL)).elements, expected)

        try FileManager.default.removeItem(at: url)
        try FileManager.default.removeItem(at: linesURL)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func fileHandleOnARegularFile() throws {
        let expected = try Self.wholeArray()
        let url = try Self.temporaryFile(Self.fixture.array)
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let outcome = Collect.sync(RecordsFixture.decoder().elements(of: Record.self, from: handle))
        #expect(outcome.errors.isEmpty)
        expectSameElements(outcome.elements, expected)
    }

    @Test(arguments: [false, true])
    func fileHandleOnAPipeWrittenByAnotherThread(jsonLines: Bool) async throws {
        let expected = try Self.wholeArray()
        let input = jsonLines ? Self.fixture.lines : Self.fixture.array
        let pieces = Chunks.random(input, seed: jsonLines ? 11 : 12, maxSize: 9_000)
        #expect(pieces.count > 50)
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let done = DispatchSemaphore(value: 0)
        let failedWrites = SharedCounter()
        Thread.detachNewThread {
            for (index, piece) in pieces.enumerated() {
                if !Pipes.write(piece, to: writer) { failedWrites.increment(); break }
                if index % 16 == 0 { usleep(200) }
            }
            try? writer.close()
            done.signal()
        }
        let reader = pipe.fileHandleForReading
        let outcome = try await offThePool {
            Collect.sync(RecordsFixture.decoder().elements(of: Record.self, from: reader,
                                                         format: jsonLines ? .jsonLines : .array))
        }
        try? reader.close()
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(failedWrites.value == 0)
        #expect(outcome.errors.isEmpty, "\(outcome.errors.map(streamErrorText))")
        expectSameElements(outcome.elements, expected)
    }

    @Test(arguments: [(seed: UInt64(1), maxSize: 5_000), (seed: 2, maxSize: 64), (seed: 3, maxSize: 70_000)])
    func asyncChunksOfRandomSizes(seed: UInt64, maxSize: Int) async throws {
        let expected = try Self.wholeArray()
        for (input, format) in [(Self.fixture.array, JSONStreamFormat.auto), (Self.fixture.lines, .jsonLines),
                                (Self.fixture.lines, .auto)] {
            let pieces = Chunks.random(input, seed: seed, maxSize: maxSize)
            let bytes = await Collect.async(RecordsFixture.decoder().elements(of: Record.self, from: Chunks.stream(pieces),
                                                                                format: format))
            #expect(bytes.errors.isEmpty, "\(format): \(bytes.errors.map(streamErrorText))")
            expectSameElements(bytes.elements, expected, "[UInt8] chunks, \(format)")
            let data = await Collect.async(RecordsFixture.decoder().elements(of: Record.self, from: Chunks.dataStream(pieces),
                                                                               format: format))
            #expect(data.errors.isEmpty)
            expectSameElements(data.elements, expected, "Data chunks, \(format)")
        }
        // for try await over the chunks, too.
        var viaAwait: [Record] = []
        let stream = Chunks.stream(Chunks.random(Self.fixture.array, seed: seed, maxSize: maxSize))
        for try await record in RecordsFixture.decoder().elements(of: Record.self, from: stream) { viaAwait.append(record) }
        expectSameElements(viaAwait, expected)
    }

    /// One `await` per byte: a smaller fixture than the other sources read
    /// (under ThreadSanitizer each byte's suspension is what takes the time).
    @Test func asyncSingleBytes() async throws {
        let fixture = RecordsFixture.make(count: 80, seed: 0x5EED_B17E)
        let expected = try RecordsFixture.decoder().decode([Record].self, from: fixture.array)
        #expect(expected.count == 80)
        var records: [Record] = []
        for try await record in RecordsFixture.decoder().elements(of: Record.self, from: Chunks.byteStream(fixture.array)) {
            records.append(record)
        }
        expectSameElements(records, expected)
        let lines = await Collect.async(RecordsFixture.decoder().elements(of: Record.self, from: Chunks.byteStream(fixture.lines),
                                                                            format: .jsonLines))
        #expect(lines.errors.isEmpty)
        expectSameElements(lines.elements, expected)
    }

    @Test(arguments: [(seed: UInt64(21), maxSize: 3_000), (seed: 22, maxSize: 17), (seed: 23, maxSize: 100_000)])
    func feedInRandomSplitsThenFinish(seed: UInt64, maxSize: Int) throws {
        let expected = try Self.wholeArray()
        for (input, format) in [(Self.fixture.array, JSONStreamFormat.auto), (Self.fixture.array, .array),
                                (Self.fixture.lines, .jsonLines), (Self.fixture.lines, .auto)] {
            let feed = JSONElementFeed(of: Record.self, decoder: RecordsFixture.decoder(), format: format)
            var records: [Record] = []
            var callsThatReturnedSomething = 0
            for piece in Chunks.random(input, seed: seed, maxSize: maxSize) {
                let got = try feed.feed(piece)
                if !got.isEmpty { callsThatReturnedSomething += 1 }
                records += got
            }
            // Each element comes back from the call that brought its closing brace,
            // the last one included: finish() has nothing left to hand out.
            expectSameElements(records, expected, "\(format), before finish()")
            let rest = try feed.finish()
            #expect(rest.isEmpty, "\(format): finish() returned \(rest.count) elements")
            if maxSize < 100 { #expect(callsThatReturnedSomething >= 400, "elements handed out as they complete") }
        }
    }

    @Test func pipelinedEngineOverData() async throws {
        let expected = try Self.wholeArray()
        let decoder = RecordsFixture.decoder(Engine.pipelinedDecoder())
        let outcome = Collect.sync(decoder.elements(of: Record.self, from: Self.fixture.array))
        #expect(outcome.errors.isEmpty)
        expectSameElements(outcome.elements, expected)
        var viaAwait: [Record] = []
        for try await record in decoder.elements(of: Record.self, from: Self.fixture.lines, format: .jsonLines) {
            viaAwait.append(record)
        }
        expectSameElements(viaAwait, expected)
        try expectSameElements(decoder.decode([Record].self, from: Self.fixture.array), expected)
    }

    // MARK: twitter.json at ["statuses"]

    struct Twitter: Decodable { var statuses: [AnyJSON] }

    @Test func twitterStatusesFromEverySource() async throws {
        let url = Engine.fixtures.appendingPathComponent("nativejson/twitter.json")
        let data = try Data(contentsOf: url)
        let expected = try StreamingJSONDecoder().decode(Twitter.self, from: data).statuses
        #expect(expected.count == 100)
        try expectSameElements(JSONDecoder().decode(Twitter.self, from: data).statuses, expected)
        let path = ["statuses"]
        let decoder = StreamingJSONDecoder()

        expectSameElements(Collect.sync(decoder.elements(of: AnyJSON.self, from: data, at: path)).elements, expected, "Data")
        expectSameElements(Collect.sync(decoder.elements(of: AnyJSON.self, contentsOf: url, at: path)).elements, expected, "URL")
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        expectSameElements(Collect.sync(decoder.elements(of: AnyJSON.self, from: handle, at: path)).elements, expected, "FileHandle")
        #expect(Collect.sync(Engine.pipelinedDecoder().elements(of: AnyJSON.self, from: data, at: path)).elements == expected,
                "pipelined")
        for seed: UInt64 in [31, 32] {
            let pieces = Chunks.random(data, seed: seed, maxSize: seed == 31 ? 300 : 8_000)
            let chunks = await Collect.async(decoder.elements(of: AnyJSON.self, from: Chunks.stream(pieces), at: path))
            #expect(chunks.errors.isEmpty)
            expectSameElements(chunks.elements, expected, "async chunks, seed \(seed)")
            let feed = Collect.feed(JSONElementFeed(of: AnyJSON.self, at: path), pieces)
            #expect(feed.errors.isEmpty)
            expectSameElements(feed.elements, expected, "feed, seed \(seed)")
        }
        // One byte at a time: the first ten statuses, then the loop leaves
        // (a whole pass is most of this test's time under ThreadSanitizer).
        var firstTen: [AnyJSON] = []
        for try await status in decoder.elements(of: AnyJSON.self, from: Chunks.byteStream(data), at: path) {
            firstTen.append(status)
            if firstTen.count == 10 { break }
        }
        expectSameElements(firstTen, Array(expected.prefix(10)), "single bytes")
    }

    // MARK: Chunk boundaries inside tokens

    struct Piece: Decodable, Equatable {
        var text: String
        var number: Double
        var count: Int64
        var big: UInt64
    }

    enum TokenKind: String, CaseIterable { case multiByteCharacter, unicodeEscape, shortEscape, number }

    /// Elements whose strings hold raw multi-byte characters and escapes and
    /// whose numbers are long, with the byte range of each such token.
    static func boundaryInput(separator: String) -> (data: Data, expected: [Piece], tokens: [(TokenKind, Range<Int>)]) {
        var bytes: [UInt8] = []
        var tokens: [(TokenKind, Range<Int>)] = []
        func add(_ text: String, _ kind: TokenKind? = nil) {
            let start = bytes.count
            bytes += Array(text.utf8)
            if let kind { tokens.append((kind, start..<bytes.count)) }
        }
        var expected: [Piece] = []
        add(separator == "\n" ? "" : "[")
        for index in 0..<120 {
            if index > 0 { add(separator) }
            add(#"{"text": ""#)
            let padding = String(repeating: "a", count: index % 5)
            add(padding)
            for character in ["é", "東", "🍺"] { add(character, .multiByteCharacter) }
            add(#"\u00e9"#, .unicodeEscape)
            add(#"\n"#, .shortEscape)
            add(#"\ud83c\udf7a"#, .unicodeEscape)
            add(#"\""#, .shortEscape)
            let literal = "-\(index + 1)234.5e-2"
            add(#"", "number": "#)
            add(literal, .number)
            let count = Int64(-(index + 1) * 1_000_003)
            add(#", "count": "#)
            add("\(count)", .number)
            let big = UInt64.max - UInt64(index)
            add(#", "big": "#)
            add("\(big)", .number)
            add("}")
            expected.append(Piece(text: padding + "é東🍺é\n🍺\"", number: Double(literal)!, count: count, big: big))
        }
        add(separator == "\n" ? "\n" : "]")
        return (Data(bytes), expected, tokens)
    }

    @Test(arguments: [1, 2, 3, 7, 4096])
    func chunkBoundariesInsideCharactersEscapesAndNumbers(size: Int) async throws {
        for separator in [", ", "\n"] {
            let (data, expected, tokens) = Self.boundaryInput(separator: separator)
            #expect(data.count > 2 * 4096)
            if size < 4096 {
                // Some chunk boundary falls strictly inside a token of every kind.
                for kind in TokenKind.allCases {
                    let split = tokens.contains { $0.0 == kind && ($0.1.lowerBound / size + 1) * size < $0.1.upperBound }
                    #expect(split, "no \(size)-byte chunk boundary inside a \(kind)")
                }
            }
            let format: JSONStreamFormat = separator == "\n" ? .jsonLines : .array
            let pieces = Chunks.fixed(data, size: size)
            let chunks = await Collect.async(StreamingJSONDecoder().elements(of: Piece.self, from: Chunks.stream(pieces), format: format))
            #expect(chunks.errors.isEmpty, "\(chunks.errors.map(streamErrorText))")
            expectSameElements(chunks.elements, expected, "async \(size)-byte chunks, \(format)")
            let viaData = await Collect.async(StreamingJSONDecoder().elements(of: Piece.self, from: Chunks.dataStream(pieces), format: format))
            expectSameElements(viaData.elements, expected, "async Data chunks of \(size), \(format)")
            let feed = Collect.feed(JSONElementFeed(of: Piece.self, format: format), pieces)
            #expect(feed.errors.isEmpty)
            expectSameElements(feed.elements, expected, "feed of \(size)-byte pieces, \(format)")
            // And the whole document decoded with the parser given `size` bytes at a time.
            if format == .array { #expect(try Engine.decode([Piece].self, data, chunk: size) == expected) }
        }
    }

    // MARK: Each element is delivered as soon as the input that completes it has arrived

    /// How long the pipe's writer waits for the reader to report an element
    /// before it writes the next one anyway. The check is the order (no
    /// element reaches the reader after a byte of the next one was written),
    /// not the time: the reader has its own thread, and the bound only keeps
    /// a regression (an element held back until more input comes, which
    /// never comes while the writer waits) from hanging the run. Generous, so
    /// that a machine busy with the other suites' processes does not trip it.
    static let deliveryTimeout: DispatchTimeInterval = .seconds(60)

    /// The fixture's first records, as JSON text.
    static func recordTexts(_ count: Int) -> [[UInt8]] {
        Array(fixture.lines.split(separator: 0x0A).prefix(count).map(Array.init))
    }

    /// The bytes written before element `index` (an opening bracket or a separator) and after the last.
    static func framing(_ format: JSONStreamFormat, index: Int) -> [UInt8] {
        switch (format, index) {
        case (.array, 0): return Array("[\n".utf8)
        case (.array, -1): return Array("\n]".utf8)
        case (.array, _): return Array(",\n".utf8)
        case (_, 0): return []
        default: return Array("\n".utf8)
        }
    }

    /// The stream's input in pieces: piece `i` ends with the closing brace of
    /// element `i` (nothing after it that would tell the parser the element
    /// ended); the last piece closes the stream.
    static func deliveryPieces(_ format: JSONStreamFormat, count: Int) -> [[UInt8]] {
        recordTexts(count).enumerated().map { framing(format, index: $0) + $1 } + [framing(format, index: -1)]
    }

    @Test(arguments: [JSONStreamFormat.array, .jsonLines])
    func slowPipeDeliversEachElementAsSoonAsItIsComplete(format: JSONStreamFormat) async throws {
        let pieces = Self.deliveryPieces(format, count: 8)
        let expected = Array(try Self.wholeArray().prefix(8))
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let received = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let written = SharedCounter()  // pieces written so far
        Thread.detachNewThread {
            var waiting = true
            for (index, piece) in pieces.enumerated() {
                written.increment()
                Pipes.write(piece, to: writer)
                // Nothing more until the reader has element `index` (after the first
                // timeout, no more waiting: the order check below has failed already).
                if index < pieces.count - 1, waiting,
                   received.wait(timeout: .now() + Self.deliveryTimeout) == .timedOut {
                    waiting = false
                }
            }
            try? writer.close()
            finished.signal()
        }
        let reader = pipe.fileHandleForReading
        let (records, writtenAtDelivery) = try await offThePool { () -> ([Record], [Int]) in
            var records: [Record] = []
            var writtenAtDelivery: [Int] = []
            var iterator = RecordsFixture.decoder().elements(of: Record.self, from: reader, format: format)
                .makeIterator()
            while let record = try iterator.next() {
                records.append(record)
                writtenAtDelivery.append(written.value)
                received.signal()
            }
            return (records, writtenAtDelivery)
        }
        #expect(finished.wait(timeout: .now() + 60) == .success)
        expectSameElements(records, expected)
        // Element i arrived while only its own piece and those before it were written.
        #expect(writtenAtDelivery == Array(1...8), "pieces written when each element arrived")
    }

    /// An async source is asked for input only when the input so far holds
    /// no complete element: when element `i` reaches the loop, the decoder
    /// has taken exactly the pieces (or bytes) up to the end of element `i`.
    /// The source hands them out as they are asked for and counts them, so
    /// the check is the order of events alone, whatever else the machine
    /// (or the cooperative pool) is busy with.
    @Test(arguments: [JSONStreamFormat.array, .jsonLines])
    func asyncChunksAndBytesDeliverEachElementAsSoonAsItIsComplete(format: JSONStreamFormat) async throws {
        let pieces = Self.deliveryPieces(format, count: 6)
        let expected = Array(try Self.wholeArray().prefix(6))
        // The number of bytes up to the end of each element's piece.
        let ends = pieces.dropLast().reduce(into: [Int]()) { $0.append(($0.last ?? 0) + $1.count) }

        let chunksTaken = SharedCounter()
        let chunks = AsyncStream<[UInt8]>(unfolding: {
            let number = chunksTaken.increment()
            return number <= pieces.count ? pieces[number - 1] : nil
        })
        var records: [Record] = []
        var chunksAtDelivery: [Int] = []
        for try await record in RecordsFixture.decoder().elements(of: Record.self, from: chunks, format: format) {
            records.append(record)
            chunksAtDelivery.append(chunksTaken.value)
        }
        expectSameElements(records, expected, "chunks")
        #expect(chunksAtDelivery == Array(1...6), "chunks taken when each element arrived")

        let bytes = pieces.flatMap { $0 }
        let bytesTaken = SharedCounter()
        let byteStream = AsyncStream<UInt8>(unfolding: {
            let number = bytesTaken.increment()
            return number <= bytes.count ? bytes[number - 1] : nil
        })
        records = []
        var bytesAtDelivery: [Int] = []
        for try await record in RecordsFixture.decoder().elements(of: Record.self, from: byteStream, format: format) {
            records.append(record)
            bytesAtDelivery.append(bytesTaken.value)
        }
        expectSameElements(records, expected, "single bytes")
        #expect(bytesAtDelivery == ends, "bytes taken when each element arrived")
    }

    // MARK: Leaving the loop and cancelling

    struct Item: Decodable, Equatable { var id: Int; var name: String }

    /// An async sequence of `total` chunks, one element each, produced on demand; `pulls` counts them.
    static func countedChunks(total: Int, pulls: SharedCounter) -> AsyncStream<[UInt8]> {
        AsyncStream(unfolding: {
            let number = pulls.increment()
            if number > total { return nil }
            let open = number == 1 ? "[" : ""
            let close = number == total ? "]" : ","
            return Array((open + #"{"id": \#(number), "name": "r\#(number)"}"# + close).utf8)
        })
    }

    @Test func breakingOutAfterThreeElementsStopsPullingChunks() async throws {
        let pulls = SharedCounter()
        let total = 100_000
        var ids: [Int] = []
        for try await item in StreamingJSONDecoder().elements(of: Item.self, from: Self.countedChunks(total: total, pulls: pulls)) {
            ids.append(item.id)
            if ids.count == 3 { break }
        }
        #expect(ids == [1, 2, 3])
        let pulledAtBreak = pulls.value
        #expect(pulledAtBreak >= 3)
        #expect(pulledAtBreak <= 10, "pulled \(pulledAtBreak) of \(total) chunks for 3 elements")
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(pulls.value == pulledAtBreak, "chunks were still pulled after the loop ended")
    }

    @Test func cancellingTheTaskEndsTheAsyncLoopWithCancellationError() async throws {
        let pulls = SharedCounter()
        let received = SharedCounter()
        let total = 1_000_000
        let chunks = Self.countedChunks(total: total, pulls: pulls)
        // The loop says when it has its third element (no clock: on a busy
        // machine the task may wait long for the pool, it is not broken), and
        // goes on while the test cancels it.
        let (thirdElement, reached) = AsyncStream.makeStream(of: Void.self)
        let task = Task { () -> String in
            defer { reached.finish() }  // also when the loop ends before a third element
            do {
                for try await _ in StreamingJSONDecoder().elements(of: Item.self, from: chunks) {
                    if received.increment() == 3 { reached.finish() }
                    await Task.yield()
                }
                return "finished"
            } catch is CancellationError {
                return "cancelled"
            } catch {
                return "other error: \(streamErrorText(error))"
            }
        }
        for await _ in thirdElement {}
        #expect(received.value >= 3)
        task.cancel()
        let result = await task.value
        #expect(result == "cancelled")
        #expect(pulls.value < total / 2, "pulled \(pulls.value) of \(total) chunks")
        #expect(received.value < total)
    }

    @Test(arguments: [100_000, 300_000])
    func cancellingTheTaskEndsALoopOverData(count: Int) async throws {
        // 100 000 ints stay on one thread; 300 000 (over 1 MiB) use the pipelined engine.
        let data = Data(("[" + (0..<count).map { "\($0 + 100_000)" }.joined(separator: ",") + "]").utf8)
        #expect((data.count >= _Pipelining.threshold) == (count == 300_000))
        let result = await Task { () -> (count: Int, outcome: String) in
            var seen = 0
            do {
                for try await _ in StreamingJSONDecoder().elements(of: Int.self, from: data) {
                    seen += 1
                    if seen == 10 { withUnsafeCurrentTask { $0?.cancel() } }
                }
                return (seen, "finished")
            } catch is CancellationError {
                return (seen, "cancelled")
            } catch {
                return (seen, "other error: \(streamErrorText(error))")
            }
        }.value
        #expect(result.outcome == "cancelled")
        #expect(result.count >= 10)
        #expect(result.count < count / 2, "\(result.count) of \(count) elements after cancelling")
    }
}
