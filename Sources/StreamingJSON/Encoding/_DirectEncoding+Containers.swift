// SPDX-License-Identifier: Apache-2.0
import Foundation

// The encoder and containers of `_DirectEncoding`. Each is a small struct:
// the shared state and the frame it writes into (index and serial), or for a
// keyed container a reference to both, so a copy costs one retain. All state
// lives in `_DirectEncoding`.

extension _DirectEncoding {
    /// A keyed container over `frame`: one from the shelf when one is free.
    func keyedContainer<Key: CodingKey>(_: Key.Type, frame: Int, serial: UInt64) -> KeyedEncodingContainer<Key> {
        guard unsafe shelf.isEnabled else {
            return KeyedEncodingContainer(_DirectKeyedContainer<Key>(state: self, frame: frame, serial: serial))
        }
        let keyType = ObjectIdentifier(Key.self)
        if let shelved = unsafe shelf.take(keyType) {
            unsafe shelved.context._withUnsafeGuaranteedRef {
                $0.frame = frame
                $0.serial = serial
            }
            return unsafe unsafeBitCast(shelved.box, to: KeyedEncodingContainer<Key>.self)
        }
        let container = _DirectKeyedContainer<Key>(state: self, frame: frame, serial: serial)
        guard unsafe shelf.hasRoom(for: KeyedEncodingContainer<Key>.self) else { return KeyedEncodingContainer(container) }
        // Shelved, the target serves `Key` alone for its whole life.
        if keyMode == .plain { unsafe container.target.spellings = unsafe _KeySlots(for: Key.self) }
        let keyed = KeyedEncodingContainer(container)
        unsafe shelf.keep(keyed, keyType: keyType, context: container.target)
        return keyed
    }

    /// Keeps keyed containers for reuse while the scope lives (held by the
    /// owner of this encoding).
    func shelfScope() -> _ContainerShelfScope {
        _ContainerShelfScope(enable: { unsafe self.shelf.isEnabled = true }, end: { unsafe self.shelf.removeAll() })
    }
}

struct _DirectEncoder: Encoder {
    let state: _DirectEncoding
    let frame: Int
    let serial: UInt64

    var codingPath: [any CodingKey] { state.codingPath(frame, serial) }
    var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let open = state.openContainer(frame, serial, .object)
        return state.keyedContainer(Key.self, frame: open ? frame : -1, serial: serial)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let open = state.openContainer(frame, serial, .array)
        return _DirectUnkeyedContainer(state: state, frame: open ? frame : -1, serial: serial)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        _DirectSingleValueContainer(state: state, frame: frame, serial: serial)
    }
}

struct _DirectKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    /// Where it writes: a class, so that a shelved container can be pointed
    /// at another frame (`_ContainerShelf`).
    let target: _DirectKeyedTarget
    /// `target.state`, held here too: read through `target`, or through an
    /// unowned reference, it was retained and released on every call.
    let state: _DirectEncoding

    @inline(__always) var frame: Int { target.frame }
    @inline(__always) var serial: UInt64 { target.serial }

    init(state: _DirectEncoding, frame: Int, serial: UInt64) {
        target = _DirectKeyedTarget(state: state, frame: frame, serial: serial)
        self.state = state
    }

    var codingPath: [any CodingKey] { state.codingPath(frame, serial) }

    mutating func encodeNil(forKey key: Key) throws {
        unsafe try state.beginMember(frame, serial, key, spellings: target.spellings)
        state.out.writeLiteral("null")
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        unsafe try state.beginMember(frame, serial, key, spellings: target.spellings)
        state.writeBool(value)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        unsafe try state.beginMember(frame, serial, key, spellings: target.spellings)
        state.writeString(value)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        unsafe try state.beginMember(frame, serial, key, spellings: target.spellings)
        try state.writeDouble(value)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        unsafe try state.beginMember(frame, serial, key, spellings: target.spellings)
        try state.writeFloat(value)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try integer(value, key) }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ value: T, _ key: Key) throws {
        unsafe try state.beginMember(frame, serial, key, spellings: target.spellings)
        state.out.writeInteger(value)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        unsafe try state.beginMember(frame, serial, key, spellings: target.spellings)
        if try state.encodeFast(value, level: frame &+ 1) { return }
        try state.encodeNested(value, parent: frame, segment: .key(key))
    }

    // `encodeIfPresent` here rather than the protocol's generic defaults.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { if let value { try integer(value, key) } }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { if let value { try integer(value, key) } }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { if let value { try integer(value, key) } }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { if let value { try integer(value, key) } }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { if let value { try integer(value, key) } }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { if let value { try integer(value, key) } }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { if let value { try integer(value, key) } }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { if let value { try integer(value, key) } }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { if let value { try integer(value, key) } }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { if let value { try integer(value, key) } }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let (nested, nestedSerial) = state.openNested(frame, serial, key: key, kind: .object)
        return state.keyedContainer(NestedKey.self, frame: nested, serial: nestedSerial)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let (nested, nestedSerial) = state.openNested(frame, serial, key: key, kind: .array)
        return _DirectUnkeyedContainer(state: state, frame: nested, serial: nestedSerial)
    }

    mutating func superEncoder() -> any Encoder {
        let (slot, slotSerial) = state.openSuper(frame, serial, key: _JSONKey.super)
        return _DirectEncoder(state: state, frame: slot, serial: slotSerial)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let (slot, slotSerial) = state.openSuper(frame, serial, key: key)
        return _DirectEncoder(state: state, frame: slot, serial: slotSerial)
    }
}

/// The frame a keyed container writes into.
/// Safe: it owns `spellings`, freed when it goes.
@safe final class _DirectKeyedTarget {
    let state: _DirectEncoding
    var frame: Int
    var serial: UInt64
    /// The keys written so far, as written, when this target is shelved for
    /// a one-byte key type (see `_KeySlots`).
    var spellings: _KeySlots?

    init(state: _DirectEncoding, frame: Int, serial: UInt64) {
        self.state = state
        self.frame = frame
        self.serial = serial
    }

    deinit { unsafe spellings?.deallocate() }
}

struct _DirectUnkeyedContainer: UnkeyedEncodingContainer {
    let state: _DirectEncoding
    let frame: Int
    let serial: UInt64

    var codingPath: [any CodingKey] { state.codingPath(frame, serial) }
    var count: Int { state.elementCount(frame, serial) }

    mutating func encodeNil() throws {
        _ = try state.beginElement(frame, serial)
        state.out.writeLiteral("null")
    }
    mutating func encode(_ value: Bool) throws {
        _ = try state.beginElement(frame, serial)
        state.writeBool(value)
    }
    mutating func encode(_ value: String) throws {
        _ = try state.beginElement(frame, serial)
        state.writeString(value)
    }
    mutating func encode(_ value: Double) throws {
        _ = try state.beginElement(frame, serial)
        try state.writeDouble(value)
    }
    mutating func encode(_ value: Float) throws {
        _ = try state.beginElement(frame, serial)
        try state.writeFloat(value)
    }
    mutating func encode(_ value: Int) throws { try integer(value) }
    mutating func encode(_ value: Int8) throws { try integer(value) }
    mutating func encode(_ value: Int16) throws { try integer(value) }
    mutating func encode(_ value: Int32) throws { try integer(value) }
    mutating func encode(_ value: Int64) throws { try integer(value) }
    mutating func encode(_ value: UInt) throws { try integer(value) }
    mutating func encode(_ value: UInt8) throws { try integer(value) }
    mutating func encode(_ value: UInt16) throws { try integer(value) }
    mutating func encode(_ value: UInt32) throws { try integer(value) }
    mutating func encode(_ value: UInt64) throws { try integer(value) }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ value: T) throws {
        _ = try state.beginElement(frame, serial)
        state.out.writeInteger(value)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = try state.beginElement(frame, serial)
        if try state.encodeFast(value, level: frame &+ 1) { return }
        try state.encodeNested(value, parent: frame, segment: .index(index))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let (nested, nestedSerial) = state.openNestedElement(frame, serial, kind: .object)
        return state.keyedContainer(NestedKey.self, frame: nested, serial: nestedSerial)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let (nested, nestedSerial) = state.openNestedElement(frame, serial, kind: .array)
        return _DirectUnkeyedContainer(state: state, frame: nested, serial: nestedSerial)
    }

    mutating func superEncoder() -> any Encoder {
        let (slot, slotSerial) = state.openSuperElement(frame, serial)
        return _DirectEncoder(state: state, frame: slot, serial: slotSerial)
    }
}

struct _DirectSingleValueContainer: SingleValueEncodingContainer {
    let state: _DirectEncoding
    let frame: Int
    let serial: UInt64

    var codingPath: [any CodingKey] { state.codingPath(frame, serial) }

    mutating func encodeNil() throws {
        try state.beginSingle(frame, serial, fill: true)
        state.out.writeLiteral("null")
    }
    mutating func encode(_ value: Bool) throws {
        try state.beginSingle(frame, serial, fill: true)
        state.writeBool(value)
    }
    mutating func encode(_ value: String) throws {
        try state.beginSingle(frame, serial, fill: true)
        state.writeString(value)
    }
    mutating func encode(_ value: Double) throws {
        try state.beginSingle(frame, serial, fill: true)
        try state.writeDouble(value)
    }
    mutating func encode(_ value: Float) throws {
        try state.beginSingle(frame, serial, fill: true)
        try state.writeFloat(value)
    }
    mutating func encode(_ value: Int) throws { try integer(value) }
    mutating func encode(_ value: Int8) throws { try integer(value) }
    mutating func encode(_ value: Int16) throws { try integer(value) }
    mutating func encode(_ value: Int32) throws { try integer(value) }
    mutating func encode(_ value: Int64) throws { try integer(value) }
    mutating func encode(_ value: UInt) throws { try integer(value) }
    mutating func encode(_ value: UInt8) throws { try integer(value) }
    mutating func encode(_ value: UInt16) throws { try integer(value) }
    mutating func encode(_ value: UInt32) throws { try integer(value) }
    mutating func encode(_ value: UInt64) throws { try integer(value) }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ value: T) throws {
        try state.beginSingle(frame, serial, fill: true)
        state.out.writeInteger(value)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try state.beginSingle(frame, serial, fill: false)
        try state.encodeInto(value, frame: frame, serial: serial)
    }
}
