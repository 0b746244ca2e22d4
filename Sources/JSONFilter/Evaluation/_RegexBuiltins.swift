import StreamingJSON

/// test, match, capture, sub, gsub, split/2 (placeholder until the Oniguruma wrapper lands).
enum _RegexBuiltins {
    static func call(_ builtin: _Builtin, _ args: [_Filter], _ input: JSONValue, _ env: _Environment,
                     _ emit: (JSONValue) throws -> Void) throws {
        throw JSONFilterError(message: "\(builtin.name)/\(builtin.arity) is not implemented")
    }
}
