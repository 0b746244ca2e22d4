// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// A built-in computed from its input alone (`length`, `keys`, `tojson`).
final class _UnaryFunctionNode: _Node {
    let function: (JSONValue) throws -> JSONValue

    init(_ function: @escaping (JSONValue) throws -> JSONValue) {
        self.function = function
        super.init(isSingle: true)
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        try function(input)
    }
}

/// A built-in with `$value` arguments (`has($k)`, `pow(a; b)`): every
/// combination of the arguments' outputs, the last argument the outermost
/// loop, as jq calls its C functions.
final class _ValueFunctionNode: _Node {
    let arguments: [_Lambda]
    let function: (JSONValue, [JSONValue]) throws -> JSONValue

    init(_ arguments: [_Lambda], _ function: @escaping (JSONValue, [JSONValue]) throws -> JSONValue) {
        self.arguments = arguments
        self.function = function
        super.init(isSingle: arguments.allSatisfy(\.isSingle))
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        try function(input, try arguments.map { try $0.value(input, frame) })
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        var values = [JSONValue](repeating: .null, count: arguments.count)
        try combine(at: arguments.count - 1, &values, input, frame) { values in
            let result = try function(input, values)
            try emit(result, _Node.computed(path))
        }
    }

    private func combine(at index: Int, _ values: inout [JSONValue], _ input: JSONValue, _ frame: _Frame,
                         _ body: ([JSONValue]) throws -> Void) throws {
        guard index >= 0 else { return try body(values) }
        var current = values
        try arguments[index].run(input, nil, frame) { value, _ in
            current[index] = value
            try combine(at: index - 1, &current, input, frame, body)
        }
    }
}

/// A built-in written as a closure over its arguments: generators and
/// functions of filters (`select`, `range`, `limit`, `path`).
final class _NativeNode: _Node {
    typealias Body = (JSONValue, _Path?, _Frame, _Emit) throws -> Void
    let body: Body
    /// The filter arguments the body runs, for passes over the tree.
    var arguments: [_Lambda] = []

    init(single: Bool = false, _ body: @escaping Body) {
        self.body = body
        super.init(isSingle: single)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        try body(input, path, frame, emit)
    }
}

/// Reads the run's context: `$ENV`, `$ARGS`, `input_filename`, …
final class _ContextValueNode: _Node {
    enum Item {
        case environment
        case arguments
        case inputFilename
        case inputLineNumber
    }

    let item: Item

    init(_ item: Item) {
        self.item = item
        super.init(isSingle: true)
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        let context = frame.context
        switch item {
        case .environment: return context.environmentValue
        case .arguments: return context.namedArguments
        case .inputFilename: return context.inputFilename
        case .inputLineNumber: return .number(JSONNumber(context.inputLineNumber))
        }
    }
}

extension _Lambda {
    /// Runs the lambda and stops it after `body` returns false.
    func generate(_ input: JSONValue, _ path: _Path?, _ frame: _Frame,
                  while body: (JSONValue, _Path?) throws -> Bool) throws {
        let label = frame.context.newLabel()
        do {
            try run(input, path, frame) { value, valuePath in
                if try !body(value, valuePath) { throw _Break(label: label) }
            }
        } catch let stop as _Break where stop.label == label {}
    }

    /// Every output, collected.
    func values(_ input: JSONValue, _ frame: _Frame) throws -> [JSONValue] {
        if isSingle { return [try value(input, frame)] }
        var results: [JSONValue] = []
        try run(input, nil, frame) { value, _ in results.append(value) }
        return results
    }
}
