// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The value being encoded, held as a flat tree until it is written.
///
/// Codable does not encode in output order: a keyed container may be asked
/// for a nested container, then encode a sibling, then fill the nested one; a
/// key may be encoded twice (the last value wins); `superEncoder()` hands out
/// a slot that is filled later; `.sortedKeys` needs all of an object's keys.
/// So an element is first collected here and then written by `_JSONWriter`.
///
/// Layout: two growable buffers, reused from one element to the next.
///
///     nodes:  [ root | member | member | element | ... ]     one `_Node` per value
///     bytes:  [ "Ale" | 4.5 | name | abv | ... ]             scalar output and raw keys
///
/// - A scalar node's bytes are its final output text (strings escaped and
///   quoted, numbers formatted), so writing it is one copy.
/// - A container node links its children through `first`/`last` and each
///   child's `next`; an object member also records its key's raw UTF-8
///   bytes, escaped only when written (sorting compares raw bytes).
/// - A node that nothing has been encoded into yet (behind
///   `superEncoder()`, or a `.custom` date strategy that wrote nothing) is
///   `.empty` and is written as `{}`, as Foundation does.
///
/// Duplicate keys are found by a 64-bit mask of key hashes per object, so
/// the common case (a new key) costs one bit test; objects past
/// `_EncodingTape.indexedObjectSize` members get a dictionary of their keys.
///
/// Safe: it owns the two buffers. A node is an unchecked index into them,
/// so the methods that take one are `@unsafe`: it must be one this tape
/// returned since its last `reset()`.
@safe final class _EncodingTape {
    var nodes = unsafe _Growable<_Node>(capacity: 64)
    /// Scalars' text and raw keys, written by the same `_JSONOutput` methods
    /// as the direct encoder's output, so both paths format alike.
    let bytes = _JSONOutput(capacity: 1024)
    /// Key dictionaries of objects with many members, by node.
    var largeObjects: [UInt32: [[UInt8]: UInt32]] = [:]
    /// A misuse of the `Encoder` protocol that Foundation traps on (asking for
    /// a keyed container where a scalar was encoded); thrown when the value
    /// is done instead of crashing.
    var misuse: EncodingError?

    static let none = UInt32.max
    static let indexedObjectSize = 32

    var root: UInt32 { 0 }

    init() {}

    deinit {
        unsafe nodes.deallocate()
    }

    /// Empties the tape for the next value, keeping its storage.
    func reset() {
        unsafe nodes.removeAll()
        unsafe bytes.truncate(to: 0)
        if !largeObjects.isEmpty { largeObjects.removeAll() }
        misuse = nil
    }

    // MARK: Nodes

    enum Kind: UInt8 {
        case empty, scalar, array, object
    }

    struct _Node {
        var kind: Kind
        /// Scalar: offset of its text in `bytes`. Container: first child.
        var first: UInt32
        /// Scalar: length of its text. Container: last child.
        var last: UInt32
        /// Next sibling in the parent container.
        var next: UInt32 = _EncodingTape.none
        /// Member key's raw bytes in `bytes` (objects' children only).
        var keyStart: UInt32 = 0
        var keyLength: UInt32 = 0
        /// Container: number of children.
        var count: UInt32 = 0
        /// Object: one bit per key hash, for the duplicate check.
        var keyMask: UInt64 = 0

        static let emptyNode = _Node(kind: .empty, first: _EncodingTape.none, last: _EncodingTape.none)
    }

    /// Appends a node with nothing in it yet.
    @inline(__always)
    func appendEmptyNode() -> UInt32 {
        let index = unsafe UInt32(truncatingIfNeeded: nodes.count)
        // Appending to a local copy keeps the access to the stored property
        // instantaneous (see `_Growable`); the copy is stored straight back.
        var nodes = unsafe self.nodes
        unsafe nodes.append(.emptyNode)
        unsafe self.nodes = unsafe nodes
        return index
    }

    /// Makes `node` a container of `kind`, keeping its children if it already
    /// is one (a container requested twice is the same container). Returns
    /// false when the node already holds something else.
    @unsafe func makeContainer(_ node: UInt32, kind: Kind) -> Bool {
        let current = unsafe nodes[Int(node)].kind
        if current == kind { return true }
        guard current == .empty else { return false }
        unsafe nodes[Int(node)].kind = kind
        unsafe nodes[Int(node)].first = Self.none
        unsafe nodes[Int(node)].last = Self.none
        unsafe nodes[Int(node)].count = 0
        unsafe nodes[Int(node)].keyMask = 0
        return true
    }

    /// Replaces what `node` holds with the scalar text `body` writes to `bytes`.
    @inline(__always)
    @unsafe func setScalar(_ node: UInt32, _ body: (_JSONOutput) -> Void) {
        let bytes = self.bytes
        let start = unsafe bytes.count
        body(bytes)
        let end = unsafe bytes.count
        unsafe nodes[Int(node)].kind = .scalar
        unsafe nodes[Int(node)].first = UInt32(truncatingIfNeeded: start)
        unsafe nodes[Int(node)].last = UInt32(truncatingIfNeeded: end - start)
    }

    /// Empties `node` so that a value encoded again under a duplicate key
    /// replaces the old one.
    @unsafe func clear(_ node: UInt32) {
        unsafe nodes[Int(node)].kind = .empty
    }

    // MARK: Arrays

    /// Appends a new empty element to the array `array` and returns it.
    @unsafe func appendElement(to array: UInt32) -> UInt32 {
        let child = appendEmptyNode()
        link(child, into: array)
        return child
    }

    @inline(__always)
    private func link(_ child: UInt32, into container: UInt32) {
        let last = unsafe nodes[Int(container)].last
        if last == Self.none {
            unsafe nodes[Int(container)].first = child
        } else {
            unsafe nodes[Int(last)].next = child
        }
        unsafe nodes[Int(container)].last = child
        unsafe nodes[Int(container)].count &+= 1
    }

    // MARK: Objects

    /// The member of `object` for `key` (raw UTF-8): the existing one when the
    /// key was encoded before, emptied if `replacing`, else a new one.
    @unsafe func member(of object: UInt32, key: String, replacing: Bool) -> UInt32 {
        var key = key
        return key.withUTF8 { unsafe member(of: object, key: $0, replacing: replacing) }
    }

    @unsafe func member(of object: UInt32, key: UnsafeBufferPointer<UInt8>, replacing: Bool) -> UInt32 {
        let bit: UInt64 = unsafe 1 &<< UInt64(Self.keyHash(key) & 63)
        let node = unsafe nodes[Int(object)]
        if node.count >= Self.indexedObjectSize {
            return unsafe indexedMember(of: object, key: key, bit: bit, replacing: replacing)
        }
        if node.keyMask & bit != 0, let existing = unsafe findMember(of: object, key: key) {
            if replacing { unsafe clear(existing) }
            return existing
        }
        let child = unsafe appendMember(to: object, key: key, bit: bit)
        if unsafe nodes[Int(object)].count == UInt32(Self.indexedObjectSize) { buildIndex(of: object) }
        return child
    }

    private func appendMember(to object: UInt32, key: UnsafeBufferPointer<UInt8>, bit: UInt64) -> UInt32 {
        let keyStart = unsafe bytes.count
        unsafe bytes.append(contentsOf: key)
        let child = appendEmptyNode()
        unsafe nodes[Int(child)].keyStart = UInt32(truncatingIfNeeded: keyStart)
        unsafe nodes[Int(child)].keyLength = UInt32(truncatingIfNeeded: key.count)
        unsafe nodes[Int(object)].keyMask |= bit
        link(child, into: object)
        return child
    }

    private func findMember(of object: UInt32, key: UnsafeBufferPointer<UInt8>) -> UInt32? {
        var child = unsafe nodes[Int(object)].first
        while child != Self.none {
            if unsafe keyEquals(child, key) { return child }
            child = unsafe nodes[Int(child)].next
        }
        return nil
    }

    @inline(__always)
    private func keyEquals(_ child: UInt32, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let node = unsafe nodes[Int(child)]
        guard Int(node.keyLength) == key.count else { return false }
        return unsafe key.isEmpty || memcmp(bytes.base + Int(node.keyStart), key.baseAddress!, key.count) == 0
    }

    private func key(of child: UInt32) -> [UInt8] {
        let node = unsafe nodes[Int(child)]
        return unsafe Array(UnsafeBufferPointer(start: bytes.base + Int(node.keyStart), count: Int(node.keyLength)))
    }

    @inline(never)
    private func buildIndex(of object: UInt32) {
        var index: [[UInt8]: UInt32] = [:]
        var child = unsafe nodes[Int(object)].first
        while child != Self.none {
            index[key(of: child)] = child
            child = unsafe nodes[Int(child)].next
        }
        largeObjects[object] = index
    }

    @inline(never)
    private func indexedMember(of object: UInt32, key: UnsafeBufferPointer<UInt8>, bit: UInt64,
                               replacing: Bool) -> UInt32 {
        let keyBytes = unsafe Array(key)
        if let existing = largeObjects[object]?[keyBytes] {
            if replacing { unsafe clear(existing) }
            return existing
        }
        let child = unsafe appendMember(to: object, key: key, bit: bit)
        largeObjects[object, default: [:]][keyBytes] = child
        return child
    }

    /// FNV-1a over at most the first and last 8 bytes: cheap, and only ever
    /// used to skip the duplicate scan.
    @inline(__always)
    static func keyHash(_ key: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash: UInt32 = 2_166_136_261 ^ UInt32(truncatingIfNeeded: key.count)
        let n = key.count
        if n <= 16 {
            for unsafe byte in unsafe key { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        } else {
            for i in 0..<8 { hash = unsafe (hash ^ UInt32(key[i])) &* 16_777_619 }
            for i in (n - 8)..<n { hash = unsafe (hash ^ UInt32(key[i])) &* 16_777_619 }
        }
        return hash ^ (hash >> 16)
    }
}
