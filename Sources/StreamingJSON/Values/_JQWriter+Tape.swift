// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape

// Writing a value straight from the tape, for `jsonstream .`: the same
// bytes `write(_:)` gives for the `JSONValue` the tape would build, without
// building it. Only for plain output (no colours, keys in input order); an
// object with a repeated key is built, so that jq's rule for it (the last
// value, at the first key's place) applies.
extension _JQWriter {
    /// Whether `writeTapeValue` can write with this style.
    package var writesFromTape: Bool { !style.colors && !style.sortsKeys }

    /// Writes the value whose first token is `tape[index]` at `level`;
    /// returns the index after it.
    @discardableResult
    func writeTapeValue(_ tape: _TapeView, at index: Int, level: Int, into bytes: inout [UInt8]) -> Int {
        let token = unsafe tape[index]
        switch token.kind {
        case _Kind.null:
            bytes.append(contentsOf: "null".utf8)
        case _Kind.true:
            bytes.append(contentsOf: "true".utf8)
        case _Kind.false:
            bytes.append(contentsOf: "false".utf8)
        case _Kind.number:
            let literal = unsafe tape.bytes(of: token)
            if unsafe !JSONNumber.isNotCanonical(literal) {
                unsafe bytes.append(contentsOf: literal)  // jq's canonical form of most numbers is their text
            } else {
                var text = unsafe JSONNumber.jqCanonicalLiteral(tape.string(of: token))
                text.withUTF8 { unsafe bytes.append(contentsOf: $0) }
            }
        case _Kind.string:
            unsafe writeString(utf8: tape.bytes(of: token), into: &bytes)
        case _Kind.array where token.count == 0:
            bytes.append(contentsOf: "[]".utf8)
        case _Kind.object where token.count == 0:
            bytes.append(contentsOf: "{}".utf8)
        case _Kind.array:
            guard level < Self.depthLimit else { break }
            bytes.append(UInt8(ascii: "["))
            var cursor = index + 1
            for position in 0..<token.count {
                separator(first: position == 0, color: [], level: level, into: &bytes)
                cursor = unsafe writeTapeValue(tape, at: cursor, level: level + 1, into: &bytes)
            }
            newline(level, into: &bytes)
            bytes.append(UInt8(ascii: "]"))
            return index + token.size
        default:  // object
            guard level < Self.depthLimit, unsafe Self.hasDistinctKeys(tape, object: index) else { break }
            bytes.append(UInt8(ascii: "{"))
            var cursor = index + 1
            for position in 0..<token.count {
                separator(first: position == 0, color: [], level: level, into: &bytes)
                unsafe writeString(utf8: tape.bytes(of: tape[cursor]), into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                if style.isPretty { bytes.append(UInt8(ascii: " ")) }
                cursor = unsafe writeTapeValue(tape, at: cursor + 1, level: level + 1, into: &bytes)
            }
            newline(level, into: &bytes)
            bytes.append(UInt8(ascii: "}"))
            return index + token.size
        }
        if (token.kind == _Kind.array || token.kind == _Kind.object) && token.count > 0 {
            // Too deep, or an object with a repeated key: as built.
            var builder = _ValueBuilder()
            unsafe write(builder.value(at: index, in: tape), level: level, into: &bytes)
            return index + token.size
        }
        return index + 1
    }

    /// Whether `writeCompactTapeValue` can write with this style: `-c`, plain.
    package var writesCompactFromTape: Bool { writesFromTape && !style.isPretty && !style.asciiOnly }

    /// `writeTapeValue` for the compact style, into raw memory: the same
    /// bytes, without an array append (a uniqueness and a capacity check) per
    /// token, and strings escaped 16 bytes at a time. Returns the index after
    /// the value, or nil where only `writeTapeValue` writes it as jq would
    /// (too deep, an object with a repeated key); `out` then holds a part of
    /// it, for the caller to drop.
    static func writeCompactTapeValue(_ tape: _TapeView, at index: Int, depth: Int,
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
                unsafe out.append(contentsOf: literal)
            } else {
                var text = unsafe JSONNumber.jqCanonicalLiteral(tape.string(of: token))
                text.withUTF8 { unsafe out.append(contentsOf: $0) }
            }
        case _Kind.string:
            unsafe appendEscaped(tape.bytes(of: token), to: &out)
        case _Kind.array where token.count == 0:
            unsafe out.append(literal: "[]")
        case _Kind.object where token.count == 0:
            unsafe out.append(literal: "{}")
        case _Kind.array:
            guard depth < Self.depthLimit else { return nil }
            unsafe out.append(UInt8(ascii: "["))
            var cursor = index + 1
            for position in 0..<token.count {
                if position > 0 { unsafe out.append(UInt8(ascii: ",")) }
                guard let next = unsafe writeCompactTapeValue(tape, at: cursor, depth: depth + 1, into: &out) else {
                    return nil
                }
                cursor = next
            }
            unsafe out.append(UInt8(ascii: "]"))
            return index + token.size
        default:  // object
            guard depth < Self.depthLimit, unsafe Self.hasDistinctKeys(tape, object: index) else { return nil }
            unsafe out.append(UInt8(ascii: "{"))
            var cursor = index + 1
            for position in 0..<token.count {
                if position > 0 { unsafe out.append(UInt8(ascii: ",")) }
                unsafe appendEscaped(tape.bytes(of: tape[cursor]), to: &out)
                unsafe out.append(UInt8(ascii: ":"))
                guard let next = unsafe writeCompactTapeValue(tape, at: cursor + 1, depth: depth + 1, into: &out) else {
                    return nil
                }
                cursor = next
            }
            unsafe out.append(UInt8(ascii: "}"))
            return index + token.size
        }
        return index + 1
    }

    /// A string as `writeString(utf8:into:)` writes it without `asciiOnly`.
    private static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout _Growable<UInt8>) {
        // The escaper's room: six bytes a byte at most, and 16 it may store past the end.
        unsafe out.append(atMost: 6 * utf8.count + 18) { to in
            unsafe to[0] = UInt8(ascii: "\"")
            let written = unsafe utf8.baseAddress.map { unsafe sj_write_escaped(to + 1, $0, utf8.count,
                                                                              Int32(SJ_ESCAPE_DEL)) } ?? 0
            unsafe to[written + 1] = UInt8(ascii: "\"")
            return written + 2
        }
    }

    /// Whether the object at `index` has no key twice: pairwise on the tape
    /// for a few keys, a set of their bytes for many.
    private static func hasDistinctKeys(_ tape: _TapeView, object index: Int) -> Bool {
        let count = unsafe tape[index].count
        guard count > 1 else { return true }
        if count > 32 {
            var seen = Set<[UInt8]>()
            var cursor = index + 1
            for _ in 0..<count {
                guard unsafe seen.insert(Array(tape.bytes(of: tape[cursor]))).inserted else { return false }
                cursor = unsafe tape.member(after: cursor)
            }
            return true
        }
        return unsafe withUnsafeTemporaryAllocation(of: sj_token.self, capacity: count) { keys in
            // One bit per key from its length and first byte: only a key whose
            // bit is taken is compared with the ones before it.
            var bits: UInt64 = 0
            var cursor = index + 1
            for position in 0..<count {
                let key = unsafe tape[cursor]
                let first = unsafe key.length > 0 ? Int(tape.start(of: key).pointee) : 0
                let bit: UInt64 = 1 << ((key.length &* 7 &+ first) & 63)
                if bits & bit != 0 {
                    for earlier in 0..<position where unsafe keys[earlier].length == key.length
                        && _equalBytes(tape.start(of: keys[earlier]), tape.start(of: key), key.length) {
                        return false
                    }
                }
                bits |= bit
                unsafe keys[position] = key
                cursor = unsafe tape.member(after: cursor)
            }
            return true
        }
    }
}
