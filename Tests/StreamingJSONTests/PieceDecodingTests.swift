// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// `elements(of:)` of a `Sendable` type over a large input decodes pieces of
/// it on several threads (`_PieceDecoder.swift`). Whatever the pieces, the
/// caller sees what one thread gives: the same values, the same errors with
/// the same coding paths (element indexes counted across pieces) and
/// positions, in the same order.
@Suite struct PieceDecodingTests {
    typealias Outcome = DecodeAheadTests.Outcome

    static func outcomes(_ data: Data, format: JSONStreamFormat = .auto, path: [String] = [], threads: Int,
                         pieceSize: Int? = nil, log: DecodeAheadTests.ThreadLog? = nil) throws -> [Outcome] {
        try DecodeAheadTests.outcomes(data, share: nil, pipelined: false, format: format, path: path, log: log,
                                      threads: threads, pieceSize: pieceSize)
    }

    @Test("Arrays and JSON Lines with bad elements: the same outcomes in pieces", arguments: [false, true])
    func sameOutcomes(lines: Bool) throws {
        let data = DecodeAheadTests.items(3_000, lines: lines)
        let expected = try Self.outcomes(data, threads: 1)
        #expect(expected.count == 3_000)
        for (threads, pieceSize) in [(2, 4_096), (3, 50_000), (2, 100)] {
            #expect(try Self.outcomes(data, threads: threads, pieceSize: pieceSize) == expected,
                    "\(threads) threads, pieces of \(pieceSize) bytes")
        }
    }

    @Test("Without a bad element the pieces are decoded on the workers, the indexes counted on")
    func decodedOnWorkers() throws {
        var json = "["
        for index in 0..<4_000 {
            json += #"{"id": \#(index), "name": "n\#(index)", "tags": ["a,]\"", "b"], "inner": {"values": [1]}}"#
            json += index == 3_999 ? "]\n" : ",\n"
        }
        let data = Data(json.utf8)
        let log = DecodeAheadTests.ThreadLog()
        let outcomes = try Self.outcomes(data, threads: 2, pieceSize: 8_192, log: log)
        #expect(outcomes == (try Self.outcomes(data, threads: 1)))
        #expect(log.elsewhere == 4_000 && log.onCaller == 0)
        // A bad element near the end: its coding path counts the elements of every piece before.
        let bad = Data(json.replacingOccurrences(of: #""id": 3998,"#, with: #""id": "x","#).utf8)
        let badOutcomes = try Self.outcomes(bad, threads: 2, pieceSize: 8_192)
        guard case .error(let path, _) = badOutcomes[3_998] else {
            Issue.record("element 3998 decoded")
            return
        }
        #expect(path == ["Index 3998", "id"])
        #expect(badOutcomes == (try Self.outcomes(bad, threads: 1)))
    }

    @Test("Syntax errors and truncation: the elements before, then the same error", arguments: [
        #"{"id": 1, "name": "x", "tags": [], "inner": {"values": [1]}} ]"#,
        #"{"id": 1, "name": "x", "tags": [], "inner": {"values": [1,]}}"#,
        #"{"id": 1, "name": "x", "tags": [], "inner": {"values": [1]}"#,
    ])
    func syntaxErrors(tail: String) throws {
        let good = DecodeAheadTests.items(500)
        var text = String(decoding: good, as: UTF8.self)
        text.removeLast()  // the closing bracket
        let data = Data((text + "," + tail).utf8)
        let expected = try Self.outcomes(data, threads: 1)
        #expect(try Self.outcomes(data, threads: 2, pieceSize: 1_000) == expected)
    }

    @Test("The array at a key path, bad elements and syntax errors: the same outcomes in pieces", arguments: [
        "", #", "after": {"a": 1, "b": [2, 3]}"#, #", "after": {"a": 1,}"#, ", ",
    ])
    func keyPath(tail: String) throws {
        let array = String(decoding: DecodeAheadTests.items(3_000), as: UTF8.self)
        let text = #"{"meta": {"n": 1, "list": [1, 2]}, "data": {"x": true, "items": "# + array + "}" + tail + "}"
        let data = Data(text.utf8)
        let expected = try Self.outcomes(data, path: ["data", "items"], threads: 1)
        #expect(expected.count >= 3_000)
        #expect(try Self.outcomes(data, path: ["data", "items"], threads: 2, pieceSize: 4_096) == expected)
        #expect(try Self.outcomes(data, path: ["data", "items"], threads: 3, pieceSize: 100) == expected)
        // Without bad elements, the workers decode them (a piece with one is
        // read again by one stream, from that piece on).
        let clean = Data(text.replacingOccurrences(of: #"[1, "x"]"#, with: "[1, 1]")
            .replacingOccurrences(of: #",  "tags""#, with: #", "name": "", "tags""#).utf8)
        let log = DecodeAheadTests.ThreadLog()
        let outcomes = try Self.outcomes(clean, path: ["data", "items"], threads: 2, pieceSize: 4_096, log: log)
        #expect(outcomes == (try Self.outcomes(clean, path: ["data", "items"], threads: 1)))
        let malformed = tail.contains(",}") || tail == ", "
        #expect(outcomes.count == 3_000 + (malformed ? 1 : 0))
        #expect(log.elsewhere > 2_000)
    }

    @Test("A small input stays on the caller's thread; maxThreads is at least 1")
    func noPieces() throws {
        let data = DecodeAheadTests.items(200)
        let log = DecodeAheadTests.ThreadLog()
        let outcomes = try Self.outcomes(data, threads: 4, log: log)
        #expect(outcomes == (try Self.outcomes(data, threads: 1)))
        #expect(log.elsewhere == 0)
        let decoder = StreamingJSONDecoder()
        decoder.maxThreads = 0
        #expect(decoder.maxThreads == 1)
    }
}
