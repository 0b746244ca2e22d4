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

/// The jq corpus through the built binary: the same bytes as jq 1.8.2 (which
/// writes numbers as they were read) and the same exit status, but for the
/// rule that JSON Lines input exits 5 at the end after any runtime error
/// (jq takes the last line's status).
@Suite("jq corpus (end to end)")
struct CorpusTests {
    @Test func corpusIsLoaded() {
        #expect(CorpusCase.all.count >= 500)
        #expect(Set(CorpusCase.all.map(\.filter)).count >= 150)
    }

    @Test(arguments: CorpusCase.all)
    func matchesJQ(_ corpusCase: CorpusCase) async throws {
        let run = try await jsonstream(corpusCase.arguments)
        if corpusCase.options?.contains("-j") == true {
            #expect(run.output == corpusCase.expected.joined(), "stderr: \(run.stderr)")
        } else {
            #expect(run.lines == corpusCase.expected, "stderr: \(run.stderr)")
        }
        let linesDifference = corpusCase.format == "lines" && run.status == 5 && corpusCase.exit != 5
        if !linesDifference {
            #expect(run.status == corpusCase.exit, "stderr: \(run.stderr)")
        }
        if run.status == 0 || run.status == 1 || (run.status == 4 && corpusCase.exit == 4) {
            #expect(run.stderr.isEmpty)
        }
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

/// Filtering pieces of the input on several threads changes nothing: the
/// corpus cut into pieces of a few bytes (so that every case is cut, most
/// between every two elements), on two threads, prints the same bytes and
/// messages with the same status as one thread.
@Suite("jq corpus on several threads")
struct ParallelCorpusTests {
    @Test(.serialized, arguments: CorpusCase.all)
    func threadsAreInvisible(_ corpusCase: CorpusCase) async throws {
        let single = try InProcess.run(corpusCase, projecting: true) { $0.threads = 1 }
        for pieceSize in [1, 5, 40] {
            let parallel = try InProcess.run(corpusCase, projecting: true) {
                $0.threads = 2
                $0.pieceSize = pieceSize
            }
            #expect(parallel.stdout == single.stdout, "pieces of \(pieceSize) bytes")
            #expect(parallel.stderr == single.stderr, "pieces of \(pieceSize) bytes")
            #expect(parallel.status == single.status, "pieces of \(pieceSize) bytes")
        }
    }
}

/// The same through `--jq`, as the jq command lines the corpus was recorded
/// from: `.[] | F` over an array case (its elements cut apart), `F` over a
/// JSON Lines case (its values cut apart).
@Suite("jq corpus through --jq on several threads")
struct ParallelJQCorpusTests {
    @Test(.serialized, arguments: CorpusCase.all.filter { $0.path == nil })
    func threadsAreInvisible(_ corpusCase: CorpusCase) async throws {
        let program = corpusCase.format == "array" ? ".[] | " + corpusCase.filter : corpusCase.filter
        let asJQ: (inout JSONStreamOptions) -> Void = {
            $0.jqMode = true
            $0.filter = .text(program)
        }
        let single = try InProcess.run(corpusCase, projecting: true) { asJQ(&$0); $0.threads = 1 }
        for pieceSize in [1, 40] {
            let parallel = try InProcess.run(corpusCase, projecting: true) {
                asJQ(&$0)
                $0.threads = 2
                $0.pieceSize = pieceSize
            }
            #expect(parallel.stdout == single.stdout, "pieces of \(pieceSize) bytes")
            #expect(parallel.stderr == single.stderr, "pieces of \(pieceSize) bytes")
            #expect(parallel.status == single.status, "pieces of \(pieceSize) bytes")
        }
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
