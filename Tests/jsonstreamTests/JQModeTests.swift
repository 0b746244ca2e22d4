// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `--jq` beyond the differential corpus: what differs from jq on purpose,
/// `--explain`, and `--path` to an object in the element-wise mode.
@Suite("--jq and --path (end to end)")
struct JQModeTests {
    @Test("--explain prints the plan on stderr and reads nothing")
    func explain() async throws {
        let run = try await jsonstream(["--jq", "--explain", ".items | map(.price) | add", "/nonexistent/dump.json"])
        #expect(run.status == 0)
        #expect(run.output.isEmpty)
        #expect(run.stderr.hasPrefix("jsonstream: plan: streamed: .items, one element at a time (of each element, only price is built)\n"))
        let whole = try await jsonstream(["--jq", "--explain", "group_by(.style)"])
        #expect(whole.stderr.contains("built whole"), "\(whole.stderr)")
        #expect(whole.stderr.contains("(group_by/1 at its start takes each input value whole"), "\(whole.stderr)")
        let copied = try await jsonstream(["--jq", "--explain", ".a.b"])
        #expect(copied.stderr.hasPrefix("jsonstream: plan: copied: .a.b is written out as it is read"))
        let idiom = try await jsonstream(["--jq", "-n", "--stream", "--explain", "fromstream(1|truncate_stream(inputs))"])
        #expect(idiom.stderr.contains("no event is made"), "\(idiom.stderr)")
    }

    @Test("--explain: files of many small values are read a value at a time, one large value by its plan")
    func explainJSONLines() async throws {
        let directory = try TemporaryDirectory()
        let lines = directory.path("lines.json"), single = directory.path("single.json")
        try Data("{\"a\": {\"b\": 1}}\n{\"a\": {\"b\": 2}}\n".utf8).write(to: URL(fileURLWithPath: lines))
        try Data("{\"a\": {\"b\": 1}}\n".utf8).write(to: URL(fileURLWithPath: single))
        let many = try await jsonstream(["--jq", "--explain", ".a.b", lines])
        #expect(many.stderr.hasPrefix("jsonstream: plan: each input value is read whole, as the files hold many"))
        let one = try await jsonstream(["--jq", "--explain", ".a.b", single])
        #expect(one.stderr.hasPrefix("jsonstream: plan: copied: .a.b is written out as it is read"))
        let both = try await jsonstream(["--jq", "--explain", ".a.b", lines, single])
        #expect(both.stderr.hasPrefix("jsonstream: plan: copied: .a.b is written out as it is read"))
        let run = try await jsonstream(["--jq", "-c", ".a.b", lines, single])
        #expect(run.output == "1\n2\n1\n")
        // Compressed files are looked at decompressed.
        for (file, plan) in [(lines, "each input value is read whole"), (single, "copied: .a.b")] {
            let archive = file + ".gz"
            try Data(gzipped(Array(Data(contentsOf: URL(fileURLWithPath: file)))))
                .write(to: URL(fileURLWithPath: archive))
            let explained = try await jsonstream(["--jq", "--explain", ".a.b", archive])
            #expect(explained.stderr.hasPrefix("jsonstream: plan: " + plan), "\(explained.stderr)")
        }
    }

    @Test("--jq over compressed JSON Lines, broken or cut short: what the same lines uncompressed give")
    func compressedLinesAsPlain() async throws {
        let directory = try TemporaryDirectory()
        let lines = (0..<3000).map { "{\"id\": \($0), \"name\": \"n\($0)\", \"tags\": [1, 2]}" }
        var broken = lines
        broken[1500] = "{\"id\": 1500, \"name\": \"n1500\",, \"tags\": []}"
        let texts = [broken.joined(separator: "\n") + "\n", String(lines.joined(separator: "\n").dropLast(9))]
        for (index, text) in texts.enumerated() {
            let plain = directory.path("lines\(index).json"), archive = plain + ".gz"
            try Data(text.utf8).write(to: URL(fileURLWithPath: plain))
            try Data(gzipped(Array(text.utf8))).write(to: URL(fileURLWithPath: archive))
            let expected = try await jsonstream(["--jq", "-c", ".name", plain])
            #expect(expected.status != 0 && expected.output.hasSuffix(index == 0 ? "\"n1499\"\n" : "\"n2998\"\n"))
            for arguments in [["--jq", "-c", ".name", archive], ["--jq", "-c", ".name"]] {
                let run = try await jsonstream(arguments, stdinPath: arguments.count == 3 ? archive : nil)
                #expect(run.output == expected.output, "\(index) \(arguments)")
                #expect(run.status == expected.status, "\(index) \(arguments)")
            }
        }
    }

    /// `.[] | F` whose `F` is written from the tape or decided on it (`.`,
    /// member paths, `select(C)`) prints what the built form
    /// `.[] | F | . as $x | $x` prints: the same bytes, errors and exit
    /// status, over arrays, an object's member values, and elements on which
    /// `F` fails (the rest of that value is passed over).
    @Test("`.[] | F` from the tape prints what the built form prints")
    func eachElementFromTheTape() throws {
        let input = [#"[{"a":{"b":"é"},"k":1,"n":2},{"a":null,"k":false},{"a":{"b":1,"b":[true]}},5,"s",null]"#,
                     #"{"x":{"a":{"b":2},"k":3},"y":{"k":null}}"#, "[]", #"[{"k":"\u001b"}, [1]]"#].joined(separator: "\n")
        let directory = try TemporaryDirectory()
        let file = try directory.file("input.json", input)
        for filter in [".[]", ".[] | .a.b", ".[] | {k, b: .a.b}", ".[] | select(.k)", ".[] | select(.k == 1) | .a",
                       ".[] | select(.n > 1 or .k == false) | {k}", ".[] | .a | length", ".[] | select(.k | not)"] {
            for options in [["-c"], [], ["-r"], ["-j"], ["-e"], ["--seq"], ["--indent", "1"], ["-a", "-c"]] {
                let fast = try InProcess.run(["--jq"] + options, filter, file: file)
                let built = try InProcess.run(["--jq"] + options, "\(filter) | . as $x | $x", file: file)
                #expect(fast == built, "\(filter) \(options)")
            }
        }
    }

    @Test("A syntax error inside a streamed value: nothing of it is printed, as in jq; the values before it are")
    func truncatedInput() async throws {
        let counted = try await jsonstream(["--jq", ".items | length"], input: #"{"items": [1, 2, 3"#)
        #expect(counted.status == 5)
        #expect(counted.output.isEmpty)
        #expect(counted.stderr.contains("Unexpected end of input"), "\(counted.stderr)")
        let copied = try await jsonstream(["--jq", "-c", "."], input: #"[0] [1, 2, {"a": tru"#)
        #expect(copied.status == 5)
        #expect(copied.output == "[0]\n", "the value before it, nothing of the broken one")
        // Its results and its runtime error were made before the error was read: both dropped.
        let streamed = try await jsonstream(["--jq", "-c", ".[] | 1 / ."], input: "[1, 2, 0, 4, x")
        #expect(streamed.status == 5)
        #expect(streamed.output.isEmpty)
        #expect(!streamed.stderr.contains("divided"), "\(streamed.stderr)")
        // The element-wise mode streams on: the elements before the error are printed.
        let elementWise = try await jsonstream(["-c", "."], input: "[1, 2, x")
        #expect(elementWise.output == "1\n2\n")
    }

    @Test("A runtime error after a streamed target's end is placed where jq places it: the input's last line")
    func errorAfterTheStreamedEnd() async throws {
        // `.a` reads the whole streamed array, then fails on it: the reader has
        // moved past every element by then. jq names the line its input ends on.
        let run = try await jsonstream(["--jq", "-c", "[.a[] | .b] | (join(\",\"), .a)"],
                                       input: "\n" + #"{"a": [{"b": "x"}, {"b": "y"}]}"# + "\n")
        #expect(run.status == 5)
        #expect(run.output == "\"x,y\"\n")
        #expect(run.stderr == "jq: error (at <stdin>:2): Cannot index array with string (\"a\")\n",
                "\(run.stderr)")
    }

    @Test("An object with a repeated key keeps its last value, as in jq: streamed, from a file, or built whole")
    func repeatedKeys() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("repeated.json")
        try Data(#"{"a": 1, "b": [1], "a": 2} {"b": [2], "c": {"d": 3}, "b": [4, 5]}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        for (filter, expected) in [(".[]", ["2", "[1]", "[4,5]", #"{"d":3}"#]), (".a", ["2", "null"]),
                                   (".b[]", ["1", "4", "5"]), (".", [#"{"a":2,"b":[1]}"#, #"{"b":[4,5],"c":{"d":3}}"#])] {
            let streamed = try InProcess.run(["--jq", "-c"], filter, file: path)
            #expect(String(decoding: streamed.stdout, as: UTF8.self) == expected.map { $0 + "\n" }.joined(), "\(filter)")
        }
        let streamed = try await jsonstream(["--jq", "-c", ".[]"], input: #"{"a": 1, "a": 2}"#)
        #expect(streamed.lines == ["2"])
        let whole = try await jsonstream(["--jq", "-c", "keys"], input: #"{"a": 1, "a": 2}"#)
        #expect(whole.lines == [#"["a"]"#])
        let nested = try await jsonstream(["--jq", "-c", "."], input: #"[{"a": 1, "a": 2}]"#)
        #expect(nested.lines == [#"[{"a":2}]"#])
    }

    @Test("A, B over a file whose first value is large: each part read on its own, jq's output and status")
    func partsOfALargeValue() async throws {
        let directory = try TemporaryDirectory()
        let items = (0..<60_000).map { #"{"id":\#($0),"name":"n\#($0)"}"# }.joined(separator: ",")
        try directory.file("big.json", #"{"meta":{"version":"2.1"},"items":["# + items + "]}\n" + #"{"items":[1,2]}"# + "\n7\n")
        let path = directory.path("big.json")
        let plan = try await jsonstream(["--jq", "--explain", #".meta.version, (.items | length), "end""#, path])
        #expect(plan.stderr.hasPrefix("jsonstream: plan: in parts"), "\(plan.stderr)")
        let run = try await jsonstream(["--jq", "-c", #".meta.version, (.items | length), "end""#, path])
        #expect(run.lines == [#""2.1""#, "60000", #""end""#, "null", "2", #""end""#])
        #expect(run.status == 5)  // the last value, 7, cannot be indexed: jq's status is the last input's
        #expect(run.stderr.contains(#"Cannot index number with string ("meta")"#), "\(run.stderr)")
        // A part that fails ends that value's program; the next value is read in step.
        let failing = try await jsonstream(["--jq", "-c", #"(.items | first), error("x"), .meta"#, path])
        #expect(failing.lines == [#"{"id":0,"name":"n0"}"#, "1"])
    }

    @Test("--stream and --explain go with --jq: a usage error without it")
    func streamNeedsJQ() async throws {
        let run = try await jsonstream(["--stream", "."], input: "[1]")
        #expect(run.status == 2)
        #expect(run.stderr.contains("--stream goes with --jq"), "\(run.stderr)")
        #expect(try await jsonstream(["--jq", "--path", ".a", "."], input: "{}").status == 2)
    }

    @Test("--path to an object streams its member values; anything else there is the document's error")
    func pathToObject() async throws {
        let citm = try await jsonstream(["--path", ".events", "-c", "{id, name}"],
                                        stdinPath: JSONStreamBinary.fixture("jq/inputs/events.json"))
        #expect(citm.status == 0)
        #expect(citm.lines.count == 3)
        #expect(citm.lines.first == #"{"id":138586341,"name":"30th Anniversary Tour"}"#)
        let mixed = try await jsonstream(["--path", ".a", "-c", "."], input: #"{"a": 5} {"a": [1]} {"b": 0} {"a": {"k": 2}}"#)
        #expect(mixed.status == 5)
        #expect(mixed.lines == ["1", "2"])
        #expect(mixed.stderr.contains("Expected an array or object at path .a but found a number"), "\(mixed.stderr)")
        #expect(mixed.stderr.contains("No array or object at path .a: the key is missing"), "\(mixed.stderr)")
    }

    @Test("JSON Lines on standard input, first read looked at for the plan: every value, in order")
    func stdinPeekedFirst() async throws {
        // A real pipe, fed more than it holds: the first read is part of it,
        // the rest follows. (Less output than a pipe holds: nothing blocks.)
        let lines = (0..<4_000).map { "{\"id\": \($0), \"s\": \"x\\u00e9\"}" }.joined(separator: "\n") + "\n"
        let live = try LiveRun(["--jq", "-c", ".id"])
        #expect(try await live.write(lines))
        live.closeInput()
        var output: [String] = []
        while let line = try await live.readLine() { output.append(line) }
        let (status, stderr) = try await live.finish()
        #expect(output == (0..<4_000).map(String.init))
        #expect(status == 0 && stderr.isEmpty, "\(stderr)")
    }
}

