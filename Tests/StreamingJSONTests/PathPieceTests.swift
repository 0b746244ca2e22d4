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

    @Test("A byte-order mark before the document: still cut, the mark left to the first piece's parser")
    func byteOrderMark() throws {
        let text = "\u{FEFF}" + #"{"items": ["# + (0..<200).map(String.init).joined(separator: ", ") + "]}"
        let splitter = _PieceSplitter(data: Data(text.utf8), format: .auto, path: ["items"], pieceSize: 64)
        #expect(try splitter.prepare())
        var pieces = 0
        while try splitter.next() != nil { pieces += 1 }
        #expect(pieces > 5)
        let expected = Self.outcomes(Data(text.utf8), path: ["items"], threads: 1, pieceSize: 64)
        #expect(expected.count == 200)
        #expect(Self.outcomes(Data(text.utf8), path: ["items"], threads: 2, pieceSize: 64) == expected)
    }

    @Test("JSON escapes in the frame are as short as JSON allows")
    func opening() {
        #expect(_PathLocator.opening([]) == Array("[".utf8))
        #expect(_PathLocator.opening(["a", "b\"\n\u{1}é"]) == Array(#"{"a":{"b\"\n\u0001é":["#.utf8))
    }

    // MARK: - Random documents

    /// What iterating a stream gave: each element, or each error's text.
    enum Outcome: Equatable {
        case value(JSONValue)
        case error(String)
    }

    /// Any element, noting the thread that decoded it.
    struct Element: Decodable, Sendable {
        let value: JSONValue

        init(from decoder: any Decoder) throws {
            (decoder.userInfo[DecodeAheadTests.ThreadLog.key] as? DecodeAheadTests.ThreadLog)?.note()
            value = try JSONValue(from: decoder)
        }
    }

    static func outcomes(_ data: Data, path: [String], threads: Int, pieceSize: Int,
                         log: DecodeAheadTests.ThreadLog? = nil, comments: Bool = false) -> [Outcome] {
        let decoder = StreamingJSONDecoder()
        decoder.maxThreads = threads
        decoder.pieceSize = pieceSize
        decoder.allowsComments = comments
        if let log { decoder.userInfo[DecodeAheadTests.ThreadLog.key] = log }
        var iterator = decoder.elements(of: Element.self, from: data, at: path).makeIterator()
        var outcomes: [Outcome] = []
        while outcomes.count < 10_000 {
            do {
                guard let element = try iterator.next() else { break }
                outcomes.append(.value(element.value))
            } catch {
                outcomes.append(.error(String(describing: error)))
            }
        }
        return outcomes
    }

    /// A random JSON value: strings with brackets, commas, quotes and
    /// escapes, nested containers, numbers, literals; whitespace between
    /// tokens.
    static func randomValue(_ rng: inout XorShift, depth: Int = 0) -> String {
        let space = [" ", "", "\n", "  ", "\t"]
        func gap() -> String { rng.chance(70) ? "" : space[rng.below(space.count)] }
        switch rng.below(depth > 3 ? 4 : 7) {
        case 0: return ["0", "-1.5e3", "123456789012345678901234", "2"][rng.below(4)]
        case 1: return ["true", "false", "null"][rng.below(3)]
        case 2, 3:
            let strings = [#""a""#, #""[,]""#, #""}{\"""#, #""\\""#, #""\u00e9\n""#, #""é, ]""#, #""""#]
            return strings[rng.below(strings.count)]
        case 4, 5:
            let members = (0..<rng.below(4)).map { index in
                gap() + "\"k\(index)\"" + gap() + ":" + gap() + randomValue(&rng, depth: depth + 1) + gap()
            }
            return "{" + members.joined(separator: ",") + "}"
        default:
            let elements = (0..<rng.below(4)).map { _ in gap() + randomValue(&rng, depth: depth + 1) + gap() }
            return "[" + elements.joined(separator: ",") + "]"
        }
    }

    /// A document with the array at `path`, other members around it, and
    /// now and then a decoy (the key at another depth, a scalar first) or
    /// damage (cut short, a byte replaced); `intact` when it has neither.
    static func randomDocument(_ rng: inout XorShift, path: [String]) -> (text: String, intact: Bool) {
        let count = rng.below(60)
        var intact = true
        var text = "[" + (0..<count).map { _ in (rng.chance(20) ? "\n " : "") + randomValue(&rng) }
            .joined(separator: ",") + "]"
        for (level, key) in path.enumerated().reversed() {
            var members = [#""\#(key)": \#(text)"#]
            for _ in 0..<rng.below(3) {
                let decoy = rng.chance(15)
                intact = intact && !decoy
                let other = decoy ? #""\#(path[0])""# : #""m\#(level)_\#(rng.below(9))""#
                members.insert(other + ": " + randomValue(&rng), at: rng.below(members.count + 1))
            }
            text = "{" + members.joined(separator: rng.chance(50) ? ",\n" : ",") + "}"
        }
        var bytes = Array(text.utf8)
        if rng.chance(15) {
            bytes.removeLast(rng.below(bytes.count))
            intact = false
        } else if rng.chance(15) {
            let damage = Array("],}{[x\"".utf8)
            bytes[rng.below(bytes.count)] = damage[rng.below(damage.count)]
            intact = false
        }
        return (String(decoding: bytes, as: UTF8.self), intact)
    }

    /// The elements of the array at `path` in `data`, read whole.
    static func elements(of data: Data, at path: [String]) throws -> [JSONValue] {
        let decoder = StreamingJSONDecoder()
        var value = try decoder.decode(JSONValue.self, from: data)
        for key in path {
            guard case .object(let members) = value, let member = members[key] else { return [] }
            value = member
        }
        guard case .array(let elements) = value else { return [] }
        return elements
    }

    /// Every piece of `data` (and the rest, if the splitter gave up) read
    /// whole as a document: their elements at `path`, joined.
    static func piecesElements(of data: Data, at path: [String], pieceSize: Int) throws -> [JSONValue] {
        let splitter = _PieceSplitter(data: data, format: .auto, path: path, pieceSize: pieceSize)
        guard try splitter.prepare() else { return try elements(of: data, at: path) }
        var joined: [JSONValue] = []
        while let piece = try splitter.next() {
            joined += try elements(of: piece.bytes, at: path)
        }
        if splitter.gaveUp { joined += try elements(of: readAll(splitter.rest(from: []).source), at: path) }
        return joined
    }

    @Test("Random documents, decoys and damage: pieces at a path give what one stream gives")
    func randomDocuments() throws {
        var rng = XorShift(seed: 0x9A7_4)
        let paths = [["items"], ["a", "items"], ["x", "y", "z"]]
        var intactCount = 0
        for round in 0..<300 {
            let path = paths[round % paths.count]
            let (text, intact) = Self.randomDocument(&rng, path: path)
            let data = Data(text.utf8)
            let expected = Self.outcomes(data, path: path, threads: 1, pieceSize: 1)
            for pieceSize in [1, 5, 23, 200] {
                let got = Self.outcomes(data, path: path, threads: 2 + round % 2, pieceSize: pieceSize)
                #expect(got == expected, "round \(round), pieces of \(pieceSize): \(text)")
                // Each piece of an intact document is a document of its own,
                // and together they hold the array's elements.
                if intact {
                    let whole = try Self.elements(of: data, at: path)
                    #expect(try Self.piecesElements(of: data, at: path, pieceSize: pieceSize) == whole,
                            "round \(round), pieces of \(pieceSize): \(text)")
                    intactCount += 1
                }
                if got != expected { return }
            }
        }
        #expect(intactCount > 500)
    }

    @Test("With comments allowed, the input is not cut: a comment may hide a comma")
    func commentsKeepOneStream() {
        let elements = (0..<300).map { "{\"id\": \($0)} /* a, b */" }.joined(separator: ",\n")
        let data = Data((#"{"items": ["# + elements + "]}").utf8)
        for comments in [false, true] {
            let log = DecodeAheadTests.ThreadLog()
            let outcomes = Self.outcomes(data, path: ["items"], threads: 2, pieceSize: 500, log: log, comments: comments)
            // Without comments allowed: each element, then an error for the
            // comment after it (damage between elements: the next one follows).
            #expect(outcomes.count == (comments ? 300 : 600))
            #expect(comments ? log.elsewhere == 0 : true)
        }
        let plain = Data((#"{"items": ["# + (0..<300).map { "{\"id\": \($0)}" }.joined(separator: ",") + "]}").utf8)
        let log = DecodeAheadTests.ThreadLog()
        #expect(Self.outcomes(plain, path: ["items"], threads: 2, pieceSize: 500, log: log, comments: true).count == 300)
        #expect(log.elsewhere == 0)
        let cut = DecodeAheadTests.ThreadLog()
        #expect(Self.outcomes(plain, path: ["items"], threads: 2, pieceSize: 500, log: cut).count == 300)
        #expect(cut.elsewhere > 0)
    }
}
