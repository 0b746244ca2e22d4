// SPDX-License-Identifier: Apache-2.0
import Foundation
import TestSupport
import JSONStreamTool
import Testing

/// `jsonstream --help` and the man page generated from the same text
/// (`Documentation/jsonstream.1`, written by `scripts/man`).
///
/// The worked examples in the help are run as printed; the man page is
/// checked for every option and example line, so that a change to the help
/// without `scripts/man` fails here. (`scripts/man --check` compares the whole
/// page; it needs the generate-manual plugin, which is too slow for a unit test.)
@Suite struct HelpAndManualTests {
    /// The help as ArgumentParser's tools see it: the command's discussion
    /// (unwrapped) and every argument.
    struct Help: Decodable {
        struct Command: Decodable {
            var discussion: String
            var arguments: [Argument]
        }

        struct Argument: Decodable {
            struct Name: Decodable {
                var kind: String
                var name: String
            }

            var names: [Name]?
            var valueName: String?
            var abstract: String?
            var shouldDisplay: Bool
        }

        var command: Command
    }

    static func help() async throws -> Help {
        let run = try await jsonstream(["--experimental-dump-help"])
        #expect(run.status == 0)
        return try JSONDecoder().decode(Help.self, from: run.stdout)
    }

    /// The EXAMPLES section of the discussion, two spaces of indentation removed.
    static func exampleLines(_ discussion: String) -> [String] {
        let lines = discussion.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "EXAMPLES") else { return [] }
        var section: [String] = []
        for line in lines[(start + 1)...] {
            if let first = line.first, first != " " { break }  // the next heading
            section.append(line.hasPrefix("  ") ? String(line.dropFirst(2)) : line)
        }
        return section
    }

    /// One `$ command` of the examples with the lines printed after it.
    struct Example {
        var command: String
        var stdout: [String] = []
        var stderr: [String] = []
    }

    /// beers.json, as the examples show it, and the `$` commands in order.
    static func examples(_ lines: [String]) -> (beers: String, examples: [Example]) {
        var beers: [String] = []
        var examples: [Example] = []
        var inBeers = false
        for line in lines {
            if line.hasPrefix("The examples read beers.json") {
                inBeers = true
                continue
            }
            if inBeers {
                if line.hasPrefix("  ") {
                    beers.append(String(line.dropFirst(2)))
                    continue
                }
                inBeers = false
            }
            guard line.hasPrefix("  ") else {
                if !examples.isEmpty, examples[examples.count - 1].command != "" {
                    examples.append(Example(command: ""))  // a caption ends the output
                }
                continue
            }
            let text = String(line.dropFirst(2))
            if text.hasPrefix("$ ") {
                if examples.last?.command == "" { examples.removeLast() }
                examples.append(Example(command: String(text.dropFirst(2))))
            } else if !examples.isEmpty, examples[examples.count - 1].command != "" {
                // Lines jsonstream writes to stderr start with its name.
                if text.hasPrefix("jsonstream: ") {
                    examples[examples.count - 1].stderr.append(text)
                } else {
                    examples[examples.count - 1].stdout.append(text)
                }
            }
        }
        return (beers.joined(separator: "\n") + "\n", examples.filter { $0.command != "" })
    }

    /// A printed line matches an actual one; a printed line ending in `...`
    /// stands for any line that starts with the text before it.
    static func matches(_ printed: String, _ actual: String) -> Bool {
        if printed.hasSuffix(" ...") { return actual.hasPrefix(String(printed.dropLast(3))) }
        return printed == actual
    }

    @Test func workedExamplesPrintWhatTheHelpSays() async throws {
        let help = try await Self.help()
        let (beers, examples) = Self.examples(Self.exampleLines(help.command.discussion))
        #expect(beers.contains(#"{"id":1,"name":"Oak""#))
        // filter a huge array, -r, --count, --path, JSON Lines, --on-error skip, --stats
        #expect(examples.count >= 7)
        for needle in [" -r ", "--count", "--path", ".jsonl", "--on-error skip", "--stats", "--jq ", "--explain"] {
            #expect(examples.contains { $0.command.contains(needle) }, "no example with \(needle)")
        }

        let directory = try TemporaryDirectory()
        try directory.file("beers.json", beers)
        let binaries = JSONStreamBinary.url.deletingLastPathComponent().path
        for example in examples {
            let result = try await offThePool {
                try Self.shell(example.command, in: directory.url, path: binaries)
            }
            #expect(result.status == 0, "\(example.command): \(result.stderr)")
            let out = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast()
            let err = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast()
            #expect(out.count == example.stdout.count && zip(example.stdout, out).allSatisfy(Self.matches),
                    "\(example.command)\nprinted: \(example.stdout)\nactual: \(Array(out))")
            #expect(err.count == example.stderr.count && zip(example.stderr, err).allSatisfy(Self.matches),
                    "\(example.command)\nprinted: \(example.stderr)\nactual: \(Array(err))")
        }
    }

    /// The usage line where a reader looks, the long discussion after the options.
    @Test func usageComesFirst() async throws {
        let run = try await jsonstream(["--help"])
        #expect(run.status == 0)
        let lines = run.lines
        #expect(lines.first?.hasPrefix("OVERVIEW:") == true)
        let usage = try #require(lines.firstIndex { $0.hasPrefix("USAGE: jsonstream") })
        #expect(usage < 6)
        let options = try #require(lines.firstIndex(of: "OPTIONS:"))
        let examples = try #require(lines.firstIndex(of: "EXAMPLES"))
        #expect(usage < options && options < examples)
        #expect(lines.contains("EXIT STATUS (jq 1.8's)"))
        let short = try await jsonstream(["-h"])
        #expect(short.stdout == run.stdout)
    }

    /// The version has one source; the changelog's newest heading names it.
    @Test func versionIsTheChangelogs() async throws {
        let run = try await jsonstream(["--version"])
        #expect(run.lines == [jsonStreamVersion])
        let changelog = try String(contentsOf: JSONStreamBinary.fixtures
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") }
        #expect(newest?.hasPrefix("## \(jsonStreamVersionNumber) ") == true, "\(newest ?? "no heading")")
    }

    @Test func everyOptionHasHelpText() async throws {
        let help = try await Self.help()
        for argument in help.command.arguments where argument.shouldDisplay {
            let name = argument.names?.first?.name ?? argument.valueName ?? "?"
            #expect(!(argument.abstract ?? "").isEmpty, "--\(name) has no help text")
        }
    }

    /// Documentation/jsonstream.1 has every option, its help text, and every
    /// line of the discussion, examples included: it was regenerated after
    /// the help last changed.
    @Test func manualMatchesTheHelp() async throws {
        let help = try await Self.help()
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = try String(contentsOf: package.appendingPathComponent("Documentation/jsonstream.1"), encoding: .utf8)
        // mdoc escapes: \e is a backslash, \& a zero-width space; a line may start with either.
        let text = page.replacingOccurrences(of: "\\&", with: "").replacingOccurrences(of: "\\e", with: "\\")
        let advice = "Documentation/jsonstream.1 is out of date: run scripts/man"
        for argument in help.command.arguments where argument.shouldDisplay {
            // (Booleans first: on failure, #expect would print the whole page.)
            for name in argument.names ?? [] where name.kind != "short" {
                let found = text.contains("Fl -\(name.name)")
                #expect(found, "--\(name.name) missing. \(advice)")
            }
            if let abstract = argument.abstract, argument.names?.first?.name != "help" {
                let found = text.contains(abstract)
                #expect(found, "help text of \(argument.names?.first?.name ?? "?") missing. \(advice)")
            }
        }
        // The discussion, examples included: each paragraph is one line of it, and one of the page.
        for line in help.command.discussion.components(separatedBy: "\n") where !Self.isHeading(line) {
            let found = text.contains(line.trimmingCharacters(in: .whitespaces))
            #expect(found, "discussion line missing: \(line.prefix(60))…. \(advice)")
        }
    }

    /// A blank line, or a heading of the discussion (`EXAMPLES`, `EXIT STATUS (jq 1.8's)`),
    /// which the page turns into a section of its own.
    static func isHeading(_ line: String) -> Bool {
        let words = line.prefix { $0 != "(" }.trimmingCharacters(in: .whitespaces)
        return words.isEmpty || (!line.hasPrefix(" ") && words == words.uppercased())
    }

    /// Runs `command` with /bin/sh in `directory`, with `path` first in PATH.
    static func shell(_ command: String, in directory: URL, path: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let out = directory.appendingPathComponent(".stdout"), err = directory.appendingPathComponent(".stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        try waitForExit(process, timeout: 60)
        return (process.terminationStatus,
                String(decoding: try Data(contentsOf: out), as: UTF8.self),
                String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }
}
