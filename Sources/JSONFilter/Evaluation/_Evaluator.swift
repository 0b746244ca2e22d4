import COniguruma
import StreamingJSON

/// Variables in scope: `--arg`/`--argjson` values and `as $x` bindings.
struct _Environment: Sendable {
    var variables: [String: JSONValue]

    func binding(_ name: String, to value: JSONValue) -> _Environment {
        var copy = self
        copy.variables[name] = value
        return copy
    }
}

/// Thrown by `limit`, `first(f)` and friends to stop a generator early;
/// caught only by the call that threw it.
struct _Stop: Error {
    let token: ObjectIdentifier
}

/// Identifies one early-stopping loop: a fresh object per loop.
final class _StopToken {}

/// Runs a `_Filter` on an input. A filter is a generator: every output is
/// handed to `emit` as it is produced (depth-first, in jq's order), so
/// `.[] | select(…)` never builds intermediate arrays.
struct _Evaluator {
    /// Runs `filter` on `input`, handing each output to `emit`.
    ///
    /// The callback crosses into the recursive evaluator wrapped in a struct.
    /// Handed over as a bare closure, every `{ … }` written below would let the
    /// optimizer's closure specialization clone the evaluator for it, and the
    /// clones contain closures of their own: a release build of this module
    /// then grew past 15 GB. A struct argument is not specialized; the closure
    /// stays on the stack (`withoutActuallyEscaping`).
    @inline(__always)
    static func evaluate(_ filter: _Filter, _ input: JSONValue, _ env: _Environment,
                         _ emit: (JSONValue) throws -> Void) throws {
        try withoutActuallyEscaping(emit) { emit in
            try _evaluate(filter, input, env, _Emit(call: emit))
        }
    }

    /// Deep recursion (`recurse(f)` thousands of levels down, operators whose
    /// operands each nest) reached the guard in COniguruma/stack_guard.h: a
    /// runtime error, where it used to be a crash.
    @inline(never)
    static func stackExhausted() -> JSONFilterError {
        JSONFilterError(message: "Filter recursion too deep: the evaluator's stack is nearly used up")
    }

    /// An output callback, opaque to closure specialization (see `evaluate`).
    struct _Emit {
        let call: (JSONValue) throws -> Void
    }

    @inline(never)
    private static func _evaluate(_ filter: _Filter, _ input: JSONValue, _ env: _Environment,
                                  _ sink: _Emit) throws {
        if sj_stack_exhausted() != 0 { throw _Evaluator.stackExhausted() }
        let emit = sink.call
        switch filter {
        case .index, .pipe, .comparison, .arithmetic, .and, .or, .object:
            // One output, computed without continuations (_Evaluator+Direct.swift).
            if isDirect(filter) { return try emit(try directValue(filter, input, env)) }
        default:
            break
        }
        switch filter {
        case .identity:
            try emit(input)
        case .recurse:
            try recurse(input, emit)
        case .literal(let value):
            try emit(value)
        case .index(let target, let index):
            try evaluate(target, input, env) { container in
                try evaluate(index, input, env) { key in
                    try emit(try _Access.index(container, key))
                }
            }
        case .slice(let target, let from, let to):
            try evaluate(target, input, env) { container in
                try optionalBound(from, input, env) { lower in
                    try optionalBound(to, input, env) { upper in
                        try emit(try _Access.slice(container, lower, upper))
                    }
                }
            }
        case .iterate(let target):
            try evaluate(target, input, env) { container in
                try _Access.iterate(container, emit)
            }
        case .optional(let body):
            do {
                try evaluate(body, input, env, emit)
            } catch let error as JSONFilterError where !error.isCompileError {
                return
            }
        case .string(let pieces, let format):
            try interpolate(pieces, format: format, at: pieces.count, suffix: "", input, env, emit)
        case .format(let name):
            try emit(.string(try _Formats.apply(name, to: input)))
        case .array(let body):
            var elements: [JSONValue] = []
            if let body { try evaluate(body, input, env) { elements.append($0) } }
            try emit(.array(elements))
        case .object(let entries):
            try construct(entries, at: 0, JSONObject(), input, env, emit)
        case .pipe(let left, let right):
            try evaluate(left, input, env) { try evaluate(right, $0, env, emit) }
        case .comma(let left, let right):
            try evaluate(left, input, env, emit)
            try evaluate(right, input, env, emit)
        case .arithmetic(let op, let left, let right):
            // jq evaluates the right operand in the outer loop.
            try evaluate(right, input, env) { b in
                try evaluate(left, input, env) { a in
                    try emit(try _Arithmetic.apply(op, a, b))
                }
            }
        case .comparison(let op, let left, let right):
            try evaluate(right, input, env) { b in
                try evaluate(left, input, env) { a in
                    try emit(.bool(compare(op, a, b)))
                }
            }
        case .and(let left, let right):
            try evaluate(left, input, env) { a in
                guard a.isTruthy else { return try emit(.bool(false)) }
                try evaluate(right, input, env) { try emit(.bool($0.isTruthy)) }
            }
        case .or(let left, let right):
            try evaluate(left, input, env) { a in
                guard !a.isTruthy else { return try emit(.bool(true)) }
                try evaluate(right, input, env) { try emit(.bool($0.isTruthy)) }
            }
        case .alternative(let left, let right):
            // jq 1.6: an error on the left propagates (1.7 would swallow it).
            var any = false
            try evaluate(left, input, env) { value in
                if value.isTruthy {
                    any = true
                    try emit(value)
                }
            }
            if !any { try evaluate(right, input, env, emit) }
        case .negate(let body):
            try evaluate(body, input, env) { try emit(try _Arithmetic.negate($0)) }
        case .conditional(let branches, let otherwise):
            try conditional(branches[...], otherwise, input, env, emit)
        case .tryCatch(let body, let handler):
            do {
                try evaluate(body, input, env, emit)
            } catch let error as JSONFilterError where !error.isCompileError {
                if let handler { try evaluate(handler, error.value, env, emit) }
            }
        case .bind(let source, let name, let body):
            try evaluate(source, input, env) { value in
                try evaluate(body, input, env.binding(name, to: value), emit)
            }
        case .reduce(let source, let name, let initial, let update):
            try evaluate(initial, input, env) { start in
                var accumulator = start
                try evaluate(source, input, env) { value in
                    var last: JSONValue = .null
                    try evaluate(update, accumulator, env.binding(name, to: value)) { last = $0 }
                    accumulator = last
                }
                try emit(accumulator)
            }
        case .variable(let name):
            guard let value = env.variables[name] else {
                throw JSONFilterError(message: "$\(name) is not defined")
            }
            try emit(value)
        case .call(let builtin, let arguments, _):
            try _Builtins.call(builtin, arguments, input, env, emit)
        }
    }

    /// All outputs of `filter`, collected.
    static func values(_ filter: _Filter, _ input: JSONValue, _ env: _Environment) throws -> [JSONValue] {
        var results: [JSONValue] = []
        try evaluate(filter, input, env) { results.append($0) }
        return results
    }

    /// Runs `filter` and stops it after `body` returns false.
    static func generate(_ filter: _Filter, _ input: JSONValue, _ env: _Environment,
                         while body: (JSONValue) throws -> Bool) throws {
        let owner = _StopToken()
        let token = ObjectIdentifier(owner)
        defer { withExtendedLifetime(owner) {} }
        do {
            try evaluate(filter, input, env) { value in
                if try !body(value) { throw _Stop(token: token) }
            }
        } catch let stop as _Stop where stop.token == token {
            return
        }
    }

    private static func recurse(_ value: JSONValue, _ emit: (JSONValue) throws -> Void) throws {
        try emit(value)
        switch value {
        case .array(let elements): for element in elements { try recurse(element, emit) }
        case .object(let object): for (_, member) in object { try recurse(member, emit) }
        default: break
        }
    }

    private static func optionalBound(_ bound: _Filter?, _ input: JSONValue, _ env: _Environment,
                                      _ body: (JSONValue) throws -> Void) throws {
        guard let bound else { return try body(.null) }
        try evaluate(bound, input, env, body)
    }

    private static func conditional(_ branches: ArraySlice<(condition: _Filter, then: _Filter)>, _ otherwise: _Filter?,
                                    _ input: JSONValue, _ env: _Environment, _ emit: (JSONValue) throws -> Void) throws {
        guard let first = branches.first else {
            if let otherwise { try evaluate(otherwise, input, env, emit) } else { try emit(input) }
            return
        }
        try evaluate(first.condition, input, env) { condition in
            if condition.isTruthy {
                try evaluate(first.then, input, env, emit)
            } else {
                try conditional(branches.dropFirst(), otherwise, input, env, emit)
            }
        }
    }

    static func compare(_ op: _ComparisonOperator, _ a: JSONValue, _ b: JSONValue) -> Bool {
        switch op {
        case .equal: return a == b
        case .notEqual: return a != b
        case .less: return JSONValue._compare(a, b) < 0
        case .lessOrEqual: return JSONValue._compare(a, b) <= 0
        case .greater: return JSONValue._compare(a, b) > 0
        case .greaterOrEqual: return JSONValue._compare(a, b) >= 0
        }
    }

    /// String interpolation: every combination of the pieces' outputs, each
    /// interpolated value as `tostring` (or through the format).
    /// The last interpolation is the outermost loop, as in jq.
    private static func interpolate(_ pieces: [_InterpolatedPiece], format: String?, at end: Int, suffix: String,
                                    _ input: JSONValue, _ env: _Environment, _ emit: (JSONValue) throws -> Void) throws {
        guard end > 0 else { return try emit(.string(suffix)) }
        switch pieces[end - 1] {
        case .text(let text):
            try interpolate(pieces, format: format, at: end - 1, suffix: text + suffix, input, env, emit)
        case .filter(let filter):
            try evaluate(filter, input, env) { value in
                let text = try format.map { try _Formats.apply($0, to: value) } ?? _Builtins.tostring(value)
                try interpolate(pieces, format: format, at: end - 1, suffix: text + suffix, input, env, emit)
            }
        }
    }

    /// Object construction: the cartesian product of every key's and value's outputs.
    private static func construct(_ entries: [(key: _ObjectKey, value: _Filter)], at index: Int, _ object: JSONObject,
                                  _ input: JSONValue, _ env: _Environment, _ emit: (JSONValue) throws -> Void) throws {
        guard index < entries.count else { return try emit(.object(object)) }
        let entry = entries[index]
        func withKey(_ key: String) throws {
            try evaluate(entry.value, input, env) { value in
                var next = object
                next[key] = value
                try construct(entries, at: index + 1, next, input, env, emit)
            }
        }
        switch entry.key {
        case .name(let name):
            try withKey(name)
        case .computed(let filter):
            try evaluate(filter, input, env) { key in
                guard case .string(let name) = key else {
                    throw JSONFilterError(message: "Object keys must be strings")
                }
                try withKey(name)
            }
        case .computedMember(let filter):
            // The key once, then its member: not the key's generator again.
            try evaluate(filter, input, env) { key in
                guard case .string(let name) = key else {
                    throw JSONFilterError(message: "Object keys must be strings")
                }
                var next = object
                next[name] = try _Access.index(input, key)
                try construct(entries, at: index + 1, next, input, env, emit)
            }
        }
    }
}

/// jq's short description of a value in error messages: its type and its
/// compact JSON, cut to 11 bytes plus `...` when longer than 14.
func _describe(_ value: JSONValue) -> String {
    var text = Array(_jqText(value).utf8)
    if text.count > 14 {
        text = Array(text[0..<11]) + Array("...".utf8)
    }
    return "\(value.typeName) (\(String(decoding: text, as: UTF8.self)))"
}
