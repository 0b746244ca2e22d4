// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// Where elements come from: stdin, files, several files, `--path`,
/// `--input`, `-n`, and what `--on-error skip` does with bad ones.
@Suite("Inputs (end to end)")
struct InputTests {
    @Test("stdin when there is no file, and for -")
    func standardInput() async throws {
        #expect(try await jsonstream([".a"], input: #"[{"a":1},{"a":2}]"#).lines == ["1", "2"])
        #expect(try await jsonstream([".a", "-"], input: #"[{"a":1},{"a":2}]"#).lines == ["1", "2"])
        #expect(try await jsonstream([], input: "[1,[2]]").lines == ["1", "[2]"])  // the filter defaults to .
    }

    @Test("input and inputs read the following elements; with -n, all of them")
    func inputAndInputs() async throws {
        let directory = try TemporaryDirectory()
        let first = try directory.file("1.json", "[1,2,3]")
        let second = try directory.file("2.jsonl", "4\n5\n")
        let sum = try await jsonstream(["-n", "reduce inputs as $x (0; . + $x)", first, second])
        #expect(sum.lines == ["15"])
        let pairs = try await jsonstream(["-c", "[., input]", first, second])
        #expect(pairs.lines == ["[1,2]", "[3,4]"], "\(pairs.stderr)")
        #expect(pairs.status == 5)  // 5 finds no input left: jq's "break"
        #expect(pairs.stderr.contains("break"))
        let names = try await jsonstream(["-n", "[input | input_filename, input_filename]", first])
        #expect(names.lines == ["[\"\(first)\",\"\(first)\"]"])
        let piped = try await jsonstream(["-nc", "[inputs.a]"], input: "{\"a\":1} {\"a\":2}")
        #expect(piped.lines == ["[1,2]"])
        // Standard input is "<stdin>" once read (jq 1.8), null before.
        for arguments in [["-nc"], ["--jq", "-nc"]] {
            let stdin = try await jsonstream(arguments + ["[input_filename, (input | input_filename)]"], input: "[1]")
            #expect(stdin.lines == [#"[null,"<stdin>"]"#], "\(arguments): \(stdin.stderr)")
        }
    }

    @Test("stdin redirected from a regular file")
    func standardInputFromFile() async throws {
        let run = try await jsonstream([".name"], stdinPath: JSONStreamBinary.fixture("jq/inputs/beers.json"))
        #expect(run.status == 0)
        #expect(run.lines.count == 20)
        #expect(run.lines.first == "\"Hoppy Trails\"")
    }

    @Test("several files are read in turn, - among them")
    func severalFiles() async throws {
        let directory = try TemporaryDirectory()
        let first = try directory.file("1.json", "[1,2]")
        let second = try directory.file("2.jsonl", "3\n4\n")
        let run = try await jsonstream([".", first, "-", second], input: "[\"stdin\"]")
        #expect(run.status == 0)
        #expect(run.lines == ["1", "2", "\"stdin\"", "3", "4"])
    }

    @Test("array and JSON Lines give what jq gives with .[] | F and F")
    func formats() async throws {
        let lines = try await jsonstream(["-c", ".user.name?"], stdinPath: JSONStreamBinary.fixture("jq/inputs/lines.jsonl"))
        #expect(lines.status == 0)
        #expect(lines.lines.prefix(3) == ["null", "null", "\"alice\""])
        // A file that starts with '[' but is read as lines: the array is one value.
        let wholeArray = try await jsonstream(["--input", "lines", "length"], input: "[1,2,3]\n[4]\n")
        #expect(wholeArray.lines == ["3", "1"])
        // --input array refuses a root that is not an array.
        let notArray = try await jsonstream(["--input", "array", "."], input: #"{"a":1}"#)
        #expect(notArray.status == 5)
        #expect(notArray.stderr.contains("Expected an array at the root but found an object"), "\(notArray.stderr)")
    }

    @Test("--input auto: a file named as JSON Lines is JSON Lines, even when its values are arrays")
    func namedJSONLines() async throws {
        let directory = try TemporaryDirectory()
        for name in ["rows.jsonl", "ROWS.NDJSON"] {
            let path = directory.path(name)
            try Data("[1,2,3]\n[4]\n".utf8).write(to: URL(fileURLWithPath: path))
            let run = try await jsonstream(["-c", "length", path])
            #expect(run.lines == ["3", "1"], "\(name): \(run.stderr)")
        }
        // Compressed: the name before the compression's suffix counts. A root array is then one value.
        let archive = directory.path("records.jsonl.gz")
        try FileManager.default.copyItem(atPath: CompressedInputToolTests.archive("records.json.gz"), toPath: archive)
        #expect(try await jsonstream(["length", archive]).lines == ["3000"])
        // Named otherwise, or on stdin, a first '[' makes one array; a value after it is an error that says why.
        let piped = try await jsonstream(["-c", "length"], input: "[1,2,3]\n[4]\n")
        #expect(piped.lines == ["1", "2", "3"])
        #expect(piped.status == 5)
        let hint = "after the end of the JSON value (read as one array, since it starts with '['; for JSON Lines, use --input lines)"
        #expect(piped.stderr.contains(hint), "\(piped.stderr)")
        let garbage = try await jsonstream(["--input", "array", "-c", "."], input: "[1]\n[2]\n")
        #expect(!garbage.stderr.contains("--input lines"), "--input array was asked for: \(garbage.stderr)")
    }

    @Test("--path streams a nested array")
    func path() async throws {
        let twitter = JSONStreamBinary.fixture("nativejson/twitter.json")
        let run = try await jsonstream(["--path", ".statuses", "-r", ".user.screen_name"], stdinPath: twitter)
        #expect(run.status == 0)
        #expect(run.lines.count == 100)
        #expect(run.lines.prefix(2) == ["ayuu0123", "yuttari1998"])
        let quoted = try await jsonstream(["--path", #".["a b"].c"#, "."], input: #"{"x":0,"a b":{"c":[1,2]}}"#)
        #expect(quoted.lines == ["1", "2"])
        let missing = try await jsonstream(["--path", ".nope", "."], input: #"{"a":[]}"#)
        #expect(missing.status == 5)
        #expect(missing.stderr.contains("No array or object at path .nope"), "\(missing.stderr)")
        let index = try await jsonstream(["--path", ".[0]", "."], input: "[]")
        #expect(index.status == 2)
    }

    @Test("-n runs the filter once on null and reads nothing")
    func nullInput() async throws {
        let live = try LiveRun(["-n", "1, \"two\", [3]"])
        #expect(try await live.readLine() == "1")
        #expect(try await live.readLine() == "\"two\"")
        #expect(try await live.readLine() == "[3]")
        #expect(try await live.finish().status == 0)  // stdin was never closed
    }

    @Test("--arg, --argjson, --rawfile, --slurpfile")
    func arguments() async throws {
        let directory = try TemporaryDirectory()
        let text = try directory.file("text.txt", "hello\n")
        let values = try directory.file("values.json", "1 [2] {\"x\":3}")
        let run = try await jsonstream(["-n", "-c", "--arg", "s", "-5", "--argjson", "j", #"{"k":[1]}"#,
                                  "--rawfile", "r", text, "--slurpfile", "v", values, "[$s, $j, $r, $v]"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines == [#"["-5",{"k":[1]},"hello\n",[1,[2],{"x":3}]]"#])
    }

    /// The command lines recorded from jq 1.8.2 check `-R -s` on this file;
    /// `--rawfile` reads it the same way (the case cannot be recorded there:
    /// jq runs from the inputs' directory, the tests do not).
    @Test("--rawfile repairs invalid UTF-8 as -R -s does, one U+FFFD per invalid sequence")
    func rawfileRepairsAsRawInput() async throws {
        let path = JSONStreamBinary.fixture("jq/inputs/invalid-utf8.txt")
        let rawfile = try await jsonstream(["--jq", "-n", "-c", "--rawfile", "t", path, "$t"])
        let slurped = try await jsonstream(["--jq", "-R", "-s", "-c", ".", path])
        #expect(rawfile.status == 0 && slurped.status == 0, "\(rawfile.stderr)\(slurped.stderr)")
        #expect(rawfile.output == slurped.output)
        #expect(rawfile.output.contains("\u{FFFD}"))
    }

    @Test("--on-error skip: each bad element reported with its index and position, summary, exit 0")
    func skip() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file("events.jsonl", """
            {"n":1}
            {"n":"two"}
            {"n":3}
            {"n":}
            {"n":5}
            not json
            {"n":7}

            """)
        let run = try await jsonstream(["--on-error", "skip", ".n + 1", file])
        #expect(run.status == 0)
        #expect(run.lines == ["2", "4", "6", "8"])
        let messages = run.stderr.split(separator: "\n").map(String.init)
        #expect(messages.count == 4, "\(run.stderr)")
        #expect(messages[0].hasPrefix("jsonstream: skipped (at \(file):2:1, element 1): string (\"two\")"), "\(messages[0])")
        // Syntax errors point at the offending byte.
        #expect(messages[1].contains("\(file):4:6, element 3"), "\(messages[1])")
        #expect(messages[2].contains("\(file):6:2, element 5"), "\(messages[2])")
        #expect(messages[3] == "jsonstream: 3 of 7 elements skipped")
    }

    @Test("--on-error skip on an array: invalid JSON is passed over to the next element, exit 0")
    func skipArraySyntaxError() async throws {
        let directory = try TemporaryDirectory()
        let broken = try directory.file("broken.json", #"[{"a":1},{"a":"x"},{"a":2x},{"a":3}]"#)
        let good = try directory.file("good.json", #"[{"a":10}]"#)
        let run = try await jsonstream(["--on-error", "skip", ".a + 1", broken, good])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines == ["2", "4", "11"])
        #expect(run.stderr.contains("broken.json:1:10, element 1"), "\(run.stderr)")  // a runtime error
        #expect(run.stderr.contains("broken.json:1:26, element 2): Unexpected character 'x'; 9 bytes passed over"),
                "\(run.stderr)")
        #expect(run.stderr.hasSuffix("jsonstream: 2 of 5 elements skipped\n"), "\(run.stderr)")
    }

    @Test("A .jsonl file that holds one array: its error says the name decided, and how to override it")
    func jsonLinesNameHoldingAnArray() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file("dump.jsonl", "[\n{\"id\":1},\n{\"id\":2 x}\n]\n")
        let run = try await jsonstream(["-c", ".id", file])
        #expect(run.status == 5)
        #expect(run.stderr.contains("(\(file) is read as JSON Lines for its name, though it begins with '[': "
                                    + "if it holds one array, --input array reads it as one)"), "\(run.stderr)")
        let asArray = try await jsonstream(["--input", "array", "-c", ".id", file])
        #expect(asArray.lines == ["1"])
        #expect(!asArray.stderr.contains("for its name"))
        // JSON Lines whose lines are arrays, named so: no such hint.
        let lines = try directory.file("rows.jsonl", "[1]\n[2 x]\n")
        #expect(!(try await jsonstream([".[0]", lines])).stderr.contains("for its name"))
    }

    @Test("--on-error skip on an array cut short: the other files are read, exit 5, the last line says what was lost")
    func skipArrayCutShort() async throws {
        let directory = try TemporaryDirectory()
        let broken = try directory.file("broken.json", #"[{"a":1},{"a":"x"},{"a":"#)
        let good = try directory.file("good.json", #"[{"a":10}]"#)
        let run = try await jsonstream(["--on-error", "skip", ".a + 1", broken, good])
        #expect(run.status == 5)
        #expect(run.lines == ["2", "11"])
        #expect(run.stderr.contains("element 2): Unexpected end of input; the rest of \(broken) cannot be read"),
                "\(run.stderr)")
        #expect(run.stderr.hasSuffix("2 of 4 elements skipped; \(broken): ended inside an element\n"), "\(run.stderr)")
    }
}
