// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// jq 1.8's own reader of JSON text, for `fromjson`: the same tokenizer,
/// the same leniencies (`nan`, `NaN`, `Infinity` and other decimal
/// literals, a leading byte-order mark) and the same messages, positions
/// included, so that `try fromjson catch .` reads as in jq.
///
/// Like jq's parser it is a byte-at-a-time state machine: bytes that are not
/// whitespace, structure or a quote collect into a token that is judged when
/// the next such byte arrives (`tru` is an "Invalid literal" only then);
/// strings collect raw and are unescaped at their closing quote. One stack
/// holds open containers and pending object keys, so an object level counts
/// twice against jq's depth limit, as in jq.
struct _JQTextParser {
    /// Parses one JSON text as `fromjson` does; errors carry jq's
    /// "(while parsing '…')" suffix.
    static func parse(_ text: String) throws -> JSONValue {
        var parser = _JQTextParser(Array(text.utf8))
        do {
            guard let value = try parser.nextValue() else {
                throw _Failure(message: "Expected JSON value")
            }
            if try parser.nextValue() != nil { throw _Failure(message: "Unexpected extra JSON values") }
            return value
        } catch let failure as _Failure {
            throw JSONFilterError(message: "\(failure.message) (while parsing '\(text)')")
        }
    }

    /// jq's limit on open containers and keys (`MAX_PARSING_DEPTH`).
    static let depthLimit = 10_000

    private struct _Failure: Error { let message: String }

    private enum _Open { case array, object, key }
    private enum _State { case normal, string, stringEscape }

    private let bytes: [UInt8]
    private var offset = 0
    private var line = 1, column = 0
    private var state = _State.normal
    private var token: [UInt8] = []
    /// The value just completed and not yet placed (jq's `next`).
    private var pending: JSONValue?
    private var open: [_Open] = []
    private var arrays: [[JSONValue]] = []
    private var objects: [JSONObject] = []
    private var keys: [String] = []

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The next complete value, nil at the end of the text.
    private mutating func nextValue() throws -> JSONValue? {
        if offset == 0, let first = bytes.first, first == 0xEF {
            guard bytes.starts(with: [0xEF, 0xBB, 0xBF]) else { throw _Failure(message: "Malformed BOM") }
            offset = 3
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            do {
                if let value = try scan(byte) { return value }
            } catch let problem as _Failure {
                throw _Failure(message: "\(problem.message) at line \(line), column \(column)")
            }
        }
        do {
            return try finish()
        } catch let problem as _Failure {
            throw _Failure(message: "\(problem.message) at EOF at line \(line), column \(column)")
        }
    }

    /// jq's `scan`: one byte; a value when one is complete at the top level.
    private mutating func scan(_ byte: UInt8) throws -> JSONValue? {
        column += 1
        if byte == UInt8(ascii: "\n") { line += 1; column = 0 }
        var done: JSONValue?
        switch state {
        case .normal:
            let isLiteral = !Self.isWhitespace(byte) && !Self.isStructure(byte) && byte != UInt8(ascii: "\"")
            if !isLiteral {
                try checkLiteral()
                done = takeIfDone()
            }
            if isLiteral {
                token.append(byte)
            } else if byte == UInt8(ascii: "\"") {
                state = .string
            } else if Self.isStructure(byte) {
                try structure(byte)
            }
            if let value = takeIfDone() { done = value }
        case .string where byte == UInt8(ascii: "\""):
            try foundString()
            state = .normal
            done = takeIfDone()
        case .string, .stringEscape:
            token.append(byte)
            state = state == .string && byte == UInt8(ascii: "\\") ? .stringEscape : .string
        }
        return done
    }

    private mutating func takeIfDone() -> JSONValue? {
        guard open.isEmpty, let value = pending else { return nil }
        pending = nil
        return value
    }

    /// The end of the text: what is still open is an error at EOF.
    private mutating func finish() throws -> JSONValue? {
        if state != .normal { throw failure("Unfinished string") }
        try checkLiteral()
        if !open.isEmpty { throw failure("Unfinished JSON term") }
        defer { pending = nil }
        return pending
    }

    /// A problem at the current byte; `nextValue` adds where.
    private func failure(_ message: String) -> _Failure {
        _Failure(message: message)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isStructure(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "["), UInt8(ascii: ","), UInt8(ascii: "]"),
             UInt8(ascii: "{"), UInt8(ascii: ":"), UInt8(ascii: "}"): return true
        default: return false
        }
    }

    /// A completed value: an error when one is already waiting for its separator.
    private mutating func value(_ value: JSONValue) throws {
        if pending != nil { throw failure("Expected separator between values") }
        pending = value
    }
}

extension _JQTextParser {
    /// jq's `parse_token`: brackets, braces, `:` and `,`.
    private mutating func structure(_ byte: UInt8) throws {
        switch byte {
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            if open.count >= Self.depthLimit { throw failure("Exceeds depth limit for parsing") }
            if pending != nil { throw failure("Expected separator between values") }
            if byte == UInt8(ascii: "[") {
                open.append(.array)
                arrays.append([])
            } else {
                open.append(.object)
                objects.append(JSONObject())
            }
        case UInt8(ascii: ":"):
            guard let key = pending else { throw failure("Expected string key before ':'") }
            guard open.last == .object else { throw failure("':' not as part of an object") }
            guard case .string(let name) = key else { throw failure("Object keys must be strings") }
            open.append(.key)
            keys.append(name)
            pending = nil
        case UInt8(ascii: ","):
            guard let element = pending else { throw failure("Expected value before ','") }
            switch open.last {
            case nil: throw failure("',' not as part of an object or array")
            case .array?: arrays[arrays.count - 1].append(element)
            case .key?: placeMember(element)
            case .object?: throw failure("Objects must consist of key:value pairs")
            }
            pending = nil
        case UInt8(ascii: "]"):
            guard open.last == .array else { throw failure("Unmatched ']'") }
            if let element = pending {
                arrays[arrays.count - 1].append(element)
            } else if !arrays[arrays.count - 1].isEmpty {
                throw failure("Expected another array element")
            }
            open.removeLast()
            pending = .array(arrays.removeLast())
        default:  // "}"
            guard let last = open.last else { throw failure("Unmatched '}'") }
            if let member = pending {
                guard last == .key else { throw failure("Objects must consist of key:value pairs") }
                placeMember(member)
            } else {
                guard last == .object else { throw failure("Unmatched '}'") }
                if !objects[objects.count - 1].isEmpty { throw failure("Expected another key-value pair") }
            }
            open.removeLast()
            pending = .object(objects.removeLast())
        }
    }

    /// The pending key and its value go into the object below them.
    private mutating func placeMember(_ value: JSONValue) {
        open.removeLast()
        objects[objects.count - 1][keys.removeLast()] = value
    }

    /// jq's `check_literal`: the collected token as `true`, `false`, `null`
    /// or a decimal number.
    private mutating func checkLiteral() throws {
        guard let first = token.first else { return }
        defer { token.removeAll(keepingCapacity: true) }
        let pattern: String?
        switch first {
        case UInt8(ascii: "t"): pattern = "true"
        case UInt8(ascii: "f"): pattern = "false"
        case UInt8(ascii: "'"): throw failure("Invalid string literal; expected \", but got '")
        case UInt8(ascii: "n") where token.count > 1 && token[1] == UInt8(ascii: "u"): pattern = "null"
        default: pattern = nil
        }
        if let pattern {
            guard token.elementsEqual(pattern.utf8) else { throw failure("Invalid literal") }
            switch first {
            case UInt8(ascii: "t"): try value(.bool(true))
            case UInt8(ascii: "f"): try value(.bool(false))
            default: try value(.null)
            }
            return
        }
        guard let number = Self.decimalLiteral(token) else { throw failure("Invalid numeric literal") }
        try value(.number(number))
    }

    /// A number as decNumber reads it: an optional sign, then digits with at
    /// most one point and an optional exponent, or `Inf`/`Infinity`, or `NaN`
    /// (`sNaN`) without a payload, letters in any case.
    static func decimalLiteral(_ token: [UInt8]) -> JSONNumber? {
        // The usual case, a number as JSON spells it, is its own literal.
        if let strict = JSONNumber(text: String(decoding: token, as: UTF8.self)) { return strict }
        var body = token[...]
        var negative = false
        if let sign = body.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            body = body.dropFirst()
        }
        let word = String(decoding: body, as: UTF8.self).lowercased()
        if word == "inf" || word == "infinity" { return JSONNumber(negative ? -Double.infinity : .infinity) }
        for prefix in ["nan", "snan"] where word.hasPrefix(prefix) {
            let payload = word.dropFirst(prefix.count)
            guard payload.allSatisfy({ $0 == "0" }) else { return nil }
            return JSONNumber(Double.nan)
        }
        guard isDecimal(body) else { return nil }
        let text = String(decoding: body, as: UTF8.self)
        let number = _Parser.numberLiteral(text)
        guard negative else { return number }
        if let literal = number.literal, let negated = JSONNumber(text: "-" + literal) { return negated }
        return JSONNumber(-number.double)
    }

    private static func isDecimal(_ body: ArraySlice<UInt8>) -> Bool {
        var digits = 0, points = 0
        var rest = body
        while let byte = rest.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            if byte == UInt8(ascii: ".") { points += 1 } else if byte >= 0x30 && byte <= 0x39 { digits += 1 } else { return false }
            rest = rest.dropFirst()
        }
        guard digits > 0, points <= 1 else { return false }
        guard !rest.isEmpty else { return true }
        var exponent = rest.dropFirst()
        if let sign = exponent.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { exponent = exponent.dropFirst() }
        return !exponent.isEmpty && exponent.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// jq's `found_string`: the raw bytes between the quotes, unescaped.
    private mutating func foundString() throws {
        var out: [UInt8] = []
        out.reserveCapacity(token.count)
        var i = 0
        while i < token.count {
            let byte = token[i]
            i += 1
            guard byte == UInt8(ascii: "\\") else {
                if byte < 0x20 {
                    throw failure("Invalid string: control characters from U+0000 through U+001F must be escaped")
                }
                out.append(byte)
                continue
            }
            guard i < token.count else { throw failure("Expected escape character at end of string") }
            let escape = token[i]
            i += 1
            switch escape {
            case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "/"): out.append(escape)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "u"): try unicodeEscape(at: &i, into: &out)
            default: throw failure("Invalid escape")
            }
        }
        token.removeAll(keepingCapacity: true)
        try value(.string(String(decoding: out, as: UTF8.self)))
    }

    /// `\uXXXX` (the `\u` already read), a surrogate pair as one code point;
    /// a lone low surrogate becomes U+FFFD, as jq's UTF-8 check makes it.
    private func unicodeEscape(at i: inout Int, into out: inout [UInt8]) throws {
        guard i + 4 <= token.count else { throw failure("Invalid \\uXXXX escape") }
        guard var code = Self.hex4(token[i..<i + 4]) else { throw failure("Invalid characters in \\uXXXX escape") }
        i += 4
        if (0xD800...0xDBFF).contains(code) {
            guard i + 6 <= token.count, token[i] == UInt8(ascii: "\\"), token[i + 1] == UInt8(ascii: "u"),
                  let low = Self.hex4(token[i + 2..<i + 6]), (0xDC00...0xDFFF).contains(low) else {
                throw failure("Invalid \\uXXXX\\uXXXX surrogate pair escape")
            }
            i += 6
            code = 0x10000 + ((code - 0xD800) << 10 | (low - 0xDC00))
        }
        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
        out.append(contentsOf: String(Character(scalar)).utf8)
    }

    private static func hex4(_ digits: ArraySlice<UInt8>) -> UInt32? {
        var value: UInt32 = 0
        for byte in digits {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
