// SPDX-License-Identifier: Apache-2.0
import Foundation
import StreamingJSON
import Testing

/// Compressed input recognised by its first bytes, through every source:
/// files (decompressed on their own thread), handles, bytes in memory and
/// pushed chunks. The fixtures in Tests/Fixtures/compressed hold the records
/// `expected` computes again (`generate.py` wrote them).
@Suite struct CompressedInputTests {
    struct Record: Codable, Equatable {
        var id: Int
        var name: String
        var score: Int
    }

    static let count = 3000

    /// What generate.py compressed.
    static let expected: [Record] = (0..<count).map { id in
        Record(id: id, name: "n" + String(UInt64(id) * 2654435761 % (1 << 32), radix: 16), score: id % 97)
    }

    static let files = ["records.json.gz", "records.json.zst", "records.json.bz2", "records.json.xz",
                        "records-two-members.json.gz"]

    static func url(_ name: String) -> URL {
        Engine.fixtures.appendingPathComponent("compressed").appendingPathComponent(name)
    }

    /// Compared here, not in `#expect`, which would print thousands of records.
    static func isExpected(_ records: [Record], prefix: Bool = false) -> Bool {
        prefix ? records.elementsEqual(expected.prefix(records.count)) : records == expected
    }

    /// Reads every element, then the error that ended the stream (nil: none).
    static func drain(_ elements: JSONElements<Record>) -> (records: [Record], error: (any Error)?) {
        var records: [Record] = []
        var iterator = elements.makeIterator()
        do {
            while let record = try iterator.next() { records.append(record) }
            return (records, nil)
        } catch {
            return (records, error)
        }
    }

    static func temporaryFile(_ data: Data, _ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("compressed-\(UUID().uuidString)-\(name)")
        try data.write(to: url)
        return url
    }

    @Test(arguments: files)
    func fileDecompresses(_ name: String) throws {
        let outcome = Self.drain(StreamingJSONDecoder().elements(of: Record.self, contentsOf: Self.url(name)))
        #expect(outcome.error == nil)
        #expect(Self.isExpected(outcome.records))
    }

    @Test(arguments: files)
    func handleDataAndDocumentDecompress(_ name: String) throws {
        let decoder = StreamingJSONDecoder()
        let handle = try FileHandle(forReadingFrom: Self.url(name))
        defer { try? handle.close() }
        let fromHandle = Self.drain(decoder.elements(of: Record.self, from: handle))
        #expect(fromHandle.error == nil)
        #expect(Self.isExpected(fromHandle.records))

        let data = try Data(contentsOf: Self.url(name))
        let fromData = Self.drain(decoder.elements(of: Record.self, from: data))
        #expect(Self.isExpected(fromData.records))
        #expect(Self.isExpected(try decoder.decode([Record].self, from: data)))
        #expect(Self.isExpected(try decoder.decode([Record].self, contentsOf: Self.url(name))))
    }

    @Test(arguments: files)
    func pushedChunksDecompress(_ name: String) async throws {
        let data = try Data(contentsOf: Self.url(name))
        let pieces = Chunks.random(data, seed: 7, maxSize: 700)
        let outcome = await Collect.async(
            StreamingJSONDecoder().elements(of: Record.self, from: Chunks.stream(pieces)), limit: Self.count + 1)
        #expect(outcome.errors.isEmpty, "\(outcome.errors)")
        #expect(Self.isExpected(outcome.elements))

        let feed = JSONElementFeed(of: Record.self)
        var fed: [Record] = []
        for piece in pieces { fed += try feed.feed(piece) }
        fed += try feed.finish()
        #expect(Self.isExpected(fed))
    }

    /// Cut short: the elements before the cut, then a truncation error (never
    /// a quietly shorter stream), wherever the cut falls.
    @Test(arguments: ["records.json.gz", "records.json.zst", "records.json.bz2", "records.json.xz"])
    func truncatedArchiveIsAnError(_ name: String) throws {
        let data = try Data(contentsOf: Self.url(name))
        for fraction in [0.3, 0.7, 0.99] {
            let cut = data.prefix(Int(Double(data.count) * fraction))
            let url = try Self.temporaryFile(cut, name)
            defer { try? FileManager.default.removeItem(at: url) }
            let outcome = Self.drain(StreamingJSONDecoder().elements(of: Record.self, contentsOf: url))
            #expect(Self.isExpected(outcome.records, prefix: true))
            #expect(outcome.records.count < Self.count)
            let error = try #require(outcome.error as? CompressedInputError, "\(String(describing: outcome.error))")
            #expect(error.kind == .truncated)
            let formats: [Substring: CompressedInputError.Format] = ["gz": .gzip, "zst": .zstd, "bz2": .bzip2, "xz": .xz]
            #expect(error.format == formats[name.split(separator: ".").last!])
            #expect(error.compressedOffset == cut.count)
            #expect("\(error)".hasPrefix("Truncated \(error.format) input"))
        }
    }

    /// gzip's trailer holds a CRC-32 of the text: a wrong one is found at the end.
    @Test func gzipChecksumMismatchIsCorrupt() throws {
        var data = try Data(contentsOf: Self.url("records.json.gz"))
        data[data.count - 8] ^= 0xFF
        let outcome = Self.drain(StreamingJSONDecoder().elements(of: Record.self, from: data))
        #expect(outcome.records.count == Self.count)
        let error = try #require(outcome.error as? CompressedInputError, "\(String(describing: outcome.error))")
        #expect(error.kind == .corrupt)
        #expect(error.reason == "incorrect data check")
    }

    /// A damaged byte anywhere in the deflate data: an error (a corrupt
    /// stream, its checksum, or the JSON it garbled), never a quiet end.
    @Test func damagedDeflateDataIsAnError() throws {
        let data = try Data(contentsOf: Self.url("records.json.gz"))
        for offset in stride(from: 20, to: data.count - 8, by: max(1, data.count / 37)) {
            var damaged = data
            damaged[offset] ^= 0x5A
            let outcome = Self.drain(StreamingJSONDecoder().elements(of: Record.self, from: damaged))
            #expect(outcome.error != nil, "damage at \(offset) went unnoticed")
            if let error = outcome.error as? CompressedInputError {
                #expect(error.format == .gzip)
                #expect(error.kind == .corrupt || error.kind == .truncated)
            }
        }
    }

    @Test func bytesAfterTheArchiveAreAnError() throws {
        var data = try Data(contentsOf: Self.url("records.json.gz"))
        data.append(contentsOf: Array("garbage".utf8))
        let outcome = Self.drain(StreamingJSONDecoder().elements(of: Record.self, from: data))
        let error = try #require(outcome.error as? CompressedInputError)
        #expect(error.kind == .trailingData)
        #expect(error.format == .gzip)
    }

    /// A syntax error inside a compressed text is placed in the text.
    @Test func syntaxErrorPositionsCountDecompressedBytes() throws {
        let text = Data("[{\"id\":1,\"name\":\"a\",\"score\":2},\n{\"id\":2,\"name\":\"b\",\"score\":x}]".utf8)
        let gzipped = try Self.gzip(text)
        let outcome = Self.drain(StreamingJSONDecoder().elements(of: Record.self, from: gzipped))
        #expect(outcome.records.count == 1)
        let error = try #require(outcome.error as? DecodingError)
        guard case .dataCorrupted(let context) = error,
              let syntax = context.underlyingError as? JSONSyntaxError else {
            Issue.record("not a syntax error: \(error)")
            return
        }
        #expect(syntax.line == 2)
        #expect(syntax.column == 28)
    }

    /// Text that merely starts with a signature's first byte is still JSON's to judge.
    @Test func notASignatureIsPassedThrough() throws {
        for text in ["B", "BZh", "(", "\u{1F}"] {
            #expect(throws: DecodingError.self) {
                try StreamingJSONDecoder().decode(Int.self, from: Data(text.utf8))
            }
        }
        #expect(try StreamingJSONDecoder().decode([Int].self, from: Data(" [1, 2]".utf8)) == [1, 2])
    }

    /// A gzip stream with one stored (uncompressed) deflate block: enough to
    /// compress test text without a compressor.
    static func gzip(_ text: Data) throws -> Data {
        precondition(text.count < 65_536)
        var out = Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF])
        let length = UInt16(text.count)
        out.append(contentsOf: [1, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)])
        out.append(text)
        let crc = crc32(text)
        for value in [crc, UInt32(text.count)] {
            out.append(contentsOf: (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
        }
        return out
    }

    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
