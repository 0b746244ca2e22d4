// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// `getpath`, `setpath` and `delpaths`, with jq's rules, updating values in
/// place: a container held only by the value being changed is mutated, not
/// copied (the enum payload is taken out, changed and put back), so that
/// `reduce … (.; .[$k] += 1)` does not copy its whole state per step.
extension JSONValue {
    /// `getpath(p)`: null once a missing member or null is reached.
    func _get(path: JSONValue) throws -> JSONValue {
        let keys = try Self._keys(of: path)
        var current = self
        for key in keys {
            if case .null = current { return .null }
            current = try _IndexNode.pathIndexForGet(current, key)
        }
        return current
    }

    /// `setpath(p; v)`.
    mutating func _set(path: JSONValue, to value: JSONValue) throws {
        try _update(Self._keys(of: path)[...]) { $0 = value }
    }

    /// The keys of a path given as an array, within jq's bound on its length.
    private static func _keys(of path: JSONValue) throws -> [JSONValue] {
        guard case .array(let keys) = path else { throw JSONFilterError(message: "Path must be specified as an array") }
        guard keys.count <= JSONValue._depthLimit else { throw JSONFilterError(message: "Path too deep") }
        return keys
    }

    /// Runs `body` on the value at `keys`, creating missing members and
    /// positions (arrays padded with null; null becomes what the key asks).
    mutating func _update(_ keys: ArraySlice<JSONValue>, _ body: (inout JSONValue) throws -> Void) throws {
        guard let key = keys.first else { return try body(&self) }
        let rest = keys.dropFirst()
        // `self` is tested by its case alone before its payload is taken:
        // matching a tuple `(self, key)` would hold a second reference and
        // make every update copy the container.
        let isNull: Bool
        if case .null = self { isNull = true } else { isNull = false }
        switch key {
        case .string(let name):
            if isNull {
                var member = JSONValue.null
                try member._update(rest, body)
                self = .object(JSONObject([(name, member)]))
                return
            }
            guard case .object(var object) = self else { break }
            self = .null
            defer { self = .object(object) }
            try object._modifyValue(forKey: name, default: .null) { try $0._update(rest, body) }
            return
        case .number:
            var array: [JSONValue] = []
            if !isNull {
                guard case .array(let existing) = self else { break }
                array = existing
            }
            self = .null
            defer { self = .array(array) }
            let position = try Self.writablePosition(key, count: array.count)
            if array.count <= position { array.append(contentsOf: repeatElement(.null, count: position - array.count + 1)) }
            try array[position]._update(rest, body)
            return
        case .object:
            var array: [JSONValue] = []
            if !isNull {
                guard case .array(let existing) = self else { break }
                array = existing
            }
            let range = try _Access.sliceRange(key["start"] ?? .null, key["end"] ?? .null, count: array.count)
            var slice = JSONValue.array(Array(array[range]))
            try slice._update(rest, body)
            guard case .array(let replacement) = slice else {
                throw JSONFilterError(message: "A slice of an array can only be assigned another array")
            }
            self = .null
            array.replaceSubrange(range, with: replacement)
            self = .array(array)
            return
        default:
            break
        }
        // As jq: the member is read first (its error wins); what can be read
        // but not written is refused by kind.
        _ = try _IndexNode.pathIndexForGet(self, key)
        if case .string = self, case .object = key { throw JSONFilterError(message: "Cannot update string slices") }
        throw JSONFilterError(message: "Cannot update field at \(key.typeName) index of \(typeName)")
    }

    /// An array position to write: negative counts from the end (an error
    /// before the start), and jq's bound on growth.
    private static func writablePosition(_ key: JSONValue, count: Int) throws -> Int {
        guard case .number(let number) = key else { return 0 }
        let value = number.double
        if value.isNaN { throw JSONFilterError(message: "Cannot set array element at NaN index") }
        var position = _truncatedIndex(value)
        if position < 0 {
            position += count
            guard position >= 0 else { throw JSONFilterError(message: "Out of bounds negative array index") }
        }
        guard position <= Int(Int32.max >> 2) else { throw JSONFilterError(message: "Array index too large") }
        return position
    }

    /// `delpaths(ps)`: the paths sorted, the last deleted first so that
    /// earlier positions stay valid, each once.
    mutating func _delete(paths: JSONValue) throws {
        guard case .array(let all) = paths else { throw JSONFilterError(message: "Paths must be specified as an array") }
        // The usual `del(.a.b)`: one path of member names needs neither
        // resolving nor sorting.
        if all.count == 1, case .array(let keys) = all[0], keys.count <= JSONValue._depthLimit,
           keys.allSatisfy({ if case .string = $0 { true } else { false } }) {
            if keys.isEmpty { self = .null } else { try _delete(keys[...]) }
            return
        }
        // Negative indices and slice bounds are made absolute against the
        // value before any deletion, so that deleting from the end first
        // leaves them meaning what they meant.
        let absolute = try all.map { path -> JSONValue in
            guard case .array(let keys) = path else {
                throw JSONFilterError(message: "Path must be specified as array, not \(path.typeName)")
            }
            guard keys.count <= JSONValue._depthLimit else { throw JSONFilterError(message: "Path too deep") }
            return .array(self._absolute(keys))
        }
        var previous: JSONValue?
        for path in try absolute.sorted(by: JSONValue._less).reversed() {
            // A path given twice is deleted once, as jq deletes a level's keys all at once.
            defer { previous = path }
            if let previous, try JSONValue._compare(previous, path) == 0 { continue }
            guard case .array(let keys) = path else { continue }
            if keys.isEmpty {
                self = .null
                continue
            }
            try _delete(keys[...])
        }
    }

    /// `keys` with negative array positions and slices resolved against
    /// this value (as far as it reaches).
    private func _absolute(_ keys: [JSONValue]) -> [JSONValue] {
        var result: [JSONValue] = []
        var current: JSONValue? = self
        for key in keys {
            guard case .array(let array)? = current else {
                result.append(key)
                current = current.flatMap { try? _Access.index($0, key) }
                continue
            }
            switch key {
            case .number(let n) where n.double < 0 && n.double + Double(array.count) >= 0:
                let position = _truncatedIndex(n.double) + array.count
                result.append(.number(JSONNumber(position)))
                current = array.indices.contains(position) ? array[position] : nil
            case .object:
                // A slice without both bounds is left as it is, for `_delete` to refuse.
                if let start = key["start"], let end = key["end"],
                   let range = try? _Access.sliceRange(start, end, count: array.count) {
                    result.append(_Access.sliceKey(.number(JSONNumber(range.lowerBound)), .number(JSONNumber(range.upperBound))))
                } else {
                    result.append(key)
                }
                current = nil
            default:
                result.append(key)
                current = try? _Access.index(array.isEmpty ? .array([]) : .array(array), key)
            }
        }
        return result
    }

    mutating func _delete(_ keys: ArraySlice<JSONValue>) throws {
        guard let key = keys.first else { return }
        let rest = keys.dropFirst()
        if case .null = self {
            // Nothing to delete; a deeper path still indexes null (jq's `jv_get`).
            if !rest.isEmpty { _ = try _IndexNode.pathIndexForGet(self, key) }
            return
        }
        // Matched by case first, payload taken after (see `_update`).
        let kind: Int
        switch self {
        case .object: kind = 1
        case .array: kind = 2
        default: kind = 0
        }
        switch (kind, key) {
        case (1, .string(let name)):
            guard case .object(var object) = self else { return }
            guard object.position(of: name) != nil else { return }
            self = .null
            defer { self = .object(object) }
            if rest.isEmpty {
                object.removeValue(forKey: name)
            } else {
                try object._modifyValue(forKey: name, default: .null) { try $0._delete(rest) }
            }
        case (2, .number(let number)):
            guard case .array(var array) = self else { return }
            if number.double.isNaN { return }
            var position = _truncatedIndex(number.double)
            if position < 0 { position += array.count }
            guard array.indices.contains(position) else { return }
            self = .null
            defer { self = .array(array) }
            if rest.isEmpty {
                array.remove(at: position)
            } else {
                try array[position]._delete(rest)
            }
        case (2, .object):
            guard case .array(var array) = self else { return }
            // Both bounds must be present (null for an open end), as `path(.[a:b])` writes them.
            guard let start = key["start"], let end = key["end"] else {
                throw JSONFilterError(message: "Array/string slice indices must be integers")
            }
            let range = try _Access.sliceRange(start, end, count: array.count)
            self = .null
            defer { self = .array(array) }
            if rest.isEmpty {
                array.removeSubrange(range)
            } else {
                var slice = JSONValue.array(Array(array[range]))
                try slice._delete(rest)
                if case .array(let replaced) = slice { array.replaceSubrange(range, with: replaced) }
            }
        default:
            try _deleteMismatch(key, deeper: rest)
        }
    }

    /// A key this value cannot delete at: jq 1.8.2's messages. A deeper path
    /// first indexes the value as `getpath` would, and fails as that does.
    @inline(never)
    private func _deleteMismatch(_ key: JSONValue, deeper rest: ArraySlice<JSONValue>) throws {
        if !rest.isEmpty {
            var inner = try _IndexNode.pathIndexForGet(self, key)
            try inner._delete(rest)
            return
        }
        switch self {
        case .array: throw JSONFilterError(message: "Cannot delete \(key.typeName) element of array")
        case .object: throw JSONFilterError(message: "Cannot delete \(key.typeName) field of object")
        default: throw JSONFilterError(message: "Cannot delete fields from \(typeName)")
        }
    }
}

extension _IndexNode {
    /// Indexing as `getpath` does it (`jv_getpath`): like `.[k]`.
    static func pathIndexForGet(_ container: JSONValue, _ key: JSONValue) throws -> JSONValue {
        try _Access.index(container, key)
    }
}
