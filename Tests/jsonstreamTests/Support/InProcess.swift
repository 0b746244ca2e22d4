// SPDX-License-Identifier: Apache-2.0
import Foundation
import JSONStreamTool
import Testing

/// `runJSONStream` in this process, with stdout and stderr sent to files:
/// what a `jsonstream` process would print, without starting one (a debug
/// build spends most of a short run in ArgumentParser's debug-only checks).
enum InProcess {
    struct Result: Equatable {
        var stdout: Data
        var stderr: String
        var status: JSONStreamTool.ExitStatus
    }

    /// A corpus case's filter, input, format, key path and options.
    static func run(_ corpusCase: CorpusCase, projecting: Bool,
                    adjusting adjust: (inout JSONStreamOptions) -> Void = { _ in }) throws -> Result {
        var options = JSONStreamOptions()
        options.filter = .text(corpusCase.filter)
        options.files = [corpusCase.inputPath]
        options.inputFormat = corpusCase.format == "lines" ? .lines : .array
        if let path = corpusCase.path { options.path = try CommandLineSyntax.keyPath(path) }
        apply(corpusCase.options ?? [], to: &options)
        options.projectsInput = projecting
        adjust(&options)
        return try run(options)
    }

    /// `jsonstream FLAGS FILTER FILE`, FLAGS among those `apply(_:to:)` knows.
    static func run(_ flags: [String], _ filter: String, file: String) throws -> Result {
        var options = JSONStreamOptions()
        options.filter = .text(filter)
        options.files = [file]
        apply(flags, to: &options)
        return try run(options)
    }

    /// The options that command-line flags set, as `jsonstream`'s option
    /// groups set them; an unknown flag is a test failure.
    static func apply(_ flags: [String], to options: inout JSONStreamOptions) {
        var flags = flags[...]
        var compact = false
        while let flag = flags.popFirst() {
            switch flag {
            case "--jq": options.jqMode = true
            case "-c": compact = true
            case "-r": options.rawOutput = true
            case "-j": options.joinOutput = true
            case "--raw-output0": options.rawOutput0 = true
            case "-a": options.asciiOutput = true
            case "-S": options.sortKeys = true
            case "-e": options.exitStatus = true
            case "--seq": options.seq = true
            case "--indent": options.indent = Int(flags.removeFirst())
            case "--on-error": options.errorPolicy = .init(rawValue: flags.removeFirst()) ?? .fail
            case "--arg": options.stringArguments.append((flags.removeFirst(), flags.removeFirst()))
            case "--argjson": options.jsonArguments.append((flags.removeFirst(), flags.removeFirst()))
            default: Issue.record("unknown option \(flag)")
            }
        }
        options.settleJQLayout(compact: compact)
    }

    /// `input`: the descriptor standard input reads (none by default).
    static func run(_ options: JSONStreamOptions, input: Int32 = -1) throws -> Result {
        let directory = try TemporaryDirectory()
        let out = open(directory.path("stdout"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let err = open(directory.path("stderr"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let status = runJSONStream(options, streams: StandardStreams(input: input, output: out, error: err))
        close(out)
        close(err)
        return Result(stdout: try Data(contentsOf: URL(fileURLWithPath: directory.path("stdout"))),
                      stderr: try String(contentsOfFile: directory.path("stderr"), encoding: .utf8),
                      status: status)
    }
}
