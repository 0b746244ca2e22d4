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
        case arithmetic((JSONValue, JSONValue) throws -> JSONValue)
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
        default: return _AssignNode(.arithmetic(_BinaryNode.operation(op.arithmetic!)), lhs: lhs, rhs: rhs)
        }
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        var result = input
        try apply(to: &result, input, frame, rhs: isUpdate ? nil : try rhs.value(input, frame))
        return result
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        if isSingle {
            let result = try value(input, frame)
            if path != nil { throw _Node.invalidPath(result) }
            return try emit(result, nil)
        }
        try rhs.run(input, nil, frame) { operand, _ in
            var result = input
            try self.apply(to: &result, input, frame, rhs: operand)
            if path != nil { throw _Node.invalidPath(result) }
            try emit(result, nil)
        }
    }

    private var isUpdate: Bool {
        if case .update = kind { return true }
        return false
    }

    /// Applies the assignment to `result` (a copy of `input`), with the
    /// right side's value when the operator takes one.
    func apply(to result: inout JSONValue, _ input: JSONValue, _ frame: _Frame, rhs operand: JSONValue?) throws {
        let paths = try _AssignNode.paths(of: lhs, in: input, frame)
        switch kind {
        case .assign:
            for path in paths { try result._update(path[...]) { $0 = operand! } }
        case .arithmetic(let operation):
            for path in paths {
                try result._update(path[...]) { value in
                    let current = value
                    value = .null
                    value = try operation(current, operand!)
                }
            }
        case .alternative:
            for path in paths {
                try result._update(path[...]) { value in if !value.isTruthy { value = operand! } }
            }
        case .update:
            var deletions: [JSONValue] = []
            for path in paths {
                try result._update(path[...]) { value in
                    guard let first = try _AssignNode.firstOutput(rhs, value, frame) else {
                        deletions.append(.array(path))
                        return
                    }
                    value = first
                }
            }
            if !deletions.isEmpty { try result._delete(paths: .array(deletions)) }
        }
    }

    /// Every path `lhs` gives on `input`.
    static func paths(of lhs: _Node, in input: JSONValue, _ frame: _Frame) throws -> [_Path] {
        var paths: [_Path] = []
        try lhs.run(input, [], frame) { _, path in paths.append(path ?? []) }
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
