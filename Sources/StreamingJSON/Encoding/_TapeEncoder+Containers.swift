// SPDX-License-Identifier: Apache-2.0
import Foundation

// The three containers. Each is a small struct naming the encoder and the
// tape node it writes into; all state lives in the tape, so copies of a
// container, and a container requested twice, write into the same value.

extension _TapeEncoder {
    var tape: _EncodingTape { context.tape }

    @inline(__always)
    func setNull(_ node: UInt32) {
        unsafe tape.setScalar(node) { $0.writeLiteral("null") }
    }

    @inline(__always)
    func setBool(_ value: Bool, _ node: UInt32) {
        unsafe tape.setScalar(node) { $0.writeBool(value) }
    }

    @inline(__always)
    func setString(_ value: String, _ node: UInt32) {
        let slashes = context.escapesSlashes
        unsafe tape.setScalar(node) { $0.writeString(value, escapesSlashes: slashes) }
    }

    @inline(__always)
    func setInteger<T: FixedWidthInteger>(_ value: T, _ node: UInt32) {
        unsafe tape.setScalar(node) { $0.writeInteger(value) }
    }

    /// An encoder for the value in `node`, one level below this encoder's containers.
    func child(_ node: UInt32, path: _CodingPathNode) -> _TapeEncoder {
        _TapeEncoder(context: context, node: node, path: path, depth: depth + 1)
    }
}

struct _KeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: _TapeEncoder
    let object: UInt32
    let context: _EncodingContext

    init(encoder: _TapeEncoder, object: UInt32) {
        self.encoder = encoder
        self.object = object
        self.context = encoder.context
    }

    var codingPath: [any CodingKey] { encoder.codingPath }

    /// The member for `key` after the key strategy; encoding a key again
    /// replaces its value in place (the last value wins, at the first position).
    private func slot(_ key: Key, replacing: Bool = true) -> UInt32 {
        if context.usesDefaultKeys {
            return unsafe context.tape.member(of: object, key: key.stringValue, replacing: replacing)
        }
        return unsafe context.tape.member(of: object, key: context.convertedKey(key, path: encoder.path), replacing: replacing)
    }

    mutating func encodeNil(forKey key: Key) throws { encoder.setNull(slot(key)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.setBool(value, slot(key)) }
    mutating func encode(_ value: String, forKey key: Key) throws { encoder.setString(value, slot(key)) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try _TapeEncoder.encodeFloat(value, into: slot(key), context: encoder.context, path: encoder.path.appending(key))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try _TapeEncoder.encodeFloat(value, into: slot(key), context: encoder.context, path: encoder.path.appending(key))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { encoder.setInteger(value, slot(key)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { encoder.setInteger(value, slot(key)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { encoder.setInteger(value, slot(key)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { encoder.setInteger(value, slot(key)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { encoder.setInteger(value, slot(key)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { encoder.setInteger(value, slot(key)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { encoder.setInteger(value, slot(key)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { encoder.setInteger(value, slot(key)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { encoder.setInteger(value, slot(key)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { encoder.setInteger(value, slot(key)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try _TapeEncoder.encode(value, into: slot(key), context: encoder.context,
                                path: encoder.path.appending(key), depth: encoder.depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder.child(nestedSlot(key, kind: .object), path: encoder.path.appending(key)).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.child(nestedSlot(key, kind: .array), path: encoder.path.appending(key)).unkeyedContainer()
    }

    /// The member for a nested container: the container already there (asked
    /// for twice, both write into it), or a fresh one replacing a scalar.
    private func nestedSlot(_ key: Key, kind: _EncodingTape.Kind) -> UInt32 {
        let node = slot(key, replacing: false)
        let tape = encoder.tape
        if unsafe tape.nodes[Int(node)].kind != kind { unsafe tape.clear(node) }
        return node
    }

    mutating func superEncoder() -> any Encoder {
        let key = _JSONKey.super
        let context = encoder.context
        let name = context.usesDefaultKeys ? key.stringValue : context.convertedKey(key, path: encoder.path)
        let node = unsafe context.tape.member(of: object, key: name, replacing: true)
        return encoder.child(node, path: encoder.path.appending(key))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.child(slot(key), path: encoder.path.appending(key))
    }
}

struct _UnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: _TapeEncoder
    let array: UInt32

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { unsafe Int(encoder.tape.nodes[Int(array)].count) }

    private func slot() -> UInt32 { unsafe encoder.tape.appendElement(to: array) }
    private var nextPath: _CodingPathNode { encoder.path.appending(index: count) }

    mutating func encodeNil() throws { encoder.setNull(slot()) }
    mutating func encode(_ value: Bool) throws { encoder.setBool(value, slot()) }
    mutating func encode(_ value: String) throws { encoder.setString(value, slot()) }
    mutating func encode(_ value: Double) throws {
        let path = nextPath
        try _TapeEncoder.encodeFloat(value, into: slot(), context: encoder.context, path: path)
    }
    mutating func encode(_ value: Float) throws {
        let path = nextPath
        try _TapeEncoder.encodeFloat(value, into: slot(), context: encoder.context, path: path)
    }
    mutating func encode(_ value: Int) throws { encoder.setInteger(value, slot()) }
    mutating func encode(_ value: Int8) throws { encoder.setInteger(value, slot()) }
    mutating func encode(_ value: Int16) throws { encoder.setInteger(value, slot()) }
    mutating func encode(_ value: Int32) throws { encoder.setInteger(value, slot()) }
    mutating func encode(_ value: Int64) throws { encoder.setInteger(value, slot()) }
    mutating func encode(_ value: UInt) throws { encoder.setInteger(value, slot()) }
    mutating func encode(_ value: UInt8) throws { encoder.setInteger(value, slot()) }
    mutating func encode(_ value: UInt16) throws { encoder.setInteger(value, slot()) }
    mutating func encode(_ value: UInt32) throws { encoder.setInteger(value, slot()) }
    mutating func encode(_ value: UInt64) throws { encoder.setInteger(value, slot()) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = nextPath
        try _TapeEncoder.encode(value, into: slot(), context: encoder.context, path: path, depth: encoder.depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        return encoder.child(slot(), path: path).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        return encoder.child(slot(), path: path).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        return encoder.child(slot(), path: path)
    }
}

struct _SingleValueEncodingContainer: SingleValueEncodingContainer {
    let encoder: _TapeEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }
    private var node: UInt32 { encoder.node }

    mutating func encodeNil() throws { encoder.setNull(node) }
    mutating func encode(_ value: Bool) throws { encoder.setBool(value, node) }
    mutating func encode(_ value: String) throws { encoder.setString(value, node) }
    mutating func encode(_ value: Double) throws {
        try _TapeEncoder.encodeFloat(value, into: node, context: encoder.context, path: encoder.path)
    }
    mutating func encode(_ value: Float) throws {
        try _TapeEncoder.encodeFloat(value, into: node, context: encoder.context, path: encoder.path)
    }
    mutating func encode(_ value: Int) throws { encoder.setInteger(value, node) }
    mutating func encode(_ value: Int8) throws { encoder.setInteger(value, node) }
    mutating func encode(_ value: Int16) throws { encoder.setInteger(value, node) }
    mutating func encode(_ value: Int32) throws { encoder.setInteger(value, node) }
    mutating func encode(_ value: Int64) throws { encoder.setInteger(value, node) }
    mutating func encode(_ value: UInt) throws { encoder.setInteger(value, node) }
    mutating func encode(_ value: UInt8) throws { encoder.setInteger(value, node) }
    mutating func encode(_ value: UInt16) throws { encoder.setInteger(value, node) }
    mutating func encode(_ value: UInt32) throws { encoder.setInteger(value, node) }
    mutating func encode(_ value: UInt64) throws { encoder.setInteger(value, node) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try _TapeEncoder.encode(value, into: node, context: encoder.context, path: encoder.path, depth: encoder.depth)
    }
}
