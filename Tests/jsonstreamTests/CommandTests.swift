// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import JSONStreamTool
import Testing
@testable import jsonstream

/// The command line parsed in process: jq's spellings map onto JSONStreamOptions.
@Suite("Command line to options")
struct CommandTests {
    private func options(_ arguments: [String]) throws -> JSONStreamOptions {
        let command = try JSONStreamCommand.parseAsRoot(CommandLineSyntax.joiningPairs(arguments))
        return try #require(command as? JSONStreamCommand).makeOptions()
    }

    @Test("The quick reading of plain command lines makes ArgumentParser's options, and declines the rest")
    func quickCommandLine() throws {
        let flags = ["-c", "--compact-output", "-r", "--raw-output", "-j", "-a", "-S", "--sort-keys", "-n", "-s",
                     "-R", "-e", "--exit-status", "--tab", "--seq", "--unbuffered", "--jq"]
        let positionals: [[String]] = [[], ["."], [".name", "a.json"], ["-", "--", "b.json"], ["-2 | length"], [""]]
        var lines: [[String]] = []
        for (index, flag) in flags.enumerated() {
            for tail in positionals {
                lines.append([flag] + tail)
                lines.append([flag, flags[(index + 5) % flags.count], "--jq"] + tail)
                lines.append(["--jq", flag] + tail)
            }
        }
        lines += positionals + [["--", "-c", "x"], ["-c", "--", "--tab"]]
        var quick = 0
        for given in lines {
            let canonical = CommandLineSyntax.asksForJQ(given) ? CommandLineSyntax.canonicalJQArguments(given) : given
            let parsed = try? JSONStreamCommand.parsedOptions(canonical)
            guard let fast = QuickCommandLine.options(canonical) else { continue }
            quick += 1
            var (fastText, parsedText) = ("", "")
            dump(fast, to: &fastText)
            dump(try #require(parsed.flatMap { $0 }, "\(given)"), to: &parsedText)
            #expect(fastText == parsedText, "\(given)")
        }
        #expect(quick > lines.count / 2)
        for declined in [["-cr", "."], ["-c", "-c", "."], ["--indent", "2", "."], ["--arg", "a", "b", "."], ["-h"],
                         ["--version"], ["-f", "p.jq"], ["--nosuch", "."], ["-C", "."], ["--stream", "."]] {
            #expect(QuickCommandLine.options(declined) == nil, "\(declined)")
        }
    }

    @Test("The first argument is the filter, the rest are files; none means .")
    func positionals() throws {
        let parsed = try options([".a", "x.json", "-", "y.json"])
        #expect(parsed.filter == .text(".a"))
        #expect(parsed.files == ["x.json", "-", "y.json"])
        #expect(try options([]).filter == .text("."))
        let fromFile = try options(["-f", "prog.jq", "x.json"])
        #expect(fromFile.filter == .file("prog.jq"))
        #expect(fromFile.files == ["x.json"])
    }

    @Test("Clustered short flags and jq's long names")
    func flags() throws {
        let parsed = try options(["-rSae", "--tab", "--unbuffered", "."])
        #expect(parsed.rawOutput && parsed.sortKeys && parsed.asciiOutput && parsed.exitStatus)
        #expect(parsed.tab && parsed.unbuffered)
        let long = try options(["--raw-output", "--join-output", "--null-input", "--compact-output", "."])
        #expect(long.rawOutput && long.joinOutput && long.nullInput)
    }

    @Test("-C and -M: the last one wins; neither leaves the default")
    func colour() throws {
        #expect(try options(["-C", "."]).color == true)
        #expect(try options(["-C", "-M", "."]).color == false)
        #expect(try options(["-M", "-C", "."]).color == true)
        #expect(try options(["."]).color == nil)
    }

    @Test("Two-value options, in any position")
    func pairs() throws {
        let parsed = try options(["--arg", "a", "1", ".", "--argjson", "b", "[2]", "f.json", "--split-lines", "10", "out-"])
        #expect(parsed.stringArguments.map { "\($0.name)=\($0.value)" } == ["a=1"])
        #expect(parsed.jsonArguments.map { "\($0.name)=\($0.text)" } == ["b=[2]"])
        #expect(parsed.split == .init(linesPerFile: 10, prefix: "out-"))
        #expect(parsed.files == ["f.json"])
    }

    @Test("Input, output, table and report options")
    func valued() throws {
        let parsed = try options(["--path", ".data.items", "--input", "array", "--limit", "7", "--on-error", "skip",
                                  "--output", "pretty", "--indent", "4", "--stats", "--no-progress", "."])
        #expect(parsed.path == ["data", "items"])
        #expect(parsed.inputFormat == .array)
        #expect(parsed.limit == 7)
        #expect(parsed.errorPolicy == .skip)
        #expect(parsed.layout == .pretty)
        #expect(parsed.indent == 4)
        #expect(parsed.stats)
        #expect(parsed.progress == false)
        let table = try options(["--tsv", "--columns", "a,b.c", "."])
        #expect(table.table == .tsv)
        #expect(table.columns == ["a", "b.c"])
    }

    @Test("jq's -s, -R, --seq, --raw-output0, -L and --args reach the options")
    func jqOptions() throws {
        let parsed = try options(["-s", "-R", "--seq", "--raw-output0", "-L", "/lib", "--library-path", "/lib2", "."])
        #expect(parsed.slurp && parsed.rawInput && parsed.seq && parsed.rawOutput0)
        #expect(parsed.libraryPaths == ["/lib", "/lib2"])
    }

    @Test("Refused and malformed options throw (exit 2 in main)")
    func refused() throws {
        // --stream is jq's with --jq; without it, a usage error before anything is read.
        #expect(try options(["--stream", "."]).validationProblems().contains { $0.contains("--stream goes with --jq") })
        #expect(try options(["--jq", "--stream", "."]).validationProblems().isEmpty)
        #expect(throws: (any Error).self) { try options(["--csv", "--tsv", "."]) }
        #expect(throws: (any Error).self) { try options(["--split-lines", "ten", "p", "."]) }
        #expect(throws: (any Error).self) { try options(["--input", "xml", "."]) }
        #expect(throws: (any Error).self) { try options(["--path", ".[0]", "."]) }
    }
}
