// SPDX-License-Identifier: Apache-2.0
import Foundation
import TestSupport
import Testing
@testable import StreamingJSON

// Streams (`elements`), files and pipes, numbers, the decoder's options and
// key strategies, compared with Foundation's JSONDecoder where they should agree.
extension DecoderBehaviourTests {
    struct Record: Decodable, Equatable, Sendable {
        var id: Int
        var name: String

        static func expected(_ id: Int) -> Record { Record(id: id, name: "r\(id)") }
    }

    static func records(_ ids: some Sequence<Int>, separator: String = ",\n") -> String {
        ids.map { #"{"id": \#($0), "name": "r\#($0)"}"# }.joined(separator: separator)
    }

    // MARK: elements(of:from: Data)

    @Test func syncIteratorAndForEachGiveTheSameElements() throws {
        let data = Self.json("[" + Self.records(0..<300) + "]")
        let expected = (0..<300).map(Record.expected)
        let elements = StreamingJSONDecoder().elements(of: Record.self, from: data)
        var iterator = elements.makeIterator()
        var pulled: [Record] = []
        while let record = try iterator.next() { pulled.append(record) }
        #expect(pulled == expected)
        #expect(try iterator.next() == nil)  // stays finished
        var visited: [Record] = []
        try elements.forEach { visited.append($0) }
        #expect(visited == expected)
        // forEach stops at the first error its body throws.
        struct Stop: Error {}
        var seen = 0
        #expect(throws: Stop.self) {
            try elements.forEach { record in
                seen += 1
                if record.id == 9 { throw Stop() }
            }
        }
        #expect(seen == 10)
    }

    @Test func asyncIterationWithForTryAwait() async throws {
        let data = Self.json("[" + Self.records(0..<300) + "]")
        var records: [Record] = []
        for try await record in StreamingJSONDecoder().elements(of: Record.self, from: data) {
            records.append(record)
        }
        #expect(records == (0..<300).map(Record.expected))
        // Leaving the loop early is fine, and a decoding error is thrown in the loop.
        var first: [Int] = []
        for try await value in StreamingJSONDecoder().elements(of: Int.self, from: Self.json("[5, 6, 7, 8]")) {
            first.append(value)
            if first.count == 2 { break }
        }
        #expect(first == [5, 6])
        var before: [Int] = []
        do {
            for try await value in StreamingJSONDecoder().elements(of: Int.self, from: Self.json(#"[1, 2, "3", 4]"#)) {
                before.append(value)
            }
            Issue.record("no error")
        } catch {
            #expect(ErrorInfo(error) == ErrorInfo("typeMismatch", ["Index 2"]))
        }
        #expect(before == [1, 2])
    }

    @Test func iteratingTheSameElementsTwiceStartsAgain() throws {
        let elements = StreamingJSONDecoder().elements(of: Int.self, from: Self.json("[1, 2, 3]"))
        var firstPass: [Int] = [], secondPass: [Int] = []
        try elements.forEach { firstPass.append($0) }
        try elements.forEach { secondPass.append($0) }
        #expect(firstPass == [1, 2, 3])
        #expect(secondPass == [1, 2, 3])
        // Two iterators at once are independent.
        var a = elements.makeIterator(), b = elements.makeIterator()
        #expect(try a.next() == 1)
        #expect(try a.next() == 2)
        #expect(try b.next() == 1)
        #expect(try a.next() == 3)
        #expect(try a.next() == nil)
        #expect(try b.next() == 2)
        // JSON Lines and a key path, too.
        let lines = StreamingJSONDecoder().elements(of: Int.self, from: Self.json("7\n8\n"), format: .jsonLines)
        #expect(try collect(lines) == [7, 8])
        #expect(try collect(lines) == [7, 8])
        let nested = StreamingJSONDecoder().elements(of: Int.self, from: Self.json(#"{"a": {"b": [4, 5]}}"#), at: ["a", "b"])
        #expect(try collect(nested) == [4, 5])
        #expect(try collect(nested) == [4, 5])
    }

    func collect<T>(_ elements: JSONElements<T>) throws -> [T] {
        var result: [T] = []
        try elements.forEach { result.append($0) }
        return result
    }

    @Test func formatsAndEmptyInputs() throws {
        let decoder = StreamingJSONDecoder()
        // A root scalar with .auto is a JSON Lines stream of one value.
        #expect(try collect(decoder.elements(of: Int.self, from: Self.json("42"))) == [42])
        #expect(try collect(decoder.elements(of: Int.self, from: Self.json("  42\n"))) == [42])
        #expect(try collect(decoder.elements(of: Int.self, from: Self.json("1 2\n3"))) == [1, 2, 3])
        #expect(try collect(decoder.elements(of: Record.self, from: Self.json(Self.records(0..<3, separator: "\n"))))
                == (0..<3).map(Record.expected))
        // .auto on an array streams its elements; .jsonLines takes the array as one value.
        #expect(try collect(decoder.elements(of: Int.self, from: Self.json("[1, 2]"))) == [1, 2])
        #expect(try collect(decoder.elements(of: [Int].self, from: Self.json("[1, 2]"), format: .jsonLines)) == [[1, 2]])
        #expect(try collect(decoder.elements(of: [Int].self, from: Self.json("[1, 2] [3]\n[]"), format: .jsonLines))
                == [[1, 2], [3], []])

        // Empty arrays and empty input.
        #expect(try collect(decoder.elements(of: Int.self, from: Self.json("[]"), format: .array)).isEmpty)
        #expect(try collect(decoder.elements(of: Int.self, from: Self.json(" [\n] "), format: .array)).isEmpty)
        #expect(try collect(decoder.elements(of: Int.self, from: Self.json("[]"))).isEmpty)
        #expect(try collect(decoder.elements(of: Int.self, from: Self.json(""), format: .jsonLines)).isEmpty)
        #expect(try collect(decoder.elements(of: Int.self, from: Self.json(" \n\n "), format: .jsonLines)).isEmpty)
        #expect(try collect(decoder.elements(of: Int.self, from: Self.json(""))).isEmpty)  // .auto
        for text in ["", "   "] {
            var iterator = decoder.elements(of: Int.self, from: Self.json(text), format: .array).makeIterator()
            do {
                let value = try iterator.next()
                Issue.record("\(text.debugDescription) as .array: \(String(describing: value))")
            } catch let DecodingError.dataCorrupted(context) {
                let error = try #require(context.underlyingError as? JSONSyntaxError)
                #expect(error.byteOffset == text.utf8.count)
            }
        }
        // .array on a non-array root is an error, as is .jsonLines on a value that is not JSON.
        #expect(throws: DecodingError.self) { try collect(decoder.elements(of: Int.self, from: Self.json("42"), format: .array)) }
        #expect(throws: DecodingError.self) { try collect(decoder.elements(of: Int.self, from: Self.json("1\nx"), format: .jsonLines)) }
    }

    // MARK: Files and pipes

    @Test func decodeContentsOfAFile() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("DecoderBehaviourTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let url = directory.appendingPathComponent("records.json")
        let data = Self.json("[" + Self.records(0..<5_000) + "]")
        #expect(data.count > 2 * 64 * 1024)
        try data.write(to: url)
        let expected = (0..<5_000).map(Record.expected)
        let decoder = StreamingJSONDecoder()
        #expect(try decoder.decode([Record].self, contentsOf: url) == expected)
        #expect(try JSONDecoder().decode([Record].self, from: Data(contentsOf: url)) == expected)

        // The incremental container over a file.
        let beersURL = directory.appendingPathComponent("beers.json")
        try Self.beers(3_000).write(to: beersURL)
        checkSummary(try decoder.decode(Summary.self, contentsOf: beersURL), count: 3_000, strong: 450)

        // elements(contentsOf:) starts again on each iteration.
        let elements = decoder.elements(of: Record.self, contentsOf: url)
        #expect(try collect(elements) == expected)
        #expect(try collect(elements).count == 5_000)

        // A FileHandle on a regular file.
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        #expect(try decoder.decode([Record].self, from: handle) == expected)

        // Invalid content is a DecodingError with the position in the file.
        let bad = directory.appendingPathComponent("bad.json")
        try Self.json("[1,\n2,\n3 4]").write(to: bad)
        let error = Self.syntaxError { _ = try decoder.decode([Int].self, contentsOf: bad) }
        #expect(error.map { [$0.line, $0.column, $0.byteOffset] } == [3, 3, 9])

        try FileManager.default.removeItem(at: directory)
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test func missingFileIsACocoaErrorNotADecodingError() throws {
        let missing = FileManager.default.temporaryDirectory
            .appendingPathComponent("DecoderBehaviourTests-missing-\(UUID().uuidString).json")
        do {
            _ = try StreamingJSONDecoder().decode([Int].self, contentsOf: missing)
            Issue.record("decoded a missing file")
        } catch let error as CocoaError {
            #expect(error.code == .fileReadNoSuchFile)
        } catch {
            Issue.record("expected a CocoaError, got \(type(of: error)): \(error)")
        }
        // Foundation's own reading throws the same code.
        #expect(throws: CocoaError.self) { try Data(contentsOf: missing) }
        do {
            _ = try Data(contentsOf: missing)
        } catch let error as CocoaError {
            #expect(error.code == .fileReadNoSuchFile)
        }
        // A stream over a missing file throws at its first next().
        var iterator = StreamingJSONDecoder().elements(of: Int.self, contentsOf: missing).makeIterator()
        do {
            _ = try iterator.next()
            Issue.record("no error")
        } catch let error as CocoaError {
            #expect(error.code == .fileReadNoSuchFile)
        } catch {
            Issue.record("expected a CocoaError, got \(type(of: error)): \(error)")
        }
    }

    @Test func decodeFromAPipeWrittenByAnotherThread() async throws {
        let text = "[" + Self.records(0..<400) + "]"
        let bytes = Array(text.utf8)
        #expect(bytes.count < 60_000)  // fits in a pipe's buffer: the writer never blocks
        let pieces = stride(from: 0, to: bytes.count, by: 997).map { Data(bytes[$0..<min($0 + 997, bytes.count)]) }
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            for piece in pieces {
                writer.write(piece)
                usleep(500)
            }
            try? writer.close()
            done.signal()
        }
        let reader = pipe.fileHandleForReading
        let records = try await offThePool { try StreamingJSONDecoder().decode([Record].self, from: reader) }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(records == (0..<400).map(Record.expected))
    }

    @Test func pipeElementsArriveBeforeTheWriterFinishes() async throws {
        // The writer sends the next element only once the reader has the previous one
        // (or, should an element be held back, after a minute): each element must reach
        // the reader while only its own bytes and those before it are written.
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let received = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let written = Counter()  // elements written so far
        Thread.detachNewThread {
            writer.write(Data("[".utf8))
            var waiting = true
            for id in 0..<5 {
                written.increment()
                writer.write(Data((#"{"id": \#(id), "name": "r\#(id)"}"# + (id == 4 ? "]" : ",")).utf8))
                if id < 4, waiting, received.wait(timeout: .now() + 60) == .timedOut { waiting = false }
            }
            try? writer.close()
            finished.signal()
        }
        let reader = pipe.fileHandleForReading
        let (records, writtenAtDelivery) = try await offThePool { () -> ([Record], [Int]) in
            var records: [Record] = []
            var writtenAtDelivery: [Int] = []
            var iterator = StreamingJSONDecoder().elements(of: Record.self, from: reader).makeIterator()
            while let record = try iterator.next() {
                records.append(record)
                writtenAtDelivery.append(written.value)
                received.signal()
            }
            return (records, writtenAtDelivery)
        }
        #expect(finished.wait(timeout: .now() + 60) == .success)
        #expect(records == (0..<5).map(Record.expected))
        #expect(writtenAtDelivery == [1, 2, 3, 4, 5], "the reader waited for more input than the element needed")
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.lock(); count += 1; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return count }
    }

    // MARK: Numbers

    struct Limits: Decodable, Equatable {
        var int64Min: Int64, uint64Max: UInt64, int8Min: Int8, int8Max: Int8, uint8Max: UInt8, uint8Min: UInt8
    }

    /// The same limits read with the typed overloads of an unkeyed and a single-value container.
    struct LimitsInArray: Decodable, Equatable {
        var limits: Limits
        init(from decoder: any Decoder) throws {
            var items = try decoder.unkeyedContainer()
            limits = Limits(int64Min: try items.decode(Int64.self), uint64Max: try items.decode(UInt64.self),
                            int8Min: try items.decode(Int8.self), int8Max: try items.decode(Int8.self),
                            uint8Max: try items.decode(UInt8.self), uint8Min: try items.decode(UInt8.self))
        }
    }

    @Test func integerLimitsThroughEveryContainer() throws {
        let expected = Limits(int64Min: .min, uint64Max: .max, int8Min: .min, int8Max: .max, uint8Max: .max, uint8Min: 0)
        let keyed = Self.json(#"""
        {"int64Min": -9223372036854775808, "uint64Max": 18446744073709551615, "int8Min": -128, "int8Max": 127,
         "uint8Max": 255, "uint8Min": 0}
        """#)
        #expect(try StreamingJSONDecoder().decode(Limits.self, from: keyed) == expected)
        #expect(try JSONDecoder().decode(Limits.self, from: keyed) == expected)

        let array = Self.json("[-9223372036854775808, 18446744073709551615, -128, 127, 255, 0]")
        #expect(try StreamingJSONDecoder().decode(LimitsInArray.self, from: array).limits == expected)  // streamed root
        #expect(try Engine.decode(LimitsInArray.self, array, chunk: 1).limits == expected)
        #expect(try JSONDecoder().decode(LimitsInArray.self, from: array).limits == expected)
        let nested = Self.json("[[-9223372036854775808, 18446744073709551615, -128, 127, 255, 0]]")
        #expect(try StreamingJSONDecoder().decode([LimitsInArray].self, from: nested).map(\.limits) == [expected])

        let decoder = StreamingJSONDecoder()
        #expect(try decoder.decode(Int64.self, from: Self.json("-9223372036854775808")) == .min)
        #expect(try decoder.decode(UInt64.self, from: Self.json("18446744073709551615")) == .max)
        #expect(try decoder.decode(Int8.self, from: Self.json("-128")) == .min)
        #expect(try decoder.decode(Int8.self, from: Self.json("127")) == .max)
        #expect(try decoder.decode(UInt8.self, from: Self.json("255")) == .max)
        #expect(try decoder.decode(UInt8.self, from: Self.json("0")) == 0)

        // One past each limit: dataCorrupted with the value's path, and Foundation fails too.
        struct One<T: Decodable>: Decodable { var v: T }
        func overflow<T: Decodable>(_ type: T.Type, _ literal: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(Self.caught { _ = try StreamingJSONDecoder().decode(One<T>.self, from: Self.json(#"{"v": \#(literal)}"#)) }
                    == ErrorInfo("dataCorrupted", ["v"]), "\(T.self) \(literal)", sourceLocation: sourceLocation)
            #expect(Self.caught { _ = try StreamingJSONDecoder().decode([T].self, from: Self.json("[0, \(literal)]")) }
                    == ErrorInfo("dataCorrupted", ["Index 1"]), "\(T.self) \(literal)", sourceLocation: sourceLocation)
            #expect(Self.caught { _ = try StreamingJSONDecoder().decode(T.self, from: Self.json(literal)) }
                    == ErrorInfo("dataCorrupted", []), "\(T.self) \(literal)", sourceLocation: sourceLocation)
            #expect(throws: DecodingError.self, "\(T.self) \(literal)", sourceLocation: sourceLocation) {
                try JSONDecoder().decode(One<T>.self, from: Self.json(#"{"v": \#(literal)}"#))
            }
        }
        overflow(Int64.self, "-9223372036854775809")
        overflow(Int64.self, "9223372036854775808")
        overflow(UInt64.self, "18446744073709551616")
        // 19 digits are read without overflow checks, 20 with them.
        #expect(try decoder.decode(UInt64.self, from: Self.json("9999999999999999999")) == 9_999_999_999_999_999_999)
        #expect(try decoder.decode(Int64.self, from: Self.json("-999999999999999999")) == -999_999_999_999_999_999)
        overflow(Int64.self, "9999999999999999999")
        overflow(Int64.self, "-9999999999999999999")
        overflow(UInt64.self, "99999999999999999999")
        overflow(UInt64.self, "10000000000000000000000")
        overflow(UInt64.self, "-1")
        overflow(Int8.self, "-129")
        overflow(Int8.self, "128")
        overflow(UInt8.self, "256")
        overflow(UInt8.self, "-1")
    }

    @Test func minusZeroAsUnsigned() throws {
        let data = Self.json("[-0, -0.0, -0e5]")
        #expect(try StreamingJSONDecoder().decode([UInt].self, from: data) == [0, 0, 0])
        #expect(try StreamingJSONDecoder().decode([UInt8].self, from: data) == [0, 0, 0])
        #expect(try StreamingJSONDecoder().decode(UInt64.self, from: Self.json("-0")) == 0)
        #expect(try JSONDecoder().decode([UInt].self, from: Self.json("[-0]")) == [0])
    }

    @Test func decimalIsExactFromTheLiteral() throws {
        let literals = ["0.1", "123456789012345678901234567890", "-0.000000000000000000001", "3.14159265358979323846264338327"]
        let data = Self.json("[" + literals.joined(separator: ", ") + "]")
        let expected = literals.map { Decimal(string: $0)! }
        #expect(try StreamingJSONDecoder().decode([Decimal].self, from: data) == expected)
        #expect(try Engine.decode([Decimal].self, data, chunk: 1) == expected)
        #expect(try StreamingJSONDecoder().decode(Decimal.self, from: Self.json("0.1")) == Decimal(string: "0.1")!)
        // 30 digits do not survive a detour through Double.
        #expect(Decimal(Double("123456789012345678901234567890")!) != Decimal(string: "123456789012345678901234567890")!)
        struct Price: Decodable, Equatable { var amount: Decimal }
        #expect(try StreamingJSONDecoder().decode(Price.self, from: Self.json(#"{"amount": 123456789012345678901234567890}"#))
                == Price(amount: Decimal(string: "123456789012345678901234567890")!))
        #expect(try JSONDecoder().decode([Decimal].self, from: Self.json("[0.1, 123456789012345678901234567890]"))
                == [Decimal(string: "0.1")!, Decimal(string: "123456789012345678901234567890")!])
        #expect(Self.caught { _ = try StreamingJSONDecoder().decode(Price.self, from: Self.json(#"{"amount": "1"}"#)) }
                == ErrorInfo("typeMismatch", ["amount"]))
    }

    @Test func floatIsCorrectlyRoundedFromTheLiteral() throws {
        // The last literal sits just above the midpoint between two Floats: via Double it
        // rounds to the midpoint and then to even (1.0); correctly rounded it is 1.0000001.
        let literals = ["0.1", "16777217", "3.4028235e38", "1.000000059604644775390625000000001", "-7.25e-3"]
        let expected = literals.map { Float($0)! }
        #expect(expected[3] != Float(Double(literals[3])!))  // the literal really tells the two apart
        let data = Self.json("[" + literals.joined(separator: ", ") + "]")
        #expect(try StreamingJSONDecoder().decode([Float].self, from: data) == expected)
        #expect(try Engine.decode([Float].self, data, chunk: 2) == expected)
        #expect(try JSONDecoder().decode([Float].self, from: data) == expected)
        struct Scale: Decodable, Equatable { var f: Float }
        #expect(try StreamingJSONDecoder().decode(Scale.self, from: Self.json(#"{"f": 16777217}"#)) == Scale(f: 16_777_216))
        #expect(try StreamingJSONDecoder().decode(Float.self, from: Self.json("0.1")) == Float("0.1")!)
        // Too large for a Float.
        #expect(Self.caught { _ = try StreamingJSONDecoder().decode(Scale.self, from: Self.json(#"{"f": 1e39}"#)) }
                == ErrorInfo("dataCorrupted", ["f"]))
    }

    @Test func doubleOutOfRangeIsDataCorruptedWithItsPath() throws {
        struct Reading: Decodable { var value: Double }
        #expect(Self.caught { _ = try StreamingJSONDecoder().decode(Reading.self, from: Self.json(#"{"value": 1e400}"#)) }
                == ErrorInfo("dataCorrupted", ["value"]))
        #expect(Self.caught { _ = try StreamingJSONDecoder().decode([Double].self, from: Self.json("[1, -1e400]")) }
                == ErrorInfo("dataCorrupted", ["Index 1"]))
        #expect(Self.caught { _ = try StreamingJSONDecoder().decode(Double.self, from: Self.json("1e400")) }
                == ErrorInfo("dataCorrupted", []))
        var iterator = StreamingJSONDecoder().elements(of: Reading.self, from: Self.json(#"[{"value": 1}, {"value": 1e400}, {"value": 2}]"#))
            .makeIterator()
        #expect(try iterator.next()?.value == 1)
        #expect(Self.caught { _ = try iterator.next() } == ErrorInfo("dataCorrupted", ["Index 1", "value"]))
        #expect(try iterator.next()?.value == 2)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Reading.self, from: Self.json(#"{"value": 1e400}"#)) }
        // It is not reported as invalid JSON.
        do {
            _ = try StreamingJSONDecoder().decode(Reading.self, from: Self.json(#"{"value": 1e400}"#))
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.underlyingError == nil)
            #expect(context.debugDescription.contains("1e400"))
        }
        // A nonzero literal that rounds to zero is refused too, as Foundation's
        // JSONDecoder refuses it (swift-foundation, measured with Swift 6.3.1;
        // JSONSerialization reads it as 0). Zero written any way is zero.
        #expect(Self.caught { _ = try StreamingJSONDecoder().decode(Reading.self, from: Self.json(#"{"value": 1e-400}"#)) }
                == ErrorInfo("dataCorrupted", ["value"]))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Reading.self, from: Self.json(#"{"value": 1e-400}"#)) }
        #expect(Self.caught { _ = try StreamingJSONDecoder().decode(Float.self, from: Self.json("-1e-50")) }
                == ErrorInfo("dataCorrupted", []))
        #expect(try StreamingJSONDecoder().decode([Double].self, from: Self.json("[0e-400, -0.000e5, 5e-324]"))
                == [0, 0, Double.leastNonzeroMagnitude])
    }

    // MARK: Options

    @Test func defaultOptions() throws {
        let decoder = StreamingJSONDecoder()
        #expect(decoder.maxDepth == 512)
        #expect(decoder.allowsComments == false)
        #expect(decoder.maxElementBytes == nil)
        #expect(decoder.maxNumberLength == 1_000)
        #expect(decoder.maxStringLength == 64 * 1024 * 1024)
        #expect(decoder.userInfo.isEmpty)
        guard case .base64 = decoder.dataDecodingStrategy else { Issue.record("data: \(decoder.dataDecodingStrategy)"); return }
        guard case .deferredToDate = decoder.dateDecodingStrategy else { Issue.record("date: \(decoder.dateDecodingStrategy)"); return }
        guard case .useDefaultKeys = decoder.keyDecodingStrategy else { Issue.record("keys: \(decoder.keyDecodingStrategy)"); return }
        guard case .throw = decoder.nonConformingFloatDecodingStrategy else { Issue.record("floats"); return }
        // And they act like Foundation's defaults.
        struct Stamp: Decodable, Equatable { var date: Date; var data: Data }
        let data = Self.json(#"{"date": 1000.5, "data": "AQID/w=="}"#)
        let expected = Stamp(date: Date(timeIntervalSinceReferenceDate: 1000.5), data: Data([1, 2, 3, 255]))
        #expect(try decoder.decode(Stamp.self, from: data) == expected)
        #expect(try JSONDecoder().decode(Stamp.self, from: data) == expected)
        #expect(throws: DecodingError.self) { try decoder.decode([Double].self, from: Self.json(#"["NaN"]"#)) }
        #expect(throws: DecodingError.self) { try decoder.decode([Int].self, from: Self.json("[1, /* c */ 2]")) }
        // Options are settable and read back.
        decoder.maxDepth = 20
        decoder.allowsComments = true
        decoder.maxElementBytes = 4_096
        #expect((decoder.maxDepth, decoder.allowsComments, decoder.maxElementBytes) == (20, true, 4_096))
        decoder.maxElementBytes = nil
        #expect(decoder.maxElementBytes == nil)
    }

    @Test func oneDecoderSharedByEightConcurrentTasks() async throws {
        let decoder = StreamingJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        struct Row: Decodable, Equatable, Sendable { var rowId: Int; var ownerName: String }
        @Sendable func document(_ task: Int) -> Data {
            Self.json("[" + (0..<2_000).map { #"{"row_id": \#(task * 100_000 + $0), "owner_name": "task \#(task)"}"# }
                .joined(separator: ",") + "]")
        }
        @Sendable func expected(_ task: Int) -> [Row] { (0..<2_000).map { Row(rowId: task * 100_000 + $0, ownerName: "task \(task)") } }

        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    let data = document(task)
                    let wanted = expected(task)
                    var bad = 0
                    for round in 0..<10 {
                        if round % 2 == 0 {
                            if try decoder.decode([Row].self, from: data) != wanted { bad += 1 }
                        } else {
                            var rows: [Row] = []
                            try decoder.elements(of: Row.self, from: data).forEach { rows.append($0) }
                            if rows != wanted { bad += 1 }
                        }
                    }
                    return bad
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)

        // The same from eight threads.
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { task in
            let data = document(task)
            for _ in 0..<5 where (try? decoder.decode([Row].self, from: data)) != expected(task) {
                failures.increment()
            }
        }
        #expect(failures.value == 0)
    }

    static let scaleKey = CodingUserInfoKey(rawValue: "behaviour.scale")!
    static let tagKey = CodingUserInfoKey(rawValue: "behaviour.tag")!

    /// Reads `userInfo` inside `init(from:)` at every level.
    struct Scaled: Decodable, Equatable {
        var value: Int
        var tag: String
        var seen: [String]

        init(value: Int, tag: String, seen: [String]) {
            self.value = value
            self.tag = tag
            self.seen = seen
        }

        init(from decoder: any Decoder) throws {
            let scale = decoder.userInfo[DecoderBehaviourTests.scaleKey] as? Int ?? 1
            tag = decoder.userInfo[DecoderBehaviourTests.tagKey] as? String ?? "none"
            value = try decoder.singleValueContainer().decode(Int.self) * scale
            seen = decoder.userInfo.keys.map(\.rawValue).sorted()
        }
    }

    struct ScaledHolder: Decodable, Equatable {
        var single: Scaled
        var list: [Scaled]
        var viaSuper: Scaled
        enum CodingKeys: CodingKey { case single, list, other }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            single = try container.decode(Scaled.self, forKey: .single)
            list = try container.decode([Scaled].self, forKey: .list)
            viaSuper = try Scaled(from: try container.superDecoder(forKey: .other))
        }
    }

    @Test func userInfoIsVisibleInsideInitFromDecoder() throws {
        let data = Self.json(#"{"single": 2, "list": [3, 4], "other": 5}"#)
        let decoder = StreamingJSONDecoder()
        decoder.userInfo = [Self.scaleKey: 10, Self.tagKey: "t"]
        let ours = try decoder.decode(ScaledHolder.self, from: data)
        #expect(ours.single == Scaled(value: 20, tag: "t", seen: ["behaviour.scale", "behaviour.tag"]))
        #expect(ours.list.map(\.value) == [30, 40])
        #expect(ours.list.allSatisfy { $0.tag == "t" })
        #expect(ours.viaSuper.value == 50 && ours.viaSuper.tag == "t")
        let foundation = JSONDecoder()
        foundation.userInfo = [Self.scaleKey: 10, Self.tagKey: "t"]
        #expect(try foundation.decode(ScaledHolder.self, from: data) == ours)

        // In streamed elements, and in a custom date strategy's decoder.
        var streamed: [Int] = []
        try decoder.elements(of: Scaled.self, from: Self.json("[1, 2, 3]")).forEach { streamed.append($0.value) }
        #expect(streamed == [10, 20, 30])
        decoder.dateDecodingStrategy = .custom { inner in
            let scale = inner.userInfo[DecoderBehaviourTests.scaleKey] as? Int ?? 1
            return Date(timeIntervalSince1970: Double(try inner.singleValueContainer().decode(Int.self) * scale))
        }
        #expect(try decoder.decode([Date].self, from: Self.json("[7]")) == [Date(timeIntervalSince1970: 70)])
        // Without userInfo the type sees nothing.
        #expect(try StreamingJSONDecoder().decode(Scaled.self, from: Self.json("4")) == Scaled(value: 4, tag: "none", seen: []))
    }

    // MARK: Key strategies

    static let snakeKeys = ["_leading", "trailing_", "__both__", "a__b", "already_camelCase", "ALL_CAPS_KEY", "single", "x_1_y"]

    /// The converted keys a keyed container reports, each with the value found under it.
    struct ConvertedKeys: Decodable, Equatable {
        var values: [String: Int] = [:]
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            for key in container.allKeys { values[key.stringValue] = try container.decode(Int.self, forKey: key) }
        }
    }

    struct SnakeTarget: Decodable, Equatable {
        var _leading: Int, trailing_: Int, __both__: Int, aB: Int, alreadyCamelcase: Int, allCapsKey: Int, single: Int, x1Y: Int
    }

    @Test func convertFromSnakeCaseEdgeKeysMatchFoundation() throws {
        let data = Self.json("{" + Self.snakeKeys.enumerated().map { #""\#($1)": \#($0 + 1)"# }.joined(separator: ", ") + "}")
        let ours = StreamingJSONDecoder()
        ours.keyDecodingStrategy = .convertFromSnakeCase
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase

        let expected = ["_leading": 1, "trailing_": 2, "__both__": 3, "aB": 4, "alreadyCamelcase": 5, "allCapsKey": 6,
                        "single": 7, "x1Y": 8]
        let converted = try ours.decode(ConvertedKeys.self, from: data).values
        #expect(converted == expected)
        #expect(converted == (try foundation.decode(ConvertedKeys.self, from: data)).values)
        let target = SnakeTarget(_leading: 1, trailing_: 2, __both__: 3, aB: 4, alreadyCamelcase: 5, allCapsKey: 6, single: 7, x1Y: 8)
        #expect(try ours.decode(SnakeTarget.self, from: data) == target)
        #expect(try foundation.decode(SnakeTarget.self, from: data) == target)
        #expect(try Engine.decode(SnakeTarget.self, data, chunk: 1, decoder: ours) == target)
        // The original spellings no longer match; keys of nested objects are converted too.
        struct Original: Decodable { var a__b: Int }
        #expect(Self.caught { _ = try ours.decode(Original.self, from: data) } == ErrorInfo("keyNotFound(a__b)"))
        struct Outer: Decodable, Equatable { var innerValue: ConvertedKeys }
        let nested = Self.json(#"{"inner_value": {"x_1_y": 1, "a__b": 2}}"#)
        #expect(try ours.decode(Outer.self, from: nested).innerValue.values == ["x1Y": 1, "aB": 2])
        #expect(try ours.decode(Outer.self, from: nested) == (try foundation.decode(Outer.self, from: nested)))
        // More edge keys, compared with Foundation only.
        let more = ["_", "__", "", "a_", "_a_b_", "a_b_c", "Ab_Cd", "a1_b2", "é_ü", "a___b___c"]
        let moreData = Self.json("{" + more.enumerated().map { #""\#($1)": \#($0)"# }.joined(separator: ", ") + "}")
        #expect(try ours.decode(ConvertedKeys.self, from: moreData) == (try foundation.decode(ConvertedKeys.self, from: moreData)))
    }

    final class PathLog: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: Set<[String]> = []
        func add(_ path: [String]) { lock.lock(); paths.insert(path); lock.unlock() }
        var all: Set<[String]> { lock.lock(); defer { lock.unlock() }; return paths }
    }

    @Test func customKeyStrategyUppercasingTheFirstLetter() throws {
        struct Inner: Decodable, Equatable {
            var Deep: Int
        }
        struct Target: Decodable, Equatable {
            var Name: String
            var Count: Int
            var Nested: Inner
            var List: [Inner]
        }
        let data = Self.json(#"{"name": "n", "count": 2, "nested": {"deep": 3}, "list": [{"deep": 4}]}"#)
        let ourLog = PathLog(), foundationLog = PathLog()
        func strategy(_ log: PathLog) -> @Sendable ([any CodingKey]) -> any CodingKey {
            { path in
                log.add(path.map(\.stringValue))
                let last = path.last!.stringValue
                return AnyKey(last.prefix(1).uppercased() + last.dropFirst())
            }
        }
        let ours = StreamingJSONDecoder()
        ours.keyDecodingStrategy = .custom(strategy(ourLog))
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .custom(strategy(foundationLog))
        let expected = Target(Name: "n", Count: 2, Nested: Inner(Deep: 3), List: [Inner(Deep: 4)])
        #expect(try ours.decode(Target.self, from: data) == expected)
        #expect(try foundation.decode(Target.self, from: data) == expected)
        // The closure gets the coding path with the JSON key last.
        #expect(ourLog.all.isSuperset(of: [["name"], ["count"], ["nested"], ["list"]]), "\(ourLog.all)")
        #expect(ourLog.all.count == 6, "\(ourLog.all)")
        #expect(ourLog.all == foundationLog.all)
        // The lower-case spelling no longer matches.
        struct Lower: Decodable { var name: String }
        #expect(Self.caught { _ = try ours.decode(Lower.self, from: data) } == ErrorInfo("keyNotFound(name)"))
    }
}
