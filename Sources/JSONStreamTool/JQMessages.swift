// SPDX-License-Identifier: Apache-2.0
// The messages that `--jq` writes as jq 1.8.2 does, byte for byte, and the
// compile error's report that both modes share.

import JSONFilter

/// What jq 1.8.2 prints after a usage error (`--jq`).
let jqUsageHint = """
    Use jq --help for help with command-line options,
    or see the jq manpage, or online docs at https://jqlang.org
    """

/// The compile error's message as jq 1.8.2 writes it, then the filter's line
/// with carets under the offending name (one caret for a syntax error).
/// Like jq's, the line and column count bytes: `JSONFilterError.column`
/// counts Unicode scalars from the start of the text. `tool` starts each
/// line: `jq` with `--jq`, whose messages are jq's byte for byte.
func compileErrorReport(_ error: JSONFilterError, source: String, tool: String = "jsonstream") -> [String] {
    guard let column = error.column else { return ["\(tool): error: \(error.message)", "\(tool): 1 compile error"] }
    var lineNumber = 1, lineStart = 0
    let scalars = Array(source.unicodeScalars)
    for (offset, scalar) in scalars.enumerated() where offset < column - 1 && scalar == "\n" {
        lineNumber += 1
        lineStart = offset + 1
    }
    let lineEnd = scalars[lineStart...].firstIndex(of: "\n") ?? scalars.count
    let lineText = String(String.UnicodeScalarView(scalars[lineStart..<lineEnd]))
    let before = String(String.UnicodeScalarView(scalars[lineStart..<min(max(lineStart, column - 1), lineEnd)]))
    let byteColumn = before.utf8.count + 1
    var report = ["\(tool): error: \(error.message) at <top-level>, line \(lineNumber), column \(byteColumn):"]
    if column - 1 <= scalars.count {
        report.append("    " + lineText)
        report.append("    " + String(repeating: " ", count: byteColumn - 1)
                      + String(repeating: "^", count: undefinedNameLength(error.message)
                                ?? objectKeyLength(error.message, in: lineText, from: byteColumn - 1) ?? 1))
    }
    report.append("\(tool): 1 compile error")
    return report
}

/// The length of the name in "foo/2 is not defined" or "$x is not defined",
/// which jq underlines whole.
private func undefinedNameLength(_ message: String) -> Int? {
    guard message.hasSuffix(" is not defined"), let name = message.split(separator: " ").first else { return nil }
    let bare = name.split(separator: "/").first ?? name
    return bare.utf8.count
}

/// The length of the key expression in `{(KEY): v}` that "Cannot use …
/// as object key" is about, up to its closing parenthesis, which jq
/// underlines whole; `start` is its first byte in `line`.
private func objectKeyLength(_ message: String, in line: String, from start: Int) -> Int? {
    guard message.hasPrefix("Cannot use "), message.hasSuffix(" as object key") else { return nil }
    let bytes = Array(line.utf8)
    guard start < bytes.count else { return nil }
    var depth = 0, end = start
    while end < bytes.count {
        switch bytes[end] {
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
            if depth == 0 {
                while end > start, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
                return max(1, end - start)
            }
            depth -= 1
        default: break
        }
        end += 1
    }
    return nil
}
