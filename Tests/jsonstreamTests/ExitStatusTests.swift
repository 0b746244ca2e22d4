// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// Every exit status of the built binary (jq 1.8's), and what goes with it on
/// stdout and stderr.
@Suite("Exit statuses (end to end)")
struct ExitStatusTests {
    @Test("0: results written, nothing on stderr")
    func success() async throws {
        let run = try await jsonstream([".id", JSONStreamBinary.fixture("jq/inputs/beers.json")])
        #expect(run.status == 0)
        #expect(run.lines == (1...20).map(String.init))
        #expect(run.stderr.isEmpty)
    }

    @Test("1: -e and the last result is false or null")
    func lastResultFalse() async throws {
        let falseLast = try await jsonstream(["-e", ".available"], input: #"[{"available":true},{"available":false}]"#)
        #expect(falseLast.status == 1)
        #expect(falseLast.lines == ["true", "false"])
        let nullLast = try await jsonstream(["-e", ".x"], input: #"[{"x":1},{}]"#)
        #expect(nullLast.status == 1)
        let truthyLast = try await jsonstream(["-e", ".x"], input: #"[{},{"x":0}]"#)
        #expect(truthyLast.status == 0)
    }

    @Test("2: unknown option, missing option value, bad --argjson, bad --indent")
    func usageErrors() async throws {
        for arguments in [["--frobnicate", "."], ["--arg", "x"], ["--argjson", "x", "{", "."], ["--indent", "8", "."],
                          ["--limit", "-1", "."], ["--columns", "a", "."]] {
            let run = try await jsonstream(arguments, input: "[]")
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.hasPrefix("jsonstream: error: "), "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty)
        }
    }

    @Test("2: an unreadable file is reported, the other files are still read")
    func unreadableFile() async throws {
        let directory = try TemporaryDirectory()
        let good = try directory.file("good.json", "[1,2]")
        let run = try await jsonstream([".", directory.path("missing.json"), good, directory.url.path])
        #expect(run.status == 2)
        #expect(run.lines == ["1", "2"])
        #expect(run.stderr.contains("Could not open \(directory.path("missing.json")): No such file or directory"))
        #expect(run.stderr.contains("Could not open \(directory.url.path): Is a directory"))
    }

    @Test("3: a filter that does not compile names the column, before any input is read")
    func compileError() async throws {
        // stdin stays open and empty: the run must not wait for it.
        let live = try LiveRun([".a | foo(1)"])
        let (status, stderr) = try await live.finish()
        #expect(status == 3)
        #expect(stderr.contains("column 6"), "\(stderr)")
        #expect(stderr.contains("^"))
        #expect(try await live.readLine() == nil)
    }

    @Test("3: -f FILE holding a bad filter; 2 when the file is missing")
    func filterFile() async throws {
        let directory = try TemporaryDirectory()
        let bad = try directory.file("bad.jq", ".a |\n  ]")
        let run = try await jsonstream(["-f", bad], input: "[]")
        #expect(run.status == 3)
        #expect(run.stderr.contains("line 2"), "\(run.stderr)")
        let missing = try await jsonstream(["-f", directory.path("none.jq")], input: "[]")
        #expect(missing.status == 2)
    }

    @Test("5: an array with a syntax error: results so far, then file:line:column and element")
    func arraySyntaxError() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file("broken.json", "[\n{\"a\":1},\n{\"a\":2},\n{\"a\":x}\n]")
        let run = try await jsonstream([".a", file])
        #expect(run.status == 5)
        #expect(run.lines == ["1", "2"])
        #expect(run.stderr.contains("\(file):4:6, element 2"), "\(run.stderr)")
        #expect(run.stderr.contains("Unexpected character 'x'"))
    }

    @Test("5: a malformed JSON Lines value stops the input there")
    func linesSyntaxError() async throws {
        let run = try await jsonstream(["."], input: "1\n2\n{x\n3\n")
        #expect(run.status == 5)
        #expect(run.lines == ["1", "2"])
        #expect(run.stderr.contains("<stdin>:3:2, element 2"), "\(run.stderr)")
    }

    @Test("5: an element over a limit in JSON Lines is reported, the rest is read")
    func linesElementOverLimit() async throws {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let run = try await jsonstream(["-c", "."], input: "1\n\(deep)\n2\n")
        #expect(run.status == 5)
        #expect(run.lines == ["1", "2"])
        #expect(run.stderr.contains("Nesting deeper than 512"), "\(run.stderr)")
    }

    @Test("5: the --max-… limits, each on its own input; 2 for a limit out of range")
    func limitOptions() async throws {
        let cases: [([String], String, String)] = [
            (["--max-depth", "3"], "[1]\n[[[[2]]]]\n[3]\n", "Nesting deeper than 3 levels (maxDepth)"),
            (["--max-number-length", "5"], "[1]\n[123456]\n[3]\n", "Number literal longer than 5 characters"),
            (["--max-string-length", "4"], "[1]\n[\"abcde\"]\n[3]\n", "String longer than 4 bytes"),
            (["--max-element-bytes", "6"], "[1]\n[1,2,3,4]\n[3]\n", "larger than 6 bytes"),
        ]
        for (options, input, message) in cases {
            let run = try await jsonstream(options + ["--input", "lines", "-c", "."], input: input)
            #expect(run.status == 5, "\(options)")
            #expect(run.lines == ["[1]", "[3]"], "\(options)")
            #expect(run.stderr.contains("<stdin>:2:"), "\(options): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(options): \(run.stderr)")
            // Within the limit: everything passes.
            let loose = try await jsonstream(["--input", "lines", "-c", "."], input: input)
            #expect(loose.status == 0 && loose.lines.count == 3, "\(options)")
        }
        // A string with no closing quote, much longer than the limit, in an array.
        let unclosed = "[\"" + String(repeating: "a", count: 2_000_000)
        let run = try await jsonstream(["--max-string-length", "100000", "."], input: unclosed)
        #expect(run.status == 5)
        #expect(run.stderr.contains("<stdin>:1:2, element 0"), "\(run.stderr)")
        #expect(run.stderr.contains("String longer than 100000 bytes (maxStringLength)"))
        for arguments in [["--max-depth", "0", "."], ["--max-number-length", "0", "."],
                          ["--max-string-length=-1", "."], ["--max-element-bytes=-5", "."]] {
            let bad = try await jsonstream(arguments, input: "[]")
            #expect(bad.status == 2, "\(arguments)")
            #expect(bad.stderr.hasPrefix("jsonstream: error: --max-"), "\(arguments): \(bad.stderr)")
        }
    }

    @Test("4: -e and no result at all (jq 1.8); 0 when there was no input")
    func noResult() async throws {
        #expect(try await jsonstream(["-e", "select(.x)"], input: "[{},{}]").status == 4)
        #expect(try await jsonstream(["-e", "."], input: "[]").status == 4)
        #expect(try await jsonstream(["-e", "."], input: "").status == 0)
    }

    @Test("5: a runtime error stops an array at that element")
    func arrayRuntimeError() async throws {
        let run = try await jsonstream([".a + 1"], input: "[{\"a\":1},\n{\"a\":\"s\"},\n{\"a\":3}]")
        #expect(run.status == 5)
        #expect(run.lines == ["2"])
        #expect(run.stderr.contains("<stdin>:2:1, element 1"), "\(run.stderr)")
        #expect(run.stderr.contains(#"string ("s") and number (1) cannot be added"#))
    }

    @Test("5: error(v) with a value that is not a string, reported as jq 1.8.2 does")
    func errorWithAValue() async throws {
        let lines = "{\"a\":1}\n{\"a\":2}\n"
        let jq = try await jsonstream(["--jq", "-c", "error({a})"], input: lines)
        #expect(jq.status == 5)
        #expect(jq.stderr == "jq: error (at <stdin>:1) (not a string): {\"a\":1}\n"
                + "jq: error (at <stdin>:2) (not a string): {\"a\":2}\n", "\(jq.stderr)")
        // Element-wise, on one thread and in pieces (an array of a few MB, two
        // threads): the array stops at its first element.
        let directory = try TemporaryDirectory()
        let elements = Array(repeating: "{\"a\":1}", count: 400_000).joined(separator: ",")
        let file = try directory.file("array.json", "[" + elements + "]")
        for threads in ["1", "2"] {
            let run = try await jsonstream(["--threads", threads, "error(.a) | 1", file])
            #expect(run.status == 5)
            #expect(run.stderr == "jsonstream: error (at \(file):1:2, element 0) (not a string): 1\n",
                    "\(threads): \(run.stderr.prefix(200))")
            let string = try await jsonstream(["--threads", threads, "error(\"x\")", file])
            #expect(string.stderr == "jsonstream: error (at \(file):1:2, element 0): x\n", "\(string.stderr)")
        }
    }

    @Test("5: JSON Lines reports a runtime error and goes on, exit 5 at the end")
    func linesRuntimeError() async throws {
        let run = try await jsonstream([".a + 1"], input: "{\"a\":1}\n{\"a\":\"s\"}\n{\"a\":3}\n")
        #expect(run.status == 5)
        #expect(run.lines == ["2", "4"])
        #expect(run.stderr.contains("<stdin>:2:1, element 1"), "\(run.stderr)")
    }

    @Test("2 wins over 5; a failed file does not stop the next")
    func precedence() async throws {
        let directory = try TemporaryDirectory()
        let failing = try directory.file("a.json", #"[{"a":"s"}]"#)
        let run = try await jsonstream([".a + 1", failing, directory.path("missing.json")])
        #expect(run.status == 2)
    }
}
