// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// A compiled `def`: its body is set after the definition's own name is
/// in scope, so that it can call itself.
final class _Function {
    let name: String
    let arity: Int
    /// Slots of the frame a call makes: value parameters, then locals.
    var slotCount = 0
    /// For each `$param`: which closure gives its values, and its slot.
    var valueParameters: [(closure: Int, slot: Int)] = []
    var body: _Node = _EmptyNode()
    /// Whether every call gives exactly one output (or fails), given
    /// single arguments for its `$params`: see `_Singleness`.
    var isSingle = false

    init(name: String, arity: Int) {
        self.name = name
        self.arity = arity
    }
}

/// A call of a `def`: a new frame under the frame of the definition, with
/// the arguments as closures over the caller's frame.
final class _CallNode: _Node {
    /// Not retained: a recursive function's body holds calls of itself, and
    /// the program keeps every function alive (`_Program.functions`).
    unowned(unsafe) let function: _Function
    /// Static hops from the caller's frame to the definition's frame.
    let up: Int
    let arguments: [_Lambda]

    init(_ function: _Function, up: Int, arguments: [_Lambda]) {
        unsafe self.function = function
        self.up = up
        self.arguments = arguments
        super.init(isSingle: false)
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        try _Node.checkStack()
        let closures = arguments.map { _Closure(lambda: $0, frame: frame) }
        let callee = unsafe _Frame(parent: frame.ancestor(up), slotCount: function.slotCount, closures: closures,
                                   context: frame.context)
        for parameter in unsafe function.valueParameters {
            callee.slots[parameter.slot] = try arguments[parameter.closure].value(input, frame)
        }
        return unsafe try function.body.value(input, callee)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        if path == nil, isSingle { return try emit(try value(input, frame), nil) }
        try _Node.checkStack()
        let closures = arguments.map { _Closure(lambda: $0, frame: frame) }
        let callee = unsafe _Frame(parent: frame.ancestor(up), slotCount: function.slotCount, closures: closures,
                                   context: frame.context)
        if unsafe function.valueParameters.isEmpty {
            return unsafe try function.body.run(input, path, callee, emit)
        }
        try bindValues(at: 0, input, path, callee, emit)
    }

    /// `def f($a; $b)`: every combination of the arguments' outputs, the
    /// first parameter the outer loop.
    private func bindValues(at index: Int, _ input: JSONValue, _ path: _Path?, _ callee: _Frame, _ emit: _Emit) throws {
        guard unsafe index < function.valueParameters.count else {
            return unsafe try function.body.run(input, path, callee, emit)
        }
        let parameter = unsafe function.valueParameters[index]
        let closure = callee.closures[parameter.closure]
        try closure.lambda.run(input, nil, closure.frame) { value, _ in
            callee.slots[parameter.slot] = value
            try self.bindValues(at: index + 1, input, path, callee, emit)
        }
    }
}

/// A call of a filter parameter: the argument's code in its caller's frame.
final class _ClosureCallNode: _Node {
    let up: Int
    let index: Int

    init(up: Int, index: Int) {
        self.up = up
        self.index = index
        super.init(isSingle: false)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        try _Node.checkStack()
        let closure = frame.ancestor(up).closures[index]
        try closure.lambda.run(input, path, closure.frame, emit)
    }
}
