// SPDX-License-Identifier: Apache-2.0
import AsyncHTTPClient
import Foundation
import NIOCore
import RecordKit

/// A response read to its end: the server's answers are small.
struct Answer {
    var status: UInt
    var body: Data

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: body)
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Runs `body` with a client that has no read timeout (the server says
/// nothing until it has read a whole upload), and shuts the client down after.
func withClient<T>(_ body: (HTTPClient) async throws -> T) async throws -> T {
    let client = HTTPClient(configuration: .init(timeout: .init(connect: .seconds(10))))
    do {
        let result = try await body(client)
        try await client.shutdown()
        return result
    } catch {
        try? await client.shutdown()
        throw error
    }
}

/// POSTs `body` to `url` and reads the answer.
func post(_ url: String, _ body: HTTPClientRequest.Body, client: HTTPClient) async throws -> Answer {
    var request = HTTPClientRequest(url: url)
    request.method = .POST
    request.body = body
    let response = try await client.execute(request, timeout: .minutes(30))
    let bytes = try await response.body.collect(upTo: 1 << 20)
    return Answer(status: response.status.code, body: Data(buffer: bytes))
}

/// POSTs `text` as the whole body.
func post(_ url: String, text: String, client: HTTPClient) async throws -> Answer {
    try await post(url, .bytes(ByteBuffer(string: text)), client: client)
}
