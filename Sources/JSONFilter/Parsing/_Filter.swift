import StreamingJSON

/// A parsed filter: the tree the evaluator walks for every input.
indirect enum _Filter: Sendable {
    /// `.`
    case identity
    /// `..`: the input and everything inside it, depth first.
    case recurse
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
    case object([(key: _ObjectKey, value: _Filter)])
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
    /// `source as $name | body`
    case bind(_Filter, name: String, body: _Filter)
    /// `reduce source as $name (initial; update)`
    case reduce(source: _Filter, name: String, initial: _Filter, update: _Filter)
    case variable(String)
    /// A built-in function and its arguments (filters, evaluated lazily).
    case call(_Builtin, [_Filter], column: Int)
}

enum _InterpolatedPiece: Sendable {
    case text(String)
    case filter(_Filter)
}

enum _ObjectKey: Sendable {
    /// `a`, `"a"`, `$a` (the variable's name is the key)
    case name(String)
    /// `(f)` or an interpolated string: each output is a key.
    case computed(_Filter)
    /// An interpolated string with no value (`{"\(f)"}`): each output is a
    /// key, and its value that member of the input (`.[key]`). The key is
    /// evaluated once per output, as jq does; the entry's value filter
    /// (`.[f]`) is kept for the demand analysis only.
    case computedMember(_Filter)
}

enum _ArithmeticOperator: String, Sendable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", modulo = "%"
}

enum _ComparisonOperator: String, Sendable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
}
