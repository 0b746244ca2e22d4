// SPDX-License-Identifier: Apache-2.0
import Foundation

/// One block of a jq `.test` file: a program with its input and expected
/// outputs, or a program that must not compile.
struct JQTestBlock: Sendable {
    enum Expectation: Sendable {
        /// The expected output lines, one JSON value each, in order.
        case outputs([String])
        /// `%%FAIL`: the lines of the expected error message;
        /// `%%FAIL IGNORE MSG`: nil, any compile error will do.
        case compileError(message: [String]?)
    }

    /// The `.test` file's name, `jq.test`.
    let file: String
    /// Line number of the program, as jq's runner reports it.
    let line: Int
    let program: String
    /// The input line as written (empty for `%%FAIL` blocks, which have none).
    let input: String
    let expectation: Expectation

    /// `jq.test:63`: the key of the allowed-failures list.
    var id: String { "\(file):\(line)" }
}

/// jq 1.8.2's own test suite, vendored in Tests/Fixtures/jq-suite, read the
/// way jq's src/jq_test.c reads it (scripts/jq-suite has the same reader for
/// command lines).
enum JQTestSuite {
    static let files = ["jq.test", "man.test", "onig.test", "manonig.test", "base64.test", "uri.test", "optional.test"]

    static var directory: URL { TestFixtures.url("jq-suite") }

    /// Every block of every vendored file, in file order.
    static func allBlocks() throws -> [JQTestBlock] {
        try files.flatMap { name in
            let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            return parse(text, file: name)
        }
    }

    /// The blocks of one file's text.
    ///
    /// jq_test.c skips any line that is empty or whose first non-blank
    /// character is `#`, and such a line also ends a block. A block is a
    /// program line, one input line, then expected lines; `%%FAIL` or
    /// `%%FAIL IGNORE MSG` in program position announces a program that must
    /// not compile, followed by the lines of its message instead. The format
    /// has no skip markers.
    static func parse(_ text: String, file: String) -> [JQTestBlock] {
        let lines = lines(of: text)
        var blocks: [JQTestBlock] = []
        var index = 0
        // Set after a `%%FAIL` line: whether the message is checked (not IGNORE MSG).
        var mustFail: Bool?

        // The lines up to the next skipped line, which is consumed with them.
        func body() -> [String] {
            var collected: [String] = []
            while index < lines.count {
                let line = lines[index]
                index += 1
                if isSkipped(line) { break }
                collected.append(line)
            }
            return collected
        }

        while index < lines.count {
            let line = lines[index]
            index += 1
            if isSkipped(line) { continue }
            if line == "%%FAIL" || line == "%%FAIL IGNORE MSG" {
                mustFail = line == "%%FAIL"
                continue
            }
            let number = index
            if let checkMessage = mustFail {
                let message = body()
                blocks.append(JQTestBlock(file: file, line: number, program: line, input: "",
                                          expectation: .compileError(message: checkMessage ? message : nil)))
                mustFail = nil
                continue
            }
            // A program with no input line after it: jq's runner stops there.
            guard index < lines.count else { break }
            let input = lines[index]
            index += 1
            blocks.append(JQTestBlock(file: file, line: number, program: line, input: input,
                                      expectation: .outputs(body())))
        }
        return blocks
    }

    /// The message of `jq: error: MSG at <top-level>, line 1, column 7:`,
    /// without the location, which is formatting rather than meaning (jq 1.6
    /// and other implementations place it differently); a line of another
    /// shape comes back whole, less its `jq: error: ` prefix.
    static func messagePart(of line: String) -> String {
        let pattern = #"^jq: error: (.*) at (?:<top-level>|[^,]*), line \d+(?:, column \d+)?:$"#
        if let regex = try? Regex(pattern), let match = try? regex.wholeMatch(in: line),
           let message = match.output[1].substring {
            return String(message)
        }
        let prefix = "jq: error: "
        return line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : line
    }

    /// Lines split at "\n" only, as fgets splits them ("\r\n" is one
    /// Character to Swift, hence the split on bytes).
    private static func lines(of text: String) -> [String] {
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// jq_test.c's skipline: blank, or `#` after spaces and tabs.
    private static func isSkipped(_ line: String) -> Bool {
        let rest = line.drop { $0 == " " || $0 == "\t" }
        return rest.isEmpty || rest.first == "#"
    }
}
