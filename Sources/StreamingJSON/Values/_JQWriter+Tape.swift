// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape

// Writing a value straight from the tape, for `jsonstream .`: the same
// bytes `write(_:)` gives for the `JSONValue` the tape would build, without
// building it. Only for plain output (no colours, keys in input order); a
// value with an object with a repeated key is built, so that jq's rule for
// it (the last value, at the first key's place) applies.
extension _JQWriter {
    /// Whether `writeTapeValue` can write with this style.
    package var writesFromTape: Bool { !style.colors && !style.sortsKeys }

    /// Writes the value whose first token is `tape[index]` at `level` into
    /// raw memory (no array append, with its uniqueness and capacity checks,
    /// per token; strings escaped 16 bytes at a time) and returns the index
    /// after it; nil where only the built value is written as jq would write
    /// it: too deep, an object with a repeated key, non-ASCII text with
    /// `asciiOnly`. `out` then holds a part of the value, for the caller to
    /// drop.
    static func writeTapeValue(_ tape: _TapeView, at index: Int, level: Int, style: JQOutputStyle,
                               into out: inout _Growable<UInt8>) -> Int? {
        let token = unsafe tape[index]
        switch token.kind {
        case _Kind.null:
            unsafe out.append(literal: "null")
        case _Kind.true:
            unsafe out.append(literal: "true")
        case _Kind.false:
            unsafe out.append(literal: "false")
        case _Kind.number:
            let literal = unsafe tape.bytes(of: token)
            if unsafe !JSONNumber.isNotCanonical(literal) {
                unsafe out.append(contentsOf: literal)  // jq's canonical form of most numbers is their text
            } else {
                var text = unsafe JSONNumber.jqCanonicalLiteral(tape.string(of: token))
                text.withUTF8 { unsafe out.append(contentsOf: $0) }
            }
        case _Kind.string:
            guard unsafe appendString(tape.bytes(of: token), style: style, to: &out) else { return nil }
        case _Kind.array where token.count == 0:
            unsafe out.append(literal: "[]")
        case _Kind.object where token.count == 0:
            unsafe out.append(literal: "{}")
        case _Kind.array:
            guard level < Self.depthLimit else { return nil }
            unsafe out.append(UInt8(ascii: "["))
            var cursor = index + 1
            for position in 0..<token.count {
                unsafe separator(first: position == 0, level: level, style: style, into: &out)
                guard let next = unsafe writeTapeValue(tape, at: cursor, level: level + 1, style: style,
                                                       into: &out) else { return nil }
                cursor = next
            }
            unsafe newline(level, style: style, into: &out)
            unsafe out.append(UInt8(ascii: "]"))
            return index + token.size
        default:  // object
            guard level < Self.depthLimit, unsafe tape.hasDistinctKeys(object: index) else { return nil }
            unsafe out.append(UInt8(ascii: "{"))
            var cursor = index + 1
            for position in 0..<token.count {
                unsafe separator(first: position == 0, level: level, style: style, into: &out)
                guard unsafe appendString(tape.bytes(of: tape[cursor]), style: style, to: &out) else { return nil }
                unsafe out.append(UInt8(ascii: ":"))
                if style.isPretty { unsafe out.append(UInt8(ascii: " ")) }
                guard let next = unsafe writeTapeValue(tape, at: cursor + 1, level: level + 1, style: style,
                                                       into: &out) else { return nil }
                cursor = next
            }
            unsafe newline(level, style: style, into: &out)
            unsafe out.append(UInt8(ascii: "}"))
            return index + token.size
        }
        return index + 1
    }

    /// `separator(first:color:level:into:)` without colours.
    private static func separator(first: Bool, level: Int, style: JQOutputStyle, into out: inout _Growable<UInt8>) {
        if !first { unsafe out.append(UInt8(ascii: ",")) }
        unsafe newline(level + 1, style: style, into: &out)
    }

    /// `newline(_:into:)`.
    private static func newline(_ level: Int, style: JQOutputStyle, into out: inout _Growable<UInt8>) {
        guard style.isPretty else { return }
        unsafe out.append(UInt8(ascii: "\n"))
        let (byte, count) = style.tabs ? (UInt8(ascii: "\t"), level) : (UInt8(ascii: " "), level * style.indent)
        for _ in 0..<count { unsafe out.append(byte) }
    }

    /// A string as `writeString(utf8:into:)` writes it; false for non-ASCII
    /// text with `asciiOnly` (its `\u` escapes are that function's).
    private static func appendString(_ utf8: UnsafeBufferPointer<UInt8>, style: JQOutputStyle,
                                     to out: inout _Growable<UInt8>) -> Bool {
        if style.asciiOnly, unsafe utf8.contains(where: { $0 >= 0x80 }) { return false }
        // The escaper's room: six bytes a byte at most, and 16 it may store past the end.
        unsafe out.append(atMost: 6 * utf8.count + 18) { to in
            unsafe to[0] = UInt8(ascii: "\"")
            let written = unsafe utf8.baseAddress.map { unsafe sj_write_escaped(to + 1, $0, utf8.count,
                                                                              Int32(SJ_ESCAPE_DEL)) } ?? 0
            unsafe to[written + 1] = UInt8(ascii: "\"")
            return written + 2
        }
        return true
    }
}
