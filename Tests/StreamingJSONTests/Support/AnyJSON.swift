// SPDX-License-Identifier: Apache-2.0
import Foundation
@testable import StreamingJSON

/// A generic JSON value decoded through the public `Decoder` protocol only,
/// so it exercises every container kind of whatever decoder it is given.
enum AnyJSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        if var items = try? decoder.unkeyedContainer() {
            var array: [AnyJSON] = []
            while !items.isAtEnd { array.append(try items.decode(AnyJSON.self)) }
            self = .array(array)
            return
        }
        if let members = try? decoder.container(keyedBy: _JSONKey.self) {
            var object: [String: AnyJSON] = [:]
            for key in members.allKeys { object[key.stringValue] = try members.decode(AnyJSON.self, forKey: key) }
            self = .object(object)
            return
        }
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let bool = try? value.decode(Bool.self) {
            self = .bool(bool)
        } else if let string = try? value.decode(String.self) {
            self = .string(string)
        } else {
            self = .number(try value.decode(Double.self))
        }
    }
}

/// Test helpers over the internal engine.
enum Engine {
    /// Decodes a whole document, handing the parser at most `chunk` bytes at a time.
    static func decode<T: Decodable>(_ type: T.Type, _ data: Data, chunk: Int = .max,
                                     decoder: StreamingJSONDecoder = StreamingJSONDecoder()) throws -> T {
        try decoder._decodeDocument(type, size: nil, rereadable: true) { _DataSource(data, chunkLimit: chunk) }
    }

    /// The same, with yajl running on a second thread (the pipeline used for large inputs).
    static func decodePipelined<T: Decodable>(_ type: T.Type, _ data: Data, chunk: Int = .max,
                                              decoder: StreamingJSONDecoder = StreamingJSONDecoder()) throws -> T {
        decoder.pipelining = .always
        defer { decoder.pipelining = .automatic }
        return try decoder._decodeDocument(type, size: nil, rereadable: true) { _DataSource(data, chunkLimit: chunk) }
    }

    /// A decoder that always parses on a second thread.
    static func pipelinedDecoder() -> StreamingJSONDecoder {
        let decoder = StreamingJSONDecoder()
        decoder.pipelining = .always
        return decoder
    }

    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures")
    }
}
