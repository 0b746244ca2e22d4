// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// Pieces of a plan are exact: for any ranges, their elements joined in
/// order are the whole file's, with the same errors; and a worker reads only
/// its range, the element straddling its end and (scanning) its range again.
@Suite("Pieces of a plan", .onItsOwnThread)
struct JSONPieceTests {
    // MARK: Inputs

    /// A string full of what fools a scan that guesses: `},{`, `[`, `\"`,
    /// `\\` and commas, in runs.
    static func trickyString(_ random: inout XorShift) -> String {
        let parts = [#"},{"#, "[", #"\""#, #"\\"#, ",", "]", "{", #"\\\""#, " ", "\\n", "é", "x"]
        var text = "\""
        for _ in 0..<random.below(40) {
            let part = parts[random.below(parts.count)]
            text += String(repeating: part, count: 1 + random.below(6))
        }
        return text + "\""
    }

    static func value(_ random: inout XorShift, depth: Int = 0, huge: Bool = false) -> String {
        let kind = depth > 2 ? random.below(3) : random.below(6)
        switch kind {
        case 0: return trickyString(&random)
        case 1: return ["-12.5e3", "0", "123456789012345678901234567890", "1.0", "-0.25"][random.below(5)]
        case 2: return ["true", "false", "null"][random.below(3)]
        case 3:
            let count = huge ? 400 : random.below(5)
            return "[" + (0..<count).map { _ in value(&random, depth: depth + 1) }.joined(separator: ",") + "]"
        default:
            let count = huge ? 400 : random.below(5)
            return "{" + (0..<count).map { index in
                "\(trickyString(&random).dropLast())\(index)\":\(value(&random, depth: depth + 1))"
            }.joined(separator: ",") + "}"
        }
    }

    enum Shape: CaseIterable {
        case array, pretty, keyPath, lines, keyPathObject, rootObject

        /// The format the whole file and the plan are read in.
        var format: JSONStreamFormat { self == .rootObject || self == .keyPathObject ? .objectValues : .auto }
    }

    /// An input of `shape` with about `count` elements, a few of them huge.
    static func input(_ shape: Shape, count: Int, random: inout XorShift) -> (text: String, path: [String]) {
        let elements = (0..<count).map { _ in value(&random, huge: random.chance(3)) }
        switch shape {
        case .array: return ("[" + elements.joined(separator: ",") + "]", [])
        case .pretty: return ("\n[\n  " + elements.joined(separator: ",\n  ") + "\n]\n", [])
        case .keyPath:
            let meta = #"{"meta": {"items": [1, 2], "s": "]\"[,"}, "#
            return (meta + #""items": ["# + elements.joined(separator: ", ") + #"], "after": [3, {"items": 4}]}"#,
                    ["items"])
        case .lines: return (elements.map { #"{"v":\#($0)}"# }.joined(separator: "\n") + "\n", [])
        case .keyPathObject, .rootObject:
            let members = elements.enumerated().map { #""k\#($0.offset)\",{":\#($0.element)"# }.joined(separator: ", ")
            return shape == .rootObject ? ("{" + members + "}", [])
                : (#"{"meta": {"items": {"a": 1}}, "items": {"# + members + #"}, "after": {"items": 4}}"#, ["items"])
        }
    }

    // MARK: Reading

    /// Every element of the whole file, or of each piece in turn, as text.
    static func readWhole(_ url: URL, path: [String], format: JSONStreamFormat = .auto) -> [String] {
        collect(StreamingJSONDecoder().elements(of: JSONValue.self, contentsOf: url, at: path, format: format))
    }

    static func collect(_ elements: JSONElements<JSONValue>) -> [String] {
        var iterator = elements.makeIterator()
        var out: [String] = []
        while true {
            do {
                guard let value = try iterator.next() else { return out }
                out.append(String(decoding: try StreamingJSONEncoder().encode(value), as: UTF8.self))
            } catch {
                out.append("error: \(error)")
                guard case .dataCorrupted(let context) = error as? DecodingError else { return out }
                if (context.underlyingError as? JSONSyntaxError)?.endsStream == true { return out }
            }
        }
    }

    /// A plan with ranges ending at `ends`, scanned and joined.
    static func plan(_ url: URL, ends: [Int], path: [String], format: JSONStreamFormat = .auto) throws
        -> [JSONPiece] {
        let file = try _PieceFile(url: url)
        let plan = try StreamingJSONDecoder().planPieces(ending: ends, of: file, at: path, format: format)
        return try JSONPiece.joined(plan.shuffled().map { try $0.scanned(contentsOf: url) })
    }

    /// `count` ranges' ends, the last `size`; with `text`, half of them
    /// just before or after a quote, a backslash or a bracket (inside the
    /// strings that fool a guess, more often than not).
    static func randomEnds(size: Int, count: Int, in text: String? = nil, random: inout XorShift) -> [Int] {
        let bytes = Array((text ?? "").utf8)
        let tricky = bytes.indices.filter { [UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "}"),
                                             UInt8(ascii: "[")].contains(bytes[$0]) }
        var ends = Set<Int>()
        while ends.count < count - 1 && ends.count < size - 1 {
            if !tricky.isEmpty && random.chance(50) {
                let end = tricky[random.below(tricky.count)] + random.below(2)
                if end > 0 && end < size { ends.insert(end) }
            } else {
                ends.insert(1 + random.below(max(1, size - 1)))
            }
        }
        return ends.sorted() + [size]
    }

    // MARK: Exactness

    @Test("Joined pieces equal the whole run, for random ranges", arguments: Shape.allCases)
    func piecesEqualTheWhole(_ shape: Shape) throws {
        let directory = try TemporaryDirectory()
        var random = XorShift(seed: 0x5EED_0045 &+ UInt64(Shape.allCases.firstIndex(of: shape)!))
        for round in 0..<12 {
            let (text, path) = Self.input(shape, count: 1 + random.below(40), random: &random)
            let url = URL(fileURLWithPath: try directory.file("in-\(round).json", text))
            let whole = Self.readWhole(url, path: path, format: shape.format)
            #expect(!whole.contains { $0.hasPrefix("error") }, "\(whole.filter { $0.hasPrefix("error") })")
            for _ in 0..<6 {
                let size = text.utf8.count
                let ends = Self.randomEnds(size: size, count: 1 + random.below(64), in: text, random: &random)
                let pieces = try Self.plan(url, ends: ends, path: path, format: shape.format)
                #expect(pieces[0].wholeInputReason == nil)
                var joined: [String] = []
                for piece in pieces {
                    joined += Self.collect(StreamingJSONDecoder().elements(of: JSONValue.self, contentsOf: url,
                                                                           piece: piece, format: shape.format))
                }
                #expect(joined == whole, "ranges ending at \(ends) of \(size) bytes")
            }
        }
    }

    @Test("pieces(count:) plans, scans on every core and joins: the steps done apart give the same pieces")
    func onOneMachine() throws {
        let directory = try TemporaryDirectory()
        var random = XorShift(seed: 8)
        let (text, path) = Self.input(.keyPath, count: 200, random: &random)
        let url = URL(fileURLWithPath: try directory.file("one-machine.json", text))
        let decoder = StreamingJSONDecoder()
        let pieces = try decoder.pieces(count: 8, ofContentsOf: url, at: path)
        let apart = try JSONPiece.joined(try decoder.planPieces(count: 8, ofContentsOf: url, at: path).map {
            try $0.scanned(contentsOf: url)
        })
        #expect(pieces == apart && pieces.allSatisfy { $0.isReady && $0.isScanned })
        let joined = pieces.flatMap {
            Self.collect(decoder.elements(of: JSONValue.self, contentsOf: url, piece: $0))
        }
        #expect(joined == Self.readWhole(url, path: path))
    }

    @Test("Splits at every offset of a short array, inside strings and numbers")
    func everyOffset() throws {
        let directory = try TemporaryDirectory()
        let text = #"[{"a":"},{\"[,\\","b":[1,{"c":"]"}]},-12.5e3,"\\\\\"",{"d":"x,y"},[],{}]"#
        let url = URL(fileURLWithPath: try directory.file("short.json", text))
        let whole = Self.readWhole(url, path: [])
        for cut in 1..<text.utf8.count {
            for second in [cut + 1, cut + 3, text.utf8.count] where second <= text.utf8.count && second > cut {
                let ends = second == text.utf8.count ? [cut, second] : [cut, second, text.utf8.count]
                var joined: [String] = []
                for piece in try Self.plan(url, ends: ends, path: []) {
                    joined += Self.collect(StreamingJSONDecoder().elements(of: JSONValue.self, contentsOf: url,
                                                                           piece: piece))
                }
                #expect(joined == whole, "ranges ending at \(ends)")
            }
        }
    }

    @Test("A piece holds the elements whose first byte lies in its range, whitespace or not before them",
          arguments: ["array", "pretty", "lines"])
    func elementsByFirstByte(_ layout: String) throws {
        let directory = try TemporaryDirectory()
        var random = XorShift(seed: 0xF1257)
        // Records with an id, and where each begins.
        var text = layout == "lines" ? "" : "[", starts: [Int] = []
        for id in 0..<300 {
            if id > 0 { text += layout == "lines" ? "\n" + String(repeating: "\n", count: random.below(2)) : "," }
            if layout == "pretty" { text += "\n" + String(repeating: " ", count: random.below(4)) }
            starts.append(text.utf8.count)
            text += #"{"id":\#(id),"s":"},{\"[,"}"#
        }
        text += layout == "lines" ? "\n" : "\n]"
        let url = URL(fileURLWithPath: try directory.file("ids.json", text))
        // Range ends just before, at and just after each kind of place around an element's start.
        let candidates = starts.flatMap { [$0 - 2, $0 - 1, $0, $0 + 1] }.filter { $0 > 0 && $0 < text.utf8.count }
        for _ in 0..<20 {
            var ends = Set<Int>()
            while ends.count < 12 { ends.insert(candidates[random.below(candidates.count)]) }
            let pieces = try Self.plan(url, ends: ends.sorted() + [text.utf8.count], path: [])
            var seen: [Int] = []
            for piece in pieces {
                var iterator = StreamingJSONDecoder().elements(of: JSONValue.self, contentsOf: url, piece: piece)
                    .makeIterator()
                while let element = try iterator.next() {
                    guard case .object(let object) = element, case .number(let id)? = object["id"],
                          let index = id.int else { continue }
                    seen.append(index)
                    #expect(piece.byteRange.contains(starts[index]),
                            "\(layout): element \(index) begins at \(starts[index]), read by \(piece)")
                }
            }
            #expect(seen == Array(0..<300))
        }
    }

    // MARK: Errors

    @Test("A syntax error in a piece keeps its line, column, byte and element index")
    func syntaxErrorPlace() throws {
        let directory = try TemporaryDirectory()
        let elements = (0..<50).map { #"{"id":\#($0),"s":"a,b"}"# }
        var text = "[\n" + elements.joined(separator: ",\n") + "\n]\n"
        text = text.replacingOccurrences(of: #"{"id":37,"#, with: #"{"id":37x,"#)
        let url = URL(fileURLWithPath: try directory.file("bad.json", text))
        let whole = try #require(Self.readWhole(url, path: []).first { $0.hasPrefix("error") })
        let pieces = try Self.plan(url, ends: [100, 500, 700, text.utf8.count], path: [])
        let errors = pieces.flatMap {
            Self.collect(StreamingJSONDecoder().elements(of: JSONValue.self, contentsOf: url, piece: $0))
        }.filter { $0.hasPrefix("error") }
        #expect(errors == [whole])
        #expect(whole.contains("line 39") && whole.contains("37"), "\(whole)")
    }

    @Test("A compressed file is one piece, read whole")
    func compressedIsWhole() throws {
        let directory = try TemporaryDirectory()
        let url = URL(fileURLWithPath: try directory.file("in.json", "[1,2,3]"))
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-k", url.path]
        try gzip.run()
        gzip.waitUntilExit()
        let gz = URL(fileURLWithPath: url.path + ".gz")
        let pieces = try StreamingJSONDecoder().planPieces(count: 3, ofContentsOf: gz)
        #expect(pieces.allSatisfy { $0.isReady })
        #expect(pieces[0].wholeInputReason?.contains("gzip") == true)
        let values = pieces.map {
            Self.collect(StreamingJSONDecoder().elements(of: JSONValue.self, contentsOf: gz, piece: $0))
        }
        #expect(values == [["1", "2", "3"], [], []])
    }

    @Test("Pieces not joined, or of another plan, are refused")
    func refusals() throws {
        let directory = try TemporaryDirectory()
        let url = URL(fileURLWithPath: try directory.file("in.json", "[1,2,3,4,5,6]"))
        let plan = try StreamingJSONDecoder().planPieces(count: 3, ofContentsOf: url)
        #expect(!plan[1].isReady)
        #expect(Self.collect(StreamingJSONDecoder().elements(of: JSONValue.self, contentsOf: url, piece: plan[1]))
                    .first?.contains("not ready") == true)
        let scanned = try plan.map { try $0.scanned(contentsOf: url) }
        #expect(throws: JSONPieceError.self) { try JSONPiece.joined(scanned.dropLast()) }
        #expect(throws: JSONPieceError.self) { try JSONPiece.joined(scanned + [scanned[0]]) }
        let pieces = try JSONPiece.joined(scanned)
        let encoded = try JSONEncoder().encode(pieces[2])
        #expect(try JSONDecoder().decode(JSONPiece.self, from: encoded) == pieces[2])
        try Data("[1,2,3,4,5,6,7]".utf8).write(to: url)
        #expect(Self.collect(StreamingJSONDecoder().elements(of: JSONValue.self, contentsOf: url, piece: pieces[2]))
                    .first?.contains("changed") == true)
    }

    // MARK: Reads

    @Test("A worker reads its range, the element straddling its end, and its range once more to scan")
    func readsStayInRange() throws {
        let directory = try TemporaryDirectory()
        var random = XorShift(seed: 45)
        for shape in Shape.allCases {
            let (text, path) = Self.input(shape, count: 300, random: &random)
            let url = URL(fileURLWithPath: try directory.file("reads-\(shape).json", text))
            let size = text.utf8.count
            let ends = Self.randomEnds(size: size, count: 16, random: &random)
            let file = try _PieceFile(url: url)
            let plan = try StreamingJSONDecoder().planPieces(ending: ends, of: file, at: path, format: shape.format)
            var scanned: [JSONPiece] = []
            for piece in plan {
                let scanFile = try _PieceFile(url: url)
                scanFile.recordsReads = true
                scanned.append(try piece.scanned(scanFile))
                // The scan reads its range once (an array's from after its bracket).
                let read = scanFile.reads.reduce(0) { $0 + $1.count }
                #expect(read == piece.talliedRange!.count)
                #expect(scanFile.reads.allSatisfy { piece.byteRange.contains($0.lowerBound) })
            }
            let pieces = try JSONPiece.joined(scanned)
            // Where each piece's elements end: the next piece's first delimiter.
            for piece in pieces {
                let opened = try piece.open(url, format: shape.format, recordsReads: true)
                var source = opened.source
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
                defer { buffer.deallocate() }
                while try source.read(into: buffer) > 0 {}
                guard let reads = opened.file?.reads, !reads.isEmpty else { continue }
                let lowest = reads.map(\.lowerBound).min()!, highest = reads.map(\.upperBound).max()!
                // A comma's neighbours are looked at (a few bytes either
                // side), and past the range's end reads are small.
                #expect(lowest >= piece.byteRange.lowerBound - 32, "\(shape) \(piece): read from \(lowest)")
                let straddleEnd = try Self.straddleEnd(after: piece, in: pieces, url: url, size: size)
                #expect(highest <= straddleEnd + _PieceSource.stepPastEnd, "\(shape) \(piece): read to \(highest), allowed \(straddleEnd)")
                let total = reads.reduce(0) { $0 + $1.count }
                #expect(total <= highest - lowest + 512,
                        "\(shape) \(piece): \(total) bytes read in \(reads.count) reads")
            }
        }
    }

    /// Where the element straddling `piece`'s end ends: the delimiter of
    /// the next piece that has one, or the file's end.
    static func straddleEnd(after piece: JSONPiece, in pieces: [JSONPiece], url: URL, size: Int) throws -> Int {
        for next in pieces[(piece.index + 1)...] {
            let opened = try next.open(url, format: .auto)
            guard opened.file != nil else { continue }
            let frame = _PathLocator.opening(next.path).count - 1
            return Int(opened.layout.origin.byteOffset) + frame
        }
        return size
    }
}
