// SPDX-License-Identifier: Apache-2.0
/// Turns yajl's error (a message and an offset in the chunk that is not
/// always the offending byte) into our message and the index of the first
/// byte that could not be accepted.
///
/// Measured on yajl 2.1: lexical errors inside strings, numbers and literals
/// leave the offset *at* the offending byte; "invalid char" and invalid UTF-8
/// leave it just past it. For a parse (grammar) error the offset is the
/// token's end in some states and its end less its length in others (for a
/// string, without its quotes), clamped to the chunk's start when the token
/// began in an earlier chunk; so the rejected token is found instead by
/// lexing forward from `boundary`, the end of the last token yajl accepted
/// (see `_rejectedTokenStart`).
func _locateSyntaxError(yajlMessage: String, at offset: UInt64, in window: _ByteWindow, atEnd: Bool,
                        boundary: _TokenBoundary, tokens: [_TokenStart]?) -> (message: String, position: UInt64) {
    let lexical = yajlMessage.hasPrefix("lexical error")
    var detail = Substring(yajlMessage)
    if let colon = detail.range(of: "error: ") { detail = detail[colon.upperBound...] }
    while let last = detail.last, last == "\n" || last == "." || last == " " { detail.removeLast() }

    func byte(at position: UInt64) -> String {
        unsafe window[position].map(_describeByte) ?? "end of input"
    }

    // yajl finishes a number (or literal) only when it sees the end.
    if atEnd && lexical { return unsafe ("Unexpected end of input", window.end) }

    if lexical {
        let pastTheByte = detail.contains("invalid char in json text") || detail.contains("UTF8")
        let index = unsafe min(max(pastTheByte && offset > window.start ? offset - 1 : offset, window.start), window.end)
        let found = byte(at: index)
        let message: String
        if detail.contains("invalid char in json text") {
            message = "Unexpected character \(found)"
        } else if detail.contains("UTF8") {
            message = "Invalid UTF-8 in string: unexpected \(found)"
        } else if detail.contains("before a character which it may not") {
            message = "Invalid escape sequence in string: unexpected \(found) after '\\'"
        } else if detail.contains("non-hex") {
            message = "Invalid \\u escape in string: unexpected \(found)"
        } else if detail.contains("invalid character inside string") {
            message = "Unescaped control character \(found) in string"
        } else if detail.contains("comment") {
            message = "Unexpected character \(found) (comments are not allowed unless allowsComments is set)"
        } else if detail.contains("malformed number") {
            let rule = detail.components(separatedBy: ", ").last ?? "a digit is required"
            message = "Malformed number (\(rule)): unexpected \(found)"
        } else if detail.contains("invalid string in json text") {
            message = "Unexpected character \(found) in a literal (true, false or null)"
        } else {
            message = "Unexpected character \(found) (\(detail))"
        }
        return (message, index)
    }

    let skipsSeparator = detail.contains("unallowed token") || detail.contains("invalid object key")
    let token = _rejectedTokenStart(skipsSeparator: skipsSeparator, boundary: boundary, tokens: tokens)
    let index = token?.offset ?? boundary.offset
    let found = token.map { _describeByte($0.byte) } ?? byte(at: index)
    let expectation: String
    if detail.contains("after array element") {
        expectation = " (expected ',' or ']')"
    } else if detail.contains("inside map") {
        expectation = " (expected ',' or '}')"
    } else if detail.contains("colon") {
        expectation = " (expected ':')"
    } else if detail.contains("invalid object key") {
        expectation = " (expected a string key)"
    } else if detail.contains("trailing garbage") {
        expectation = JSONSyntaxError.afterTheValue
    } else if detail.contains("unallowed token") {
        expectation = " (expected a value)"
    } else {
        expectation = " (\(detail))"
    }
    return ("Unexpected character \(found)\(expectation)", index)
}

/// Where the last token yajl accepted ends (`sj_location`), and whether a `,` or
/// `:` may have been accepted after it (it is a key, or a value or closing
/// bracket inside a container).
struct _TokenBoundary {
    let offset: UInt64
    let separated: Bool
}

/// A token after a boundary: where it begins, and its first byte.
typealias _TokenStart = (offset: UInt64, byte: UInt8)

/// The first token after `boundary` (past whitespace and, with
/// allowsComments, comments), and the one after it when the first is a `,`
/// or `:`. Fewer when the window or 4 KiB end first; nil when the window no
/// longer holds the bytes after the boundary (`_ElementStream` then uses
/// what it found at the end of an earlier chunk).
func _tokensAfter(_ boundary: UInt64, in window: _ByteWindow, allowsComments: Bool) -> [_TokenStart]? {
    let limit = boundary + UInt64(_RecentBytes.capacity)
    var index = boundary
    if unsafe index < window.start && window.start <= 3 { index = unsafe window.start }  // after a byte order mark
    guard unsafe index >= window.start else { return nil }
    var tokens: [_TokenStart] = []
    scan: while tokens.count < 2, index < limit, let byte = unsafe window[index] {
        if _isJSONWhitespace(byte) {
            index += 1
            continue
        }
        if allowsComments, byte == UInt8(ascii: "/"), let kind = unsafe window[index + 1],
           kind == UInt8(ascii: "*") || kind == UInt8(ascii: "/") {
            index += 2
            while true {  // to the comment's end
                guard index < limit, let c = unsafe window[index] else { break scan }
                index += 1
                if unsafe kind == UInt8(ascii: "/")
                    ? c == 0x0A : c == UInt8(ascii: "*") && window[index] == UInt8(ascii: "/") {
                    if kind == UInt8(ascii: "*") { index += 1 }
                    break
                }
            }
            continue
        }
        tokens.append((index, byte))
        guard byte == UInt8(ascii: ",") || byte == UInt8(ascii: ":") else { break }
        index += 1
    }
    return tokens
}

/// The first byte of the token yajl rejected with a parse error: the first
/// token after the boundary, or the second when the error says a value or
/// key was expected and the first is the `,` or `:` accepted before it; the
/// boundary itself when the tokens are not known.
func _rejectedTokenStart(skipsSeparator: Bool, boundary: _TokenBoundary, tokens: [_TokenStart]?) -> _TokenStart? {
    guard let tokens, let first = tokens.first else { return nil }
    if skipsSeparator && boundary.separated && (first.byte == UInt8(ascii: ",") || first.byte == UInt8(ascii: ":")) {
        return tokens.count > 1 ? tokens[1] : nil
    }
    return first
}

func _isWordByte(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
}

/// The first byte of the token that ends just before `end`.
func _tokenStart(endingAt end: UInt64, in window: _ByteWindow) -> UInt64 {
    guard unsafe end > window.start, let last = unsafe window[end - 1] else { return end }
    if _isJSONWhitespace(last) { return end }
    if last == UInt8(ascii: "\"") {
        // The opening quote is the nearest quote not escaped by an odd run of backslashes.
        var index = end - 1
        while unsafe index > window.start {
            index -= 1
            guard unsafe window[index] == UInt8(ascii: "\"") else { continue }
            var backslashes: UInt64 = 0
            while unsafe index - backslashes > window.start && window[index - backslashes - 1] == UInt8(ascii: "\\") {
                backslashes += 1
            }
            if backslashes % 2 == 0 { return index }
        }
        return unsafe window.start
    }
    func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }
    guard isWordByte(last) else { return end - 1 }
    var index = end - 1
    while unsafe index > window.start, let previous = unsafe window[index - 1], isWordByte(previous) { index -= 1 }
    // A run of word bytes may hold several tokens (`12true`, `1e3-8`: yajl lexes
    // a number, then the next token): lex it forward as yajl does and keep the
    // last token's start.
    while let next = unsafe _wordTokenEnd(from: index, in: window), next < end { index = next }
    return index
}

/// Where the number or literal token starting at `start` ends, lexed as yajl
/// lexes it (the longest number; `true`, `null` and `false` by their length);
/// nil when no such token starts there.
func _wordTokenEnd(from start: UInt64, in window: _ByteWindow) -> UInt64? {
    guard let first = unsafe window[start] else { return nil }
    func isDigit(_ position: UInt64) -> Bool { unsafe window[position].map { $0 &- 0x30 <= 9 } ?? false }
    switch first {
    case UInt8(ascii: "t"), UInt8(ascii: "n"): return start + 4
    case UInt8(ascii: "f"): return start + 5
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        var index = first == UInt8(ascii: "-") ? start + 1 : start
        if unsafe window[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            guard isDigit(index) else { return nil }
            while isDigit(index) { index += 1 }
        }
        if unsafe window[index] == UInt8(ascii: "."), isDigit(index + 1) {
            index += 1
            while isDigit(index) { index += 1 }
        }
        if let e = unsafe window[index], e | 0x20 == UInt8(ascii: "e") {
            var digits = index + 1
            if unsafe window[digits] == UInt8(ascii: "+") || window[digits] == UInt8(ascii: "-") { digits += 1 }
            if isDigit(digits) {
                index = digits
                while isDigit(index) { index += 1 }
            }
        }
        return index
    default:
        return nil
    }
}

/// The bytes around a syntax error: the chunk yajl was given and up to 4 KiB
/// read before the current chunk. That chunk is usually the current one; for
/// a long token held back (`tape_feed.c`) it is the token's bytes,
/// which the recent bytes then overlap. Unsafe: `chunk` is the caller's
/// buffer, which must outlive the window.
@unsafe struct _ByteWindow {
    let recent: _RecentBytes
    let chunk: UnsafeRawBufferPointer
    let chunkBase: UInt64

    var start: UInt64 { unsafe recent.bytes.isEmpty ? chunkBase : min(recent.base, chunkBase) }
    var end: UInt64 { unsafe chunkBase + UInt64(chunk.count) }

    subscript(position: UInt64) -> UInt8? {
        if unsafe position >= chunkBase && position < end { return unsafe chunk[Int(position - chunkBase)] }
        if unsafe position >= recent.base && position < recent.base + UInt64(recent.bytes.count) {
            return unsafe recent.bytes[Int(position - recent.base)]
        }
        return nil
    }
}

/// The last 4 KiB of input parsed, kept in one reused array.
struct _RecentBytes {
    static let capacity = 4096
    private(set) var bytes: [UInt8] = []
    /// Absolute offset of `bytes[0]`.
    private(set) var base: UInt64 = 0

    mutating func append(_ chunk: UnsafeRawBufferPointer, base chunkBase: UInt64) {
        let end = chunkBase + UInt64(chunk.count)
        if chunk.count >= Self.capacity {
            bytes.removeAll(keepingCapacity: true)
            unsafe bytes.append(contentsOf: chunk[(chunk.count - Self.capacity)...])
        } else {
            let overflow = bytes.count + chunk.count - Self.capacity
            if overflow > 0 { bytes.removeFirst(overflow) }
            unsafe bytes.append(contentsOf: chunk)
        }
        base = end - UInt64(bytes.count)
    }

    /// The bytes at offsets `start..<end`, when all of them are here.
    func bytes(from start: UInt64, to end: UInt64) -> [UInt8]? {
        guard start >= base, start <= end, end == base + UInt64(bytes.count) else { return nil }
        return Array(bytes[Int(start - base)...])
    }
}

extension JSONSyntaxError {
    /// The end of the message for content after the one value of an input.
    static let afterTheValue = " after the end of the JSON value"

    /// Whether this is content after the input's value (`[1] [2]`, `[1] x`):
    /// for `--jq`, where an input may hold several values, not an error of
    /// the first one.
    package var followsTheValue: Bool { message.hasSuffix(Self.afterTheValue) }
}
