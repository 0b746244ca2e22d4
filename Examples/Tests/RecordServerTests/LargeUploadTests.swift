// SPDX-License-Identifier: Apache-2.0
import AsyncHTTPClient
import Foundation
import RecordKit
import Testing

/// A gibibyte of records through the real server, generated as it is sent
/// and read as it arrives: neither side ever holds the body.
@Suite(.serialized)
struct LargeUploadTests {
    /// The server's resident memory may not pass this, whatever the body's size.
    static let memoryCeiling = 64 << 20

    @Test func oneGibibyteArrayInBoundedMemory() async throws {
        let server = try ServerProcess()
        let stream = RecordStream(format: .array, limit: .bytes(1 << 30))
        let started = ContinuousClock.now
        let answer = try await withClient { client in
            try await post(server.recordsURL, .stream(stream, length: .unknown), client: client)
        }
        let elapsed = started.duration(to: .now)
        #if os(Linux)
        // Read before the process ends, while /proc still has it.
        let peak = try server.peakResidentBytes()
        #expect(peak < Self.memoryCeiling, "server peak RSS \(peak) bytes")
        let memory = "server peak RSS \(peak / 1024) KiB"
        #else
        let memory = "server peak RSS not measured (Linux only)"
        #endif
        #expect(server.stop() == 0)

        let sent = stream.tally.counts
        print("1 GiB upload: \(sent.records) records (\(sent.invalid) invalid), \(sent.bytes) bytes in \(elapsed); \(memory)")
        #expect(answer.status == 200, "\(answer.text)")
        #expect(sent.bytes >= 1 << 30)
        #expect(sent.invalid > 0)
        #expect(try answer.decode(UploadSummary.self) == UploadSummary(accepted: sent.valid, rejected: sent.invalid))
    }
}
