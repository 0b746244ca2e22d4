// SPDX-License-Identifier: Apache-2.0
internal import COniguruma
import StreamingJSON

/// A path into a value, as jq's `path(f)` gives it: keys, indices and
/// `{"start":…,"end":…}` slices.
typealias _Path = [JSONValue]

/// Where a node hands its outputs: the value and, when paths are tracked
/// (`path(f)`, assignments, `del`), its path from the tracked root.
typealias _Emit = (JSONValue, _Path?) throws -> Void

/// A compiled filter. Every node is a generator: `run` hands each output
/// to `emit` in jq's order.
///
/// Paths are tracked in the same walk: when `path` is non-nil the node
/// must emit each output's path (its input's path extended), and a node
/// whose outputs are not parts of its input (a literal, arithmetic) fails
/// with jq's "Invalid path expression" instead.
///
/// A node that always gives exactly one output (or fails) is `isSingle`
/// and computes it with `value(_:_:)`, with no continuation; most of what
/// a typical element-wise filter evaluates takes that path.
class _Node {
    /// Set at construction from the children; calls of `def`s are revised
    /// once the whole program is compiled (`_Singleness`).
    var isSingle: Bool

    init(isSingle: Bool) {
        self.isSingle = isSingle
    }

    /// Runs the node on `input`. The default serves single nodes.
    func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        let result = try value(input, frame)
        try emit(result, _Node.computed(path))
    }

    /// The one output of a single node.
    func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        var result: JSONValue = .null
        try run(input, nil, frame) { value, _ in result = value }
        return result
    }

    /// Replaces `value` with this single node's output on it. Nodes that
    /// can change their input in place (`. + [x]`, `.[k] += 1`, pipes of
    /// them) do, so that `reduce` and `foreach` keep one state, not a copy
    /// per step.
    func update(_ value: inout JSONValue, _ frame: _Frame) throws {
        value = try self.value(value, frame)
    }

    /// The path a computed value (a literal, arithmetic, a constructed
    /// object) carries while paths are tracked: not a path. jq reports it
    /// only when something uses it — an index, `.[]`, or the end of `path(f)`.
    static let invalidPathMarker: _Path = [.string("\u{0}jsonstream: not a path")]

    @inline(__always)
    static func computed(_ path: _Path?) -> _Path? {
        path == nil ? nil : invalidPathMarker
    }

    static func isInvalid(_ path: _Path) -> Bool {
        path.count == 1 && path[0] == invalidPathMarker[0]
    }

    /// A path collected at the end of path tracking, or jq's error for a
    /// value that is not part of the tracked input.
    static func validPath(_ path: _Path?, of value: JSONValue) throws -> _Path {
        guard let path else { return [] }
        if isInvalid(path) { throw invalidPath(value) }
        return path
    }

    /// jq's error for a value that is not part of the tracked input.
    @inline(never)
    static func invalidPath(_ value: JSONValue) -> JSONFilterError {
        JSONFilterError(message: "Invalid path expression with result \(_shortJSON(value))")
    }

    @inline(never)
    static func invalidPathAccess(_ key: JSONValue, of value: JSONValue) -> JSONFilterError {
        let what: String
        if case .string(let name) = key { what = "element \(JSONValue.string(name))" } else { what = "element \(key)" }
        return JSONFilterError(message: "Invalid path expression near attempt to access \(what) of \(_shortJSON(value))")
    }

    @inline(never)
    static func invalidPathIterate(_ value: JSONValue) -> JSONFilterError {
        JSONFilterError(message: "Invalid path expression near attempt to iterate through \(_shortJSON(value))")
    }

    /// Deep recursion (a recursive `def`, `recurse(f)` thousands of levels
    /// down) stops with a runtime error before the thread's stack is used up.
    @inline(__always)
    static func checkStack() throws {
        if sj_stack_exhausted() != 0 { throw stackExhausted() }
    }

    @inline(never)
    static func stackExhausted() -> JSONFilterError {
        JSONFilterError(message: "Filter recursion too deep: the evaluator's stack is nearly used up")
    }
}

/// jq 1.8's compact text of a value in messages, as `jv_dump_string_trunc`
/// writes it into a buffer of `bufferSize` bytes: text that does not fit
/// keeps `bufferSize - 5` bytes (`- 4` when it does not open with a quote
/// or bracket), backed off to a character boundary, then `...` and the
/// closing quote or bracket.
func _shortJSON(_ value: JSONValue, bufferSize: Int = 30) -> String {
    var shown = value
    if case .string(let string) = value, string.utf8.count > bufferSize {
        shown = .string(String(String.UnicodeScalarView(string.unicodeScalars.prefix(bufferSize))))
    }
    let text = Array(_jqText(shown).utf8)
    guard text.count > bufferSize - 1 else { return String(decoding: text, as: UTF8.self) }
    let closing: UInt8? = switch text.first {
    case UInt8(ascii: "\""): UInt8(ascii: "\"")
    case UInt8(ascii: "["): UInt8(ascii: "]")
    case UInt8(ascii: "{"): UInt8(ascii: "}")
    default: nil
    }
    var kept = bufferSize - (closing == nil ? 4 : 5)
    while kept > 0, text[kept] & 0xC0 == 0x80 { kept -= 1 }
    var cut = Array(text[..<kept]) + Array("...".utf8)
    if let closing { cut.append(closing) }
    return String(decoding: cut, as: UTF8.self)
}

/// jq's short description of a value in error messages: its type and its
/// compact JSON, cut as `_shortJSON` cuts it.
func _describe(_ value: JSONValue) -> String {
    "\(value.typeName) (\(_shortJSON(value)))"
}

// MARK: - Leaves

/// `.`
final class _IdentityNode: _Node {
    init() { super.init(isSingle: true) }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        try emit(input, path)
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue { input }
}

/// A constant. In path mode jq accepts one that is identical to the value
/// at the path (its `jv_identical`: `null`, `true` or `false` of the same
/// kind), as the path of nothing: `null | path(null)` is `[]`.
final class _LiteralNode: _Node {
    let constant: JSONValue

    init(_ constant: JSONValue) {
        self.constant = constant
        super.init(isSingle: true)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        if path != nil {
            switch (constant, input) {
            case (.null, .null): return try emit(constant, path)
            case (.bool(let a), .bool(let b)) where a == b: return try emit(constant, path)
            default: return try emit(constant, _Node.invalidPathMarker)
            }
        }
        try emit(constant, nil)
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue { constant }
}

/// `$name`: a slot `up` frames up.
final class _VariableNode: _Node {
    let up: Int
    let slot: Int

    init(up: Int, slot: Int) {
        self.up = up
        self.slot = slot
        super.init(isSingle: true)
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        up == 0 ? frame.slots[slot] : frame.ancestor(up).slots[slot]
    }

    /// In path mode jq accepts a variable whose value is the one at the
    /// path (`path(. as $x | $x)` is `[]`): jq compares identity, this
    /// package equality.
    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        let variable = try value(input, frame)
        guard let path else { return try emit(variable, nil) }
        try emit(variable, variable == input ? path : _Node.invalidPathMarker)
    }
}

/// `empty`
final class _EmptyNode: _Node {
    init() { super.init(isSingle: false) }
    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {}
}

// MARK: - Composition

/// `a | b`
final class _PipeNode: _Node {
    let left: _Node
    let right: _Node

    init(_ left: _Node, _ right: _Node) {
        self.left = left
        self.right = right
        super.init(isSingle: left.isSingle && right.isSingle)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        if path == nil, left.isSingle {
            return try right.run(try left.value(input, frame), nil, frame, emit)
        }
        let right = self.right
        try left.run(input, path, frame) { value, valuePath in
            try right.run(value, valuePath, frame, emit)
        }
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        try right.value(try left.value(input, frame), frame)
    }

    override func update(_ value: inout JSONValue, _ frame: _Frame) throws {
        try left.update(&value, frame)
        try right.update(&value, frame)
    }
}

/// `a, b`
final class _CommaNode: _Node {
    let left: _Node
    let right: _Node

    init(_ left: _Node, _ right: _Node) {
        self.left = left
        self.right = right
        super.init(isSingle: false)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        try left.run(input, path, frame, emit)
        try right.run(input, path, frame, emit)
    }
}

/// `[f]`
final class _ArrayNode: _Node {
    let body: _Node?

    init(_ body: _Node?) {
        self.body = body
        super.init(isSingle: true)
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        guard let body else { return .array([]) }
        if body.isSingle { return .array([try body.value(input, frame)]) }
        var elements: [JSONValue] = []
        try body.run(input, nil, frame) { value, _ in elements.append(value) }
        return .array(elements)
    }
}

/// `f?` and `try f catch g`. A `break` passes through; only errors are caught.
final class _TryNode: _Node {
    let body: _Node
    let handler: _Node?

    init(_ body: _Node, handler: _Node?) {
        self.body = body
        self.handler = handler
        super.init(isSingle: false)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        // An error raised downstream (inside `emit`) is not this try's to
        // catch: jq stops the body and lets it propagate.
        var downstream: (any Error)?
        do {
            try body.run(input, path, frame) { value, valuePath in
                do {
                    try emit(value, valuePath)
                } catch {
                    downstream = error
                    throw error
                }
            }
        } catch let error as JSONFilterError {
            if let downstream { throw downstream }
            try handle(error.value, path, frame, emit)
        } catch let stop as _Break {
            // jq's `break $name` is an error whose value is the label's
            // (`{"__jq": n}`): a try between them catches it.
            if let downstream { throw downstream }
            try handle(stop.errorValue, path, frame, emit)
        }
    }

    private func handle(_ error: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        guard let handler else { return }
        try handler.run(error, nil, frame) { value, _ in
            try emit(value, _Node.computed(path))
        }
    }
}
