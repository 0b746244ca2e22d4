// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// `_PieceSplitter`: reading the pieces one after another, each with a fresh
/// `_ValueReader(piece:)` and element indexes counted on from the pieces
/// before (then, if the splitter gives up cutting, `readerForTheRest`),
/// gives exactly what one reader over the whole input gives — same values,
/// indexes, positions and errors. A syntax error in an array's element is
/// resumed from; the piece it is in and the rest are then read again as one
/// stream, as jsonstream does (a lost quote may have fooled the cuts after it). Inputs come from a seeded generator (the same cases on every run)
/// and are cut at piece sizes from 1 byte (a cut at nearly every element
/// boundary) to 1000. Each test also checks that its inputs were actually
/// cut, often, and (for malformed ones) that errors fell after a cut.
@Suite("Piece splitter", .onItsOwnThread)
struct PieceSplitterTests {
    static let pieceSizes = [1, 2, 3, 7, 16, 64, 1000]

    // MARK: 1. Root arrays

    @Test("Valid root arrays read in pieces give the sequential reader's values, indexes and positions")
    func validArrays() throws {
        let checker = try Checker()
        var generator = SplitterTextGenerator(seed: 0x5EED_0001, newlines: true)
        for round in 0..<160 {
            let elements = generator.elements(count: round % 8 == 0 ? 30 + generator.random.below(30)
                                                                     : 1 + generator.random.below(14))
            let text = round == 0 ? "[]" : round == 1 ? " [ \n ] " : generator.assembleArray(elements)
            checker.check(Array(text.utf8), formats: [.auto, .array], pieceSizes: Self.pieceSizes)
        }
        checker.expectOften(valid: true)
    }

    // MARK: 2. Malformed root arrays

    @Test("Malformed root arrays: the same first error (message, position, element index) and values before it")
    func malformedArrays() throws {
        let checker = try Checker()
        let fixed = ["[1,,2]", "[,1]", "[1,]", "[1 2]", "[1,2] x", "[1,2", "[1,2,\n", "[1,[2,3],4]]",
                     "[1,2],[3]", "[1,2]\n[3,4]", "\u{FEFF}[1,2]", "[1,\u{FEFF}2]", "[1\u{FEFF},2]", "[\"a\",\"b\" \"c\"]",
                     "[{\"a\":1},{\"b\":2,}]", "[{\"a\":1},{\"b\" 2}]", "[1,2,3,4,5,6,7,8,9,10,]", "[1,2,3,4,5,6,7,x]",
                     "[\"a,b\",\"c\\\",d\",\"e\\\\\",f]", "[1,2,3,4,5,6,7,8,9,10", "[[1,2],[3,4],[5,6]",
                     // A comma ending a broken literal or number, where a cut puts `]`.
                     "[tru,1]", "[1.,2]", "[-,2]", "[1e,2]", "[1,nul,2]"]
        for text in fixed {
            checker.check(Array(text.utf8), formats: [.auto, .array], pieceSizes: Self.pieceSizes)
        }
        var generator = SplitterTextGenerator(seed: 0x5EED_0002, newlines: true)
        for _ in 0..<300 {
            let elements = generator.elements(count: 2 + generator.random.below(12))
            let bytes = generator.malformedArray(elements)
            checker.check(bytes, formats: [.auto, .array], pieceSizes: Self.pieceSizes)
        }
        checker.expectOften(valid: false)
    }

    // MARK: 3. JSON Lines

    @Test("JSON Lines, valid and malformed lines, blank lines and CRLF: the same values and element errors")
    func jsonLines() throws {
        let checker = try Checker()
        let fixed = ["1\n{oops\n3\n", "{\"a\": [1\n2\n", "\"abc\n\"def\"\n", "}\n[1\n2\n", "1\r\n\r\n2\r\n",
                     "1\n\u{FEFF}2\n3\n", "\u{FEFF}1\n2\n", "tru\nnul\n[1]]\n{\"a\" 1}\n4", "{\"a\":1}}\n[1\n2\n3\n",
                     // A line the scan misjudges after a broken one; a piece starting with a
                     // rejected token; an unterminated string at the very end.
                     "]\n[\n\n", "123\n]", "123\n,2\n", "null\n\"", "1\n\"abc"]
        for text in fixed {
            checker.check(Array(text.utf8), formats: Self.linesFormats(text), pieceSizes: Self.pieceSizes)
        }
        var generator = SplitterTextGenerator(seed: 0x5EED_0003, newlines: false)
        for _ in 0..<260 {
            let text = generator.jsonLines(count: 1 + generator.random.below(16))
            checker.check(Array(text.utf8), formats: Self.linesFormats(text), pieceSizes: Self.pieceSizes)
        }
        checker.expectOften(valid: false)
        #expect(checker.elementErrors > 200, "few element errors: \(checker.elementErrors)")
    }

    /// `.jsonLines`, and `.auto` too when the first value is not an array.
    static func linesFormats(_ text: String) -> [JSONStreamFormat] {
        let first = text.unicodeScalars.first { $0 != "\u{FEFF}" && !" \t\r\n".unicodeScalars.contains($0) }
        return first == "[" ? [.jsonLines] : [.jsonLines, .auto]
    }

    // MARK: 4. Values spanning lines

    /// Piece sizes of 64 and more, values under 200 bytes: the splitter's
    /// documented limit for values spanning lines (it gives up after
    /// `patience` pieces' worth of bytes without a cut).
    @Test("Concatenated pretty-printed values spanning lines (valid, under 200 bytes) at piece sizes of 64 and more")
    func multiLineValues() throws {
        let checker = try Checker()
        var generator = SplitterTextGenerator(seed: 0x5EED_0004, newlines: true)
        for _ in 0..<400 {
            var text = generator.random.oneIn(4) ? generator.space() : ""
            for index in 0..<(4 + generator.random.below(40)) {
                if index > 0 { text += generator.random.pick(["\n", "\n\n", "\r\n", " \n ", "\n\t", " "]) }
                var value = generator.value(depth: 0)
                while value.utf8.count >= 200 { value = generator.value(depth: 2) }
                text += value
            }
            if generator.random.oneIn(2) { text += "\n" }
            checker.check(Array(text.utf8), formats: [.jsonLines], pieceSizes: [64, 100, 1000])
        }
        checker.expectOften(valid: true)
    }

    // MARK: 5. Inputs that cannot be cut

    @Test("prepare() is false for no value at all, and for .array with a root other than an array")
    func cannotCut() throws {
        for text in ["", "   ", " \n\t\r\n ", "\u{FEFF}", "\u{FEFF} \n"] {
            for format in [JSONStreamFormat.auto, .array, .jsonLines] {
                let splitter = _PieceSplitter(data: Data(text.utf8), format: format, pieceSize: 1)
                #expect(try !splitter.prepare(), "\(format) \(text.debugDescription)")
            }
        }
        for text in [#"{"a":1}"#, #" {"a":[1,2]}"#, "\n1", #""x""#, "\u{FEFF}{}"] {
            let splitter = _PieceSplitter(data: Data(text.utf8), format: .array, pieceSize: 1)
            #expect(try !splitter.prepare(), "\(text.debugDescription)")
        }
        let values = _PieceSplitter(data: Data("[1,2]".utf8), format: .objectValues, pieceSize: 1)
        #expect(try !values.prepare())
        // And true where there is something to cut.
        for (text, format) in [("[1]", JSONStreamFormat.array), (#"{"a":1}"#, .jsonLines), ("\u{FEFF} [1,2]", .auto),
                               ("1", .auto), ("[x", .array)] {
            let splitter = _PieceSplitter(data: Data(text.utf8), format: format, pieceSize: 1)
            #expect(try splitter.prepare(), "\(format) \(text.debugDescription)")
        }
    }
}

// MARK: - Comparing the two readings

extension PieceSplitterTests {
    /// One event of a reader; indexes are over the whole input.
    enum Seen: Equatable, CustomStringConvertible {
        /// The value's text (`description`: number literals and key order) as well as the value.
        case value(index: Int, text: String, value: JSONValue, position: Position?)
        case elementError(index: Int, error: JSONSyntaxError, isLimit: Bool)
        /// `index`: the element the error is in.
        case syntaxError(index: Int, error: JSONSyntaxError)
        case readError(String)
        case end

        var description: String {
            switch self {
            case .value(let index, let text, _, let position):
                return "#\(index) \(text) @\(position.map(\.description) ?? "nil")"
            case .elementError(let index, let error, let isLimit):
                return "#\(index) elementError\(isLimit ? "(limit)" : "") \(error)"
            case .syntaxError(let index, let error): return "#\(index) syntaxError \(error)"
            case .readError(let text): return "readError \(text)"
            case .end: return "end"
            }
        }

        var endsInput: Bool {
            switch self {
            case .syntaxError, .readError, .end: return true
            case .value, .elementError: return false
            }
        }

        var isSyntaxError: Bool {
            if case .syntaxError = self { return true }
            return false
        }

        var isElementError: Bool {
            if case .elementError = self { return true }
            return false
        }

        /// An element error that is a syntax error, not a limit.
        var isSyntaxElementError: Bool {
            if case .elementError(_, _, let isLimit) = self { return !isLimit }
            return false
        }

        /// The event for `event`, just returned by `reader`; element indexes on from `base`.
        init(_ event: _ValueReader.Event, reader: _ValueReader, base: Int) {
            switch event {
            case .value(let value):
                self = .value(index: base + reader.index, text: value.description, value: value,
                              position: reader.elementPosition().map { Position(line: $0.line, column: $0.column,
                                                                                 byteOffset: $0.byteOffset) })
            case .elementError(var error, let isLimit):
                error.elementIndex = error.elementIndex.map { base + $0 }  // the reader's numbering
                self = .elementError(index: base + reader.index, error: error, isLimit: isLimit)
            case .syntaxError(var error):
                error.elementIndex = error.elementIndex.map { base + $0 }
                self = .syntaxError(index: base + reader.index + 1, error: error)
            case .readError(let error): self = .readError("\(error)")
            case .end: self = .end
            case .mark, .member, .key: self = .readError("unexpected event \(event)")
            }
        }
    }

    struct Position: Equatable, CustomStringConvertible {
        var line: Int
        var column: Int
        var byteOffset: Int
        var description: String { "\(line):\(column)(\(byteOffset))" }
    }

    /// The pieces of one input, read one after another.
    struct PiecedReading {
        var events: [Seen] = []
        var pieces = 0
        /// Errors (syntax or element) reported by a piece other than the first, or by the rest.
        var laterErrors = 0
        /// What is wrong with the pieces themselves (numbering, bytes, ends).
        var problems: [String] = []
        /// The splitter found no cut for too long: the rest was read in one stream.
        var gaveUp = false
        /// A JSON Lines piece ended inside a value: it and the rest were read again in one stream.
        var rereadFromPiece = false
        /// Parts read by readers of their own: the pieces, and the rest after giving up.
        var parts: Int { pieces + (gaveUp ? 1 : 0) }
    }

    /// Compares the two readings of many inputs, and counts how often the
    /// inputs were actually cut (a test that cuts nothing checks nothing).
    final class Checker {
        let directory: TemporaryDirectory
        let path: String
        /// Input × format × piece size compared.
        private(set) var comparisons = 0
        /// Parts read by readers of their own (see `PiecedReading.parts`).
        private(set) var totalParts = 0
        /// Comparisons where the input was read in more than one part.
        private(set) var cutComparisons = 0
        /// Errors reported by a part other than the first.
        private(set) var laterErrors = 0
        /// Inputs with a mismatch reported in full (the rest are counted).
        private var reported = 0
        private(set) var syntaxErrors = 0
        private(set) var elementErrors = 0
        private(set) var mismatches = 0
        /// Comparisons where the splitter gave up cutting and read the rest in one stream.
        private(set) var gaveUp = 0

        init() throws {
            directory = try TemporaryDirectory()
            path = directory.path("input.json")
        }

        /// Both readings of `bytes` in each format, cut at each piece size.
        func check(_ bytes: [UInt8], formats: [JSONStreamFormat], pieceSizes: [Int],
                   sourceLocation: SourceLocation = #_sourceLocation) {
            do {
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                var report: String?
                var alsoDiffering: [String] = []
                for format in formats {
                    let expected = try Self.sequential(path: path, format: format)
                    for pieceSize in pieceSizes {
                        guard let difference = compare(bytes, format: format, pieceSize: pieceSize,
                                                       expected: expected, sourceLocation: sourceLocation)
                        else { continue }
                        if report == nil { report = difference } else { alsoDiffering.append(".\(format) \(pieceSize)") }
                    }
                }
                // One mismatch in full for each of the first few inputs.
                if let report {
                    reported += 1
                    if reported <= 10 {
                        let others = alsoDiffering.isEmpty ? "" : "\n  also with \(alsoDiffering.joined(separator: ", "))"
                        Issue.record("\(report)\(others)", sourceLocation: sourceLocation)
                    }
                }
            } catch {
                Issue.record("\(literal(bytes)): \(error)", sourceLocation: sourceLocation)
            }
        }

        /// A description of the mismatch, if the readings differ.
        private func compare(_ bytes: [UInt8], format: JSONStreamFormat, pieceSize: Int, expected: [Seen],
                             sourceLocation: SourceLocation) -> String? {
            let context = "input \(literal(bytes)), format .\(format), piece size \(pieceSize)"
            let reading: PiecedReading?
            do {
                reading = try Self.pieced(bytes, format: format, pieceSize: pieceSize)
            } catch {
                Issue.record("\(context): the splitter threw \(error)", sourceLocation: sourceLocation)
                return nil
            }
            guard let reading else {
                // Not cut (the caller then reads it whole): only for no value
                // at all, or `.array` with another root.
                let noValue = Self.firstByte(bytes) == nil
                let otherRoot = format == .array && Self.firstByte(bytes) != UInt8(ascii: "[")
                if !noValue && !otherRoot {
                    Issue.record("\(context): prepare() was false; sequential: \(expected)",
                                 sourceLocation: sourceLocation)
                }
                return nil
            }
            comparisons += 1
            totalParts += reading.parts
            if reading.parts > 1 { cutComparisons += 1 }
            if reading.gaveUp { gaveUp += 1 }
            laterErrors += reading.laterErrors
            syntaxErrors += expected.filter(\.isSyntaxError).count
            elementErrors += expected.filter(\.isElementError).count
            for problem in reading.problems {
                Issue.record("\(context): \(problem)", sourceLocation: sourceLocation)
            }
            guard reading.events != expected else { return nil }
            mismatches += 1
            let firstDifference = zip(reading.events, expected).enumerated().first { $0.element.0 != $0.element.1 }?
                .offset ?? min(reading.events.count, expected.count)
            return """
                \(context): the reading in \(reading.pieces) pieces\(reading.gaveUp ? " and the rest" : "") \
                differs from the sequential one at event \(firstDifference)
                  pieced:     \(reading.events)
                  sequential: \(expected)
                """
        }

        /// After a test's cases: the inputs were cut, and errors fell in later pieces.
        func expectOften(valid: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
            let summary = """
                \(comparisons) comparisons, \(totalParts) parts, \(cutComparisons) cut, \
                \(laterErrors) errors after the first part, \(syntaxErrors) syntax errors, \
                \(elementErrors) element errors, \(gaveUp) gave up, \(mismatches) mismatches \
                (\(reported) inputs)
                """
            #expect(mismatches == 0, "\(summary)", sourceLocation: sourceLocation)
            #expect(comparisons > 1000, "\(summary)", sourceLocation: sourceLocation)
            #expect(totalParts > (valid ? 3 : 2) * comparisons, "\(summary)", sourceLocation: sourceLocation)
            // (Malformed inputs are read in one stream from the first damaged piece on.)
            #expect(cutComparisons * (valid ? 2 : 3) > comparisons, "\(summary)", sourceLocation: sourceLocation)
            if valid {
                #expect(syntaxErrors == 0 && elementErrors == 0, "\(summary)", sourceLocation: sourceLocation)
            } else {
                #expect(laterErrors * 4 > comparisons, "\(summary)", sourceLocation: sourceLocation)
            }
        }

        /// One reader over the whole file.
        static func sequential(path: String, format: JSONStreamFormat) throws -> [Seen] {
            let reader = try _ValueReader(contentsOfFile: path, format: format, path: [])
            var events: [Seen] = []
            while true {
                let seen = Seen(reader.next(), reader: reader, base: 0)
                events.append(seen)
                if seen.endsInput { return events }
            }
        }

        /// The pieces read one after another, as the parallel reader does;
        /// nil when `prepare()` is false.
        static func pieced(_ bytes: [UInt8], format: JSONStreamFormat, pieceSize: Int) throws -> PiecedReading? {
            let splitter = _PieceSplitter(data: Data(bytes), format: format, pieceSize: pieceSize)
            guard try splitter.prepare() else { return nil }
            var reading = PiecedReading()
            var base = 0
            var stopped = false
            // The input again, from the pieces: an array piece's `[` stands at
            // the offset of the comma its predecessor's `]` replaced.
            var rebuilt: [UInt8] = []
            var sawLast = false
            while let piece = try splitter.next() {
                if sawLast { reading.problems.append("a piece after the last one") }
                if piece.sequence != reading.pieces {
                    reading.problems.append("piece \(reading.pieces) has sequence \(piece.sequence)")
                }
                let pieceBytes = [UInt8](piece.bytes)
                if piece.isArray && reading.pieces > 0 {
                    if pieceBytes.first != UInt8(ascii: "[") || rebuilt.last != UInt8(ascii: "]") {
                        reading.problems.append("piece \(piece.sequence) is not joined to the one before by ][")
                    }
                    if !rebuilt.isEmpty { rebuilt[rebuilt.count - 1] = UInt8(ascii: ",") }
                    rebuilt += pieceBytes.dropFirst()
                } else {
                    rebuilt += pieceBytes
                }
                if piece.inputEnd != UInt64(rebuilt.count) {
                    reading.problems.append("piece \(piece.sequence) ends at \(piece.inputEnd), not \(rebuilt.count)")
                }
                reading.pieces += 1
                sawLast = piece.isLast
                guard !stopped else { continue }  // the rest is still cut, but not read
                let pieceBase = base
                let reader = _ValueReader(piece: piece)
                var events: [Seen] = []
                while true {
                    let seen = Seen(reader.next(), reader: reader, base: base)
                    if seen.isSyntaxError || seen.isElementError, piece.sequence > 0 { reading.laterErrors += 1 }
                    if case .end = seen {
                        base += reader.index + 1
                        break
                    }
                    events.append(seen)
                    if seen.endsInput {
                        stopped = true
                        break
                    }
                }
                // An array's piece with a malformed element: the cuts after it cannot be trusted.
                let brokeAnElement = piece.isArray && events.contains { $0.isSyntaxElementError }
                if (stopped && !piece.isLast) || brokeAnElement {
                    // A piece (not the last) that ends inside a value was cut in the wrong place
                    // (after a malformed line), or could not find an element after damage within
                    // itself, or an array's piece broke an element: it and the rest are read again
                    // as one stream, as jsonstream does.
                    reading.rereadFromPiece = true
                    let rest = splitter.readerForTheRest(from: [piece], limits: _ParserLimits(), projection: nil,
                                                         firstIndex: piece.isArray ? pieceBase : base)
                    while true {
                        let seen = Seen(rest.next(), reader: rest, base: 0)
                        reading.events.append(seen)
                        if seen.endsInput { break }
                    }
                    break
                }
                reading.events += events
            }
            if reading.rereadFromPiece {
                return reading
            }
            if splitter.gaveUp {
                // The rest in one stream, its indexes on from the pieces'.
                reading.gaveUp = true
                if sawLast { reading.problems.append("gave up after the last piece") }
                // The pieces so far are the input's start (the last one's `]` may stand for a comma).
                if !bytes.starts(with: rebuilt.dropLast()) || rebuilt.count > bytes.count {
                    reading.problems.append("the pieces before giving up make \(literal(rebuilt))")
                }
                if !stopped {
                    let reader = splitter.readerForTheRest(limits: _ParserLimits(), projection: nil, firstIndex: base)
                    while true {
                        let seen = Seen(reader.next(), reader: reader, base: 0)
                        if seen.isSyntaxError || seen.isElementError, reading.pieces > 0 { reading.laterErrors += 1 }
                        reading.events.append(seen)
                        if seen.endsInput { break }
                    }
                    stopped = true
                }
            } else {
                if !sawLast { reading.problems.append("no piece is marked last") }
                if rebuilt != bytes { reading.problems.append("the pieces make \(literal(rebuilt))") }
            }
            if !stopped { reading.events.append(.end) }
            return reading
        }

        /// The first byte after a BOM and whitespace.
        static func firstByte(_ bytes: [UInt8]) -> UInt8? {
            var rest = bytes[...]
            if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
            return rest.first { !_isJSONWhitespace($0) }
        }
    }
}

/// Bytes as a Swift string literal would spell them (invalid UTF-8 as `\x{…}`).
private func literal(_ bytes: [UInt8]) -> String {
    var text = "\""
    for byte in bytes {
        switch byte {
        case 0x0A: text += "\\n"
        case 0x0D: text += "\\r"
        case 0x09: text += "\\t"
        case UInt8(ascii: "\""): text += "\\\""
        case UInt8(ascii: "\\"): text += "\\\\"
        case 0x20..<0x7F: text += String(UnicodeScalar(byte))
        default: text += "\\x{\(String(byte, radix: 16, uppercase: true))}"
        }
    }
    return text + "\""
}

// MARK: - Generating inputs

/// xorshift64: the same numbers from the same seed, on every platform.
struct SplitterRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func oneIn(_ chances: Int) -> Bool { below(chances) == 0 }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// JSON text with whitespace between tokens, strings full of escapes,
/// multi-byte UTF-8 and the bytes the cut scan looks for, and numbers of
/// every spelling.
struct SplitterTextGenerator {
    var random: SplitterRandom
    /// Whether the whitespace between tokens may hold line breaks.
    let newlines: Bool

    init(seed: UInt64, newlines: Bool) {
        random = SplitterRandom(seed: seed)
        self.newlines = newlines
    }

    mutating func space() -> String {
        guard random.oneIn(2) else { return "" }
        return newlines ? random.pick([" ", "  ", "\t", "\n", "\r\n", "\n    ", " \n\n ", "\n", "\n  "])
                        : random.pick([" ", "  ", "\t", " \t "])
    }

    mutating func number() -> String {
        let sign = random.pick(["", "+", "-"])
        switch random.below(8) {
        case 0: return String(random.below(1000))
        case 1: return "-\(random.below(100_000))"
        case 2: return "\(random.below(100)).\(random.below(1000))"
        case 3: return "-\(random.below(10)).\(random.below(100))e\(sign)\(random.below(30))"
        case 4: return "\(random.below(10))E\(sign)\(random.below(300))"
        case 5: return random.pick(["12345678901234567890123", "-98765432109876543210.5e-7", "18446744073709551616",
                                    "9223372036854775807", "-9223372036854775808", "1e308", "0.000000000000000000001"])
        case 6: return random.pick(["0", "-0", "0.0", "-0.0e0"])
        default: return String(Int64(bitPattern: random.next()))
        }
    }

    mutating func string() -> String {
        let parts = ["a", "key", "b c", #"\""#, #"\\"#, #"\/"#, #"\u00e9"#, #"\ud83c\udf7a"#, #"\n"#, #"\t"#,
                     #"\b\f\r"#, "é", "日本", "🍺", ",", "[", "]", "{", "}", ":", " ", #"\\\""#, "x,y", #"\u005c"#,
                     "],[", #"\",\""#]
        var text = "\""
        for _ in 0..<random.below(6) { text += random.pick(parts) }
        return text + "\""
    }

    mutating func value(depth: Int) -> String {
        switch random.below(depth >= 3 ? 4 : 7) {
        case 0: return number()
        case 1: return string()
        case 2: return random.pick(["null", "true", "false"])
        case 3: return random.oneIn(2) ? number() : string()
        case 4, 5:
            let items = (0..<random.below(5)).map { _ in value(depth: depth + 1) }
            return "[" + space() + items.map { $0 + space() }.joined(separator: "," + space()) + "]"
        default:
            let members = (0..<random.below(5)).map { _ in
                string() + space() + ":" + space() + value(depth: depth + 1) + space()
            }
            return "{" + space() + members.joined(separator: "," + space()) + "}"
        }
    }

    mutating func elements(count: Int) -> [String] {
        (0..<count).map { _ in value(depth: 0) }
    }

    /// `[e0, e1, …]` with whitespace around every token.
    mutating func assembleArray(_ elements: [String]) -> String {
        var text = space() + "[" + space()
        for (index, element) in elements.enumerated() {
            if index > 0 { text += space() + "," + space() }
            text += element
        }
        return text + space() + "]" + space()
    }

    /// An array broken in one place.
    mutating func malformedArray(_ elements: [String]) -> [UInt8] {
        var separators = (0..<elements.count).map { $0 == 0 ? "" : space() + "," + space() }
        var prefix = space() + "["
        var suffix = space() + "]" + space()
        let bom = "\u{FEFF}"
        switch random.below(12) {
        case 0...3:
            // One byte deleted, doubled or inserted anywhere.
            var bytes = Array((prefix + zip(separators, elements).map { $0 + $1 }.joined() + suffix).utf8)
            let position = random.below(bytes.count)
            switch random.below(3) {
            case 0: bytes.remove(at: position)
            case 1: bytes.insert(bytes[position], at: position)
            default:
                let inserted = Array(#",[]{}":\"#.utf8) + Array("axtn".utf8)
                bytes.insert(random.pick(inserted), at: random.below(bytes.count + 1))
            }
            return bytes
        case 4: separators[1 + random.below(elements.count - 1)] = space() + ",," + space()
        case 5: separators[1 + random.below(elements.count - 1)] = random.pick([" ", "\n", ""])
        case 6: prefix += space() + ","
        case 7: suffix = space() + "," + suffix
        case 8: suffix += random.pick(["x", "1", "]", ",2", "{}", " [", "\n[3,4]", "\"", "nul"])
        case 9: suffix = random.pick(["", " ", "\n", ",", ", ", ",\n"])
        case 10: prefix = bom + prefix  // valid, most often
        default: separators[1 + random.below(elements.count - 1)] += random.oneIn(2) ? bom : bom + " "
        }
        return Array((prefix + zip(separators, elements).map { $0 + $1 }.joined() + suffix).utf8)
    }

    /// Lines of one value each (whitespace around it), blank lines, malformed
    /// lines that break in that line, LF or CRLF ends.
    mutating func jsonLines(count: Int) -> String {
        let malformed = [#"{"a": [1"#, "[1, 2", #""abc"#, #"{"k": "v\""#, "}", "]", "]]", #"{"a":1}}"#, "tru", "nul",
                         #"{"a" 1}"#, "[1,,2]", "@", "1 x", #"{"a":}"#, ",", ":", "[", "{", "\u{FEFF}1",
                         #""\u12""#, "01", "-", "1.", "nulll", "[1]]", #"{"a":1,}"#, "[{]}", #"""#, "é"]
        let end = random.oneIn(4) ? "\r\n" : "\n"
        var text = random.oneIn(8) ? "\u{FEFF}" : ""
        for index in 0..<count {
            if index > 0 { text += end }
            switch random.below(10) {
            case 0: text += random.pick(["", "", "  ", "\t"])
            case 1, 2:
                if random.oneIn(2) {
                    text += random.pick(malformed)
                } else {
                    // A valid value cut short (sometimes still valid: `12` of `123`).
                    let value = Array(self.value(depth: 0).utf8)
                    text += String(decoding: value.prefix(random.below(value.count)), as: UTF8.self)
                }
            default: text += space() + value(depth: 0) + space()
            }
        }
        if random.oneIn(2) { text += end }
        return text
    }
}
