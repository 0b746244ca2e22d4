import StreamingJSON

/// Parses filter text into a `_Filter`, with jq's precedence, from loosest
/// to tightest:
///
///     |  (right)   ,  (left)   //  (right)   or   and   == != < <= > >=
///     + -   * / %   unary -   postfix: .a [e] [] [a:b] ?   terms
///
/// `term as $x | body` and the bodies of `if`, `reduce` and `try` follow
/// jq 1.6's grammar. Anything outside the supported subset is rejected with
/// the column where it starts.
struct _Parser {
    private var tokens: [_Token]
    private var position = 0

    /// Variables visible at the current point: the arguments plus enclosing `as` bindings.
    private var scope: Set<String>

    /// How deep the tree being built is at the current point (an upper
    /// bound): see `deeper()`.
    private var nesting = 0

    /// The parser, and every walk of the finished tree after it (evaluation,
    /// demand analysis, its release), recurses about once per level, so a
    /// program nested deeper than this is a compile error, not a stack
    /// overflow. Hand-written programs stay far below it.
    static let maxNesting = 256

    static func parse(_ source: String, variables: Set<String> = [], columnOffset: Int = 0,
                      nesting: Int = 0) throws -> _Filter {
        var parser = _Parser(tokens: try _Lexer.tokens(of: source, columnOffset: columnOffset), scope: variables)
        parser.nesting = nesting
        if parser.peek.kind == .end { return .identity }
        let filter = try parser.pipe()
        guard parser.peek.kind == .end else { throw parser.unexpected() }
        return filter
    }

    private init(tokens: [_Token], scope: Set<String>) {
        self.tokens = tokens
        self.scope = scope
    }

    /// Parses `body` with `name` bound.
    private mutating func binding<T>(_ name: String, _ body: (inout _Parser) throws -> T) rethrows -> T {
        let saved = scope
        scope.insert(name)
        defer { scope = saved }
        return try body(&self)
    }

    private func variable(_ name: String, column: Int) throws -> _Filter {
        guard scope.contains(name) else { throw JSONFilterError(message: "$\(name) is not defined", column: column) }
        return .variable(name)
    }

    private var peek: _Token { tokens[position] }

    /// One level deeper; callers restore `nesting` when they return.
    private mutating func deeper() throws {
        nesting += 1
        guard nesting <= Self.maxNesting else {
            throw JSONFilterError(message: "syntax error: nested deeper than \(Self.maxNesting) levels", column: peek.column)
        }
    }

    private mutating func advance() -> _Token {
        defer { if position < tokens.count - 1 { position += 1 } }
        return tokens[position]
    }

    private func isSymbol(_ symbol: String) -> Bool { peek.kind == .symbol(symbol) }
    private func isKeyword(_ word: String) -> Bool { peek.kind == .identifier(word) }

    private mutating func expect(_ symbol: String) throws {
        guard isSymbol(symbol) else { throw unexpected(expecting: "'\(symbol)'") }
        _ = advance()
    }

    private mutating func expectKeyword(_ word: String) throws {
        guard isKeyword(word) else { throw unexpected(expecting: "'\(word)'") }
        _ = advance()
    }

    private func unexpected(expecting: String? = nil) -> JSONFilterError {
        let what: String
        switch peek.kind {
        case .end: what = "end of filter"
        case .symbol(let s): what = "'\(s)'"
        case .identifier(let name): what = "'\(name)'"
        case .field(let name): what = "'.\(name)'"
        case .variable(let name): what = "'$\(name)'"
        case .format(let name): what = "'@\(name)'"
        case .number(let n): what = "number \(JSONNumber(n))"
        case .string: what = "string"
        }
        let message = expecting.map { "syntax error: unexpected \(what), expecting \($0)" } ?? "syntax error: unexpected \(what)"
        return JSONFilterError(message: message, column: peek.column)
    }

    // MARK: Operators, loosest first

    private mutating func pipe(allowsComma: Bool = true) throws -> _Filter {
        let outer = nesting
        defer { nesting = outer }
        try deeper()
        let left = allowsComma ? try comma() : try alternative()
        if isSymbol("|") {
            _ = advance()
            return .pipe(left, try pipe(allowsComma: allowsComma))
        }
        return left
    }

    /// `a, b, c, …`: a balanced tree, so that a long list (`[1, 2, …, 5000]`)
    /// nests about log₂ n levels, not n. `,` is associative: the order of the
    /// outputs is the same for any grouping.
    private mutating func comma() throws -> _Filter {
        var items = [try alternative()]
        while isSymbol(",") {
            _ = advance()
            items.append(try alternative())
        }
        return Self.balancedComma(items[...])
    }

    private static func balancedComma(_ items: ArraySlice<_Filter>) -> _Filter {
        if items.count == 1 { return items.first! }
        let middle = items.startIndex + items.count / 2
        return .comma(balancedComma(items[..<middle]), balancedComma(items[middle...]))
    }

    private mutating func alternative() throws -> _Filter {
        let outer = nesting
        defer { nesting = outer }
        let left = try or()
        if isSymbol("//") {
            _ = advance()
            try deeper()
            return .alternative(left, try alternative())
        }
        return left
    }

    private mutating func or() throws -> _Filter {
        let outer = nesting
        defer { nesting = outer }
        var left = try and()
        while isKeyword("or") {
            _ = advance()
            try deeper()
            left = .or(left, try and())
        }
        return left
    }

    private mutating func and() throws -> _Filter {
        let outer = nesting
        defer { nesting = outer }
        var left = try comparison()
        while isKeyword("and") {
            _ = advance()
            try deeper()
            left = .and(left, try comparison())
        }
        return left
    }

    private mutating func comparison() throws -> _Filter {
        let left = try additive()
        if case .symbol(let s) = peek.kind, let op = _ComparisonOperator(rawValue: s) {
            _ = advance()
            let right = try additive()
            if case .symbol(let t) = peek.kind, _ComparisonOperator(rawValue: t) != nil {
                throw unexpected()  // comparisons do not chain (jq: nonassoc)
            }
            return .comparison(op, left, right)
        }
        return left
    }

    private mutating func additive() throws -> _Filter {
        let outer = nesting
        defer { nesting = outer }
        var left = try multiplicative()
        while case .symbol(let s) = peek.kind, s == "+" || s == "-" {
            _ = advance()
            try deeper()
            left = .arithmetic(_ArithmeticOperator(rawValue: s)!, left, try multiplicative())
        }
        return left
    }

    private mutating func multiplicative() throws -> _Filter {
        let outer = nesting
        defer { nesting = outer }
        var left = try unary()
        while case .symbol(let s) = peek.kind, s == "*" || s == "/" || s == "%" {
            _ = advance()
            try deeper()
            left = .arithmetic(_ArithmeticOperator(rawValue: s)!, left, try unary())
        }
        return left
    }

    private mutating func unary() throws -> _Filter {
        if isSymbol("-") {
            _ = advance()
            let outer = nesting
            defer { nesting = outer }
            try deeper()
            return .negate(try unary())
        }
        return try postfix()
    }

    // MARK: Terms

    /// A term with its suffixes, and `term as $x | body`.
    private mutating func postfix() throws -> _Filter {
        let outer = nesting
        defer { nesting = outer }
        try deeper()  // a term (`try try …` recurses through here)
        var term = try primary()
        while true {
            switch peek.kind {
            case .field(let name):
                _ = advance()
                try deeper()  // each suffix wraps the term one level deeper
                term = .index(term, .literal(.string(name)))
            case .symbol("."):
                // `."name"` or `.[…]` after a term.
                let next = tokens[position + 1].kind
                if case .string(let pieces) = next {
                    _ = advance()
                    let column = advance().column
                    try deeper()
                    term = .index(term, try stringFilter(pieces, column: column, format: nil))
                } else if next == .symbol("[") {
                    _ = advance()
                    try deeper()
                    term = try bracketSuffix(term)
                } else {
                    return term
                }
            case .symbol("["):
                try deeper()
                term = try bracketSuffix(term)
            case .symbol("?"):
                _ = advance()
                try deeper()
                term = .optional(term)
            case .identifier("as"):
                _ = advance()
                guard case .variable(let name) = peek.kind else { throw unexpected(expecting: "$name") }
                _ = advance()
                try expect("|")
                return .bind(term, name: name, body: try binding(name) { try $0.pipe() })
            default:
                return term
            }
        }
    }

    /// `[]`, `[e]`, `[e:]`, `[:e]`, `[e:e]` after `term`.
    private mutating func bracketSuffix(_ term: _Filter) throws -> _Filter {
        try expect("[")
        if isSymbol("]") {
            _ = advance()
            return .iterate(term)
        }
        if isSymbol(":") {
            _ = advance()
            let upper = try pipe()
            try expect("]")
            return .slice(term, nil, upper)
        }
        let index = try pipe()
        if isSymbol(":") {
            _ = advance()
            if isSymbol("]") {
                _ = advance()
                return .slice(term, index, nil)
            }
            let upper = try pipe()
            try expect("]")
            return .slice(term, index, upper)
        }
        try expect("]")
        return .index(term, index)
    }

    private mutating func primary() throws -> _Filter {
        let token = peek
        switch token.kind {
        case .symbol("."):
            _ = advance()
            if case .string(let pieces) = peek.kind {
                let column = advance().column
                return .index(.identity, try stringFilter(pieces, column: column, format: nil))
            }
            if isSymbol("[") { return try bracketSuffix(.identity) }
            return .identity
        case .symbol(".."):
            _ = advance()
            return .recurse
        case .field(let name):
            _ = advance()
            return .index(.identity, .literal(.string(name)))
        case .number(let value):
            _ = advance()
            return .literal(.number(JSONNumber(value)))
        case .string(let pieces):
            _ = advance()
            return try stringFilter(pieces, column: token.column, format: nil)
        case .format(let name):
            _ = advance()
            try _Formats.check(name, column: token.column)
            if case .string(let pieces) = peek.kind {
                let column = advance().column
                return try stringFilter(pieces, column: column, format: name)
            }
            return .format(name)
        case .variable(let name):
            let column = advance().column
            return try variable(name, column: column)
        case .symbol("("):
            _ = advance()
            let inner = try pipe()
            try expect(")")
            return inner
        case .symbol("["):
            _ = advance()
            if isSymbol("]") {
                _ = advance()
                return .array(nil)
            }
            let inner = try pipe()
            try expect("]")
            return .array(inner)
        case .symbol("{"):
            return try objectConstruction()
        case .identifier(let name):
            return try word(name, column: token.column)
        default:
            throw unexpected()
        }
    }

    private mutating func word(_ name: String, column: Int) throws -> _Filter {
        switch name {
        case "true":
            _ = advance()
            return .literal(.bool(true))
        case "false":
            _ = advance()
            return .literal(.bool(false))
        case "null":
            _ = advance()
            return .literal(.null)
        case "if":
            _ = advance()
            var branches: [(condition: _Filter, then: _Filter)] = []
            let condition = try pipe()
            try expectKeyword("then")
            branches.append((condition, try pipe()))
            var otherwise: _Filter?
            while true {
                if isKeyword("elif") {
                    _ = advance()
                    let condition = try pipe()
                    try expectKeyword("then")
                    branches.append((condition, try pipe()))
                } else if isKeyword("else") {
                    _ = advance()
                    otherwise = try pipe()
                    try expectKeyword("end")
                    break
                } else {
                    try expectKeyword("end")
                    break
                }
            }
            return .conditional(branches, otherwise: otherwise)
        case "try":
            _ = advance()
            let body = try postfixBody()
            if isKeyword("catch") {
                _ = advance()
                return .tryCatch(body, try postfixBody())
            }
            return .tryCatch(body, nil)
        case "reduce":
            _ = advance()
            let source = try postfixTerm()
            try expectKeyword("as")
            guard case .variable(let variable) = peek.kind else { throw unexpected(expecting: "$name") }
            _ = advance()
            try expect("(")
            let initial = try pipe()
            try expect(";")
            let update = try binding(variable) { try $0.pipe() }
            try expect(")")
            return .reduce(source: source, name: variable, initial: initial, update: update)
        case "def", "label", "foreach", "import", "include", "__loc__":
            throw JSONFilterError(message: "unsupported construct '\(name)' (not part of jsonstream's jq subset)",
                                  column: column)
        case "then", "else", "elif", "end", "as", "catch", "and", "or":
            throw unexpected()
        default:
            _ = advance()
            var arguments: [_Filter] = []
            if isSymbol("(") {
                _ = advance()
                arguments.append(try pipe())
                while isSymbol(";") {
                    _ = advance()
                    arguments.append(try pipe())
                }
                try expect(")")
            }
            guard let builtin = _Builtin(name: name, arity: arguments.count) else {
                throw JSONFilterError(message: "unsupported function \(name)/\(arguments.count)", column: column)
            }
            return .call(builtin, arguments, column: column)
        }
    }

    /// The body of `try`/`catch`: a postfix term (jq 1.6 binds `try` tightly).
    private mutating func postfixBody() throws -> _Filter {
        try postfix()
    }

    /// A postfix term without `as` (the source of `reduce`).
    private mutating func postfixTerm() throws -> _Filter {
        let outer = nesting
        defer { nesting = outer }
        try deeper()
        var term = try primary()
        while true {
            switch peek.kind {
            case .field(let name):
                _ = advance()
                try deeper()  // each suffix wraps the term one level deeper
                term = .index(term, .literal(.string(name)))
            case .symbol("["):
                try deeper()
                term = try bracketSuffix(term)
            case .symbol("?"):
                _ = advance()
                try deeper()
                term = .optional(term)
            default:
                return term
            }
        }
    }

    private mutating func objectConstruction() throws -> _Filter {
        try expect("{")
        var entries: [(key: _ObjectKey, value: _Filter)] = []
        if isSymbol("}") {
            _ = advance()
            return .object(entries)
        }
        while true {
            let token = peek
            var key: _ObjectKey
            var shorthand: _Filter
            switch token.kind {
            case .identifier(let name):
                _ = advance()
                key = .name(name)
                shorthand = .index(.identity, .literal(.string(name)))
            case .variable(let name):
                _ = advance()
                key = .name(name)
                shorthand = try variable(name, column: token.column)
            case .string(let pieces):
                _ = advance()
                let filter = try stringFilter(pieces, column: token.column, format: nil)
                if case .literal(.string(let name)) = filter {
                    key = .name(name)
                } else {
                    key = .computedMember(filter)
                }
                shorthand = .index(.identity, filter)
            case .format(let name):
                _ = advance()
                try _Formats.check(name, column: token.column)
                guard case .string(let pieces) = peek.kind else { throw unexpected(expecting: "string") }
                let column = advance().column
                let filter = try stringFilter(pieces, column: column, format: name)
                key = .computedMember(filter)
                shorthand = .index(.identity, filter)
            case .number:
                throw JSONFilterError(message: "object keys must be strings", column: token.column)
            case .symbol("("):
                _ = advance()
                let filter = try pipe()
                try expect(")")
                key = .computed(filter)
                guard isSymbol(":") else { throw unexpected(expecting: "':'") }
                shorthand = .identity
            default:
                throw unexpected(expecting: "an object key")
            }
            if isSymbol(":") {
                _ = advance()
                shorthand = try objectValue()
                if case .computedMember(let filter) = key { key = .computed(filter) }
            }
            entries.append((key, shorthand))
            if isSymbol(",") {
                _ = advance()
                continue
            }
            try expect("}")
            return .object(entries)
        }
    }

    /// An object member's value: anything up to the next `,` or `}`
    /// (jq 1.6 accepts less: a term, `-`term, or terms joined by `|`).
    private mutating func objectValue() throws -> _Filter {
        try pipe(allowsComma: false)
    }

    /// A string literal's filter: a constant, or interpolations joined.
    private func stringFilter(_ pieces: [_StringPiece], column: Int, format: String?) throws -> _Filter {
        var parts: [_InterpolatedPiece] = []
        for piece in pieces {
            switch piece {
            case .text(let text): parts.append(.text(text))
            case .interpolation(let source, let column):
                parts.append(.filter(try _Parser.parse(source, variables: scope, columnOffset: column - 1,
                                                       nesting: nesting)))
            }
        }
        if parts.count == 1, case .text(let text) = parts[0] { return .literal(.string(text)) }
        return .string(parts, format: format)
    }
}
