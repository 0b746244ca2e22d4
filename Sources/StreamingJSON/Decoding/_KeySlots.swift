// SPDX-License-Identifier: Apache-2.0
/// The bytes of the coding keys a reused keyed container has met, by the
/// key's byte: the decoder keeps each key's UTF-8 (`_ObjectContext`), the
/// encoder each key as written, quotes included, with its duplicate-check
/// hash (`_DirectKeyedTarget`).
///
/// A container on a `_ContainerShelf` serves one `Key` type for its whole
/// life. When that type's values are one byte or less with no references (an
/// enum's cases, as synthesized `CodingKeys` are), the byte tells the keys
/// apart: `stringValue`, a call through the witness table that builds a
/// `String`, then runs once per key instead of once per lookup or member.
/// This assumes, as every coder does, that a key's `stringValue` depends on
/// the key alone.
///
/// A pointer and a flag, so that passing it around retains nothing; the
/// owner calls `deallocate()`. Unsafe: every copy dangles after that, and
/// a slot is a pointer into the memory.
@unsafe struct _KeySlots {
    private let slots: UnsafeMutablePointer<_KeyBytes>
    private let keyIsByte: Bool

    /// 256 empty slots for `Key`, or nil when its values are not one trivial byte.
    init?<Key: CodingKey>(for _: Key.Type) {
        guard _isPOD(Key.self) && MemoryLayout<Key>.size <= 1 else { return nil }
        unsafe keyIsByte = MemoryLayout<Key>.size == 1
        unsafe slots = .allocate(capacity: 256)
        unsafe slots.initialize(repeating: _KeyBytes(), count: 256)
    }

    func deallocate() {
        for index in 0..<256 { unsafe slots[index].bytes?.deallocate() }
        unsafe slots.deallocate()
    }

    /// The slot of a key whose value is `byte`.
    func slot(forByte byte: UInt8) -> UnsafeMutablePointer<_KeyBytes> { unsafe slots + Int(byte) }

    /// The slot of `key`: empty (nil bytes) until its first use.
    @inline(__always)
    func slot<Key: CodingKey>(for key: Key) -> UnsafeMutablePointer<_KeyBytes> {
        // A key of size 0 (an enum of one case) is slot 0.
        unsafe slots + (keyIsByte ? Int(unsafeBitCast(key, to: UInt8.self)) : 0)
    }
}

/// A key's bytes as `_KeySlots` keeps them, and a hash for the encoder.
/// Unsafe: the bytes are freed by `_KeySlots.deallocate()`, not by this.
@unsafe struct _KeyBytes {
    /// At least 16 bytes, zero-filled past `count`: the encoder copies short
    /// keys as two words.
    var bytes: UnsafeMutablePointer<UInt8>?
    var count = 0
    var hash: UInt64 = 0

    init() {}

    init(_ source: UnsafeBufferPointer<UInt8>, hash: UInt64 = 0) {
        let capacity = max(source.count, 16)
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        unsafe bytes.initialize(repeating: 0, count: capacity)
        if let start = source.baseAddress { unsafe bytes.update(from: start, count: source.count) }
        unsafe self.bytes = unsafe bytes
        unsafe count = source.count
        unsafe self.hash = hash
    }

    /// The bytes, for lookups.
    @inline(__always)
    var buffer: UnsafeBufferPointer<UInt8> { unsafe UnsafeBufferPointer(start: bytes, count: count) }
}
