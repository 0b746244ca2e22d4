// SPDX-License-Identifier: Apache-2.0
import Foundation
import TestSupport
import Testing
@testable import JSONFilter
import StreamingJSON

/// Every input fuzz target `filter` (Fuzz/, scripts/fuzz) stopped on, kept in
/// Tests/Fixtures/fuzz-regressions/filter/ and run through its check
/// (FuzzChecks/FilterCheck.swift) with the outcome it must give now; then each
/// bug it found, as a plain test of `JSONFilter`. The other targets' inputs are
/// StreamingJSON's, in FuzzRegressionTests.
@Suite struct JSONFilterFuzzRegressionTests {
    static let directory = TestFixtures.url("fuzz-regressions/filter")

    static func input(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    // MARK: Saved inputs and their outcomes

    static let filter: [String: String] = [
        // Array indices past Int's range used to trap converting the double.
        "index-past-int-range": #"[{"t":null,"l":0}]"#,   // [.tags[1e35]|…] on a beer
        "slice-past-int-range": "[[]]",                     // [1,2,3] | .[1e19:]
        "del-past-int-range": "[[1,2,3]]",                  // [1,2,3] | del(.[1e19])
        "setpath-past-int-range": "[] then Array index too large",
        "setpath-nan-index": "[] then Cannot set array element at NaN index",
        // Nested 4 000 to 8 000 levels: a stack overflow in the parser or evaluator.
        "nested-parentheses": "compile error: syntax error: nested deeper than 256 levels at column 128",
        "field-chain": "compile error: syntax error: nested deeper than 256 levels at column 513",
        "pipes": "compile error: syntax error: nested deeper than 256 levels at column 1010",
        "negations": "compile error: syntax error: nested deeper than 256 levels at column 129",
        // select(.brewery <= {"…", "…\(.name, 3, .i)…", …}): the interpolated
        // shorthand keys' generators ran again for their values, a product that
        // took 23 s where jq takes 40 ms (a timeout of the 15-minute run).
        "shorthand-interpolated-keys-product": "[]",
        // 4---…---4---…: operands that each nest 100 levels, chained: the
        // evaluator's stack grew with their sum and overflowed under ASan.
        // Each negation is now two levels of nesting (the operator and its
        // term), so the chain is refused when parsed.
        "negation-chains-overflow-the-stack": "compile error: syntax error: nested deeper than 256 levels at column 130",
        // A NaN output (written null) compared unequal to itself in the check.
        "nan-output-on-projected-members": "[null]",  // 1.|33----0----nan----331e10: NaN
        // if .id == 3 then halt else .id end: the check took `halt`'s
        // JSONFilterHalt for a wrong error type.
        "halt-ends-the-program": "[]",
        // "a" * 1e300 used to trap converting the count.
        "string-repeat-past-int-range": "[] then Repeat string result too long",
        // An empty program, and one of definitions only: jq's compile error,
        // which names no column; the check wanted one (found by CI's fuzz run).
        "empty-program": #"compile error: Top-level program not given (try ".")"#,
        "definitions-only": #"compile error: Top-level program not given (try ".")"#,
    ]

    @Test func everySavedInputHasAnExpectedOutcome() {
        let saved = Set((try? FileManager.default.contentsOfDirectory(atPath: Self.directory.path)) ?? [])
        #expect(saved == Set(Self.filter.keys))
    }

    @Test(arguments: filter.keys.sorted())
    func filterInput(_ name: String) throws {
        let outcome = try FilterCheck.run(Self.input(name)).description
        #expect(outcome == Self.filter[name])
    }

    // MARK: The bugs, through the API they were in

    /// Indices and counts past Int's range trapped converting the double.
    @Test(arguments: [
        (".[1e19]", "[1,2,3]", "null"),
        (".[-1e19]", "[1,2,3]", "null"),
        (".[1e19:]", "[1,2,3]", "[]"),
        (".[:-1e300]", "[1,2,3]", "[]"),
        ("del(.[1e19])", "[1,2,3]", "[1,2,3]"),
        ("del(.[nan])", "[1,2,3]", "[1,2,3]"),  // jq 1.8.2 deletes nothing
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
        ("setpath([nan]; 1)", "Cannot set array element at NaN index"),
    ])
    func filterRefusesWhatItCannotBuild(_ source: String, _ message: String) throws {
        let error = #expect(throws: JSONFilterError.self) { try JSONFilter(source).apply(to: [1, 2]) }
        #expect(error?.message == message)
    }
}

/// Programs nested thousands of levels deep overflowed the stack of the
/// recursive parser and evaluator (found by fuzz target filter); past
/// `_Parser.maxNesting` they are now a compile error, and the deepest
/// accepted ones run on a smaller stack than a main thread's. (A comma list
/// is a balanced tree, so any length compiles: JSONFilterAPITests.)
@Suite struct FilterNestingTests {
    static let shapes: [(name: String, make: @Sendable (Int) -> String)] = [
        ("parentheses", { String(repeating: "(", count: $0) + "." + String(repeating: ")", count: $0) }),
        ("arrays", { String(repeating: "[", count: $0) + "." + String(repeating: "]", count: $0) }),
        ("negations", { String(repeating: "-", count: $0) + "1" }),
        ("field chain", { String(repeating: ".a", count: $0) }),
        ("pipes", { Array(repeating: "[.]", count: $0).joined(separator: "|") }),
        ("sums", { Array(repeating: "1", count: $0).joined(separator: "+") }),
        ("alternatives", { Array(repeating: "null", count: $0).joined(separator: " // ") }),
        ("tries", { String(repeating: "try ", count: $0) + "." }),
        ("interpolations", { String(repeating: #""\("#, count: $0) + "1" + String(repeating: #")""#, count: $0) }),
    ]

    @Test(arguments: shapes.map(\.name))
    func tooDeepIsACompileError(_ name: String) throws {
        let make = Self.shapes.first { $0.name == name }!.make
        let error = #expect(throws: JSONFilterError.self) { try JSONFilter(make(5_000)) }
        #expect(error?.isCompileError == true)
        #expect(error?.message.contains("nested deeper than \(_Parser.maxNesting) levels") == true, "\(String(describing: error))")
    }

    /// The deepest program of each shape that compiles is compiled, run and
    /// released on a thread with a 4 MiB stack, in a debug build (whose
    /// evaluator frames are several times a release build's).
    @Test(arguments: shapes.map(\.name))
    func deepestAcceptedRunsOnASmallStack(_ name: String) async throws {
        let make = Self.shapes.first { $0.name == name }!.make
        let (depth, outputs) = try await onThread(stackSize: 4 << 20) { Result {
            var depth = 1
            while (try? JSONFilter(make(depth * 2))) != nil { depth *= 2 }
            var high = depth * 2
            while high - depth > 1 {  // the deepest that compiles, by bisection
                let middle = (depth + high) / 2
                if (try? JSONFilter(make(middle))) != nil { depth = middle } else { high = middle }
            }
            return (depth, try JSONFilter(make(depth)).apply(to: ["a": nil]).count)
        } }.get()
        #expect(depth > 100)
        #expect(outputs >= 1)
    }
}
