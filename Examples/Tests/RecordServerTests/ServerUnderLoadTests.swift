// SPDX-License-Identifier: Apache-2.0
import AsyncHTTPClient
import Foundation
import NIOCore
import RecordKit
import StreamingJSON
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The server under load and faults, on loopback, every loop bounded in
/// count and time: 32 clients at once posting arrays and JSON Lines, some of
/// them malformed; clients that hang up mid-body; slow clients that send a
/// byte at a time. Each answer counts its own body's records only, the
/// server serves the next request after every fault, and its peak memory
/// stays flat from one round to the next.
@Suite(.serialized)
struct ServerUnderLoadTests {
    static let clients = 32

    /// Client `index`'s body: records 1...count, as an array or JSON Lines,
    /// one per line; with `brokenAt`, that record's first comma made an `x`.
    static func body(_ index: Int, brokenAt: Int? = nil) -> (text: String, count: Int, format: RecordStream.Format) {
        let count = 300 + index * 41  // a count of its own: another body's records would show
        let format: RecordStream.Format = index % 2 == 0 ? .array : .lines
        let encoder = StreamingJSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var lines = (1...count).map { String(decoding: try! encoder.encode(SampleRecords.record($0)), as: UTF8.self) }
        if let brokenAt, let comma = lines[brokenAt - 1].firstIndex(of: ",") {
            lines[brokenAt - 1].replaceSubrange(comma...comma, with: "x")
        }
        let text = format == .array ? "[\n" + lines.joined(separator: ",\n") + "\n]\n" : lines.joined(separator: "\n") + "\n"
        return (text, count, format)
    }

    /// What the server must count in records 1...count, less `broken`.
    static func expected(count: Int, broken: Int? = nil) -> UploadSummary {
        var summary = UploadSummary(malformed: broken == nil ? nil : 1)
        for n in 1...count where n != broken {
            if SampleRecords.record(n).problem == nil { summary.accepted += 1 } else { summary.rejected += 1 }
        }
        return summary
    }

    /// One round: every client at once; every fourth sends a malformed body.
    static func round(_ server: ServerProcess) async throws {
        let url = server.recordsURL
        try await withClient { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<clients {
                    group.addTask {
                        let broken = index % 4 == 3 ? 7 + index : nil
                        let (text, count, format) = body(index, brokenAt: broken)
                        let answer = try await post(url, text: text, client: client)
                        guard let broken else {
                            #expect(answer.status == 200, "client \(index): \(answer.text)")
                            #expect(try answer.decode(UploadSummary.self) == expected(count: count), "client \(index)")
                            return
                        }
                        #expect(answer.status == 400, "client \(index): \(answer.text)")
                        let problem = try answer.decode(DecodingProblem.self)
                        #expect(problem.line == broken + (format == .array ? 1 : 0), "client \(index): \(answer.text)")
                        #expect(problem.column != nil)
                        #expect(problem.summary == expected(count: count, broken: broken), "client \(index)")
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    @Test func concurrentClientsMalformedBodiesHangUpsAndSlowClients() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        try await Self.round(server)
        let afterFirst = try server.peakResidentBytes()

        // Clients that hang up mid-body, a few at once: the server drops the
        // body and goes on.
        let whole = Self.body(1).text
        for _ in 0..<8 {
            try RawClient.hangUp(port: server.port, body: Array(whole.utf8), after: whole.utf8.count / 2)
        }
        // A slow client: a byte at a time for its first 400 bytes (about a
        // second), then the rest; its answer is whole and right.
        let (slowText, slowCount, _) = Self.body(2)
        let slow = try RawClient.post(port: server.port, body: Array(slowText.utf8), slowBytes: 400,
                                      pause: 2_000)
        #expect(slow.status == 200, "\(slow.text)")
        #expect(try JSONDecoder().decode(UploadSummary.self, from: Data(slow.body)) == Self.expected(count: slowCount))

        // The server still serves, the same as before, in the same memory.
        try await Self.round(server)
        let afterSecond = try server.peakResidentBytes()
        print("server under load: peak RSS \(afterFirst / 1024) KiB after the first round of \(Self.clients) "
              + "clients, \(afterSecond / 1024) KiB after hang-ups, a slow client and a second round")
        #expect(afterSecond <= afterFirst + (8 << 20), "peak grew from \(afterFirst) to \(afterSecond) bytes")
        #expect(afterSecond < 160 << 20)
    }
}

/// An HTTP/1.1 client on a plain socket, for what AsyncHTTPClient will not
/// do on purpose: hang up mid-body, or send a body a byte at a time.
enum RawClient {
    struct Reply {
        var status: Int
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Sends the headers and the first `after` bytes of `body`, then closes.
    static func hangUp(port: Int, body: [UInt8], after: Int) throws {
        let socket = try connect(port: port)
        defer { close(socket) }
        try send(socket, headers(length: body.count) + body[..<after])
    }

    /// Posts `body`, its first `slowBytes` one at a time `pause` µs apart,
    /// and reads the reply to the end (the request asks to close after it).
    static func post(port: Int, body: [UInt8], slowBytes: Int, pause: UInt32) throws -> Reply {
        let socket = try connect(port: port)
        defer { close(socket) }
        try send(socket, headers(length: body.count))
        for byte in body[..<slowBytes] {
            try send(socket, [byte])
            usleep(pause)
        }
        try send(socket, Array(body[slowBytes...]))
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            reply += buffer[..<count]
        }
        let text = String(decoding: reply, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n"), let status = Int(text.split(separator: " ").dropFirst().first ?? "")
        else { throw ServerFailure(description: "no HTTP reply: \(text.prefix(200))") }
        return Reply(status: status, body: Array(text[end.upperBound...].utf8))
    }

    private static func headers(length: Int) -> [UInt8] {
        Array(("POST /records HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               + "Content-Length: \(length)\r\nConnection: close\r\n\r\n").utf8)
    }

    private static func connect(port: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw ServerFailure(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)  // no read waits forever
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            throw ServerFailure(description: "connect: errno \(errno)")
        }
        return socket
    }

    private static func send(_ socket: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw ServerFailure(description: "send: errno \(errno)") }
            offset += sent
        }
    }
}
