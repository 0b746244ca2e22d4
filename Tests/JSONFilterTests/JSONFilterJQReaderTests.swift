// SPDX-License-Identifier: Apache-2.0
import Foundation
import TestSupport
import JSONFilter
import StreamingJSON
import Testing

/// jq 1.8's own JSON reader (`fromjson`), its depth limits, its number
/// ordering, path-update messages and module built-ins. Expected values and
/// messages were recorded from jq 1.8.2 with the same programs.
@Suite struct JSONFilterJQReaderTests {
    private func run(_ filter: String, _ input: JSONValue = .null, libraryPaths: [String] = []) throws -> [String] {
        try JSONFilter(filter, libraryPaths: libraryPaths).apply(to: input).map(\.description)
    }

    private func caught(_ filter: String, _ input: JSONValue = .null) throws -> String {
        let outputs = try run("try (\(filter)) catch .", input)
        return outputs.first ?? "(no output)"
    }

    @Test func fromjsonReadsWhatJQReads() throws {
        let cases: [(String, String)] = [
            ("nan", "null"),
            (#"{"a":nan}"#, #"{"a":null}"#),
            ("-Infinity", "-1.7976931348623157e+308"),
            ("[.5, 5., 1.e2, +3, 0010]", "[0.5,5,1e2,3,10]"),  // printed verbatim here; jq prints 1E+2
            (#"{"a":1,"a":2}"#, #"{"a":2}"#),
            (#""\ud83d\ude00""#, #""😀""#),
            (#""\udc00""#, #""\#u{FFFD}""#),
            ("\u{FEFF}[1]", "[1]"),
        ]
        for (text, expected) in cases {
            #expect(try run("fromjson", .string(text)) == [expected], "\(text)")
        }
    }

    @Test func fromjsonFailsWithJQsMessages() throws {
        let cases: [(String, String)] = [
            ("NaN1", "Invalid numeric literal at EOF at line 1, column 4 (while parsing 'NaN1')"),
            ("{'a': 123}", #"Invalid string literal; expected ", but got ' at line 1, column 5 (while parsing '{'a': 123}')"#),
            ("[1,2", "Unfinished JSON term at EOF at line 1, column 4 (while parsing '[1,2')"),
            ("1 2", "Unexpected extra JSON values (while parsing '1 2')"),
            ("  ", "Expected JSON value (while parsing '  ')"),
            ("tru", "Invalid literal at EOF at line 1, column 3 (while parsing 'tru')"),
            ("[1,]", "Expected another array element at line 1, column 4 (while parsing '[1,]')"),
            (#"{"a" 1}"#, #"Expected separator between values at line 1, column 7 (while parsing '{"a" 1}')"#),
            ("1 }", "Unmatched '}' at line 1, column 3 (while parsing '1 }')"),
            (#""\x""#, #"Invalid escape at line 1, column 4 (while parsing '"\x"')"#),
            ("\"abc", "Unfinished string at EOF at line 1, column 4 (while parsing '\"abc')"),
            ("[1,\n2 3]", "Expected separator between values at line 2, column 4 (while parsing '[1,\n2 3]')"),
        ]
        for (text, message) in cases {
            #expect(try caught("fromjson", .string(text)) == JSONValue.string(message).description, "\(text)")
        }
    }

    /// Run on a large stack, as `jsonstream` runs filters: the walks recurse
    /// with the nesting.
    @Test func nestingPastTenThousandIsAnErrorNotACrash() async throws {
        let deep = "reduce range(10001) as $_ ([]; [.])"
        let deepObject = "reduce range(10001) as $_ ({}; {a: .})"
        let cases: [(String, String)] = [
            (#"reduce range(10000) as $_ ([]; [.]) | tojson | try fromjson catch . "#
                + #"| (contains("<skipped: too deep>") | not) and contains("Exceeds depth limit for parsing")"#, "true"),
            ("\(deep) | tojson | contains(\"<skipped: too deep>\")", "true"),
            ("reduce range(9999) as $_ ([]; [.]) | tojson | fromjson | flatten", "[]"),
            ("try (\(deep) as $x | $x | contains($x)) catch .", #""Containment check too deep""#),
            ("try (\(deepObject) as $x | $x * $x) catch .", #""Object merge too deep""#),
            ("try ((\(deep)) as $x | (\(deep)) as $y | $x == $y) catch .", #""Equality check too deep""#),
            ("try ((\(deep)) as $x | [$x, $x] | sort) catch .", #""Comparison too deep""#),
            ("try setpath([range(10001) | 0]; 0) catch .", #""Path too deep""#),
            ("try getpath([range(10001) | 0]) catch .", #""Path too deep""#),
            ("try delpaths([[range(10001) | 0]]) catch .", #""Path too deep""#),
            // The same storage is equal without a walk, as in jq.
            ("(\(deep)) as $x | $x == $x", "true"),
        ]
        let results = await onLargeStack {
            cases.map { program, _ in (try? JSONFilter(program).apply(to: .null).map(\.description)) ?? ["(error)"] }
        }
        for ((program, expected), outputs) in zip(cases, results) {
            #expect(outputs == [expected], "\(program)")
        }
    }

    /// The wrong answers the jq 1.8 work started from, each with jq 1.8.2's
    /// answer (recorded from the binary with `jq -nc PROGRAM`).
    @Test func answersThatUsedToBeWrong() throws {
        let cases: [(String, String)] = [
            ("[range(10)] | del(.[1], .[-6], .[2], .[-3:9])", "[0,3,5,6,9]"),
            ("[range(10)] | .[1.2:3.5]", "[1,2,3]"),
            (#""abcdefghij" | .[1.2:3.5]"#, #""bcd""#),
            (#""qux" | gsub("(?=u)"; "u")"#, #""quux""#),
            (#""a" | gsub(""; "a"; "g")"#, #""aaa""#),
            ("[-1] | implode", "\"\u{FFFD}\""),
            ("try ([1114112] | implode) catch .", "\"\u{FFFD}\""),
            (#""2" as $y | {$y: 4}"#, #"{"2":4}"#),
            ("[range(3)] | .[nan:1]", "[0]"),
            ("[range(3)] | del(.[nan])", "[0,1,2]"),
            ("[1 % nan | isnan]", "[true]"),
            ("[last(empty)]", "[]"),
            ("[nth(1; 1)]", "[]"),
            (#""NaN" | fromjson | isnan"#, "true"),
        ]
        for (program, expected) in cases {
            #expect(try run(program) == [expected], "\(program)")
        }
    }

    @Test func numbersOrderAsInJQ() throws {
        #expect(try run("[nan < 1, nan < nan, nan > nan, 1 > nan]") == ["[true,true,false,true]"])
        #expect(try run("[1, nan] | min | isnan") == ["true"])
        // Two literals compare exactly, even where doubles cannot tell them apart.
        #expect(try run(". > 10000000000000000000000000000000", .number(JSONNumber(text: "10000000000000000000000000000001")!))
            == ["true"])
        #expect(try run("[100000000000000000001, 100000000000000000000] | sort | .[0]")
            == ["100000000000000000000"])
    }

    @Test func pathUpdatesFailWithJQsMessages() throws {
        #expect(try caught("setpath([[1]]; 1)", .array([])) == #""Cannot update field at array index of array""#)
        #expect(try caught(#"setpath([{}]; 1)"#, .object(JSONObject())) == #""Cannot index object with object ({})""#)
        #expect(try caught(#".[1.5:3.5] = "xyz""#, .string("foobar")) == #""Cannot update string slices""#)
        #expect(try caught("delpaths([1])") == #""Path must be specified as array, not number""#)
        #expect(try caught(#".[{"start":1}]"#, .array([1, 2, 3])) == #""Array/string slice indices must be integers""#)
        #expect(try caught("[nan] | implode")
            == #""number (null) can't be imploded, unicode codepoint needs to be numeric""#)
    }

    @Test func modulesAreFoundAsJQFindsThem() throws {
        let modules = JQTestSuite.directory.appendingPathComponent("modules").path
        #expect(try run(#"import "c" as foo; [foo::a, foo::c]"#, libraryPaths: [modules]) == [#"[0,"acmehbah"]"#])
        #expect(try run("modulemeta", .string("a"), libraryPaths: [modules]) == [#"{"version":1.7,"deps":[],"defs":["a/0"]}"#])
        #expect(try run("modulemeta | .deps[1]", .string("c"), libraryPaths: [modules])
            == [#"{"search":"./","as":"d","is_data":false,"relpath":"d"}"#])
        #expect(try run("get_search_list", libraryPaths: [modules]) == [JSONValue.array([.string(modules)]).description])
        #expect(try caught("modulemeta", 1) == #""modulemeta input module name must be a string""#)
        // The program's origin is the working directory; jq's is its executable's directory.
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).resolvingSymlinksInPath().path
        #expect(try run("get_prog_origin") == [JSONValue.string(workingDirectory).description])
        let executable = try #require(Bundle.main.executablePath)
        let executableDirectory = URL(fileURLWithPath: executable).deletingLastPathComponent().resolvingSymlinksInPath().path
        #expect(try run("get_jq_origin") == [JSONValue.string(executableDirectory).description])
        // jq 1.8 has no toarray, ascii, isvalid or $__prog_args.
        for name in ["1 | toarray", "65 | ascii", "isvalid(1)", "$__prog_args"] {
            #expect(throws: JSONFilterError.self, "\(name)") { try JSONFilter(name) }
        }
        #expect(try run("builtins | length") == ["226"])
    }
}
