// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

/// `convertFromSnakeCase`, as Foundation defines it: underscores at the start
/// and end are kept; the words between are split at runs of underscores, the
/// first is lowercased and the others capitalized, and joined. A key whose
/// middle has no underscore is returned unchanged (it may be camelCase already).
func _convertFromSnakeCase(_ key: String) -> String {
    guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
    guard let lastNonUnderscore = key.lastIndex(where: { $0 != "_" }) else { return key }
    let middle = key[first...lastNonUnderscore]
    let words = middle.split(separator: "_")
    guard words.count > 1 else { return key }
    var result = String(key[..<first])
    result += words[0].lowercased()
    for word in words.dropFirst() {
        result += word.capitalized
    }
    result += key[key.index(after: lastNonUnderscore)...]
    return result
}

// MARK: Lookups with converted keys

/// How a keyed container's lookups read a member's key: as it is in the JSON,
/// or as the key decoding strategy converts it. The lookups are generic over
/// it, so the default spelling costs nothing.
protocol _MemberSpelling {
    /// The bytes that the wanted coding key is compared with, for the member
    /// whose key token is `token`. Valid until the next call.
    func key(_ token: sj_token, in tape: _TapeView) -> UnsafeBufferPointer<UInt8>
}

/// Keys as they are in the JSON.
struct _RawSpelling: _MemberSpelling {
    @inline(__always)
    func key(_ token: sj_token, in tape: _TapeView) -> UnsafeBufferPointer<UInt8> { unsafe tape.bytes(of: token) }
}

/// Keys as `convertFromSnakeCase` converts them. A key without an underscore
/// converts to itself; the others come from the decoder's `_SnakeCaseKeys`.
/// Unsafe: it does not keep the keys alive (a lookup costs no reference
/// count); the keyed container that makes it for a lookup does.
@unsafe struct _SnakeCaseSpelling: _MemberSpelling {
    unowned(unsafe) let keys: _SnakeCaseKeys

    @inline(__always)
    func key(_ token: sj_token, in tape: _TapeView) -> UnsafeBufferPointer<UInt8> {
        let raw = unsafe tape.bytes(of: token)
        return unsafe _containsUnderscore(raw) ? keys.converted(raw) : raw
    }
}

/// Whether `bytes` hold an underscore: a key of up to 16 bytes in one or two
/// words (overlapping loads, as `_equalShortBytes` compares), since most keys
/// are short and have none.
@inline(__always)
func _containsUnderscore(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let start = bytes.baseAddress else { return false }
    let raw = unsafe UnsafeRawPointer(start)
    let count = bytes.count
    // Bytes past the key's are zero in the word, and zero is no underscore.
    switch count {
    case 0:
        return false
    case 1:
        return unsafe start[0] == UInt8(ascii: "_")
    case 2, 3:
        let word = unsafe UInt64(raw.loadUnaligned(as: UInt16.self))
            | UInt64(raw.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)) &<< 16
        return _hasUnderscoreByte(word)
    case 4...7:
        let word = unsafe UInt64(raw.loadUnaligned(as: UInt32.self))
            | UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)) &<< 32
        return _hasUnderscoreByte(word)
    case 8...16:
        return unsafe _hasUnderscoreByte(raw.loadUnaligned(as: UInt64.self))
            || _hasUnderscoreByte(raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
    default:
        return unsafe UnsafeBufferPointer(start: start, count: count).contains(UInt8(ascii: "_"))
    }
}

/// Whether one of the word's bytes is an underscore (a zero byte after the
/// exclusive or, found by the borrow it leaves in its top bit).
@inline(__always)
func _hasUnderscoreByte(_ word: UInt64) -> Bool {
    let x = word ^ 0x5F5F_5F5F_5F5F_5F5F
    return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0
}

/// The `convertFromSnakeCase` spellings of the keys with underscores that a
/// decoder has met: a `_ShortKeySlots` table from a key's bytes to the bytes
/// of its conversion, so that a conversion (through `String`, with
/// Foundation's rules) happens once per key and slot.
@safe final class _SnakeCaseKeys {
    static let slotCount = 256

    private let slots = unsafe _ShortKeySlots(count: _SnakeCaseKeys.slotCount)
    private let conversions: UnsafeMutablePointer<_KeyBytes>
    /// The conversion of a key too long for a slot, made on every lookup.
    private var scratch = unsafe _KeyBytes()

    init() {
        unsafe conversions = .allocate(capacity: Self.slotCount)
        unsafe conversions.initialize(repeating: _KeyBytes(), count: Self.slotCount)
    }

    deinit {
        for slot in 0..<Self.slotCount { unsafe conversions[slot].bytes?.deallocate() }
        unsafe scratch.bytes?.deallocate()
        unsafe slots.deallocate()
        unsafe conversions.deallocate()
    }

    /// The converted spelling of `key`; valid until the next call.
    @inline(__always)
    func converted(_ key: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let (slot, hit) = unsafe slots.slot(for: key) else { return unsafe convertIntoScratch(key) }
        if hit { return unsafe conversions[slot].buffer }
        return unsafe fill(slot, with: key)
    }

    @inline(never)
    private func fill(_ slot: Int, with key: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        unsafe conversions[slot].bytes?.deallocate()
        unsafe conversions[slot] = Self.conversion(of: key)
        unsafe slots.store(key, at: slot)
        return unsafe conversions[slot].buffer
    }

    @inline(never)
    private func convertIntoScratch(_ key: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        unsafe scratch.bytes?.deallocate()
        unsafe scratch = Self.conversion(of: key)
        return unsafe scratch.buffer
    }

    private static func conversion(of key: UnsafeBufferPointer<UInt8>) -> _KeyBytes {
        var converted = _convertFromSnakeCase(unsafe String(decoding: key, as: UTF8.self))
        return converted.withUTF8 { unsafe _KeyBytes($0) }
    }
}
