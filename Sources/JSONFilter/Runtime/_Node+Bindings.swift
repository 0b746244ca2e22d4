// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// `source as p1 ?// p2 … | body`.
///
/// With alternatives, every variable of every pattern is bound (null when
/// the pattern in use lacks it); an error in the destructuring or in the
/// body moves on to the next pattern, and the last pattern's errors
/// propagate.
final class _BindNode: _Node {
    let source: _Node
    let binders: [_Binder]
    /// Slots of all the alternatives' variables, reset before each try.
    let allSlots: [Int]
    let body: _Node

    init(source: _Node, binders: [_Binder], allSlots: [Int], body: _Node) {
        self.source = source
        self.binders = binders
        self.allSlots = allSlots
        self.body = body
        super.init(isSingle: false)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        if binders.count == 1, case .slot(let slot) = binders[0] {
            let body = self.body
            if source.isSingle {
                frame.slots[slot] = try source.value(input, frame)
                return try body.run(input, path, frame, emit)
            }
            return try source.run(input, nil, frame) { value, _ in
                frame.slots[slot] = value
                try body.run(input, path, frame, emit)
            }
        }
        try source.run(input, nil, frame) { value, _ in
            try self.bindAlternatives(value, input, path, frame, emit)
        }
    }

    private func bindAlternatives(_ value: JSONValue, _ input: JSONValue, _ path: _Path?, _ frame: _Frame,
                                  _ emit: _Emit) throws {
        for (index, binder) in binders.enumerated() {
            for slot in allSlots { frame.slots[slot] = .null }
            let isLast = index == binders.count - 1
            var downstream: (any Error)?
            do {
                try binder.bind(value, input, frame) {
                    try body.run(input, path, frame) { result, resultPath in
                        do {
                            try emit(result, resultPath)
                        } catch {
                            downstream = error
                            throw error
                        }
                    }
                }
                return
            } catch let error as JSONFilterError where !isLast && downstream == nil {
                _ = error
                continue
            }
        }
    }
}

/// `reduce source as p (initial; update)`: the last output of `update`
/// is the next state (null when it has none), one reduction per output of
/// `initial`.
final class _ReduceNode: _Node {
    let source: _Node
    let binder: _Binder
    let initial: _Node
    let update: _Node

    init(source: _Node, binder: _Binder, initial: _Node, update: _Node) {
        self.source = source
        self.binder = binder
        self.initial = initial
        self.update = update
        super.init(isSingle: initial.isSingle)
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        try reduce(from: try initial.value(input, frame), input, frame)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        if path != nil { return try runTrackingPaths(input, path!, frame, emit) }
        // jq's bytecode hands the input to the loop once (DUPN): for each
        // further initial value the source runs on null.
        var source = input
        try initial.run(input, nil, frame) { start, _ in
            defer { source = .null }
            try emit(try self.reduce(from: start, source, frame), nil)
        }
    }

    private func reduce(from start: JSONValue, _ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        var state = start
        let update = self.update, binder = self.binder
        if case .slot(let slot) = binder, update.isSingle {
            try source.run(input, nil, frame) { value, _ in
                frame.slots[slot] = value
                try update.update(&state, frame)
            }
            return state
        }
        try source.run(input, nil, frame) { value, _ in
            try binder.bind(value, input, frame) {
                let current = state
                state = .null
                try update.run(current, nil, frame) { next, _ in state = next }
            }
        }
        return state
    }

    /// `path(reduce …)`: the state is a (value, path) pair.
    private func runTrackingPaths(_ input: JSONValue, _ path: _Path, _ frame: _Frame, _ emit: _Emit) throws {
        try initial.run(input, path, frame) { start, startPath in
            var state = (start, startPath)
            try _ReduceNode.fold(source, binder, update, input, frame, &state) { _, _ in }
            try emit(state.0, state.1)
        }
    }

    /// The loop `reduce` (tracking paths) and `foreach` share: each value of
    /// `source` bound, `update` run on the state, every output handed to
    /// `each`, the last one the next state (null when there is none).
    static func fold(_ source: _Node, _ binder: _Binder, _ update: _Node, _ input: JSONValue, _ frame: _Frame,
                     _ state: inout (JSONValue, _Path?), _ each: _Emit) throws {
        try source.run(input, nil, frame) { value, _ in
            try binder.bind(value, input, frame) {
                let current = state
                state = (.null, current.1)
                try update.run(current.0, current.1, frame) { next, nextPath in
                    state = (next, nextPath)
                    try each(next, nextPath)
                }
            }
        }
    }
}

/// `foreach source as p (initial; update; extract)`: every output of
/// `update` is emitted (through `extract`) and the last is the next state.
final class _ForeachNode: _Node {
    let source: _Node
    let binder: _Binder
    let initial: _Node
    let update: _Node
    let extract: _Node?

    init(source: _Node, binder: _Binder, initial: _Node, update: _Node, extract: _Node?) {
        self.source = source
        self.binder = binder
        self.initial = initial
        self.update = update
        self.extract = extract
        super.init(isSingle: false)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        if let path { return try runTrackingPaths(input, path, frame, emit) }
        try initial.run(input, nil, frame) { start, _ in
            var state = (start, nil as _Path?)
            try _ReduceNode.fold(self.source, self.binder, self.update, input, frame, &state) { next, _ in
                if let extract = self.extract {
                    try extract.run(next, nil, frame, emit)
                } else {
                    try emit(next, nil)
                }
            }
        }
    }

    /// `path(foreach …)` as jq 1.8.2 tracks it, with one current path: each
    /// item of `source` moves it to the item's path (a computed item leaves
    /// it); the state is at that path only when it is the value there; an
    /// output that is that value is at that path (`skip(n; f)`, whose
    /// extract is `$item`, gives the paths of `f`).
    private func runTrackingPaths(_ input: JSONValue, _ path: _Path, _ frame: _Frame, _ emit: _Emit) throws {
        try initial.run(input, nil, frame) { start, _ in
            var state = start
            try source.run(input, path, frame) { item, itemPath in
                let (current, currentPath) = _Node.isInvalid(itemPath ?? []) ? (input, path) : (item, itemPath ?? [])
                func placed(_ value: JSONValue, _ valuePath: _Path?) -> _Path {
                    if let valuePath, !_Node.isInvalid(valuePath) { return valuePath }
                    return value == current ? currentPath : _Node.invalidPathMarker
                }
                try binder.bind(item, input, frame) {
                    let previous = state
                    state = .null
                    try update.run(previous, placed(previous, nil), frame) { next, nextPath in
                        state = next
                        guard let extract = self.extract else { return try emit(next, placed(next, nextPath)) }
                        try extract.run(next, placed(next, nextPath), frame) { value, valuePath in
                            try emit(value, placed(value, valuePath))
                        }
                    }
                }
            }
        }
    }
}

/// `label $name | body`: a `break $name` from inside ends the body.
final class _LabelNode: _Node {
    let slot: Int
    let body: _Node

    init(slot: Int, body: _Node) {
        self.slot = slot
        self.body = body
        super.init(isSingle: false)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        let label = frame.context.newLabel()
        frame.slots[slot] = .number(JSONNumber(label))
        do {
            try body.run(input, path, frame, emit)
        } catch let stop as _Break where stop.label == label {
            return
        } catch let error as JSONFilterError where error.value == _Break.labelValue(label) {
            return  // `error({"__jq": n})` is jq's break too
        }
    }
}

/// `break $name`
final class _BreakNode: _Node {
    let up: Int
    let slot: Int

    init(up: Int, slot: Int) {
        self.up = up
        self.slot = slot
        super.init(isSingle: false)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        let marker = frame.ancestor(up).slots[slot]
        guard case .number(let number) = marker else { throw JSONFilterError(message: "break without a label") }
        throw _Break(label: Int(number.double))
    }
}
