// SPDX-License-Identifier: Apache-2.0
import Foundation
@testable import StreamingJSON

/// Fuzz target `roundtrip`: a `JSONValue` built from the fuzzer's bytes,
/// encoded by `StreamingJSONEncoder` and decoded by `StreamingJSONDecoder`.
///
/// Input: one byte of output formatting (bit 0 pretty, bit 1 sorted keys,
/// bit 2 slashes unescaped), then the value (see `Builder`).
///
/// - `decode(encode(v))` is `v`: strings scalar for scalar, number
///   literals with their text, computed numbers by value, key order kept
///   (unless sorted). Encoding fails only for what the encoder must refuse:
///   NaN or an infinity, or nesting deeper than 512.
/// - The encoder's two paths (direct, and through its node tape) write the
///   same bytes.
/// - jq's writer (`description`) also reads back as `v`, with NaN as null
///   and infinities clamped to ±Double.greatestFiniteMagnitude, as jq writes them.
public enum RoundTripCheck {
    public static func run(_ input: [UInt8]) throws -> JSONValue {
        var reader = FuzzBytes(input)
        let formatting = reader.next()
        var builder = Builder(reader: reader)
        let value = builder.value(depth: 0)

        let encoder = StreamingJSONEncoder()
        var options: StreamingJSONEncoder.OutputFormatting = []
        if formatting & 1 != 0 { options.insert(.prettyPrinted) }
        if formatting & 2 != 0 { options.insert(.sortedKeys) }
        if formatting & 4 != 0 { options.insert(.withoutEscapingSlashes) }
        encoder.outputFormatting = options

        let mustFail = FuzzJSON.hasNonFinite(value) || FuzzJSON.depth(value) > 512
        let encoded: Data
        do {
            encoded = try encoder.encode(value)
        } catch let error as EncodingError {
            try require(mustFail, "encoding \(value) failed: \(error)")
            return value
        } catch {
            throw FuzzViolation("encoding threw a non-EncodingError: \(error)")
        }
        try require(!mustFail, "encoded what must be refused: \(String(decoding: encoded, as: UTF8.self))")

        encoder._forcesTape = true
        let throughTape = try encoder.encode(value)
        try require(throughTape == encoded, "the tape path wrote \(String(decoding: throughTape, as: UTF8.self)), "
                        + "the direct path \(String(decoding: encoded, as: UTF8.self))")

        let decoded: JSONValue
        do {
            decoded = try StreamingJSONDecoder().decode(JSONValue.self, from: encoded)
        } catch {
            throw FuzzViolation("the encoder wrote what does not decode: \(String(decoding: encoded, as: UTF8.self)): \(error)")
        }
        try require(FuzzJSON.identical(value, decoded, orderedKeys: !options.contains(.sortedKeys)),
                    "\(String(decoding: encoded, as: UTF8.self)) decodes as \(decoded)")

        let jq = value.description
        let fromJQ: JSONValue
        do {
            fromJQ = try StreamingJSONDecoder().decode(JSONValue.self, from: Data(jq.utf8))
        } catch {
            throw FuzzViolation("jq's writer wrote what does not decode: \(jq): \(error)")
        }
        try require(FuzzJSON.identical(value, fromJQ), "\(jq) decodes as \(fromJQ)")
        return value
    }

    /// Builds a value from bytes: each byte chooses what comes next.
    struct Builder {
        var reader: FuzzBytes
        init(reader: FuzzBytes) {
            self.reader = reader
        }

        mutating func value(depth: Int) -> JSONValue {
            if reader.isAtEnd { return .null }
            let choice = reader.next()
            switch choice % 10 {
            case 0: return .null
            case 1: return .bool(choice & 0x10 != 0)
            case 2: return .number(literal())
            case 3: return .number(computed())
            case 4, 5: return .string(string())
            case 6, 7:
                // Deep nesting is cheap to ask for: one byte per level.
                guard depth < 600 else { return .null }
                var elements: [JSONValue] = []
                for _ in 0..<(choice / 10 % 5) { elements.append(value(depth: depth + 1)) }
                return .array(elements)
            default:
                guard depth < 600 else { return .null }
                var object = JSONObject()
                for _ in 0..<(choice / 10 % 5) {
                    let key = string()
                    object[key] = value(depth: depth + 1)
                }
                return .object(object)
            }
        }

        /// Text shaped like a JSON number, kept only when `JSONNumber(text:)` accepts it.
        mutating func literal() -> JSONNumber {
            let alphabet = Array("0123456789-+.eE")
            var text = ""
            for _ in 0..<Int(reader.next() % 40) {
                text.append(alphabet[Int(reader.next()) % alphabet.count])
            }
            return JSONNumber(text: text) ?? JSONNumber(Int(Int8(bitPattern: reader.next())))
        }

        /// A double from eight bytes: any bit pattern, NaNs and infinities included.
        mutating func computed() -> JSONNumber {
            var bits: UInt64 = 0
            for _ in 0..<8 { bits = bits << 8 | UInt64(reader.next()) }
            return JSONNumber(Double(bitPattern: bits))
        }

        /// Up to 16 scalars, favouring those that need escaping.
        mutating func string() -> String {
            let special: [Unicode.Scalar] = ["\"", "\\", "/", "\u{0}", "\u{1F}", "\u{7F}", "\u{80}", "\u{2028}",
                                             "\u{FEFF}", "\u{FFFF}", "\u{1F37A}", "\u{10FFFF}", "e", "\u{301}"]
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int(reader.next() % 17) {
                let byte = reader.next()
                if byte < 0x80 {
                    scalars.append(Unicode.Scalar(byte))
                } else if byte < 0xC0 {
                    scalars.append(special[Int(byte) % special.count])
                } else {
                    let code = UInt32(byte) << 8 | UInt32(reader.next())
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                }
            }
            return String(scalars)
        }
    }
}
