// SPDX-License-Identifier: Apache-2.0
import Foundation
import JSONFilter
import StreamingJSON
import Testing

/// One case of the jq corpus (`Tests/Fixtures/jq/cases.json`): a filter, an
/// input and jq 1.8.2's stdout and exit status, recorded by `scripts/jq-expectations`.
struct JQCase: Decodable, Sendable, CustomTestStringConvertible {
    let name: String
    let input: String
    let format: String
    let path: String?
    let options: [String]?
    let filter: String
    let expected: [String]
    let exit: Int32

    var testDescription: String { name }

    static let all: [JQCase] = {
        let url = TestFixtures.url("jq/cases.json")
        guard let data = try? Data(contentsOf: url),
              let cases = try? JSONDecoder().decode([JQCase].self, from: data) else { return [] }
        return cases
    }()
}

/// The corpus run through the library the way `jsonstream` runs it: each
/// element of the array (or each line) through the filter, printed as jq
/// prints. The binary-level run of the same corpus is in jsonstreamTests.
@Suite struct JSONFilterDifferentialTests {
    @Test func corpusIsLoaded() {
        #expect(JQCase.all.count >= 500)
        #expect(Set(JQCase.all.map(\.filter)).count >= 150)
    }

    @Test(arguments: JQCase.all)
    func matchesJQ(_ jqCase: JQCase) throws {
        // With jq 1.8.2 at hand (scripts/jq-expectations caches one), the
        // checked-in expectations are first checked against the real thing.
        if let live = try JQLive.run(jqCase) {
            #expect(live.lines == jqCase.expected, "checked-in expectations differ from jq 1.8.2: scripts/jq-expectations")
            #expect(live.exit == jqCase.exit)
        }
        let run = try JQEmulation(jqCase)
        // jq 1.8 prints numbers as they were written: the lines compare exactly.
        #expect(run.lines == jqCase.expected, "\(jqCase.filter)\nerrors: \(run.errors)")
        // The jsonstream article: JSON Lines input goes on after a runtime error and exits 5
        // at the end (jq 1.8 exits with the last line's status instead).
        let lineErrorDifference = jqCase.format == "lines" && run.exit == 5 && !run.errors.isEmpty
        if !lineErrorDifference {
            #expect(run.exit == jqCase.exit, "\(jqCase.filter)\nerrors: \(run.errors)")
        }
    }
}

/// The member analysis behind jsonstream's partial decoding: over every
/// corpus filter, an object reduced to the members the filter observes gives
/// the same outputs and the same error as the whole object.
@Suite struct JSONFilterDemandTests {
    @Test(arguments: JQCase.all)
    func projectionIsInvisible(_ jqCase: JQCase) throws {
        var arguments: [String: JSONValue] = [:]
        var options = (jqCase.options ?? [])[...]
        while let option = options.popFirst() {
            guard option.hasPrefix("--arg") else { continue }
            let name = options.removeFirst(), value = options.removeFirst()
            arguments[name] = option == "--arg" ? .string(value)
                : try StreamingJSONDecoder().decode(JSONValue.self, from: Data(value.utf8))
        }
        // A filter jq refuses (exit 3) is refused here too (matchesJQ); nothing to project.
        guard jqCase.exit != 3 else { return }
        let filter = try JSONFilter(jqCase.filter, arguments: arguments)
        guard let members = filter.observedMembers else { return }
        let url = TestFixtures.url("jq/inputs/" + jqCase.input)
        let path = (jqCase.path ?? "").split(separator: ".").map(String.init)
        let elements = StreamingJSONDecoder().elements(of: JSONValue.self, contentsOf: url, at: path,
                                                       format: jqCase.format == "lines" ? .jsonLines : .array)
        try elements.forEach { element in
            guard case .object(let object) = element else { return }
            let projected = JSONValue.object(JSONObject(object.filter { members.contains($0.key) }.map { ($0.key, $0.value) }))
            #expect(outcome(filter, element) == outcome(filter, projected), "\(jqCase.filter) on \(element)")
        }
    }

    private func outcome(_ filter: JSONFilter, _ input: JSONValue) -> [String] {
        var results: [String] = []
        do {
            try filter.apply(to: input) { results.append($0.description) }
        } catch let error as JSONFilterError {
            results.append("error: \(error.message)")
        } catch {
            results.append("error: \(error)")
        }
        return results
    }

    @Test func demandedMembers() throws {
        #expect(try JSONFilter("select(.abv > 8) | {name, style}").observedMembers == ["abv", "name", "style"])
        #expect(try JSONFilter(".brewery.city").observedMembers == ["brewery"])
        #expect(try JSONFilter(#"if .a then .b else "x\(.c)" end"#).observedMembers == ["a", "b", "c"])
        #expect(try JSONFilter("1, empty").observedMembers == [])
        #expect(try JSONFilter("select(.abv > 8)").observedMembers == nil)
        #expect(try JSONFilter(".[]").observedMembers == nil)
        #expect(try JSONFilter("keys").observedMembers == nil)
        #expect(try JSONFilter(".a as $x | .").observedMembers == nil)
    }

    @Test func memberPaths() throws {
        #expect(try JSONFilter(".name").memberProgram?.paths == [["name"]])
        #expect(try JSONFilter(".brewery.name").memberProgram?.paths == [["brewery", "name"]])
        #expect(try JSONFilter(#".a | ."b c" | .["d"]"#).memberProgram?.paths == [["a", "b c", "d"]])
        #expect(try JSONFilter(".name").memberProgram?.keys == nil)
        for program in [".", ".a?", ".a[0]", ".[]", ".a.b?", ".a, .b", ".[\"a\", \"b\"]", "$__loc__", ".a // 1"] {
            #expect(try JSONFilter(program).memberProgram == nil, "\(program)")
        }
        #expect(try JSONFilter("{a}").memberProgram?.keys == ["a"])
    }

    @Test func memberPrograms() throws {
        let object = try #require(try JSONFilter(#"{name, city: .brewery.city, "all": .}"#).memberProgram)
        #expect(object.selection == nil)
        #expect(object.keys == ["name", "city", "all"])
        #expect(object.paths == [["name"], ["brewery", "city"], []])
        let selected = try #require(try JSONFilter("select(.abv > 8) | {name, style}").memberProgram)
        #expect(try selected.selection?.apply(to: ["abv": 9]) == [["abv": 9]])
        #expect(try selected.selection?.apply(to: ["abv": 7]) == [])
        #expect(selected.keys == ["name", "style"])
        #expect(try JSONFilter("select(.a) | .b.c").memberProgram?.paths == [["b", "c"]])
        let lengths = try #require(try JSONFilter("{id, n: (.tags | length)}").memberProgram)
        #expect(lengths.paths == [["id"], ["tags"]])
        #expect(lengths.lengths == [false, true])
        for program in ["{a: 1}", "{a: .x, a: .y}", "{(.k): .v}", "{$__loc__}", "{a: .b[0]}", "select(.a) | {a} | .a",
                        "{a: (.b | tostring)}", "{a: (.b | keys)}", "length",
                        "select(.a) | .[]", "select(.a)", "."] {
            #expect(try JSONFilter(program).memberProgram == nil, "\(program)")
        }
    }

    /// A `select` condition of member paths and constants is decided from
    /// the values at its paths, reading the right side of `and`/`or` only
    /// when jq would, and gives up where a path cannot be followed.
    @Test func selectionConditions() throws {
        let filter = try JSONFilter(#"select(.a.b >= 3 and ($v == .c) or (.d | not))"#, arguments: ["v": "x"])
        let condition = try #require(filter.selectionCondition)
        #expect(condition.paths == [["a", "b"], ["c"], ["d"]])
        func holds(_ values: [JSONValue?]) -> (Bool?, reads: [Int]) {
            var reads: [Int] = []
            let result = condition.holds { reads.append($0); return values[$0] }
            return (result, reads)
        }
        #expect(holds([3, "x", nil]) == (true, [0, 1]))
        #expect(holds([2.5, "x", false]) == (true, [0, 2]))
        #expect(holds([3, "y", 1]) == (false, [0, 1, 2]))
        #expect(holds([.null, nil, .null]) == (true, [0, 2]))  // null is below every number
        #expect(holds(["3", "x", 1]) == (true, [0, 1]))  // a string is above every number
        #expect(holds([nil, "x", false]).0 == nil)
        #expect(holds([1, "x", nil]).0 == nil)
        let reversed = try #require(try JSONFilter("select(8 < .abv)").selectionCondition)
        #expect(reversed.holds { _ in 9 } == true)
        #expect(reversed.holds { _ in 8.0 } == false)
        #expect(reversed.holds { _ in .array([]) } == true)  // every array is above every number
        for program in [#"select(.a | test("x"))"#, "select(.a, .b)", "select(.a > [1])", #"select(.a == "\(.b)")"#,
                        "select(.a == $undefined)", "select(.a[0])", "select(.a == .b)", "select(.a) | .b",
                        "select(.a + 1 > 2)", "select(.a?)"] {
            #expect((try? JSONFilter(program))?.selectionCondition == nil, "\(program)")
        }
    }
}

/// jq 1.8.2 itself, when at hand ($JQ182, the cache of scripts/lib/references.sh,
/// or a jq on the usual paths that is 1.8.2): the case run the way
/// scripts/jq-expectations runs it.
enum JQLive {
    static let executable: URL? = {
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["XDG_CACHE_HOME"].map { $0 + "/streamingjson" }
            ?? environment["HOME"].map { $0 + "/.cache/streamingjson" }
        let candidates = [environment["JQ182"], cache.map { $0 + "/jq-1.8.2/bin/jq" }].compactMap { $0 }
            + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"].map { $0 + "/jq" }
        for path in candidates {
            let url = URL(fileURLWithPath: path)
            guard FileManager.default.isExecutableFile(atPath: url.path),
                  let version = try? output(of: url, ["--version"]).stdout,
                  version.hasPrefix("jq-1.8.2") else { continue }
            return url
        }
        return nil
    }()

    static func run(_ jqCase: JQCase) throws -> (lines: [String], exit: Int32)? {
        guard let executable else { return nil }
        let composed = switch (jqCase.format, jqCase.path) {
        case ("lines", _): jqCase.filter
        case (_, let path?): "\(path)[] | \(jqCase.filter)"
        default: ".[] | \(jqCase.filter)"
        }
        let input = TestFixtures.url("jq/inputs/" + jqCase.input)
        let (stdout, status) = try output(of: executable, ["-c"] + (jqCase.options ?? []) + [composed, input.path])
        if jqCase.options?.contains("-j") == true { return ([stdout], status) }
        guard !stdout.isEmpty else { return ([], status) }
        let lines = Array(stdout.utf8.dropLast()).split(separator: 0x0A, omittingEmptySubsequences: false)
        return (lines.map { String(decoding: $0, as: UTF8.self) }, status)
    }

    private static func output(of executable: URL, _ arguments: [String]) throws -> (stdout: String, status: Int32) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }
}

/// jsonstream's element loop, in process: options, filter, printing, exit status.
struct JQEmulation {
    var lines: [String] = []
    var exit: Int32 = 0
    var errors: [String] = []

    init(_ jqCase: JQCase) throws {
        var raw = false, join = false, exitStatus = false
        var style = JQOutputStyle()
        var arguments: [String: JSONValue] = [:]
        var options = (jqCase.options ?? [])[...]
        while let option = options.popFirst() {
            switch option {
            case "-r": raw = true
            case "-j": raw = true; join = true
            case "-a": style.asciiOnly = true
            case "-S": style.sortsKeys = true
            case "-e": exitStatus = true
            case "--arg": arguments[options.removeFirst()] = .string(options.removeFirst())
            case "--argjson":
                let name = options.removeFirst()
                arguments[name] = try StreamingJSONDecoder().decode(JSONValue.self, from: Data(options.removeFirst().utf8))
            default: Issue.record("unknown option \(option)")
            }
        }
        let filter: JSONFilter
        do {
            filter = try JSONFilter(jqCase.filter, arguments: arguments)
        } catch let error as JSONFilterError where error.isCompileError {
            errors.append(error.message)
            exit = 3
            return
        }
        let url = TestFixtures.url("jq/inputs/" + jqCase.input)
        let path = (jqCase.path ?? "").split(separator: ".").map(String.init)
        let elements = StreamingJSONDecoder().elements(of: JSONValue.self, contentsOf: url, at: path,
                                                       format: jqCase.format == "lines" ? .jsonLines : .array)
        let writer = _JQWriter(style: style)
        var pieces: [String] = []
        // jq 1.8 -e: the last input's last result decides; when that input
        // gave none, the last result of an earlier input (none at all: 4).
        var last: JSONValue?
        var earlier: JSONValue?
        var iterator = elements.makeIterator()
        // As jsonstream runs it: `input`/`inputs` read the following
        // elements, `input_filename` is the file as named on the command line.
        let context = JSONFilterContext()
        context.nextInput = { try iterator.next() }
        context.inputFilename = .string(url.path)
        elementLoop: while let element = try iterator.next() {
            if jqCase.format == "lines" {
                if let last { earlier = last }
                last = nil
            }
            do {
                try filter.apply(to: element, context: context) { value in
                    if raw, case .string(let text) = value {
                        pieces.append(text)
                    } else {
                        var bytes: [UInt8] = []
                        writer.write(value, into: &bytes)
                        pieces.append(String(decoding: bytes, as: UTF8.self))
                    }
                    last = value
                }
            } catch let error as JSONFilterError {
                errors.append(error.message)
                exit = 5
                if jqCase.format == "array" { break }
            } catch let halt as JSONFilterHalt {
                // `halt`, `halt_error`: the results so far, then the halt's status.
                exit = halt.exitCode
                exitStatus = false
                break elementLoop
            }
        }
        if join {
            lines = [pieces.joined()]
        } else if !pieces.isEmpty {
            // Split on the byte: "\r\n" is one Character in Swift.
            lines = Array(pieces.joined(separator: "\n").utf8).split(separator: 0x0A, omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
        }
        if exitStatus, exit == 0 {
            if let result = last ?? earlier { exit = result.isTruthy ? 0 : 1 } else { exit = 4 }
        }
    }
}
