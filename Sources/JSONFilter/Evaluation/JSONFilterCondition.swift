// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// The condition of a `select` that reads nothing but member paths of its
/// input, each alone or compared with a constant: `.active`, `.abv > 8`,
/// `.style == "ipa" and (.ibu | not)`, `.price < $max`. A caller that can
/// find the value at a path without building the input (`jsonstream`, on
/// the tape) decides the condition with `holds(valueAt:)`, and runs the
/// filter only where a path cannot be followed.
package struct JSONFilterCondition: Sendable {
    /// The member paths the condition reads, each once; `[]` is the input.
    package let paths: [[String]]
    private let root: _Test

    /// One test of the condition; paths by their index in `paths`.
    private indirect enum _Test: Sendable {
        case truthy(path: Int)
        case compare(_ComparisonOperator, path: Int, constant: JSONValue, pathFirst: Bool)
        case and(_Test, _Test)
        case or(_Test, _Test)
        case not(_Test)
    }

    /// The condition `filter` makes, or nil when it is anything else.
    /// `arguments` are the program's `$name` variables.
    init?(_ filter: _Filter, arguments: [String: JSONValue]) {
        var paths: [[String]] = []
        guard let root = Self.test(filter, arguments: arguments, paths: &paths) else { return nil }
        self.paths = paths
        self.root = root
    }

    /// Whether the condition holds, jq's way (`and` and `or` read their
    /// right side only when the left does not decide), with `valueAt(i)`
    /// the value at `paths[i]`: `null` for a missing member or one under
    /// `null`, nil where the path meets a value that is neither an object
    /// nor `null`. An array or object may come empty: every constant is a
    /// scalar, so a test decides by type alone there. Nil when a path it
    /// reads is nil: the filter, run on the input, says what is wrong.
    package func holds(valueAt: (Int) -> JSONValue?) -> Bool? {
        Self.holds(root, valueAt: valueAt)
    }

    private static func holds(_ test: _Test, valueAt: (Int) -> JSONValue?) -> Bool? {
        switch test {
        case .truthy(let path):
            return valueAt(path)?.isTruthy
        case .compare(let operation, let path, let constant, let pathFirst):
            guard let value = valueAt(path) else { return nil }
            return try? compare(operation, pathFirst ? value : constant, pathFirst ? constant : value)
        case .and(let left, let right):
            guard let first = holds(left, valueAt: valueAt) else { return nil }
            return first ? holds(right, valueAt: valueAt) : false
        case .or(let left, let right):
            guard let first = holds(left, valueAt: valueAt) else { return nil }
            return first ? true : holds(right, valueAt: valueAt)
        case .not(let inner):
            return holds(inner, valueAt: valueAt).map { !$0 }
        }
    }

    /// `a OP b`, as the evaluator computes it.
    private static func compare(_ operation: _ComparisonOperator, _ a: JSONValue, _ b: JSONValue) throws -> Bool {
        switch operation {
        case .equal: return try JSONValue._equal(a, b)
        case .notEqual: return try !JSONValue._equal(a, b)
        case .less: return try JSONValue._compare(a, b) < 0
        case .lessOrEqual: return try JSONValue._compare(a, b) <= 0
        case .greater: return try JSONValue._compare(a, b) > 0
        case .greaterOrEqual: return try JSONValue._compare(a, b) >= 0
        }
    }

    private static func test(_ filter: _Filter, arguments: [String: JSONValue], paths: inout [[String]]) -> _Test? {
        switch filter {
        case .and(let left, let right), .or(let left, let right):
            guard let first = test(left, arguments: arguments, paths: &paths),
                  let second = test(right, arguments: arguments, paths: &paths) else { return nil }
            if case .and = filter { return .and(first, second) }
            return .or(first, second)
        case .pipe(let inner, .call("not", let notArguments, _)) where notArguments.isEmpty:
            return test(inner, arguments: arguments, paths: &paths).map(_Test.not)
        case .comparison(let operation, let left, let right):
            if let path = JSONFilter.memberPath(of: left), let constant = constant(right, arguments: arguments) {
                return .compare(operation, path: index(of: path, in: &paths), constant: constant, pathFirst: true)
            }
            if let path = JSONFilter.memberPath(of: right), let constant = constant(left, arguments: arguments) {
                return .compare(operation, path: index(of: path, in: &paths), constant: constant, pathFirst: false)
            }
            return nil
        default:
            return JSONFilter.memberPath(of: filter).map { .truthy(path: index(of: $0, in: &paths)) }
        }
    }

    /// A constant that is not a container: a literal, a string without
    /// interpolation, or a `$name` argument.
    private static func constant(_ filter: _Filter, arguments: [String: JSONValue]) -> JSONValue? {
        let value: JSONValue
        switch filter {
        case .literal(let literal):
            value = literal
        case .string(let pieces, format: nil):
            guard pieces.count <= 1 else { return nil }
            guard case .text(let text)? = pieces.first else { return pieces.isEmpty ? .string("") : nil }
            value = .string(text)
        case .variable(let name, _):
            guard let argument = arguments[name] else { return nil }
            value = argument
        default:
            return nil
        }
        switch value {
        case .array, .object: return nil
        default: return value
        }
    }

    private static func index(of path: [String], in paths: inout [[String]]) -> Int {
        if let index = paths.firstIndex(of: path) { return index }
        paths.append(path)
        return paths.count - 1
    }
}
