// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// Cutting the array at a key path: the pieces are framed with the path's
/// objects (see `_PieceSplitter.swift`), and the scan stops at its end.
@Suite struct PathPieceTests {
    @Test("The pieces of an array at a path are framed with the path, and rejoin as the input")
    func framing() throws {
        let text = #"{"m": {"a": 1, "b": [2, 3]}, "items": [10, {"x": [1, 2]}, "s,]", 40, 50], "z": {"c": 1, "d": 2}}"#
        for size in 1...30 {
            let splitter = _PieceSplitter(data: Data(text.utf8), format: .auto, path: ["items"], pieceSize: size)
            #expect(try splitter.prepare())
            var texts: [(bytes: Data, origin: _InputOrigin)] = []
            while let piece = try splitter.next() {
                let body = String(decoding: piece.bytes, as: UTF8.self)
                #expect(piece.path == ["items"] && piece.mode == .array)
                #expect(piece.sequence == 0 || body.hasPrefix(#"{"items":["#), "\(body)")
                #expect(piece.isLast || body.hasSuffix("]}"), "\(body)")
                texts.append((piece.bytes, piece.origin))
            }
            // With small pieces the tail is too long to wait for: the rest
            // is one stream, framed as a piece is.
            #expect(splitter.gaveUp == (size < 10))
            if splitter.gaveUp {
                let (source, mode, origin) = splitter.rest(from: [])
                #expect(mode == .array)
                texts.append((try Self.readAll(source), origin))
            }
            #expect(texts.count > 1)
            var elements: [String] = []
            for (index, (bytes, origin)) in texts.enumerated() {
                let object = try #require(JSONSerialization.jsonObject(with: bytes) as? [String: Any])
                let items = try #require(object["items"] as? [Any])
                elements += try items.map {
                    String(decoding: try JSONSerialization.data(withJSONObject: $0, options: .fragmentsAllowed),
                           as: UTF8.self)
                }
                // The frame stands before the comma the piece starts at.
                if index > 0 {
                    let comma = Int(origin.byteOffset) + #"{"items":"#.utf8.count
                    #expect(Array(text.utf8)[comma] == UInt8(ascii: ","))
                }
            }
            #expect(elements == ["10", #"{"x":[1,2]}"#, #""s,]""#, "40", "50"])
        }
    }

    static func readAll(_ source: any _ByteSource) throws -> Data {
        var source = source
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 7)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            guard count > 0 else { return data }
            data.append(contentsOf: buffer[..<count])
        }
    }

    @Test("The path's array is found only the first way down the path, as an array")
    func notCut() throws {
        let long = "[" + (0..<500).map(String.init).joined(separator: ",") + "]"
        for text in [long, #"{"items": {"a": "# + long + "}}", #"{"x": 1}"#, #"{"items": 1, "items": "# + long + "}",
                     #"{"a": {"items": "# + long + "}}", #"{"items" "# + long + "}"] {
            let splitter = _PieceSplitter(data: Data(text.utf8), format: .auto, path: ["items"], pieceSize: 16)
            #expect(try !splitter.prepare(), "\(text)")
        }
    }

    @Test("JSON escapes in the frame are as short as JSON allows")
    func opening() {
        #expect(_PathLocator.opening([]) == Array("[".utf8))
        #expect(_PathLocator.opening(["a", "b\"\n\u{1}é"]) == Array(#"{"a":{"b\"\n\u0001é":["#.utf8))
    }
}
