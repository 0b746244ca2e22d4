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
/// several, its flags set as the command line sets them); through the built
/// binary runs one case of each shape of command line: each combination of
/// flags, `--path` and `--input lines` that the corpus has.
@Suite("jq corpus (end to end)")
struct CorpusTests {
    @Test func corpusIsLoaded() {
        #expect(CorpusCase.all.count >= 500)
        #expect(Set(CorpusCase.all.map(\.filter)).count >= 150)
        #expect(Self.commandLineShapes.count >= 15)
    }

    /// The first case of each combination of flags (without their values),
    /// key path or none, and input format.
    static let commandLineShapes: [CorpusCase] = {
        var seen: Set<[String]> = []
        return CorpusCase.all.filter { corpusCase in
            let flags = (corpusCase.options ?? []).filter { $0.hasPrefix("-") }
            return seen.insert(flags + [corpusCase.path == nil ? "" : "--path", corpusCase.format]).inserted
        }
    }()

    @Test(arguments: commandLineShapes)
    func matchesJQ(_ corpusCase: CorpusCase) async throws {
        let run = try await jsonstream(corpusCase.arguments)
        expectMatchesJQ(corpusCase, stdout: run.stdout, stderr: run.stderr, status: run.status)
    }

}

/// Every corpus case on one thread prints what jq printed; and filtering
/// pieces of the input on several threads changes nothing: the corpus cut
/// into pieces of a few bytes (so that every case is cut, most between every
/// two elements), on two threads, prints the same bytes and messages with the
/// same status as one thread. Building only the members a filter reads
/// changes nothing either: built whole, each element gives the same.
/// (One case at a time: they run in this process and would crowd the
/// cooperative pool.)
@Suite("jq corpus on one thread and several")
struct ParallelCorpusTests {
    @Test(.serialized, arguments: CorpusCase.all)
    func matchesJQOnAnyNumberOfThreads(_ corpusCase: CorpusCase) async throws {
        try expectMatchesJQOnAnyNumberOfThreads(corpusCase, pieceSizes: [1, 5, 40], alsoUnprojected: true)
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
/// thread: the same bytes, messages and status. `alsoUnprojected`: and on
/// one thread with every element built whole.
func expectMatchesJQOnAnyNumberOfThreads(_ corpusCase: CorpusCase, pieceSizes: [Int], exactStatus: Bool = false,
                                         alsoUnprojected: Bool = false,
                                         adjusting adjust: (inout JSONStreamOptions) -> Void = { _ in },
                                         sourceLocation: SourceLocation = #_sourceLocation) throws {
    let single = try InProcess.run(corpusCase, projecting: true) { adjust(&$0); $0.threads = 1 }
    expectMatchesJQ(corpusCase, stdout: single.stdout, stderr: single.stderr, status: single.status.rawValue,
                    exactStatus: exactStatus, sourceLocation: sourceLocation)
    if alsoUnprojected {
        let whole = try InProcess.run(corpusCase, projecting: false) { adjust(&$0); $0.threads = 1 }
        #expect(whole == single, "built whole", sourceLocation: sourceLocation)
    }
    for pieceSize in pieceSizes {
        let parallel = try InProcess.run(corpusCase, projecting: true) {
            adjust(&$0)
            $0.threads = 2
            $0.pieceSize = pieceSize
        }
        #expect(parallel == single, "pieces of \(pieceSize) bytes", sourceLocation: sourceLocation)
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
