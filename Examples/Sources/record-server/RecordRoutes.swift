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
    /// to the socket). A malformed record (invalid JSON, or a string where a
    /// number belongs) does not stop the reading: the rest of the body is
    /// still read and counted, and the answer is a 400 that says where the
    /// first one is, with the counts. Its accepted records are not kept.
    /// Only a body that ends inside a record, or after damage with no record
    /// after it, is answered without reading further.
    func receive(_ body: RequestBody) async throws -> Response {
        let writer = try makeWriter()
        var summary = UploadSummary()
        var first: DecodingProblem?
        var records = StreamingJSONDecoder().elements(of: Record.self, from: body, format: .auto).makeAsyncIterator()
        do {
            while true {
                do {
                    guard let record = try await records.next() else { break }
                    if record.problem == nil {
                        // A blocking write(2) of a full 256 KiB buffer at a time; a server
                        // writing to slow storage would hand this to a thread of its own.
                        if first == nil { try writer.append(record) }
                        summary.accepted += 1
                    } else {
                        summary.rejected += 1
                    }
                } catch let error as DecodingError where !error.endsStream {
                    // One record lost; the next call reads on after it.
                    first = first ?? DecodingProblem(error)
                    summary.malformed = (summary.malformed ?? 0) + 1
                }
            }
        } catch {
            // The rest cannot be read. Dropped unfinished, a file writer
            // removes its temporary file.
            guard let problem = DecodingProblem(error) else { throw error }
            var answer = first ?? problem
            answer.summary = summary  // what was read before
            return try Self.json(answer, status: .badRequest)
        }
        if var problem = first {
            problem.summary = summary
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
