// SPDX-License-Identifier: Apache-2.0
import Foundation
import JSONStreamTool
import StreamingJSON
import Testing

/// One case of the jq corpus (`Tests/Fixtures/jq/cases.json`, see its README):
/// a filter, an input, options, and jq 1.8.2's stdout and exit status.
struct CorpusCase: Decodable, Sendable, CustomTestStringConvertible {
    let name: String
    let input: String
    let format: String
    let path: String?
    var options: [String]?
    let filter: String
    let expected: [String]
    let exit: Int32

    var testDescription: String { name }

    static let all: [CorpusCase] = {
        let url = JSONStreamBinary.fixtures.appendingPathComponent("jq/cases.json")
        guard let data = try? Data(contentsOf: url),
              let cases = try? JSONDecoder().decode([CorpusCase].self, from: data) else { return [] }
        return cases
    }()

    var inputPath: String { JSONStreamBinary.fixture("jq/inputs/" + input) }

    /// The command line that should print what jq printed.
    var arguments: [String] {
        var arguments = ["--input", format == "lines" ? "lines" : "array"]
        if let path { arguments += ["--path", path] }
        return arguments + (options ?? []) + [filter, inputPath]
    }
}

/// The jq corpus against jq 1.8.2: the same bytes (jq writes numbers as they
/// were read) and the same exit status, but for the rule that JSON Lines input
/// exits 5 at the end after any runtime error (jq takes the last line's
/// status). Every case runs in this process (below, on one thread and
/// several); through the built binary run the cases whose command line says
/// more than a filter and a file (options, --path, --input lines).
@Suite("jq corpus (end to end)")
struct CorpusTests {
    @Test func corpusIsLoaded() {
        #expect(CorpusCase.all.count >= 500)
        #expect(Set(CorpusCase.all.map(\.filter)).count >= 150)
    }

    @Test(arguments: CorpusCase.all.filter { $0.options != nil || $0.path != nil || $0.format == "lines" })
    func matchesJQ(_ corpusCase: CorpusCase) async throws {
        let run = try await jsonstream(corpusCase.arguments)
        expectMatchesJQ(corpusCase, stdout: run.stdout, stderr: run.stderr, status: run.status)
    }

    /// Building only the members a filter reads changes nothing: same bytes
    /// out, same messages, same status, over every corpus case. (One case at
    /// a time: they run in this process and would crowd the cooperative pool.)
    @Test(.serialized, arguments: CorpusCase.all)
    func projectionIsInvisible(_ corpusCase: CorpusCase) async throws {
        let full = try InProcess.run(corpusCase, projecting: false)
        let projected = try InProcess.run(corpusCase, projecting: true)
        #expect(projected.stdout == full.stdout)
        #expect(projected.stderr == full.stderr)
        #expect(projected.status == full.status)
    }
}

/// Every corpus case on one thread prints what jq printed; and filtering
/// pieces of the input on several threads changes nothing: the corpus cut
/// into pieces of a few bytes (so that every case is cut, most between every
/// two elements), on two threads, prints the same bytes and messages with the
/// same status as one thread.
@Suite("jq corpus on one thread and several")
struct ParallelCorpusTests {
    @Test(.serialized, arguments: CorpusCase.all)
    func matchesJQOnAnyNumberOfThreads(_ corpusCase: CorpusCase) async throws {
        try expectMatchesJQOnAnyNumberOfThreads(corpusCase, pieceSizes: [1, 5, 40])
    }
}

/// The corpus as the jq command lines it was recorded from, through `--jq`:
/// `jq -c OPTIONS '.[] | F'` over an array case (`'.a.b[] | F'` at a path),
/// `jq -c OPTIONS F` over a JSON Lines case. On one thread they print jq
/// 1.8.2's bytes with its exit status; cut into pieces on two threads, the
/// same bytes, messages and status as one thread. (In this process: the
/// command line itself is checked end to end by the `--jq` command lines.)
@Suite("jq corpus through --jq, on one thread and several")
struct JQCorpusTests {
    @Test(.serialized, arguments: CorpusCase.all)
    func matchesJQOnAnyNumberOfThreads(_ corpusCase: CorpusCase) async throws {
        var program = corpusCase.filter
        if corpusCase.format == "array" { program = (corpusCase.path ?? "") + ".[] | " + program }
        let asJQ: (inout JSONStreamOptions) -> Void = {
            $0.jqMode = true
            $0.filter = .text(program)
            $0.path = []
            $0.inputFormat = .auto
        }
        try expectMatchesJQOnAnyNumberOfThreads(corpusCase, pieceSizes: [1, 40], exactStatus: true, adjusting: asJQ)
    }
}

/// `corpusCase` in this process on one thread against jq's output; then cut
/// into pieces of each of `pieceSizes` bytes on two threads, against one
/// thread: the same bytes, messages and status.
func expectMatchesJQOnAnyNumberOfThreads(_ corpusCase: CorpusCase, pieceSizes: [Int], exactStatus: Bool = false,
                                         adjusting adjust: (inout JSONStreamOptions) -> Void = { _ in },
                                         sourceLocation: SourceLocation = #_sourceLocation) throws {
    let single = try InProcess.run(corpusCase, projecting: true) { adjust(&$0); $0.threads = 1 }
    expectMatchesJQ(corpusCase, stdout: single.stdout, stderr: single.stderr, status: single.status.rawValue,
                    exactStatus: exactStatus, sourceLocation: sourceLocation)
    for pieceSize in pieceSizes {
        let parallel = try InProcess.run(corpusCase, projecting: true) {
            adjust(&$0)
            $0.threads = 2
            $0.pieceSize = pieceSize
        }
        let note: Comment = "pieces of \(pieceSize) bytes"
        #expect(parallel.stdout == single.stdout, note, sourceLocation: sourceLocation)
        #expect(parallel.stderr == single.stderr, note, sourceLocation: sourceLocation)
        #expect(parallel.status == single.status, note, sourceLocation: sourceLocation)
    }
}

/// What `jsonstream` printed and exited with, against what jq 1.8.2 did for
/// the same case (the rules of `CorpusTests`; `exactStatus` for `--jq`,
/// whose status over JSON Lines is jq's own).
func expectMatchesJQ(_ corpusCase: CorpusCase, stdout: Data, stderr: String, status: Int32,
                     exactStatus: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
    let output = String(decoding: stdout, as: UTF8.self)
    if corpusCase.options?.contains("-j") == true {
        #expect(output == corpusCase.expected.joined(), "stderr: \(stderr)", sourceLocation: sourceLocation)
    } else {
        #expect(output == corpusCase.expected.map { $0 + "\n" }.joined(), "stderr: \(stderr)",
                sourceLocation: sourceLocation)
    }
    let linesDifference = !exactStatus && corpusCase.format == "lines" && status == 5 && corpusCase.exit != 5
    if !linesDifference {
        #expect(status == corpusCase.exit, "stderr: \(stderr)", sourceLocation: sourceLocation)
    }
    // (With --jq, as in jq, a runtime error on one JSON Lines value is
    // reported and the status is the last value's.)
    if !exactStatus && (status == 0 || status == 1 || (status == 4 && corpusCase.exit == 4)) {
        #expect(stderr.isEmpty, sourceLocation: sourceLocation)
    }
}

/// `runJSONStream` in this process, with stdout and stderr sent to files.
enum InProcess {
    struct Result {
        var stdout: Data
        var stderr: String
        var status: JSONStreamTool.ExitStatus
    }

    static func run(_ corpusCase: CorpusCase, projecting: Bool,
                    adjusting adjust: (inout JSONStreamOptions) -> Void = { _ in }) throws -> Result {
        var options = JSONStreamOptions()
        options.filter = .text(corpusCase.filter)
        options.files = [corpusCase.inputPath]
        options.inputFormat = corpusCase.format == "lines" ? .lines : .array
        if let path = corpusCase.path { options.path = try CommandLineSyntax.keyPath(path) }
        var flags = (corpusCase.options ?? [])[...]
        while let flag = flags.popFirst() {
            switch flag {
            case "-r": options.rawOutput = true
            case "-j": options.joinOutput = true
            case "-a": options.asciiOutput = true
            case "-S": options.sortKeys = true
            case "-e": options.exitStatus = true
            case "--arg": options.stringArguments.append((flags.removeFirst(), flags.removeFirst()))
            case "--argjson": options.jsonArguments.append((flags.removeFirst(), flags.removeFirst()))
            default: Issue.record("unknown option \(flag)")
            }
        }
        options.projectsInput = projecting
        adjust(&options)
        return try run(options)
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
