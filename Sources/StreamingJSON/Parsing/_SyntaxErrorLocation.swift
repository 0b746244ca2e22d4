/// Turns yajl's error (a message and an offset in the chunk that is not
/// always the offending byte) into our message and the index of the first
/// byte that could not be accepted.
///
/// Measured on yajl 2.1: lexical errors inside strings, numbers and literals
/// leave the offset *at* the offending byte; "invalid char" and invalid UTF-8
/// leave it just past it; parse (grammar) errors leave it past the whole
/// token that was not allowed, so we walk back to that token's first byte.
/// Except after a value ("after array element", "after key and value",
/// "trailing garbage"): there the rejected token is the first one after
/// `valueEnd`, the end of the last value yajl reported. (yajl's own offset
/// for "after key and value" has the token's length subtracted, and is 0
/// when the token began in an earlier chunk.)
func _locateSyntaxError(yajlMessage: String, at offset: UInt64, in window: _ByteWindow,
                        atEnd: Bool, valueEnd: UInt64? = nil,
                        allowsComments: Bool = false) -> (message: String, position: UInt64) {
    let lexical = yajlMessage.hasPrefix("lexical error")
    var detail = Substring(yajlMessage)
    if let colon = detail.range(of: "error: ") { detail = detail[colon.upperBound...] }
    while let last = detail.last, last == "\n" || last == "." || last == " " { detail.removeLast() }

    func byte(at position: UInt64) -> String {
        window[position].map(_describeByte) ?? "end of input"
    }

    // yajl finishes a number (or literal) only when it sees the end.
    if atEnd && lexical { return ("Unexpected end of input", window.end) }

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

    let afterValue = detail.contains("after array element") || detail.contains("inside map")
        || detail.contains("trailing garbage")
    let index: UInt64
    if afterValue, let valueEnd, let next = _nextTokenStart(from: valueEnd, in: window, allowsComments: allowsComments) {
        index = next
    } else {
        // At the end, the rejected token is the one yajl could finish only there.
        index = _tokenStart(endingAt: atEnd ? window.end : min(offset, window.end), in: window)
    }
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

/// The first byte at or after `position` that is neither whitespace nor (when
/// allowed) inside a comment; nil when the window does not reach that far.
func _nextTokenStart(from position: UInt64, in window: _ByteWindow, allowsComments: Bool) -> UInt64? {
    var index = position
    while let byte = window[index] {
        if _isJSONWhitespace(byte) {
            index += 1
        } else if allowsComments, byte == UInt8(ascii: "/"), let next = window[index + 1],
                  next == UInt8(ascii: "*") || next == UInt8(ascii: "/") {
            index += 2
            if next == UInt8(ascii: "/") {
                while let byte = window[index], byte != 0x0A { index += 1 }
            } else {
                while let byte = window[index], !(byte == UInt8(ascii: "*") && window[index + 1] == UInt8(ascii: "/")) {
                    index += 1
                }
                index += 2
            }
        } else {
            return index
        }
    }
    return nil
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
    // A run of word bytes may hold several tokens (`12true`, `1e3-8`: yajl lexes
    // a number, then the next token): lex it forward as yajl does and keep the
    // last token's start.
    while let next = _wordTokenEnd(from: index, in: window), next < end { index = next }
    return index
}

/// Where the number or literal token starting at `start` ends, lexed as yajl
/// lexes it (the longest number; `true`, `null` and `false` by their length);
/// nil when no such token starts there.
func _wordTokenEnd(from start: UInt64, in window: _ByteWindow) -> UInt64? {
    guard let first = window[start] else { return nil }
    func isDigit(_ position: UInt64) -> Bool { window[position].map { $0 &- 0x30 <= 9 } ?? false }
    switch first {
    case UInt8(ascii: "t"), UInt8(ascii: "n"): return start + 4
    case UInt8(ascii: "f"): return start + 5
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        var index = first == UInt8(ascii: "-") ? start + 1 : start
        if window[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            guard isDigit(index) else { return nil }
            while isDigit(index) { index += 1 }
        }
        if window[index] == UInt8(ascii: "."), isDigit(index + 1) {
            index += 1
            while isDigit(index) { index += 1 }
        }
        if let e = window[index], e | 0x20 == UInt8(ascii: "e") {
            var digits = index + 1
            if window[digits] == UInt8(ascii: "+") || window[digits] == UInt8(ascii: "-") { digits += 1 }
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

/// The bytes around a syntax error: the chunk yajl was given and up to 4 KiB
/// read before the current chunk. That chunk is usually the current one; for
/// a long token held back (`CYajl/tape_feed.h`) it is the token's bytes,
/// which the recent bytes then overlap.
struct _ByteWindow {
    let recent: _RecentBytes
    let chunk: UnsafeRawBufferPointer
    let chunkBase: UInt64

    var start: UInt64 { recent.bytes.isEmpty ? chunkBase : min(recent.base, chunkBase) }
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
}
