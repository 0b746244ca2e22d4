/// Turns yajl's error (a message and an offset in the chunk that is not
/// always the offending byte) into our message and the index of the first
/// byte that could not be accepted.
///
/// Measured on yajl 2.1: lexical errors inside strings, numbers and literals
/// leave the offset *at* the offending byte; "invalid char" and invalid UTF-8
/// leave it just past it; parse (grammar) errors leave it past the whole
/// token that was not allowed, so we walk back to that token's first byte.
func _locateSyntaxError(yajlMessage: String, offset: Int, chunk: UnsafeRawBufferPointer,
                        atEnd: Bool) -> (message: String, index: Int) {
    let lexical = yajlMessage.hasPrefix("lexical error")
    var detail = Substring(yajlMessage)
    if let colon = detail.range(of: "error: ") { detail = detail[colon.upperBound...] }
    while let last = detail.last, last == "\n" || last == "." || last == " " { detail.removeLast() }

    func byte(at index: Int) -> String {
        index < chunk.count ? _describeByte(chunk[index]) : "end of input"
    }

    if atEnd {
        // yajl finishes a number (or literal) only when it sees the end.
        if lexical { return ("Unexpected end of input", chunk.count) }
        let index = _tokenStart(endingAt: chunk.count, in: chunk)
        return ("Unexpected character \(byte(at: index)) after the end of the JSON value", index)
    }

    if lexical {
        let pastTheByte = detail.contains("invalid char in json text") || detail.contains("UTF8")
        let index = min(max(pastTheByte ? offset - 1 : offset, 0), chunk.count)
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

    let index = _tokenStart(endingAt: min(offset, chunk.count), in: chunk)
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

/// The first byte of the token that ends just before `end`.
func _tokenStart(endingAt end: Int, in chunk: UnsafeRawBufferPointer) -> Int {
    guard end > 0 else { return 0 }
    let last = chunk[end - 1]
    if _isJSONWhitespace(last) { return end }
    if last == UInt8(ascii: "\"") {
        // The opening quote is the nearest quote not escaped by an odd run of backslashes.
        var index = end - 2
        while index >= 0 {
            if chunk[index] == UInt8(ascii: "\"") {
                var backslashes = 0
                while index - backslashes - 1 >= 0 && chunk[index - backslashes - 1] == UInt8(ascii: "\\") {
                    backslashes += 1
                }
                if backslashes % 2 == 0 { return index }
            }
            index -= 1
        }
        return 0
    }
    func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }
    guard isWordByte(last) else { return end - 1 }
    var index = end - 1
    while index > 0 && isWordByte(chunk[index - 1]) { index -= 1 }
    return index
}
