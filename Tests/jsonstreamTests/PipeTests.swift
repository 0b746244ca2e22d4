// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// Pipes on both sides: `| head -1`, `--limit` on a huge input, output that
/// comes out while the input is still arriving. None of these asserts a
/// duration: "stopped reading" is shown by the writer of stdin getting
/// EPIPE long before it ran out of input.
@Suite("Pipes (end to end)")
struct PipeTests {
    /// One JSON Lines record, about 100 bytes.
    static func record(_ index: Int) -> String {
        #"{"id":\#(index),"name":"Record \#(index)","tags":["a","b"],"note":"padding padding padding"}"# + "\n"
    }

    /// Feeds batches of records to `live` until it closes its stdin (true)
    /// or a gigabyte was written (false).
    static func feedUntilClosed(_ live: LiveRun) async throws -> Bool {
        try await live.writeUntilClosed(limit: 1 << 30) { batch in
            (0..<1000).map { record(batch * 1000 + $0) }.joined()
        }
    }

    @Test("| head -1 on a file: quiet exit 0")
    func headOnFile() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file("big.json", recordsArray(count: 200_000))
        let live = try LiveRun([".name", file])
        #expect(try await live.readLine() == "\"Beer 0\"")
        live.closeOutput()
        let (status, stderr) = try await live.finish()
        #expect(status == 0)
        #expect(stderr.isEmpty, "\(stderr)")
    }

    @Test("| head -1 on an endless stdin: stops reading, quiet exit 0")
    func headOnEndlessInput() async throws {
        let live = try LiveRun([".id"])
        // A first record, then close stdout as head does once it has its line.
        #expect(try await live.write(Self.record(0)))
        #expect(try await live.readLine() == "0")
        live.closeOutput()
        // It stops at its next write, well before a gigabyte of input.
        #expect(try await Self.feedUntilClosed(live), "jsonstream went on reading after its output was closed")
        let (status, stderr) = try await live.finish()
        #expect(status == 0)
        #expect(stderr.isEmpty, "\(stderr)")
    }

    @Test("--limit N stops reading as soon as N results are out")
    func limitStopsReading() async throws {
        let live = try LiveRun(["--limit", "3", ".id"])
        #expect(try await Self.feedUntilClosed(live), "jsonstream went on reading after --limit")
        #expect(try await live.readLine() == "0")
        #expect(try await live.readLine() == "1")
        #expect(try await live.readLine() == "2")
        #expect(try await live.readLine() == nil)
        #expect(try await live.finish().status == 0)
    }

    @Test("--limit N on a big file: N lines, success")
    func limitOnBigFile() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file("big.json", recordsArray(count: 200_000))
        let run = try await jsonstream(["--limit", "5", "select(.id % 2 == 1) | .id", file])
        #expect(run.status == 0)
        #expect(run.lines == ["1", "3", "5", "7", "9"])
        #expect(run.stderr.isEmpty)
        // --output array still closes its array.
        let array = try await jsonstream(["--limit", "2", "--output", "array", ".id", file])
        #expect(array.output == "[\n0,\n1\n]\n")
    }

    @Test("Results come out before stdin has more: flushed before a read that would wait")
    func flushBeforeBlockingRead() async throws {
        let live = try LiveRun([".id"])
        #expect(try await live.write(Self.record(1)))
        #expect(try await live.readLine() == "1")
        #expect(try await live.write(Self.record(2) + Self.record(3)))
        #expect(try await live.readLine() == "2")
        #expect(try await live.readLine() == "3")
        live.closeInput()
        #expect(try await live.readLine() == nil)
        #expect(try await live.finish().status == 0)
    }

    @Test("Large output through a pipe arrives whole (buffered writes lose nothing)")
    func nothingLost() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file("big.json", recordsArray(count: 50_000))
        let live = try LiveRun([".id", file])
        var lines: [String] = []
        while let line = try await live.readLine() { lines.append(line) }
        #expect(lines == (0..<50_000).map(String.init))
        #expect(try await live.finish().status == 0)
    }
}
