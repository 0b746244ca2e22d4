// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

extension _Parser {
    // MARK: Postfix

    /// A term followed by any number of `.a`, `."s"`, `[e]`, `[]`, `[a:b]`, `?`.
    mutating func postfix() throws -> _Filter {
        let outer = nesting
        defer { nesting = outer }
        let parenthesized = isSymbol("(")
        var term = try self.term()
        // Whether `term` ends in a step of its own (`.a`, `[e]`, `[]`, `[a:b]`)
        // rather than a term in parentheses.
        var endsInStep = !parenthesized
        while true {
            switch peek.kind {
            case .field(let name):
                _ = advance()
                try deeper()
                term = .index(term, .literal(.string(name)))
                endsInStep = true
            case .symbol(".") where isStringOrBracket(peek(1)):
                _ = advance()
                try deeper()
                if case .string = peek.kind {
                    term = .index(term, try stringLiteral(format: nil))
                } else {
                    // jq's grammar has `t.[e]` and `t.[]`, not `t.[a:b]`.
                    term = try bracketSuffix(term, allowsSlice: false)
                }
                endsInStep = true
            case .symbol("["):
                try deeper()
                term = try bracketSuffix(term)
                endsInStep = true
            case .symbol("?"):
                _ = advance()
                try deeper()
                // `(f)?` is `try f`; only a step's `?` guards that step alone.
                term = endsInStep ? Self.optionalStep(term) : .tryCatch(term, nil)
                endsInStep = false
            default:
                return term
            }
        }
    }

    /// `t.a?`, `t[]?`, `t[e]?`, `t[a:b]?`: in jq only the last step is
    /// optional; an error in `t` itself still stops the program. With a key
    /// that is not a constant (it reads the input, not `t`'s output) the
    /// whole term is wrapped, which differs only when `t` fails.
    private static func optionalStep(_ term: _Filter) -> _Filter {
        func isConstant(_ filter: _Filter?) -> Bool {
            guard let filter else { return true }
            if case .literal = filter { return true }
            return false
        }
        switch term {
        case .index(let target, let key) where isConstant(key):
            if case .identity = target { return .optional(term) }
            return .pipe(target, .optional(.index(.identity, key)))
        case .iterate(let target):
            if case .identity = target { return .optional(term) }
            return .pipe(target, .optional(.iterate(.identity)))
        case .slice(let target, let from, let to) where isConstant(from) && isConstant(to):
            if case .identity = target { return .optional(term) }
            return .pipe(target, .optional(.slice(.identity, from, to)))
        default:
            return .optional(term)
        }
    }

    private func isStringOrBracket(_ token: _Token) -> Bool {
        if case .string = token.kind { return true }
        return token.kind == .symbol("[")
    }

    /// `[e]`, `[]`, `[a:b]`, `[a:]`, `[:b]` after `target`.
    private mutating func bracketSuffix(_ target: _Filter, allowsSlice: Bool = true) throws -> _Filter {
        try expect("[")
        if isSymbol("]") {
            _ = advance()
            return .iterate(target)
        }
        if isSymbol(":") && !allowsSlice { throw unexpected() }
        if isSymbol(":") {
            _ = advance()
            let upper = try pipe()
            try expect("]")
            return .slice(target, nil, upper)
        }
        let index = try pipe()
        if isSymbol(":") {
            guard allowsSlice else { throw unexpected() }
            _ = advance()
            if isSymbol("]") {
                _ = advance()
                return .slice(target, index, nil)
            }
            let upper = try pipe()
            try expect("]")
            return .slice(target, index, upper)
        }
        try expect("]")
        return .index(target, index)
    }

    // MARK: Terms

    private mutating func term() throws -> _Filter {
        let outer = nesting
        defer { nesting = outer }
        try deeper()
        let token = peek
        switch token.kind {
        case .symbol("."):
            _ = advance()
            if case .string = peek.kind { return .index(.identity, try stringLiteral(format: nil)) }
            if isSymbol("[") { return try bracketSuffix(.identity) }
            return .identity
        case .symbol(".."):
            _ = advance()
            return .recurseAll
        case .field(let name):
            _ = advance()
            return .index(.identity, .literal(.string(name)))
        case .number(let text):
            _ = advance()
            return .literal(.number(Self.numberLiteral(text)))
        case .string:
            return try stringLiteral(format: nil)
        case .format(let name):
            _ = advance()
            if case .string = peek.kind { return try stringLiteral(format: name) }
            return .format(name)
        case .variable(let name):
            _ = advance()
            if name == "__loc__" { return location(token) }
            return .variable(name, column: token.column)
        case .symbol("("):
            _ = advance()
            let body = try pipe()
            try expect(")")
            return body
        case .symbol("["):
            _ = advance()
            if isSymbol("]") {
                _ = advance()
                return .array(nil)
            }
            let body = try pipe()
            try expect("]")
            return .array(body)
        case .symbol("{"):
            return try objectConstruction()
        case .symbol("-"):
            return try unary()
        case .identifier(let word):
            return try keywordOrCall(word, token)
        default:
            throw unexpected()
        }
    }

    /// A number literal from the program text: jq 1.8 keeps its digits but
    /// writes it in canonical form (`.5` as `0.5`, `1.` as `1`).
    static func numberLiteral(_ text: String) -> JSONNumber {
        var normalized = text
        if normalized.hasPrefix(".") { normalized = "0" + normalized }
        if let dot = normalized.firstIndex(of: "."), normalized.index(after: dot) == normalized.endIndex
            || "eE".contains(normalized[normalized.index(after: dot)]) {
            normalized.remove(at: dot)
        }
        while normalized.count > 1, normalized.hasPrefix("0"), normalized.dropFirst().first?.isNumber == true {
            normalized.removeFirst()
        }
        return JSONNumber(text: normalized) ?? JSONNumber(Double(normalized) ?? .nan)
    }

    private func location(_ token: _Token) -> _Filter {
        let members: [(String, JSONValue)] = [("file", .string("<top-level>")),
                                              ("line", .number(JSONNumber(line(of: token.column))))]
        return .literal(.object(JSONObject(members)))
    }

    private mutating func keywordOrCall(_ word: String, _ token: _Token) throws -> _Filter {
        switch word {
        case "if": return try conditional()
        case "try":
            _ = advance()
            let body = try tryOperand()
            var handler: _Filter?
            if isKeyword("catch") {
                _ = advance()
                handler = try tryOperand()
            }
            return .tryCatch(body, handler)
        case "reduce":
            let (source, pattern, initial, update, _) = try fold(allowsExtract: false)
            return .reduce(source: source, pattern: pattern, initial: initial, update: update)
        case "foreach":
            let (source, pattern, initial, update, extract) = try fold(allowsExtract: true)
            return .foreach(source: source, pattern: pattern, initial: initial, update: update, extract: extract)
        case "break":
            _ = advance()
            guard case .variable(let name) = peek.kind else { throw unexpected() }
            _ = advance()
            return .breakLabel(name, column: token.column)
        case "def", "label":
            // `(def f: 1; f)` or `[label $x | …]`: a query in term position.
            return try pipe()
        case "__loc__":
            _ = advance()
            return .call(word, [], column: token.column)
        default:
            if Self.keywords.contains(word) { throw unexpected() }
            _ = advance()
            if !isSymbol("(") {
                switch word {
                case "null": return .literal(.null)
                case "true": return .literal(.bool(true))
                case "false": return .literal(.bool(false))
                default: break
                }
            }
            var arguments: [_Filter] = []
            if isSymbol("(") {
                _ = advance()
                while true {
                    arguments.append(try pipe())
                    if isSymbol(";") { _ = advance(); continue }
                    try expect(")")
                    break
                }
            }
            return .call(word, arguments, column: token.column)
        }
    }

    /// `reduce`/`foreach SOURCE as PATTERN (INITIAL; UPDATE[; EXTRACT])`, from
    /// the keyword. They bind the first of `?//` alternatives.
    private mutating func fold(allowsExtract: Bool)
        throws -> (_Filter, _Pattern, _Filter, _Filter, _Filter?) {
        _ = advance()
        let source = try alternative()
        try expectKeyword("as")
        let pattern = try patternAlternatives()[0]
        try expect("(")
        let initial = try pipe()
        try expect(";")
        let update = try pipe()
        var extract: _Filter?
        if allowsExtract, isSymbol(";") {
            _ = advance()
            extract = try pipe()
        }
        try expect(")")
        return (source, pattern, initial, update, extract)
    }

    /// `try`'s body and handler: a postfix term (jq gives `try` and
    /// `catch` the highest precedence), or a negated one.
    /// What `try` and `catch` take: a term, not `label` or `def`, which in
    /// jq 1.8's grammar are whole expressions (`try (label $f | …)`).
    private mutating func tryOperand() throws -> _Filter {
        if isKeyword("label") || isKeyword("def") { throw unexpected() }
        return try postfixOrNegated()
    }

    private mutating func postfixOrNegated() throws -> _Filter {
        if isSymbol("-") { return try unary() }
        return try postfix()
    }

    private mutating func conditional() throws -> _Filter {
        try expectKeyword("if")
        var branches: [(condition: _Filter, then: _Filter)] = []
        var otherwise: _Filter?
        let condition = try pipe()
        try expectKeyword("then")
        branches.append((condition, try pipe()))
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
    }

    // MARK: Strings

    /// A string literal token, with its interpolations parsed.
    mutating func stringLiteral(format: String?) throws -> _Filter {
        guard case .string(let pieces) = advance().kind else { throw unexpected(peek(-1)) }
        var parts: [_InterpolatedPiece] = []
        for piece in pieces {
            switch piece {
            case .text(let text):
                parts.append(.text(text))
            case .interpolation(let tokens, _):
                var inner = _Parser(tokens: tokens, lineStarts: lineStarts)
                inner.nesting = max(nesting, 1)
                let filter = try inner.pipe()
                guard inner.peek.kind == .end else { throw inner.unexpected() }
                parts.append(.filter(filter))
            }
        }
        if format == nil, parts.count == 1, case .text(let text) = parts[0] { return .literal(.string(text)) }
        return .string(parts, format: format)
    }

    // MARK: Objects

    private mutating func objectConstruction() throws -> _Filter {
        try expect("{")
        var entries: [_ObjectEntry] = []
        while !isSymbol("}") {
            entries.append(try objectEntry())
            if isSymbol(",") {
                _ = advance()
                continue
            }
            guard isSymbol("}") else { throw unexpected() }
        }
        _ = advance()
        return .object(entries)
    }

    private mutating func objectEntry() throws -> _ObjectEntry {
        let token = peek
        switch token.kind {
        case .identifier(let name):
            // (`{__loc__: v}` and `{__loc__}` name a member "__loc__", as in jq.)
            _ = advance()
            if isSymbol(":") { return _ObjectEntry(key: .name(name), value: try objectValue()) }
            return _ObjectEntry(key: .name(name), value: .index(.identity, .literal(.string(name))))
        case .variable(let name):
            _ = advance()
            let value: _Filter = name == "__loc__" ? location(token) : .variable(name, column: token.column)
            if isSymbol(":") {
                // `{$k: v}`: the key is the variable's value (jq 1.7+).
                return _ObjectEntry(key: .computed(value), value: try objectValue())
            }
            return _ObjectEntry(key: .name(name), value: value)
        case .string, .format:
            var format: String?
            if case .format(let name) = token.kind {
                _ = advance()
                format = name
            }
            let key = try stringLiteral(format: format)
            if isSymbol(":") {
                if case .literal(.string(let name)) = key { return _ObjectEntry(key: .name(name), value: try objectValue()) }
                return _ObjectEntry(key: .computed(key), value: try objectValue())
            }
            if case .literal(.string(let name)) = key {
                return _ObjectEntry(key: .name(name), value: .index(.identity, .literal(.string(name))))
            }
            return _ObjectEntry(key: .computedMember(key), value: .index(.identity, key))
        case .symbol("("):
            _ = advance()
            let inner = peek.column  // where jq places a constant key it refuses
            let key = try pipe()
            try expect(")")
            try checkObjectKey(key, column: inner)
            guard isSymbol(":") else { throw unexpected() }
            return _ObjectEntry(key: .computed(key), value: try objectValue())
        default:
            // A number or an operator where a key belongs: jq 1.8.2 reports
            // "unexpected …", then, when an expression and a colon follow
            // (`{1: 2}`, `{-1: 2}`, `{1+2: 3}`), its hint, which its suite
            // expects.
            var mayStartExpression = false
            switch token.kind {
            case .number: mayStartExpression = true
            case .symbol(let symbol): mayStartExpression = symbol != "INVALID_CHARACTER"
            default: break
            }
            if mayStartExpression {
                let start = position
                if (try? postfix()) != nil, isSymbol(":") || isSymbol("+") {
                    throw JSONFilterError(message: "May need parentheses around object key expression",
                                          column: tokens[start].column)
                }
                position = start
            }
            throw unexpected()
        }
    }

    /// A constant key that is not a string is refused at compile time, as
    /// is arithmetic on two constants, which jq 1.8.2 folds (`{(1+1): 2}`).
    private func checkObjectKey(_ key: _Filter, column: Int) throws {
        var constant = Self.constantValue(key)
        if constant == nil, case .arithmetic(let op, let a, let b) = key,
           let left = Self.constantValue(a), let right = Self.constantValue(b) {
            constant = try? _Arithmetic.apply(op, left, right)  // a failing fold is the run's error, as in jq
        }
        guard let value = constant else { return }
        if case .string = value { return }
        throw JSONFilterError(message: "Cannot use \(_describe(value)) as object key", column: column)
    }

    /// An object member's value: pipes of alternatives, no comma.
    private mutating func objectValue() throws -> _Filter {
        try expect(":")
        let outer = nesting
        defer { nesting = outer }
        try deeper()
        var value = try objectValueItem()
        while isSymbol("|") {
            _ = advance()
            value = .pipe(value, try objectValueItem())
        }
        return value
    }

    /// jq 1.8's object values are terms and operators: a binding, `label`
    /// and `def` need parentheses there (`{a: (. as $x | $x)}`).
    private mutating func objectValueItem() throws -> _Filter {
        if isKeyword("label") || isKeyword("def") { throw unexpected() }
        let source = try alternative()
        if isKeyword("as") { throw unexpected() }
        return source
    }

    // MARK: Patterns

    /// `p1 ?// p2 ?// …`
    mutating func patternAlternatives() throws -> [_Pattern] {
        var patterns = [try pattern()]
        while isSymbol("?//") {
            _ = advance()
            patterns.append(try pattern())
        }
        return patterns
    }

    private mutating func pattern() throws -> _Pattern {
        let token = advance()
        switch token.kind {
        case .variable("__loc__"):
            throw locationBinding(token, expecting: ", expecting BINDING or '[' or '{'")
        case .variable(let name):
            return .variable(name)
        case .symbol("["):
            if isSymbol("]") {
                throw JSONFilterError(message: "syntax error, unexpected ']', expecting BINDING or '[' or '{'",
                                      column: peek.column)
            }
            var elements: [_Pattern] = []
            while true {
                elements.append(try pattern())
                if isSymbol(",") { _ = advance(); continue }
                try expect("]")
                return .array(elements)
            }
        case .symbol("{"):
            var entries: [_ObjectPatternEntry] = []
            while true {
                entries.append(try objectPatternEntry())
                if isSymbol(",") { _ = advance(); continue }
                try expect("}")
                return .object(entries)
            }
        default:
            throw unexpected(token)
        }
    }

    private mutating func objectPatternEntry() throws -> _ObjectPatternEntry {
        let token = advance()
        switch token.kind {
        case .variable("__loc__"):
            throw locationBinding(token, expecting: "")
        case .variable(let name):
            var value: _Pattern?
            if isSymbol(":") {
                _ = advance()
                value = try pattern()
            }
            return _ObjectPatternEntry(key: .variable(name), value: value)
        case .identifier(let name):
            try expect(":")
            return _ObjectPatternEntry(key: .name(name), value: try pattern())
        case .string:
            position -= 1
            let key = try stringLiteral(format: nil)
            try expect(":")
            if case .literal(.string(let name)) = key { return _ObjectPatternEntry(key: .name(name), value: try pattern()) }
            return _ObjectPatternEntry(key: .computed(key), value: try pattern())
        case .symbol("("):
            let inner = peek.column
            let key = try pipe()
            try expect(")")
            try checkObjectKey(key, column: inner)
            try expect(":")
            return _ObjectPatternEntry(key: .computed(key), value: try pattern())
        default:
            throw unexpected(token)
        }
    }
}
