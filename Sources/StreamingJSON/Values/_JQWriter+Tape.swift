// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape

// Writing a value straight from the tape, for `jsonstream --jq .`: the same
// bytes `write(_:)` gives for the `JSONValue` the tape would build, without
// building it. Only for plain output (no colours, keys in input order); an
// object with a repeated key is built, so that jq's rule for it (the last
// value, at the first key's place) applies.
extension _JQWriter {
    /// Whether `writeTapeValue` can write with this style.
    package var writesFromTape: Bool { !style.colors && !style.sortsKeys }

    /// Writes the value whose first token is `tokens[index]` at `level`;
    /// returns the index after it.
    @discardableResult
    func writeTapeValue(_ tokens: UnsafePointer<sj_token>, _ arena: UnsafePointer<UInt8>, at index: Int,
                        level: Int, into bytes: inout [UInt8]) -> Int {
        let token = unsafe tokens[index]
        switch token.kind {
        case _Kind.null:
            bytes.append(contentsOf: "null".utf8)
        case _Kind.true:
            bytes.append(contentsOf: "true".utf8)
        case _Kind.false:
            bytes.append(contentsOf: "false".utf8)
        case _Kind.number:
            let literal = unsafe UnsafeBufferPointer(start: arena + token.arenaOffset, count: token.length)
            if unsafe !JSONNumber.isNotCanonical(literal) {
                unsafe bytes.append(contentsOf: literal)  // jq's canonical form of most numbers is their text
            } else {
                var text = unsafe JSONNumber.jqCanonicalLiteral(Self.text(token, arena))
                text.withUTF8 { unsafe bytes.append(contentsOf: $0) }
            }
        case _Kind.string:
            unsafe writeString(utf8: UnsafeBufferPointer(start: arena + token.arenaOffset, count: token.length),
                               into: &bytes)
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
                cursor = unsafe writeTapeValue(tokens, arena, at: cursor, level: level + 1, into: &bytes)
            }
            newline(level, into: &bytes)
            bytes.append(UInt8(ascii: "]"))
            return index + token.size
        default:  // object
            guard level < Self.depthLimit, unsafe Self.hasDistinctKeys(tokens, arena, object: index) else { break }
            bytes.append(UInt8(ascii: "{"))
            var cursor = index + 1
            for position in 0..<token.count {
                separator(first: position == 0, color: [], level: level, into: &bytes)
                let key = unsafe tokens[cursor]
                unsafe writeString(utf8: UnsafeBufferPointer(start: arena + key.arenaOffset, count: key.length),
                                   into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                if style.isPretty { bytes.append(UInt8(ascii: " ")) }
                cursor = unsafe writeTapeValue(tokens, arena, at: cursor + 1, level: level + 1, into: &bytes)
            }
            newline(level, into: &bytes)
            bytes.append(UInt8(ascii: "}"))
            return index + token.size
        }
        if (token.kind == _Kind.array || token.kind == _Kind.object) && token.count > 0 {
            // Too deep, or an object with a repeated key: as built.
            var builder = _ValueBuilder()
            unsafe write(builder.value(at: index, tokens: tokens, arena: arena), level: level, into: &bytes)
            return index + token.size
        }
        return index + 1
    }

    private static func text(_ token: sj_token, _ arena: UnsafePointer<UInt8>) -> String {
        unsafe String(decoding: UnsafeBufferPointer(start: arena + token.arenaOffset, count: token.length), as: UTF8.self)
    }

    /// Whether the object at `index` has no key twice: pairwise on the tape
    /// for a few keys, a set of their bytes for many.
    private static func hasDistinctKeys(_ tokens: UnsafePointer<sj_token>, _ arena: UnsafePointer<UInt8>,
                                        object index: Int) -> Bool {
        let count = unsafe tokens[index].count
        guard count > 1 else { return true }
        if count > 32 {
            var seen = Set<[UInt8]>()
            var cursor = index + 1
            for _ in 0..<count {
                let key = unsafe tokens[cursor]
                guard unsafe seen.insert(Array(UnsafeBufferPointer(start: arena + key.arenaOffset,
                                                                   count: key.length))).inserted
                else { return false }
                unsafe cursor += 1 + tokens[cursor + 1].size
            }
            return true
        }
        return unsafe withUnsafeTemporaryAllocation(of: sj_token.self, capacity: count) { keys in
            // One bit per key from its length and first byte: only a key whose
            // bit is taken is compared with the ones before it.
            var bits: UInt64 = 0
            var cursor = index + 1
            for position in 0..<count {
                let key = unsafe tokens[cursor]
                let bit: UInt64 = unsafe 1 << ((key.length &* 7 &+ (key.length > 0 ? Int(arena[key.arenaOffset]) : 0)) & 63)
                if bits & bit != 0 {
                    for earlier in 0..<position where unsafe keys[earlier].length == key.length
                        && _equalBytes(arena + keys[earlier].arenaOffset, arena + key.arenaOffset, key.length) {
                        return false
                    }
                }
                bits |= bit
                unsafe keys[position] = key
                unsafe cursor += 1 + tokens[cursor + 1].size
            }
            return true
        }
    }
}
