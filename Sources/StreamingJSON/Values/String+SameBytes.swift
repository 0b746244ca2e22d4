// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// Whether both strings hold the same UTF-8 bytes.
    ///
    /// JSON (and jq) compare strings by their code points: `"é"` (U+00E9)
    /// and `"é"` (`e` and U+0301) are two strings and two object keys. The
    /// standard library's `==` compares by canonical equivalence and would
    /// take them for one; ``JSONValue`` and ``JSONObject`` compare with this.
    package func _hasSameBytes(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        return unsafe other.utf8.withContiguousStorageIfAvailable { unsafe _hasUTF8($0) }
            ?? utf8.elementsEqual(other.utf8)
    }

    /// Whether the string's UTF-8 is exactly `bytes` (one `memcmp`).
    package func _hasUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard utf8.count == bytes.count else { return false }
        let compared = unsafe utf8.withContiguousStorageIfAvailable { own in
            unsafe (bytes.isEmpty || memcmp(own.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
        return unsafe compared ?? utf8.elementsEqual(bytes)
    }
}

/// A string as a dictionary key that tells strings apart by their bytes
/// (see `_hasSameBytes(as:)`): the index of a large ``JSONObject``.
struct _BytewiseKey: Hashable {
    let string: String

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.string._hasSameBytes(as: rhs.string) }

    // The standard library's hash of a string is equal for equal bytes (it
    // is equal for canonically equivalent strings, a coarser relation).
    func hash(into hasher: inout Hasher) { hasher.combine(string) }
}
