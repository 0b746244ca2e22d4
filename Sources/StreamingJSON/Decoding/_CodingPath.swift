// SPDX-License-Identifier: Apache-2.0
/// A coding path as a list that shares its parent: pushing a key while
/// descending costs one small node, and the `[CodingKey]` array is built only
/// when someone asks for `codingPath` (usually an error).
///
/// An element of the root (a streamed array's element, a JSON Lines value)
/// is the one node made per element of a stream, so it is held inline,
/// without a box: no allocation, and copying it retains nothing. Its index
/// is 48 bits in two parts, so that the enum stays one word (the tag goes in
/// bits a pointer never uses); containers that hold a node fit an
/// existential's inline buffer. A larger index takes a box.
enum _CodingPathNode {
    case root
    /// `Index low + high << 32` under the root.
    case element(low: UInt32, high: UInt16)
    /// A key under `parent`: a class, so that a decoder can hand a node out
    /// again once nobody else holds it (`_TapeDecoder.node(appending:to:)`).
    case key(_KeyNode)
    indirect case index(Int, _CodingPathNode)

    func appending(_ key: any CodingKey) -> _CodingPathNode { .key(_KeyNode(key: key, parent: self)) }

    func appending(index: Int) -> _CodingPathNode {
        if case .root = self, index >= 0, index < 1 << 48 {
            return .element(low: UInt32(truncatingIfNeeded: index), high: UInt16(truncatingIfNeeded: index >> 32))
        }
        return .index(index, self)
    }

    /// The keys from the root down; array indices as Foundation names them.
    /// Built for every error, including those a `try?` drops unread: one
    /// array of the path's length, filled from the end.
    var path: [any CodingKey] {
        var depth = 0
        var node = self
        while true {
            switch node {
            case .root: break
            case .element: depth += 1
            case .key(let keyNode):
                depth += 1
                node = unsafe keyNode.parent
                continue
            case .index(_, let parent):
                depth += 1
                node = parent
                continue
            }
            break
        }
        // Empty without `unsafeUninitializedCapacity`: for capacity 0 it
        // writes the count into the shared empty-array singleton, a benign
        // race ThreadSanitizer reports (see `Array._decode`).
        guard depth > 0 else { return [] }
        return unsafe Array(unsafeUninitializedCapacity: depth) { keys, count in
            var slot = depth
            var node = self
            while slot > 0 {
                slot -= 1
                switch node {
                case .root:
                    preconditionFailure("counted above")
                case .element(let low, let high):
                    unsafe (keys.baseAddress! + slot).initialize(to: _JSONKey(index: Int(high) << 32 | Int(low)))
                case .key(let keyNode):
                    unsafe (keys.baseAddress! + slot).initialize(to: keyNode.key)
                    node = unsafe keyNode.parent
                case .index(let index, let parent):
                    unsafe (keys.baseAddress! + slot).initialize(to: _JSONKey(index: index))
                    node = parent
                }
            }
            count = depth
        }
    }
}

/// A key and the path it is under.
final class _KeyNode {
    // Written only by the pool, when it holds the one reference.
    @exclusivity(unchecked) fileprivate(set) var key: any CodingKey
    @exclusivity(unchecked) fileprivate(set) var parent: _CodingPathNode

    init(key: any CodingKey, parent: _CodingPathNode) {
        unsafe self.key = key
        unsafe self.parent = parent
    }
}

/// Key nodes a decoder hands out again: a record type's nested values (a
/// nested struct, an enum with a raw value) each get a node per record, and
/// making one was an allocation and a free. A node is reused only when the
/// pool holds its one reference, so no path anyone holds ever changes.
struct _KeyNodePool {
    private var nodes: [_KeyNode] = []

    /// `key` under `parent`, in a free node of the pool or a new one.
    @inline(__always)
    mutating func node(appending key: some CodingKey, to parent: _CodingPathNode) -> _CodingPathNode {
        var index = 0
        while index < nodes.count {
            if isKnownUniquelyReferenced(&nodes[index]) {
                let node = nodes[index]
                unsafe node.key = key
                unsafe node.parent = parent
                return .key(node)
            }
            index += 1
        }
        let node = _KeyNode(key: key, parent: parent)
        if nodes.count < 4 { nodes.append(node) }
        return .key(node)
    }
}

/// The coding keys the decoder makes up: array indices, `super`, dictionary keys.
///
/// An index's `stringValue` is spelled when read, not when the key is made:
/// every error's coding path holds one, and most errors of a `try?` are
/// never read.
struct _JSONKey: CodingKey, Sendable {
    // One enum, so that the key fits an existential's inline buffer: a
    // coding path boxes none of its indices.
    private enum Spelling: Sendable {
        case name(String)
        /// `"3"`, from `init(intValue:)`.
        case integer(Int)
        /// `"Index 3"`, as Foundation names an array's element.
        case index(Int)
    }

    private let spelling: Spelling

    var stringValue: String {
        switch spelling {
        case .name(let name): return name
        case .integer(let value): return String(value)
        case .index(let value): return "Index \(value)"
        }
    }

    var intValue: Int? {
        switch spelling {
        case .name: return nil
        case .integer(let value), .index(let value): return value
        }
    }

    init(stringValue: String) {
        self.spelling = .name(stringValue)
    }

    init(intValue: Int) {
        self.spelling = .integer(intValue)
    }

    /// An array index, described as Foundation does ("Index 3").
    init(index: Int) {
        self.spelling = .index(index)
    }

    static let `super` = _JSONKey(stringValue: "super")
}
