import Foundation
import Testing
@testable import JSONFilter
@testable import StreamingJSON

/// Every input a fuzz target (Fuzz/, scripts/fuzz) stopped on, kept in
/// Tests/Fixtures/fuzz-regressions/TARGET/ and run through that target's own
/// check (FuzzChecks/), with the outcome it must give now; then each bug the
/// fuzzers found, as a plain test of the API it was in.
@Suite struct FuzzRegressionTests {
    static let directory = Engine.fixtures.appendingPathComponent("fuzz-regressions")

    static func input(_ target: String, _ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(target).appendingPathComponent(name)))
    }

    static func saved(_ target: String) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(target).path)) ?? [])
    }

    // MARK: Saved inputs and their outcomes

    static let stream: [String: [String]] = [
        "feed-elements-before-syntax-error": [
            "element 1", "element 2", "error syntax error at 5:1:6 Unexpected character 'x'"],
        "feed-elements-before-syntax-error-chunked": [
            "element 1", "element 2", "error syntax error at 5:1:6 Unexpected character 'x'"],
        "lines-truncated-value-bytewise": ["error syntax error at 4:1:5 Unexpected end of input"],
    ]

    static let typed: [String: String] = [
        "number-out-of-range-coding-path": "dataCorrupted at [count]",
    ]

    static let filter: [String: String] = [
        // Array indices past Int's range used to trap converting the double.
        "index-past-int-range": #"[{"t":null,"l":0}]"#,   // [.tags[1e35]|…] on a beer
        "slice-past-int-range": "[[]]",                     // [1,2,3] | .[1e19:]
        "del-past-int-range": "[[1,2,3]]",                  // [1,2,3] | del(.[1e19])
        "setpath-past-int-range": "[] then Array index too large",
        "setpath-nan-index": "[] then Out of bounds negative array index",
        // "a" * 1e300 used to trap converting the count.
        "string-repeat-past-int-range": "[] then Repeat string result too long",
    ]

    static let roundTrip: [String: String] = [
        // The key "" first held NaN, then "": the value has no NaN to refuse.
        "duplicate-key-replaces-nan": #"{"null,n\#u{FFFF}\#u{FFFF}\#u{FFFF}\#u{FFFF}":"","":""}"#,
    ]

    static let decode: [String: String] = [:]

    @Test func everySavedInputHasAnExpectedOutcome() {
        #expect(Self.saved("stream") == Set(Self.stream.keys))
        #expect(Self.saved("typed") == Set(Self.typed.keys))
        #expect(Self.saved("filter") == Set(Self.filter.keys))
        #expect(Self.saved("roundtrip") == Set(Self.roundTrip.keys))
        #expect(Self.saved("decode") == Set(Self.decode.keys))
    }

    @Test(arguments: stream.keys.sorted())
    func streamInput(_ name: String) async throws {
        let events = try await StreamChunksCheck.run(Self.input("stream", name))
        #expect(events.map(\.description) == Self.stream[name])
    }

    @Test(arguments: typed.keys.sorted())
    func typedInput(_ name: String) throws {
        switch try TypedModelCheck.run(Self.input("typed", name)) {
        case .value(let value): Issue.record("decoded \(value)")
        case .error(let summary): #expect(summary == Self.typed[name])
        }
    }

    @Test(arguments: filter.keys.sorted())
    func filterInput(_ name: String) throws {
        let outcome = try FilterCheck.run(Self.input("filter", name)).description
        #expect(outcome == Self.filter[name])
    }

    @Test(arguments: roundTrip.keys.sorted())
    func roundTripInput(_ name: String) throws {
        let value = try RoundTripCheck.run(Self.input("roundtrip", name)).description
        #expect(value == Self.roundTrip[name])
    }

    @Test(arguments: decode.keys.sorted())
    func decodeInput(_ name: String) throws {
        let outcome = switch try DecodeValueCheck.run(Self.input("decode", name)) {
        case .success(let value): "\(value)"
        case .failure(let error): "\(syntaxError(of: error).map { "\($0)" } ?? "\(error)")"
        }
        #expect(outcome == Self.decode[name])
    }

    // MARK: The bugs, through the API they were in

    /// The feed handed out the elements a call decoded before a syntax error
    /// only with the next call, which threw the error again instead. Now the
    /// call returns them and the next one throws the error.
    @Test func feedReturnsTheElementsBeforeASyntaxError() throws {
        let feed = JSONElementFeed(of: Int.self, format: .array)
        #expect(try feed.feed(Array("[1,2,x".utf8)) == [1, 2])
        let error = #expect(throws: DecodingError.self) { try feed.finish() }
        #expect(error.flatMap { syntaxError(of: $0) }?.byteOffset == 5)
        #expect(throws: DecodingError.self) { try feed.finish() }  // and again
    }

    /// Indices and counts past Int's range trapped converting the double.
    @Test(arguments: [
        (".[1e19]", "[1,2,3]", "null"),
        (".[-1e19]", "[1,2,3]", "null"),
        (".[1e19:]", "[1,2,3]", "[]"),
        (".[:-1e300]", "[1,2,3]", "[]"),
        ("del(.[1e19])", "[1,2,3]", "[1,2,3]"),
        ("\"\" * 1e300", "null", "\"\""),
    ])
    func filterNumbersPastIntRange(_ source: String, _ input: String, _ expected: String) throws {
        let value = try StreamingJSONDecoder().decode(JSONValue.self, from: Data(input.utf8))
        #expect(try JSONFilter(source).apply(to: value).map(\.description) == [expected])
    }

    @Test(arguments: [
        ("\"ab\" * 1e300", "Repeat string result too long"),
        ("\"ab\" * 2e9", "Repeat string result too long"),
        ("setpath([1e19]; 1)", "Array index too large"),
        ("setpath([536870912]; 1)", "Array index too large"),
        ("setpath([nan]; 1)", "Out of bounds negative array index"),
        ("del(.[nan])", "Out of bounds negative array index"),
    ])
    func filterRefusesWhatItCannotBuild(_ source: String, _ message: String) throws {
        let error = #expect(throws: JSONFilterError.self) { try JSONFilter(source).apply(to: [1, 2]) }
        #expect(error?.message == message)
    }
}
