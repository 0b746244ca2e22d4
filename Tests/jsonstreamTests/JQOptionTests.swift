// SPDX-License-Identifier: Apache-2.0
import Foundation
import StreamingJSON
import Testing

/// jq 1.8's options beyond the element stream: `-s`, `-R`, `--seq`,
/// `--raw-output0`, `--args`/`--jsonargs` and `$ARGS`, `-L`, `halt` and
/// `halt_error`, `input_line_number`. Expected bytes are what jq 1.8.2
/// prints for the same command (for `-s`, over the stream's elements).
@Suite("jq options (end to end)")
struct JQOptionTests {
    @Test("-s: one array of every element, the filter run once; -s over several files")
    func slurp() async throws {
        #expect(try await jsonstream(["-s", "length"], input: "[1,2,3]").lines == ["3"])
        #expect(try await jsonstream(["-s", "-c", "map(.a)"], input: "{\"a\":1}\n{\"a\":2}\n").lines == ["[1,2]"])
        let directory = try TemporaryDirectory()
        let one = try directory.file("one.json", "[1,2]")
        let two = try directory.file("two.jsonl", "3\n4\n")
        #expect(try await jsonstream(["-s", "-c", ".", one, two]).lines == ["[1,2,3,4]"])
        // A syntax error leaves nothing whole: the filter does not run.
        let broken = try await jsonstream(["-s", "length"], input: "[1,2,")
        #expect(broken.status == 5)
        #expect(broken.lines.isEmpty)
        #expect(broken.stderr.contains("<stdin>:1:6"), "\(broken.stderr)")
    }

    @Test("-R: lines as strings; with -s the whole text; with -n, inputs are the lines")
    func rawInput() async throws {
        let text = "a\nb\n\nc"
        #expect(try await jsonstream(["-R", "-c", "."], input: text).lines == [#""a""#, #""b""#, #""""#, #""c""#])
        #expect(try await jsonstream(["-R", "-s", "-c", "."], input: text).lines == [#""a\nb\n\nc""#])
        #expect(try await jsonstream(["-R", "-n", "-c", "[inputs]"], input: text).lines == [#"["a","b","","c"]"#])
        // input_line_number counts the newlines read, as jq's does.
        #expect(try await jsonstream(["-R", "-c", "[., input_line_number]"], input: text).lines
            == [#"["a",1]"#, #"["b",2]"#, #"["",3]"#, #"["c",3]"#])
        // A line is not JSON: no syntax error, whatever it holds.
        #expect(try await jsonstream(["-R", "-r", "length"], input: "{\"a\":\n[1,\n").lines == ["5", "3"])
    }

    @Test("--seq writes RS before each result; --raw-output0 ends each with NUL")
    func separators() async throws {
        let seq = try await jsonstream(["-n", "--seq", "1, [2]"])
        #expect(seq.output == "\u{1E}1\n\u{1E}[2]\n")
        let zero = try await jsonstream(["-n", "--raw-output0", #""a", "b", 1"#])
        #expect(Array(zero.stdout) == Array("a\u{0}b\u{0}1\u{0}".utf8))
        let nul = try await jsonstream(["-n", "--raw-output0", #""a\u0000b""#])
        #expect(nul.status == 5)
        #expect(nul.stderr.contains("Cannot dump a string containing NUL with --raw-output0 option"), "\(nul.stderr)")
    }

    @Test("--args and --jsonargs fill $ARGS.positional; named variables keep the command line's order")
    func programArguments() async throws {
        #expect(try await jsonstream(["-n", "-c", "$ARGS", "--args", "x", "y"]).lines
            == [#"{"positional":["x","y"],"named":{}}"#])
        #expect(try await jsonstream(["-n", "-c", "$ARGS", "--args", "a", "--jsonargs", "1", #"{"b":2}"#, "--args", "c"]).lines
            == [#"{"positional":["a",1,{"b":2},"c"],"named":{}}"#])
        let directory = try TemporaryDirectory()
        let values = try directory.file("values.json", "1 2")
        #expect(try await jsonstream(["-n", "-c", "--argjson", "z", "2", "--arg", "a", "1", "--slurpfile", "m", values,
                                      "$ARGS.named"]).lines == [#"{"z":2,"a":"1","m":[1,2]}"#])
        // A file before --args is still read.
        let input = try directory.file("input.json", "[10]")
        #expect(try await jsonstream(["-c", "[., $ARGS.positional]", input, "--args", "p"]).lines == [#"[10,["p"]]"#])
        let bad = try await jsonstream(["-n", "$ARGS", "--jsonargs", "{a"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("invalid JSON text passed to --jsonargs"), "\(bad.stderr)")
    }

    @Test("-L DIR, -LDIR and --library-path: where import and include look; get_search_list")
    func libraryPath() async throws {
        let directory = try TemporaryDirectory()
        try directory.file("util.jq", "def twice: . * 2;\n")
        try FileManager.default.createDirectory(atPath: directory.path("nested"), withIntermediateDirectories: true)
        try directory.file("nested/nested.jq", "def three: 3;\n")
        for flags in [["-L", directory.path("")], ["-L" + directory.path("")], ["--library-path", directory.path("")]] {
            let run = try await jsonstream(flags + ["-c", #"import "util" as u; include "nested"; [u::twice, three]"#], input: "[5]")
            #expect(run.lines == ["[10,3]"], "\(flags): \(run.stderr)")
        }
        let missing = try await jsonstream(["-n", #"import "util" as u; 1"#])
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("module not found: util"), "\(missing.stderr)")
        #expect(try await jsonstream(["-n", "-c", "get_search_list"]).lines == [#"["~/.jq","$ORIGIN/../lib/jq","$ORIGIN/../lib"]"#])
    }

    @Test("With -f FILE the program's origin is the file's directory: get_prog_origin and relative search paths")
    func programOrigin() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("lib"), withIntermediateDirectories: true)
        try directory.file("lib/helper.jq", "def helper: \"found\";\n")
        let program = try directory.file("main.jq", #"import "helper" as h {search: "./lib"}; [h::helper, get_prog_origin]"#)
        let run = try await jsonstream(["-n", "-c", "-f", program])
        let origin = URL(fileURLWithPath: directory.path("")).resolvingSymlinksInPath().path
        #expect(run.lines == [JSONValue.array([.string("found"), .string(origin)]).description], "\(run.stderr)")
    }

    @Test("~/.jq, when it is a file, is included first, as in jq; a directory is not")
    func homeLibrary() async throws {
        let home = try TemporaryDirectory()
        try home.file(".jq", "def hello: \"hi\";\n")
        let run = try await jsonstream(["-n", "hello"], environment: ["HOME": home.path("")])
        #expect(run.lines == [#""hi""#], "\(run.stderr)")
        let other = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: other.path(".jq"), withIntermediateDirectories: true)
        #expect(try await jsonstream(["-n", "1"], environment: ["HOME": other.path("")]).lines == ["1"])
        #expect(try await jsonstream(["-n", "hello"], environment: ["HOME": other.path("")]).status == 3)
    }

    @Test("halt stops with status 0; halt_error prints its value on stderr and exits with its status")
    func halt() async throws {
        let stop = try await jsonstream(["-c", "if . == 2 then halt else . end"], input: "[1,2,3]")
        #expect(stop.status == 0)
        #expect(stop.lines == ["1"])
        let message = try await jsonstream(["-n", #""bye\n" | halt_error"#])
        #expect(message.status == 5)
        #expect(message.stderr == "bye\n")
        let object = try await jsonstream(["-n", "1, ({\"a\":1} | halt_error(3))"])
        #expect(object.status == 3)
        #expect(object.lines == ["1"])
        #expect(object.stderr == "{\"a\":1}\n")
        let quiet = try await jsonstream(["-n", "null | halt_error(0)"])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty)
    }

    @Test("A pasted jq '.[] | F' that fails gets one hint: drop the '.[]'")
    func pastedIteration() async throws {
        let run = try await jsonstream([#".[] | select(.user == "a")"#], input: "{\"user\":\"a\"}\n{\"user\":\"b\"}\n")
        #expect(run.status == 5)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 3, "\(run.stderr)")  // two errors, one hint
        #expect(lines.first?.contains(#"Cannot index string with string ("user")"#) == true, "\(run.stderr)")
        #expect(run.stderr.contains(#"hint: the filter already runs on each element of the stream, as jq's '.[] | F'; drop the leading '.[]' (jsonstream 'select(.user == "a")'), or run the jq command unchanged with --jq"#),
                "\(run.stderr)")
        // Other failing filters get no hint.
        #expect(!(try await jsonstream([".a + 1"], input: "[{\"a\":\"x\"}]").stderr.contains("hint")))
    }

    @Test("input_line_number is the line an element starts on; $ENV reads the environment")
    func lineNumberAndEnvironment() async throws {
        #expect(try await jsonstream(["-c", "[., input_line_number]"], input: "1\n2\n\n3\n").lines
            == ["[1,1]", "[2,2]", "[3,4]"])
        #expect(try await jsonstream(["-n", "-r", "$ENV.HOME == env.HOME and ($ENV | type == \"object\")"]).lines == ["true"])
    }
}
