import StreamingJSON

/// Path expressions: `path(f)` as jq tracks it, and the functions built on
/// paths (`del`, `paths`, `leaf_paths`, `getpath`, `setpath`).
///
/// A path is an array of keys: strings for object members, numbers for
/// array positions, `{"start": a, "end": b}` objects for slices.
enum _Paths {
    typealias Emit = ([JSONValue], JSONValue) throws -> Void

    /// Every (path, value) that `filter` denotes in `input`. Filters that
    /// compute new values instead of selecting parts of the input are
    /// "Invalid path expression", unless they hand their input back unchanged.
    /// The callback is wrapped in a struct for the reason given at `_Evaluator.evaluate`.
    @inline(__always)
    static func paths(of filter: _Filter, in input: JSONValue, _ env: _Environment, _ emit: Emit) throws {
        try withoutActuallyEscaping(emit) { emit in try _paths(of: filter, in: input, env, _Sink(call: emit)) }
    }

    struct _Sink {
        let call: ([JSONValue], JSONValue) throws -> Void
    }

    @inline(never)
    private static func _paths(of filter: _Filter, in input: JSONValue, _ env: _Environment, _ sink: _Sink) throws {
        let emit = sink.call
        switch filter {
        case .identity:
            try emit([], input)
        case .recurse:
            try descend(input, prefix: [], emit)
        case .index(let target, let key):
            try paths(of: target, in: input, env) { path, value in
                try _Evaluator.evaluate(key, input, env) { key in
                    try emit(path + [key], try index(value, key))
                }
            }
        case .slice(let target, let from, let to):
            try paths(of: target, in: input, env) { path, value in
                try bound(from, input, env) { lower in
                    try bound(to, input, env) { upper in
                        try emit(path + [.object(["start": lower, "end": upper])], try _Access.slice(value, lower, upper))
                    }
                }
            }
        case .iterate(let target):
            try paths(of: target, in: input, env) { path, value in
                switch value {
                case .array(let array):
                    for (position, element) in array.enumerated() { try emit(path + [_Builtins.number(position)], element) }
                case .object(let object):
                    for (key, member) in object { try emit(path + [.string(key)], member) }
                default:
                    throw JSONFilterError(message: "Cannot iterate over \(_describe(value))")
                }
            }
        case .optional(let body):
            do {
                try paths(of: body, in: input, env, emit)
            } catch let error as JSONFilterError where !error.isCompileError {
                return
            }
        case .pipe(let left, let right):
            try paths(of: left, in: input, env) { prefix, value in
                try paths(of: right, in: value, env) { suffix, result in try emit(prefix + suffix, result) }
            }
        case .comma(let left, let right):
            try paths(of: left, in: input, env, emit)
            try paths(of: right, in: input, env, emit)
        case .conditional(let branches, let otherwise):
            try conditional(branches[...], otherwise, input, env, emit)
        case .alternative(let left, let right):
            var any = false
            do {
                try paths(of: left, in: input, env) { path, value in
                    if value.isTruthy { any = true; try emit(path, value) }
                }
            } catch let error as JSONFilterError where !error.isCompileError {}
            if !any { try paths(of: right, in: input, env, emit) }
        case .bind(let source, let name, let body):
            try _Evaluator.evaluate(source, input, env) { value in
                try paths(of: body, in: input, env.binding(name, to: value), emit)
            }
        case .tryCatch(let body, let handler):
            do {
                try paths(of: body, in: input, env, emit)
            } catch let error as JSONFilterError where !error.isCompileError {
                if let handler { try paths(of: handler, in: error.value, env, emit) }
            }
        case .call(let builtin, let args, _):
            try call(builtin, args, input, env, emit)
        default:
            try unchanged(filter, input, env, emit)
        }
    }

    private static func call(_ builtin: _Builtin, _ args: [_Filter], _ input: JSONValue, _ env: _Environment,
                             _ emit: Emit) throws {
        switch (builtin.name, args.count) {
        case ("empty", 0): return
        case ("select", 1):
            try _Evaluator.evaluate(args[0], input, env) { if $0.isTruthy { try emit([], input) } }
        case ("recurse", 0): try recurse(input, .optional(.iterate(.identity)), env, emit)
        case ("recurse", 1): try recurse(input, args[0], env, emit)
        case ("first", 1):
            let owner = _StopToken()
            do {
                try paths(of: args[0], in: input, env) { path, value in
                    try emit(path, value)
                    throw _Stop(token: ObjectIdentifier(owner))
                }
            } catch let stop as _Stop where stop.token == ObjectIdentifier(owner) {}
        case ("last", 1):
            var last: ([JSONValue], JSONValue)?
            try paths(of: args[0], in: input, env) { last = ($0, $1) }
            if let last { try emit(last.0, last.1) }
        case ("getpath", 1):
            try _Evaluator.evaluate(args[0], input, env) { path in
                guard case .array(let keys) = path else { throw JSONFilterError(message: "Path must be specified as an array") }
                try emit(keys, try get(path, in: input))
            }
        case ("first", 0): try emit([_Builtins.number(0)], try index(input, _Builtins.number(0)))
        case ("last", 0): try emit([_Builtins.number(-1)], try index(input, _Builtins.number(-1)))
        default:
            try unchanged(.call(builtin, args, column: 0), input, env, emit)
        }
    }

    /// A non-path filter is a valid path expression only where it returns its input itself.
    private static func unchanged(_ filter: _Filter, _ input: JSONValue, _ env: _Environment, _ emit: Emit) throws {
        try _Evaluator.evaluate(filter, input, env) { value in
            guard value == input else {
                var text = Array(value.description.utf8)
                if text.count > 30 { text = Array(text[0..<30]) + Array("...".utf8) }
                throw JSONFilterError(message: "Invalid path expression with result \(String(decoding: text, as: UTF8.self))")
            }
            try emit([], input)
        }
    }

    private static func recurse(_ input: JSONValue, _ step: _Filter, _ env: _Environment, _ emit: Emit) throws {
        try emit([], input)
        try paths(of: step, in: input, env) { prefix, value in
            try recurse(value, step, env) { suffix, result in try emit(prefix + suffix, result) }
        }
    }

    private static func conditional(_ branches: ArraySlice<(condition: _Filter, then: _Filter)>, _ otherwise: _Filter?,
                                    _ input: JSONValue, _ env: _Environment, _ emit: Emit) throws {
        guard let first = branches.first else {
            if let otherwise { try paths(of: otherwise, in: input, env, emit) } else { try emit([], input) }
            return
        }
        try _Evaluator.evaluate(first.condition, input, env) { condition in
            if condition.isTruthy {
                try paths(of: first.then, in: input, env, emit)
            } else {
                try conditional(branches.dropFirst(), otherwise, input, env, emit)
            }
        }
    }

    private static func bound(_ bound: _Filter?, _ input: JSONValue, _ env: _Environment,
                              _ body: (JSONValue) throws -> Void) throws {
        guard let bound else { return try body(.null) }
        try _Evaluator.evaluate(bound, input, env, body)
    }

    /// `..` in path form: pre-order, the input itself first.
    private static func descend(_ value: JSONValue, prefix: [JSONValue], _ emit: Emit) throws {
        try emit(prefix, value)
        switch value {
        case .array(let array):
            for (position, element) in array.enumerated() {
                try descend(element, prefix: prefix + [_Builtins.number(position)], emit)
            }
        case .object(let object):
            for (key, member) in object { try descend(member, prefix: prefix + [.string(key)], emit) }
        default:
            break
        }
    }

    // MARK: Functions on paths

    /// `paths` (every non-empty path, pre-order) or `leaf_paths` (paths to scalars).
    static func allPaths(_ input: JSONValue, leavesOnly: Bool, _ emit: Emit) throws {
        try descend(input, prefix: []) { path, value in
            guard !path.isEmpty else { return }
            // jq 1.6: `paths(scalars)` selects on the scalar itself, so null and false leaves drop out.
            if leavesOnly, value._rank >= 5 || !value.isTruthy { return }
            try emit(path, value)
        }
    }

    /// `getpath(p)`: null once a missing member or null is reached.
    static func get(_ path: JSONValue, in input: JSONValue) throws -> JSONValue {
        guard case .array(let keys) = path else { throw JSONFilterError(message: "Path must be specified as an array") }
        var current = input
        for key in keys {
            if current == .null { return .null }
            current = try index(current, key)
        }
        return current
    }

    /// `setpath(p; v)`: missing members and positions are created (arrays
    /// padded with null), null becomes an object or array as the key asks.
    static func set(_ path: JSONValue, in input: JSONValue, to value: JSONValue) throws -> JSONValue {
        guard case .array(let keys) = path else { throw JSONFilterError(message: "Path must be specified as an array") }
        return try set(keys[...], in: input, to: value)
    }

    private static func set(_ keys: ArraySlice<JSONValue>, in container: JSONValue, to value: JSONValue) throws -> JSONValue {
        guard let key = keys.first else { return value }
        let rest = keys.dropFirst()
        switch (container, key) {
        case (.object(var object), .string(let name)):
            object[name] = try set(rest, in: object[name] ?? .null, to: value)
            return .object(object)
        case (.null, .string(let name)):
            return .object([name: try set(rest, in: .null, to: value)])
        case (.array, .number), (.null, .number):
            var array: [JSONValue] = if case .array(let a) = container { a } else { [] }
            var position = _flooredIndex(key.numberValue)
            if position < 0 {
                position += array.count
                guard position >= 0 else { throw JSONFilterError(message: "Out of bounds negative array index") }
            }
            // jq's bound (INT_MAX >> 2): past it, filling the gap with nulls is refused.
            guard position <= Int(Int32.max >> 2) else { throw JSONFilterError(message: "Array index too large") }
            while array.count <= position { array.append(.null) }
            array[position] = try set(rest, in: array[position], to: value)
            return .array(array)
        case (.array, .object), (.null, .object):
            let current = try _Access.slice(container, key["start"] ?? .null, key["end"] ?? .null)
            guard case .array(let replacement) = try set(rest, in: current, to: value) else {
                throw JSONFilterError(message: "A slice of an array can only be assigned another array")
            }
            var array: [JSONValue] = if case .array(let a) = container { a } else { [] }
            array.replaceSubrange(try sliceRange(key, count: array.count), with: replacement)
            return .array(array)
        default:
            throw indexError(container, key)
        }
    }

    /// `del(f)`: `delpaths([path(f)])`, deleting the last paths first so that
    /// earlier positions stay valid.
    static func delete(_ filter: _Filter, from input: JSONValue, _ env: _Environment) throws -> JSONValue {
        var found: [JSONValue] = []
        try paths(of: filter, in: input, env) { path, _ in found.append(.array(path)) }
        var result = input
        for path in found.sorted(by: JSONValue._less).reversed() {
            guard case .array(let keys) = path else { continue }
            result = try delete(keys[...], from: result)
        }
        return result
    }

    private static func delete(_ keys: ArraySlice<JSONValue>, from container: JSONValue) throws -> JSONValue {
        guard let key = keys.first else { return .null }
        if container == .null { return .null }
        let rest = keys.dropFirst()
        switch (container, key) {
        case (.object(var object), .string(let name)):
            guard let member = object[name] else { return container }
            if rest.isEmpty {
                _ = object.removeValue(forKey: name)
            } else {
                object[name] = try delete(rest, from: member)
            }
            return .object(object)
        case (.array(var array), .number(let number)):
            var position = _flooredIndex(number.double)
            if position < 0 { position += array.count }
            guard array.indices.contains(position) else {
                if position < 0 { throw JSONFilterError(message: "Out of bounds negative array index") }
                return container
            }
            if rest.isEmpty {
                array.remove(at: position)
            } else {
                array[position] = try delete(rest, from: array[position])
            }
            return .array(array)
        case (.array(var array), .object):
            let range = try sliceRange(key, count: array.count)
            if rest.isEmpty {
                array.removeSubrange(range)
            } else {
                guard case .array(let replaced) = try delete(rest, from: .array(Array(array[range]))) else {
                    return container
                }
                array.replaceSubrange(range, with: replaced)
            }
            return .array(array)
        default:
            throw indexError(container, key)
        }
    }

    /// Indexing as `getpath` and path tracking report it (jq's `jv_get`).
    private static func index(_ container: JSONValue, _ key: JSONValue) throws -> JSONValue {
        do {
            return try _Access.index(container, key)
        } catch let error as JSONFilterError {
            if case .string = key { throw indexError(container, key) }
            throw error
        }
    }

    private static func indexError(_ container: JSONValue, _ key: JSONValue) -> JSONFilterError {
        if case .string(let name) = key {
            return JSONFilterError(message: "Cannot index \(container.typeName) with string \"\(name)\"")
        }
        return JSONFilterError(message: "Cannot index \(container.typeName) with \(key.typeName)")
    }

    /// A slice path key (`{"start": a, "end": b}`) as positions.
    private static func sliceRange(_ key: JSONValue, count: Int) throws -> Range<Int> {
        try _Access.sliceRange(key["start"] ?? .null, key["end"] ?? .null, count: count)
    }
}

extension JSONValue {
    /// The value of a number (0 for anything else).
    var numberValue: Double {
        if case .number(let n) = self { return n.double }
        return 0
    }
}
