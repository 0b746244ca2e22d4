// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// A whole program or module: its directives, then its filter.
struct _ParsedProgram: Sendable {
    /// `module {…};`
    var metadata: JSONValue?
    var imports: [_Import] = []
    /// The query, with the definitions before it wrapped around it. A
    /// module without a query ends in `.identity`.
    var filter: _Filter
    /// The top-level definitions, in order (what a module exports).
    var definitions: [_FunctionDefinition] = []
    /// Whether the text ended after its definitions, with no query.
    var hasQuery = true
}

/// `import "path" as name;`, `import "path" as $name;`, `include "path";`
struct _Import: Sendable {
    let path: String
    /// nil for `include`; the name for `as name`; `$name` for data.
    let alias: String?
    let metadata: JSONValue?
    let column: Int

    var isData: Bool { alias?.hasPrefix("$") ?? false }
}

/// Parses filter text with jq 1.8's grammar, from loosest to tightest:
///
///     def/as/label (scope to the end)   |  (right)   ,  (left)   //  (right)
///     = |= += -= *= /= %= //=  (none)   or   and   == != < <= > >=  (none)
///     + -   * / %   unary -   postfix: .a ."s" [e] [] [a:b] ?   terms
struct _Parser {
    var tokens: [_Token]
    var position = 0
    /// The source's scalars, for `$__loc__`'s line number.
    let lineStarts: [Int]

    /// How deep the tree being built is at the current point (an upper
    /// bound): see `deeper()`.
    var nesting = 0

    /// The parser, and every walk of the finished tree after it, recurses
    /// about once per level, so a program nested deeper than this is a
    /// compile error, not a stack overflow.
    static let maxNesting = 256

    static let keywords: Set<String> = [
        "as", "def", "module", "import", "include", "if", "then", "else", "elif", "reduce", "foreach", "end",
        "and", "or", "try", "catch", "label", "break", "__loc__",
    ]

    static func parse(_ source: String) throws -> _Filter {
        try parseProgram(source).filter
    }

    static func parseProgram(_ source: String) throws -> _ParsedProgram {
        var starts = [0]
        for (offset, scalar) in source.unicodeScalars.enumerated() where scalar == "\n" { starts.append(offset + 1) }
        var parser = _Parser(tokens: try _Lexer.tokens(of: source), lineStarts: starts)
        return try parser.program()
    }

    init(tokens: [_Token], lineStarts: [Int]) {
        self.tokens = tokens
        self.lineStarts = lineStarts
    }

    // MARK: Tokens

    var peek: _Token { tokens[position] }

    func peek(_ offset: Int) -> _Token {
        tokens[min(position + offset, tokens.count - 1)]
    }

    mutating func advance() -> _Token {
        defer { if position < tokens.count - 1 { position += 1 } }
        return tokens[position]
    }

    func isSymbol(_ symbol: String) -> Bool { peek.kind == .symbol(symbol) }
    func isKeyword(_ word: String) -> Bool { peek.kind == .identifier(word) }

    mutating func expect(_ symbol: String) throws {
        guard isSymbol(symbol) else { throw unexpected() }
        _ = advance()
    }

    mutating func expectKeyword(_ word: String) throws {
        guard isKeyword(word) else { throw unexpected() }
        _ = advance()
    }

    /// The 1-based line of a column.
    func line(of column: Int) -> Int {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= column - 1 { low = mid } else { high = mid - 1 }
        }
        return low + 1
    }

    /// One level deeper; callers restore `nesting` when they return.
    mutating func deeper() throws {
        nesting += 1
        guard nesting <= Self.maxNesting else {
            throw JSONFilterError(message: "syntax error: nested deeper than \(Self.maxNesting) levels", column: peek.column)
        }
    }

    /// jq's (bison's) wording for the token it could not take.
    /// `$__loc__` where a variable is bound: jq's lexer reads it as a token
    /// of its own, which no binding takes.
    func locationBinding(_ token: _Token, expecting: String) -> JSONFilterError {
        JSONFilterError(message: "syntax error, unexpected $__loc__\(expecting)", column: token.column)
    }

    func unexpected(_ token: _Token? = nil) -> JSONFilterError {
        let token = token ?? peek
        // The first token of a program: bison could still have taken the
        // end of the text there; a closing bracket nothing opened is one
        // jq's lexer does not even return.
        let isFirst = token.column == tokens[0].column
        var what: String
        switch token.kind {
        case .end: what = "end of file"
        case .symbol("INVALID_CHARACTER"): what = "INVALID_CHARACTER"
        case .symbol(let s): what = "'\(s)'"
        case .identifier(let name) where Self.keywords.contains(name): what = name
        case .identifier: what = "IDENT"
        case .field: what = "FIELD"
        case .variable: what = "BINDING"
        case .format: what = "FORMAT"
        case .number: what = "LITERAL"
        case .string: what = "QQSTRING_START"
        }
        if isFirst, [.symbol("}"), .symbol("]"), .symbol(")")].contains(token.kind) { what = "INVALID_CHARACTER" }
        var message = "syntax error, unexpected \(what)"
        if isFirst, token.kind != .end { message += ", expecting end of file" }
        // jq places an unexpected end at the last token before it.
        if token.kind == .end, tokens.count > 1 {
            return JSONFilterError(message: message, column: tokens[tokens.count - 2].column)
        }
        return JSONFilterError(message: message, column: token.column)
    }

    // MARK: Program

    mutating func program() throws -> _ParsedProgram {
        var program = _ParsedProgram(filter: .identity)
        if isKeyword("module") {
            _ = advance()
            let column = peek.column
            program.metadata = try constantObject(try postfix(), column: column)
            try expect(";")
        }
        while isKeyword("import") || isKeyword("include") {
            program.imports.append(try importDirective())
        }
        var definitions: [_FunctionDefinition] = []
        while isKeyword("def") {
            definitions.append(try definition())
        }
        if peek.kind == .end {
            program.hasQuery = false
        } else {
            nesting = 1
            program.filter = try pipe()
            nesting = 0
            guard peek.kind == .end else { throw unexpected() }
        }
        program.definitions = definitions
        for definition in definitions.reversed() {
            program.filter = .define(definition, rest: program.filter)
        }
        return program
    }

    private mutating func importDirective() throws -> _Import {
        let isInclude = isKeyword("include")
        _ = advance()
        let pathToken = peek
        guard case .string(let pieces) = pathToken.kind else { throw unexpected() }
        _ = advance()
        guard pieces.count == 1, case .text(let path) = pieces[0] else {
            throw JSONFilterError(message: "Import path must be constant", column: pathToken.column)
        }
        var alias: String?
        if !isInclude {
            try expectKeyword("as")
            switch advance().kind {
            case .identifier(let name): alias = name
            case .variable(let name): alias = "$" + name
            default: throw unexpected(peek(-1))
            }
        }
        var metadata: JSONValue?
        if !isSymbol(";") {
            let column = peek.column
            metadata = try constantObject(try postfix(), column: column)
        }
        try expect(";")
        return _Import(path: path, alias: alias, metadata: metadata, column: pathToken.column)
    }

    /// Module metadata must be a constant object.
    private func constantObject(_ filter: _Filter, column: Int) throws -> JSONValue {
        guard let value = _Parser.constantValue(filter) else {
            throw JSONFilterError(message: "Module metadata must be constant", column: column)
        }
        guard case .object = value else {
            throw JSONFilterError(message: "Module metadata must be an object", column: column)
        }
        return value
    }

    /// The value of a filter made of literals only.
    static func constantValue(_ filter: _Filter) -> JSONValue? {
        switch filter {
        case .literal(let value):
            return value
        case .string(let pieces, nil):
            if pieces.count == 1, case .text(let text) = pieces[0] { return .string(text) }
            if pieces.isEmpty { return .string("") }
            return nil
        case .array(nil):
            return .array([])
        case .array(let body?):
            var items: [JSONValue] = []
            var pending = [body]
            while let next = pending.popLast() {
                if case .comma(let a, let b) = next {
                    pending.append(b)
                    pending.append(a)
                } else if let value = constantValue(next) {
                    items.append(value)
                } else {
                    return nil
                }
            }
            return .array(items)
        case .object(let entries):
            var object = JSONObject()
            for entry in entries {
                guard case .name(let key) = entry.key, let value = constantValue(entry.value) else { return nil }
                object[key] = value
            }
            return .object(object)
        default:
            return nil
        }
    }

    // MARK: Queries

    /// `def f: …; rest`
    mutating func definition() throws -> _FunctionDefinition {
        let column = peek.column
        try expectKeyword("def")
        let nameToken = advance()
        let name: String
        switch nameToken.kind {
        case .identifier(let word) where !Self.keywords.contains(word) || word == "__loc__": name = word
        case .identifier(let word): name = word
        default: throw unexpected(nameToken)
        }
        var parameters: [String] = []
        if isSymbol("(") {
            _ = advance()
            while true {
                switch advance().kind {
                case .identifier(let word): parameters.append(word)
                case .variable("__loc__"):
                    throw locationBinding(peek(-1), expecting: ", expecting IDENT or BINDING")
                case .variable(let word): parameters.append("$" + word)
                default: throw unexpected(peek(-1))
                }
                if isSymbol(";") { _ = advance(); continue }
                try expect(")")
                break
            }
        }
        try expect(":")
        let outer = nesting
        nesting = max(nesting, 1)
        let body = try pipe()
        nesting = outer
        try expect(";")
        return _FunctionDefinition(name: name, parameters: parameters, body: body, column: column)
    }

    /// A query: pipes of comma lists, where `def`, `as` and `label` take
    /// everything to the end of the enclosing query as their body.
    mutating func pipe() throws -> _Filter {
        let outer = nesting
        defer { nesting = outer }
        try deeper()
        if isKeyword("def") {
            let definition = try definition()
            return .define(definition, rest: try pipe())
        }
        let left = try comma()
        if isSymbol("|") {
            _ = advance()
            return .pipe(left, try pipe())
        }
        return left
    }

    /// `a, b, c, …` as a balanced tree, so that a long list nests about
    /// log₂ n levels, not n (`,` is associative).
    private mutating func comma() throws -> _Filter {
        var items = [try commaItem()]
        while isSymbol(",") {
            _ = advance()
            items.append(try commaItem())
        }
        return Self.balancedComma(items[...])
    }

    private static func balancedComma(_ items: ArraySlice<_Filter>) -> _Filter {
        if items.count == 1 { return items.first! }
        let middle = items.startIndex + items.count / 2
        return .comma(balancedComma(items[..<middle]), balancedComma(items[middle...]))
    }

    /// One item of a comma list; a binding, `label` or `def` here takes the
    /// rest of the query.
    private mutating func commaItem() throws -> _Filter {
        if isKeyword("def") {
            let definition = try definition()
            return .define(definition, rest: try pipe())
        }
        if isKeyword("label") {
            _ = advance()
            guard case .variable(let name) = peek.kind else { throw unexpected() }
            _ = advance()
            try expect("|")
            return .label(name, body: try pipe())
        }
        let source = try alternative()
        if isKeyword("as") {
            _ = advance()
            let patterns = try patternAlternatives()
            try expect("|")
            return .bind(source, patterns, body: try pipe())
        }
        return source
    }

    mutating func alternative() throws -> _Filter {
        let outer = nesting
        defer { nesting = outer }
        let left = try assignment()
        if isSymbol("//") {
            _ = advance()
            try deeper()
            return .alternative(left, try alternative())
        }
        return left
    }

    private mutating func assignment() throws -> _Filter {
        let left = try or()
        if case .symbol(let s) = peek.kind, let op = _AssignmentOperator(rawValue: s) {
            _ = advance()
            let outer = nesting
            defer { nesting = outer }
            try deeper()
            // The right side may itself be an alternative (`.a = .b // 1`).
            let right = try alternativeOperand()
            if case .symbol(let t) = peek.kind, _AssignmentOperator(rawValue: t) != nil { throw unexpected() }
            return .assign(op, left, right)
        }
        return left
    }

    /// `//` binds looser than assignment but the right side of `=` takes a
    /// whole alternative (jq's `%right "//"` over `%nonassoc '='`).
    private mutating func alternativeOperand() throws -> _Filter {
        let left = try or()
        if isSymbol("//") {
            _ = advance()
            try deeper()
            return .alternative(left, try alternativeOperand())
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

    private func operandValue(_ filter: _Filter) -> JSONValue {
        if case .literal(let value) = filter { return value }
        return .null
    }

    /// `-term`; a negated number literal stays a literal with its text.
    mutating func unary() throws -> _Filter {
        guard isSymbol("-") else { return try postfix() }
        _ = advance()
        let outer = nesting
        defer { nesting = outer }
        try deeper()
        let operand = try postfix()
        if case .literal(.number) = operand, let negated = try? _Arithmetic.negate(operandValue(operand)) {
            return .literal(negated)
        }
        return .negate(operand)
    }
}
