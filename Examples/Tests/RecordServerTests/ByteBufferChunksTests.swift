// SPDX-License-Identifier: Apache-2.0
import Foundation
import NIOCore
import RecordKit
import StreamingJSON
import StreamingJSONNIO
import Testing

/// The adapter and the generator, in process: what the server decodes is
/// what the generator meant, however the buffers split the records.
struct ByteBufferChunksTests {
    @Test(arguments: RecordStream.Format.allCases, [7, 100, 64 * 1024])
    func generatedRecordsDecodeThroughTheAdapter(format: RecordStream.Format, chunkSize: Int) async throws {
        let stream = RecordStream(format: format, limit: .records(2_000), chunkSize: chunkSize)
        var decoded: [Record] = []
        for try await record in StreamingJSONDecoder().elements(of: Record.self, from: stream) {
            decoded.append(record)
        }
        #expect(decoded == (1...2_000).map(SampleRecords.record))
        #expect(decoded.filter { $0.problem != nil }.count == 120)
        #expect(stream.tally.counts.records == 2_000)
        #expect(stream.tally.counts.invalid == 120)
    }

    @Test func generatedJSONIsWhatFoundationReads() async throws {
        var body = Data()
        for try await buffer in RecordStream(format: .array, limit: .records(300)) {
            body.append(contentsOf: buffer.readableBytesView)
        }
        #expect(try JSONDecoder().decode([Record].self, from: body) == (1...300).map(SampleRecords.record))
    }

    @Test func byteLimitEndsAfterTheRecordThatReachesIt() async throws {
        let stream = RecordStream(format: .lines, limit: .bytes(100_000), chunkSize: 4096)
        var total = 0
        var lastLine = ""
        for try await buffer in stream {
            total += buffer.readableBytes
            if let text = buffer.getString(at: buffer.readerIndex, length: buffer.readableBytes), !text.isEmpty {
                lastLine = String(text.split(separator: "\n").last ?? "")
            }
        }
        #expect(total >= 100_000)
        #expect(total - (lastLine.utf8.count + 1) < 100_000)
        #expect(stream.tally.counts.bytes == total)
    }

    @Test func emptyStreamsAreValidJSON() async throws {
        for format in RecordStream.Format.allCases {
            var count = 0
            let stream = RecordStream(format: format, limit: .records(0))
            for try await _ in StreamingJSONDecoder().elements(of: Record.self, from: stream) { count += 1 }
            #expect(count == 0)
        }
    }
}
