// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape

/// The tape as its readers see it: the recorded tokens and the arena that
/// holds the bytes of strings, keys and numbers. Every read of the tape —
/// the decoder, the value builder, the tape writer — goes through this type.
///
///     tokens  [ object  key  string  key  array  number  number ]   16 bytes each
///               span=6  │    │       │    span=2 │       │
///     arena   "name" "Pale Ale" "ibus" "40" "42"                    bytes, no quotes
///
/// A container's token counts the tokens inside it (`span`) and its elements
/// or members (`count`); a key's value follows it directly. Strings are kept
/// unescaped and numbers as their literal text.
///
/// A view is a snapshot: the tape's buffers move when it grows or is
/// compacted, so a view is taken again after any call that parses.
@unsafe struct _TapeView {
    let tokens: UnsafePointer<sj_token>
    let arena: UnsafePointer<UInt8>

    @inline(__always)
    init(tokens: UnsafePointer<sj_token>, arena: UnsafePointer<UInt8>) {
        unsafe self.tokens = tokens
        unsafe self.arena = arena
    }

    /// A view of no tape, for a place not yet located (never read).
    static var empty: _TapeView {
        unsafe _TapeView(tokens: UnsafePointer(bitPattern: MemoryLayout<sj_token>.alignment)!,
                         arena: UnsafePointer(bitPattern: 1)!)
    }

    @inline(__always)
    subscript(_ index: Int) -> sj_token { unsafe tokens[index] }

    /// The first byte of a string's, key's or number's text.
    @inline(__always)
    func start(of token: sj_token) -> UnsafePointer<UInt8> { unsafe arena + token.arenaOffset }

    /// The text of a string, key or number token.
    @inline(__always)
    func bytes(of token: sj_token) -> UnsafeBufferPointer<UInt8> {
        unsafe UnsafeBufferPointer(start: arena + token.arenaOffset, count: token.length)
    }

    /// The text of a string, key or number token as a `String`.
    @inline(__always)
    func string(of token: sj_token) -> String { unsafe String(_validatedUTF8: bytes(of: token)) }

    /// Whether the text of a string, key or number token is `name`.
    @inline(__always)
    func text(of token: sj_token, equals name: [UInt8]) -> Bool {
        guard token.length == name.count else { return false }
        return unsafe name.withUnsafeBufferPointer { name in
            guard let base = name.baseAddress else { return true }
            return unsafe _equalBytes(base, start(of: token), name.count)
        }
    }

    /// Whether the object at `index` has no key twice; false also when
    /// `verbatim.c`'s check cannot tell, and the object is then built.
    @inline(__always)
    func hasDistinctKeys(object index: Int) -> Bool {
        unsafe sj_object_keys_distinct(tokens, arena, index) != 0
    }

    /// The index of the next member's key, after the member whose key is at `key`.
    @inline(__always)
    func member(after key: Int) -> Int { unsafe key &+ 1 &+ tokens[key &+ 1].size }

    /// Whether two views read the same buffers.
    @inline(__always)
    func isSame(as other: _TapeView) -> Bool { unsafe tokens == other.tokens && arena == other.arena }
}
