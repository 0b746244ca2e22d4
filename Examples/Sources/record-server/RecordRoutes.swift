// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import RecordKit
import StreamingJSON
import StreamingJSONNIO

/// The server's two routes.
struct RecordRoutes: Sendable {
    /// Where accepted records go; nil discards them.
    let output: String?

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("records") { request, _ in
            try await receive(request.body)
        }
        router.get("records") { request, _ in
            try send(request.uri.queryParameters)
        }
        return router
    }

    /// Reads the records of a body as they arrive: each is decoded, checked
    /// and written out before the next bytes are read, so memory stays the
    /// same whatever the body's size (the request body applies back-pressure
    /// to the socket). A body that is not JSON of the right shape is a 400
    /// that says where, and its accepted records are not kept.
    func receive(_ body: RequestBody) async throws -> Response {
        let writer = try makeWriter()
        var summary = UploadSummary()
        do {
            for try await record in StreamingJSONDecoder().elements(of: Record.self, from: body, format: .auto) {
                if record.problem == nil {
                    // A blocking write(2) of a full 256 KiB buffer at a time; a
                    // server writing to slow storage would hand this to a thread of its own.
                    try writer.append(record)
                    summary.accepted += 1
                } else {
                    summary.rejected += 1
                }
            }
        } catch {
            // Dropped unfinished, a file writer removes its temporary file.
            guard let problem = DecodingProblem(error) else { throw error }
            return try Self.json(problem, status: .badRequest)
        }
        try writer.finish()
        return try Self.json(summary, status: .ok)
    }

    /// Generated records, written as the client reads them.
    func send(_ query: Parameters) throws -> Response {
        guard let count = Int(query["count"].map(String.init) ?? "1000"), count >= 0 else {
            return try Self.json(DecodingProblem(error: "count must be a number ≥ 0"), status: .badRequest)
        }
        guard let format = RecordStream.Format(rawValue: query["format"].map(String.init) ?? "array") else {
            return try Self.json(DecodingProblem(error: "format must be array or lines"), status: .badRequest)
        }
        let contentType = format == .array ? "application/json" : "application/jsonl"
        return Response(status: .ok, headers: [.contentType: contentType],
                        body: ResponseBody(asyncSequence: RecordStream(format: format, limit: .records(count))))
    }

    /// JSON Lines into `output`, replaced when the writer finishes; or into /dev/null.
    private func makeWriter() throws -> JSONStreamWriter<Record> {
        if let output {
            return try JSONStreamWriter(toFileAt: URL(fileURLWithPath: output), format: .jsonLines)
        }
        // Not `toFileAt:`, which would write a temporary file beside /dev/null and rename it over it.
        guard let null = FileHandle(forWritingAtPath: "/dev/null") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try JSONStreamWriter(to: null, format: .jsonLines)
    }

    private static func json(_ value: some Encodable, status: HTTPResponse.Status) throws -> Response {
        let encoder = StreamingJSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var body = try encoder.encode(value)
        body.append(0x0A)
        return Response(status: status, headers: [.contentType: "application/json"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
