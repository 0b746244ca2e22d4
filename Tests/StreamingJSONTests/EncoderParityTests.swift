// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// Byte-for-byte comparison with Foundation's `JSONEncoder` (with `.sortedKeys`,
/// without which Foundation's key order is unspecified) over deterministically
/// generated values and every option.
@Suite struct EncoderParityTests {

    // MARK: Comparing

    enum Outcome: Equatable, CustomStringConvertible {
        case json(String)
        case encodingError
        case otherError(String)

        var description: String {
            switch self {
            case .json(let text): return text.debugDescription
            case .encodingError: return "EncodingError"
            case .otherError(let text): return "error \(text)"
            }
        }

        init(_ body: () throws -> Data) {
            do {
                self = .json(Enc.text(try body()))
            } catch is EncodingError {
                self = .encodingError
            } catch {
                self = .otherError("\(type(of: error)): \(error)")
            }
        }
    }

    /// Compares many values; records the number of differences and the first few.
    struct Comparison {
        var compared = 0
        var succeeded = 0
        var differences: [String] = []

        mutating func check<T: Encodable>(_ value: T, _ setup: EncodingSetup, _ label: @autoclosure () -> String = "") {
            let ours = Outcome { let e = StreamingJSONEncoder(); setup.configure(e); return try e.encode(value) }
            let foundation = Outcome { let e = JSONEncoder(); setup.configure(e); return try e.encode(value) }
            compared += 1
            if case .json = foundation { succeeded += 1 }
            if ours != foundation {
                differences.append("\(label()) [\(setup)]\n  ours:       \(ours)\n  Foundation: \(foundation)")
            }
        }

        func report(minimum: Int, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(compared >= minimum, sourceLocation: sourceLocation)
            if !differences.isEmpty {
                let first = differences.prefix(5).joined(separator: "\n")
                Issue.record("\(differences.count) of \(compared) differ from Foundation; first ones:\n\(first)",
                             sourceLocation: sourceLocation)
            }
        }
    }

    // MARK: Generated standard-type values

    struct Sample: Encodable {
        var int: Int, int8: Int8, int16: Int16, int32: Int32, int64: Int64
        var uint: UInt, uint8: UInt8, uint16: UInt16, uint32: UInt32, uint64: UInt64
        var float: Float
        var double: Double
        var doubles: [Double]
        var floats: [Float]
        var string: String
        var strings: [String]
        var bool: Bool
        var optionalInt: Int?
        var optionalString: String?
        var optionalDate: Date?
        var nested: [[Int]]
        var dictionary: [String: [String: Double]]
        var intDictionary: [Int: String]
        var optionals: [Int?]
        var date: Date
        var data: Data
        var url: URL
        var decimal: Decimal
        var uuid: UUID
        var empty: [String] = []
        var emptyObject: [String: Int] = [:]
        var camelCaseKey: String
        var someURLValue: Int
    }

    /// String content that exercises escaping: every control character, quotes,
    /// slashes, backslashes, DEL, separators, non-ASCII, emoji.
    static let stringPieces: [String] = {
        var pieces = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        pieces += ["\"", "\\", "/", "//", "\u{7F}", "\u{2028}", "\u{2029}", "é", "e\u{301}", "东京", "Zürich", "🍺",
                   "👨‍👩‍👧", "🇨🇭", "\u{FEFF}", "\u{FFFF}", "\u{10FFFF}", "a", "Saint Arnold", " ", "</script>",
                   "\\u0041", "'", "{}", "[1,2]", "null", "\u{80}", "\u{9F}", "\u{A0}"]
        return pieces
    }()

    static let urls: [URL] = [
        URL(string: "https://example.com/a/b?c=d&e=%20f#frag")!,
        URL(string: "path/to/file.json")!,
        URL(string: "b/c", relativeTo: URL(string: "https://x.com/a/")!)!,
        URL(fileURLWithPath: "/tmp/some dir/ü.json"),
        URL(string: "mailto:someone@example.com")!,
        URL(string: "http://[::1]:8080/x%2Fy")!,
        URL(string: "https://例え.jp/%E6%97%A5")!,
    ]

    struct Generator {
        var rng: XorShift

        mutating func pick<T>(_ items: [T]) -> T { items[rng.below(items.count)] }
        mutating func int<T: FixedWidthInteger>(_: T.Type) -> T {
            switch rng.below(6) {
            case 0: return .min
            case 1: return .max
            case 2: return 0
            case 3: return T(truncatingIfNeeded: rng.below(201) - 100)
            default: return T(truncatingIfNeeded: rng.next() >> UInt64(rng.below(64)))
            }
        }
        mutating func double(nonFinite: Bool) -> Double {
            switch rng.below(nonFinite ? 14 : 13) {
            case 0: return pick([0.0, -0.0, 1, -1, 0.1, 0.2 + 0.1, 100, 1e15, 1e16, 1e17, 1e20, 1e21, 1e22, 1e23, 5e-7, 1.5e-7, 1e-5, 1e-4, 0.001])
            case 1: return pick([Double.leastNonzeroMagnitude, Double.leastNormalMagnitude, Double.greatestFiniteMagnitude,
                                 -Double.greatestFiniteMagnitude, Double.pi, Double.ulpOfOne, Double("9007199254740993")!, 9007199254740992,
                                 Double("123456789012345678")!, -Double.leastNormalMagnitude.nextDown])
            case 2: return Double(bitPattern: rng.next() & 0x000F_FFFF_FFFF_FFFF) * (rng.chance(50) ? 1 : -1)  // subnormal
            case 3: return Double(Int64(truncatingIfNeeded: rng.next()) >> Int64(rng.below(63)))  // integers as doubles
            case 4: return Double(rng.below(2_000_001) - 1_000_000) / 1000
            case 5: return Double(rng.below(999) + 1) * pow(10, Double(rng.below(600) - 300))
            case 13: return pick([Double.nan, .infinity, -.infinity])
            default:
                var value: Double
                repeat { value = Double(bitPattern: rng.next()) } while !value.isFinite
                return value
            }
        }
        mutating func float(nonFinite: Bool) -> Float {
            switch rng.below(nonFinite ? 8 : 7) {
            case 0: return pick([Float(0), -0.0, 0.1, 1e20, 3.4028235e38, Float.leastNonzeroMagnitude, 16777216, Float("16777217")!, Float.leastNormalMagnitude, 8.9, 4.2])
            case 1: return Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()) & 0x007F_FFFF)  // subnormal
            case 2: return Float(rng.below(2_000_001) - 1_000_000) / 100
            case 7: return pick([Float.nan, .infinity, -.infinity])
            default:
                var value: Float
                repeat { value = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next())) } while !value.isFinite
                return value
            }
        }
        mutating func string() -> String {
            if rng.chance(8) { return "" }
            return (0..<(1 + rng.below(8))).map { _ in pick(EncoderParityTests.stringPieces) }.joined()
        }
        mutating func date() -> Date {
            let fraction = pick([0.0, 0.25, 0.5, 0.999, 0.001, 0.0005, Double(rng.below(1_000_000)) / 1_000_000])
            let seconds = Double(Int64(rng.below(7_000_000_000)) - 3_000_000_000)
            return Date(timeIntervalSince1970: rng.chance(10) ? pick([0, -1, 1, 0.5, -0.5, 978_307_200]) : seconds + fraction)
        }
        mutating func decimal() -> Decimal {
            let digits = String((0..<(1 + rng.below(30))).map { _ in Character(String(rng.below(10))) })
            let text = (rng.chance(30) ? "-" : "") + digits + (rng.chance(50) ? "e\(rng.below(40) - 20)" : "")
            return Decimal(string: text) ?? 0
        }

        mutating func sample(nonFinite: Bool) -> Sample {
            Sample(
                int: int(Int.self), int8: int(Int8.self), int16: int(Int16.self), int32: int(Int32.self), int64: int(Int64.self),
                uint: int(UInt.self), uint8: int(UInt8.self), uint16: int(UInt16.self), uint32: int(UInt32.self), uint64: int(UInt64.self),
                float: float(nonFinite: nonFinite), double: double(nonFinite: nonFinite),
                doubles: (0..<rng.below(6)).map { _ in double(nonFinite: nonFinite) },
                floats: (0..<rng.below(4)).map { _ in float(nonFinite: nonFinite) },
                string: string(), strings: (0..<rng.below(4)).map { _ in string() },
                bool: rng.chance(50),
                optionalInt: rng.chance(50) ? nil : int(Int.self),
                optionalString: rng.chance(50) ? nil : string(),
                optionalDate: rng.chance(50) ? nil : date(),
                nested: (0..<rng.below(4)).map { _ in (0..<rng.below(4)).map { _ in int(Int.self) } },
                dictionary: Dictionary(uniqueKeysWithValues: (0..<rng.below(4)).map { index in
                    ("\(index)" + string(), Dictionary(uniqueKeysWithValues: (0..<rng.below(3)).map { ("k\($0)" + string(), double(nonFinite: false)) }))
                }),
                intDictionary: Dictionary((0..<rng.below(4)).map { _ in (int(Int.self), string()) }, uniquingKeysWith: { a, _ in a }),
                optionals: (0..<rng.below(4)).map { _ in rng.chance(40) ? nil : Int(int(Int16.self)) },
                date: date(),
                data: Data((0..<rng.below(40)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }),
                url: pick(EncoderParityTests.urls),
                decimal: decimal(),
                uuid: UUID(uuid: (UInt8(rng.below(256)), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, UInt8(rng.below(256)))),
                camelCaseKey: string(),
                someURLValue: rng.below(10))
        }

        mutating func setup() -> EncodingSetup {
            EncodingSetup(pretty: rng.chance(50), sorted: true, noSlashes: rng.chance(30),
                          date: pick(EncodingSetup.DateChoice.allCases), data: pick(EncodingSetup.DataChoice.allCases),
                          floats: pick(EncodingSetup.FloatChoice.allCases), keys: pick(EncodingSetup.KeyChoice.allCases))
        }
    }

    @Test func generatedStandardTypesMatchFoundation() {
        var generator = Generator(rng: XorShift(seed: 0xE1C0_DE25))
        var comparison = Comparison()
        for index in 0..<1_200 {
            let sample = generator.sample(nonFinite: index % 10 == 9)
            let setup = generator.setup()
            comparison.check(sample, setup, "sample \(index)")
        }
        comparison.report(minimum: 1_200)
        // Most samples must encode (non-finite ones under .throw do not, in both).
        #expect(comparison.succeeded > 1_000)
    }

    @Test func everyOptionCombinationOnOneSample() {
        var generator = Generator(rng: XorShift(seed: 42))
        let samples = (0..<3).map { _ in generator.sample(nonFinite: false) }
        var comparison = Comparison()
        for pretty in [false, true] {
            for noSlashes in [false, true] {
                for date in EncodingSetup.DateChoice.allCases {
                    for data in EncodingSetup.DataChoice.allCases {
                        for keys in EncodingSetup.KeyChoice.allCases {
                            let setup = EncodingSetup(pretty: pretty, noSlashes: noSlashes, date: date, data: data, keys: keys)
                            for (index, sample) in samples.enumerated() { comparison.check(sample, setup, "sample \(index)") }
                        }
                    }
                }
            }
        }
        comparison.report(minimum: 2 * 2 * 8 * 5 * 3 * 3)
    }

    @Test func topLevelScalarsMatchFoundation() {
        var generator = Generator(rng: XorShift(seed: 7))
        var comparison = Comparison()
        for index in 0..<300 {
            let setup = generator.setup()
            comparison.check(generator.int(Int64.self), setup, "Int64 \(index)")
            comparison.check(generator.int(UInt64.self), setup, "UInt64 \(index)")
            comparison.check(generator.int(Int8.self), setup, "Int8 \(index)")
            comparison.check(generator.double(nonFinite: true), setup, "Double \(index)")
            comparison.check(generator.float(nonFinite: true), setup, "Float \(index)")
            comparison.check(generator.string(), setup, "String \(index)")
            comparison.check(generator.date(), setup, "Date \(index)")
            comparison.check(Data((0..<generator.rng.below(10)).map { UInt8($0 * 37 & 0xFF) }), setup, "Data \(index)")
            comparison.check(generator.decimal(), setup, "Decimal \(index)")
            comparison.check(generator.pick(Self.urls), setup, "URL \(index)")
            comparison.check(index % 2 == 0, setup, "Bool \(index)")
            comparison.check(index % 3 == 0 ? nil : Optional(generator.string()), setup, "String? \(index)")
        }
        comparison.report(minimum: 3_600)
    }

    @Test func extremesAndEscapesExactly() throws {
        // Known spellings, asserted literally and against Foundation.
        let cases: [(any Encodable, String)] = [
            ([Int64.min, Int64.max], "[-9223372036854775808,9223372036854775807]"),
            ([UInt64.max, 0], "[18446744073709551615,0]"),
            ([Int8.min, Int8.max], "[-128,127]"),
            ([1e20, 1.5e-7, -0.0, 0.1, 100, 1e16, Double.leastNonzeroMagnitude, 1.7976931348623157e308] as [Double],
             "[1e+20,1.5e-07,-0,0.1,100,1e+16,5e-324,1.7976931348623157e+308]"),
            ([0.1, 1e20, 3.4028235e38, Float.leastNonzeroMagnitude, 16777216, -0.0] as [Float], "[0.1,1e+20,3.4028235e+38,1e-45,16777216,-0]"),
            ("a/b\u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1F}\u{7F}\u{2028}\u{2029}é🎉\"\\",
             "\"a\\/b\\u0000\\u0001\\b\\t\\n\\u000b\\f\\r\\u001f\u{7F}\u{2028}\u{2029}é🎉\\\"\\\\\""),
            (URL(string: "https://x.com/a?b=c")!, #""https:\/\/x.com\/a?b=c""#),
            (URL(string: "b/c", relativeTo: URL(string: "https://x.com/a/")!)!, #""https:\/\/x.com\/a\/b\/c""#),
            ([Decimal(string: "12345678901234567890.123456789")!, Decimal(string: "-0.000123")!, Decimal(string: "1e10")!],
             "[12345678901234567890.123456789,-0.000123,10000000000]"),
            (UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, #""E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#),
            ([true, false], "[true,false]"),
        ]
        for (value, expected) in cases {
            #expect(Enc.text(try StreamingJSONEncoder().encode(value)) == expected)
            #expect(Enc.text(try JSONEncoder().encode(value)) == expected, "Foundation disagrees with the expectation")
        }
        #expect(try Enc.ours("a/b") { $0.outputFormatting = .withoutEscapingSlashes } == #""a/b""#)
        // Every control character, alone.
        for scalar in 0..<0x20 {
            let string = String(UnicodeScalar(UInt8(scalar)))
            #expect(try Enc.ours(string) == Enc.foundation(string), "U+\(String(scalar, radix: 16))")
        }
    }

    // MARK: Records model

    @Test func recordsMatchFoundation() {
        let records = RecordsFixture.make(count: 500, seed: 0xFACE_B00C).records
        var comparison = Comparison()
        var rng = XorShift(seed: 99)
        for (index, record) in records.enumerated() {
            comparison.check(record, EncodingSetup(), "record \(index) compact")
            comparison.check(record, EncodingSetup(pretty: true), "record \(index) pretty")
            let other = EncodingSetup(pretty: rng.chance(50), noSlashes: rng.chance(50),
                                      date: EncodingSetup.DateChoice.allCases[rng.below(8)],
                                      keys: EncodingSetup.KeyChoice.allCases[rng.below(3)])
            comparison.check(record, other, "record \(index)")
        }
        // The whole array at once, too.
        comparison.check(records, EncodingSetup(date: .iso8601), "all records")
        comparison.check(records, EncodingSetup(pretty: true, date: .iso8601), "all records pretty")
        comparison.report(minimum: 1_500)
    }

    // MARK: Edge semantics, where Foundation is deterministic (sorted keys)

    struct Duplicates: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: EncKey.self)
            try container.encode(1, forKey: "a")
            try container.encode(2, forKey: "b")
            try container.encode(3, forKey: "a")
            try container.encode([1], forKey: "c")
            try container.encode("x", forKey: "c")
        }
    }

    struct SlotOrder: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(1)
            var nested = container.nestedUnkeyedContainer()
            try container.encode(2)
            try nested.encode(3)
            let superEncoder = container.superEncoder()
            var again = encoder.unkeyedContainer()
            var single = superEncoder.singleValueContainer()
            try single.encode(4)
            try again.encode(5)
        }
    }

    struct NestedTwice: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: EncKey.self)
            var first = container.nestedContainer(keyedBy: EncKey.self, forKey: "n")
            try first.encode(1, forKey: "x")
            var second = container.nestedContainer(keyedBy: EncKey.self, forKey: "n")
            try second.encode(2, forKey: "y")
            try first.encode(3, forKey: "z")
        }
    }

    struct ContainerTwice: Encodable {
        func encode(to encoder: any Encoder) throws {
            var first = encoder.container(keyedBy: EncKey.self)
            try first.encode(1, forKey: "a")
            var second = encoder.container(keyedBy: EncKey.self)
            try second.encode(2, forKey: "b")
            try first.encode(3, forKey: "c")
        }
    }

    struct UnusedContainers: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            _ = container.nestedContainer(keyedBy: EncKey.self)
            _ = container.nestedUnkeyedContainer()
            _ = container.superEncoder()
            var keyed = container.nestedContainer(keyedBy: EncKey.self)
            _ = keyed.superEncoder(forKey: "p")
            _ = keyed.nestedUnkeyedContainer(forKey: "q")
            _ = keyed.superEncoder()
        }
    }

    struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }

    @Test func edgeSemanticsMatchFoundation() throws {
        let cases: [(String, any Encodable, String)] = [
            ("duplicate keys", Duplicates(), #"{"a":3,"b":2,"c":"x"}"#),
            ("slot order", SlotOrder(), "[1,[3],2,4,5]"),
            ("nested twice", NestedTwice(), #"{"n":{"x":1,"y":2,"z":3}}"#),
            ("container twice", ContainerTwice(), #"{"a":1,"b":2,"c":3}"#),
            ("unused containers", UnusedContainers(), #"[{},[],{},{"p":{},"q":[],"super":{}}]"#),
            ("nothing in array", [Nothing()], "[{}]"),
            ("nothing in object", ["k": Nothing()], #"{"k":{}}"#),
        ]
        for (label, value, expected) in cases {
            for pretty in [false, true] {
                let setup = EncodingSetup(pretty: pretty)
                let ours = Outcome { let e = StreamingJSONEncoder(); setup.configure(e); return try e.encode(value) }
                let foundation = Outcome { let e = JSONEncoder(); setup.configure(e); return try e.encode(value) }
                #expect(ours == foundation, "\(label) pretty=\(pretty)")
                if !pretty { #expect(foundation == .json(expected), "Foundation disagrees with the expectation: \(label)") }
            }
        }
        // Without sortedKeys: last value at the first key's position; slots reserved at creation.
        #expect(try Enc.ours(Duplicates()) == #"{"a":3,"b":2,"c":"x"}"#)
        #expect(try Enc.ours(NestedTwice()) == #"{"n":{"x":1,"y":2,"z":3}}"#)
        #expect(try Enc.ours(ContainerTwice()) == #"{"a":1,"b":2,"c":3}"#)
        #expect(try Enc.ours(SlotOrder()) == "[1,[3],2,4,5]")
    }

    @Test func valueThatEncodesNothingThrowsAtTopLevel() {
        let ours = Enc.encodingError { _ = try StreamingJSONEncoder().encode(Nothing()) }
        let foundation = Enc.encodingError { _ = try JSONEncoder().encode(Nothing()) }
        guard case .invalidValue? = ours, case .invalidValue? = foundation else {
            Issue.record("expected invalidValue from both: ours \(String(describing: ours)), Foundation \(String(describing: foundation))")
            return
        }
    }

    // MARK: Other shapes, under every key strategy

    enum Shape: Codable { case circle(radius: Double), rect(width: Double, height: Double), labelled(String, Int), none }

    enum Style: String, Codable, CodingKeyRepresentable { case ipa, stout }
    enum PlainStyle: String, Codable { case ipa, stout }

    /// Encodes its dictionary through a single-value container.
    struct Wrapper: Encodable {
        var inner: [String: [Int?]]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(inner)
        }
    }

    @Test func otherShapesMatchFoundation() {
        let values: [(String, any Encodable)] = [
            ("enum with payloads", [Shape.circle(radius: 1.5), .rect(width: 2, height: -0.0), .labelled("a/b", 3), .none]),
            ("CodingKeyRepresentable keys", [Style.ipa: 1, .stout: 2]),
            ("raw-value enum keys (array form)", [PlainStyle.ipa: 1]),
            ("Double keys (array form)", [1.5: "a"]),
            ("Bool keys (array form)", [true: [1, 2]]),
            ("UUID keys (array form)", [UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!: "x"]),
            ("Int8 keys", [Int8(-3): "a", 4: "b"]),
            ("UInt64 keys", [UInt64.max: "max"]),
            ("double optionals", [Int??.some(nil), nil, 1]),
            ("optional dictionary", [String: Int?](dictionaryLiteral: ("a", nil), ("b", 2))),
            ("single-value wrapper", ["w": Wrapper(inner: ["someKey": [1, nil]])]),
            ("employee", EncoderScenarioTests.Employee(name: "Ann", employeeID: "E-1")),
            ("keyed employee", EncoderScenarioTests.KeyedEmployee(name: "Bob", employeeID: "E-2")),
            ("grocery store", EncoderScenarioTests.GroceryStore(products: [.init(name: "someProduct", points: 1, description: nil)])),
            ("drinks", [EncoderScenarioTests.Drink(type: "water", description: "x"),
                        EncoderScenarioTests.DrinkBeer(description: "y", alcoholContent: "5%")]),
            ("duplicates", Duplicates()),
            ("nested twice", NestedTwice()),
            ("unused containers", UnusedContainers()),
            ("records", RecordsFixture.make(count: 5, seed: 3).records),
        ]
        var comparison = Comparison()
        for (label, value) in values {
            for keys in EncodingSetup.KeyChoice.allCases {
                for pretty in [false, true] {
                    comparison.check(value, EncodingSetup(pretty: pretty, keys: keys), label)
                }
            }
        }
        comparison.report(minimum: values.count * 6)
        #expect(comparison.succeeded == comparison.compared)
    }

    // MARK: One encoder shared between tasks

    @Test func sharedEncoderFromManyTasks() async throws {
        let records = RecordsFixture.make(count: 60, seed: 0x5EA5).records
        let encoder = StreamingJSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.dateEncodingStrategy = .iso8601
        let reference = JSONEncoder()
        reference.outputFormatting = [.sortedKeys, .prettyPrinted]
        reference.dateEncodingStrategy = .iso8601
        let expected = try records.map { try reference.encode($0) }
        let results = try await withThrowingTaskGroup(of: (Int, [Data]).self) { group in
            for task in 0..<8 {
                group.addTask {
                    (task, try records.map { try encoder.encode($0) })
                }
            }
            var all: [Int: [Data]] = [:]
            for try await (task, data) in group { all[task] = data }
            return all
        }
        #expect(results.count == 8)
        for (task, data) in results { #expect(data == expected, "task \(task)") }
    }
}
