// SPDX-License-Identifier: Apache-2.0
import Foundation
import StreamingJSON
import Testing

/// `jsonstream F dump.json.gz` prints what `zcat dump.json.gz | jsonstream F`
/// prints; a damaged archive is an error with exit status 2.
@Suite("Compressed input (end to end)")
struct CompressedInputToolTests {
    static let archives = ["records.json.gz", "records.json.zst", "records.json.bz2", "records.json.xz",
                           "records-two-members.json.gz"]

    static func archive(_ name: String) -> String { JSONStreamBinary.fixture("compressed/" + name) }

    @Test("every format, as a file, on stdin, and through --jq", arguments: archives)
    func decompressed(_ name: String) async throws {
        let path = Self.archive(name)
        let run = try await jsonstream(["-c", "select(.score == 3) | .id", path])
        #expect(run.status == 0, "\(run.stderr)")
        // ids 3, 100, 197, … up to 2913: every 97th record from 3.
        #expect(run.lines == stride(from: 3, to: 3000, by: 97).map(String.init))
        let piped = try await jsonstream(["-c", "select(.score == 3) | .id"], stdinPath: path)
        #expect(piped.stdout == run.stdout)
        let jq = try await jsonstream(["--jq", "-c", ".[1500].name, length", path])
        let name1500 = "\"n" + String(UInt64(1500) * 2654435761 % (1 << 32), radix: 16) + "\""
        #expect(jq.lines == [name1500, "3000"], "\(jq.stderr)")
    }

    @Test("-R reads the text's lines", arguments: archives)
    func rawLines(_ name: String) async throws {
        let path = Self.archive(name)
        let lines = try await jsonstream(["-n", "-R", "[inputs] | length, (first(inputs) // empty)", path])
        #expect(lines.status == 0, "\(lines.stderr)")
        #expect(lines.lines == ["3000"])
        let first = try await jsonstream(["-R", "-r", ".", path])
        #expect(first.lines.count == 3000)
        #expect(first.lines.first == #"[{"id":0,"name":"n0","score":0},"#)
        let slurped = try await jsonstream(["-R", "-s", "length"], stdinPath: path)
        #expect(slurped.lines == [String(first.stdout.count)])
    }

    @Test("a truncated archive: the elements before the cut, then exit 2")
    func truncated() async throws {
        let directory = try TemporaryDirectory()
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.archive("records.json.gz")))
        let path = directory.path("cut.json.gz")
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))
        let run = try await jsonstream(["-c", ".id", path])
        #expect(run.status == 2)
        #expect(run.lines.count > 100)
        #expect(run.lines.first == "0")
        #expect(run.stderr.contains("Truncated gzip input: it ends inside a compressed stream"), "\(run.stderr)")
        let raw = try await jsonstream(["-R", ".", path])
        #expect(raw.status == 2)
        #expect(raw.stderr.contains("Truncated gzip input"), "\(raw.stderr)")
        let jq = try await jsonstream(["--jq", "length", path])
        #expect(jq.status == 2)
        #expect(jq.stderr.contains("Truncated gzip input"), "\(jq.stderr)")
    }

    @Test("progress counts the archive's bytes, of its size")
    func progressCountsCompressedBytes() throws {
        for name in Self.archives {
            let path = Self.archive(name)
            let reader = try _ValueReader(contentsOfFile: path, format: .auto, path: [])
            var count = 0
            while case .value = reader.next() { count += 1 }
            #expect(count == 3000)
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
            #expect(reader.size == size.map(UInt64.init))
            #expect(reader.bytesRead == reader.size, "\(name)")
        }
    }
}
