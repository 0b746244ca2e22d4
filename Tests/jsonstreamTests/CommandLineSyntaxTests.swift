// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import JSONStreamTool

@Suite("Command-line syntax: two-value options, --path, --columns")
struct CommandLineSyntaxTests {
    @Test("--arg NAME VALUE becomes one value the parser can take, and back")
    func joinsPairs() throws {
        let joined = CommandLineSyntax.joiningPairs(["-c", "--arg", "x", "-5", ".a", "file.json"])
        #expect(joined == ["-c", "--arg=x\u{0}-5", ".a", "file.json"])
        let value = try #require(joined[1].split(separator: "=", maxSplits: 1).last)
        let pair = try #require(CommandLineSyntax.splitPair(String(value)))
        #expect(pair.first == "x")
        #expect(pair.second == "-5")
    }

    @Test("Every two-value option is joined; a value may hold '=' and spaces")
    func joinsEveryPairedOption() {
        let joined = CommandLineSyntax.joiningPairs([
            "--argjson", "j", "{\"a\":1}", "--rawfile", "r", "f.txt", "--slurpfile", "s", "v.json",
            "--split-lines", "100", "out/part-", "--arg", "e", "a=b c",
        ])
        #expect(joined == [
            "--argjson=j\u{0}{\"a\":1}", "--rawfile=r\u{0}f.txt", "--slurpfile=s\u{0}v.json",
            "--split-lines=100\u{0}out/part-", "--arg=e\u{0}a=b c",
        ])
    }

    @Test("Arguments after -- and an option missing its values are left alone")
    func leavesOthersAlone() {
        #expect(CommandLineSyntax.joiningPairs(["--", "--arg", "a", "b"]) == ["--", "--arg", "a", "b"])
        #expect(CommandLineSyntax.joiningPairs([".", "--arg", "a"]) == [".", "--arg", "a"])
        #expect(CommandLineSyntax.splitPair("plain") == nil)
    }

    @Test("--args/--jsonargs turn later positionals into $ARGS values; the filter and files go after --")
    func marksPositionalArguments() {
        let marked = CommandLineSyntax.markingPositionalArguments(
            ["-c", "--indent", "2", ".", "in.json", "--args", "a", "--jsonargs", "1", "-Lmods"])
        #expect(marked == ["-c", "--indent", "2", "--positional-argument=s:a", "--positional-argument=j:1",
                           "--library-path=mods", "--", ".", "in.json"])
        // With -f every positional is a file (or an argument); `--` ends the options, as in jq.
        #expect(CommandLineSyntax.markingPositionalArguments(["-f", "p.jq", "x.json", "--args", "y"])
            == ["-f", "p.jq", "--positional-argument=s:y", "--", "x.json"])
        #expect(CommandLineSyntax.markingPositionalArguments(["--", "-1", "-"]) == ["--", "-1", "-"])
        #expect(CommandLineSyntax.markingPositionalArguments(["-n"]) == ["-n"])
    }

    @Test("The variables of --arg, --argjson, --rawfile, --slurpfile, in command-line order")
    func namesVariablesInOrder() {
        #expect(CommandLineSyntax.variableNames(["--argjson", "z", "1", "-n", "--arg", "a", "x", "--split-lines", "2", "p",
                                                 "--rawfile", "r", "f", "--", "--arg", "no", "v"]) == ["z", "a", "r"])
    }

    @Test("--path accepts jq's key syntax", arguments: [
        (".", [String]()),
        ("", []),
        (".items", ["items"]),
        (".data.items", ["data", "items"]),
        ("data.items", ["data", "items"]),
        (".items[]", ["items"]),
        (".\"a b\".c", ["a b", "c"]),
        (".[\"a.b\"]", ["a.b"]),
        (".a[\"b\"].c", ["a", "b", "c"]),
        (".\"q\\\"uote\"", ["q\"uote"]),
        (".kebab-case", ["kebab-case"]),
    ])
    func parsesPaths(text: String, keys: [String]) throws {
        #expect(try CommandLineSyntax.keyPath(text) == keys)
    }

    @Test("--path rejects indexes and broken syntax", arguments: [".[0]", ".a.", ".\"open", ".a[\"b\""])
    func rejectsBadPaths(text: String) {
        #expect(throws: CommandLineSyntax.ValueError.self) { try CommandLineSyntax.keyPath(text) }
    }

    @Test("--columns splits on commas and trims spaces")
    func parsesColumns() {
        #expect(CommandLineSyntax.columns("id, name,brewery.city") == ["id", "name", "brewery.city"])
        #expect(CommandLineSyntax.columns("a,,b") == ["a", "", "b"])
    }
}
