// SPDX-License-Identifier: Apache-2.0
import Foundation
import JSONFilter
import StreamingJSON
import Testing

/// The public API of `JSONFilter`: compiling, applying, arguments, errors.
/// What each construct computes is checked against jq 1.8.2 by
/// `JSONFilterDifferentialTests`; these tests cover what the corpus cannot.
@Suite struct JSONFilterAPITests {
    private func json(_ text: String) throws -> JSONValue {
        try StreamingJSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    private func run(_ filter: String, _ input: String, arguments: [String: JSONValue] = [:]) throws -> [String] {
        try JSONFilter(filter, arguments: arguments).apply(to: json(input)).map(\.description)
    }

    /// As jq 1.8.2: a program with no query is a compile error, before any
    /// module is looked for.
    @Test func programWithoutQueryIsJQsCompileError() throws {
        for source in ["", "   ", "# only a comment", "def f: 1;", #"import "no/such" as m;"#] {
            #expect(throws: JSONFilterError.self, "\(source)") { try JSONFilter(source) }
            #expect((try? JSONFilter(source)) == nil)
            do {
                _ = try JSONFilter(source)
            } catch let error as JSONFilterError {
                #expect(error.message == #"Top-level program not given (try ".")"#)
            }
        }
        #expect(try run("def f: 1; f", "null") == ["1"])
    }

    /// `$ENV` keeps the order of the process's `environ`, as jq builds it
    /// (a dictionary set on the context has none: its keys come sorted).
    @Test func environmentKeepsItsOrder() throws {
        var keys: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "="), !keys.contains(String(text[..<equals])) {
                keys.append(String(text[..<equals]))
            }
            entry += 1
        }
        #expect(keys.count > 1)
        let listed = try run("$ENV | keys_unsorted", "null")
        #expect(listed == [JSONValue.array(keys.map(JSONValue.string)).description])
        let context = JSONFilterContext()
        context.environment = ["b": "2", "a": "1"]
        var set: [String] = []
        try JSONFilter("$ENV | keys_unsorted").apply(to: .null, context: context) { set.append($0.description) }
        #expect(set == [#"["a","b"]"#])
    }

    @Test func outputsComeInJQOrder() throws {
        #expect(try run(".[] | select(. > 1), 10", "[1,2,3]") == ["10", "2", "10", "3", "10"])
        #expect(try run("[.[] | {a: ., b: (1, 2)}]", "[7]") == [#"[{"a":7,"b":1},{"a":7,"b":2}]"#])
    }

    /// `{"\(f)"}` evaluates `f` once per key, then takes that member, as jq
    /// 1.8 does (outputs checked against it). The key's generator used to run
    /// again for the value: n keys became n², and a fuzzed program with a few
    /// such keys ran for minutes where jq took 50 ms (fuzz target filter).
    @Test func interpolatedShorthandKeysAreEvaluatedOnce() throws {
        #expect(try run(#"{"x\(1, 2)"}"#, #"{"x1":5}"#) == [#"{"x1":5}"#, #"{"x2":null}"#])
        #expect(try run(#"[{"\(..)"}] | length"#, #"{"a":1,"b":[2]}"#) == ["4"])
        #expect(try run(#"[{"\(.a, .b)"}]"#, #"{"a":1,"b":[2]}"#) == [#"[{"1":null},{"[2]":null}]"#])
        #expect(try run(#"{@base64 "x\(1, 2)"}"#, "{}") == [#"{"xMQ==":null}"#, #"{"xMg==":null}"#])
        #expect(try run(#"{"\(1, 2)": 0}"#, "{}") == [#"{"1":0}"#, #"{"2":0}"#])
        #expect(throws: JSONFilterError.self) { try run(#"{"\(.)"}"#, "1") }
    }

    /// Paths, operators and plain-key objects are computed directly, without
    /// a continuation per step: same outputs, and the same error when more
    /// than one operand fails (the right operand of an operator first, object
    /// members in order), as jq 1.8 gives them.
    @Test func directlyComputedFiltersMatchJQ() throws {
        let input = #"{"x":1,"y":{"z":false},"s":"t"}"#
        #expect(try run("{a: 1, a: 2}", input) == [#"{"a":2}"#])
        #expect(try run("{a: .x, b: .y.z, c: (.x > 0), d: -.x}", input) == [#"{"a":1,"b":false,"c":true,"d":-1}"#])
        #expect(try run("select(.x == 1) | {x}", input) == [#"{"x":1}"#])
        #expect(try run("select(.y.z) | 1", input) == [])
        #expect(try run(".x and .y.z", input) == ["false"])
        #expect(try run(".y.z or .x", input) == ["true"])
        #expect(try run(".x | . * 2 | {v: ., w: (. - 1)}", input) == [#"{"v":2,"w":1}"#])
        #expect(try run("{(.s): 1, s}", input) == [#"{"t":1,"s":"t"}"#])
        #expect(try run("{a: $v, b: ($v | .k)}", input, arguments: ["v": try json(#"{"k":[3]}"#)])
                == [#"{"a":{"k":[3]},"b":[3]}"#])
        let errors = [
            (".x.y", #"Cannot index number with string ("y")"#),
            ("-.s", #"string ("t") cannot be negated"#),
            (".x.p + .s.q", #"Cannot index string with string ("q")"#),
            (".x.p > .s.q", #"Cannot index string with string ("q")"#),
            ("{a: .x.p, b: .s.q}", #"Cannot index number with string ("p")"#),
            (".x.p and .s.q", #"Cannot index number with string ("p")"#),
            ("select(.s.q)", #"Cannot index string with string ("q")"#),
        ]
        for (filter, message) in errors {
            let error = #expect(throws: JSONFilterError.self, "\(filter)") { try run(filter, input) }
            #expect(error?.message == message, "\(filter)")
        }
    }

    /// A long literal list compiles (it used to count one nesting level per
    /// comma, and 300 items were "nested deeper than 256 levels").
    @Test func longCommaListsCompile() throws {
        let items = (0..<5_000).map(String.init)
        #expect(try run("[\(items.joined(separator: ", "))] | length", "null") == ["5000"])
        #expect(try run("[\(items.prefix(40).joined(separator: ","))] == [range(40)]", "null") == ["true"])
        #expect(try run("(1, 2), 3, (4, (5, 6))", "null") == ["1", "2", "3", "4", "5", "6"])
    }

    /// Recursion deeper than the stack allows is a runtime error, not a crash
    /// (a fuzzed chain of nested operands overflowed the stack; so did
    /// `recurse(f)` twenty thousand levels down). Moderate depths still run.
    @Test func recursionPastTheStackIsAnError() throws {
        #expect(try run("[recurse(if . < 50 then . + 1 else empty end)] | length", "0") == ["51"])
        let error = #expect(throws: JSONFilterError.self) {
            try run("[recurse(if . < 1000000 then . + 1 else empty end)] | length", "0")
        }
        #expect(error?.message.hasPrefix("Filter recursion too deep") == true)
        #expect(error?.isCompileError == false)
    }

    @Test func numbersPassedThroughKeepTheirText() throws {
        let big = "123456789012345678901234567890"
        // Exactly as read (`JSONValue.description`); jq's writer and `tostring`
        // put a literal in its canonical decimal form, `1E+2`.
        #expect(try run(".a, .b, .c", #"{"a":\#(big),"b":1.50,"c":1e2}"#) == [big, "1.50", "1e2"])
        #expect(try run(".c | tostring", #"{"c":1e2}"#) == [#""1E+2""#])
        // Arithmetic works on the double value, as in jq.
        #expect(try run(".b + 0", #"{"b":1.50}"#) == ["1.5"])
        // Literals keep their digits in strings as well (jq 1.8).
        #expect(try run(".a | tostring", #"{"a":\#(big)}"#) == ["\"\(big)\""])
        #expect(try run(".b | tostring", #"{"b":1.50}"#) == [#""1.50""#])
    }

    @Test func argumentsAreVariables() throws {
        let results = try run(#"select(.n > $min) | "\(.n) > \($min) \($name)""#, #"{"n":5}"#,
                              arguments: ["min": 3, "name": "x"])
        #expect(results == [#""5 > 3 x""#])
        let shadowed = try run(". as $min | $min", "9", arguments: ["min": 3])
        #expect(shadowed == ["9"])
    }

    @Test func emitStreamsAndCanStopTheFilter() throws {
        struct Enough: Error {}
        var seen: [JSONValue] = []
        #expect(throws: Enough.self) {
            try JSONFilter("range(1000000)").apply(to: .null) { value in
                seen.append(value)
                if seen.count == 3 { throw Enough() }
            }
        }
        #expect(seen == [0, 1, 2])
    }

    /// Destructuring as jq 1.8.2 does it: an array's elements from the last
    /// (the first error is the last element's), a variable named twice keeps
    /// its first binding in that order unless there are `?//` alternatives,
    /// and a computed key is any index, each of its outputs in turn, lazily.
    @Test func destructuringFollowsJQ() throws {
        #expect(try run(". as [$a, $b, $a] | [$a, $b]", "[1,2,3]") == ["[3,2]"])
        #expect(try run(". as {a: $x, b: {c: $x}} | $x", #"{"a":1,"b":{"c":2}}"#) == ["1"])
        #expect(try run(". as [$a, $b, $a] ?// $a | [$a, $b]", "[1,2,3]") == ["[1,2]"])
        #expect(try run(#"try (. as [[$x], [$y]] | 0) catch ."#, #"["s",5]"#)
                == [#""Cannot index number with number (0)""#])
        #expect(try run(#". as {("0" | tonumber): $v} | $v"#, "[5]") == ["5"])
        #expect(try run(#"[. as {("a", "b"): [$v]} | $v]"#, #"{"a":[1],"b":[2]}"#) == ["[1,2]"])
        #expect(try run(#"[limit(2; . as {(repeat("a")): $v} | $v)]"#, #"{"a":1}"#) == ["[1,1]"])
    }

    @Test func limitStopsAnInfiniteGenerator() throws {
        #expect(try run("[limit(3; recurse(. + 1))]", "0") == ["[0,1,2]"])
        #expect(try run("first(range(10; 1000000000))", "null") == ["10"])
    }

    @Test(arguments: [
        ("def f: g; f", 8, "g/0 is not defined"),
        (".a | break $out", 6, "$*label-out is not defined"),
        ("def f($a): $b; f(1)", 12, "$b is not defined"),
        ("map(.) | frobnicate(1)", 10, "frobnicate/1"),
        ("$nope", 1, "$nope is not defined"),
        (". as $x | $y", 11, "$y is not defined"),
        (".a[", 3, "unexpected end of file"),  // jq: the last token before the end
        ("{a:}", 4, "unexpected '}'"),
        ("\"abc", 1, "unterminated string"),
        ("[1,2", 4, "unexpected end of file"),
        // Constant keys: jq places the error at the key inside the parentheses.
        ("{(1): 2}", 3, "Cannot use number (1) as object key"),
        (". as {(true): $f} | $f", 8, "Cannot use boolean (true) as object key"),
        ("{1}", 2, "syntax error, unexpected LITERAL"),
        ("{1: 2}", 2, "May need parentheses around object key expression"),
        // jq's lexer reads $__loc__ as a token of its own, which binds nothing.
        (". as [$__loc__] | 1", 7, "syntax error, unexpected $__loc__, expecting BINDING or '[' or '{'"),
        (". as {$__loc__} | 1", 7, "syntax error, unexpected $__loc__"),
        ("def f($__loc__): 1; 1", 7, "syntax error, unexpected $__loc__, expecting IDENT or BINDING"),
    ])
    func compileErrorsNameTheColumn(_ source: String, _ column: Int, _ fragment: String) {
        do {
            _ = try JSONFilter(source)
            Issue.record("\(source) compiled")
        } catch let error as JSONFilterError {
            #expect(error.isCompileError)
            #expect(error.column == column, "\(source): \(error)")
            #expect(error.message.contains(fragment), "\(source): \(error)")
            #expect(error.description.hasSuffix("at column \(column)"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func runtimeErrorsCarryJQsMessageAndValue() throws {
        do {
            _ = try JSONFilter(".a").apply(to: [1])
            Issue.record("no error")
        } catch let error as JSONFilterError {
            #expect(!error.isCompileError)
            #expect(error.message == #"Cannot index array with string ("a")"#)
            #expect(error.value == .string(error.message))
        }
        do {
            _ = try JSONFilter(#"error({"code": 7})"#).apply(to: .null)
            Issue.record("no error")
        } catch let error as JSONFilterError {
            #expect(error.value == ["code": 7])
            #expect(error.message.contains("not a string"))
        }
        #expect(try run(#"try error({"code": 7}) catch .code"#, "null") == ["7"])
    }

    @Test func runtimeErrorStopsOnlyThatInput() throws {
        let filter = try JSONFilter(".[] | 10 / .")
        var outputs: [JSONValue] = []
        #expect(throws: JSONFilterError.self) {
            try filter.apply(to: [2, 0, 5]) { outputs.append($0) }
        }
        #expect(outputs == [5])
        // The filter is reusable after an error.
        #expect(try filter.apply(to: [5]) == [2])
    }

    @Test func filterIsSendableAndReusableAcrossThreads() async throws {
        let filter = try JSONFilter("select(.n % 2 == 0) | .n * 10")
        let sums = try await withThrowingTaskGroup(of: Double.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var sum = 0.0
                    for n in 0..<2000 {
                        for value in try filter.apply(to: ["n": .number(JSONNumber(worker * 2000 + n))]) {
                            if case .number(let number) = value { sum += number.double }
                        }
                    }
                    return sum
                }
            }
            return try await group.reduce(into: [Double]()) { $0.append($1) }
        }
        let evens = (0..<8000).filter { $0 % 2 == 0 }
        let expected = Double(evens.reduce(0, +) * 10)
        #expect(sums.reduce(0, +) == expected)
    }

    @Test func deepInputsDoNotOverflow() throws {
        var text = String(repeating: "[", count: 400) + "1" + String(repeating: "]", count: 400)
        #expect(try run("[..] | length", text) == ["401"])
        text = String(repeating: #"{"a":"#, count: 300) + "1" + String(repeating: "}", count: 300)
        #expect(try run("[paths] | length", text) == ["300"])
    }
}
