// SPDX-License-Identifier: Apache-2.0
import AsyncHTTPClient
import Foundation
import NIOCore
import RecordKit
import StreamingJSON
import StreamingJSONNIO

/// `record-client get URL` decodes a JSON array (or JSON Lines) of records
/// as the response arrives; `record-client post URL` uploads a file, or
/// generated records, as a streamed request body.
@main
struct RecordClient {
    static func main() async {
        let options: ClientOptions
        do {
            options = try ClientOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("record-client: \(error)\n\n\(ClientOptions.usage)\n".utf8))
            exit(2)
        }
        guard let command = options.command else {
            print(ClientOptions.usage)
            return
        }
        // No read timeout: the server says nothing until it has read a whole upload.
        let client = HTTPClient(configuration: .init(timeout: .init(connect: .seconds(10))))
        let succeeded: Bool
        do {
            switch command {
            case .get: succeeded = try await get(options, client: client)
            case .post: succeeded = try await post(options, client: client)
            }
        } catch {
            FileHandle.standardError.write(Data("record-client: \(error)\n".utf8))
            succeeded = false
        }
        try? await client.shutdown()
        exit(succeeded ? 0 : 1)
    }

    /// Streams the response body into the decoder: memory stays the same
    /// whatever its size.
    static func get(_ options: ClientOptions, client: HTTPClient) async throws -> Bool {
        let started = ContinuousClock.now
        let response = try await client.execute(HTTPClientRequest(url: options.url), timeout: .hours(1))
        guard response.status == .ok else {
            return try await report(response)
        }
        var valid = 0
        var invalid = 0
        do {
            let records = StreamingJSONDecoder().elements(of: Record.self, from: response.body, format: options.format)
            for try await record in records {
                if record.problem == nil { valid += 1 } else { invalid += 1 }
            }
        } catch {
            guard let problem = DecodingProblem(error) else { throw error }
            FileHandle.standardError.write(Data("record-client: the response is not records: \(problem.error)\n".utf8))
            return false
        }
        print("records: \(valid + invalid) (valid \(valid), invalid \(invalid)) in \(started.duration(to: .now))")
        return true
    }

    /// Uploads a file or generated records as a chunked request body: each
    /// buffer is read (or generated) when the connection can take it.
    static func post(_ options: ClientOptions, client: HTTPClient) async throws -> Bool {
        var request = HTTPClientRequest(url: options.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        var tally: RecordTally?
        if let file = options.file {
            request.body = .stream(FileChunks(path: file), length: .unknown)
        } else {
            let stream = RecordStream(format: options.generatedFormat, limit: options.limit)
            tally = stream.tally
            request.body = .stream(stream, length: .unknown)
        }
        let started = ContinuousClock.now
        let response = try await client.execute(request, timeout: .hours(1))
        if let counts = tally?.counts {
            print("sent: \(counts.records) records (\(counts.invalid) invalid), \(counts.bytes) bytes "
                + "in \(started.duration(to: .now))")
        }
        return try await report(response)
    }

    /// Prints the status and the (small) body of a response; true for a 200.
    private static func report(_ response: HTTPClientResponse) async throws -> Bool {
        let body = try await response.body.collect(upTo: 1 << 20)
        // The server's JSON answers end with a line break of their own.
        print(body.readableBytes > 0 ? "\(response.status.code) \(String(buffer: body))" : "\(response.status.code)\n",
              terminator: "")
        return response.status == .ok
    }
}
