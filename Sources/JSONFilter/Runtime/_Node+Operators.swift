// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// `a + b`, `a < b`, …: the right operand is the outer loop, as in jq.
final class _BinaryNode: _Node {
    let left: _Node
    let right: _Node
    let operation: (JSONValue, JSONValue) throws -> JSONValue
    /// `. + f`: the input grows in place when `update` owns it.
    let addsToInput: Bool

    init(_ left: _Node, _ right: _Node, _ operation: @escaping (JSONValue, JSONValue) throws -> JSONValue,
         addsToInput: Bool = false) {
        self.left = left
        self.right = right
        self.operation = operation
        self.addsToInput = addsToInput
        super.init(isSingle: left.isSingle && right.isSingle)
    }

    override func update(_ value: inout JSONValue, _ frame: _Frame) throws {
        guard addsToInput else { return value = try self.value(value, frame) }
        let b = try right.value(value, frame)
        try _Arithmetic.addInPlace(&value, b)
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        let b = try right.value(input, frame)
        return try operation(try left.value(input, frame), b)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        if isSingle {
            let result = try value(input, frame)
            return try emit(result, _Node.computed(path))
        }
        let left = self.left, operation = self.operation
        try right.run(input, nil, frame) { b, _ in
            try left.run(input, nil, frame) { a, _ in
                let result = try operation(a, b)
                try emit(result, _Node.computed(path))
            }
        }
    }

    static func operation(_ op: _ArithmeticOperator) -> (JSONValue, JSONValue) throws -> JSONValue {
        switch op {
        case .add: return _Arithmetic.add
        case .subtract: return _Arithmetic.subtract
        case .multiply: return _Arithmetic.multiply
        case .divide: return _Arithmetic.divide
        case .modulo: return _Arithmetic.modulo
        }
    }

    static func operation(_ op: _ComparisonOperator) -> (JSONValue, JSONValue) throws -> JSONValue {
        switch op {
        case .equal: return { .bool(try JSONValue._equal($0, $1)) }
        case .notEqual: return { .bool(try !JSONValue._equal($0, $1)) }
        case .less: return { .bool(try JSONValue._compare($0, $1) < 0) }
        case .lessOrEqual: return { .bool(try JSONValue._compare($0, $1) <= 0) }
        case .greater: return { .bool(try JSONValue._compare($0, $1) > 0) }
        case .greaterOrEqual: return { .bool(try JSONValue._compare($0, $1) >= 0) }
        }
    }
}

/// `a and b`, `a or b`: the right side runs only when the left does not
/// decide.
final class _LogicNode: _Node {
    let left: _Node
    let right: _Node
    let isAnd: Bool

    init(_ left: _Node, _ right: _Node, isAnd: Bool) {
        self.left = left
        self.right = right
        self.isAnd = isAnd
        super.init(isSingle: left.isSingle && right.isSingle)
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        let a = try left.value(input, frame).isTruthy
        if a != isAnd { return .bool(a) }
        return .bool(try right.value(input, frame).isTruthy)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        let right = self.right, isAnd = self.isAnd
        try left.run(input, nil, frame) { a, _ in
            if a.isTruthy != isAnd {
                return try emit(.bool(!isAnd), _Node.computed(path))
            }
            try right.run(input, nil, frame) { b, _ in
                try emit(.bool(b.isTruthy), _Node.computed(path))
            }
        }
    }
}

/// `a // b`: the truthy outputs of `a`, or all of `b`'s when there are none.
final class _AlternativeNode: _Node {
    let left: _Node
    let right: _Node

    init(_ left: _Node, _ right: _Node) {
        self.left = left
        self.right = right
        super.init(isSingle: left.isSingle && right.isSingle)
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        let a = try left.value(input, frame)
        return a.isTruthy ? a : try right.value(input, frame)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        var any = false
        try left.run(input, path, frame) { value, valuePath in
            guard value.isTruthy else { return }
            any = true
            try emit(value, valuePath)
        }
        if !any { try right.run(input, path, frame, emit) }
    }
}

/// `-f`
final class _NegateNode: _Node {
    let body: _Node

    init(_ body: _Node) {
        self.body = body
        super.init(isSingle: body.isSingle)
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        try _Arithmetic.negate(try body.value(input, frame))
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        try body.run(input, nil, frame) { value, _ in
            let result = try _Arithmetic.negate(value)
            try emit(result, _Node.computed(path))
        }
    }
}

/// `if c then t elif … else e end`; without `else`, the input.
final class _ConditionalNode: _Node {
    let condition: _Node
    let then: _Node
    let otherwise: _Node

    init(_ condition: _Node, then: _Node, otherwise: _Node) {
        self.condition = condition
        self.then = then
        self.otherwise = otherwise
        super.init(isSingle: condition.isSingle && then.isSingle && otherwise.isSingle)
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        try (try condition.value(input, frame).isTruthy ? then : otherwise).value(input, frame)
    }

    override func update(_ value: inout JSONValue, _ frame: _Frame) throws {
        try (try condition.value(value, frame).isTruthy ? then : otherwise).update(&value, frame)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        if condition.isSingle {
            let branch = try condition.value(input, frame).isTruthy ? then : otherwise
            return try branch.run(input, path, frame, emit)
        }
        let then = self.then, otherwise = self.otherwise
        try condition.run(input, nil, frame) { test, _ in
            try (test.isTruthy ? then : otherwise).run(input, path, frame, emit)
        }
    }
}

/// `{k: v, …}`: the cartesian product of every key's and value's outputs,
/// the first entry the outermost loop.
final class _ObjectNode: _Node {
    enum Key {
        case name(String)
        case computed(_Node)
        /// `{"\(f)"}`: each key, with that member of the input as its value.
        case computedMember(_Node)
    }

    let entries: [(key: Key, value: _Node)]
    /// The keys, when every one is a distinct constant.
    let names: [String]?

    init(_ entries: [(key: Key, value: _Node)]) {
        self.entries = entries
        var single = true
        var names: [String] = []
        for entry in entries {
            switch entry.key {
            case .name(let name): names.append(name)
            case .computed(let node), .computedMember(let node): single = single && node.isSingle
            }
            single = single && entry.value.isSingle
        }
        self.names = names.count == entries.count && Set(names).count == names.count ? names : nil
        super.init(isSingle: single)
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        if let names {
            // Distinct constant keys (`{id, name}`): the object is built
            // from its two arrays at once.
            var values: [JSONValue] = []
            values.reserveCapacity(names.count)
            for entry in entries { values.append(try entry.value.value(input, frame)) }
            return .object(JSONObject(_distinctKeys: names, values: values))
        }
        var object = JSONObject()
        for entry in entries {
            switch entry.key {
            case .name(let name):
                object[name] = try entry.value.value(input, frame)
            case .computed(let node):
                // As jq: the key, then the value, then the key's type is checked (at the insert).
                let key = try node.value(input, frame)
                let value = try entry.value.value(input, frame)
                object[try _ObjectNode.key(key)] = value
            case .computedMember(let node):
                let key = try node.value(input, frame)
                object[try _ObjectNode.key(key)] = try _Access.index(input, key)
            }
        }
        return .object(object)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        // One output: built at once by `value` (the default `run`), not a
        // member at a time through copies.
        if isSingle { return try super.run(input, path, frame, emit) }
        try construct(at: 0, JSONObject(), input, frame) { object in
            try emit(.object(object), _Node.computed(path))
        }
    }

    private func construct(at index: Int, _ object: JSONObject, _ input: JSONValue, _ frame: _Frame,
                           _ done: (JSONObject) throws -> Void) throws {
        guard index < entries.count else { return try done(object) }
        let entry = entries[index]
        // The key's type is checked for each value, as jq's insert does:
        // `{(null): empty}` makes nothing, and no error.
        func withKey(_ key: JSONValue) throws {
            try entry.value.run(input, nil, frame) { value, _ in
                var next = object
                next[try _ObjectNode.key(key)] = value
                try construct(at: index + 1, next, input, frame, done)
            }
        }
        switch entry.key {
        case .name(let name):
            try withKey(.string(name))
        case .computed(let node):
            try node.run(input, nil, frame) { key, _ in try withKey(key) }
        case .computedMember(let node):
            try node.run(input, nil, frame) { key, _ in
                var next = object
                next[try _ObjectNode.key(key)] = try _Access.index(input, key)
                try construct(at: index + 1, next, input, frame, done)
            }
        }
    }

    static func key(_ value: JSONValue) throws -> String {
        guard case .string(let name) = value else {
            throw JSONFilterError(message: "Cannot use \(_describe(value)) as object key")
        }
        return name
    }
}

/// A string with interpolations: every combination of the pieces' outputs,
/// the last interpolation the outermost loop, each value as `tostring` or
/// through the format.
final class _InterpolationNode: _Node {
    enum Piece {
        case text(String)
        case node(_Node)
    }

    let pieces: [Piece]
    let format: String?

    init(_ pieces: [Piece], format: String?) {
        self.pieces = pieces
        self.format = format
        super.init(isSingle: pieces.allSatisfy { if case .node(let n) = $0 { return n.isSingle } else { return true } })
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        var text = ""
        for piece in pieces {
            switch piece {
            case .text(let literal): text += literal
            case .node(let node): text += try render(try node.value(input, frame))
            }
        }
        return .string(text)
    }

    private func render(_ value: JSONValue) throws -> String {
        if let format { return try _Formats.apply(format, to: value) }
        return _Builtins.tostring(value)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        try interpolate(at: pieces.count, suffix: "", input, frame) { text in
            try emit(.string(text), _Node.computed(path))
        }
    }

    private func interpolate(at end: Int, suffix: String, _ input: JSONValue, _ frame: _Frame,
                             _ done: (String) throws -> Void) throws {
        guard end > 0 else { return try done(suffix) }
        switch pieces[end - 1] {
        case .text(let text):
            try interpolate(at: end - 1, suffix: text + suffix, input, frame, done)
        case .node(let node):
            try node.run(input, nil, frame) { value, _ in
                try interpolate(at: end - 1, suffix: try render(value) + suffix, input, frame, done)
            }
        }
    }
}

/// `@name` applied to the input.
final class _FormatNode: _Node {
    let name: String

    init(_ name: String) {
        self.name = name
        super.init(isSingle: true)
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        .string(try _Formats.apply(name, to: input))
    }
}
