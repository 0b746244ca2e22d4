// SPDX-License-Identifier: Apache-2.0

extension String {
    /// Whether both strings hold the same UTF-8 bytes.
    ///
    /// JSON (and jq) compare strings by their code points: `"é"` (U+00E9)
    /// and `"é"` (`e` and U+0301) are two strings and two object keys. The
    /// standard library's `==` compares by canonical equivalence and would
    /// take them for one; ``JSONValue`` and ``JSONObject`` compare with this.
    package func _hasSameBytes(as other: String) -> Bool {
        var (left, right) = (self, other)
        return left.withUTF8 { a in
            right.withUTF8 { b in
                guard a.count == b.count else { return false }
                return unsafe a.elementsEqual(b)
            }
        }
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
