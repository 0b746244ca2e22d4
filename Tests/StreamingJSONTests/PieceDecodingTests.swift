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

    static func outcomes(_ data: Data, format: JSONStreamFormat = .auto, threads: Int, pieceSize: Int? = nil,
                         log: DecodeAheadTests.ThreadLog? = nil) throws -> [Outcome] {
        try DecodeAheadTests.outcomes(data, share: nil, pipelined: false, format: format, log: log,
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
