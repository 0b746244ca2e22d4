// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// One whole jq command line (`Tests/Fixtures/jq/command-lines.json`) and
/// what jq 1.8.2 printed and exited with (`scripts/jq-command-expectations`).
struct JQCommandLine: Decodable, Sendable, CustomTestStringConvertible {
    let name: String
    let args: [String]
    let input: String?
    let stdout: String
    let exit: Int32

    var testDescription: String { name }

    static let all: [JQCommandLine] = {
        let url = JSONStreamBinary.fixtures.appendingPathComponent("jq/command-lines.json")
        guard let data = try? Data(contentsOf: url),
              let cases = try? JSONDecoder().decode([JQCommandLine].self, from: data) else { return [] }
        return cases
    }()
}

/// `jsonstream --jq` is jq's own command line: every case gives jq 1.8.2's
/// exact bytes and exit status, whether the plan streams the input, copies
/// it, or builds it whole.
@Suite("jq command lines through --jq (end to end)")
struct JQCommandLineTests {
    @Test func casesAreLoaded() {
        #expect(JQCommandLine.all.count >= 300)
        #expect(CorpusCase.all.count >= 500)
    }

    @Test(arguments: JQCommandLine.all)
    func matchesJQ(_ line: JQCommandLine) async throws {
        let files = line.input.map { [JSONStreamBinary.fixture("jq/inputs/" + $0)] } ?? []
        let run = try await jsonstream(["--jq"] + line.args + files, input: line.input == nil ? "" : nil)
        #expect(run.output == line.stdout, "stderr: \(run.stderr)")
        #expect(run.status == line.exit, "stderr: \(run.stderr)")
    }
}
