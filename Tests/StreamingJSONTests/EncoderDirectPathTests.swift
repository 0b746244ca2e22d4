// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// The direct writer (`_DirectEncoding`, used without `.sortedKeys`) against
/// the node tape it falls back to: the same bytes, or the same error, for
/// every shape and option, including the out-of-order fillings that make it
/// fall back. And its fast scalar formatting against Swift's `description`
/// and Foundation's escaping.
@Suite struct EncoderDirectPathTests {

    enum Result: Equatable, CustomStringConvertible {
        case json(String)
        case error(String)

        var description: String {
            switch self {
            case .json(let text): return text.debugDescription
            case .error(let text): return "error \(text)"
            }
        }
    }

    static func outcome(_ value: some Encodable, _ setup: EncodingSetup, forcesTape: Bool) -> Result {
        let encoder = StreamingJSONEncoder()
        setup.configure(encoder)
        encoder._forcesTape = forcesTape
        do {
            return .json(Enc.text(try encoder.encode(value)))
        } catch let error as EncodingError {
            guard case .invalidValue(_, let context) = error else { return .error("\(error)") }
            return .error("invalidValue at \(Enc.path(context.codingPath)): \(context.debugDescription)")
        } catch {
            return .error("\(error)")
        }
    }

    /// Direct and tape agree for `value` under every unsorted setup given.
    static func expectSame(_ value: some Encodable, _ label: String, setups: [EncodingSetup] = allUnsorted,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        for setup in setups {
            let direct = outcome(value, setup, forcesTape: false)
            let tape = outcome(value, setup, forcesTape: true)
            #expect(direct == tape, "\(label) [\(setup)]", sourceLocation: sourceLocation)
        }
    }

    static let allUnsorted: [EncodingSetup] = {
        var setups: [EncodingSetup] = []
        for pretty in [false, true] {
            for keys in EncodingSetup.KeyChoice.allCases {
                for date in EncodingSetup.DateChoice.allCases {
                    setups.append(EncodingSetup(pretty: pretty, sorted: false, date: date, keys: keys))
                }
                for data in EncodingSetup.DataChoice.allCases {
                    setups.append(EncodingSetup(pretty: pretty, sorted: false, noSlashes: true, data: data,
                                                floats: .strings, keys: keys))
                }
            }
        }
        return setups
    }()

    static let someSetups: [EncodingSetup] = [
        EncodingSetup(sorted: false), EncodingSetup(pretty: true, sorted: false),
        EncodingSetup(sorted: false, floats: .strings, keys: .snake),
        EncodingSetup(pretty: true, sorted: false, keys: .customUpper),
    ]

    // MARK: Shapes that fill containers out of order

    /// `superEncoder()` taken, a sibling encoded, then the super slot filled.
    struct SuperLater: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: EncKey.self)
            let superEncoder = container.superEncoder()
            try container.encode(1, forKey: "a")
            var inner = superEncoder.container(keyedBy: EncKey.self)
            try inner.encode("late", forKey: "x")
        }
    }

    /// A nested container filled after a sibling was encoded.
    struct NestedAfterSibling: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: EncKey.self)
            var nested = container.nestedContainer(keyedBy: EncKey.self, forKey: "n")
            var list = container.nestedUnkeyedContainer(forKey: "l")
            try nested.encode(1, forKey: "first")
            try container.encode(true, forKey: "b")
            try list.encode(2)
            try nested.encode(3, forKey: "second")
        }
    }

    /// A scalar replaced by a nested container under the same key, and the reverse.
    struct ReplacedKeys: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: EncKey.self)
            try container.encode(1, forKey: "a")
            var nested = container.nestedContainer(keyedBy: EncKey.self, forKey: "a")
            try nested.encode(2, forKey: "x")
            try container.encode([1, 2], forKey: "b")
            try container.encode("s", forKey: "b")
        }
    }

    /// A single-value container written twice (the last value wins).
    struct SingleTwice: Encodable {
        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            try single.encode(1)
            try single.encode("two")
        }
    }

    /// An encoder kept and written after its `encode(to:)` returned.
    final class Keeper: @unchecked Sendable { var encoder: (any Encoder)? }
    struct Escaping: Encodable {
        let keeper: Keeper
        func encode(to encoder: any Encoder) throws { keeper.encoder = encoder }
    }
    struct UsesEscaped: Encodable {
        func encode(to encoder: any Encoder) throws {
            let keeper = Keeper()
            var container = encoder.container(keyedBy: EncKey.self)
            try container.encode(Escaping(keeper: keeper), forKey: "kept")
            try container.encode(2, forKey: "after")
            var late = keeper.encoder!.container(keyedBy: EncKey.self)
            try late.encode("late", forKey: "x")
        }
    }

    /// A NaN caught by the value itself (`try?`): the tape leaves `{}` in its slot.
    struct CaughtNaN: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: EncKey.self)
            try? container.encode(Double.nan, forKey: "nan")
            try container.encode(1, forKey: "after")
            var list = container.nestedUnkeyedContainer(forKey: "list")
            try? list.encode([1.0, .infinity])
            try list.encode(2)
        }
    }

    /// The coding path as seen from every level, written as values.
    struct PathEcho: Encodable {
        var depth: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: EncKey.self)
            try container.encode(Enc.path(encoder.codingPath).joined(separator: "."), forKey: "path")
            try container.encode(Enc.path(container.codingPath).joined(separator: "."), forKey: "containerPath")
            if depth > 0 {
                try container.encode(PathEcho(depth: depth - 1), forKey: "child")
                try container.encode([PathEcho(depth: depth - 1)], forKey: "list")
                try container.encode(["k": PathEcho(depth: depth - 1)], forKey: "map")
                var nested = container.nestedUnkeyedContainer(forKey: "nested")
                try nested.encode(Enc.path(nested.codingPath).joined(separator: "."))
                try PathEcho(depth: depth - 1).encode(to: container.superEncoder())
            }
        }
    }

    /// Many keys: past the 64-bit mask and the indexed size, with or without a repeat.
    struct ManyKeys: Encodable {
        var count: Int
        var repeatAt: Int?
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: EncKey.self)
            for index in 0..<count { try container.encode(index, forKey: EncKey("key\(index)")) }
            if let repeatAt { try container.encode("again", forKey: EncKey("key\(repeatAt)")) }
        }
    }

    /// Nothing encoded in nested slots, pretty empty containers.
    struct Empties: Encodable {
        struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: EncKey.self)
            try container.encode(Nothing(), forKey: "nothing")
            try container.encode([Nothing(), Nothing()], forKey: "nothings")
            try container.encode([Int](), forKey: "noInts")
            try container.encode([String: Int](), forKey: "noMap")
            _ = container.nestedContainer(keyedBy: EncKey.self, forKey: "emptyObject")
            _ = container.nestedUnkeyedContainer(forKey: "emptyArray")
            _ = container.superEncoder(forKey: "unusedSuper")
            try container.encode([[Int]()], forKey: "nestedEmpty")
        }
    }

    struct Deep: Encodable {
        var depth: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            if depth > 0 { try container.encode(Deep(depth: depth - 1)) } else { try container.encode(1) }
        }
    }

    @Test func outOfOrderShapesMatchTheTape() {
        Self.expectSame(SuperLater(), "super later")
        Self.expectSame(NestedAfterSibling(), "nested after sibling")
        Self.expectSame(ReplacedKeys(), "replaced keys")
        Self.expectSame(SingleTwice(), "single twice")
        Self.expectSame(UsesEscaped(), "escaped encoder")
        Self.expectSame(CaughtNaN(), "caught NaN")
        Self.expectSame(PathEcho(depth: 3), "coding paths")
        Self.expectSame([PathEcho(depth: 2), PathEcho(depth: 1)], "coding paths in a root array")
        Self.expectSame(Empties(), "empties")
        Self.expectSame([EncoderParityTests.Duplicates()], "duplicates", setups: Self.someSetups)
        Self.expectSame(EncoderParityTests.SlotOrder(), "slot order", setups: Self.someSetups)
        Self.expectSame(EncoderParityTests.NestedTwice(), "nested twice", setups: Self.someSetups)
        Self.expectSame(EncoderParityTests.ContainerTwice(), "container twice", setups: Self.someSetups)
        Self.expectSame(EncoderParityTests.UnusedContainers(), "unused containers", setups: Self.someSetups)
        for (count, repeatAt) in [(10, nil), (40, nil), (100, nil), (10, 3), (40, 35), (100, 0), (100, 99)] as [(Int, Int?)] {
            Self.expectSame(ManyKeys(count: count, repeatAt: repeatAt), "\(count) keys, repeat \(String(describing: repeatAt))",
                            setups: Self.someSetups)
        }
        for depth in [500, 509, 510, 511, 512, 513] {
            Self.expectSame(Deep(depth: depth), "depth \(depth)", setups: Self.someSetups)
            Self.expectSame([Deep(depth: depth)], "depth \(depth) in an array", setups: Self.someSetups)
        }
    }

    @Test func modelsMatchTheTape() {
        let records = RecordsFixture.make(count: 40, seed: 0xD1EC7).records
        Self.expectSame(records, "records")
        Self.expectSame(records[3], "one record")
        let values: [(String, any Encodable)] = [
            ("scenario beers", [EncoderScenarioTests.endeavor, EncoderScenarioTests.guinness]),
            ("employee", EncoderScenarioTests.Employee(name: "Ann", employeeID: "E-1")),
            ("keyed employee", EncoderScenarioTests.KeyedEmployee(name: "Bob", employeeID: "E-2")),
            ("shapes", [EncoderParityTests.Shape.circle(radius: 1.5), .rect(width: 2, height: -0.0), .labelled("a/b", 3), .none]),
            ("keyed by enum", [EncoderParityTests.Style.ipa: 1, .stout: 2]),
            ("int keys", [Int8(-3): "a", 4: "b"]),
            ("optionals", [Int??.some(nil), nil, 1]),
            ("wrapper", ["w": EncoderParityTests.Wrapper(inner: ["someKey": [1, nil]])]),
            ("dates", [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1e11), Date(timeIntervalSince1970: 1.5e9 + 0.75)]),
            ("data", [Data(), Data([0, 1, 255]), Data(repeating: 7, count: 100)]),
            ("urls and decimals", [URL(string: "https://x.com/a?b=c")!] as [URL]),
            ("decimals", [Decimal(string: "12345678901234567890.123")!, Decimal(string: "-0.000123")!]),
            ("floats", [Float(0.1), 1e20, -0.0, .infinity, .nan]),
            ("doubles", [0.1, -0.0, 1e300, .infinity, -.infinity, .nan]),
            ("nested arrays", [[[1, 2], []], [[3]]]),
            ("string arrays", [["a", "b/c", "\u{1}"], []]),
            ("mixed scalar arrays", MixedArrays()),
            ("json values", try! StreamingJSONDecoder().decode(JSONValue.self, from: Data(#"{"a":[1,2.50,{"b":null}],"c":"d/e","f":1e400}"#.utf8))),
            ("json values nested", ["v": try! StreamingJSONDecoder().decode(JSONValue.self, from: Data(#"[{"x":{}},[]]"#.utf8))]),
        ]
        for (label, value) in values { Self.expectSame(value, label, setups: Self.someSetups) }
    }

    struct MixedArrays: Encodable {
        var ints = [Int.min, 0, Int.max]
        var bools = [true, false]
        var int64s: [Int64] = [-1, 2]
        var uint64s: [UInt64] = [UInt64.max]
        var doubles = [1.0, 2.5, -0.0]
        var strings = ["x", ""]
        var small: [Int8] = [-128, 127]
        var floats: [Float] = [1.5, 3]
    }

    @Test func streamWriterMatchesTheTape() throws {
        let records = RecordsFixture.make(count: 60, seed: 0x57AE).records
        for format in [JSONStreamFormat.array, .jsonLines] {
            for pretty in [false, true] {
                var outputs: [Data] = []
                for forcesTape in [false, true] {
                    let encoder = StreamingJSONEncoder()
                    encoder.outputFormatting = pretty ? .prettyPrinted : []
                    encoder.dateEncodingStrategy = .iso8601
                    encoder._forcesTape = forcesTape
                    let url = Enc.temporaryURL("EncoderDirectPathTests")
                    defer { try? FileManager.default.removeItem(at: url) }
                    let writer = try JSONStreamWriter<RecordsFixture.Record>(toFileAt: url, format: format, encoder: encoder)
                    for record in records { try writer.append(record) }
                    try writer.finish()
                    outputs.append(try Data(contentsOf: url))
                }
                #expect(outputs[0] == outputs[1], "\(format) pretty=\(pretty)")
            }
        }
    }

    // MARK: Scalars

    /// Foundation's text for a double: `description` without a trailing `.0`.
    static func reference(_ value: Double) -> String {
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    static func formatted(_ value: Double) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: _FastScalars.maxNumberLength) { buffer in
            let length = _FastScalars.formatDouble(value, to: buffer.baseAddress!)
            return String(decoding: UnsafeBufferPointer(start: buffer.baseAddress!, count: length), as: UTF8.self)
        }
    }

    @Test func doublesAreSwiftsShortestDescription() throws {
        var edges: [Double] = [
            0, -0.0, 1, -1, 1.0e-3, 0.001, 0.0001, 0.00012345, 1e-5, 9.999999999999999e-4, 0.1, 0.2, 0.3,
            0.1 + 0.2, 1.5, 4.35, 8.2, 3.98, 18.9, 100, 1e15, 1e16, 123456.789, 0x1p45, 0x1p45 - 1, 0x1p45 + 1,
            0x1p53, 0x1p53 - 1, 0x1p53 + 2, 1e300, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
            .ulpOfOne, 1 + .ulpOfOne, 1 - .ulpOfOne / 2, 2.5, 0.5, 0.25, 0.125, 1e22, 1e23, 33554432.5,
            35184372088831.99, 3.518437208883199e13, 0.30000000000000004, 1e-3.nextDown, 1e-3.nextUp,
        ]
        for exponent in -30...30 { edges.append(pow(10, Double(exponent))) }
        var failures: [String] = []
        func check(_ value: Double) {
            for v in [value, -value] where v.isFinite {
                let ours = Self.formatted(v)
                if ours != Self.reference(v), failures.count < 20 {
                    failures.append("\(v.bitPattern): ours \(ours), expected \(Self.reference(v))")
                }
            }
        }
        for value in edges {
            check(value)
            check(value.nextUp)
            check(value.nextDown)
        }
        var generator = XorShift(seed: 0xD0_0B1E)
        for _ in 0..<300_000 {
            // Random bit patterns: every exponent, full precision.
            check(Double(bitPattern: generator.next()))
            // Decimal-looking values: a few digits, a few decimals.
            let digits = Double(generator.next() % 100_000_000)
            let decimals = Int(generator.next() % 12)
            check(digits / pow(10, Double(decimals)))
            // Decimal-looking values nudged by an ulp or two.
            let nudged = digits / pow(10, Double(decimals))
            check(nudged.nextUp)
            check(nudged.nextDown.nextDown)
        }
        #expect(failures.isEmpty, "\(failures)")
        // Through the encoder, compared with Foundation.
        let sample = edges + (0..<2000).map { _ in Double(bitPattern: generator.next()) }.filter(\.isFinite)
        #expect(try Enc.ours(sample) { $0.outputFormatting = [] } == Enc.foundation(sample))
    }

    @Test func stringsAreEscapedAsFoundationDoes() throws {
        let alphabet: [String] = ["a", "Z", "0", " ", "\"", "\\", "/", "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{A}", "\u{C}",
                                  "\u{D}", "\u{1F}", "\u{7F}", "\u{80}", "é", "東", "\u{2028}", "\u{2029}", "🎉", "~"]
        var generator = XorShift(seed: 0x57_21_46)
        var strings: [String] = ["", "a", "abcdefg", "abcdefgh", "abcdefghi", "\"", "abcdefg\"", "abcdefgh\"", "\"abcdefgh"]
        for length in 0..<40 {
            for _ in 0..<40 {
                strings.append(String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }.joined()))
            }
        }
        // Long strings crossing the 1 KiB chunks, with escapes at and around the seams.
        for fill in ["x", "\"", "\u{1}", "é"] {
            for length in [1023, 1024, 1025, 3000, 7000] {
                strings.append(String(repeating: fill, count: length) + "\\end/")
                strings.append(String(repeating: "ab", count: length / 2) + "\u{0}" + String(repeating: fill, count: length))
            }
        }
        for noSlashes in [false, true] {
            let ours = try Enc.ours(strings) { $0.outputFormatting = noSlashes ? .withoutEscapingSlashes : [] }
            let foundation = try Enc.foundation(strings) { $0.outputFormatting = noSlashes ? .withoutEscapingSlashes : [] }
            #expect(ours == foundation, "noSlashes=\(noSlashes)")
            // Keys go through the same escaping.
            let keyed = Dictionary(strings.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
            let sortedOurs = try Enc.ours(keyed) { $0.outputFormatting = noSlashes ? [.withoutEscapingSlashes, .sortedKeys] : .sortedKeys }
            let sortedFoundation = try Enc.foundation(keyed) { $0.outputFormatting = noSlashes ? [.withoutEscapingSlashes, .sortedKeys] : .sortedKeys }
            #expect(sortedOurs == sortedFoundation)
            Self.expectSame(ManyStringKeys(keys: Array(keyed.keys)), "string keys", setups: Self.someSetups)
        }
    }

    struct ManyStringKeys: Encodable {
        var keys: [String]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: EncKey.self)
            for (index, key) in keys.enumerated() { try container.encode(index, forKey: EncKey(key)) }
        }
    }

    @Test func integersAndDates() throws {
        let integers: [Int] = [0, 9, 10, 99, 100, 12345, -1, -10, Int.min, Int.max] + (0..<19).map { Int(pow(10, Double($0))) }
        #expect(try Enc.ours(integers) == Enc.foundation(integers))
        let unsigned: [UInt64] = [0, 9, 10, UInt64.max, UInt64.max / 10, 10_000_000_000_000_000_000]
        #expect(try Enc.ours(unsigned) == Enc.foundation(unsigned))
        var generator = XorShift(seed: 0xDA7E)
        var dates: [Date] = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.5), Date(timeIntervalSince1970: 86_399.999),
                             Date(timeIntervalSince1970: -12_212_553_600), Date(timeIntervalSince1970: 253_402_300_799),
                             Date(timeIntervalSince1970: 253_402_300_800), Date(timeIntervalSince1970: -12_212_553_601)]
        for _ in 0..<2000 {
            dates.append(Date(timeIntervalSince1970: Double(Int64(generator.next() % 20_000_000_000)) - 10_000_000_000 + 0.25))
        }
        let ours = try Enc.ours(dates) { $0.dateEncodingStrategy = .iso8601 }
        let foundation = try Enc.foundation(dates) { $0.dateEncodingStrategy = .iso8601 }
        #expect(ours == foundation)
    }
}
