// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

// Copying an element's input text instead of writing it, for `jsonstream -c .`
// and `select(f)` on compact input (most JSON Lines dumps): when the text is
// byte for byte what `writeTapeValue` would write, the copy is the output.
//
// The test looks at the text only for its backslashes. `verbatimLength`
// adds up what the compact writing of the tape's tokens takes without
// escapes: a string's unescaped bytes and its quotes, a number's literal,
// the brackets, colons and commas. Whitespace only ever makes input text
// longer than that, and so does an escape: by one byte for `\n`, five for
// `\u001b`, and more than jq's own escape for any other way of writing the
// same character (`\u000a` for `\n`, `\/` for `/`, `\u00e9` for `é`). So
// text whose escapes are all jq's, written as jq writes them, and whose
// length is exactly that sum plus what those escapes add, has no
// whitespace and is the compact writing — provided nothing else changes
// on the way out: numbers already in jq's canonical form, no object with a
// repeated key (jq keeps one), no raw DEL (jq escapes it).
extension _JQWriter {
    /// Whether input text can stand for a written value: compact, plain
    /// output whose strings are escaped as the input's may be left.
    package var writesVerbatim: Bool {
        writesFromTape && !style.isPretty && !style.asciiOnly
    }

    /// The length of the compact writing of the value at `tape[index]`; nil
    /// when its text cannot be copied whatever its length: a number not in
    /// canonical form, an object with a repeated key, a value nested deeper
    /// than `write` prints (possible only when `maxDepth` allows it).
    static func verbatimLength(_ tape: _TapeView, at index: Int, maxDepth: Int) -> Int? {
        // Nesting is bounded by the tokens; only past that is it followed.
        guard unsafe tape[index].size <= depthLimit || maxDepth <= depthLimit else { return nil }
        let length = unsafe sj_verbatim_length(tape.tokens, tape.arena, index)
        return length < 0 ? nil : Int(length)
    }

    /// Appends `text`, the input text of a value whose `verbatimLength` is
    /// `length`, when it is that value's compact writing; false when it
    /// appended nothing.
    static func appendVerbatim(_ text: UnsafeRawBufferPointer, length: Int, into bytes: inout [UInt8]) -> Bool {
        guard let base = text.baseAddress, let surplus = unsafe escapeSurplus(text),
              text.count == length &+ surplus, unsafe memchr(base, 0x7F, text.count) == nil else { return false }
        unsafe bytes.append(contentsOf: text)
        return true
    }

    /// The bytes the escapes in `text` take beyond the characters they stand
    /// for, when every escape is the one jq writes (`\n`, `\"`, `\u001b`
    /// …); nil for any other (`\/`, `\u00e9`, `\u001B`).
    private static func escapeSurplus(_ text: UnsafeRawBufferPointer) -> Int? {
        guard let base = text.baseAddress else { return 0 }
        var surplus = 0
        var from = 0
        while from < text.count, let found = unsafe memchr(base + from, Int32(UInt8(ascii: "\\")), text.count &- from) {
            let at = unsafe base.distance(to: UnsafeRawPointer(found))
            guard at &+ 1 < text.count else { return nil }
            switch unsafe text[at &+ 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "r"),
                 UInt8(ascii: "b"), UInt8(ascii: "f"):
                surplus &+= 1
                from = at &+ 2
            case UInt8(ascii: "u"):
                guard at &+ 6 <= text.count, let unit = unsafe jqHexEscape(text, at: at &+ 2) else { return nil }
                switch unit {
                case 0x08, 0x09, 0x0A, 0x0C, 0x0D: return nil  // jq writes these with a letter
                case ..<0x20, 0x7F: break
                default: return nil
                }
                surplus &+= 5
                from = at &+ 6
            default:
                return nil
            }
        }
        return surplus
    }

    /// The code unit of the four hex digits at `text[at...]` when they are
    /// `00` and two lowercase digits, as jq writes them; nil otherwise.
    private static func jqHexEscape(_ text: UnsafeRawBufferPointer, at: Int) -> UInt8? {
        guard unsafe text[at] == UInt8(ascii: "0") && text[at &+ 1] == UInt8(ascii: "0") else { return nil }
        var unit: UInt8 = 0
        for offset in 2..<4 {
            let digit = unsafe text[at &+ offset]
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): unit = unit << 4 | (digit &- UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): unit = unit << 4 | (digit &- UInt8(ascii: "a") &+ 10)
            default: return nil
            }
        }
        return unit
    }
}
