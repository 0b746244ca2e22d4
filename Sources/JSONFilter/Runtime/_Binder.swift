// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// A compiled destructuring pattern: where each part of a value goes.
indirect enum _Binder {
    case slot(Int)
    /// A variable already bound earlier in the pattern (jq keeps the first).
    case ignore
    /// Element patterns, bound from the last to the first, as jq does.
    case array([_Binder])
    /// Each entry: the key, the slot `$name` keys bind, the nested pattern.
    case object([_BinderEntry])
    /// A pattern with a computed key somewhere in it, which binds once per
    /// output of that key (only ever the outermost case: see `branching`).
    case branching(_Binder)

    /// Binds `value` in `frame` and runs `body` once per binding (a computed
    /// key may have several outputs). `input` is what key expressions see.
    func bind(_ value: JSONValue, _ input: JSONValue, _ frame: _Frame, _ body: () throws -> Void) throws {
        let destructuring = _Destructuring(input: input, frame: frame)
        switch self {
        case .slot(let slot): frame.slots[slot] = value
        case .ignore: break
        case .array, .object: try destructuring.assign(self, value)
        case .branching(let pattern): return try destructuring.run([.pattern(pattern, value)], body)
        }
        try body()
    }

    /// A whole pattern as the nodes bind it: wrapped in `.branching` when a
    /// key in it is computed.
    static func whole(_ pattern: _Binder) -> _Binder {
        pattern.hasComputedKey ? .branching(pattern) : pattern
    }

    private var hasComputedKey: Bool {
        switch self {
        case .slot, .ignore: return false
        case .array(let elements): return elements.contains { $0.hasComputedKey }
        case .object(let entries):
            return entries.contains { entry in
                if case .computed = entry.key { return true }
                return entry.value?.hasComputedKey ?? false
            }
        case .branching: return true
        }
    }
}

typealias _BinderEntry = (key: _BinderKey, slot: Int?, value: _Binder?)

enum _BinderKey {
    case name(String)
    case computed(_Node)
}

// A pattern without computed keys binds once, by plain recursion. One with
// them is a loop over a stack of the steps left, not functions that hand
// each other the rest of the binding as closures: the optimiser specialises
// closures passed straight into a recursive function into one another,
// level after level, and that version of this code took minutes to compile
// at -O. The one way back into `run` is a computed key's callback, through
// `_Node.run`, which the optimiser cannot follow.

/// The work left in one binding; the last step is done first.
private enum _BindStep {
    case pattern(_Binder, JSONValue)
    /// The element patterns still to bind, at their indexes in the array.
    case elements(ArraySlice<_Binder>, of: JSONValue)
    case entries(ArraySlice<_BinderEntry>, of: JSONValue)
}

private struct _Destructuring {
    let input: JSONValue
    let frame: _Frame

    /// Binds a pattern without computed keys, in the order `run` would.
    func assign(_ pattern: _Binder, _ value: JSONValue) throws {
        switch pattern {
        case .slot(let slot):
            frame.slots[slot] = value
        case .ignore:
            break
        case .array(let elements):
            for index in elements.indices.reversed() {
                try assign(elements[index], try _Access.index(value, .number(JSONNumber(index))))
            }
        case .object(let entries):
            for entry in entries {
                guard case .name(let name) = entry.key else { preconditionFailure("a computed key outside .branching") }
                let member = try bindMember(.string(name), of: value, entry)
                if let nested = entry.value { try assign(nested, member) }
            }
        case .branching:
            preconditionFailure(".branching inside a pattern")
        }
    }

    /// Does the steps, then runs `body`; at a computed key, the rest runs
    /// once for each of the key's outputs, in order.
    func run(_ steps: [_BindStep], _ body: () throws -> Void) throws {
        var steps = steps
        while let step = steps.popLast() {
            switch step {
            case .pattern(.slot(let slot), let value):
                frame.slots[slot] = value
            case .pattern(.ignore, _):
                break
            case .pattern(.array(let elements), let value):
                steps.append(.elements(elements[...], of: value))
            case .pattern(.object(let entries), let value):
                steps.append(.entries(entries[...], of: value))
            case .pattern(.branching(let pattern), let value):
                steps.append(.pattern(pattern, value))
            case .elements(let elements, let value):
                guard let last = elements.last else { continue }
                let element = try _Access.index(value, .number(JSONNumber(elements.endIndex - 1)))
                steps.append(.elements(elements.dropLast(), of: value))
                steps.append(.pattern(last, element))
            case .entries(let entries, let value):
                guard let entry = entries.first else { continue }
                steps.append(.entries(entries.dropFirst(), of: value))
                switch entry.key {
                case .name(let name):
                    let member = try bindMember(.string(name), of: value, entry)
                    if let nested = entry.value { steps.append(.pattern(nested, member)) }
                case .computed(let node):
                    return try bindEachKey(node, of: value, entry, then: steps, body)
                }
            }
        }
        try body()
    }

    /// The rest of the binding once per output of a computed key, as each
    /// comes (a key expression may go on for ever, or fail after some keys).
    @inline(never)
    private func bindEachKey(_ node: _Node, of value: JSONValue, _ entry: _BinderEntry, then steps: [_BindStep],
                             _ body: () throws -> Void) throws {
        try node.run(input, nil, frame) { key, _ in
            var branch = steps
            let member = try bindMember(key, of: value, entry)
            if let nested = entry.value { branch.append(.pattern(nested, member)) }
            try run(branch, body)
        }
    }

    /// `value[key]`, bound to the entry's variable if it has one. A computed
    /// key is any index, as in jq: `[5] as {(0): $v}` binds 5.
    private func bindMember(_ key: JSONValue, of value: JSONValue, _ entry: _BinderEntry) throws -> JSONValue {
        let member = try _Access.index(value, key)
        if let slot = entry.slot { frame.slots[slot] = member }
        return member
    }
}
