// SPDX-License-Identifier: Apache-2.0

/// The keys of a direct-mapped table of short object keys: each slot holds
/// up to `maxLength` bytes and their length, and a key's slot comes from a
/// hash of its length and four of its bytes. Its owners keep one value per
/// slot beside it (`_KeyCache` a `String`, `_SnakeCaseKeys` a conversion):
/// the keys of a dump repeat from element to element, so a hit costs the
/// hash and one comparison.
///
/// Plain pointers rather than arrays: a class's array properties would pay
/// for a dynamic exclusivity check on every key. Unsafe: the owner calls
/// `deallocate()`, after which every copy dangles.
@unsafe struct _ShortKeySlots {
    /// Longer keys have no slot.
    static let maxLength = 32

    let count: Int
    private let bytes: UnsafeMutablePointer<UInt8>
    private let lengths: UnsafeMutablePointer<Int>

    /// `count` empty slots; `count` is a power of two.
    init(count: Int) {
        unsafe self.count = count
        unsafe bytes = .allocate(capacity: count * Self.maxLength)
        unsafe lengths = .allocate(capacity: count)
        unsafe lengths.initialize(repeating: -1, count: count)
    }

    func deallocate() {
        unsafe bytes.deallocate()
        unsafe lengths.deallocate()
    }

    /// `key`'s slot and whether the slot holds it; nil for an empty key or
    /// one longer than `maxLength`.
    @inline(__always)
    func slot(for key: UnsafeBufferPointer<UInt8>) -> (index: Int, holdsKey: Bool)? {
        let length = key.count
        guard length > 0, unsafe length <= Self.maxLength, let base = key.baseAddress else { return nil }
        var hash = UInt32(truncatingIfNeeded: length)
        hash = unsafe hash &* 31 &+ UInt32(base[0])
        hash = unsafe hash &* 31 &+ UInt32(base[length &- 1])
        hash = unsafe hash &* 31 &+ UInt32(base[length &>> 1])
        hash = unsafe hash &* 31 &+ UInt32(base[length &>> 2])
        hash ^= hash &>> 9
        let index = unsafe Int(hash) & (count &- 1)
        let holdsKey = unsafe lengths[index] == length && _equalBytes(bytes + index &* Self.maxLength, base, length)
        return (index, holdsKey)
    }

    /// Makes slot `index` hold `key` (one `slot(for:)` gave that index).
    func store(_ key: UnsafeBufferPointer<UInt8>, at index: Int) {
        unsafe (bytes + index &* Self.maxLength).update(from: key.baseAddress!, count: key.count)
        unsafe lengths[index] = key.count
    }
}
