// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

/// An unkeyed container over an array on the tape. `count` is known (the
/// array token carries it); a decode that throws does not advance, so the
/// element can be retried as another type, as in Foundation.
struct _UnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: _TapeDecoder
    let node: _CodingPathNode
    let count: Int?
    private(set) var currentIndex = 0
    /// Absolute tape index of the next element.
    private var cursor: Int

    init(decoder: _TapeDecoder, array: Int, path: _CodingPathNode) throws {
        self.decoder = decoder
        self.node = path
        self.count = try decoder.token(at: array, path: path).count
        self.cursor = array + 1
    }

    var codingPath: [any CodingKey] { node.path }
    var isAtEnd: Bool { currentIndex >= count! }

    private var elementPath: _CodingPathNode { node.appending(index: currentIndex) }

    private func next(_ type: Any.Type) throws -> Int {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(
                codingPath: elementPath.path, debugDescription: "Unkeyed container is at end."))
        }
        return cursor
    }

    private mutating func advance() throws {
        cursor = try decoder.indexAfter(cursor, path: elementPath)
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        guard decoder.isNull(at: try next(Never.self)) else { return false }
        try advance()
        return true
    }

    /// Reads the next element with `read`, then moves past it (not on failure).
    @inline(__always)
    private mutating func scalar<T>(
        _ type: T.Type, _ read: (_TapeDecoder, Int, @autoclosure () -> _CodingPathNode) throws -> T
    ) throws -> T {
        let value = try read(decoder, try next(type), elementPath)
        try advance()
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try scalar(type) { try $0.decodeBool(at: $1, path: $2()) } }
    mutating func decode(_ type: String.Type) throws -> String { try scalar(type) { try $0.decodeString(at: $1, path: $2()) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try scalar(type) { try $0.decodeDouble(at: $1, path: $2()) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try scalar(type) { try $0.decodeFloat(at: $1, path: $2()) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

    private mutating func integer<T: FixedWidthInteger>() throws -> T {
        try scalar(T.self) { try $0.decodeInteger(T.self, at: $1, path: $2()) }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try decoder.unwrap(type, at: try next(type), path: elementPath)
        try advance()
        return value
    }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        let index = try next(type)
        if decoder.isNull(at: index) {
            try advance()
            return nil
        }
        return try decode(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try decoder.keyedContainer(NestedKey.self, at: try next(KeyedDecodingContainer<NestedKey>.self),
                                                   path: elementPath)
        try advance()
        return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try decoder.unkeyedContainer(at: try next((any UnkeyedDecodingContainer).self), path: elementPath)
        try advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let sub = decoder.subDecoder(at: try next((any Decoder).self), path: elementPath)
        try advance()
        return sub
    }
}

/// A single-value container: the decoder's current value, any kind.
struct _SingleValueContainer: SingleValueDecodingContainer {
    let decoder: _TapeDecoder
    let value: Int
    let node: _CodingPathNode

    init(decoder: _TapeDecoder, value: Int, path: _CodingPathNode) {
        self.decoder = decoder
        self.value = value
        self.node = path
    }

    var codingPath: [any CodingKey] { node.path }

    func decodeNil() -> Bool { decoder.isNull(at: value) }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeBool(at: value, path: node) }
    func decode(_ type: String.Type) throws -> String { try decoder.decodeString(at: value, path: node) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.decodeDouble(at: value, path: node) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.decodeFloat(at: value, path: node) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decodeInteger(type, at: value, path: node) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeInteger(type, at: value, path: node) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeInteger(type, at: value, path: node) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeInteger(type, at: value, path: node) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeInteger(type, at: value, path: node) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeInteger(type, at: value, path: node) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeInteger(type, at: value, path: node) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeInteger(type, at: value, path: node) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeInteger(type, at: value, path: node) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeInteger(type, at: value, path: node) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.unwrap(type, at: value, path: node) }
}
