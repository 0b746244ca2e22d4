// SPDX-License-Identifier: Apache-2.0
import Foundation
import JSONFilter
import StreamingJSON
import Testing

/// jq 1.8's regular-expression built-ins (test, match, capture, sub, gsub,
/// split/2) through the public API.
///
/// Every expected value in `Fixtures` was produced by running jq 1.8.2
/// (`jq -c FILTER` with the input on stdin, its bundled Oniguruma) and pasted in as
/// a literal: outputs as jq prints them (key order included), or the message
/// of the error jq stops with. Where this package answers otherwise on
/// purpose, the case is in `deviations`, saying what jq does.
@Suite struct JSONFilterRegexTests {
    /// One jq 1.8.2 observation: input and outputs as compact JSON text.
    struct Case: Sendable, CustomTestStringConvertible {
        let input: String
        let filter: String
        let outputs: [String]
        let error: String?

        init(_ input: String, _ filter: String, _ outputs: [String]) {
            (self.input, self.filter, self.outputs, self.error) = (input, filter, outputs, nil)
        }

        init(_ input: String, _ filter: String, error: String) {
            (self.input, self.filter, self.outputs, self.error) = (input, filter, [], error)
        }

        var testDescription: String { "\(input) | \(filter)" }
    }

    static func check(_ example: Case) throws {
        let input = try StreamingJSONDecoder().decode(JSONValue.self, from: Data(example.input.utf8))
        let filter = try JSONFilter(example.filter)
        if let message = example.error {
            let error = #expect(throws: JSONFilterError.self) { try filter.apply(to: input) }
            #expect(error?.message == message)
        } else {
            #expect(try filter.apply(to: input).map(\.description) == example.outputs)
        }
    }

    // Flags i x s p, the [pattern, flags] argument form, and the argument
    // loops: flags outside the pattern, so ("a","z"; "g","i") gives a,g z,g a,i z,i.
    @Test(arguments: Fixtures.test) func test(_ example: Case) throws { try Self.check(example) }

    // Match objects (offset, length, string, captures; an empty or unmatched
    // group lists offset, string, length, name in that order), code-point
    // offsets in non-ASCII text, and f_match's loop quirks: after an empty
    // match the search restarts one character past the previous start, never
    // at the end ("abc" | match("";"g") stops at offset 2, "(?=c)" is found
    // three times), and empty matches report no captures.
    @Test(arguments: Fixtures.match) func match(_ example: Case) throws { try Self.check(example) }

    // Named groups only; an unmatched optional group gives null, a zero-width
    // match gives {}, a repeated name keeps its last value.
    @Test(arguments: Fixtures.capture) func capture(_ example: Case) throws { try Self.check(example) }

    // sub replaces the first match (all of them with "g"); with several
    // replacement outputs it gives one result per output position, and a
    // replacement with none leaves the text as it is.
    @Test(arguments: Fixtures.sub) func sub(_ example: Case) throws { try Self.check(example) }

    // gsub finds every match in one pass ("aaa" | gsub("^a"; "b") is
    // "baa"); with several replacement outputs the n-th result uses the n-th
    // output at each match; an error in the replacement stops it.
    @Test(arguments: Fixtures.gsub) func gsub(_ example: Case) throws { try Self.check(example) }

    // One array per output of the flags filter.
    @Test(arguments: Fixtures.split) func split(_ example: Case) throws { try Self.check(example) }

    // jq 1.8's error texts: input type, pattern type, flags, Oniguruma's
    // compile messages (a long name is cut at 27 bytes), `$val` forms, and
    // the errors sub's `flags | index("g")` and `"g" + flags` raise.
    @Test(arguments: Fixtures.errors) func errors(_ example: Case) throws { try Self.check(example) }

    /// Empty matches: jq 1.8 reports one at the very end and steps one
    /// character past each (the first two answers are jq 1.8.2's). Next to a
    /// multi-byte character jq 1.8.2 steps one *byte*, searches from inside
    /// the character and reports extra empty matches (`"éa" | [match(""; "g")
    /// | .offset]` is `[0,1,1,2]` there, `"日本" | split(""; null)` has four
    /// extra empty strings); here the step is the whole character, which is
    /// what jq answers for the same patterns on ASCII text.
    @Test(arguments: [
        Case(#""abc""#, #"gsub(""; "-")"#, [#""-a-b-c-""#]),
        Case(#""abxxc""#, #"gsub("x*"; "-")"#, [#""-a-b--c-""#]),
        Case(#""é""#, #"gsub(""; "-")"#, [#""-é-""#]),                 // jq 1.8.2: "-é--"
        Case(#""éa""#, #"[match(""; "g") | .offset]"#, [#"[0,1,2]"#]), // jq 1.8.2: [0,1,1,2]
        Case(#""日本""#, #"split(""; null)"#, [#"["","日","本",""]"#]),   // jq 1.8.2: four more ""
        // Oniguruma 6.9.8 (Debian's, linked here) keeps a longest match from
        // being followed by a shorter one; jq 1.8.2's bundled 6.9.10 gives ["aa","a"].
        Case(#""aaa""#, #"[match("a|aa"; "gl") | .string]"#, [#"["aa"]"#]),
    ])
    func deviations(_ example: Case) throws { try Self.check(example) }

    /// Many sites, none of them recursive: a long text is replaced in one pass,
    /// and an error at the first site (raised last, as in jq) is still reported.
    /// (jq's own `sub` slices the text at each site, by code points: an
    /// ASCII text is sliced without walking it, or the sites of `gsub` would
    /// each cost time in proportion to the text. 25 000 of them are deep
    /// enough for any recursion to show.)
    @Test func longTexts() throws {
        let text = JSONValue.string(String(repeating: "ab", count: 100_000))
        let shorter = JSONValue.string(String(repeating: "ab", count: 25_000))
        #expect(try JSONFilter(#"gsub("a"; "x") | length"#).apply(to: shorter) == [50_000])
        #expect(try JSONFilter(#"[match("b"; "g")] | length"#).apply(to: text) == [100_000])
        let failing = try JSONFilter(#"try gsub("(?<c>.)"; if .c == "a" then error("first") else .c end) catch ."#)
        #expect(try failing.apply(to: .string("ab" + String(repeating: "b", count: 50_000))) == ["first"])
    }

    /// Compiled patterns are shared through a bounded cache: more patterns
    /// than it keeps, used from several tasks at once, give the answers a
    /// single thread gets.
    @Test func concurrentUse() async throws {
        let filters = try (0..<100).map { index in
            try JSONFilter(#"[test($p), (match($p; "g") | .offset), capture($p), gsub($p; "<\(.x)>"), split($p; null)]"#,
                           arguments: ["p": .string("(?<x>a\(index))|é")])
        }
        let inputs = (0..<100).map { JSONValue.string("xa\($0)yé a\($0) é日本") }
        let expected = try (0..<100).map { try filters[$0].apply(to: inputs[$0]) }
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var mismatches = 0
                    for step in 0..<100 {  // every filter once per task
                        let index = (step * 7 + task * 13) % 100
                        if try filters[index].apply(to: inputs[index]) != expected[index] { mismatches += 1 }
                    }
                    return mismatches
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        // jq 1.8.2: [true,1,4,6,9,{"x":"a5"},"x<a5>y<null> <a5> <null>日本",["x","y"," "," ","日本"]]
        #expect(expected[5] == [[true, 1, 4, 6, 9, ["x": "a5"], "x<a5>y<null> <a5> <null>日本", ["x", "y", " ", " ", "日本"]]])
    }
}

extension JSONFilterRegexTests {
    /// Recorded from jq 1.8.2 (see the suite's comment).
    enum Fixtures {
        static let test: [Case] = [
            Case(#""foo bar""#, #"test("bar")"#, [#"true"#]),
            Case(#""foo bar""#, #"test("BAR")"#, [#"false"#]),
            Case(#""foo bar""#, #"test("BAR"; "i")"#, [#"true"#]),
            Case(#""foo bar""#, #"test("o b"; "x")"#, [#"false"#]),
            Case(#""foo bar""#, #"test("o\\ b"; "x")"#, [#"true"#]),
            Case(#""foo bar""#, #"test("f o o  # spaced"; "xi")"#, [#"true"#]),
            Case(#""a\nb""#, #"test("a.b")"#, [#"false"#]),
            Case(#""a\nb""#, #"test("a.b"; "s")"#, [#"false"#]),
            Case(#""a\nb""#, #"test("a.b"; "p")"#, [#"true"#]),
            Case(#""a\nb""#, #"test("^b")"#, [#"false"#]),
            Case(#""abc""#, #"test(["B", "i"])"#, [#"true"#]),
            Case(#""abc""#, #"test(["B"])"#, [#"false"#]),
            Case(#""abc""#, #"[test("a", "z"; "g", "i")]"#, [#"[true,false,true,false]"#]),
            Case(#""aBc""#, #"[test("b", "z"; "g", "i")]"#, [#"[false,false,true,false]"#]),
            Case(#""""#, #"test("")"#, [#"true"#]),
            Case(#""abc""#, #"test(""; "n")"#, [#"false"#]),
        ]

        static let match: [Case] = [
            Case(#""foo bar foo""#, #"match("foo")"#, [#"{"offset":0,"length":3,"string":"foo","captures":[]}"#]),
            Case(#""foo bar foo""#, #"[match("foo"; "g") | .offset]"#, [#"[0,8]"#]),
            Case(#""foo bar FOO""#, #"[match("foo"; "gi") | .offset]"#, [#"[0,8]"#]),
            Case(#""foo bar""#, #"match("(?<first>\\w+) (\\w+)")"#, [#"{"offset":0,"length":7,"string":"foo bar","captures":[{"offset":0,"length":3,"string":"foo","name":"first"},{"offset":4,"length":3,"string":"bar","name":null}]}"#]),
            Case(#""test 123""#, #"match("(\\d)(\\d)?(?<n>x)?(?<e>)")"#, [#"{"offset":5,"length":2,"string":"12","captures":[{"offset":5,"length":1,"string":"1","name":null},{"offset":6,"length":1,"string":"2","name":null},{"offset":-1,"string":null,"length":0,"name":"n"},{"offset":7,"string":"","length":0,"name":"e"}]}"#]),
            Case(#""abc""#, #"match("(?<a>a)(?<b>x*)")"#, [#"{"offset":0,"length":1,"string":"a","captures":[{"offset":0,"length":1,"string":"a","name":"a"},{"offset":1,"string":"","length":0,"name":"b"}]}"#]),
            Case(#""aAa""#, #"[match(["A", "gi"]) | .offset]"#, [#"[0,1,2]"#]),
            Case(#""aAa""#, #"[match(["A", null]) | .offset]"#, [#"[1]"#]),
            Case(#""aAa""#, #"[match(["A", "gi", "ignored"]) | .offset]"#, [#"[0,1,2]"#]),
            Case(#""aBc""#, #"[match("b", "c"; "g", "i") | .string]"#, [#"["c","B","c"]"#]),
            Case(#""héllo wörld 日本 🍺""#, #"[match("ö|日|🍺|l+"; "g") | [.offset, .length, .string]]"#, [#"[[2,2,"ll"],[7,1,"ö"],[9,1,"l"],[12,1,"日"],[15,1,"🍺"]]"#]),
            Case(#""héllo wörld 日本 🍺""#, #"[match("(?<w>\\w+)"; "g") | .captures[0] | [.offset, .length, .string, .name]]"#, [#"[[0,5,"héllo","w"],[6,5,"wörld","w"],[12,2,"日本","w"]]"#]),
            Case(#""héllo wörld 日本 🍺""#, #"[match("(é)|(ö)"; "g") | .captures]"#, [#"[[{"offset":1,"length":1,"string":"é","name":null},{"offset":-1,"string":null,"length":0,"name":null}],[{"offset":-1,"string":null,"length":0,"name":null},{"offset":7,"length":1,"string":"ö","name":null}]]"#]),
            Case(#""abc""#, #"[match(""; "g")]"#, [#"[{"offset":0,"length":0,"string":"","captures":[]},{"offset":1,"length":0,"string":"","captures":[]},{"offset":2,"length":0,"string":"","captures":[]},{"offset":3,"length":0,"string":"","captures":[]}]"#]),
            Case(#""""#, #"[match(""; "g")]"#, [#"[{"offset":0,"length":0,"string":"","captures":[]}]"#]),
            Case(#""abc""#, #"[match("(?<x>z)?"; "g")]"#, [#"[{"offset":0,"length":0,"string":"","captures":[{"offset":-1,"string":null,"length":0,"name":"x"}]},{"offset":1,"length":0,"string":"","captures":[{"offset":-1,"string":null,"length":0,"name":"x"}]},{"offset":2,"length":0,"string":"","captures":[{"offset":-1,"string":null,"length":0,"name":"x"}]},{"offset":3,"length":0,"string":"","captures":[{"offset":-1,"string":null,"length":0,"name":"x"}]}]"#]),
            Case(#""abc""#, #"[match("(?=c)"; "g") | .offset]"#, [#"[2]"#]),
            Case(#""ab""#, #"[match("b*"; "g") | [.offset, .length]]"#, [#"[[0,0],[1,1],[2,0]]"#]),
            Case(#""aaa""#, #"[match("a*"; "g") | [.offset, .length]]"#, [#"[[0,3],[3,0]]"#]),
            Case(#""xyz""#, #"[match("a*"; "gn")]"#, [#"[]"#]),
            Case(#""ab\ncd""#, #"[match("^."; "g") | .string]"#, [#"["a"]"#]),
            Case(#""ab\ncd""#, #"[match("(?m)^."; "g") | .string]"#, [#"["a","c"]"#]),
            Case(#""a\u0000b""#, #"[match("\u0000") | .offset]"#, [#"[1]"#]),
            Case(#""abc""#, #"[match("zzz")]"#, [#"[]"#]),
        ]

        static let capture: [Case] = [
            Case(#""2021-03-14""#, #"capture("(?<y>\\d{4})-(?<m>\\d{2})-(?<d>\\d{2})")"#, [#"{"y":"2021","m":"03","d":"14"}"#]),
            Case(#""Hoppy Trails""#, #"capture("(?<first>\\w+)(?<x>z)? (?<rest>.*)")"#, [#"{"first":"Hoppy","x":null,"rest":"Trails"}"#]),
            Case(#""abc""#, #"capture("(?<a>a)(?<b>x*)")"#, [#"{"a":"a","b":""}"#]),
            Case(#""aXbx""#, #"[capture("(?<c>x)"; "gi")]"#, [#"[{"c":"X"},{"c":"x"}]"#]),
            Case(#""aXbx""#, #"[capture("(?<c>x)|(?<d>z)"; "gi")]"#, [#"[{"c":"X","d":null},{"c":"x","d":null}]"#]),
            Case(#""aXbx""#, #"[capture("x*"; "g")]"#, [#"[{},{},{},{},{}]"#]),
            Case(#""abab""#, #"capture("(?<l>a)(?<l>b)")"#, [#"{"l":"b"}"#]),
            Case(#""a""#, #"capture(["(?<x>a)"])"#, [#"{"x":"a"}"#]),
            Case(#""a""#, #"[capture(["(?<x>A)", "gi"])]"#, [#"[{"x":"a"}]"#]),
            Case(#""héllo wörld 日本 🍺""#, #"[capture("(?<first>\\S+) (?<second>\\S+)"; "g")]"#, [#"[{"first":"héllo","second":"wörld"},{"first":"日本","second":"🍺"}]"#]),
            Case(#""ab1""#, #"capture("(?<letters>[a-z]+)(\\d)")"#, [#"{"letters":"ab"}"#]),
        ]

        static let sub: [Case] = [
            Case(#""abab""#, #"sub("a"; "x")"#, [#""xbab""#]),
            Case(#""abab""#, #"sub("(?<l>a)(?<n>b)"; "\(.n)\(.l)")"#, [#""baab""#]),
            Case(#""abcabc""#, #"sub("(?<x>b)|(?<y>c)"; "[\(.x)\(.y)]")"#, [#""a[bnull]cabc""#]),
            Case(#""abab""#, #"[sub("a"; "1", "2")]"#, [#"["1bab","2bab"]"#]),
            Case(#""abc""#, #"[sub("b"; empty)]"#, [#"["abc"]"#]),
            Case(#""abc""#, #"sub("b"; null)"#, [#""ac""#]),
            Case(#""abab""#, #"[sub("a", "b"; "x")]"#, [#"["xbab","axab"]"#]),
            Case(#""aAa""#, #"sub(["A", "gi"]; "x")"#, error: #"array (["A","gi"]) is not a string"#),
            Case(#""aAa""#, #"sub(["A"]; "x")"#, error: #"array (["A"]) is not a string"#),
            Case(#""aAa""#, #"sub("(?<x>z*)"; "<\(.x)>")"#, [#""<>aAa""#]),
            Case(#""aAa""#, #"sub("z"; 1)"#, [#""aAa""#]),
            Case(#""ab""#, #"[sub("(?<x>.)"; .x, "\(.x)\(.x)")]"#, [#"["ab","aab"]"#]),
            Case(#""abab""#, #"sub("b"; "x"; "g")"#, [#""axax""#]),
            Case(#""aXbxc""#, #"sub("x"; "-"; "gi")"#, [#""a-b-c""#]),
            Case(#""xgx""#, #"sub("x"; "b"; "gxg")"#, [#""bgb""#]),
            Case(#""abab""#, #"[sub("b"; "x"; "g", "")]"#, [#"["axax","axab"]"#]),
            Case(#""abc""#, #"sub("b"; "x"; null)"#, [#""axc""#]),
            Case(#""héllo wörld 日本 🍺""#, #"sub("(?<a>日)(?<b>本)"; "\(.b)\(.a)")"#, [#""héllo wörld 本日 🍺""#]),
            Case(#""""#, #"sub(""; "x")"#, [#""x""#]),
        ]

        static let gsub: [Case] = [
            Case(#""Hoppy Trails""#, #"gsub(" "; "_")"#, [#""Hoppy_Trails""#]),
            Case(#""abab""#, #"gsub("(?<l>a)"; "\(.l)\(.l)")"#, [#""aabaab""#]),
            Case(#""abab""#, #"gsub("(?<l>a)|(?<m>b)"; "[\(.l),\(.m)]")"#, [#""[a,null][null,b][a,null][null,b]""#]),
            Case(#""aXbxc""#, #"gsub("x"; "-"; "i")"#, [#""a-b-c""#]),
            Case(#""aaa""#, #"gsub("^a"; "b")"#, [#""baa""#]),
            Case(#""aaaa""#, #"gsub("aa"; "b")"#, [#""bb""#]),
            Case(#""abc""#, #"gsub("b"; "")"#, [#""ac""#]),
            Case(#""abab""#, #"[gsub("a"; "1", "2")]"#, [#"["1b1b","2b2b"]"#]),
            Case(#""abc""#, #"[gsub("(?<x>.)"; if .x == "c" then ("1", "2") else .x end)]"#, [#"["ab1","2"]"#]),
            Case(#""abab""#, #"[gsub("a", "b"; "x")]"#, [#"["xbxb","axax"]"#]),
            Case(#""abab""#, #"[gsub("b"; "x"; "", "i")]"#, [#"["axax","axax"]"#]),
            Case(#""abc""#, #"gsub("b"; "x"; null)"#, [#""axc""#]),
            Case(#""ab""#, #"[gsub("(?<x>.)"; if .x == "b" then empty else error("E") end)]"#, error: #"E"#),
            Case(#""ab""#, #"try gsub("(?<x>.)"; if .x == "a" then error("A") else error("B") end) catch ."#, [#""A""#]),
            Case(#""abab""#, #"[try gsub("a"; "x", error("e")) catch .]"#, [#"["e"]"#]),
            Case(#""abab""#, #"[try gsub("(?<x>.)"; if .x == "b" then ("x", error("e")) else ("1", "2") end) catch .]"#, [#"["e"]"#]),
            Case(#""ab""#, #"try gsub("(?<x>.)"; if .x == "b" then 1 else error("E") end) catch ."#, [#""E""#]),
            Case(#""héllo wörld 日本 🍺""#, #"gsub("(?<c>[^ ])(?= )"; "[\(.c)]")"#, [#""héll[o] wörl[d] 日[本] 🍺""#]),
            Case(#""héllo wörld 日本 🍺""#, #"gsub("\\s"; "")"#, [#""héllowörld日本🍺""#]),
            Case(#""héllo wörld 日本 🍺""#, #"gsub("(?<x>o)"; "\(.x | ascii_upcase)")"#, [#""héllO wörld 日本 🍺""#]),
            Case(#""aaa""#, #"gsub("a"; "b"; "n")"#, [#""bbb""#]),
            Case(#""aaa""#, #"[limit(1; gsub("a"; "x", "y"))]"#, [#"["xxx"]"#]),
            Case(#""a\u0000b""#, #"gsub("\u0000"; "-")"#, [#""a-b""#]),
            Case(#""""#, #"gsub(""; "-")"#, [#""-""#]),
        ]

        static let split: [Case] = [
            Case(#""a, b,c""#, #"split(", *"; null)"#, [#"["a","b","c"]"#]),
            Case(#""a1b2c""#, #"split("\\d"; "x")"#, [#"["a","b","c"]"#]),
            Case(#""a1b2c""#, #"split("\\d")"#, [#"["a1b2c"]"#]),
            Case(#""aBcbd""#, #"split("b"; "i")"#, [#"["a","c","d"]"#]),
            Case(#""abc""#, #"split(""; null)"#, [#"["","a","b","c",""]"#]),
            Case(#""""#, #"split(""; null)"#, [#"["",""]"#]),
            Case(#""abc""#, #"split("(?=c)"; null)"#, [#"["ab","c"]"#]),
            Case(#""abab""#, #"[split("b"; null, "i")]"#, [#"[["a","a",""],["a","a",""]]"#]),
            Case(#""abab""#, #"[split("a", "b"; null)]"#, [#"[["","b","b"],["a","a",""]]"#]),
            Case(#""a.b.c""#, #"split("\\."; "g")"#, [#"["a","b","c"]"#]),
            Case(#""héllo wörld 日本 🍺""#, #"split(" +"; null)"#, [#"["héllo","wörld","日本","🍺"]"#]),
            Case(#""héllo wörld 日本 🍺""#, #"split("(?<sp> )"; null)"#, [#"["héllo","wörld","日本","🍺"]"#]),
        ]

        static let errors: [Case] = [
            Case(#"123"#, #"test("1")"#, error: #"number (123) cannot be matched, as it is not a string"#),
            Case(#"{"a":"xxxxxxxxxxxxxxxxxx"}"#, #"test("1")"#, error: #"object ({"a":"xxxxxxxxxxxxxxxxxx"}) cannot be matched, as it is not a string"#),
            Case(#"null"#, #"match("1")"#, error: #"null (null) cannot be matched, as it is not a string"#),
            Case(#"[1]"#, #"split("a"; null)"#, error: #"array ([1]) cannot be matched, as it is not a string"#),
            Case(#"[1]"#, #"gsub("a"; "b")"#, error: #"array ([1]) cannot be matched, as it is not a string"#),
            Case(#"1"#, #"sub("a"; "b")"#, error: #"number (1) cannot be matched, as it is not a string"#),
            Case(#""abc""#, #"test("(")"#, error: #"Regex failure: end pattern with unmatched parenthesis"#),
            Case(#""abc""#, #"match("[")"#, error: #"Regex failure: premature end of char-class"#),
            Case(#""abc""#, #"test("a{2,1}")"#, error: #"Regex failure: upper is smaller than lower in repeat range"#),
            Case(#""abc""#, #"test("\\p{Foo}")"#, error: #"Regex failure: invalid character property name {Foo}"#),
            Case(#""a""#, #"test("\\k<foo>")"#, error: #"Regex failure: undefined name <foo> reference"#),
            Case(#""a""#, #"test("(?<1a>x)")"#, error: #"Regex failure: invalid group name <1a>"#),
            Case(#""a""#, #"test("(?<abcdefghijklmnopqrstuvwxyz0123456789>x)\\k<abcdefghijklmnopqrstuvwxyz0123456789zz>")"#, error: #"Regex failure: undefined name <abcdefghijklmnopqrstuvwxyz0...> reference"#),
            Case(#""a""#, #"test("*")"#, error: #"Regex failure: target of repeat operator is not specified"#),
            Case(#""x""#, #"gsub("("; "b")"#, error: #"Regex failure: end pattern with unmatched parenthesis"#),
            Case(#""x""#, #"split("("; null)"#, error: #"Regex failure: end pattern with unmatched parenthesis"#),
            Case(#""abc""#, #"test("a"; "q")"#, error: #"q is not a valid modifier string"#),
            Case(#""abc""#, #"test("a"; "gq")"#, error: #"gq is not a valid modifier string"#),
            Case(#""a""#, #"test("a"; "é")"#, error: #"é is not a valid modifier string"#),
            Case(#""x""#, #"split("x"; "q")"#, error: #"qg is not a valid modifier string"#),
            Case(#""x""#, #"sub("x"; "b"; "q")"#, error: #"q is not a valid modifier string"#),
            Case(#""x""#, #"gsub("x"; "b"; "q")"#, error: #"qg is not a valid modifier string"#),
            Case(#""abc""#, #"test("a"; 1)"#, error: #"number (1) is not a string"#),
            Case(#""a""#, #"test(1; "x")"#, error: #"number (1) is not a string"#),
            Case(#""a""#, #"test("("; 1)"#, error: #"number (1) is not a string"#),
            Case(#""a""#, #"test(["a"]; null)"#, error: #"array (["a"]) is not a string"#),
            Case(#""abc""#, #"test(["a", 1])"#, error: #"number (1) is not a string"#),
            Case(#""abc""#, #"test(1)"#, error: #"number not a string or array"#),
            Case(#""abc""#, #"match({})"#, error: #"object not a string or array"#),
            Case(#""abc""#, #"capture([])"#, error: #"array not a string or array"#),
            Case(#""abc""#, #"test(null)"#, error: #"null not a string or array"#),
            Case(#""x""#, #"sub(1; "b")"#, error: #"number (1) is not a string"#),
            Case(#""x""#, #"sub(null; "b")"#, error: #"null (null) is not a string"#),
            Case(#""x""#, #"gsub(1; "b")"#, error: #"number (1) is not a string"#),
            Case(#""x""#, #"sub(1; "b"; "")"#, error: #"number (1) is not a string"#),
            Case(#""abc""#, #"sub("b"; 1)"#, error: #"string ("a") and number (1) cannot be added"#),
            Case(#""abc""#, #"sub("a"; 1)"#, error: #"string ("") and number (1) cannot be added"#),
            Case(#""a1b2c""#, #"split("\\d"; 1)"#, error: #"number (1) and string ("g") cannot be added"#),
            Case(#""abc""#, #"sub("b"; "x"; 1)"#, error: #"number (1) is not a string"#),
            Case(#""abc""#, #"gsub("b"; "x"; 1)"#, error: #"number (1) and string ("g") cannot be added"#),
            Case(#""xg""#, #"sub("x"; "b"; ["g"])"#, error: #"array (["g"]) is not a string"#),
            Case(#""xg""#, #"sub("x"; "b"; [1])"#, error: #"array ([1]) is not a string"#),
            Case(#""xg""#, #"sub("x"; "b"; {})"#, error: #"object ({}) is not a string"#),
            Case(#""xg""#, #"sub("x"; "b"; {"g": 1})"#, error: #"object ({"g":1}) is not a string"#),
            Case(#""xg""#, #"sub("x"; "b"; true)"#, error: #"boolean (true) is not a string"#),
            Case(#"1"#, #"sub("x"; "b"; {})"#, error: #"number (1) cannot be matched, as it is not a string"#),
        ]
    }
}
