// SPDX-License-Identifier: Apache-2.0
/// A token of the filter language, with the 1-based column where it starts.
struct _Token: Equatable {
    enum Kind: Equatable {
        /// `.name` (`."name"` is lexed as `.` then a string).
        case field(String)
        /// A bare word: a function name or keyword (`select`, `if`, `and`,
        /// `mod::name`).
        case identifier(String)
        /// `$name` (also `$__loc__`, `$mod::name`).
        case variable(String)
        /// `@csv`.
        case format(String)
        /// A number literal's text, kept as written (jq 1.8 keeps literals).
        case number(String)
        /// A string literal, split at its `\(…)` interpolations.
        case string([_StringPiece])
        /// Punctuation and operators.
        case symbol(String)
        case end
    }

    let kind: Kind
    let column: Int
}

/// A piece of a string literal: text, or the tokens of an interpolation
/// (ending with an `.end` token).
enum _StringPiece: Equatable {
    case text(String)
    case interpolation([_Token], column: Int)
}

/// Splits filter text into tokens. Columns count Unicode scalars from 1
/// across the whole text (the parser turns them into line and column).
struct _Lexer {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    private let columnOffset: Int
    /// How many string interpolations enclose the current point: the lexer
    /// recurses into each, so this is bounded like the parser's nesting.
    private var interpolationDepth = 0

    init(_ source: String, columnOffset: Int = 0) {
        scalars = Array(source.unicodeScalars)
        self.columnOffset = columnOffset
    }

    static func tokens(of source: String, columnOffset: Int = 0) throws -> [_Token] {
        var lexer = _Lexer(source, columnOffset: columnOffset)
        return try lexer.tokens(untilClosingParenthesis: false)
    }

    /// Tokens to the end of the text or, inside an interpolation, to the
    /// `)` that closes it (not included; an `.end` token stands for it).
    private mutating func tokens(untilClosingParenthesis: Bool) throws -> [_Token] {
        var tokens: [_Token] = []
        var depth = 0
        while true {
            let token = try next()
            if untilClosingParenthesis {
                if token.kind == .end {
                    throw JSONFilterError(message: "syntax error, unexpected end of file, unterminated string interpolation",
                                          column: token.column)
                }
                if token.kind == .symbol("(") { depth += 1 }
                if token.kind == .symbol(")") {
                    if depth == 0 {
                        tokens.append(_Token(kind: .end, column: token.column))
                        return tokens
                    }
                    depth -= 1
                }
            }
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private var column: Int { position + 1 + columnOffset }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c)
    }

    static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool {
        isIdentifierStart(c) || ("0"..."9").contains(c)
    }

    /// A name, with `::` between its parts (`mod::fn`).
    private mutating func identifier(allowsModules: Bool = true) -> String {
        var name = ""
        while true {
            while let c = peek(), Self.isIdentifierPart(c) {
                name.unicodeScalars.append(c)
                position += 1
            }
            guard allowsModules, peek() == ":", peek(1) == ":", let c = peek(2), Self.isIdentifierStart(c) else {
                return name
            }
            name += "::"
            position += 2
        }
    }

    private mutating func skipSpaceAndComments() {
        while let c = peek() {
            if c == " " || c == "\t" || c == "\n" || c == "\r" {
                position += 1
            } else if c == "#" {
                // jq 1.7+: a backslash before the newline continues the comment;
                // an odd number of them escapes it.
                while let d = peek(), d != "\n" {
                    if d == "\\" {
                        var run = 0
                        while peek() == "\\" { run += 1; position += 1 }
                        if run % 2 == 1, peek() == "\n" { position += 1 }
                        if peek() == "\r", peek(1) == "\n", run % 2 == 1 { position += 2 }
                        continue
                    }
                    position += 1
                }
            } else {
                break
            }
        }
    }

    mutating func next() throws -> _Token {
        skipSpaceAndComments()
        let start = column
        guard let c = peek() else { return _Token(kind: .end, column: start) }

        if c == "." {
            if peek(1) == "." {
                position += 2
                return _Token(kind: .symbol(".."), column: start)
            }
            if let d = peek(1), Self.isIdentifierStart(d) {
                position += 1
                return _Token(kind: .field(identifier(allowsModules: false)), column: start)
            }
            if let d = peek(1), ("0"..."9").contains(d) {
                return _Token(kind: .number(number()), column: start)
            }
            position += 1
            return _Token(kind: .symbol("."), column: start)
        }
        if c == "$" {
            position += 1
            if peek() == "_", peek(1) == "_", peek(2) == "l", peek(3) == "o", peek(4) == "c", peek(5) == "_",
               peek(6) == "_", !(peek(7).map(Self.isIdentifierPart) ?? false) {
                position += 7
                return _Token(kind: .variable("__loc__"), column: start)
            }
            guard let d = peek(), Self.isIdentifierStart(d) else {
                return _Token(kind: .symbol("$"), column: start)
            }
            return _Token(kind: .variable(identifier()), column: start)
        }
        if c == "@" {
            position += 1
            // jq's lexer: `@` and letters, digits or `_` (`@0` is a format
            // named "0", which fails when it runs).
            guard let d = peek(), Self.isIdentifierPart(d) else {
                return _Token(kind: .symbol("@"), column: start)
            }
            return _Token(kind: .format(identifier(allowsModules: false)), column: start)
        }
        if Self.isIdentifierStart(c) {
            return _Token(kind: .identifier(identifier()), column: start)
        }
        if ("0"..."9").contains(c) {
            return _Token(kind: .number(number()), column: start)
        }
        if c == "\"" {
            return _Token(kind: .string(try string()), column: start)
        }
        let three = (0..<3).compactMap { peek($0) }.map(String.init).joined()
        if three == "?//" {
            position += 3
            return _Token(kind: .symbol("?//"), column: start)
        }
        if three == "//=" {
            position += 3
            return _Token(kind: .symbol("//="), column: start)
        }
        let two = String(three.unicodeScalars.prefix(2))
        if ["//", "==", "!=", "<=", ">=", "|=", "+=", "-=", "*=", "/=", "%="].contains(two) {
            position += 2
            return _Token(kind: .symbol(two), column: start)
        }
        if "[]{}()|,:;?+-*/%<>=".unicodeScalars.contains(c) {
            position += 1
            return _Token(kind: .symbol(String(c)), column: start)
        }
        position += 1
        return _Token(kind: .symbol("INVALID_CHARACTER"), column: start)
    }

    /// A number literal's text: digits with an optional fraction and
    /// exponent (`.5` and `1.` allowed, as jq's lexer does).
    private mutating func number() -> String {
        var text = ""
        while let c = peek(), ("0"..."9").contains(c) || c == "." {
            text.unicodeScalars.append(c)
            position += 1
        }
        if let e = peek(), e == "e" || e == "E" {
            var exponent = String(e)
            var offset = 1
            if let sign = peek(1), sign == "+" || sign == "-" {
                exponent.unicodeScalars.append(sign)
                offset = 2
            }
            if let digit = peek(offset), ("0"..."9").contains(digit) {
                position += offset
                text += exponent
                while let c = peek(), ("0"..."9").contains(c) {
                    text.unicodeScalars.append(c)
                    position += 1
                }
            }
        }
        return text
    }

    /// A string literal from its opening quote, with jq's escapes and
    /// `\(…)` interpolations, which are lexed as tokens of their own.
    private mutating func string() throws -> [_StringPiece] {
        let start = column
        position += 1
        var pieces: [_StringPiece] = []
        var text = ""
        while true {
            guard let c = peek() else {
                throw JSONFilterError(message: "syntax error, unexpected end of file, unterminated string", column: start)
            }
            position += 1
            if c == "\"" { break }
            guard c == "\\" else {
                text.unicodeScalars.append(c)
                continue
            }
            guard let e = peek() else {
                throw JSONFilterError(message: "syntax error, unexpected end of file, unterminated string", column: start)
            }
            position += 1
            switch e {
            case "\"": text += "\""
            case "\\": text += "\\"
            case "/": text += "/"
            case "b": text += "\u{8}"
            case "f": text += "\u{C}"
            case "n": text += "\n"
            case "r": text += "\r"
            case "t": text += "\t"
            case "u":
                text.unicodeScalars.append(try unicodeEscape(start))
            case "(":
                if !text.isEmpty { pieces.append(.text(text)) }
                text = ""
                let sourceColumn = column
                interpolationDepth += 1
                defer { interpolationDepth -= 1 }
                guard interpolationDepth <= _Parser.maxNesting else {
                    throw JSONFilterError(message: "syntax error: nested deeper than \(_Parser.maxNesting) levels",
                                          column: sourceColumn)
                }
                let inner = try tokens(untilClosingParenthesis: true)
                pieces.append(.interpolation(inner, column: sourceColumn))
            default:
                throw JSONFilterError(
                    message: "Invalid escape at line 1, column 4 (while parsing '\"\\\(e)\"')",
                    column: start)
            }
        }
        if !text.isEmpty || pieces.isEmpty { pieces.append(.text(text)) }
        return pieces
    }

    private mutating func unicodeEscape(_ start: Int) throws -> Unicode.Scalar {
        let code = try hex4(start)
        if (0xD800..<0xDC00).contains(code), peek() == "\\", peek(1) == "u" {
            let saved = position
            position += 2
            let low = try hex4(start)
            if (0xDC00..<0xE000).contains(low) {
                return Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))!
            }
            position = saved
        }
        return Unicode.Scalar(code) ?? Unicode.Scalar(0xFFFD)!
    }

    private mutating func hex4(_ start: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let c = peek(), let digit = Int(String(c), radix: 16) else {
                throw JSONFilterError(message: "Invalid \\uXXXX escape", column: start)
            }
            value = value * 16 + UInt32(digit)
            position += 1
        }
        return value
    }
}
