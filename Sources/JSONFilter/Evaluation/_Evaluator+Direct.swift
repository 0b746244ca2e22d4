import StreamingJSON

/// Direct evaluation: the filters that always have exactly one output (or
/// throw) are computed as a value, without a continuation per step.
///
/// The general evaluator hands every output to a closure, which is what lets
/// generators (`.[]`, `,`, `range`) compose; for `select(.abv > 8)` or
/// `{name, style}` it means a closure and a thunk per path step, operand and
/// member, per input. These shapes are common in the filters people run over
/// huge dumps, so `_evaluate` checks for them first. The order in which
/// operands are computed is the general evaluator's, so a filter that
/// throws throws the same error either way.
extension _Evaluator {
    /// How many nodes `isDirect` looks at before it gives up: the check runs
    /// each time a node is evaluated, so it must stay small for deep trees.
    private static let directBudget = 24

    /// Whether `filter` has exactly one output for every input, built from
    /// paths, literals, variables, operators and objects with plain keys.
    static func isDirect(_ filter: _Filter) -> Bool {
        var budget = directBudget
        return isDirect(filter, &budget)
    }

    private static func isDirect(_ filter: _Filter, _ budget: inout Int) -> Bool {
        budget -= 1
        guard budget >= 0 else { return false }
        switch filter {
        case .identity, .literal, .variable:
            return true
        case .index(let target, let index), .pipe(let target, let index):
            return isDirect(target, &budget) && isDirect(index, &budget)
        case .comparison(_, let left, let right), .arithmetic(_, let left, let right),
             .and(let left, let right), .or(let left, let right):
            return isDirect(left, &budget) && isDirect(right, &budget)
        case .negate(let body):
            return isDirect(body, &budget)
        case .object(let entries):
            for entry in entries {
                guard case .name = entry.key, isDirect(entry.value, &budget) else { return false }
            }
            return true
        default:
            return false
        }
    }

    /// The one output of a filter for which `isDirect` holds.
    static func directValue(_ filter: _Filter, _ input: JSONValue, _ env: _Environment) throws -> JSONValue {
        switch filter {
        case .identity:
            return input
        case .literal(let value):
            return value
        case .variable(let name):
            guard let value = env.variables[name] else {
                throw JSONFilterError(message: "$\(name) is not defined")
            }
            return value
        case .index(let target, let index):
            let container = try directValue(target, input, env)
            return try _Access.index(container, try directValue(index, input, env))
        case .pipe(let left, let right):
            return try directValue(right, try directValue(left, input, env), env)
        case .comparison(let op, let left, let right):
            // The right operand first, as in the general evaluator (and jq).
            let b = try directValue(right, input, env)
            return .bool(compare(op, try directValue(left, input, env), b))
        case .arithmetic(let op, let left, let right):
            let b = try directValue(right, input, env)
            return try _Arithmetic.apply(op, try directValue(left, input, env), b)
        case .and(let left, let right):
            guard try directValue(left, input, env).isTruthy else { return .bool(false) }
            return .bool(try directValue(right, input, env).isTruthy)
        case .or(let left, let right):
            guard try !directValue(left, input, env).isTruthy else { return .bool(true) }
            return .bool(try directValue(right, input, env).isTruthy)
        case .negate(let body):
            return try _Arithmetic.negate(try directValue(body, input, env))
        case .object(let entries):
            // Two arrays sized once, unless a key repeats (`{a: 1, a: 2}`:
            // the later value at the first place, through the subscript).
            var keys: [String] = [], values: [JSONValue] = []
            keys.reserveCapacity(entries.count)
            values.reserveCapacity(entries.count)
            var distinct = entries.count <= 16  // (the pairwise check is quadratic)
            for entry in entries {
                guard case .name(let key) = entry.key else { preconditionFailure("not a direct filter") }
                if distinct && keys.contains(key) { distinct = false }
                keys.append(key)
                values.append(try directValue(entry.value, input, env))
            }
            if distinct { return .object(JSONObject(_distinctKeys: keys, values: values)) }
            var object = JSONObject()
            for (key, value) in zip(keys, values) { object[key] = value }
            return .object(object)
        default:
            preconditionFailure("not a direct filter")
        }
    }
}
