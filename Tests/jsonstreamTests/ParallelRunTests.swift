// SPDX-License-Identifier: Apache-2.0
import Foundation
import JSONStreamTool
import StreamingJSON
import Testing

/// `--threads`: a file cut into many pieces, filtered on several threads,
/// prints what one thread prints, messages, statuses and `--stats` counts
/// included. (Also run under ThreadSanitizer by `scripts/sanitize thread`.)
@Suite("Several threads (in process)")
struct ParallelRunTests {
    /// Records with a `price` that is sometimes a string (a runtime error
    /// for `.price * 2`), as JSON Lines with some malformed lines, or as an
    /// array.
    static func records(count: Int, malformedEvery: Int?, array: Bool) -> String {
        let lines = (0..<count).map { index -> String in
            if let every = malformedEvery, index % every == every - 1 { return "{\"id\": \(index), \"price\": [1," }
            let price = index % 97 == 13 ? "\"n/a\"" : "\(Double(index) * 0.25)"
            return "{\"id\": \(index), \"name\": \"r\\\"\(index),\", \"tags\": [\"a\", \"b,]\"], \"price\": \(price)}"
        }
        return array ? "[\n" + lines.joined(separator: ",\n") + "\n]\n" : lines.joined(separator: "\n") + "\n"
    }

    /// Runs `filter` over `text` on one thread, then on each of `threads`:
    /// the results, the one-thread run's first. (Both read the same file:
    /// messages name it.)
    static func runs(_ text: String, filter: String, threads: [Int] = [2],
                     adjust: (inout JSONStreamOptions) -> Void = { _ in }) throws -> [InProcess.Result] {
        let directory = try TemporaryDirectory()
        let path = directory.path("input.json")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try ([1] + threads).map { try run(path, filter: filter, threads: $0, adjust: adjust) }
    }

    /// `keepsTimings`: the whole statistics line (with the pieces' count).
    static func run(_ path: String?, filter: String, threads: Int, input: Int32 = -1, keepsTimings: Bool = false,
                    adjust: (inout JSONStreamOptions) -> Void) throws -> InProcess.Result {
        var options = JSONStreamOptions()
        options.filter = .text(filter)
        options.files = path.map { [$0] } ?? []
        options.threads = threads
        options.pieceSize = 2048
        options.stats = true
        adjust(&options)
        var result = try InProcess.run(options, input: input)
        if !keepsTimings { result.stderr = withoutTimings(result.stderr) }
        return result
    }

    /// The statistics line's figures of time, speed and memory differ from
    /// run to run, and only several threads have pieces to count: `stderr`
    /// with the line cut at its first `;`.
    static func withoutTimings(_ stderr: String) -> String {
        stderr.split(separator: "\n").map {
            $0.hasPrefix("jsonstream: stats:") ? String($0.prefix { $0 != ";" }) : String($0)
        }.joined(separator: "\n")
    }

    @Test("JSON Lines with runtime errors: the same output, messages and status on 1, 2 and 3 threads",
          arguments: [false, true])
    func jsonLines(skipping: Bool) throws {
        let text = Self.records(count: 3000, malformedEvery: nil, array: false)
        let adjust: (inout JSONStreamOptions) -> Void = { if skipping { $0.errorPolicy = .skip } }
        let runs = try Self.runs(text, filter: "{id, more: (.price + 1)}", threads: [2, 3], adjust: adjust)
        let single = runs[0]
        #expect(single.stderr.contains("element 13"))
        for parallel in runs.dropFirst() {
            #expect(parallel.stdout == single.stdout)
            #expect(parallel.stderr == single.stderr)
            #expect(parallel.status == single.status)
        }
    }

    @Test("Malformed JSON Lines, skipped or not: the same on several threads", arguments: [false, true])
    func malformedLines(skipping: Bool) throws {
        let text = Self.records(count: 3000, malformedEvery: 400, array: false)
        let adjust: (inout JSONStreamOptions) -> Void = { if skipping { $0.errorPolicy = .skip } }
        let runs = try Self.runs(text, filter: ".id", adjust: adjust)
        let (single, parallel) = (runs[0], runs[1])
        #expect(single.stderr.contains("element 399"))
        #expect(parallel.stdout == single.stdout)
        #expect(parallel.stderr == single.stderr)
        #expect(parallel.status == single.status)
    }

    /// The records as an array, damaged at `places` (a garbage byte, a lost
    /// quote, a missing comma, a stray bracket, an extra quote).
    static func damagedArray(count: Int) -> String {
        var text = records(count: count, malformedEvery: nil, array: true)
        let damages = [(#"{"id": 300, "name""#, #"{"id": 300, x"name""#),
                       (#""r\"900,""#, #""r\"900,"#),
                       ("},\n{\"id\": 1500,", "} {\"id\": 1500,"),
                       (#"{"id": 2100, "#, #"{"id": 2100]}, "#),
                       (#""r\"2500,""#, #""r\"25"00,""#)]
        for (from, to) in damages { text = text.replacingOccurrences(of: from, with: to) }
        return text
    }

    @Test("A damaged array with --on-error skip: the same output, messages and status on 1, 2 and 3 threads")
    func damagedArraySkipped() throws {
        let text = Self.damagedArray(count: 3000)
        let runs = try Self.runs(text, filter: ".id", threads: [2, 3]) { $0.errorPolicy = .skip }
        let single = runs[0]
        let ids = String(decoding: single.stdout, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
        // Every element the damage did not touch (1500 only lost its comma: it comes).
        #expect(Set(0..<3000).subtracting(ids) == [300, 900, 2100, 2500], "\(single.stderr)")
        #expect(single.status == .success, "\(single.stderr)")
        #expect(single.stderr.contains("element 300"))
        for parallel in runs.dropFirst() {
            #expect(parallel.stdout == single.stdout)
            #expect(parallel.stderr == single.stderr)
            #expect(parallel.status == single.status)
        }
    }

    @Test("A damaged array without --on-error skip stops at the damage; cut short with it, exits 5")
    func damagedArrayStopsOrEndsShort() throws {
        let text = Self.damagedArray(count: 3000)
        let runs = try Self.runs(text, filter: ".id", threads: [2])
        #expect(runs[0].status == .failure)
        #expect(String(decoding: runs[0].stdout, as: UTF8.self).split(separator: "\n").count == 300)
        #expect(runs[1].stdout == runs[0].stdout && runs[1].stderr == runs[0].stderr)
        // A copy cut off inside an element: never a success, even skipping.
        let cut = String(Self.records(count: 3000, malformedEvery: nil, array: true).prefix(200_000))
        let cutRuns = try Self.runs(cut, filter: ".id", threads: [2]) { $0.errorPolicy = .skip }
        for run in cutRuns {
            #expect(run.status == .failure, "\(run.stderr)")
            let last = run.stderr.split(separator: "\n").last(where: { !$0.hasPrefix("jsonstream: stats:") })
            #expect(last?.contains("elements skipped; ") == true && last?.contains("ended inside an element") == true,
                    "\(run.stderr)")
        }
        #expect(cutRuns[1].stdout == cutRuns[0].stdout)
    }

    @Test("An array: a runtime error stops it at that element, on any number of threads",
          arguments: [".", "select(.id % 3 == 0)", "{id, more: (.price + 1)}"])
    func arrays(filter: String) throws {
        let text = Self.records(count: 3000, malformedEvery: nil, array: true)
        let runs = try Self.runs(text, filter: filter)
        let (single, parallel) = (runs[0], runs[1])
        #expect(!single.stdout.isEmpty)
        #expect(parallel.stdout == single.stdout)
        #expect(parallel.stderr == single.stderr)
        #expect(parallel.status == single.status)
    }

    /// `--jq` inputs for `.[] | F`: a root array alone, or followed by more
    /// values, which the pieces cannot hold; and inputs that are not one array.
    static let longList = (0..<40_000).map(String.init).joined(separator: ",")
    /// The input of `jqInputs` cut short inside its array: as in jq, nothing
    /// of it reaches the output, only the syntax error.
    static let truncatedJQInput = 4
    static let jqInputs: [String] = {
        let array = records(count: 1500, malformedEvery: nil, array: true)
        let rows = (0..<1500).map { "[{\"id\": \($0), \"name\": \"n\($0)\", \"price\": 1}]" }
        return [
            array,
            array + "[{\"id\": -1, \"price\": 2}]\n{\"x\": {\"id\": -2, \"price\": 3}}\n",
            array + "x\n",
            rows.joined(separator: "\n") + "\n",
            String(array.dropLast(200)),
            // An element too long to cut around: read on in one stream from it.
            array.replacingOccurrences(of: "\"id\": 700,", with: "\"id\": 700, \"long\": [\(longList)],"),
        ]
    }()

    @Test("--jq '.[] | F': the same on several threads, with values after the array or not",
          arguments: ["select(.id % 3 == 0)", "{id, more: (.price + 1)}", ".name"], 0..<jqInputs.count)
    func jqEachElement(filter: String, input: Int) throws {
        // With --stats: the elements counted are those one thread counts.
        let runs = try Self.runs(Self.jqInputs[input], filter: ".[] | " + filter) { $0.jqMode = true }
        let (single, parallel) = (runs[0], runs[1])
        #expect(single.stdout.isEmpty == (input == Self.truncatedJQInput))
        #expect(parallel.stdout == single.stdout)
        #expect(parallel.stderr == single.stderr)
        #expect(parallel.status == single.status)
    }

    @Test("--jq over JSON Lines: the status is the last value's, as in jq, on several threads",
          arguments: [(false, JSONStreamTool.ExitStatus.success), (true, .failure)])
    func jqLastValueDecidesTheStatus(lastFails: Bool, status: JSONStreamTool.ExitStatus) throws {
        var text = Self.records(count: 3000, malformedEvery: nil, array: false)
        if lastFails { text += "{\"id\": 3000, \"price\": \"x\"}\n" }
        let runs = try Self.runs(text, filter: "{id, more: (.price + 1)}") { $0.jqMode = true }
        let (single, parallel) = (runs[0], runs[1])
        #expect(single.stderr.contains("cannot be added"))
        #expect(single.status == status)
        #expect(parallel.stdout == single.stdout)
        #expect(parallel.stderr == single.stderr)
        #expect(parallel.status == status)
    }

    @Test("A document that is one object over many lines is read whole, as one value")
    func prettyObject() throws {
        let members = (0..<2000).map { "  \"k\($0)\": [\n    \($0),\n    \"v\"\n  ]" }
        let text = "{\n" + members.joined(separator: ",\n") + "\n}\n"
        let runs = try Self.runs(text, filter: "keys | length")
        let (single, parallel) = (runs[0], runs[1])
        #expect(String(decoding: single.stdout, as: UTF8.self) == "2000\n")
        #expect(parallel.stdout == single.stdout)
        #expect(parallel.stderr == single.stderr)
    }

    /// Runs `filter` on `text` as standard input redirected from a file
    /// (from `offset` in it), on one thread then on two.
    static func stdinRuns(_ text: String, filter: String, offset: Int = 0,
                          adjust: (inout JSONStreamOptions) -> Void = { _ in }) throws -> [InProcess.Result] {
        try stdinRuns(bytes: Array(text.utf8), filter: filter, offset: offset, adjust: adjust)
    }

    /// `stdinRuns` of any bytes; `keepsTimings` as for `run`.
    static func stdinRuns(bytes: [UInt8], filter: String, offset: Int = 0, keepsTimings: Bool = false,
                          adjust: (inout JSONStreamOptions) -> Void = { _ in }) throws -> [InProcess.Result] {
        let directory = try TemporaryDirectory()
        let path = directory.path("input.json")
        try Data(Array(repeating: UInt8(ascii: " "), count: offset) + bytes).write(to: URL(fileURLWithPath: path))
        return try [1, 2].map { threads in
            let input = open(path, O_RDONLY)
            defer { close(input) }
            lseek(input, off_t(offset), SEEK_SET)
            return try run(nil, filter: filter, threads: threads, input: input, keepsTimings: keepsTimings,
                           adjust: adjust)
        }
    }

    @Test("--jq '.items[] | F' where the key comes again after the array: jq's last value, on any number of threads")
    func jqRepeatedPathKey() throws {
        let array = Self.records(count: 1500, malformedEvery: nil, array: true)
        let text = "{\"items\": \(array), \"meta\": {\"n\": 1}, \"items\": [{\"id\": -1}, {\"id\": -2}]}\n"
        let runs = try Self.runs(text, filter: ".items[] | .id", threads: [2, 3]) { $0.jqMode = true }
        // Standard input from a file, not at its start, is read again where it was.
        let redirected = try Self.stdinRuns(text, filter: ".items[] | .id", offset: 3) { $0.jqMode = true }
        for run in runs + redirected {
            #expect(String(decoding: run.stdout, as: UTF8.self) == "-1\n-2\n")
            #expect(run.status == .success)
        }
        // A pipe cannot be read again: an error, never the first array's elements.
        for run in try ParallelPipeTests.pipeRuns(text, filter: ".items[] | .id", adjust: { $0.jqMode = true }) {
            #expect(run.result.stdout.isEmpty)
            #expect(run.result.status == .failure)
            #expect(run.result.stderr.contains("repeated key"), "\(run.result.stderr)")
        }
    }

    @Test("Standard input from a file is cut as the file is: the same on two threads, from any offset",
          arguments: [false, true], [0, 3])
    func stdinFromAFile(jq: Bool, offset: Int) throws {
        var inputs = Self.jqInputs
        inputs.append(Self.records(count: 3000, malformedEvery: 400, array: false))
        for (index, input) in inputs.enumerated() {
            let filter = jq ? (index < Self.jqInputs.count ? ".[] | {id, more: (.price + 1)}" : ".id")
                            : "{id, more: (.price + 1)}"
            let runs = try Self.stdinRuns(input, filter: filter, offset: offset) { $0.jqMode = jq }
            let (single, parallel) = (runs[0], runs[1])
            #expect(single.stdout.isEmpty == (jq && index == Self.truncatedJQInput), "input \(index)")
            #expect(parallel.stdout == single.stdout, "input \(index)")
            #expect(parallel.stderr == single.stderr, "input \(index)")
            #expect(parallel.status == single.status, "input \(index)")
        }
    }

    @Test("Standard input from a compressed file is cut as it is decompressed, and read on, never again",
          arguments: [false, true])
    func stdinFromACompressedFile(jq: Bool) throws {
        var inputs = Self.jqInputs
        inputs.append(Self.records(count: 3000, malformedEvery: 400, array: false))
        for (index, input) in inputs.enumerated() {
            let filter = jq ? (index < Self.jqInputs.count ? ".[] | {id, more: (.price + 1)}" : ".id")
                            : "{id, more: (.price + 1)}"
            let archive = try gzipped(Array(input.utf8))
            let runs = try Self.stdinRuns(bytes: archive, filter: filter, offset: 3, keepsTimings: true) {
                $0.jqMode = jq
            }
            let (single, parallel) = (runs[0], runs[1])
            #expect(single.stdout.isEmpty == (jq && index == Self.truncatedJQInput), "input \(index)")
            #expect(parallel.stdout == single.stdout, "input \(index)")
            #expect(Self.withoutTimings(parallel.stderr) == Self.withoutTimings(single.stderr), "input \(index)")
            #expect(parallel.status == single.status, "input \(index)")
            // Cut where the uncompressed file is.
            let plain = try Self.stdinRuns(bytes: Array(input.utf8), filter: filter, keepsTimings: true) {
                $0.jqMode = jq
            }
            let piecesOnTwo = " pieces on 2 threads"
            #expect(parallel.stderr.contains(piecesOnTwo) == plain[1].stderr.contains(piecesOnTwo), "input \(index)")
        }
    }

    /// Filters for `--csv`/`--tsv` over `records`: rows of one set of keys;
    /// arrays first and objects later (the header in the middle); objects
    /// whose keys change (pieces after the change read again); scalars (not
    /// rows: runtime errors); no row at all.
    static let tableFilters = [
        "{id, name}",
        "if .id < 1000 then [.id, .name] else {name, id} end",
        "if .id < 1500 then {id, name} else {name, id} end",
        "if .id % 500 == 7 then .id else {id, tags} end",
        "select(.id < 0) | {id}",
    ]

    @Test("--csv and --tsv on several threads: the header once, where one thread writes it, the same rows",
          arguments: tableFilters, [nil, ["id", "tags.1"]] as [[String]?])
    func tables(filter: String, columns: [String]?) throws {
        let text = Self.records(count: 3000, malformedEvery: nil, array: true)
        for (table, skipping) in [(JSONStreamOptions.TableFormat.csv, false), (.tsv, true)] {
            let adjust: (inout JSONStreamOptions) -> Void = {
                $0.table = table
                $0.columns = columns
                if skipping { $0.errorPolicy = .skip }
            }
            let runs = try Self.runs(text, filter: filter, adjust: adjust)
            let (single, parallel) = (runs[0], runs[1])
            #expect(!single.stdout.isEmpty || columns == nil, "\(filter) \(table)")
            #expect(parallel.stdout == single.stdout, "\(filter) \(table)")
            #expect(parallel.stderr == single.stderr, "\(filter) \(table)")
            #expect(parallel.status == single.status, "\(filter) \(table)")
        }
    }

    @Test("--csv is cut into pieces: the workers' rows, one header")
    func tableIsCut() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("input.json")
        try Data(Self.records(count: 3000, malformedEvery: nil, array: true).utf8).write(to: URL(fileURLWithPath: path))
        let run = try Self.run(path, filter: "{id, name}", threads: 2, keepsTimings: true) { $0.table = .csv }
        #expect(run.stderr.contains(" pieces on 2 threads"), "\(run.stderr)")
        let lines = String(decoding: run.stdout, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 3001 && lines.first == "id,name" && lines.filter { $0 == "id,name" }.count == 1)
    }
}
