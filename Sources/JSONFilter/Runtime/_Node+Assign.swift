// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// The assignment operators, with jq 1.8's path semantics: the paths of
/// `lhs` are taken from the input, then each is set or updated in a copy
/// of it (in place when nothing else holds the copy).
///
/// - `lhs = rhs`: for each output `$v` of `rhs` (run on the input), every
///   path set to `$v`.
/// - `lhs |= f`: every path's value replaced by `f`'s first output, or
///   deleted when `f` has none.
/// - `lhs op= rhs`: for each output `$x` of `rhs`, `lhs |= . op $x`;
///   `//=` likewise with `. // $x`.
final class _AssignNode: _Node {
    enum Kind {
        case assign
        case update
        case arithmetic(_ArithmeticOperator)
        case alternative
    }

    let kind: Kind
    let lhs: _Node
    let rhs: _Node

    init(_ kind: Kind, lhs: _Node, rhs: _Node) {
        self.kind = kind
        self.lhs = lhs
        self.rhs = rhs
        if case .update = kind { super.init(isSingle: true) } else { super.init(isSingle: rhs.isSingle) }
    }

    static func make(_ op: _AssignmentOperator, lhs: _Node, rhs: _Node) throws -> _Node {
        switch op {
        case .assign: return _AssignNode(.assign, lhs: lhs, rhs: rhs)
        case .update: return _AssignNode(.update, lhs: lhs, rhs: rhs)
        case .alternative: return _AssignNode(.alternative, lhs: lhs, rhs: rhs)
        default: return _AssignNode(.arithmetic(op.arithmetic!), lhs: lhs, rhs: rhs)
        }
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        var result = input
        try update(&result, frame)
        return result
    }

    /// The paths and the right side are taken from `value` first; then it
    /// changes, in place when nothing else holds it.
    /// As in jq, the right side's value comes first (an error there wins,
    /// and with no value the paths are never taken).
    override func update(_ value: inout JSONValue, _ frame: _Frame) throws {
        let operand = isUpdate ? nil : try rhs.value(value, frame)
        let paths = try _AssignNode.paths(of: lhs, in: value, frame)
        try apply(paths, to: &value, frame, rhs: operand)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        if isSingle {
            let result = try value(input, frame)
            return try emit(result, _Node.computed(path))
        }
        var paths: [_Path]?
        try rhs.run(input, nil, frame) { operand, _ in
            if paths == nil { paths = try _AssignNode.paths(of: self.lhs, in: input, frame) }
            var result = input
            try self.apply(paths!, to: &result, frame, rhs: operand)
            try emit(result, _Node.computed(path))
        }
    }

    private var isUpdate: Bool {
        if case .update = kind { return true }
        return false
    }

    /// Applies the assignment at `paths` to `result`, with the right side's
    /// value when the operator takes one.
    func apply(_ paths: [_Path], to result: inout JSONValue, _ frame: _Frame, rhs operand: JSONValue?) throws {
        switch kind {
        case .assign:
            for path in paths { try result._update(path[...]) { $0 = operand! } }
        case .arithmetic(.add):
            for path in paths { try result._update(path[...]) { try _Arithmetic.addInPlace(&$0, operand!) } }
        case .arithmetic(let op):
            let operation = _BinaryNode.operation(op)
            for path in paths {
                try result._update(path[...]) { value in value = try operation(value, operand!) }
            }
        case .alternative:
            for path in paths {
                try result._update(path[...]) { value in if !value.isTruthy { value = operand! } }
            }
        case .update:
            var deletions: [JSONValue] = []
            for path in paths {
                // jq's `_modify`: `getpath` first, so that a path whose update
                // has no output is only deleted, never made (`null | .a |= empty`
                // stays null).
                guard let first = try _AssignNode.firstOutput(rhs, try result._get(path: .array(path)), frame) else {
                    deletions.append(.array(path))
                    continue
                }
                try result._update(path[...]) { $0 = first }
            }
            if !deletions.isEmpty { try result._delete(paths: .array(deletions)) }
        }
    }

    /// Every path `lhs` gives on `input`.
    static func paths(of lhs: _Node, in input: JSONValue, _ frame: _Frame) throws -> [_Path] {
        var paths: [_Path] = []
        try lhs.run(input, [], frame) { value, path in paths.append(try _Node.validPath(path, of: value)) }
        return paths
    }

    /// The first output of `node` on `input`, or nil when it has none.
    static func firstOutput(_ node: _Node, _ input: JSONValue, _ frame: _Frame) throws -> JSONValue? {
        if node.isSingle { return try node.value(input, frame) }
        let label = frame.context.newLabel()
        var first: JSONValue?
        do {
            try node.run(input, nil, frame) { value, _ in
                first = value
                throw _Break(label: label)
            }
        } catch let stop as _Break where stop.label == label {}
        return first
    }
}
