// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `--jq` writes jq 1.8.2's messages on stderr, byte for byte: each expected
/// text here was recorded from a jq 1.8.2 binary with the same command line.
@Suite("jq's messages under --jq (end to end)")
struct JQMessagesTests {
    @Test("A runtime error names FILE:LINE, LINE being the line breaks jq has read when the value ends")
    func runtimeErrorLine() async throws {
        // A value across lines is placed at its last line; the last line
        // without a line break counts as the one before it.
        let run = try await jsonstream(["--jq", "-c", "error"], input: "1\n{\"a\":\n2}\n\"a\" 3\n4")
        #expect(run.status == 5)
        #expect(run.stderr == """
            jq: error (at <stdin>:1) (not a string): 1
            jq: error (at <stdin>:3) (not a string): {"a":2}
            jq: error (at <stdin>:4): a
            jq: error (at <stdin>:4) (not a string): 3
            jq: error (at <stdin>:4) (not a string): 4

            """, "\(run.stderr)")
        let numbers = try await jsonstream(["--jq", "-c", "[., input_line_number]"], input: "1\n{\"a\":\n2}\n\"a\" 3\n4")
        #expect(numbers.lines == ["[1,1]", #"[{"a":2},3]"#, #"["a",4]"#, "[3,4]", "[4,4]"])
        let unknown = try await jsonstream(["--jq", "-n", "error(1)"])
        #expect(unknown.stderr == "jq: error (at <unknown>) (not a string): 1\n")
    }

    @Test("A streamed array that fails is placed at its end, as jq, which reads it whole first",
          arguments: [false, true])
    func streamedArrayError(followedByAnotherValue: Bool) async throws {
        let directory = try TemporaryDirectory()
        // Large enough to be streamed (and cut into pieces on two cores),
        // one element per line; the bad element is near the start.
        var text = "[\n"
        for index in 0..<60_000 { text += "{\"i\": \(index == 40 ? "\"x\"" : String(index))},\n" }
        text += "{\"i\": 0}\n]\n"
        if followedByAnotherValue { text += "[{\"i\": 1}]\n" }
        let file = try directory.file("array.json", text)
        let run = try await jsonstream(["--jq", "-c", ".[] | .i + 1", file])
        let lines = text.utf8.count { $0 == UInt8(ascii: "\n") }
        #expect(run.stderr == "jq: error (at \(file):\(followedByAnotherValue ? lines - 1 : lines)): "
                + "string (\"x\") and number (1) cannot be added\n", "\(run.stderr)")
        #expect(run.lines.count == 40 + (followedByAnotherValue ? 1 : 0))
        // jq's status is its last input's: 0 when the value after the array ran.
        #expect(run.status == (followedByAnotherValue ? 0 : 5))
    }

    @Test("Files and arguments that cannot be read, and compile errors, in jq's words")
    func commandLineMessages() async throws {
        let directory = try TemporaryDirectory()
        let missing = directory.path("missing.json")
        let input = try await jsonstream(["--jq", ".", missing])
        #expect(input.status == 2)
        #expect(input.stderr == "jq: error: Could not open file \(missing): No such file or directory\n")
        let program = try await jsonstream(["--jq", "-f", missing])
        #expect(program.status == 2)
        #expect(program.stderr == "jq: Could not open \(missing): No such file or directory\n")
        let raw = try await jsonstream(["--jq", "-n", "--rawfile", "a", missing, "1"])
        #expect(raw.stderr == "jq: Bad JSON in --rawfile a \(missing): Could not open \(missing): No such file or directory\n")
        let slurped = try await jsonstream(["--jq", "-n", "--slurpfile", "a", missing, "1"])
        #expect(slurped.status == 2)
        #expect(slurped.stderr
                == "jq: Bad JSON in --slurpfile a \(missing): Could not open \(missing): No such file or directory\n")
        let argjson = try await jsonstream(["--jq", "-n", "--argjson", "a", "{", "1"])
        #expect(argjson.status == 2)
        #expect(argjson.stderr == """
            jq: invalid JSON text passed to --argjson
            Use jq --help for help with command-line options,
            or see the jq manpage, or online docs at https://jqlang.org

            """)
        let compile = try await jsonstream(["--jq", "-n", "{"])
        #expect(compile.status == 3)
        #expect(compile.stderr == """
            jq: error: syntax error, unexpected end of file at <top-level>, line 1, column 1:
                {
                ^
            jq: 1 compile error

            """)
        // A constant key that is no string, folded as jq folds it, underlined whole.
        let key = try await jsonstream(["--jq", "-n", "{a: 1, (1 + 1): 2}"])
        #expect(key.status == 3)
        #expect(key.stderr == """
            jq: error: Cannot use number (2) as object key at <top-level>, line 1, column 9:
                {a: 1, (1 + 1): 2}
                        ^^^^^
            jq: 1 compile error

            """, "\(key.stderr)")
        // The element-wise mode keeps its own words.
        let elementWise = try await jsonstream([".", missing])
        #expect(elementWise.stderr.hasPrefix("jsonstream: error: Could not open \(missing)"))
    }
}
