// SPDX-License-Identifier: Apache-2.0
/// A JSON object that keeps its keys in order.
///
/// Keys come out in the order they were first inserted (document order for
/// parsed input). Keys are told apart by their bytes, as in JSON: `"é"` and
/// `"e\u{301}"` are two keys, though Swift's `==` takes them for equal. Setting an existing key replaces its value in place, so a
/// duplicate key in input keeps the last value at the first key's position,
/// as jq does. Equality and hashing ignore order (`{"a":1,"b":2}` equals
/// `{"b":2,"a":1}`), as in jq.
///
/// Lookups scan the keys while the object is small and use a dictionary once
/// it has more than 16 members.
///
/// ```swift
/// var object: JSONObject = ["b": 1, "a": 2]
/// object["c"] = "three"
/// object["b"] = nil            // removes "b"
/// object.keys                  // ["a", "c"]
/// for (key, value) in object { print(key, value) }
/// ```
public struct JSONObject: Sendable {
    /// The keys, in order.
    public private(set) var keys: [String] = []
    /// The values, in the order of ``keys``.
    public private(set) var values: [JSONValue] = []
    private var index: [_BytewiseKey: Int]?

    static let indexThreshold = 16

    /// An empty object.
    public init() {}

    /// An object with these members; a repeated key keeps its last value at
    /// its first position.
    public init(_ members: some Sequence<(String, JSONValue)>) {
        for (key, value) in members { self[key] = value }
    }

    /// The number of members.
    public var count: Int { keys.count }
    /// Whether the object has no members.
    public var isEmpty: Bool { keys.isEmpty }

    /// The position of `key`, if present.
    public func position(of key: String) -> Int? {
        if let index { return index[_BytewiseKey(string: key)] }
        return keys.firstIndex { $0._hasSameBytes(as: key) }
    }

    /// The value of `key`, or nil. Setting a value replaces an existing
    /// key's value in place or appends a new key; setting nil removes the key.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { values[$0] } }
        set {
            if let position = position(of: key) {
                if let newValue {
                    values[position] = newValue
                } else {
                    removeMember(at: position)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
                if index != nil {
                    index![_BytewiseKey(string: key)] = keys.count - 1
                } else if keys.count > Self.indexThreshold {
                    buildIndex()
                }
            }
        }
    }

    /// Removes `key` and returns its value, keeping the others' order.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let position = position(of: key) else { return nil }
        let value = values[position]
        removeMember(at: position)
        return value
    }

    private mutating func removeMember(at position: Int) {
        keys.remove(at: position)
        values.remove(at: position)
        if index != nil { buildIndex() }
    }

    private mutating func buildIndex() {
        var built: [_BytewiseKey: Int] = [:]
        built.reserveCapacity(keys.count)
        for (position, key) in keys.enumerated() { built[_BytewiseKey(string: key)] = position }
        index = built
    }

    /// Hook for `_ValueBuilder` and the filter evaluator: an object whose
    /// keys are known to be distinct, built from its two arrays at once
    /// instead of one lookup and one append per member.
    package init(_distinctKeys keys: [String], values: [JSONValue]) {
        self.keys = keys
        self.values = values
        if keys.count > Self.indexThreshold { buildIndex() }
    }

    /// Runs `body` on the value of `key` in place (adding `defaultValue`
    /// first when the key is missing), so that a value held only by this
    /// object is changed without a copy: the filter evaluator's updates.
    package mutating func _modifyValue<Result>(forKey key: String, default defaultValue: JSONValue,
                                               _ body: (inout JSONValue) throws -> Result) rethrows -> Result {
        if let position = position(of: key) { return try body(&values[position]) }
        _appendUnchecked(key, defaultValue)
        return try body(&values[values.count - 1])
    }

    /// Appends a member known not to be present yet (the parser checks).
    mutating func _appendUnchecked(_ key: String, _ value: JSONValue) {
        keys.append(key)
        values.append(value)
        if index != nil {
            index![_BytewiseKey(string: key)] = keys.count - 1
        } else if keys.count > Self.indexThreshold {
            buildIndex()
        }
    }
}

extension JSONObject: Sequence {
    /// A member: its key and value.
    public typealias Element = (key: String, value: JSONValue)

    /// Iterates over the members in order.
    public struct Iterator: IteratorProtocol {
        let object: JSONObject
        var position = 0

        /// The next member, or nil after the last.
        public mutating func next() -> (key: String, value: JSONValue)? {
            guard position < object.keys.count else { return nil }
            defer { position += 1 }
            return (object.keys[position], object.values[position])
        }
    }

    /// An iterator over the members, in order.
    public func makeIterator() -> Iterator { Iterator(object: self) }
    /// The number of members.
    public var underestimatedCount: Int { keys.count }
}

extension JSONObject: Hashable {
    /// The same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.keys.elementsEqual(rhs.keys, by: { $0._hasSameBytes(as: $1) }) { return lhs.values == rhs.values }
        for (key, value) in lhs {
            guard let other = rhs[key], other == value else { return false }
        }
        return true
    }

    /// Order-independent: the members' hashes are combined commutatively.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for (key, value) in self {
            var member = Hasher()
            member.combine(key)
            member.combine(value)
            combined ^= member.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// An object with the literal's members, in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}
