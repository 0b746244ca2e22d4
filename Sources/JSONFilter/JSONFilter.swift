import StreamingJSON

/// A jq-syntax filter, compiled once and applied to any number of values.
///
/// ```swift
/// let filter = try JSONFilter("select(.abv > 8) | {name, style}")
/// let beer: JSONValue = ["name": "Oak", "abv": 9.5, "style": "stout"]
/// for result in try filter.apply(to: beer) {
///     print(result)   // {"name":"Oak","style":"stout"}
/// }
/// ```
///
/// With `StreamingJSONDecoder` it filters a huge array one element at a
/// time, as `jsonstream` does:
///
/// ```swift
/// let decoder = StreamingJSONDecoder()
/// for try await beer in decoder.elements(of: JSONValue.self, contentsOf: dumpURL) {
///     try filter.apply(to: beer) { print($0) }
/// }
/// ```
///
/// The language is a subset of jq 1.6: paths, pipes, comma, literals,
/// array and object construction, arithmetic and comparison with jq's
/// meaning per type, `and`/`or`/`not`, `//`, `if`, `try`, `as` bindings,
/// `reduce`, string interpolation, `@formats` and the common built-ins
/// (regular expressions through Oniguruma, jq's own engine). Anything else
/// is a compile error that names the column where it starts.
///
/// A compiled filter is immutable and `Sendable`: apply it from any number
/// of threads.
public struct JSONFilter: Sendable {
    let root: _Filter
    let environment: _Environment

    /// Compiles `source`. `arguments` are the `$name` variables (`--arg`, `--argjson`).
    ///
    /// ```swift
    /// let filter = try JSONFilter("select(.abv > $min)", arguments: ["min": 8])
    /// ```
    ///
    /// - Throws: `JSONFilterError` with the `column` of the offending construct.
    public init(_ source: String, arguments: [String: JSONValue] = [:]) throws {
        root = try _Parser.parse(source, variables: Set(arguments.keys))
        environment = _Environment(variables: arguments)
    }

    /// Every output of the filter for `input`, in order.
    ///
    /// - Throws: `JSONFilterError` on a runtime error (`error(…)`, a type mismatch).
    public func apply(to input: JSONValue) throws -> [JSONValue] {
        var results: [JSONValue] = []
        try apply(to: input) { results.append($0) }
        return results
    }

    /// Hands each output to `emit` as soon as it is produced. An error thrown
    /// by `emit` stops the filter and is rethrown unchanged.
    public func apply(to input: JSONValue, emit: (JSONValue) throws -> Void) throws {
        try _Evaluator.evaluate(root, input, environment, emit)
    }
}
