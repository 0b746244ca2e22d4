// SPDX-License-Identifier: Apache-2.0
import Foundation

// Structured log events as `scripts/generate-shapes.py --shape logs` writes
// them, one per line, modelled the way a log processor would: synthesized
// Codable, snake_case keys in CodingKeys, the level a String enum, optional
// fields missing or null, `Decimal` for money, dates `.iso8601`. The Benchmarks
// package compiles this file too (a symbolic link there).

struct LogEvent: Codable, Sendable {
    enum Level: String, Codable, Sendable {
        case debug, info, warn, error, fatal
    }

    struct HTTP: Codable, Sendable {
        var method: String
        var path: String
        var status: Int
    }

    var timestamp: Date
    var level: Level
    var service: String
    var host: String
    var requestID: UInt64
    var traceID: UInt64
    var message: String
    var userID: UInt64?
    var http: HTTP?
    var durationMilliseconds: Double?
    var amount: Decimal?
    var fingerprint: Fingerprint
    var tags: [String]?

    enum CodingKeys: String, CodingKey {
        case timestamp = "ts"
        case level, service, host
        case requestID = "request_id"
        case traceID = "trace_id"
        case message
        case userID = "user_id"
        case http
        case durationMilliseconds = "duration_ms"
        case amount, fingerprint, tags
    }
}

/// A 64-bit hash that some producers write signed and others unsigned: read
/// as `Int64` when it fits, otherwise as `UInt64`.
enum Fingerprint: Codable, Sendable, Hashable {
    case signed(Int64)
    case unsigned(UInt64)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int64.self) {
            self = .signed(value)
        } else {
            self = .unsigned(try container.decode(UInt64.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .signed(let value): try container.encode(value)
        case .unsigned(let value): try container.encode(value)
        }
    }
}
