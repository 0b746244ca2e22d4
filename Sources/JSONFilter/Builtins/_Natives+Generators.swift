// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

// Built-ins that take filters or produce several outputs. Those jq can
// use in path expressions (`select`, `recurse`, `first`, `limit`,
// `getpath`, …) pass paths through.
extension _Natives {
    static func generator(_ key: String, _ args: [_Lambda]) throws -> _Node? {
        switch key {
        case "empty/0": return _EmptyNode()
        case "error/0": return _NativeNode { input, _, _, _ in throw JSONFilterError(value: input) }
        case "path/1": return path(args[0])
        case "select/1": return select(args[0])
        case "recurse/0": return recurse(nil, nil)
        case "recurse/1": return recurse(args[0], nil)
        case "recurse/2": return recurse(args[0], args[1])
        case "first/1": return first(args[0])
        case "last/1": return last(args[0])
        case "limit/2": return limit(args[0], args[1])
        case "range/1": return range([nil, args[0], nil])
        case "range/2": return range([args[0], args[1], nil])
        case "range/3": return range([args[0], args[1], args[2]])
        case "repeat/1": return repeatNode(args[0])
        case "isempty/1":
            return _NativeNode(single: false) { input, path, frame, emit in
                var empty = true
                try args[0].generate(input, nil, frame) { _, _ in empty = false; return false }
                try emit(.bool(empty), _Node.computed(path))
            }
        case "map/1": return map(args[0])
        case "getpath/1": return getpath(args[0])
        case "add/1": return add(args[0])
        case "input/0":
            return _NativeNode { _, path, frame, emit in
                // jq's message at the end of the input: what `inputs` stops on.
                guard let next = try frame.context.nextValue() else { throw JSONFilterError(message: "break") }
                try emit(next, _Node.computed(path))
            }
        case "_streamed_elements/0":
            // The planner's stand-in for `.[]` of the value streamed (JSONFilterPlan).
            return _NativeNode { _, path, frame, emit in
                guard let next = frame.context.nextStreamedElement else { return }
                while let element = try next() {
                    try emit(element, _Node.computed(path))
                }
            }
        case "inputs/0":
            return _NativeNode { _, path, frame, emit in
                while let next = try frame.context.nextValue() {
                    try emit(next, _Node.computed(path))
                }
            }
        case "debug/0":
            return _NativeNode { input, path, frame, emit in
                frame.context.debug(input)
                try emit(input, path)
            }
        case "stderr/0":
            return _NativeNode { input, path, frame, emit in
                frame.context.stderr(input)
                try emit(input, path)
            }
        case "input_filename/0": return _ContextValueNode(.inputFilename)
        case "input_line_number/0": return _ContextValueNode(.inputLineNumber)
        case "env/0": return _ContextValueNode(.environment)
        case "halt/0": return _NativeNode { _, _, _, _ in throw JSONFilterHalt(exitCode: 0, value: nil) }
        case "halt_error/1":
            return _NativeNode { input, _, frame, _ in
                let code = try args[0].values(input, frame).first ?? .null
                guard case .number(let n) = code else {
                    throw JSONFilterError(message: "halt_error/1: number required")
                }
                throw JSONFilterHalt(exitCode: Int32(truncatingIfNeeded: Int(n.double)), value: input)
            }
        case "tostream/0": return toStream()
        case "splits/0": return nil
        default: return nil
        }
    }

    /// `path(f)`: the paths of `f`'s outputs, as arrays.
    static func path(_ body: _Lambda) -> _Node {
        _NativeNode { input, path, frame, emit in
            try body.run(input, [], frame) { value, valuePath in
                let result = JSONValue.array(try _Node.validPath(valuePath, of: value))
                try emit(result, _Node.computed(path))
            }
        }
    }

    static func select(_ condition: _Lambda) -> _Node {
        _NativeNode { input, path, frame, emit in
            if condition.isSingle {
                if try condition.value(input, frame).isTruthy { try emit(input, path) }
                return
            }
            try condition.run(input, nil, frame) { verdict, _ in
                if verdict.isTruthy { try emit(input, path) }
            }
        }
    }

    /// `recurse(f)`: `def r: ., (f | r); r`; `recurse(f; cond)` keeps the
    /// values for which `cond` holds; `recurse` is `recurse(.[]?)`. A
    /// single-valued `f` is followed in a loop, not by recursion.
    static func recurse(_ step: _Lambda?, _ condition: _Lambda?) -> _Node {
        func walk(_ value: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
            try _Node.checkStack()
            try emit(value, path)
            if let path, _Node.isInvalid(path) { return }
            guard let step else {
                switch value {
                case .array(let elements):
                    for (index, element) in elements.enumerated() {
                        try walk(element, path.map { $0 + [.number(JSONNumber(index))] }, frame, emit)
                    }
                case .object(let object):
                    for (key, member) in object { try walk(member, path.map { $0 + [.string(key)] }, frame, emit) }
                default:
                    break
                }
                return
            }
            try step.run(value, path, frame) { next, nextPath in
                if let condition, try !condition.value(next, frame).isTruthy { return }
                try walk(next, nextPath, frame, emit)
            }
        }
        return _NativeNode { input, path, frame, emit in
            if let step, condition == nil, path == nil, step.isSingle {
                var current = input
                while true {
                    try emit(current, nil)
                    current = try step.value(current, frame)
                }
            }
            try walk(input, path, frame, emit)
        }
    }

    static func first(_ body: _Lambda) -> _Node {
        _NativeNode { input, path, frame, emit in
            var found: (JSONValue, _Path?)?
            try body.generate(input, path, frame) { value, valuePath in
                found = (value, valuePath)
                return false
            }
            if let found { try emit(found.0, found.1) }
        }
    }

    static func last(_ body: _Lambda) -> _Node {
        _NativeNode { input, path, frame, emit in
            // jq 1.8.2's `last(f)` is a reduction: `f` is not a path there,
            // and the result is at the path only when it is the value there.
            var found: JSONValue?
            try body.run(input, nil, frame) { value, _ in found = value }
            guard let found else { return }
            guard let path else { return try emit(found, nil) }
            try emit(found, found == input ? path : _Node.invalidPathMarker)
        }
    }

    /// `limit(n; f)`: jq 1.8 — nothing for 0, an error for a negative count.
    static func limit(_ count: _Lambda, _ body: _Lambda) -> _Node {
        _NativeNode { input, path, frame, emit in
            try count.run(input, nil, frame) { n, _ in
                guard case .number(let number) = n else {
                    return try limitOfAnotherType(n, body, input, path, frame)
                }
                let limit = number.double
                if limit < 0 { throw JSONFilterError(message: "limit doesn't support negative count") }
                if limit == 0 { return }
                var emitted = 0.0
                try body.generate(input, path, frame) { value, valuePath in
                    try emit(value, valuePath)
                    emitted += 1
                    return emitted < limit
                }
            }
        }
    }

    /// A count that is not a number, as jq 1.8.2's `limit` (written in jq)
    /// meets it: null and booleans order below 0 (the negative count's
    /// error); a string, array or object orders above 0, and the first
    /// output of `f` then counts down from it, which fails.
    @inline(never)
    private static func limitOfAnotherType(_ n: JSONValue, _ body: _Lambda, _ input: JSONValue, _ path: _Path?,
                                           _ frame: _Frame) throws {
        switch n {
        case .null, .bool: throw JSONFilterError(message: "limit doesn't support negative count")
        default:
            try body.generate(input, path, frame) { _, _ in
                throw JSONFilterError(message: "\(_describe(n)) and number (1) cannot be subtracted")
            }
        }
    }

    /// `range(from; upto; by)`: numbers from `from` while below `upto`
    /// (above, for a negative `by`). `range/3` is jq 1.8's definition in
    /// jq, `$from | while(. < $upto; . + $by)`: bounds that are not all
    /// numbers go by jq's order and `+` (`range(""; "aaa"; "a")`).
    static func range(_ bounds: [_Lambda?]) -> _Node {
        let generic = bounds[2] != nil
        return _NativeNode { input, path, frame, emit in
            func values(_ lambda: _Lambda?, _ fallback: Double, _ body: (JSONValue) throws -> Void) throws {
                guard let lambda else { return try body(number(fallback)) }
                try lambda.run(input, nil, frame) { value, _ in try body(value) }
            }
            func each(_ lambda: _Lambda?, _ fallback: Double, _ body: (Double) throws -> Void) throws {
                try values(lambda, fallback) { value in
                    guard case .number(let n) = value else { throw JSONFilterError(message: "Range bounds must be numeric") }
                    try body(n.double)
                }
            }
            if generic {
                try values(bounds[0], 0) { from in
                    try values(bounds[1], 0) { upto in
                        try values(bounds[2], 1) { by in
                            if case .number(let f) = from, case .number(let u) = upto, case .number(let b) = by {
                                return try run(from, f.double, u.double, b.double)
                            }
                            try runGeneric(from, upto, by)
                        }
                    }
                }
                return
            }
            // The first number is `from` itself, a literal keeping its text
            // (`-(range(3))` starts with `0`, not `-0`); the rest are sums.
            func run(_ start: JSONValue, _ from: Double, _ upto: Double, _ by: Double) throws {
                let outputPath = _Node.computed(path)
                let goesOn = { (x: Double) in by > 0 ? x < upto : by < 0 && x > upto }
                guard goesOn(from) else { return }
                try emit(start, outputPath)
                var x = from + by
                while goesOn(x) {
                    try emit(number(x), outputPath)
                    x += by
                }
            }
            func runGeneric(_ from: JSONValue, _ upto: JSONValue, _ by: JSONValue) throws {
                let zero = number(0)
                let step = try JSONValue._compare(by, zero)
                guard step != 0 else { return }
                var x = from
                while try step > 0 ? JSONValue._compare(x, upto) < 0 : JSONValue._compare(x, upto) > 0 {
                    try emit(x, _Node.computed(path))
                    x = try _Arithmetic.add(x, by)
                }
            }
            // The first argument is the outer loop (`def range($from; $upto; $by)`).
            // `range($upto)` is jq's `range(0; $upto)`: its start is the literal 0.
            let start: _Lambda? = bounds[0]
            try values(start, 0) { first in
                let from = start == nil ? JSONValue.number(JSONNumber(0)) : first
                guard case .number(let f) = from else { throw JSONFilterError(message: "Range bounds must be numeric") }
                try each(bounds[1], 0) { upto in try each(bounds[2], 1) { by in try run(from, f.double, upto, by) } }
            }
        }
    }

    /// `repeat(f)`: jq 1.8's `def _repeat: f, _repeat;` — the outputs of
    /// `f` on the same input, again and again, in a loop.
    static func repeatNode(_ body: _Lambda) -> _Node {
        _NativeNode { input, path, frame, emit in
            while true { try body.run(input, path, frame, emit) }
        }
    }

    static func map(_ body: _Lambda) -> _Node {
        _NativeNode(single: false) { input, path, frame, emit in
            var results: [JSONValue] = []
            let each: (JSONValue) throws -> Void = { element in
                if body.isSingle {
                    results.append(try body.value(element, frame))
                } else {
                    try body.run(element, nil, frame) { value, _ in results.append(value) }
                }
            }
            switch input {
            case .array(let array):
                results.reserveCapacity(array.count)
                for element in array { try each(element) }
            case .object(let object):
                for value in object.values { try each(value) }
            default:
                throw JSONFilterError(message: "Cannot iterate over \(_describe(input))")
            }
            try emit(.array(results), _Node.computed(path))
        }
    }

    static func getpath(_ argument: _Lambda) -> _Node {
        _NativeNode { input, path, frame, emit in
            try argument.run(input, nil, frame) { keys, _ in
                let value: JSONValue
                do {
                    value = try input._get(path: keys)
                } catch let error as JSONFilterError {
                    guard path != nil, case .array = keys else { throw error }
                    throw error
                }
                if let path, case .array(let components) = keys {
                    if _Node.isInvalid(path) { throw _Node.invalidPathAccess(.array(components), of: input) }
                    return try emit(value, path + components)
                }
                try emit(value, nil)
            }
        }
    }

    /// `add(f)`: the outputs of `f` summed in place.
    static func add(_ body: _Lambda) -> _Node {
        _NativeNode { input, path, frame, emit in
            var total: JSONValue?
            try body.run(input, nil, frame) { value, _ in
                if total == nil { total = value } else { try _Arithmetic.addInPlace(&total!, value) }
            }
            try emit(total ?? .null, _Node.computed(path))
        }
    }

    /// `tostream`: `[path, leaf]` events, and `[path]` closing each
    /// non-empty container.
    static func toStream() -> _Node {
        func events(_ value: JSONValue, _ path: [JSONValue], top: Bool, _ emit: _Emit) throws {
            switch value {
            case .array(let elements) where !elements.isEmpty:
                for (index, element) in elements.enumerated() {
                    try events(element, path + [number(index)], top: false, emit)
                }
                try emit(.array([.array(path + [number(elements.count - 1)])]), nil)
            case .object(let object) where !object.isEmpty:
                for (key, member) in object { try events(member, path + [.string(key)], top: false, emit) }
                try emit(.array([.array(path + [.string(object.keys[object.count - 1])])]), nil)
            default:
                try emit(.array([.array(path), value]), nil)
            }
        }
        return _NativeNode { input, path, _, emit in
            try events(input, [], top: true) { value, _ in try emit(value, _Node.computed(path)) }
        }
    }
}
