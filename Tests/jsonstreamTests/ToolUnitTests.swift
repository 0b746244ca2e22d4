// SPDX-License-Identifier: Apache-2.0
import Foundation
import JSONFilter
import StreamingJSON
import Testing
@testable import JSONStreamTool

/// The pieces of JSONStreamTool on their own: writers, rules, reports.
@Suite("JSONStreamTool units")
struct ToolUnitTests {
    private func row(_ writer: inout TableWriter, _ json: String) throws -> String {
        var bytes: [UInt8] = []
        try writer.write(try StreamingJSONDecoder().decode(JSONValue.self, from: Data(json.utf8)), into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("A file named *.jsonl or *.ndjson, compressed or not, is named as JSON Lines")
    func namesJSONLines() {
        for name in ["a.jsonl", "dir.json/A.JSONL", "b.ndjson", "c.jsonl.gz", "d.NDJSON.ZST", "e.jsonl.bz2", "f.jsonl.xz"] {
            #expect(JSONStreamOptions.namesJSONLines(name), "\(name)")
        }
        for name in ["a.json", "jsonl", "a.jsonl.tar", "a.gz", "a.jsonlines", "a.jsonl.gz.gz", "-"] {
            #expect(!JSONStreamOptions.namesJSONLines(name), "\(name)")
        }
    }

    @Test("CSV fields: quoting only when needed, doubled quotes, JSON for nested values")
    func csvFields() throws {
        var writer = TableWriter(format: .csv, columns: nil, sortsKeys: false)
        #expect(try row(&writer, #"{"a":"plain","b":"x,y","c":"say \"hi\"","d":"cr\rlf\n","e":[1,"2"],"f":null,"g":false,"h":1e3}"#)
            == "a,b,c,d,e,f,g,h\nplain,\"x,y\",\"say \"\"hi\"\"\",\"cr\rlf\n\",\"[1,\"\"2\"\"]\",,false,1e3\n")
        // The header comes from the first object only; later objects follow its columns.
        #expect(try row(&writer, #"{"h":2,"zz":9,"a":"again"}"#) == "again,,,,,,,2\n")
        #expect(throws: TableWriter.Problem.self) { try row(&writer, "42") }
    }

    @Test("TSV escapes; -S sorts the header taken from the first object")
    func tsvSorted() throws {
        var writer = TableWriter(format: .tsv, columns: nil, sortsKeys: true)
        #expect(try row(&writer, #"{"b":"1\t2","a":"back\\slash"}"#) == "a\tb\nback\\\\slash\t1\\t2\n")
    }

    @Test("Column paths step into objects by name and arrays by index")
    func lookup() {
        let value: JSONValue = ["a": ["b": [10, ["c": "deep"]]]]
        #expect(TableWriter.lookup(["a", "b", "1", "c"], in: value) == "deep")
        #expect(TableWriter.lookup(["a", "b", "0"], in: value) == 10)
        #expect(TableWriter.lookup(["a", "b", "7"], in: value) == nil)
        #expect(TableWriter.lookup(["a", "x"], in: value) == nil)
        #expect(TableWriter.lookup(["a", "b", "0", "z"], in: value) == nil)
    }

    @Test("-e follows jq 1.8: the last unit decides; no unit at all is 0")
    func exitRule() {
        var rule = ExitStatusRule()
        #expect(rule.exitStatus == nil)
        rule.beginUnit()
        #expect(rule.exitStatus == .noResult)  // no result
        rule.result(isFalseOrNull: false)
        #expect(rule.exitStatus == .success)
        rule.result(isFalseOrNull: true)
        #expect(rule.exitStatus == .falseOrNull)
        rule.runtimeError()
        #expect(rule.exitStatus == .failure)
        rule.beginUnit()
        #expect(rule.exitStatus == .noResult)
    }

    @Test("Array layout: brackets, separators, nested indentation")
    func arrayLayout() throws {
        var options = JSONStreamOptions()
        options.layout = .array
        options.indent = 2
        var formatter = ResultFormatter(options: options, color: false)
        var bytes: [UInt8] = []
        try formatter.append(["k": [1]], into: &bytes)
        try formatter.append("s", into: &bytes)
        formatter.finish(into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "[\n  {\n    \"k\": [\n      1\n    ]\n  },\n  \"s\"\n]\n")
        #expect(formatter.resultCount == 2)
    }

    @Test("Numbers for humans: groups, fixed decimals, sizes, clock")
    func formatting() {
        #expect(grouped(0) == "0")
        #expect(grouped(1234567) == "1,234,567")
        #expect(grouped(-1000) == "-1,000")
        #expect(fixed(3.14159, 2) == "3.14")
        #expect(fixed(0.05, 1) == "0.1")
        #expect(fixed(-2.5, 0) == "-3")
        #expect(fixed(.nan, 1) == "-")
        #expect(byteSize(999) == "999 B")
        #expect(byteSize(1_500) == "1.5 kB")
        #expect(byteSize(200_000_045) == "200.0 MB")
        #expect(byteSize(3_200_000_000) == "3.20 GB")
        #expect(ProgressMeter.clock(75) == "1:15")
        #expect(ProgressMeter.clock(3725) == "1:02:05")
        #expect(statisticsLine(RunCounters(elementsIn: 1500, resultsOut: 3, skipped: 1), bytes: 2_000_000,
                               seconds: 0.5, peakBytes: 20 << 20)
            == "jsonstream: stats: 1,500 elements in, 3 results out, 1 skipped; 2.0 MB in 0.50 s (4.0 MB/s); peak memory 20.0 MiB")
    }

    @Test("The progress line is drawn in place with the total, and erased")
    func progressLine() throws {
        let pipe = Pipe()
        let meter = ProgressMeter(diagnostics: Diagnostics(descriptor: pipe.fileHandleForWriting.fileDescriptor),
                                  totalBytes: 200_000_000, start: monotonicSeconds() - 2)
        meter.tick(bytes: 50_000_000, elements: 123_456)
        meter.clear()
        try pipe.fileHandleForWriting.close()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.hasPrefix("\r\u{1B}[K[#####...............] 50.0 MB / 200.0 MB  25%  "), "\(text)")
        #expect(text.contains(" MB/s  123,456 elements  ETA 0:0"), "\(text)")
        #expect(text.hasSuffix("\r\u{1B}[K"))
    }

    @Test("A closed pipe is OutputError.closed; the buffer goes out in blocks")
    func sinkClosedPipe() throws {
        signal(SIGPIPE, SIG_IGN)
        let pipe = Pipe()
        let sink = OutputSink(descriptor: pipe.fileHandleForWriting.fileDescriptor, name: "<pipe>", flushesEachResult: false)
        sink.buffer.append(contentsOf: Array(repeating: 0x41, count: 10))
        try sink.resultEnded()  // under a block: kept
        #expect(sink.buffer.count == 10)
        try sink.flush()
        #expect(sink.bytesWritten == 10)
        #expect(pipe.fileHandleForReading.availableData == Data(repeating: 0x41, count: 10))
        try pipe.fileHandleForReading.close()
        sink.buffer.append(contentsOf: Array(repeating: 0x42, count: OutputSink.blockSize))
        #expect(throws: OutputError.self) { try sink.resultEnded() }
    }

    @Test("Held results: released in order after what went before, or dropped: in a file, appended, in a pipe")
    func sinkHoldsResults() throws {
        let path = NSTemporaryDirectory() + "held-\(getpid()).out"
        defer { unlink(path) }
        // A regular file: written, then cut off when dropped.
        let file = try OutputSink(creatingFileAt: path)
        let expected = try holdRounds(file)
        try file.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(expected))
        // Appended to (`>>`): never cut back before its own bytes; held in memory and a spill file.
        try Data("before\n".utf8).write(to: URL(fileURLWithPath: path))
        let appending = open(path, O_WRONLY | O_APPEND)
        let appended = OutputSink(descriptor: appending, name: path, flushesEachResult: false, ownsDescriptor: true)
        let expectedAppended = try holdRounds(appended)
        try appended.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("before\n".utf8) + Data(expectedAppended))
        // A pipe: held in memory, then in a spill file.
        let pipe = Pipe()
        nonisolated(unsafe) var received = Data()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            received = pipe.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        let piped = OutputSink(descriptor: pipe.fileHandleForWriting.fileDescriptor, name: "<pipe>", flushesEachResult: false)
        let expectedPiped = try holdRounds(piped)
        try piped.close()
        try pipe.fileHandleForWriting.close()
        done.wait()
        #expect(received == Data(expectedPiped))
    }

    /// Rounds of released and held results through `sink`, some held results
    /// kept and some dropped, each past the spill threshold or not; the bytes
    /// that must come out.
    private func holdRounds(_ sink: OutputSink) throws -> [UInt8] {
        let big = OutputSink.spillThreshold + 3 * OutputSink.blockSize + 7
        var expected: [UInt8] = []
        for (round, (size, keeps)) in [(10, true), (big, false), (big, true), (5, false), (2 * big, true)].enumerated() {
            let released = Array(repeating: UInt8(ascii: "0") + UInt8(round), count: 3)
            sink.buffer.append(contentsOf: released)
            try sink.resultEnded()  // released: before the held bytes, whatever happens to them
            expected += released
            sink.hold()
            let held = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ round) }
            for start in stride(from: 0, to: size, by: 1000) {
                sink.buffer.append(contentsOf: held[start..<min(size, start + 1000)])
                try sink.resultEnded()
                #expect(sink.buffer.count < OutputSink.spillThreshold + 1000)  // memory stays bounded
            }
            if keeps {
                try sink.release()
                expected += held
            } else {
                sink.discardHeld()
            }
        }
        return expected
    }

    @Test("Compile errors as jq 1.8.2 writes them: line and column in bytes, the undefined name underlined")
    func compileReport() throws {
        do {
            _ = try JSONFilter(".a | nosuch(1)")
            Issue.record("compiled")
        } catch let error as JSONFilterError {
            let report = compileErrorReport(error, source: ".a | nosuch(1)")
            #expect(report.first == "jsonstream: error: nosuch/1 is not defined at <top-level>, line 1, column 6:",
                    "\(report)")
            #expect(report[1] == "    .a | nosuch(1)")
            #expect(report[2] == "         ^^^^^^")
            #expect(report.last == "jsonstream: 1 compile error")
        }
        do {
            _ = try JSONFilter(".a |\n  ]")
            Issue.record("compiled")
        } catch let error as JSONFilterError {
            let report = compileErrorReport(error, source: ".a |\n  ]")
            #expect(report.first?.hasSuffix("at <top-level>, line 2, column 3:") == true, "\(report)")
            #expect(report[1] == "      ]")
            #expect(report[2] == "      ^")
        }
        do {
            _ = try JSONFilter(#""€" | $nope"#)
            Issue.record("compiled")
        } catch let error as JSONFilterError {
            let report = compileErrorReport(error, source: #""€" | $nope"#)
            #expect(report.first == "jsonstream: error: $nope is not defined at <top-level>, line 1, column 9:", "\(report)")
            #expect(report[2] == "            ^^^^^")
        }
    }

    @Test("Combinations of options that cannot work are usage errors")
    func validation() {
        var options = JSONStreamOptions()
        #expect(options.validationProblems().isEmpty)
        options.split = .init(linesPerFile: 0, prefix: "")
        options.count = true
        options.inputFormat = .lines
        options.path = ["a"]
        #expect(options.validationProblems().count == 4)
    }

    @Test("Shard names: five digits, then as many as needed")
    func shardNames() {
        #expect(SplitFiles.fileName(prefix: "out/part-", index: 0) == "out/part-00000.jsonl")
        #expect(SplitFiles.fileName(prefix: "p", index: 123_456) == "p123456.jsonl")
    }

    @Test("--jq on standard input of many small values drops the plan; the first read is kept to read first")
    func stdinPeek() throws {
        let filter = try JSONFilter(".")
        var options = JSONStreamOptions()
        options.jqMode = true
        for (text, dropsPlan) in [("{\"a\": 1}\n{\"a\": 2}\n", true), ("{\"a\": [1, 2, 3]}\n", false),
                                  ("{\"a\": [1, 2,", false), ("", false)] {
            var ends: [Int32] = [0, 0]
            #expect(unsafe pipe(&ends) == 0)
            let bytes = Array(text.utf8)
            #expect(unsafe write(ends[1], bytes, bytes.count) == bytes.count)
            close(ends[1])
            let peek = StdinPeek(descriptor: ends[0])
            #expect((jqPlan(for: filter, options, stdin: peek) == nil) == dropsPlan, "\(text)")
            #expect(peek.peeked == bytes)
            close(ends[0])
        }
    }
}

