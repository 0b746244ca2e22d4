// SPDX-License-Identifier: Apache-2.0
import Foundation
import PropertyBased
import Testing
@testable import StreamingJSON

// Generators for PropertyTests.swift: random `JSONValue` trees, random
// (valid) spellings of them as JSON text, chunk plans and corruptions.
//
// Everything random is drawn either from the property checker's generator
// (so that its seed reproduces a failure) or from a `SplitMix` seeded by a
// number drawn from it (so that a case can be rebuilt, and shrunk, from its
// values and that number alone).

// MARK: - A small deterministic generator

/// SplitMix64: a tiny seeded generator for the parts of a case that are
/// rebuilt from a stored seed (the text's spelling, the chunk cuts).
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

// MARK: - Values

/// Random `JSONValue` trees of bounded depth and size: every kind of number
/// (small, Int64 edges, integers past 64 bits, doubles from random bit
/// patterns, literals in every spelling the grammar allows), strings of ASCII,
/// quotes, backslashes, control characters and 2-, 3- and 4-byte UTF-8, and
/// objects whose keys come partly from a small pool (so that generated
/// members collide and `JSONObject` keeps the last value at the first place).
enum JSONValueGen {
    /// A generator of trees with at most `maxNodes` values, nested at most `maxDepth` deep.
    static func value(maxDepth: Int = 4, maxNodes: Int = 40) -> Generator<JSONValue, AnySequence<JSONValue>> {
        Generator(
            run: { rng in
                var nodes = maxNodes
                return make(&rng, depth: maxDepth, nodes: &nodes, containerRate: 0.85)
            },
            shrink: { AnySequence(shrinks(of: $0)) })
    }

    /// A value that is a container with probability `containerRate` (when
    /// depth and size allow), otherwise a scalar.
    static func make<R: RandomNumberGenerator>(_ rng: inout R, depth: Int, nodes: inout Int,
                                               containerRate: Double = 0.4) -> JSONValue {
        nodes -= 1
        if depth > 0 && nodes > 0 && Double.random(in: 0..<1, using: &rng) < containerRate {
            return Bool.random(using: &rng) ? array(&rng, depth: depth, nodes: &nodes) : object(&rng, depth: depth, nodes: &nodes)
        }
        switch Int.random(in: 0..<8, using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2, 3, 4: return .number(number(&rng))
        default: return .string(string(&rng, maxLength: 12))
        }
    }

    static func array<R: RandomNumberGenerator>(_ rng: inout R, depth: Int, nodes: inout Int) -> JSONValue {
        var array: [JSONValue] = []
        for _ in 0..<Int.random(in: 0...5, using: &rng) where nodes > 0 {
            array.append(make(&rng, depth: depth - 1, nodes: &nodes))
        }
        return .array(array)
    }

    static func object<R: RandomNumberGenerator>(_ rng: inout R, depth: Int, nodes: inout Int) -> JSONValue {
        var members: [(String, JSONValue)] = []
        for _ in 0..<Int.random(in: 0...5, using: &rng) where nodes > 0 {
            members.append((key(&rng), make(&rng, depth: depth - 1, nodes: &nodes)))
        }
        return .object(JSONObject(members))
    }

    // MARK: Numbers

    static let edgeLiterals = [
        "0", "-0", "0.0", "-0.0", "0e0", "1E+2", "1e-2", "1.50", "100", "1e308", "1.7976931348623157e308",
        "1.7976931348623159e308", "1e400", "-1e400", "5e-324", "4.9e-324", "2e-324", "1e-400",
        "2.2250738585072014e-308", "9007199254740993", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
        "123456789012345678901234567890", "0.1", "0.30000000000000004", "123456789.123456789e-5",
    ]
    static let edgeDoubles: [Double] = [
        0, -0.0, .pi, -.pi, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .ulpOfOne, 0.1, 1e16, 1e17, 1e-5, 1e-4,
        123456789012345680000.0, 9007199254740994, 1e21, 1e22, 0.5, 2.5e-10,
    ]

    static func number<R: RandomNumberGenerator>(_ rng: inout R) -> JSONNumber {
        switch Int.random(in: 0..<9, using: &rng) {
        case 0: return JSONNumber(Int.random(in: -1000...1000, using: &rng))
        case 1: return JSONNumber(Int.random(in: Int.min...Int.max, using: &rng))
        case 2:  // an integer past 64 bits
            var text = Bool.random(using: &rng) ? "-" : ""
            text.append(String(Int.random(in: 1...9, using: &rng)))
            for _ in 0..<Int.random(in: 18...40, using: &rng) { text.append(String(Int.random(in: 0...9, using: &rng))) }
            return JSONNumber(text: text)!
        case 3:  // any finite double, from its bits: computed, written as the writers write doubles
            while true {
                let value = Double(bitPattern: UInt64.random(in: .min ... .max, using: &rng))
                if value.isFinite { return JSONNumber(value) }
            }
        case 4: return JSONNumber(Double.random(in: -1e6...1e6, using: &rng))
        case 5, 6: return JSONNumber(text: literal(&rng))!
        case 7: return JSONNumber(text: edgeLiterals.randomElement(using: &rng)!)!
        default: return JSONNumber(edgeDoubles.randomElement(using: &rng)!)
        }
    }

    /// A literal in any spelling JSON's grammar allows: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    static func literal<R: RandomNumberGenerator>(_ rng: inout R) -> String {
        func digits(_ range: ClosedRange<Int>, _ rng: inout R) -> String {
            String((0..<Int.random(in: range, using: &rng)).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) })
        }
        var text = Bool.random(using: &rng) ? "-" : ""
        if Int.random(in: 0..<4, using: &rng) == 0 {
            text += "0"
        } else {
            text += String(Int.random(in: 1...9, using: &rng)) + digits(0...20, &rng)
        }
        if Bool.random(using: &rng) { text += "." + digits(1...20, &rng) }
        if Bool.random(using: &rng) {
            text += ["e", "E", "e+", "E-", "e-", "E+"].randomElement(using: &rng)! + digits(1...3, &rng)
        }
        return text
    }

    // MARK: Strings

    /// Scalars chosen to be awkward: what must be escaped, what may be, and
    /// every UTF-8 length (surrogates excluded: a `String` cannot hold them).
    static let awkwardScalars: [Unicode.Scalar] = [
        "\u{0}", "\u{7}", "\u{8}", "\u{C}", "\u{B}", "\u{1F}", "\u{7F}", "\"", "\\", "/", "é", "\u{301}",
        "\u{80}", "\u{7FF}", "\u{800}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFD}", "\u{FFFF}",
        "\u{E000}", "東", "🍺", "\u{10000}", "\u{10FFFF}", "\u{1F1EF}", "\u{1F1F5}",
    ]

    static func scalar<R: RandomNumberGenerator>(_ rng: inout R) -> Unicode.Scalar {
        while true {
            let value: UInt32
            switch Int.random(in: 0..<12, using: &rng) {
            case 0...4: value = UInt32.random(in: 0x20...0x7E, using: &rng)
            case 5: value = UInt32.random(in: 0x00...0x1F, using: &rng)
            case 6: value = UInt32.random(in: 0x80...0x7FF, using: &rng)
            case 7: value = UInt32.random(in: 0x800...0xFFFF, using: &rng)
            case 8: value = UInt32.random(in: 0x10000...0x10FFFF, using: &rng)
            default: return awkwardScalars.randomElement(using: &rng)!
            }
            if let scalar = Unicode.Scalar(value) { return scalar }  // not a surrogate
        }
    }

    static func string<R: RandomNumberGenerator>(_ rng: inout R, maxLength: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...maxLength, using: &rng) { scalars.append(scalar(&rng)) }
        return String(scalars)
    }

    static let keyPool = ["a", "b", "id", "name", "", "k\"q", "a/b", "é", "\u{0}", "🍺", "items"]

    static func key<R: RandomNumberGenerator>(_ rng: inout R) -> String {
        Bool.random(using: &rng) ? keyPool.randomElement(using: &rng)! : string(&rng, maxLength: 6)
    }

    // MARK: Shrinking

    /// Smaller trees: a scalar becomes null, a container is replaced by one of
    /// its children, loses one element or member, or has one of them shrunk.
    static func shrinks(of value: JSONValue) -> [JSONValue] {
        switch value {
        case .null:
            return []
        case .bool, .number:
            return [.null]
        case .string(let string):
            var candidates: [JSONValue] = [.null]
            if !string.isEmpty {
                candidates.append(.string(""))
                var shorter = string.unicodeScalars
                shorter.removeLast()
                candidates.append(.string(String(shorter)))
            }
            return candidates
        case .array(let array):
            var candidates: [JSONValue] = array.filter { $0 != value }
            for index in array.indices {
                var fewer = array
                fewer.remove(at: index)
                candidates.append(.array(fewer))
            }
            for index in array.indices {
                for smaller in shrinks(of: array[index]).prefix(4) {
                    var changed = array
                    changed[index] = smaller
                    candidates.append(.array(changed))
                }
            }
            return candidates
        case .object(let object):
            var candidates: [JSONValue] = Array(object.values)
            let members = Array(object)
            for index in members.indices {
                var fewer = members
                fewer.remove(at: index)
                candidates.append(.object(JSONObject(fewer.map { ($0.key, $0.value) })))
            }
            for index in members.indices {
                for smaller in shrinks(of: members[index].value).prefix(4) {
                    var changed = members
                    changed[index].value = smaller
                    candidates.append(.object(JSONObject(changed.map { ($0.key, $0.value) })))
                }
            }
            return candidates
        }
    }
}

// MARK: - Spelling values as text

/// Writes a value as valid JSON in a random spelling decided by `rng`:
/// whitespace (space, tab, LF, CRLF) anywhere between tokens, characters
/// written raw or escaped (`\n`, `\/`, `\u00e9`, lower- or upper-case hex,
/// surrogate pairs), and, in objects, a decoy member before a real one with
/// the same key (a duplicate key: the value read is the last one, at the
/// first key's place).
struct RandomSpelling {
    var rng: SplitMix

    init(seed: UInt64) { rng = SplitMix(seed: seed) }

    mutating func write(_ value: JSONValue, into bytes: inout [UInt8]) {
        switch value {
        case .null: bytes += Array("null".utf8)
        case .bool(let bool): bytes += Array((bool ? "true" : "false").utf8)
        case .number(let number): bytes += Array(number.description.utf8)
        case .string(let string): write(string: string, into: &bytes)
        case .array(let array):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { space(&bytes); bytes.append(UInt8(ascii: ",")) }
                space(&bytes)
                write(element, into: &bytes)
            }
            space(&bytes)
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in object {
                if Int.random(in: 0..<6, using: &rng) == 0 {
                    member(key, .string("decoy"), first: first, into: &bytes)
                    first = false
                }
                member(key, value, first: first, into: &bytes)
                first = false
            }
            space(&bytes)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func member(_ key: String, _ value: JSONValue, first: Bool, into bytes: inout [UInt8]) {
        if !first { space(&bytes); bytes.append(UInt8(ascii: ",")) }
        space(&bytes)
        write(string: key, into: &bytes)
        space(&bytes)
        bytes.append(UInt8(ascii: ":"))
        space(&bytes)
        write(value, into: &bytes)
    }

    /// Nothing most of the time, otherwise one to three whitespace runs.
    mutating func space(_ bytes: inout [UInt8]) {
        guard Int.random(in: 0..<3, using: &rng) == 0 else { return }
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: bytes.append(0x20)
            case 1: bytes.append(0x09)
            case 2: bytes.append(0x0A)
            default: bytes += [0x0D, 0x0A]
            }
        }
    }

    mutating func write(string: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for scalar in string.unicodeScalars {
            let value = scalar.value
            let short: UInt8? = switch value {
            case 0x22: UInt8(ascii: "\"")
            case 0x5C: UInt8(ascii: "\\")
            case 0x2F: UInt8(ascii: "/")
            case 0x08: UInt8(ascii: "b")
            case 0x0C: UInt8(ascii: "f")
            case 0x0A: UInt8(ascii: "n")
            case 0x0D: UInt8(ascii: "r")
            case 0x09: UInt8(ascii: "t")
            default: nil
            }
            let mustEscape = value == 0x22 || value == 0x5C || value < 0x20
            let escape = mustEscape || Int.random(in: 0..<4, using: &rng) == 0
            if !escape {
                bytes += Array(String(scalar).utf8)
            } else if let short, Bool.random(using: &rng) {
                bytes += [UInt8(ascii: "\\"), short]
            } else if value > 0xFFFF {
                let offset = value - 0x10000
                hexEscape(UInt16(0xD800 + (offset >> 10)), into: &bytes)
                hexEscape(UInt16(0xDC00 + (offset & 0x3FF)), into: &bytes)
            } else {
                hexEscape(UInt16(value), into: &bytes)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func hexEscape(_ unit: UInt16, into bytes: inout [UInt8]) {
        let digits = Array((Bool.random(using: &rng) ? "0123456789abcdef" : "0123456789ABCDEF").utf8)
        bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u")]
        for shift in stride(from: 12, through: 0, by: -4) { bytes.append(digits[Int(unit >> UInt16(shift)) & 0xF]) }
    }
}

// MARK: - Documents

/// A streamed document: its elements and how they are laid out. The text is
/// rebuilt from the elements and `spellingSeed`, so a case shrinks by
/// shrinking its elements.
struct StreamDocument: Sendable {
    enum Shape: CaseIterable, Sendable {
        /// `[e0, e1, …]`, read with the default format (`.auto`).
        case rootArray
        /// `e0 \n e1 \n …`, read as `.jsonLines`.
        case lines
        /// `{"before": …, "items": [e0, …], "after": …}`, read at `["items"]`.
        case keyPath
        /// `{"k0": e0, "k1": e1, …}`, read as `.objectValues`.
        case objectValues
    }

    var elements: [JSONValue]
    var shape: Shape
    var spellingSeed: UInt64
    /// Values around the target array (`.keyPath` only), parsed and skipped.
    var surroundings: [JSONValue] = [.null, .null]

    var format: JSONStreamFormat {
        switch shape {
        case .rootArray, .keyPath: return .auto
        case .lines: return .jsonLines
        case .objectValues: return .objectValues
        }
    }

    var path: [String] { shape == .keyPath ? ["items"] : [] }

    var text: [UInt8] {
        var spelling = RandomSpelling(seed: spellingSeed)
        var bytes: [UInt8] = []
        spelling.space(&bytes)
        switch shape {
        case .rootArray:
            spelling.write(.array(elements), into: &bytes)
        case .lines:
            for element in elements {
                spelling.write(element, into: &bytes)
                bytes.append(0x0A)
                spelling.space(&bytes)
            }
        case .keyPath:
            bytes += Array(#"{"before":"#.utf8)
            spelling.write(surroundings[0], into: &bytes)
            bytes += Array(#", "items" :"#.utf8)
            spelling.write(.array(elements), into: &bytes)
            bytes += Array(#","after":"#.utf8)
            spelling.write(surroundings[1], into: &bytes)
            bytes.append(UInt8(ascii: "}"))
        case .objectValues:
            bytes.append(UInt8(ascii: "{"))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                spelling.write(string: "k\(index)", into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                spelling.space(&bytes)
                spelling.write(element, into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
        spelling.space(&bytes)
        return bytes
    }

    static func generator(count: ClosedRange<Int> = 0...6, shapes: [Shape] = Shape.allCases)
        -> Generator<StreamDocument, AnySequence<StreamDocument>> {
        let elements = JSONValueGen.value(maxDepth: 3, maxNodes: 12)
        return Generator(
            run: { rng in
                var document = StreamDocument(
                    elements: (0..<Int.random(in: count, using: &rng)).map { _ in elements.run(using: &rng) },
                    shape: shapes.randomElement(using: &rng)!,
                    spellingSeed: UInt64.random(in: .min ... .max, using: &rng))
                if document.shape == .keyPath {
                    document.surroundings = [elements.run(using: &rng), elements.run(using: &rng)]
                }
                return document
            },
            shrink: { document in
                AnySequence(document.shrinks(keeping: count.lowerBound))
            })
    }

    /// Fewer elements, then smaller ones; the same shape and spelling seed.
    func shrinks(keeping minimum: Int) -> [StreamDocument] {
        var candidates: [StreamDocument] = []
        if elements.count > minimum {
            for index in elements.indices {
                var fewer = self
                fewer.elements.remove(at: index)
                candidates.append(fewer)
            }
        }
        for index in elements.indices {
            for smaller in JSONValueGen.shrinks(of: elements[index]).prefix(6) {
                var changed = self
                changed.elements[index] = smaller
                candidates.append(changed)
            }
        }
        if surroundings != [.null, .null] {
            var plain = self
            plain.surroundings = [.null, .null]
            candidates.append(plain)
        }
        return candidates
    }
}

extension StreamDocument: CustomTestStringConvertible {
    var testDescription: String {
        "\(shape) document \(showBytes(text)) (spelling seed \(spellingSeed), elements \(elements))"
    }
}

/// Bytes as a Swift string literal where they are UTF-8, with the invalid bytes as `\x..`.
func showBytes(_ bytes: some Collection<UInt8>) -> String {
    var text = "\""
    var rest = Array(bytes)[...]
    while !rest.isEmpty {
        var decoder = UTF8()
        var iterator = rest.makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) {
            text += scalar.escaped(asASCII: false)
            rest = rest.dropFirst(UTF8.width(scalar))
        } else {
            text += String(format: "\\x%02X", rest.first!)
            rest = rest.dropFirst()
        }
    }
    return text + "\""
}

// MARK: - Chunking

/// Where a document is cut into chunks: every byte alone, or random cuts
/// (sizes 1 to `maxSize`) from a seed, so that cuts fall inside escapes,
/// multi-byte characters, numbers and literals.
struct ChunkPlan: Sendable, CustomTestStringConvertible {
    enum Kind: Sendable { case singleBytes, random(seed: UInt64, maxSize: Int) }
    var kind: Kind

    func chunks(of bytes: [UInt8]) -> [[UInt8]] {
        switch kind {
        case .singleBytes:
            return bytes.map { [$0] }
        case .random(let seed, let maxSize):
            var rng = SplitMix(seed: seed)
            var chunks: [[UInt8]] = []
            var start = 0
            while start < bytes.count {
                // Now and then an empty chunk: a read that delivered nothing.
                let size = Int.random(in: 0..<20, using: &rng) == 0 ? 0 : Int.random(in: 1...maxSize, using: &rng)
                let end = min(bytes.count, start + size)
                chunks.append(Array(bytes[start..<end]))
                start = end
            }
            return chunks
        }
    }

    var testDescription: String {
        switch kind {
        case .singleBytes: return "1-byte chunks"
        case .random(let seed, let maxSize): return "random chunks of 0...\(maxSize) bytes (seed \(seed))"
        }
    }

    static let generator = Generator<ChunkPlan, Shrink.None<ChunkPlan>>(run: { rng in
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return ChunkPlan(kind: .singleBytes)
        case 1: return ChunkPlan(kind: .random(seed: UInt64.random(in: .min ... .max, using: &rng), maxSize: 4))
        default: return ChunkPlan(kind: .random(seed: UInt64.random(in: .min ... .max, using: &rng), maxSize: 40))
        }
    })
}

/// Chunks as an async sequence, as a network body would deliver them.
struct ChunkSequence: AsyncSequence, Sendable {
    typealias Element = [UInt8]
    let chunks: [[UInt8]]

    struct AsyncIterator: AsyncIteratorProtocol {
        var rest: ArraySlice<[UInt8]>
        mutating func next() async -> [UInt8]? { rest.popFirst() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(rest: chunks[...]) }
}

/// Bytes one at a time as an async sequence (`URLSession.AsyncBytes`-like).
struct ByteSequence: AsyncSequence, Sendable {
    typealias Element = UInt8
    let bytes: [UInt8]

    struct AsyncIterator: AsyncIteratorProtocol {
        var rest: ArraySlice<UInt8>
        mutating func next() async -> UInt8? { rest.popFirst() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(rest: bytes[...]) }
}

// MARK: - Corruption

/// One byte of a valid document replaced by another.
struct Corruption: Sendable, CustomTestStringConvertible {
    var document: StreamDocument
    /// Taken modulo the text's length (the document may shrink).
    var position: Int
    var byte: UInt8
    var chunks: ChunkPlan

    var original: [UInt8] { document.text }

    /// The corrupted text and the index of the replaced byte; nil when the
    /// text is empty or the byte would not change.
    var corrupted: (bytes: [UInt8], position: Int)? {
        var bytes = original
        guard !bytes.isEmpty else { return nil }
        let index = position % bytes.count
        guard bytes[index] != byte else { return nil }
        bytes[index] = byte
        return (bytes, index)
    }

    var testDescription: String {
        guard let (bytes, index) = corrupted else { return "no corruption of \(document.testDescription)" }
        return "byte \(index) of \(showBytes(original)) replaced by \(String(format: "0x%02X", byte)): "
            + "\(showBytes(bytes)) (\(document.shape), \(chunks.testDescription))"
    }

    /// Bytes that mean something to a JSON lexer, and any byte at all.
    static let interestingBytes: [UInt8] = Array("[]{}\",:\\ \t\n\r0123456789-+.eEtrufalsn/*x".utf8)
        + [0x00, 0x0B, 0x0C, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xE2, 0xED, 0xEF, 0xF0, 0xF4, 0xF8, 0xFF]

    static func generator(shapes: [StreamDocument.Shape]) -> Generator<Corruption, AnySequence<Corruption>> {
        let documents = StreamDocument.generator(count: 1...4, shapes: shapes)
        return Generator(
            run: { rng in
                Corruption(
                    document: documents.run(using: &rng),
                    position: Int.random(in: 0..<1 << 20, using: &rng),
                    byte: Bool.random(using: &rng)
                        ? interestingBytes.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng),
                    chunks: ChunkPlan.generator.run(using: &rng))
            },
            shrink: { corruption in
                AnySequence(corruption.document.shrinks(keeping: 1).lazy.map {
                    var smaller = corruption
                    smaller.document = $0
                    return smaller
                })
            })
    }
}

// MARK: - Positions and errors

/// Line and column of `offset`, counted as the package documents them
/// (1-based; a line ends at LF; columns count bytes).
func expectedLineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
    let before = bytes.prefix(offset)
    let line = 1 + before.filter { $0 == 0x0A }.count
    let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
    return (line, offset - lineStart + 1)
}

/// The `JSONSyntaxError` inside a `DecodingError.dataCorrupted`, if that is what `error` is.
func syntaxError(in error: any Error) -> JSONSyntaxError? {
    guard case DecodingError.dataCorrupted(let context) = error else { return nil }
    return context.underlyingError as? JSONSyntaxError
}

// MARK: - Running off the cooperative pool

/// Runs each test of a suite with a task executor preference for one serial
/// thread of its own (a dispatch queue outside Swift's cooperative pool):
/// its synchronous work then competes for the cores through the kernel's
/// scheduler instead of keeping other tests' tasks queued behind it.
/// Task-locals (the current test, the property checker's seed) are kept.
struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        guard !test.isSuite else { return try await function() }
        try await withTaskExecutorPreference(SerialThreadExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OwnThreadTrait {
    static var onItsOwnThread: Self { Self() }
}

final class SerialThreadExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = SerialThreadExecutor()
    private let queue = DispatchQueue(label: "StreamingJSONTests.SerialThreadExecutor")
    private static let marker = DispatchSpecificKey<Bool>()

    private init() {
        queue.setSpecific(key: Self.marker, value: true)
    }

    /// Whether the caller runs on this executor's thread.
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
