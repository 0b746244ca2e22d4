// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape

// Outputs made of member paths (`.brewery.name`, `{name, city:
// .brewery.city}`), found and written on the tape without building the
// element (`jsonstream`; see `JSONFilter.memberProgram`).
extension _ValueReader {
    /// What `writeLastElementMembers` did.
    package enum MemberWriting {
        /// The member's value was written; whether it is `false` or `null`.
        case written(isFalseOrNull: Bool)
        /// A value on the path is neither an object nor `null`: nothing was
        /// written, and the filter, run on the value, says what is wrong.
        case needsFilter
    }

    /// Writes the output `layout` makes of the element last returned, from
    /// the tape, without building anything: each path as `.a.b` reads it
    /// (of repeated names the last, the value jq keeps; `null` for a missing
    /// member or one under `null`). `rawStrings`: a string that is the whole
    /// output is written as its text (`-r`).
    package func writeLastElementMembers(_ layout: _MemberLayout, with writer: _JQWriter, level: Int,
                                         rawStrings: Bool, into bytes: inout [UInt8]) -> MemberWriting {
        guard let root = lastElementIndex else { return .needsFilter }
        let view = unsafe stream.view
        guard let keys = layout.keys else {
            guard let found = unsafe resolve(0, of: layout, from: root, in: view) else { return .needsFilter }
            return unsafe write(found, with: writer, level: level, rawStrings: rawStrings, in: view, into: &bytes)
        }
        // Every path found before anything is written.
        return unsafe withUnsafeTemporaryAllocation(of: Found.self, capacity: keys.count) { found in
            for position in keys.indices {
                guard let value = unsafe resolve(position, of: layout, from: root, in: view) else { return .needsFilter }
                unsafe found.initializeElement(at: position, to: value)
            }
            writer.beginContainer(isObject: true, into: &bytes)
            for (position, key) in keys.enumerated() {
                writer.writeContainerMemberStart(key: key, first: position == 0, into: &bytes)
                _ = unsafe write(found[position], with: writer, level: level + 1, rawStrings: false, in: view,
                                 into: &bytes)
            }
            writer.endContainer(isObject: true, isEmpty: keys.isEmpty, into: &bytes)
            return .written(isFalseOrNull: false)
        }
    }

    /// The value at `path` (member names as UTF-8) of the element last
    /// returned, as a test against a constant that is not a container sees
    /// it (`JSONFilterCondition`): of repeated names the last, `null` for a
    /// missing member or one under `null`, a scalar built from the tape, an
    /// array or object as an empty one of its kind (such a test decides by
    /// type alone there, so nothing it does not read is built); nil where a
    /// value on the way is neither an object nor `null`.
    package func lastElementTestValue(at path: [[UInt8]]) -> JSONValue? {
        guard let root = lastElementIndex else { return nil }
        let view = unsafe stream.view
        guard let found = unsafe member(path, from: root, in: view) else { return nil }
        guard let index = found else { return .null }
        switch unsafe view[index].kind {
        case _Kind.array: return .array([])
        case _Kind.object: return .object(JSONObject())
        default: return unsafe builder.value(at: index, in: view)
        }
    }

    /// What one path of a layout gives.
    private enum Found {
        /// The value at a tape index; nil: `null`.
        case value(Int?)
        /// `path | length`, computed on the tape.
        case length(Int)
    }

    /// Path `position` of `layout` from the value at `root`; nil where the
    /// filter must run: a value on the way is neither an object nor `null`,
    /// or `length` of a value whose length is not read on the tape (a
    /// number, a boolean, an object with a repeated key).
    private func resolve(_ position: Int, of layout: _MemberLayout, from root: Int, in view: _TapeView) -> Found? {
        guard let found = unsafe member(layout.paths[position], from: root, in: view) else { return nil }
        guard layout.lengths[position] else { return .value(found) }
        guard let index = found else { return .length(0) }
        let token = unsafe view[index]
        switch token.kind {
        case _Kind.array:
            return .length(token.count)
        case _Kind.object:
            return unsafe view.hasDistinctKeys(object: index) ? .length(token.count) : nil
        case _Kind.string:
            // Unicode scalars: the bytes that do not continue one.
            return unsafe .length(view.bytes(of: token).reduce(0) { $0 &+ ($1 & 0xC0 == 0x80 ? 0 : 1) })
        default:
            return nil
        }
    }

    /// The value at `path` from the value at `root`: its tape index, `.some(nil)`
    /// for `null`, nil where a value on the way is neither an object nor `null`.
    private func member(_ path: [[UInt8]], from root: Int, in view: _TapeView) -> Int?? {
        var index = root
        for name in path {
            let kind = unsafe view[index].kind
            if kind == _Kind.object, let member = unsafe lastMember(named: name, of: index, in: view) {
                index = member
                continue
            }
            guard kind == _Kind.object || kind == _Kind.null else { return nil }
            return .some(nil)
        }
        return index
    }

    /// Writes what a path found.
    private func write(_ found: Found, with writer: _JQWriter, level: Int, rawStrings: Bool, in view: _TapeView,
                       into bytes: inout [UInt8]) -> MemberWriting {
        let index: Int?
        switch found {
        case .length(let length):
            bytes.append(contentsOf: String(length).utf8)
            return .written(isFalseOrNull: false)
        case .value(let value):
            index = value
        }
        guard let index else {
            writer.write(.null, level: level, into: &bytes)
            return .written(isFalseOrNull: true)
        }
        let token = unsafe view[index]
        if rawStrings && token.kind == _Kind.string {
            unsafe bytes.append(contentsOf: view.bytes(of: token))
        } else {
            write(at: index, with: writer, level: level, into: &bytes)
        }
        return .written(isFalseOrNull: token.kind == _Kind.false || token.kind == _Kind.null)
    }

    /// The tape index of the value of the last member named `name` of the
    /// object at `object`, if it has one.
    private func lastMember(named name: [UInt8], of object: Int, in view: _TapeView) -> Int? {
        var found: Int?
        var key = object &+ 1
        let count = unsafe view[object].count
        for _ in 0..<count {
            if unsafe view.text(of: view[key], equals: name) { found = key &+ 1 }
            key = unsafe view.member(after: key)
        }
        return found
    }
}

/// An output made of member paths of an element (`.brewery.name`, `{name,
/// city: .brewery.city}`), for `_ValueReader.writeLastElementMembers`. A
/// class: it goes with every element.
package final class _MemberLayout: Sendable {
    /// The object's keys, in order; nil when the output is the one path.
    package let keys: [String]?
    /// The member names of each path, as UTF-8; `[]` is the element.
    package let paths: [[[UInt8]]]
    /// Whether each path is followed by `| length`.
    package let lengths: [Bool]

    package init(keys: [String]?, paths: [[String]], lengths: [Bool]) {
        self.keys = keys
        self.paths = paths.map { $0.map { Array($0.utf8) } }
        self.lengths = lengths
    }
}
