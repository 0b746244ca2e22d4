/// A token of the filter language, with the 1-based column where it starts.
struct _Token: Equatable {
    enum Kind: Equatable {
        /// `.name` (also `."name"` is lexed as `.` then a string).
        case field(String)
        /// A bare word: a function name or keyword (`select`, `if`, `and`).
        case identifier(String)
        /// `$name`.
        case variable(String)
        /// `@csv`.
        case format(String)
        case number(Double)
        /// A string literal, split at its `\(…)` interpolations.
        case string([_StringPiece])
        /// Punctuation and operators: `. .. [ ] { } ( ) | , : ; ? // + - * / % == != < <= > >= =`.
        case symbol(String)
        case end
    }

    let kind: Kind
    let column: Int
}

/// A piece of a string literal: text, or the source of an interpolation
/// (parsed later, with its own column).
enum _StringPiece: Equatable {
    case text(String)
    case interpolation(String, column: Int)
}

/// Splits filter text into tokens. Columns count Unicode scalars from 1.
struct _Lexer {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    private let columnOffset: Int

    init(_ source: String, columnOffset: Int = 0) {
        scalars = Array(source.unicodeScalars)
        self.columnOffset = columnOffset
    }

    static func tokens(of source: String, columnOffset: Int = 0) throws -> [_Token] {
        var lexer = _Lexer(source, columnOffset: columnOffset)
        var tokens: [_Token] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private var column: Int { position + 1 + columnOffset }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    private static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c)
    }

    private static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool {
        isIdentifierStart(c) || ("0"..."9").contains(c)
    }

    private mutating func identifier() -> String {
        var name = ""
        while let c = peek(), Self.isIdentifierPart(c) {
            name.unicodeScalars.append(c)
            position += 1
        }
        // jq allows `::` in names (modules); not in this subset.
        return name
    }

    mutating func next() throws -> _Token {
        // Whitespace and `#` comments.
        while let c = peek() {
            if c == " " || c == "\t" || c == "\n" || c == "\r" {
                position += 1
            } else if c == "#" {
                while let d = peek(), d != "\n" { position += 1 }
            } else {
                break
            }
        }
        let start = column
        guard let c = peek() else { return _Token(kind: .end, column: start) }

        if c == "." {
            if peek(1) == "." {
                position += 2
                return _Token(kind: .symbol(".."), column: start)
            }
            if let d = peek(1), Self.isIdentifierStart(d) {
                position += 1
                return _Token(kind: .field(identifier()), column: start)
            }
            if let d = peek(1), ("0"..."9").contains(d) {
                return _Token(kind: .number(try number()), column: start)
            }
            position += 1
            return _Token(kind: .symbol("."), column: start)
        }
        if c == "$" {
            position += 1
            guard let d = peek(), Self.isIdentifierStart(d) else {
                throw JSONFilterError(message: "expected a variable name after $", column: start)
            }
            return _Token(kind: .variable(identifier()), column: start)
        }
        if c == "@" {
            position += 1
            guard let d = peek(), Self.isIdentifierStart(d) else {
                throw JSONFilterError(message: "expected a format name after @", column: start)
            }
            return _Token(kind: .format(identifier()), column: start)
        }
        if Self.isIdentifierStart(c) {
            return _Token(kind: .identifier(identifier()), column: start)
        }
        if ("0"..."9").contains(c) {
            return _Token(kind: .number(try number()), column: start)
        }
        if c == "\"" {
            return _Token(kind: .string(try string()), column: start)
        }
        let two = peek(1).map { String(c) + String($0) } ?? ""
        let isAssignment = (c == "=" && two != "==") || (two == "//" && peek(2) == "=")
        if isAssignment {
            let op = c == "=" ? "=" : "//="
            throw JSONFilterError(message: "unsupported operator \(op) (assignment is not part of jsonstream's jq subset)",
                                  column: start)
        }
        if ["//", "==", "!=", "<=", ">=", "|=", "+=", "-=", "*=", "/=", "%=", "?/"].contains(two) {
            if ["|=", "+=", "-=", "*=", "/=", "%=", "?/"].contains(two) {
                throw JSONFilterError(message: "unsupported operator \(two) (assignment is not part of jsonstream's jq subset)",
                                      column: start)
            }
            position += 2
            return _Token(kind: .symbol(two), column: start)
        }
        if "[]{}()|,:;?+-*/%<>=".unicodeScalars.contains(c) {
            position += 1
            return _Token(kind: .symbol(String(c)), column: start)
        }
        throw JSONFilterError(message: "unexpected character '\(c)'", column: start)
    }

    private mutating func number() throws -> Double {
        let start = position
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
        guard let value = Double(text.hasPrefix(".") ? "0" + text : text) else {
            throw JSONFilterError(message: "invalid number literal \(text)", column: start + 1 + columnOffset)
        }
        return value
    }

    /// A string literal after its opening quote, with jq's escapes and
    /// `\(…)` interpolations (nested parentheses and strings allowed).
    private mutating func string() throws -> [_StringPiece] {
        let start = column
        position += 1
        var pieces: [_StringPiece] = []
        var text = ""
        while true {
            guard let c = peek() else { throw JSONFilterError(message: "unterminated string", column: start) }
            position += 1
            if c == "\"" { break }
            guard c == "\\" else {
                text.unicodeScalars.append(c)
                continue
            }
            guard let e = peek() else { throw JSONFilterError(message: "unterminated string", column: start) }
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
                var code = try hex4(start)
                if (0xD800..<0xDC00).contains(code), peek() == "\\", peek(1) == "u" {
                    position += 2
                    let low = try hex4(start)
                    if (0xDC00..<0xE000).contains(low) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        text.unicodeScalars.append(Unicode.Scalar(0xFFFD)!)
                        code = low
                    }
                }
                text.unicodeScalars.append(Unicode.Scalar(code) ?? Unicode.Scalar(0xFFFD)!)
            case "(":
                if !text.isEmpty { pieces.append(.text(text)) }
                text = ""
                let sourceColumn = column
                var depth = 1
                var source = ""
                var inString = false
                while depth > 0 {
                    guard let d = peek() else { throw JSONFilterError(message: "unterminated interpolation", column: start) }
                    position += 1
                    if inString {
                        if d == "\\" {
                            source.unicodeScalars.append(d)
                            if let escaped = peek() {
                                source.unicodeScalars.append(escaped)
                                position += 1
                            }
                            continue
                        }
                        if d == "\"" { inString = false }
                    } else if d == "\"" {
                        inString = true
                    } else if d == "(" {
                        depth += 1
                    } else if d == ")" {
                        depth -= 1
                        if depth == 0 { break }
                    }
                    source.unicodeScalars.append(d)
                }
                pieces.append(.interpolation(source, column: sourceColumn))
            default:
                throw JSONFilterError(message: "invalid escape \\\(e) in string", column: column - 2)
            }
        }
        if !text.isEmpty || pieces.isEmpty { pieces.append(.text(text)) }
        return pieces
    }

    private mutating func hex4(_ start: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let c = peek(), let digit = Int(String(c), radix: 16) else {
                throw JSONFilterError(message: "invalid \\u escape in string", column: column)
            }
            value = value * 16 + UInt32(digit)
            position += 1
        }
        return value
    }
}
