// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

/// Builds `JSONValue`s from the tape for `_ValueReader`: the same values as
/// `JSONValue._decode(from:at:path:)`, with less work per object.
///
/// An object's members are collected into two arrays sized once from the
/// tape's member count, and become a `JSONObject` without a lookup per key
/// when the tape's bytes show the keys distinct (`sj_object_keys_distinct`).
/// An object with a repeated key goes through `JSONObject`'s subscript,
/// which applies jq's rule (the last value, at the first key's place).
///
/// Keys repeat from element to element (every record of a dump has the same
/// ones), so their `String`s come from `_KeyCache` instead of being validated
/// and, past 15 bytes, allocated again for every object.
struct _ValueBuilder {
    private let keys = _KeyCache()

    /// The value whose first token is `tape[index]`.
    func value(at index: Int, in tape: _TapeView) -> JSONValue {
        var cursor = index
        return unsafe build(&cursor, tape)
    }

    /// The value at `tape[index]`; when it is an object and `members` is
    /// given, with only those members (the others are skipped on the tape).
    func value(at index: Int, in tape: _TapeView, keeping members: _Projection?) -> JSONValue {
        guard let members, unsafe tape[index].kind == _Kind.object else {
            return unsafe value(at: index, in: tape)
        }
        var object = JSONObject()
        var cursor = index + 1
        for _ in unsafe 0..<tape[index].count {
            let token = unsafe tape[cursor]
            let kept = members.names.contains { unsafe tape.text(of: token, equals: $0) }
            if kept {
                unsafe object[self.key(at: cursor, in: tape)] = unsafe value(at: cursor + 1, in: tape)
            }
            cursor = unsafe tape.member(after: cursor)
        }
        return .object(object)
    }

    private func build(_ cursor: inout Int, _ tape: _TapeView) -> JSONValue {
        let token = unsafe tape[cursor]
        cursor += 1
        switch token.kind {
        case _Kind.null:
            return .null
        case _Kind.true:
            return .bool(true)
        case _Kind.false:
            return .bool(false)
        case _Kind.number:
            return unsafe .number(JSONNumber(validatedText: tape.string(of: token)))
        case _Kind.string:
            return unsafe .string(tape.string(of: token))
        case _Kind.array:
            var array: [JSONValue] = []
            array.reserveCapacity(token.count)
            for _ in 0..<token.count { unsafe array.append(build(&cursor, tape)) }
            return .array(array)
        default:  // object: key tokens alternate with values
            let count = token.count
            guard count > 0 else { return .object(JSONObject()) }
            var keys: [String] = []
            var values: [JSONValue] = []
            keys.reserveCapacity(count)
            values.reserveCapacity(count)
            let distinct = unsafe tape.hasDistinctKeys(object: cursor - 1)
            for _ in 0..<count {
                let key = unsafe tape[cursor]
                cursor += 1
                unsafe keys.append(self.keys.string(tape.bytes(of: key)))
                unsafe values.append(build(&cursor, tape))
            }
            if distinct { return .object(JSONObject(_distinctKeys: keys, values: values)) }
            var object = JSONObject()
            for position in 0..<count { object[keys[position]] = values[position] }
            return .object(object)
        }
    }

    /// The key of the member whose key token is `tape[index]`.
    func key(at index: Int, in tape: _TapeView) -> String {
        unsafe keys.string(tape.bytes(of: tape[index]))
    }
}

/// Strings for recently seen object keys: a `_ShortKeySlots` table from a
/// key's bytes to the `String` made from them. A miss makes the string and
/// takes the slot; longer keys are made every time (they are rare).
///
/// Safe: it owns the slots; a key's bytes are copied in, bounded by their size.
@safe final class _KeyCache {
    static let slotCount = 512

    private let slots = unsafe _ShortKeySlots(count: _KeyCache.slotCount)
    private let strings: UnsafeMutablePointer<String>

    init() {
        unsafe strings = .allocate(capacity: Self.slotCount)
        unsafe strings.initialize(repeating: "", count: Self.slotCount)
    }

    deinit {
        unsafe slots.deallocate()
        unsafe strings.deinitialize(count: Self.slotCount)
        unsafe strings.deallocate()
    }

    /// The string of a key's bytes on the tape (valid UTF-8).
    @inline(__always)
    func string(_ key: UnsafeBufferPointer<UInt8>) -> String {
        guard let (slot, hit) = unsafe slots.slot(for: key) else { return unsafe String(_validatedUTF8: key) }
        if hit { return unsafe strings[slot] }
        let string = unsafe String(_validatedUTF8: key)
        unsafe slots.store(key, at: slot)
        unsafe strings[slot] = string
        return string
    }
}

/// `_equalBytes` for keys, most of which are under 16 bytes: two loads of
/// each side (overlapping when shorter than twice the width) instead of a
/// loop over the bytes.
@inline(__always)
func _equalShortBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    let a = unsafe UnsafeRawPointer(a), b = unsafe UnsafeRawPointer(b)
    switch count {
    case 0:
        return true
    case 1:
        return unsafe a.load(as: UInt8.self) == b.load(as: UInt8.self)
    case 2, 3:
        return unsafe a.loadUnaligned(as: UInt16.self) == b.loadUnaligned(as: UInt16.self)
            && a.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)
                == b.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)
    case 4...7:
        return unsafe a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
            && a.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
                == b.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
    case 8...16:
        return unsafe a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
            && a.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
                == b.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    default:
        return unsafe _equalBytes(a.assumingMemoryBound(to: UInt8.self), b.assumingMemoryBound(to: UInt8.self), count)
    }
}

/// Whether `count` bytes at `a` and `b` are equal: eight at a time, inline,
/// since keys are short and a call to `memcmp` costs more than the comparison.
@inline(__always)
func _equalBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    var offset = 0
    while offset + 8 <= count {
        if unsafe UnsafeRawPointer(a + offset).loadUnaligned(as: UInt64.self)
            != UnsafeRawPointer(b + offset).loadUnaligned(as: UInt64.self) { return false }
        offset += 8
    }
    while offset < count {
        if unsafe a[offset] != b[offset] { return false }
        offset += 1
    }
    return true
}

/// The members of object elements a consumer reads (`JSONFilter.observedMembers`):
/// the parser records only these (`_ParserLimits.recordedMembers`).
package struct _Projection: Sendable {
    /// The member keys' UTF-8.
    let names: [[UInt8]]

    package init(_ names: Set<String>) {
        self.names = names.map { Array($0.utf8) }
    }
}
