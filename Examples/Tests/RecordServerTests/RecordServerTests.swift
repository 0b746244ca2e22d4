// SPDX-License-Identifier: Apache-2.0
import AsyncHTTPClient
import Foundation
import RecordKit
import StreamingJSON
import Testing

/// The server's answers to well-formed and malformed bodies, over loopback.
@Suite(.serialized)
struct RecordServerTests {
    @Test func jsonLinesUploadKeepsTheAcceptedRecords() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-server-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("accepted.jsonl")
        let server = try ServerProcess(arguments: ["--output", output.path])

        let stream = RecordStream(format: .lines, limit: .records(20_000), chunkSize: 1000)
        let answer = try await withClient { client in
            try await post(server.recordsURL, .stream(stream, length: .unknown), client: client)
        }
        server.stop()

        #expect(answer.status == 200, "\(answer.text)")
        #expect(try answer.decode(UploadSummary.self) == UploadSummary(accepted: 18_800, rejected: 1_200))
        // The file holds exactly the valid records, in order, one per line.
        let expected = (1...20_000).filter { SampleRecords.defect($0) == nil }.map(SampleRecords.record)
        var kept: [Record] = []
        for try await record in StreamingJSONDecoder().elements(of: Record.self, contentsOf: output, format: .jsonLines) {
            kept.append(record)
        }
        #expect(kept == expected)
    }

    @Test func emptyArrayIsZeroRecords() async throws {
        let server = try ServerProcess()
        let answer = try await withClient { try await post(server.recordsURL, text: " [ ]\n", client: $0) }
        #expect(answer.status == 200)
        #expect(try answer.decode(UploadSummary.self) == UploadSummary())
    }

    /// Three lines; the third lacks the comma before `"notes"`.
    static let brokenArray = """
        [
        {"id":1,"name":"Beer 1","brewery":"B","style":"IPA","abv":5.5,"notes":""},
        {"id":2,"name":"Beer 2","brewery":"B","style":"IPA","abv":5.5 "notes":""},
        {"id":3,"name":"Beer 3","brewery":"B","style":"IPA","abv":5.5,"notes":""}
        ]
        """

    @Test func syntaxErrorAnswers400WithItsPosition() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-server-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("accepted.jsonl")
        let server = try ServerProcess(arguments: ["--output", output.path])

        let answer = try await withClient { try await post(server.recordsURL, text: Self.brokenArray, client: $0) }
        #expect(answer.status == 400, "\(answer.text)")
        let problem = try answer.decode(DecodingProblem.self)
        #expect(problem.line == 3)
        #expect(problem.column == 63)  // the quote of "notes"
        #expect(problem.byteOffset == 2 + 75 + 62)
        #expect(problem.error.contains("line 3, column 63"))
        // The body was read to its end: the records after the broken one were counted.
        #expect(problem.summary == UploadSummary(accepted: 2, rejected: 0, malformed: 1))
        // A rejected upload leaves nothing behind, not even the record before the error.
        #expect(!FileManager.default.fileExists(atPath: output.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func typeMismatchAnswers400WithItsPositionAndPath() async throws {
        let server = try ServerProcess()
        let body = """
            [
            {"id":1,"name":"Beer 1","brewery":"B","style":"IPA","abv":5.5,"notes":""},
            {"id":2,"name":"Beer 2","brewery":"B","style":"IPA","abv":"strong","notes":""}
            ]
            """
        let answer = try await withClient { try await post(server.recordsURL, text: body, client: $0) }
        #expect(answer.status == 400, "\(answer.text)")
        let problem = try answer.decode(DecodingProblem.self)
        #expect(problem.line == 3)
        #expect(problem.column == 59)  // the string where the number belongs
        #expect(problem.byteOffset == 2 + 75 + 58)
        #expect(problem.codingPath == "[1].abv")
        #expect(problem.summary == UploadSummary(accepted: 1, rejected: 0, malformed: 1))
    }

    /// JSON Lines whose third record's last string is never closed.
    @Test func brokenJSONLinesRecordAnswers400WithItsPosition() async throws {
        let server = try ServerProcess()
        let body = """
            {"id":1,"name":"Beer 1","brewery":"B","style":"IPA","abv":5.5,"notes":""}
            {"id":2,"name":"Beer 2","brewery":"B","style":"IPA","abv":5.5,"notes":""}
            {"id":3,"name":"Beer 3","brewery":"B","style":"IPA","abv":5.5,"notes":"}
            {"id":4,"name":"Beer 4","brewery":"B","style":"IPA","abv":5.5,"notes":""}
            """
        let answer = try await withClient { try await post(server.recordsURL, text: body, client: $0) }
        #expect(answer.status == 400, "\(answer.text)")
        let problem = try answer.decode(DecodingProblem.self)
        #expect(problem.line == 3)
        #expect(problem.column == 73)  // the line break inside the unterminated string
        #expect(problem.byteOffset == 74 + 74 + 72)
        #expect(problem.error.hasPrefix("Unescaped control character"))
        // JSON Lines goes on at the next line: record 4 was counted.
        #expect(problem.summary == UploadSummary(accepted: 3, rejected: 0, malformed: 1))
    }

    /// A body cut off inside a record: a 400 at its end, with what came before.
    @Test func truncatedBodyAnswers400AtItsEnd() async throws {
        let server = try ServerProcess()
        let body = String(Self.brokenArray.replacingOccurrences(of: "5.5 ", with: "5.5,").dropLast(30))
        let answer = try await withClient { try await post(server.recordsURL, text: body, client: $0) }
        #expect(answer.status == 400, "\(answer.text)")
        let problem = try answer.decode(DecodingProblem.self)
        #expect(problem.error.hasPrefix("Unexpected end of input"))
        #expect(problem.summary == UploadSummary(accepted: 2, rejected: 0))
    }

    @Test func clientUploadsAndDownloadsThroughTheServer() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let upload = try run("record-client", ["post", server.recordsURL, "--generate", "5000", "--format", "lines"])
        #expect(upload.status == 0, "\(upload.output)")
        #expect(upload.output.contains("sent: 5000 records (300 invalid)"))
        #expect(upload.output.contains(#"200 {"accepted":4700,"rejected":300}"#))

        let download = try run("record-client", ["get", server.recordsURL + "?count=5000&format=array"])
        #expect(download.status == 0, "\(download.output)")
        #expect(download.output.hasPrefix("records: 5000 (valid 4700, invalid 300)"))
    }
}
