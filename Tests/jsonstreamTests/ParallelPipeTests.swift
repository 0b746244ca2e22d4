// SPDX-License-Identifier: Apache-2.0
import Foundation
import JSONStreamTool
import StreamingJSON
import TestSupport
import Testing

/// Standard input that is a pipe, cut into pieces as it arrives: what one
/// thread prints, messages, statuses and `--stats` counts included; and a
/// live pipe's results are not held back for a piece to fill.
@Suite("Several threads over a pipe")
struct ParallelPipeTests {
    /// A run over a pipe, and whether it filtered pieces on worker threads.
    struct PipeRun {
        let result: InProcess.Result
        /// Pieces filtered on worker threads (`--stats`).
        let pieces: Int
        var cut: Bool { pieces > 0 }
    }

    /// Runs `filter` on `text` written into a pipe that is standard input, on
    /// one thread then on two; the writer waits whenever the pipe is full.
    static func pipeRuns(_ text: String, filter: String,
                         adjust: (inout JSONStreamOptions) -> Void = { _ in }) throws -> [PipeRun] {
        try pipeRuns(bytes: Array(text.utf8), filter: filter, adjust: adjust)
    }

    static func pipeRuns(bytes: [UInt8], filter: String,
                         adjust: (inout JSONStreamOptions) -> Void = { _ in }) throws -> [PipeRun] {
        signal(SIGPIPE, SIG_IGN)  // a run that stops reading early closes the pipe on its writer
        return try [1, 2].map { threads in
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            let (output, input) = (ends[0], ends[1])
            let writer = Thread {
                bytes.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let written = write(input, bytes.baseAddress! + offset, bytes.count - offset)
                        if written < 0 && errno == EINTR { continue }
                        guard written > 0 else { break }  // the run stopped reading
                        offset += written
                    }
                }
                close(input)
            }
            writer.start()
            defer { close(output) }
            var options = JSONStreamOptions()
            options.filter = .text(filter)
            options.threads = threads
            options.pieceSize = 2048
            options.stats = true
            // However slow the machine, the writer is never taken for a live pipe.
            options.pipeIdleWait = 600_000
            adjust(&options)
            var result = try InProcess.run(options, input: output)
            let stats = result.stderr.split(separator: "\n").last { $0.hasPrefix("jsonstream: stats:") }
            let pieces = stats?.split(separator: "; ").last.flatMap { suffix in
                suffix.hasSuffix(" pieces on \(threads) threads") ? Int(suffix.prefix { $0 != " " }.filter { $0 != "," }) : nil
            }
            result.stderr = ParallelRunTests.withoutTimings(result.stderr)
            return PipeRun(result: result, pieces: pieces ?? 0)
        }
    }

    /// Arrays and JSON Lines, with runtime errors, malformed lines,
    /// truncation, an element too long to cut around, values after an
    /// array; and whether two threads filter pieces of them (not of lines
    /// of arrays, which `jsonstream` takes for one array followed by junk).
    static let inputs: [(text: String, isCut: Bool)] =
        ParallelRunTests.jqInputs.map { ($0, !$0.hasPrefix("[{\"id\": 0, \"name\": \"n0\"")) } + [
            (ParallelRunTests.records(count: 3000, malformedEvery: 400, array: false), true),
            (ParallelRunTests.records(count: 3000, malformedEvery: nil, array: false), true),
        ]

    @Test("A pipe is cut as a file is: the same output, messages and status on two threads",
          arguments: 0..<inputs.count)
    func sameAsOneThread(input: Int) throws {
        let runs = try Self.pipeRuns(Self.inputs[input].text, filter: "{id, more: (.price + 1)}")
        let (single, parallel) = (runs[0].result, runs[1].result)
        #expect(!single.stdout.isEmpty)
        #expect(parallel.stdout == single.stdout)
        #expect(parallel.stderr == single.stderr)
        #expect(parallel.status == single.status)
        #expect(runs[1].cut == Self.inputs[input].isCut)
        #expect(!runs[0].cut)
    }

    @Test("--path over a pipe: the same on two threads, whether the array there is cut or not",
          arguments: 0..<ParallelPathTests.documents.count)
    func keyPath(document: Int) throws {
        let (path, text) = ParallelPathTests.documents[document]
        let runs = try Self.pipeRuns(text, filter: "{id, more: (.price + 1)}") { $0.path = path }
        let (single, parallel) = (runs[0].result, runs[1].result)
        #expect(!single.stdout.isEmpty || !single.stderr.isEmpty)
        #expect(parallel.stdout == single.stdout)
        #expect(parallel.stderr == single.stderr)
        #expect(parallel.status == single.status)
    }

    @Test("--jq '.[] | F' over a pipe: cut, and read on from the pieces where a file is read again",
          arguments: 0..<ParallelRunTests.jqInputs.count)
    func jqEachElement(input: Int) throws {
        let runs = try Self.pipeRuns(ParallelRunTests.jqInputs[input], filter: ".[] | {id, more: (.price + 1)}") {
            $0.jqMode = true
        }
        let (single, parallel) = (runs[0].result, runs[1].result)
        #expect(single.stdout.isEmpty == (input == ParallelRunTests.truncatedJQInput))
        #expect(parallel.stdout == single.stdout)
        #expect(parallel.stderr == single.stderr)
        #expect(parallel.status == single.status)
        #expect(runs[1].cut)
    }

    @Test("--jq '.items[] | F' over a pipe, a second document after: the same on two threads",
          arguments: 0..<ParallelPathTests.documents.count)
    func jqAtAPath(document: Int) throws {
        let (path, text) = ParallelPathTests.documents[document]
        let program = "." + path.joined(separator: ".") + "[] | {id, more: (.price + 1)}"
        let runs = try Self.pipeRuns(text + "\n{\"items\": [{\"id\": -5, \"price\": 1}]}\n", filter: program) {
            $0.jqMode = true
        }
        let (single, parallel) = (runs[0].result, runs[1].result)
        #expect(!single.stdout.isEmpty || !single.stderr.isEmpty)
        #expect(parallel.stdout == single.stdout)
        #expect(parallel.stderr == single.stderr)
        #expect(parallel.status == single.status)
    }

    @Test("--jq over JSON Lines on a pipe: cut, the status the last value's")
    func jqLines() throws {
        let lines = ParallelRunTests.records(count: 3000, malformedEvery: 400, array: false)
        let runs = try Self.pipeRuns(lines + "{\"id\": 1, \"price\": \"x\"}\n", filter: "{id, more: (.price + 1)}") {
            $0.jqMode = true
        }
        let (single, parallel) = (runs[0].result, runs[1].result)
        #expect(single.stderr.contains("cannot be added"))
        #expect(parallel.stdout == single.stdout)
        #expect(parallel.stderr == single.stderr)
        #expect(parallel.status == single.status)
        #expect(runs[1].cut)
    }

    @Test("--count on two threads: the results counted over the pieces, as one thread counts them",
          arguments: ["select(.id % 3 == 0) | .price + 1", "select(.id % 3 == 0)", "."], 0..<inputs.count)
    func count(filter: String, input: Int) throws {
        let runs = try Self.pipeRuns(Self.inputs[input].text, filter: filter) { $0.count = true }
        let (single, parallel) = (runs[0].result, runs[1].result)
        #expect(Int(String(decoding: single.stdout, as: UTF8.self).dropLast()) ?? 0 > 0)
        #expect(parallel.stdout == single.stdout)
        #expect(parallel.stderr == single.stderr)
        #expect(parallel.status == single.status)
        #expect(runs[1].cut == Self.inputs[input].isCut)
    }

    @Test("--output array on two threads: one array, as one thread writes it", arguments: [nil, 2], 0..<inputs.count)
    func outputArray(indent: Int?, input: Int) throws {
        let runs = try Self.pipeRuns(Self.inputs[input].text, filter: "select(.id % 3 == 0) | {id, more: (.price + 1)}") {
            $0.layout = .array
            $0.indent = indent
        }
        let (single, parallel) = (runs[0].result, runs[1].result)
        #expect(single.stdout.starts(with: Array("[\n".utf8)))
        #expect(parallel.stdout == single.stdout)
        #expect(parallel.stderr == single.stderr)
        #expect(parallel.status == single.status)
        #expect(runs[1].cut == Self.inputs[input].isCut)
    }

    @Test("--output array written from the tape: the lines -c writes, in one array; pretty, nested one level",
          arguments: [".", "select(.id % 3 == 0)", ".name", "{id, name}", ".tags", "{id, more: (.price + 1)}"])
    func outputArrayFromTheTape(filter: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("input.json")
        try Data(ParallelRunTests.records(count: 300, malformedEvery: nil, array: false).utf8)
            .write(to: URL(fileURLWithPath: path))
        for threads in [1, 2] {
            func output(_ adjust: (inout JSONStreamOptions) -> Void) throws -> String {
                String(decoding: try ParallelRunTests.run(path, filter: filter, threads: threads, adjust: adjust).stdout,
                       as: UTF8.self)
            }
            let lines = try output { $0.layout = .lines }.split(separator: "\n", omittingEmptySubsequences: false)
            let array = try output { $0.layout = .array }
            #expect(array == "[\n" + lines.dropLast().joined(separator: ",\n") + "\n]\n", "\(filter), \(threads)")
            let pretty = try output { $0.indent = 2 }
            let elements = pretty.split(separator: "\n").reduce(into: [String]()) { elements, line in
                if line.first == " " || line == "}" || line == "]" { elements[elements.count - 1] += "\n  " + line }
                else { elements.append("  " + line) }
            }
            let prettyArray = try output {
                $0.layout = .array
                $0.indent = 2
            }
            #expect(prettyArray == "[\n" + elements.joined(separator: ",\n") + "\n]\n", "\(filter), \(threads)")
        }
    }

    @Test("A compressed pipe is cut as it is decompressed; shorter than a piece, or cut short, as one thread reads it",
          arguments: ["records.json.gz", "records.json.bz2", "records.json.xz", "records.json.zst",
                      "records-two-members.json.gz"])
    func compressed(_ name: String) throws {
        let archive = try Array(Data(contentsOf: URL(fileURLWithPath: CompressedInputToolTests.archive(name))))
        func expectSame(_ runs: [PipeRun], cut: Bool, _ what: String) {
            #expect(runs[1].result.stdout == runs[0].result.stdout, "\(name) \(what)")
            #expect(runs[1].result.stderr == runs[0].result.stderr, "\(name) \(what)")
            #expect(runs[1].result.status == runs[0].result.status, "\(name) \(what)")
            #expect(runs[1].cut == cut, "\(name) \(what): \(runs[1].result.stderr)")
        }
        let runs = try Self.pipeRuns(bytes: archive, filter: ".id")
        #expect(runs[0].result.status == .success && runs[0].result.stdout.count > 10_000, "\(name)")
        expectSame(runs, cut: true, "F")
        expectSame(try Self.pipeRuns(bytes: archive, filter: ".[] | .id") { $0.jqMode = true }, cut: true, "--jq")
        // Read on from what the splitter decompressed, not from the pipe again.
        let whole = try Self.pipeRuns(bytes: archive, filter: ".id") { $0.pieceSize = 1 << 22 }
        expectSame(whole, cut: false, "one piece")
        #expect(whole[1].result.stdout == runs[0].result.stdout, "\(name)")
        let shortened = try Self.pipeRuns(bytes: Array(archive.prefix(archive.count / 2)), filter: ".id")
        #expect(shortened[0].result.status != .success && !shortened[0].result.stderr.isEmpty, "\(name)")
        // (bzip2's blocks are larger than the fixture: half of it gives no text.)
        expectSame(shortened, cut: !shortened[0].result.stdout.isEmpty, "cut short")
    }

    @Test("A compressed pipe of several chunks is cut as they are decompressed")
    func compressedChunks() throws {
        let text = ParallelRunTests.records(count: 12_000, malformedEvery: nil, array: true)
        let runs = try Self.pipeRuns(bytes: gzipped(Array(text.utf8)), filter: ".id")
        #expect(runs[1].result.stdout == runs[0].result.stdout)
        #expect(runs[1].result.stderr == runs[0].result.stderr)
        // Every piece, not only the first chunk's: decompressed chunks are waited for.
        #expect(runs[1].pieces >= text.utf8.count / 2048 * 3 / 4)
    }

    @Test("A live compressed pipe: each value as its gzip member arrives")
    func liveCompressed() async throws {
        let live = try LiveRun(["-c", ".id"])
        for index in 0..<3 {
            #expect(try await live.write(bytes: gzipped(Array(PipeTests.record(index).utf8))))
            #expect(try await live.readLine(timeout: 60) == String(index))
        }
        live.closeInput()
        #expect(try await live.readLine() == nil)
        #expect(try await live.finish().status == 0)
    }

    @Test("A pipe shorter than a piece: all of it, as one thread gives it")
    func shortInput() throws {
        let runs = try Self.pipeRuns("[1, 2,\n 3]\n", filter: ". * 2")
        #expect(String(decoding: runs[1].result.stdout, as: UTF8.self) == "2\n4\n6\n")
        #expect(runs[1].result.stderr == runs[0].result.stderr)
    }

    @Test("A slow pipe, never idle for long: the first result comes out long before a piece could fill")
    func slowSteadyPipe() async throws {
        let live = try LiveRun(["-c", ".id"])
        // A record every 10 ms for 30 s: a piece (512 KiB) would take over a minute to fill.
        let trickle = live.startTrickle(every: 10, limit: 3000) { PipeTests.record($0) }
        let first: Result<String?, any Error>
        do {
            first = .success(try await live.readLine(timeout: 20))
        } catch {
            first = .failure(error)
            live.process.terminate()  // a write blocked on a full pipe then fails
        }
        try await trickle.stop()
        #expect(try first.get() == "0")
        live.closeInput()
        while try await live.readLine() != nil {}
        #expect(try await live.finish().status == 0)
    }

    @Test("A live pipe: a burst's results come out while the pipe stays open, then each value as it arrives")
    func liveAfterABurst() async throws {
        let live = try LiveRun(["--stats", "-c", ".id"])
        // Several pieces' worth at once (pieces are 512 KiB), then nothing.
        let burst = 12_000
        #expect(try await live.write((0..<burst).map(PipeTests.record).joined()))
        for index in 0..<burst {
            let line = try await live.readLine(timeout: 60)
            guard line == String(index) else {
                Issue.record("result \(index): \(line ?? "end of output")")
                return
            }
        }
        #expect(try await live.write(PipeTests.record(-1)))
        #expect(try await live.readLine(timeout: 60) == "-1")
        live.closeInput()
        #expect(try await live.readLine() == nil)
        let (status, stderr) = try await live.finish()
        #expect(status == 0)
        if ProcessInfo.processInfo.activeProcessorCount > 1 {
            #expect(stderr.contains(" pieces on "), "\(stderr)")
        }
    }
}
