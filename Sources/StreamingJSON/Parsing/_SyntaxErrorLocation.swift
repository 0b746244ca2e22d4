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
func _locateSyntaxError(yajlMessage: String, at offset: UInt64, in window: _ByteWindow,
                        atEnd: Bool, boundary: _TokenBoundary, allowsComments: Bool) -> (message: String, position: UInt64) {
    let lexical = yajlMessage.hasPrefix("lexical error")
    var detail = Substring(yajlMessage)
    if let colon = detail.range(of: "error: ") { detail = detail[colon.upperBound...] }
    while let last = detail.last, last == "\n" || last == "." || last == " " { detail.removeLast() }

    func byte(at position: UInt64) -> String {
        window[position].map(_describeByte) ?? "end of input"
    }

    if atEnd {
        // yajl finishes a number (or literal) only when it sees the end.
        if lexical { return ("Unexpected end of input", window.end) }
        let start = _tokenStart(endingAt: window.end, in: window)
        return ("Unexpected character \(byte(at: start)) after the end of the JSON value", start)
    }

    if lexical {
        let pastTheByte = detail.contains("invalid char in json text") || detail.contains("UTF8")
        let index = min(max(pastTheByte && offset > window.start ? offset - 1 : offset, window.start), window.end)
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
    let index = _rejectedTokenStart(skipsSeparator: skipsSeparator, boundary: boundary, in: window,
                                    allowsComments: allowsComments)
    let found = byte(at: index)
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
        expectation = " after the end of the JSON value"
    } else if detail.contains("unallowed token") {
        expectation = " (expected a value)"
    } else {
        expectation = " (\(detail))"
    }
    return ("Unexpected character \(found)\(expectation)", index)
}

/// Where the last token yajl accepted ends (tape.h), and whether a `,` or
/// `:` may have been accepted after it (it is a key, or a value or closing
/// bracket inside a container).
struct _TokenBoundary {
    let offset: UInt64
    let separated: Bool
}

/// The first byte of the token yajl rejected with a parse error: the first
/// token after `boundary` (after whitespace and comments), or the second
/// when the error says a value or key was expected and the first is the
/// `,` or `:` accepted before it. Found only when that token ends within
/// 4 KiB of the boundary, which the window then holds however the input was
/// split; otherwise the error is placed at the boundary.
func _rejectedTokenStart(skipsSeparator: Bool, boundary: _TokenBoundary, in window: _ByteWindow,
                         allowsComments: Bool) -> UInt64 {
    let limit = boundary.offset + UInt64(_RecentBytes.capacity)
    /// The end of the token or comment at `start`, or nil when it does not
    /// end within the limit.
    func end(of start: UInt64) -> UInt64? {
        guard let first = window[start] else { return nil }
        var index = start + 1
        if first == UInt8(ascii: "\"") {
            while true {
                guard index < limit, let c = window[index] else { return nil }
                index += c == UInt8(ascii: "\\") ? 2 : 1
                if c == UInt8(ascii: "\"") { return index }
            }
        }
        if allowsComments, first == UInt8(ascii: "/"), let second = window[index],
           second == UInt8(ascii: "*") || second == UInt8(ascii: "/") {
            index += 1
            while true {  // a comment (allowsComments)
                guard index < limit, let c = window[index] else { return nil }
                index += 1
                if second == UInt8(ascii: "/") ? c == 0x0A : c == UInt8(ascii: "*") && window[index] == UInt8(ascii: "/") {
                    return second == UInt8(ascii: "/") ? index : index + 1
                }
            }
        }
        if _isWordByte(first) {
            while index < limit, let c = window[index], _isWordByte(c) { index += 1 }
        }
        return index <= limit ? index : nil
    }
    var index = boundary.offset
    if index < window.start && window.start <= 3 { index = window.start }  // after a byte order mark
    var skips = skipsSeparator && boundary.separated
    while index < limit, let byte = window[index] {
        if _isJSONWhitespace(byte) {
            index += 1
            continue
        }
        guard let next = end(of: index) else { break }
        if allowsComments && byte == UInt8(ascii: "/") && next - index >= 2 {  // a comment
            index = next
        } else if skips && (byte == UInt8(ascii: ",") || byte == UInt8(ascii: ":")) {
            skips = false
            index = next
        } else {
            return index
        }
    }
    return boundary.offset
}

func _isWordByte(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
}

/// The first byte of the token that ends just before `end`.
func _tokenStart(endingAt end: UInt64, in window: _ByteWindow) -> UInt64 {
    guard end > window.start, let last = window[end - 1] else { return end }
    if _isJSONWhitespace(last) { return end }
    if last == UInt8(ascii: "\"") {
        // The opening quote is the nearest quote not escaped by an odd run of backslashes.
        var index = end - 1
        while index > window.start {
            index -= 1
            guard window[index] == UInt8(ascii: "\"") else { continue }
            var backslashes: UInt64 = 0
            while index - backslashes > window.start && window[index - backslashes - 1] == UInt8(ascii: "\\") {
                backslashes += 1
            }
            if backslashes % 2 == 0 { return index }
        }
        return window.start
    }
    func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }
    guard isWordByte(last) else { return end - 1 }
    var index = end - 1
    while index > window.start, let previous = window[index - 1], isWordByte(previous) { index -= 1 }
    return index
}

/// The opening quote of the string that ends (closing quote included) just
/// before `end`, looked for only in the 4 KiB before `end`, which the window
/// always holds (the recent bytes before its chunk, and the chunk up to
/// `end`): nil when it is further back, so that the answer does not depend on
/// how the input was split.
func _stringStart(endingAt end: UInt64, in window: _ByteWindow) -> UInt64? {
    let limit = max(window.start, end - min(end, UInt64(_RecentBytes.capacity)))
    guard end > limit, window[end - 1] == UInt8(ascii: "\"") else { return nil }
    var index = end - 1
    while index > limit {
        index -= 1
        guard window[index] == UInt8(ascii: "\"") else { continue }
        var backslashes: UInt64 = 0
        while index - backslashes > limit && window[index - backslashes - 1] == UInt8(ascii: "\\") {
            backslashes += 1
        }
        if backslashes % 2 == 0 { return index }
    }
    return nil
}

/// The bytes around a syntax error: the current chunk and up to 4 KiB before it.
struct _ByteWindow {
    let recent: _RecentBytes
    let chunk: UnsafeRawBufferPointer
    let chunkBase: UInt64

    var start: UInt64 { recent.bytes.isEmpty ? chunkBase : recent.base }
    var end: UInt64 { chunkBase + UInt64(chunk.count) }

    subscript(position: UInt64) -> UInt8? {
        if position >= chunkBase && position < end { return chunk[Int(position - chunkBase)] }
        if position >= recent.base && position < recent.base + UInt64(recent.bytes.count) {
            return recent.bytes[Int(position - recent.base)]
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
            bytes.append(contentsOf: chunk[(chunk.count - Self.capacity)...])
        } else {
            let overflow = bytes.count + chunk.count - Self.capacity
            if overflow > 0 { bytes.removeFirst(overflow) }
            bytes.append(contentsOf: chunk)
        }
        base = end - UInt64(bytes.count)
    }

    /// The bytes at offsets `start..<end`, when all of them are here.
    func bytes(from start: UInt64, to end: UInt64) -> [UInt8]? {
        guard start >= base, start <= end, end == base + UInt64(bytes.count) else { return nil }
        return Array(bytes[Int(start - base)...])
    }
}
