// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// How results are written: jq's output options, `--output`, CSV/TSV,
/// `--count`, `--split-lines`, `--stats`, `--progress`.
@Suite("Output (end to end)")
struct OutputTests {
    static let input = #"[{"b":"x/é","a":[1,{"c":null}]},{"b":"tab\there","a":[]}]"#

    @Test("Compact by default; -c accepted")
    func compact() async throws {
        let expected = [#"{"b":"x/é","a":[1,{"c":null}]}"#, #"{"b":"tab\there","a":[]}"#]
        #expect(try await jsonstream(["."], input: Self.input).lines == expected)
        #expect(try await jsonstream(["-c", "."], input: Self.input).lines == expected)
    }

    @Test("-r, -j, -a, -S as jq prints them")
    func jqOptions() async throws {
        #expect(try await jsonstream(["-r", ".b"], input: Self.input).output == "x/é\ntab\there\n")
        #expect(try await jsonstream(["-j", ".b, .a"], input: Self.input).output == "x/é[1,{\"c\":null}]tab\there[]")
        #expect(try await jsonstream(["-a", ".b"], input: Self.input).lines == [#""x/\u00e9""#, #""tab\there""#])
        // jq prints -r -a strings quoted and escaped.
        #expect(try await jsonstream(["-r", "-a", ".b"], input: Self.input).lines.first == #""x/\u00e9""#)
        #expect(try await jsonstream(["-S", "."], input: Self.input).lines.first == #"{"a":[1,{"c":null}],"b":"x/é"}"#)
    }

    /// `.` is written from the tape, never built; `.|.` builds every value:
    /// the two must print the same bytes and exit alike with every option.
    @Test("`.` copied from the tape prints what a built value prints")
    func identityFromTheTape() async throws {
        let lines = [#"{"a":1,"b":[1,2,{"c":"ünï\u0000cödé 🎉"}],"a":2}"#, "null", "false", "1.000", "1e1000", "-0",
                     "100000000000000000000000000001", #""str\"ing\\/\n""#, "[]", "{}",
                     #"{"z":{"y":[[[[]]]]},"x":"\u00e9"}"#, #"[1,[2,[3]],{"k":null}]"#,
                     // Escapes before, at and past 16 bytes (the compact writer's SIMD blocks), DEL.
                     #""\u007f del, \u001f unit; past sixteen bytes: \"q\" \\ \t tab \u007f end""#,
                     #"{"k\u007f":"v\"","a key longer than sixteen bytes\n":[1.10,1E2,0.0001e-2,-0.0]}"#,
                     "\"" + String(repeating: "0123456789abcdef", count: 5) + "\\u0001\""]
        let input = lines.joined(separator: "\n") + "\n"
        for options in [[], ["-a"], ["--tab"], ["--indent", "3"], ["--seq"], ["-e"], ["--output", "pretty"]] {
            let copied = try await jsonstream(options + ["."], input: input)
            let built = try await jsonstream(options + [".|."], input: input)
            #expect(copied.output == built.output, "\(options)")
            #expect(copied.status == built.status, "\(options)")
        }
        // -e: the last output false or null exits 1, as when built.
        #expect(try await jsonstream(["-e", "."], input: "1\nnull\n").status == 1)
    }

    /// `select(C)` runs `C` on the members it reads and copies the element
    /// from the tape; `select(C) | .` builds it: the same bytes, errors and
    /// exit status.
    @Test("`select(C)` copied from the tape prints what a built value prints")
    func selectionFromTheTape() throws {
        let input = [#"{"id":1,"active":true,"abv":9.5,"tags":["a"],"n":{"x":3},"s":"é"}"#,
                     #"{"id":2,"active":false,"abv":"x","tags":[],"n":{"x":1}}"#,
                     #"{"id":3,"active":null,"abv":4,"tags":["b","c"],"dup":1,"dup":2}"#,
                     "5", "null", #""s""#, "[1,2]"].joined(separator: "\n") + "\n"
        let filters = ["select(.active)", "select(.abv > 8)", "select(.tags | length > 0)", "select(.n.x == 3)",
                       "select(.active, .abv)", "select(.abv | test(\"x\"))", "select(.dup == 2)",
                       "select(.tags > \"z\")", "select(.n != 1 and .tags)"]
        let directory = try TemporaryDirectory()
        let file = try directory.file("input.json", input)
        for filter in filters {
            for options in [[], ["-a"], ["--seq"], ["-e"], ["--indent", "1"]] {
                let copied = try InProcess.run(options, filter, file: file)
                let built = try InProcess.run(options, filter + " | .", file: file)
                #expect(copied == built, "\(filter) \(options)")
            }
        }
    }

    /// A member path (`.a.b`, also `.a.b | length`), an object of them
    /// (`{k, b: .a.b}`), either after `select(C)`, is written from the tape; `F | . as $x | $x` builds it:
    /// the same bytes, errors and exit status, where a member is missing,
    /// repeated, `null`, or under a value that is neither an object nor
    /// `null` (the filter's error), and where `select` gives two outputs.
    @Test("Member paths copied from the tape print what the filter prints")
    func memberPathFromTheTape() throws {
        let input = [#"{"a":{"b":"é","c":[1,{"d":2}]},"k":1}"#, #"{"a":{"b":1,"b":{"x":[true]}}}"#,
                     #"{"a":{}}"#, #"{"a":null}"#, #"{"a":{"b":false}}"#, #"{"a":"text"}"#, #"{"a":[1]}"#,
                     "null", "5", #"{"a":{"b":"\u007f\n"}, "a":{"b":2}}"#, #"{"":{"b":3}}"#,
                     #"{"a":{"b":1.000,"c":1E2}}"#].joined(separator: "\n") + "\n"
        let directory = try TemporaryDirectory()
        let file = try directory.file("input.json", input)
        for filter in [".a.b", ".a", ".a.c", ".missing.b", #".a | ."b""#, #"."".b"#, "{k, b: .a.b, e: .}",
                       "select(.k) | {k, c: .a.c}", "select(.a.b) | .a.b", "select(.a | type == \"object\") | {b: .a.b}",
                       "select(.k, .k) | {k}", "{}", ".a | length", "{n: (.a.b | length), c: (.a.c | length)}",
                       "select(.k) | {l: (.a | length), m: (.missing | length)}"] {
            for options in [[], ["-a"], ["--seq"], ["-e"], ["--indent", "1"], ["--on-error", "skip"], ["-r"], ["-j"],
                            ["-r", "-a"], ["--raw-output0"]] {
                let copied = try InProcess.run(options, filter, file: file)
                let built = try InProcess.run(options, "\(filter) | . as $x | $x", file: file)
                #expect(copied == built, "\(filter) \(options)")
            }
        }
    }

    /// The tests that compare two forms of a filter over many flags run in
    /// this process (`InProcess`): its flags must set what the command line sets.
    @Test("In process, each flag prints what the binary prints")
    func inProcessFlagsMatchTheBinary() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file("input.json", #"{"a":"é\u0001","b":[1,{"c":null}]}"# + "\n5\nnull\n")
        let flagSets = [[], ["-c"], ["-r"], ["-j"], ["--raw-output0"], ["-a"], ["-S"], ["-e"], ["--seq"],
                        ["--indent", "1"], ["--on-error", "skip"], ["--arg", "v", "x"], ["--argjson", "v", "[2]"]]
        for flags in flagSets {
            for jq in [false, true] {
                let arguments = (jq ? ["--jq"] : []) + flags
                let filter = flags.first == "--arg" || flags.first == "--argjson" ? "[., $v]" : ".a, .b, (.c? // .)"
                let binary = try await jsonstream(arguments + [filter, file])
                let inProcess = try InProcess.run(arguments, filter, file: file)
                #expect(inProcess.stdout == binary.stdout, "\(arguments)")
                #expect(inProcess.stderr == binary.stderr, "\(arguments)")
                #expect(inProcess.status.rawValue == binary.status, "\(arguments)")
            }
        }
    }

    @Test("--tab, --indent N and --output pretty indent like jq")
    func pretty() async throws {
        let object = #"[{"a":[1,{}],"b":{"c":[]}}]"#
        #expect(try await jsonstream(["--output", "pretty", "."], input: object).output
            == "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": {\n    \"c\": []\n  }\n}\n")
        #expect(try await jsonstream(["--indent", "3", ".b"], input: object).output == "{\n   \"c\": []\n}\n")
        #expect(try await jsonstream(["--tab", ".b"], input: object).output == "{\n\t\"c\": []\n}\n")
        #expect(try await jsonstream(["--indent", "0", ".b"], input: object).output == "{\"c\":[]}\n")
    }

    /// Bytes recorded from jq 1.8.2 with the same input and JQ_COLORS.
    @Test("-C colours as jq 1.8, JQ_COLORS as jq reads it; -M and the default (not a terminal) do not")
    func colors() async throws {
        let colored = try await jsonstream(["-C", "."], input: #"[{"a":[1,"s",null,true]}]"#).output
        #expect(colored == "\u{1B}[1;39m{\u{1B}[0m\u{1B}[1;34m\"a\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m\u{1B}[1;39m[\u{1B}[0m"
            + "\u{1B}[0;39m1\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;32m\"s\"\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;90mnull\u{1B}[0m"
            + "\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39mtrue\u{1B}[0m\u{1B}[1;39m]\u{1B}[0m\u{1B}[1;39m}\u{1B}[0m\n")
        let custom = try await jsonstream(["-C", "."], input: #"[[1,{"k":false}]]"#,
                                          environment: ["JQ_COLORS": "0;31:0;33:0;34:0;35:0;36:0;37:1;31:4;32"])
        #expect(custom.output == "\u{1B}[0;37m[\u{1B}[0m\u{1B}[0;35m1\u{1B}[0m\u{1B}[0;37m,\u{1B}[0m\u{1B}[1;31m{\u{1B}[0m"
            + "\u{1B}[4;32m\"k\"\u{1B}[0m\u{1B}[1;31m:\u{1B}[0m\u{1B}[0;33mfalse\u{1B}[0m\u{1B}[1;31m}\u{1B}[0m\u{1B}[0;37m]\u{1B}[0m\n")
        #expect(custom.stderr.isEmpty)
        // A spec jq refuses: its warning, then jq's default colours.
        let refused = try await jsonstream(["-C", "."], input: "[[]]", environment: ["JQ_COLORS": "1;2;x"])
        #expect(refused.stderr == "Failed to set $JQ_COLORS\n")
        #expect(refused.output == "\u{1B}[1;39m[]\u{1B}[0m\n")
        #expect(try await jsonstream(["-C", "-M", "."], input: "[1]").output == "1\n")
        #expect(try await jsonstream(["."], input: "[1]").output == "1\n")
    }

    @Test("--output array writes one valid JSON array, also when empty or pretty")
    func arrayOutput() async throws {
        #expect(try await jsonstream(["--output", "array", ".b"], input: Self.input).output == "[\n\"x/é\",\n\"tab\\there\"\n]\n")
        #expect(try await jsonstream(["--output", "array", "empty"], input: Self.input).output == "[]\n")
        #expect(try await jsonstream(["--output", "array", "--indent", "2", ".a"], input: Self.input).output
            == "[\n  [\n    1,\n    {\n      \"c\": null\n    }\n  ],\n  []\n]\n")
        let refused = try await jsonstream(["--output", "array", "-r", "."], input: "[]")
        #expect(refused.status == 2)
    }

    @Test("CSV: header from the first object, RFC 4180 quoting, UTF-8 kept, nested values as JSON")
    func csv() async throws {
        let input = #"""
            [{"id":1,"name":"Plain","note":"a, b","n":1.50},
             {"id":2,"name":"Quote \"q\"","note":"line\nbreak\r\nend","n":null},
             {"id":3,"name":"Ünïcödé 🍺","note":{"x":[1,"y,z"]},"n":true},
             {"name":"missing id","extra":1}]
            """#
        let run = try await jsonstream(["--csv", "."], input: input)
        #expect(run.status == 0)
        #expect(run.output == """
            id,name,note,n
            1,Plain,"a, b",1.50
            2,"Quote ""q""\","line
            break\r
            end",
            3,Ünïcödé 🍺,"{""x"":[1,""y,z""]}",true
            ,missing id,,

            """)
    }

    @Test("CSV with --columns: dotted paths, array indexes, header even without rows")
    func csvColumns() async throws {
        let input = #"[{"id":1,"brewery":{"city":"Zürich"},"tags":["a","b"]},{"id":2}]"#
        let run = try await jsonstream(["--csv", "--columns", "id,brewery.city,tags.1,nope", "."], input: input)
        #expect(run.output == "id,brewery.city,tags.1,nope\n1,Zürich,b,\n2,,,\n")
        #expect(try await jsonstream(["--csv", "--columns", "a,b", "empty"], input: "[1]").output == "a,b\n")
        // Arrays are rows as they are, as with @csv.
        #expect(try await jsonstream(["--csv", "[.id, .brewery.city]"], input: input).output == "1,Zürich\n2,\n")
    }

    @Test("TSV escapes tab, newline, CR and backslash as jq's @tsv")
    func tsv() async throws {
        let run = try await jsonstream(["--tsv", "{a, b}"], input: #"[{"a":"t\tn\nr\rs\\","b":"ok"}]"#)
        #expect(run.output == "a\tb\nt\\tn\\nr\\rs\\\\\tok\n")
    }

    @Test("A result that cannot be a row is a runtime error of its element")
    func csvScalar() async throws {
        let run = try await jsonstream(["--csv", ".a"], input: #"[{"a":[1]},{"a":"s"},{"a":[2]}]"#)
        #expect(run.status == 5)
        #expect(run.output == "1\n")
        #expect(run.stderr.contains("cannot write string"), "\(run.stderr)")
    }

    @Test("--count prints only the number of results")
    func count() async throws {
        let run = try await jsonstream(["--count", "select(.abv > 6)"], stdinPath: JSONStreamBinary.fixture("jq/inputs/beers.json"))
        #expect(run.status == 0)
        let beers = try await jsonstream([".abv"], stdinPath: JSONStreamBinary.fixture("jq/inputs/beers.json"))
        #expect(run.lines == [String(beers.lines.filter { (Double($0) ?? 0) > 6 }.count)])
        #expect(try await jsonstream(["--count", "empty"], input: "[1,2]").lines == ["0"])
    }

    @Test("--split-lines N PREFIX writes numbered JSON Lines files of N results")
    func splitLines() async throws {
        let directory = try TemporaryDirectory()
        let prefix = directory.path("part-")
        let run = try await jsonstream(["--split-lines", "3", prefix, ".id"], stdinPath: JSONStreamBinary.fixture("jq/inputs/beers.json"))
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        #expect(files == (0..<7).map { "part-0000\($0).jsonl" })
        #expect(try String(contentsOfFile: prefix + "00000.jsonl", encoding: .utf8) == "1\n2\n3\n")
        #expect(try String(contentsOfFile: prefix + "00006.jsonl", encoding: .utf8) == "19\n20\n")
        let none = try await jsonstream(["--split-lines", "3", directory.path("none-"), "empty"], input: "[1]")
        #expect(none.status == 0)
        #expect(!FileManager.default.fileExists(atPath: directory.path("none-00000.jsonl")))
        let unwritable = try await jsonstream(["--split-lines", "3", directory.path("no/such/dir/p-"), "."], input: "[1]")
        #expect(unwritable.status == 2)
    }

    @Test("--split-lines: a run interrupted leaves no short part under a final name")
    func splitLinesInterrupted() async throws {
        let directory = try TemporaryDirectory()
        let prefix = directory.path("part-")
        let live = try LiveRun(["--split-lines", "3", prefix, "--unbuffered", ".id"])
        // JSON Lines on a pipe kept open: four records, so the second part is begun, not full.
        #expect(try await live.write((1...4).map { #"{"id":\#($0)}"# + "\n" }.joined()))
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: prefix + "00000.jsonl") && Date() < deadline {
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        // Killed mid-run (SIGKILL: a test runner may hand its children
        // SIGTERM ignored; scripts/fault-matrix sends SIGINT and SIGTERM).
        kill(live.process.processIdentifier, SIGKILL)
        _ = try await live.finish()
        live.closeInput()
        #expect(live.process.terminationReason == .uncaughtSignal)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        #expect(try String(contentsOfFile: prefix + "00000.jsonl", encoding: .utf8) == "1\n2\n3\n")
        #expect(!files.contains("part-00001.jsonl"), "\(files)")
        #expect(files.allSatisfy { $0 == "part-00000.jsonl" || $0.hasSuffix(".partial") }, "\(files)")
    }

    @Test("--stats: elements in/out/skipped, bytes, MB/s, peak memory on stderr")
    func stats() async throws {
        let run = try await jsonstream(["--stats", "--on-error", "skip", ".a + 1"], input: #"[{"a":1},{"a":"x"},{"a":2}]"#)
        #expect(run.lines == ["2", "3"])
        let line = try #require(run.stderr.split(separator: "\n").last.map(String.init))
        #expect(line.hasPrefix("jsonstream: stats: 3 elements in, 2 results out, 1 skipped; 27 B in "), "\(line)")
        #expect(line.contains(" MB/s); peak memory "))
        #expect(line.hasSuffix(" MiB"))
    }

    @Test("--progress on a pipe draws nothing but still lets the output through; --no-progress")
    func progress() async throws {
        let run = try await jsonstream(["--progress", ".a"], input: #"[{"a":1}]"#)
        #expect(run.status == 0)
        #expect(run.lines == ["1"])
        #expect(!run.stderr.contains("\n"))  // at most a line redrawn in place, then erased
        #expect(try await jsonstream(["--no-progress", ".a"], input: #"[{"a":1}]"#).stderr.isEmpty)
    }

    @Test("--stream is refused with the reason and what to use instead")
    func refused() async throws {
        let stream = try await jsonstream(["--stream", "."], input: "[1]")
        #expect(stream.status == 2)
        #expect(stream.stderr.contains("jsonstream always streams"))
    }

    @Test("--help shows examples and exit statuses; --version")
    func help() async throws {
        let help = try await jsonstream(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("EXAMPLES"))
        #expect(help.output.contains("EXIT STATUS"))
        #expect(help.output.contains("--split-lines <n> <prefix>"))
        let version = try await jsonstream(["--version"])
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("jsonstream "))
    }
}
