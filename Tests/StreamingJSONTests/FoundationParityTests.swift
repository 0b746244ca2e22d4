// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// Values of standard types encoded by Foundation's `JSONEncoder`, decoded by
/// Foundation's `JSONDecoder` and by ours: the results must be equal.
@Suite struct FoundationParityTests {
    struct Limits: Codable, Equatable {
        var int = Int.max, intMin = Int.min
        var int8 = Int8.max, int8Min = Int8.min
        var int16 = Int16.max, int16Min = Int16.min
        var int32 = Int32.max, int32Min = Int32.min
        var int64 = Int64.max, int64Min = Int64.min
        var uint = UInt.max, uint8 = UInt8.max, uint16 = UInt16.max, uint32 = UInt32.max, uint64 = UInt64.max
        var zero: UInt64 = 0
    }

    struct Floats: Codable, Equatable {
        var doubles: [Double] = [0, -0.0, 0.1, 0.2 + 0.1, 1e-300, Double.leastNonzeroMagnitude, Double.leastNormalMagnitude,
                                 Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, Double.pi,
                                 Double("123456789012345678")!, 1e22, 1e23, Double("9007199254740993")!, 2.5e-8, -1.5]
        var floats: [Float] = [0, -0.0, 0.1, Float.leastNonzeroMagnitude, Float.leastNormalMagnitude,
                               Float.greatestFiniteMagnitude, Float.pi, Float("16777217")!, 3.4e38, -7.25]
    }

    struct Misc: Codable, Equatable {
        var decimal = Decimal(string: "12345678901234567890.123456789")!
        var smallDecimal = Decimal(string: "-0.000123")!
        var decimals = [Decimal(1), Decimal(string: "3.14159")!, Decimal(string: "1e10")!]
        var url = URL(string: "https://example.com/a/b?c=d&e=%20f#frag")!
        var relativeLink = URL(string: "path/to/file.json")!
        var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        var data = Data([0, 1, 2, 250, 255])
        var emptyData = Data()
        var optional: Int? = 5
        var missing: Int? = nil
        var nested: [[Int?]?] = [[1, nil, 3], nil, []]
        var stringDictionary: [String: Int] = ["one": 1, "two_words": 2, "": 0, "ünïcødé": 4]
        var intDictionary: [Int: String] = [1: "a", -20: "b", 300: "c"]
        var nestedDictionary: [String: [String: [Int]]] = ["a": ["b": [1, 2]], "c": [:]]
        var string = "quote \" backslash \\ slash / tab \t newline \n nul \u{0} emoji 🎉 é"
        var bools = [true, false]
    }

    struct Dates: Codable, Equatable {
        var dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_510_583_415),
                     Date(timeIntervalSince1970: -86_400 * 365 * 50), Date(timeIntervalSince1970: 4_102_444_800)]
    }

    func check<T: Codable & Equatable>(_ value: T, configure: (JSONEncoder, JSONDecoder, StreamingJSONDecoder) -> Void = { _, _, _ in }) throws {
        let encoder = JSONEncoder()
        let foundation = JSONDecoder()
        let ours = StreamingJSONDecoder()
        configure(encoder, foundation, ours)
        let data = try encoder.encode(value)
        let expected = try foundation.decode(T.self, from: data)
        let actual = try ours.decode(T.self, from: data)
        #expect(actual == expected, "\(String(decoding: data, as: UTF8.self))")
        // And split into tiny chunks.
        #expect(try Engine.decode(T.self, data, chunk: 3, decoder: ours) == expected)
    }

    @Test func integerLimits() throws { try check(Limits()) }
    @Test func floatingPointEdges() throws { try check(Floats()) }
    @Test func foundationTypes() throws { try check(Misc()) }

    @Test func dataDeferredToData() throws {
        try check(Misc()) { encoder, foundation, ours in
            encoder.dataEncodingStrategy = .deferredToData
            foundation.dataDecodingStrategy = .deferredToData
            ours.dataDecodingStrategy = .deferredToData
        }
    }

    @Test func snakeCaseKeysLeaveDictionaryKeysAlone() throws {
        try check(Misc()) { encoder, foundation, ours in
            encoder.keyEncodingStrategy = .convertToSnakeCase
            foundation.keyDecodingStrategy = .convertFromSnakeCase
            ours.keyDecodingStrategy = .convertFromSnakeCase
        }
    }

    @Test func datesDeferred() throws { try check(Dates()) }

    @Test func datesSecondsSince1970() throws {
        try check(Dates()) { encoder, foundation, ours in
            encoder.dateEncodingStrategy = .secondsSince1970
            foundation.dateDecodingStrategy = .secondsSince1970
            ours.dateDecodingStrategy = .secondsSince1970
        }
    }

    @Test func datesMillisecondsSince1970() throws {
        try check(Dates()) { encoder, foundation, ours in
            encoder.dateEncodingStrategy = .millisecondsSince1970
            foundation.dateDecodingStrategy = .millisecondsSince1970
            ours.dateDecodingStrategy = .millisecondsSince1970
        }
    }

    @Test func datesISO8601() throws {
        try check(Dates()) { encoder, foundation, ours in
            encoder.dateEncodingStrategy = .iso8601
            foundation.dateDecodingStrategy = .iso8601
            ours.dateDecodingStrategy = .iso8601
        }
    }

    @Test func datesFormatted() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        try check(Dates()) { encoder, foundation, ours in
            encoder.dateEncodingStrategy = .formatted(formatter)
            foundation.dateDecodingStrategy = .formatted(formatter)
            ours.dateDecodingStrategy = .formatted(formatter)
        }
    }

    @Test func datesCustom() throws {
        try check(Dates()) { encoder, foundation, ours in
            encoder.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode("@\(Int(date.timeIntervalSince1970))")
            }
            let read: @Sendable (any Decoder) throws -> Date = { decoder in
                let text = try decoder.singleValueContainer().decode(String.self)
                return Date(timeIntervalSince1970: Double(text.dropFirst())!)
            }
            foundation.dateDecodingStrategy = .custom(read)
            ours.dateDecodingStrategy = .custom(read)
        }
    }

    @Test func nonConformingFloats() throws {
        struct Values: Codable, Equatable {
            var values: [Double] = [1.5, .infinity, -.infinity]
            var single: Float = -.infinity
        }
        try check(Values()) { encoder, foundation, ours in
            encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
            foundation.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
            ours.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
        }
    }

    @Test func topLevelScalarsAndArrays() throws {
        try check(42)
        try check("text")
        try check([UInt64.max, 0])
        try check([[String: Double]]([["a": 1.5], [:]]))
        try check(Optional<Int>.none)
    }

    @Test(arguments: ["1e3", "34.0", "-0", "1.0e2", "100e-2", "0.0", "-12.000e1"])
    func integralLiteralsDecodeAsIntegers(_ literal: String) throws {
        let data = Data("[\(literal)]".utf8)
        let expected = try JSONDecoder().decode([Int].self, from: data)
        #expect(try StreamingJSONDecoder().decode([Int].self, from: data) == expected)
    }

    @Test(arguments: ["1.5", "1e-1", "300", "1e400", "-129", "18446744073709551616"])
    func literalsThatDoNotFitInt8Fail(_ literal: String) throws {
        let data = Data("[\(literal)]".utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Int8].self, from: data) }
        #expect(throws: DecodingError.self) { try StreamingJSONDecoder().decode([Int8].self, from: data) }
    }

    @Test func duplicateKeysFirstOccurrenceWins() throws {
        struct Pair: Decodable, Equatable { var a: Int; var b: Int }
        let data = Data(#"{"a":1,"b":2,"a":3}"#.utf8)
        let ours = try StreamingJSONDecoder().decode(Pair.self, from: data)
        #expect(ours == Pair(a: 1, b: 2))
        #expect(try StreamingJSONDecoder().decode([String: Int].self, from: data) == ["a": 1, "b": 2])
    }

    /// Lookups start where the previous one ended (document order is the
    /// common case); any other order, repeated lookups and repeated keys must
    /// still find the first occurrence, as a scan from the start would.
    @Test(arguments: [
        #"{"a":1,"b":2,"c":3,"a":4,"b":5,"c":6}"#,
        #"{"c":3,"b":2,"a":1,"c":6,"a":4}"#,
        #"{"x":[1,{"a":9}],"b":2,"a":1,"c":3,"b":7,"a":8}"#,
        #"{"a":1,"aa":0,"b":2,"ba":0,"c":3,"ca":0,"b":5}"#,
    ])
    func keyLookupsInAnyOrderFindTheFirstOccurrence(_ json: String) throws {
        struct Probe: Decodable, Equatable {
            var values: [Int] = []
            enum Key: String, CodingKey { case a, b, c, missing }
            init(values: [Int]) { self.values = values }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Key.self)
                // In order, again, backwards, interleaved with misses and contains.
                for key in [Key.a, .b, .c, .a, .c, .b, .missing, .b, .a] {
                    if container.contains(key) { values.append(try container.decode(Int.self, forKey: key)) }
                    else { values.append(-1) }
                }
                values.append(try container.decodeIfPresent(Int.self, forKey: .c) ?? -2)
            }
        }
        let data = Data(json.utf8)
        #expect(try StreamingJSONDecoder().decode(Probe.self, from: data) == (try JSONDecoder().decode(Probe.self, from: data)))
    }
}
