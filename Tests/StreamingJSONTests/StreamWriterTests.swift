// SPDX-License-Identifier: Apache-2.0
import Foundation
import TestSupport
import Testing
@testable import StreamingJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `JSONStreamWriter` and `StreamingJSONEncoder.encode(_:to:)`: what they write
/// (compared with Foundation's `JSONEncoder` on the whole array), reading it back
/// with the streaming decoder, and how failures surface.
@Suite struct StreamWriterTests {

    struct Small: Codable, Equatable {
        var id: Int
        var tag: String
    }

    struct Reading: Codable, Equatable {
        var name: String
        var value: Double
        var when: Date?
    }

    static func smalls(_ count: Int) -> [Small] {
        (0..<count).map { Small(id: $0 * 7 - 3, tag: ["a", "b/c", "é\n", ""][$0 % 4]) }
    }

    static let readings = [
        Reading(name: "first", value: 1.5, when: Date(timeIntervalSince1970: 0)),
        Reading(name: "sec\"ond", value: -0.0, when: nil),
        Reading(name: "third/🍺", value: 1e-300, when: Date(timeIntervalSince1970: 1_510_583_415.25)),
    ]

    /// A fresh, empty directory for one test.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("StreamWriterTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func contents(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    /// Writes `elements` to a new file with a URL writer; returns the file's bytes.
    static func written<T: Encodable>(_ elements: [T], format: JSONStreamFormat,
                                      encoder: StreamingJSONEncoder = StreamingJSONEncoder()) throws -> Data {
        let directory = try directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("out.json")
        let writer = try JSONStreamWriter<T>(toFileAt: url, format: format, encoder: encoder)
        for element in elements { try writer.append(element) }
        try writer.finish()
        #expect(try contents(directory) == ["out.json"], "no temporary file is left beside the target")
        return try Data(contentsOf: url)
    }

    static func foundationArray<T: Encodable>(_ elements: [T], _ formatting: JSONEncoder.OutputFormatting,
                                             configure: (JSONEncoder) -> Void = { _ in }) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        configure(encoder)
        return Enc.text(try encoder.encode(elements))
    }

    static func foundationLines<T: Encodable>(_ elements: [T], configure: (JSONEncoder) -> Void = { _ in }) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        configure(encoder)
        return try elements.map { Enc.text(try encoder.encode($0)) + "\n" }.joined()
    }

    // MARK: Reading back

    // 40 000 small elements: several hand-overs of the output buffer.
    @Test(arguments: [0, 1, 40_000])
    func arrayReadsBack(_ count: Int) throws {
        let elements = Self.smalls(count)
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("array.json")
        let writer = try JSONStreamWriter<Small>(toFileAt: url)
        for element in elements { try writer.append(element) }
        try writer.finish()
        let back = Collect.sync(StreamingJSONDecoder().elements(of: Small.self, contentsOf: url, format: .array), limit: 200_000)
        #expect(back.errors.isEmpty, "\(back.errors.prefix(1))")
        expectSameElements(back.elements, elements, "array of \(count)")
        // The same bytes as encoding the whole array at once (compact: exactly `[e1,e2]`).
        let data = try Data(contentsOf: url)
        #expect(data == (try StreamingJSONEncoder().encode(elements)))
        if count == 1 { #expect(Enc.text(data) == #"[{"id":-3,"tag":"a"}]"#) }
        if count == 0 { #expect(Enc.text(data) == "[]") }
        #expect(try Self.contents(directory) == ["array.json"])
    }

    @Test(arguments: [0, 1, 40_000])
    func jsonLinesReadBack(_ count: Int) throws {
        let elements = Self.smalls(count)
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("lines.jsonl")
        let writer = try JSONStreamWriter<Small>(toFileAt: url, format: .jsonLines)
        for element in elements { try writer.append(element) }
        try writer.finish()
        let back = Collect.sync(StreamingJSONDecoder().elements(of: Small.self, contentsOf: url, format: .jsonLines), limit: 200_000)
        #expect(back.errors.isEmpty, "\(back.errors.prefix(1))")
        expectSameElements(back.elements, elements, "lines of \(count)")
        let text = Enc.text(try Data(contentsOf: url))
        #expect(text == (try elements.map { try Enc.ours($0) + "\n" }.joined()))
        if count == 0 { #expect(text.isEmpty) }
        if count == 1 { #expect(text == "{\"id\":-3,\"tag\":\"a\"}\n") }
    }

    @Test func handleWriterReadsBack() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for format in [JSONStreamFormat.array, .jsonLines] {
            let url = directory.appendingPathComponent("handle-\(format).json")
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            let handle = try FileHandle(forWritingTo: url)
            let writer = try JSONStreamWriter<Small>(to: handle, format: format)
            for element in Self.smalls(1_000) { try writer.append(element) }
            try writer.finish()
            try handle.close()  // the writer does not close the handle; closing it here must not fail
            let back = Collect.sync(StreamingJSONDecoder().elements(of: Small.self, contentsOf: url, format: format))
            #expect(back.errors.isEmpty)
            expectSameElements(back.elements, Self.smalls(1_000), "\(format)")
        }
    }

    // MARK: Bytes compared with Foundation

    @Test func arrayOutputEqualsFoundation() throws {
        let formattings: [(StreamingJSONEncoder.OutputFormatting, JSONEncoder.OutputFormatting)] = [
            ([.sortedKeys], [.sortedKeys]),
            ([.sortedKeys, .prettyPrinted], [.sortedKeys, .prettyPrinted]),
            ([.sortedKeys, .prettyPrinted, .withoutEscapingSlashes], [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]),
        ]
        for (ours, theirs) in formattings {
            for count in [0, 1, 2, 3] {
                let elements = Array(Self.readings.prefix(count))
                for format in [JSONStreamFormat.array, .auto] {
                    let encoder = StreamingJSONEncoder()
                    encoder.outputFormatting = ours
                    encoder.dateEncodingStrategy = .iso8601
                    let text = Enc.text(try Self.written(elements, format: format, encoder: encoder))
                    let expected = try Self.foundationArray(elements, theirs) { $0.dateEncodingStrategy = .iso8601 }
                    #expect(text == expected, "\(format) \(count) elements, \(ours.rawValue)")
                }
            }
        }
        // The pretty empty array is Foundation's "[\n\n]".
        let pretty = StreamingJSONEncoder()
        pretty.outputFormatting = .prettyPrinted
        #expect(Enc.text(try Self.written([Small](), format: .array, encoder: pretty)) == "[\n\n]")
        #expect(Enc.text(try Self.written([Small](), format: .array)) == "[]")
        #expect(Enc.text(try Self.written(Self.smalls(2), format: .array, encoder: pretty)) == """
        [
          {
            "id" : -3,
            "tag" : "a"
          },
          {
            "id" : 4,
            "tag" : "b\\/c"
          }
        ]
        """)
    }

    @Test func jsonLinesAreCompactEvenWhenPretty() throws {
        let encoder = StreamingJSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        let text = Enc.text(try Self.written(Self.readings, format: .jsonLines, encoder: encoder))
        #expect(text == (try Self.foundationLines(Self.readings) { $0.dateEncodingStrategy = .secondsSince1970 }))
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count == Self.readings.count + 1)
        // Strings holding U+2028 and escaped newlines stay on one line.
        let tricky = [Small(id: 1, tag: "a\nb\u{2028}c\r")]
        #expect(Enc.text(try Self.written(tricky, format: .jsonLines)) == "{\"id\":1,\"tag\":\"a\\nb\u{2028}c\\r\"}\n")
    }

    @Test func largeArrayEqualsFoundation() throws {
        let elements = Self.smalls(100_000)
        let encoder = StreamingJSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let compact = try Self.written(elements, format: .array, encoder: encoder)
        #expect(Enc.text(compact) == (try Self.foundationArray(elements, .sortedKeys)))
    }

    // MARK: Lifecycle

    @Test func finishTwiceAndAppendAfterFinish() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("twice.json")
        let writer = try JSONStreamWriter<Small>(toFileAt: url)
        try writer.append(Small(id: 1, tag: "x"))
        #expect(!FileManager.default.fileExists(atPath: url.path), "the target appears only at finish()")
        try writer.finish()
        try writer.finish()
        #expect(throws: (any Error).self) { try writer.append(Small(id: 2, tag: "y")) }
        try writer.finish()
        #expect(Enc.text(try Data(contentsOf: url)) == #"[{"id":1,"tag":"x"}]"#)
        #expect(try Self.contents(directory) == ["twice.json"])

        // Same on a handle: nothing is written after finish().
        let handleURL = directory.appendingPathComponent("handle.json")
        _ = FileManager.default.createFile(atPath: handleURL.path, contents: nil)
        let handle = try FileHandle(forWritingTo: handleURL)
        defer { try? handle.close() }
        let handleWriter = try JSONStreamWriter<Small>(to: handle, format: .jsonLines)
        try handleWriter.append(Small(id: 1, tag: "x"))
        try handleWriter.finish()
        try handleWriter.finish()
        #expect(throws: (any Error).self) { try handleWriter.append(Small(id: 2, tag: "y")) }
        #expect(Enc.text(try Data(contentsOf: handleURL)) == "{\"id\":1,\"tag\":\"x\"}\n")
    }

    @Test func finishReplacesAnExistingTarget() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("existing.json")
        try Data("old contents that are longer than the new ones".utf8).write(to: url)
        let writer = try JSONStreamWriter<Int>(toFileAt: url)
        try writer.append(1)
        #expect(Enc.text(try Data(contentsOf: url)).hasPrefix("old"), "the old file stays until finish()")
        try writer.finish()
        #expect(Enc.text(try Data(contentsOf: url)) == "[1]")
        #expect(try Self.contents(directory) == ["existing.json"])
    }

    @Test func droppedURLWriterLeavesNoFile() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("dropped.json")
        for format in [JSONStreamFormat.array, .jsonLines] {
            do {
                let writer = try JSONStreamWriter<Small>(toFileAt: url, format: format)
                for element in Self.smalls(50_000) { try writer.append(element) }  // more than one buffer's worth
            }
            #expect(!FileManager.default.fileExists(atPath: url.path), "\(format)")
            #expect(try Self.contents(directory) == [], "no temporary file left behind, \(format)")
        }
        do { _ = try JSONStreamWriter<Small>(toFileAt: url) }
        #expect(try Self.contents(directory) == [])
    }

    @Test func droppedHandleWriterLeavesValidJSON() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (count, pretty) in [(0, false), (1, false), (3, true), (20_000, false)] {
            let url = directory.appendingPathComponent("dropped-\(count).json")
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            let handle = try FileHandle(forWritingTo: url)
            let encoder = StreamingJSONEncoder()
            if pretty { encoder.outputFormatting = .prettyPrinted }
            do {
                let writer = try JSONStreamWriter<Small>(to: handle, encoder: encoder)
                for element in Self.smalls(count) { try writer.append(element) }
            }
            try handle.close()
            let data = try Data(contentsOf: url)
            #expect(try StreamingJSONDecoder().decode([Small].self, from: data) == Self.smalls(count), "\(count)")
            #expect(try JSONDecoder().decode([Small].self, from: data) == Self.smalls(count), "Foundation, \(count)")
        }
        // JSON Lines: every complete line is there.
        let url = directory.appendingPathComponent("dropped.jsonl")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        do {
            let writer = try JSONStreamWriter<Small>(to: handle, format: .jsonLines)
            for element in Self.smalls(10) { try writer.append(element) }
        }
        try handle.close()
        let back = Collect.sync(StreamingJSONDecoder().elements(of: Small.self, contentsOf: url, format: .jsonLines))
        #expect(back.errors.isEmpty)
        #expect(back.elements == Self.smalls(10))
    }

    @Test func elementThatFailsToEncodeWritesNothing() throws {
        let good = Self.readings
        let bad = Reading(name: "bad", value: .nan, when: nil)
        for format in [JSONStreamFormat.array, .jsonLines] {
            for pretty in [false, true] {
                let encoder = StreamingJSONEncoder()
                encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys] : .sortedKeys
                let directory = try Self.directory()
                defer { try? FileManager.default.removeItem(at: directory) }
                let url = directory.appendingPathComponent("nan.json")
                let writer = try JSONStreamWriter<Reading>(toFileAt: url, format: format, encoder: encoder)
                var errors: [any Error] = []
                // A bad element first (before any comma), between good ones, and last.
                for element in [bad, good[0], bad, bad, good[1], good[2], bad] {
                    do { try writer.append(element) } catch { errors.append(error) }
                }
                try writer.finish()
                #expect(errors.count == 4)
                #expect(errors.allSatisfy { $0 is EncodingError }, "\(errors)")
                let text = Enc.text(try Data(contentsOf: url))
                let expected = format == .jsonLines
                    ? try Self.foundationLines(good)
                    : try Self.foundationArray(good, pretty ? [.prettyPrinted, .sortedKeys] : .sortedKeys)
                #expect(text == expected, "\(format) pretty=\(pretty)")
            }
        }
    }

    @Test func targetInMissingDirectoryThrows() {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("StreamWriterTests-missing-\(UUID().uuidString)/out.json")
        #expect(throws: (any Error).self) {
            let writer = try JSONStreamWriter<Int>(toFileAt: url)
            try writer.append(1)
            try writer.finish()
        }
    }

    // MARK: Pipes and encode(_:to:)

    /// Writes on one thread and reads the pipe to its end on another.
    static func throughPipe(_ write: @escaping @Sendable (FileHandle) throws -> Void) async throws -> Data {
        let pipe = Pipe()
        let reading = Unchecked(value: pipe.fileHandleForReading)
        let writing = Unchecked(value: pipe.fileHandleForWriting)
        async let received = offThePool { reading.value.readDataToEndOfFile() }
        do {
            try await offThePool {
                defer { try? writing.value.close() }
                try write(writing.value)
            }
        } catch {
            _ = try await received
            throw error
        }
        return try await received
    }

    /// `flush()` writes what is buffered now; the writer goes on after it.
    @Test func flushWritesTheBufferedElementsNow() throws {
        let pipe = Pipe()
        let writer = try JSONStreamWriter<Int>(to: pipe.fileHandleForWriting, format: .jsonLines)
        try writer.append(1)
        try writer.append(2)
        try writer.flush()
        // Small and flushed: in the pipe before finish(), readable without blocking.
        let flushed = pipe.fileHandleForReading.availableData
        #expect(String(decoding: flushed, as: UTF8.self) == "1\n2\n")
        try writer.append(3)
        try writer.finish()
        try pipe.fileHandleForWriting.close()
        #expect(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "3\n")
        #expect(throws: EncodingError.self) { try writer.flush() }
    }

    @Test func encodeToHandleWritesTheSameBytes() async throws {
        let records = RecordsFixture.make(count: 300, seed: 0xB17E5).records  // well past a pipe's 64 KiB buffer
        for formatting in [[], [.prettyPrinted, .sortedKeys]] as [StreamingJSONEncoder.OutputFormatting] {
            let encoder = StreamingJSONEncoder()
            encoder.outputFormatting = formatting
            encoder.dateEncodingStrategy = .iso8601
            let expected = try encoder.encode(records)
            #expect(expected.count > 100_000)
            let shared = Unchecked(value: (encoder, records))
            let piped = try await Self.throughPipe { handle in try shared.value.0.encode(shared.value.1, to: handle) }
            #expect(piped == expected, "pipe, \(formatting.rawValue)")

            let url = Enc.temporaryURL("StreamWriterTests-encode")
            defer { try? FileManager.default.removeItem(at: url) }
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            let handle = try FileHandle(forWritingTo: url)
            try encoder.encode(records, to: handle)
            try encoder.encode("tail", to: handle)  // writes continue at the handle's position
            try handle.close()
            #expect(try Data(contentsOf: url) == expected + Data(#""tail""#.utf8), "file, \(formatting.rawValue)")
        }
        // An encoding error leaves the handle untouched.
        let url = Enc.temporaryURL("StreamWriterTests-encode-error")
        defer { try? FileManager.default.removeItem(at: url) }
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode([1, Double.nan], to: handle) }
        try handle.close()
        #expect(try Data(contentsOf: url).isEmpty)
    }

    @Test func writerThroughPipeIsReadAsItArrives() async throws {
        let piped = try await Self.throughPipe { handle in
            let writer = try JSONStreamWriter<Small>(to: handle, format: .jsonLines)
            for element in StreamWriterTests.smalls(30_000) { try writer.append(element) }
            try writer.finish()
        }
        #expect(Enc.text(piped) == (try Self.smalls(30_000).map { try Enc.ours($0) + "\n" }.joined()))
    }

    static func isBrokenPipe(_ error: (any Error)?) -> Bool {
        guard let error = error as? POSIXError else { return false }
        return error.code == .EPIPE
    }

    @Test func writingIntoAClosedPipeThrows() throws {
        signal(SIGPIPE, SIG_IGN)
        for format in [JSONStreamFormat.array, .jsonLines] {
            let pipe = Pipe()
            try pipe.fileHandleForReading.close()
            var thrown: (any Error)?
            var writer: JSONStreamWriter<Small>?
            do {
                writer = try JSONStreamWriter<Small>(to: pipe.fileHandleForWriting, format: format)
                for element in Self.smalls(100_000) { try writer!.append(element) }
                try writer!.finish()
            } catch {
                thrown = error
            }
            #expect(Self.isBrokenPipe(thrown), "\(format): \(String(describing: thrown))")
            if let writer {
                // Later calls report the failure again instead of writing.
                #expect(throws: (any Error).self) { try writer.append(Small(id: 0, tag: "")) }
                #expect(throws: (any Error).self) { try writer.finish() }
            }
            writer = nil  // dropping a failed writer must not crash either
            try pipe.fileHandleForWriting.close()
        }
        // encode(_:to:) as well.
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        var thrown: (any Error)?
        do { try StreamingJSONEncoder().encode(Self.smalls(10), to: pipe.fileHandleForWriting) } catch { thrown = error }
        #expect(Self.isBrokenPipe(thrown), "\(String(describing: thrown))")
        try pipe.fileHandleForWriting.close()
    }
}
