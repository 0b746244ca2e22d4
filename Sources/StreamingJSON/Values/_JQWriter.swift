// SPDX-License-Identifier: Apache-2.0
/// How `_JQWriter` lays out values: jq's output options.
package struct JQOutputStyle: Sendable {
    /// Spaces per level when pretty; 0 for compact (`-c`).
    package var indent = 0
    /// One tab per level (`--tab`); overrides `indent`.
    package var tabs = false
    /// Object keys in byte order (`-S`).
    package var sortsKeys = false
    /// Non-ASCII as `\uXXXX` escapes, astral characters as surrogate pairs (`-a`).
    package var asciiOnly = false
    /// ANSI colours (`-C`), from `palette`.
    package var colors = false
    /// The colours when `colors` is on: jq 1.8's unless `JQ_COLORS` says otherwise.
    package var palette = JQColorPalette.jqDefault
    /// Line breaks even with an indent of 0: jq 1.8's `--indent 0` (without `-c`).
    package var breaksLines = false
    /// Literal numbers in jq 1.8's canonical form (`1E+2`), as jq prints
    /// them; off, they are written exactly as read.
    package var canonicalNumbers = true

    /// A style; every option defaults to jq's own default (compact, no
    /// colours, jq 1.8's palette for when colours are turned on).
    package init(indent: Int = 0, tabs: Bool = false, sortsKeys: Bool = false, asciiOnly: Bool = false,
                 colors: Bool = false, canonicalNumbers: Bool = true, palette: JQColorPalette = .jqDefault) {
        self.indent = indent
        self.tabs = tabs
        self.sortsKeys = sortsKeys
        self.asciiOnly = asciiOnly
        self.colors = colors
        self.canonicalNumbers = canonicalNumbers
        self.palette = palette
    }

    var isPretty: Bool { tabs || indent > 0 || breaksLines }
}

/// The eight escape sequences jq colours output with, in its order: null,
/// false, true, numbers, strings, arrays, objects, object keys. Each one is
/// written before its kind of value (and a container's also before its
/// `,`, `:` and closing bracket), followed by the reset `ESC[0m`.
package struct JQColorPalette: Sendable, Equatable {
    /// The eight complete sequences (`ESC [ code m`), indexed as above.
    package private(set) var sequences: [[UInt8]]

    /// jq 1.8's defaults: null dark grey (`0;90`), false, true and numbers
    /// the default colour (`0;39`), strings green (`0;32`), arrays and
    /// objects bold (`1;39`), object keys bold blue (`1;34`).
    package static let jqDefault = JQColorPalette(codes: ["0;90", "0;39", "0;39", "0;39", "0;32", "1;39", "1;39", "1;34"])

    private init(codes: [String]) {
        sequences = codes.map { Self.sequence($0.utf8) }
    }

    /// `ESC [ code m`.
    private static func sequence<Code: Collection>(_ code: Code) -> [UInt8] where Code.Element == UInt8 {
        [0x1B, UInt8(ascii: "[")] + Array(code) + [UInt8(ascii: "m")]
    }

    /// The palette `JQ_COLORS` asks for, read byte by byte as jq 1.8.2
    /// reads it. The spec is colon-separated codes made of ASCII digits and
    /// `;` (an empty code is allowed and gives `ESC[m`); the codes replace
    /// the defaults from the first one on. Reading stops after the eighth
    /// code, so whatever follows it is ignored, even characters that would
    /// otherwise be refused; a final empty code is dropped (`""` and `"1:"`
    /// set nothing and one colour). Nil for a spec jq refuses: any other
    /// byte before the eighth code ends, where a `:` should be. jq then
    /// prints `Failed to set $JQ_COLORS` on stderr and keeps its defaults.
    package init?(jqColors spec: String) {
        let bytes = Array(spec.utf8)
        var codes: [ArraySlice<UInt8>] = []
        var position = 0
        while true {
            let start = position
            while position < bytes.count, bytes[position] == UInt8(ascii: ";")
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                position += 1
            }
            codes.append(bytes[start..<position])
            if position == bytes.count || codes.count == 8 { break }
            guard bytes[position] == UInt8(ascii: ":") else { return nil }
            position += 1
        }
        if codes.last?.isEmpty == true { codes.removeLast() }
        self = .jqDefault
        for (index, code) in codes.enumerated() { sequences[index] = Self.sequence(code) }
    }
}

/// Writes `JSONValue`s as jq 1.8 prints them: `/` not escaped, DEL as
/// `\u007f`, `"k":v` compact or `"k": v` pretty, empty containers as `[]`
/// and `{}` even when pretty, literal numbers in jq's canonical form, and,
/// with colours, jq 1.8's exact escape sequences.
package struct _JQWriter {
    package let style: JQOutputStyle

    package init(style: JQOutputStyle) {
        self.style = style
    }

    private static let reset: [UInt8] = Array("\u{1B}[0m".utf8)

    package func write(_ value: JSONValue, into bytes: inout [UInt8]) {
        write(value, level: 0, into: &bytes)
    }

    /// jq's printer writes a placeholder past this nesting (`MAX_PRINT_DEPTH`).
    static let depthLimit = 10_000

    func write(_ value: JSONValue, level: Int, into bytes: inout [UInt8]) {
        if level > Self.depthLimit {
            // Still in the colour of the value it stands for, as jq does.
            if style.colors { bytes.append(contentsOf: style.palette.sequences[Self.colorIndex(of: value)]) }
            bytes.append(contentsOf: "<skipped: too deep>".utf8)
            if style.colors { bytes.append(contentsOf: Self.reset) }
            return
        }
        switch value {
        case .null:
            scalar(0, "null", into: &bytes)
        case .bool(let bool):
            scalar(bool ? 2 : 1, bool ? "true" : "false", into: &bytes)
        case .number(let number):
            if style.colors { bytes.append(contentsOf: style.palette.sequences[3]) }
            if case .literal(let literal) = number.storage {
                var text = style.canonicalNumbers ? JSONNumber.jqCanonicalLiteral(literal) : literal
                text.withUTF8 { unsafe bytes.append(contentsOf: $0) }
            } else if number.double.isNaN {
                // jq prints NaN as a null inside the number colour: both
                // sequences, `null`, and two resets.
                scalar(0, "null", into: &bytes)
            } else {
                bytes.append(contentsOf: number.description.utf8)
            }
            if style.colors { bytes.append(contentsOf: Self.reset) }
        case .string(let string):
            if style.colors { bytes.append(contentsOf: style.palette.sequences[4]) }
            writeString(string, into: &bytes)
            if style.colors { bytes.append(contentsOf: Self.reset) }
        case .array(let array):
            writeArray(array, level: level, into: &bytes)
        case .object(let object):
            writeObject(object, level: level, into: &bytes)
        }
    }

    // With colours, jq 1.8 writes a container as: its colour and the
    // opening bracket; before each member, the colour and `,` (not before
    // the first) and a reset; an object key in the key colour, then the
    // colour, `:` and a reset; at the end the colour, the closing bracket
    // and a reset. An empty container is its colour, `[]` and a reset.

    private func writeArray(_ array: [JSONValue], level: Int, into bytes: inout [UInt8]) {
        let color = style.colors ? style.palette.sequences[5] : []
        guard open(color, UInt8(ascii: "["), UInt8(ascii: "]"), isEmpty: array.isEmpty, into: &bytes) else { return }
        for (position, element) in array.enumerated() {
            separator(first: position == 0, color: color, level: level, into: &bytes)
            write(element, level: level + 1, into: &bytes)
        }
        close(color, UInt8(ascii: "]"), level: level, into: &bytes)
    }

    private func writeObject(_ object: JSONObject, level: Int, into bytes: inout [UInt8]) {
        let color = style.colors ? style.palette.sequences[6] : []
        guard open(color, UInt8(ascii: "{"), UInt8(ascii: "}"), isEmpty: object.isEmpty, into: &bytes) else { return }
        // Members in their order unless sorted: no index array to build then.
        let keys = object.keys, values = object.values
        var sorted: [Int] = []
        if style.sortsKeys {
            sorted = Array(0..<keys.count)
            sorted.sort { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
        }
        for position in 0..<keys.count {
            let member = style.sortsKeys ? sorted[position] : position
            separator(first: position == 0, color: color, level: level, into: &bytes)
            writeKey(keys[member], color: color, into: &bytes)
            write(values[member], level: level + 1, into: &bytes)
        }
        close(color, UInt8(ascii: "}"), level: level, into: &bytes)
    }

    /// A member's key and colon, as jq writes them.
    func writeKey(_ key: String, color: [UInt8], into bytes: inout [UInt8]) {
        if style.colors { bytes.append(contentsOf: style.palette.sequences[7]) }
        writeString(key, into: &bytes)
        if style.colors {
            bytes.append(contentsOf: Self.reset)
            bytes.append(contentsOf: color)
        }
        bytes.append(UInt8(ascii: ":"))
        if style.colors { bytes.append(contentsOf: Self.reset) }
        if style.isPretty { bytes.append(UInt8(ascii: " ")) }
    }

    // MARK: A container a member at a time

    // `jsonstream --jq .` writes a huge array or object as it reads it:
    // the same bytes as `write` would for the whole value, in three steps.

    /// The opening bracket of a top-level array or object.
    package func beginContainer(isObject: Bool, into bytes: inout [UInt8]) {
        if style.colors { bytes.append(contentsOf: style.palette.sequences[isObject ? 6 : 5]) }
        bytes.append(UInt8(ascii: isObject ? "{" : "["))
    }

    /// One element (`key` nil) or member of the container begun.
    package func writeContainerMember(_ value: JSONValue, key: String?, first: Bool, into bytes: inout [UInt8]) {
        writeContainerMemberStart(key: key, first: first, into: &bytes)
        write(value, level: 1, into: &bytes)
    }

    /// What comes before a member's value: the separator and the key.
    package func writeContainerMemberStart(key: String?, first: Bool, into bytes: inout [UInt8]) {
        let color = style.colors ? style.palette.sequences[key == nil ? 5 : 6] : []
        separator(first: first, color: color, level: 0, into: &bytes)
        if let key { writeKey(key, color: color, into: &bytes) }
    }

    /// The closing bracket; `isEmpty`: no member was written.
    package func endContainer(isObject: Bool, isEmpty: Bool, into bytes: inout [UInt8]) {
        let color = style.colors ? style.palette.sequences[isObject ? 6 : 5] : []
        let closing = UInt8(ascii: isObject ? "}" : "]")
        guard !isEmpty else {
            bytes.append(closing)
            if style.colors { bytes.append(contentsOf: Self.reset) }
            return
        }
        close(color, closing, level: 0, into: &bytes)
    }

    /// A container's colour and opening bracket; an empty one is written
    /// whole (`[]`, `{}`), and false says no members follow.
    private func open(_ color: [UInt8], _ opening: UInt8, _ closing: UInt8, isEmpty: Bool,
                      into bytes: inout [UInt8]) -> Bool {
        if style.colors { bytes.append(contentsOf: color) }
        bytes.append(opening)
        guard isEmpty else { return true }
        bytes.append(closing)
        if style.colors { bytes.append(contentsOf: Self.reset) }
        return false
    }

    /// A non-empty container's end: the line break, colour, bracket and reset.
    private func close(_ color: [UInt8], _ closing: UInt8, level: Int, into bytes: inout [UInt8]) {
        newline(level, into: &bytes)
        if style.colors { bytes.append(contentsOf: color) }
        bytes.append(closing)
        if style.colors { bytes.append(contentsOf: Self.reset) }
    }

    /// What comes before a member: `,` after the first, then the layout's line break.
    func separator(first: Bool, color: [UInt8], level: Int, into bytes: inout [UInt8]) {
        if !first {
            if style.colors { bytes.append(contentsOf: color) }
            bytes.append(UInt8(ascii: ","))
        }
        if style.colors { bytes.append(contentsOf: Self.reset) }
        newline(level + 1, into: &bytes)
    }

    /// The palette index for `value`'s kind.
    private static func colorIndex(of value: JSONValue) -> Int {
        switch value {
        case .null: return 0
        case .bool(let bool): return bool ? 2 : 1
        case .number: return 3
        case .string: return 4
        case .array: return 5
        case .object: return 6
        }
    }

    /// `text` in the palette's colour number `color`, when colouring.
    private func scalar(_ color: Int, _ text: StaticString, into bytes: inout [UInt8]) {
        if style.colors { bytes.append(contentsOf: style.palette.sequences[color]) }
        unsafe bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        if style.colors { bytes.append(contentsOf: Self.reset) }
    }

    func newline(_ level: Int, into bytes: inout [UInt8]) {
        guard style.isPretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        if style.tabs {
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "\t"), count: level))
        } else {
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: level * style.indent))
        }
    }

    /// A string as jq writes it: `"`, `\`, `\b \f \n \r \t`, other control
    /// characters and DEL as `\u00xx`; with `asciiOnly`, every non-ASCII
    /// scalar as `\uxxxx` (surrogate pairs above U+FFFF).
    package func writeString(_ string: String, into bytes: inout [UInt8]) {
        var string = string
        string.withUTF8 { unsafe writeString(utf8: $0, into: &bytes) }
    }

    /// Whether any of the eight bytes is below 0x20, `"`, `\\` or DEL (bytes
    /// of 0x80 and more may flag a false positive, checked one at a time).
    @inline(__always)
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        let control = (word &- 0x2020_2020_2020_2020) & ~word & highs
        return control != 0 || hasZero(word ^ (ones &* 0x22)) || hasZero(word ^ (ones &* 0x5C))
            || hasZero(word ^ (ones &* 0x7F))
    }

    /// `mayNeedEscape` for up to 16 bytes: two words that may overlap, or
    /// one padded with a byte that never needs one.
    @inline(__always)
    static func shortMayNeedEscape(_ base: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let raw = unsafe UnsafeRawPointer(base)
        if count >= 8 {
            return unsafe mayNeedEscape(raw.loadUnaligned(as: UInt64.self))
                || mayNeedEscape(raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        }
        var word: UInt64 = 0x4141_4141_4141_4141
        unsafe withUnsafeMutableBytes(of: &word) { unsafe $0.baseAddress!.copyMemory(from: raw, byteCount: count) }
        return mayNeedEscape(word)
    }

    /// `writeString` for text already known to be valid UTF-8 (the tape's).
    func writeString(utf8: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8]) {
        if !style.asciiOnly, utf8.count <= 16, let base = utf8.baseAddress,
           unsafe !Self.shortMayNeedEscape(base, utf8.count) {
            // Most strings and keys: short, nothing to escape, one copy.
            bytes.append(UInt8(ascii: "\""))
            unsafe bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        var i = 0
        while i < utf8.count {
            // Eight bytes at a time while none of them needs an escape.
            if !style.asciiOnly, let base = utf8.baseAddress {
                while i + 8 <= utf8.count {
                    let word = unsafe UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                    if Self.mayNeedEscape(word) { break }
                    i += 8
                }
                if i >= utf8.count { break }
            }
            let byte = unsafe utf8[i]
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0x7F && (byte < 0x80 || !style.asciiOnly) {
                i += 1
                continue
            }
            unsafe bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
            if byte >= 0x80 {
                // asciiOnly: decode the scalar and escape it.
                let (scalar, length) = unsafe Self.decodeScalar(utf8, at: i)
                if scalar > 0xFFFF {
                    let v = scalar - 0x10000
                    Self.appendUnicodeEscape(0xD800 + (v >> 10), into: &bytes)
                    Self.appendUnicodeEscape(0xDC00 + (v & 0x3FF), into: &bytes)
                } else {
                    Self.appendUnicodeEscape(scalar, into: &bytes)
                }
                i += length
            } else {
                switch byte {
                case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
                case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
                case 0x08: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
                case 0x0C: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
                case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                default: Self.appendUnicodeEscape(UInt32(byte), into: &bytes)
                }
                i += 1
            }
            runStart = i
        }
        unsafe bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        bytes.append(UInt8(ascii: "\""))
    }

    private static func appendUnicodeEscape(_ value: UInt32, into bytes: inout [UInt8]) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [0x5C, UInt8(ascii: "u")])
        for shift in stride(from: 12, through: 0, by: -4) {
            bytes.append(hex[Int((value >> UInt32(shift)) & 0xF)])
        }
    }

    /// The scalar starting at `i` of valid UTF-8 (Swift strings always are).
    private static func decodeScalar(_ utf8: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int) {
        let lead = unsafe UInt32(utf8[i])
        if lead < 0xE0 { return unsafe (((lead & 0x1F) << 6) | UInt32(utf8[i + 1] & 0x3F), 2) }
        if lead < 0xF0 {
            return unsafe (((lead & 0x0F) << 12) | (UInt32(utf8[i + 1] & 0x3F) << 6) | UInt32(utf8[i + 2] & 0x3F), 3)
        }
        return unsafe (((lead & 0x07) << 18) | (UInt32(utf8[i + 1] & 0x3F) << 12) | (UInt32(utf8[i + 2] & 0x3F) << 6)
                       | UInt32(utf8[i + 3] & 0x3F), 4)
    }
}
