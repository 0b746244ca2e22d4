// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// A parsed filter: the syntax tree, before names are resolved.
///
/// The compiler (`_Compiler`) turns it into the node tree the evaluator
/// runs; the demand analysis (`_Demand`) reads it to find which members of
/// an input a filter can observe.
indirect enum _Filter: Sendable {
    /// `.`
    case identity
    /// `..`: the input and everything inside it, depth first.
    case recurseAll
    case literal(JSONValue)
    /// `target[index]`, also `.name` (`index` a string literal).
    case index(_Filter, _Filter)
    /// `target[from:to]`, either bound optional.
    case slice(_Filter, _Filter?, _Filter?)
    /// `target[]`
    case iterate(_Filter)
    /// `f?`: errors in `f` end its output silently.
    case optional(_Filter)
    /// A string with interpolations, optionally under a format (`@csv "…"`).
    case string([_InterpolatedPiece], format: String?)
    /// `@name` applied to the input.
    case format(String)
    /// `[f]`
    case array(_Filter?)
    /// `{…}`
    case object([_ObjectEntry])
    case pipe(_Filter, _Filter)
    case comma(_Filter, _Filter)
    case arithmetic(_ArithmeticOperator, _Filter, _Filter)
    case comparison(_ComparisonOperator, _Filter, _Filter)
    case and(_Filter, _Filter)
    case or(_Filter, _Filter)
    /// `a // b`
    case alternative(_Filter, _Filter)
    /// `-f`
    case negate(_Filter)
    /// `if c then t (elif c then t)* (else e)? end`
    case conditional([(condition: _Filter, then: _Filter)], otherwise: _Filter?)
    /// `try body (catch handler)?`
    case tryCatch(_Filter, _Filter?)
    /// `source as p1 ?// p2 … | body`: one pattern, or alternatives.
    case bind(_Filter, [_Pattern], body: _Filter)
    /// `reduce source as p (initial; update)`
    case reduce(source: _Filter, pattern: _Pattern, initial: _Filter, update: _Filter)
    /// `foreach source as p (initial; update; extract)`
    case foreach(source: _Filter, pattern: _Pattern, initial: _Filter, update: _Filter, extract: _Filter?)
    /// `label $name | body`
    case label(String, body: _Filter)
    /// `break $name`
    case breakLabel(String, column: Int)
    /// `$name`
    case variable(String, column: Int)
    /// `name` or `name(a; b)`: a definition, a parameter or a built-in,
    /// resolved by the compiler.
    case call(String, [_Filter], column: Int)
    /// `def name(params): body; rest`
    case define(_FunctionDefinition, rest: _Filter)
    /// `lhs = rhs`, `lhs |= rhs`, `lhs += rhs`, …
    case assign(_AssignmentOperator, _Filter, _Filter)
}

/// `def name(f; $v): body;`
struct _FunctionDefinition: Sendable {
    let name: String
    /// Parameter names; a value parameter keeps its `$`.
    let parameters: [String]
    let body: _Filter
    let column: Int

    var arity: Int { parameters.count }
}

enum _InterpolatedPiece: Sendable {
    case text(String)
    case filter(_Filter)
}

/// One entry of an object construction.
struct _ObjectEntry: Sendable {
    let key: _ObjectKey
    let value: _Filter
}

enum _ObjectKey: Sendable {
    /// `a`, `"a"`, `$a` (the variable's name is the key)
    case name(String)
    /// `(f)`, `$a: v` or an interpolated string: each output is a key.
    case computed(_Filter)
    /// An interpolated string with no value (`{"\(f)"}`): each output is a
    /// key, and its value that member of the input (`.[key]`). The entry's
    /// value filter (`.[f]`) is kept for the demand analysis only.
    case computedMember(_Filter)
}

/// A destructuring pattern: `$x`, `[$a, $b]`, `{a: $x, $b, (f): [$c]}`.
indirect enum _Pattern: Sendable {
    case variable(String)
    case array([_Pattern])
    case object([_ObjectPatternEntry])

    /// Every variable the pattern binds, in order of first appearance.
    var variables: [String] {
        var names: [String] = []
        collect(into: &names)
        return names
    }

    private func collect(into names: inout [String]) {
        switch self {
        case .variable(let name):
            if !names.contains(name) { names.append(name) }
        case .array(let elements):
            for element in elements { element.collect(into: &names) }
        case .object(let entries):
            for entry in entries {
                if case .variable(let name) = entry.key, !names.contains(name) { names.append(name) }
                if case .computed(let key) = entry.key { key.patternVariables(into: &names) }
                entry.value?.collect(into: &names)
            }
        }
    }
}

struct _ObjectPatternEntry: Sendable {
    enum Key: Sendable {
        /// `$name` (binds the member `name` to `$name`)
        case variable(String)
        /// `name:`, `"name":`
        case name(String)
        /// `(f):` or an interpolated string
        case computed(_Filter)
    }
    let key: Key
    let value: _Pattern?
}

extension _Filter {
    /// Variables bound by a key expression of an object pattern never
    /// escape it; nothing to collect.
    fileprivate func patternVariables(into names: inout [String]) {}
}

enum _ArithmeticOperator: String, Sendable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", modulo = "%"
}

enum _ComparisonOperator: String, Sendable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
}

enum _AssignmentOperator: String, Sendable {
    case assign = "="
    case update = "|="
    case add = "+="
    case subtract = "-="
    case multiply = "*="
    case divide = "/="
    case modulo = "%="
    case alternative = "//="

    /// The arithmetic behind `op=`, for the arithmetic update operators.
    var arithmetic: _ArithmeticOperator? {
        switch self {
        case .add: return .add
        case .subtract: return .subtract
        case .multiply: return .multiply
        case .divide: return .divide
        case .modulo: return .modulo
        default: return nil
        }
    }
}
