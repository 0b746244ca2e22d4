// SPDX-License-Identifier: Apache-2.0
import Foundation
import StreamingJSON

/// The `@format` string filters, with jq 1.8's output and error texts.
enum _Formats {
    static let names: Set<String> = ["text", "json", "csv", "tsv", "html", "uri", "urid", "sh", "base64", "base64d"]

    static func apply(_ name: String, to input: JSONValue) throws -> String {
        switch name {
        case "text": return _Builtins.tostring(input)
        case "json": return _jqText(input)
        case "csv": return try row(input, format: "csv")
        case "tsv": return try row(input, format: "tsv")
        case "html": return html(_Builtins.tostring(input))
        case "uri": return uri(_Builtins.tostring(input))
        case "sh": return try shell(input)
        case "base64": return Data(_Builtins.tostring(input).utf8).base64EncodedString()
        case "base64d": return try base64Decoded(_Builtins.tostring(input))
        case "urid": return try uriDecoded(input)
        default: throw JSONFilterError(message: "\(name) is not a valid format")
        }
    }

    /// One CSV or TSV row from an array: null is an empty field, booleans and
    /// numbers their text; CSV quotes strings (doubling quotes), TSV escapes
    /// tab, newline, carriage return and backslash.
    private static func row(_ input: JSONValue, format: String) throws -> String {
        guard case .array(let fields) = input else {
            throw JSONFilterError(message: "\(_describe(input)) cannot be \(format)-formatted, only array")
        }
        var cells: [String] = []
        cells.reserveCapacity(fields.count)
        for field in fields {
            switch field {
            case .null: cells.append("")
            case .bool(let flag): cells.append(flag ? "true" : "false")
            case .number(let n): cells.append(n.double.isNaN ? "" : _jqText(field))
            case .string(let s):
                cells.append(format == "csv" ? csvQuoted(s) : tsvEscaped(s))
            default:
                // jq says "csv" for both formats.
                throw JSONFilterError(message: "\(_describe(field)) is not valid in a csv row")
            }
        }
        return cells.joined(separator: format == "csv" ? "," : "\t")
    }

    private static func csvQuoted(_ s: String) -> String {
        "\"" + csvEscapes.escaping(s) + "\""
    }

    private static func tsvEscaped(_ s: String) -> String { tsvEscapes.escaping(s) }

    private static func html(_ s: String) -> String { htmlEscapes.escaping(s) }

    private static let csvEscapes = _Escapes([("\"", "\"\"")])
    private static let tsvEscapes = _Escapes([("\\", "\\\\"), ("\t", "\\t"), ("\n", "\\n"), ("\r", "\\r")])
    private static let htmlEscapes = _Escapes([("<", "&lt;"), (">", "&gt;"), ("&", "&amp;"), ("'", "&apos;"),
                                               ("\"", "&quot;")])
    private static let shellEscapes = _Escapes([("'", "'\\''")])

    private static func uri(_ s: String) -> String {
        var result = ""
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case _ where "-_.~".utf8.contains(byte):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                result += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return result
    }

    /// `@sh`: strings single-quoted (`'` as `'\''`), other scalars as JSON;
    /// an array gives its elements space-separated.
    private static func shell(_ input: JSONValue) throws -> String {
        func word(_ value: JSONValue) throws -> String {
            switch value {
            case .string(let s): return "'" + shellEscapes.escaping(s) + "'"
            case .array, .object: throw JSONFilterError(message: "\(_describe(value)) can not be escaped for shell")
            default: return _jqText(value)
            }
        }
        if case .array(let words) = input { return try words.map(word).joined(separator: " ") }
        return try word(input)
    }

    /// `@base64d`: padding optional; invalid bytes decode as U+FFFD.
    /// `@urid`: `%XX` escapes decoded; the result must be UTF-8.
    private static func uriDecoded(_ input: JSONValue) throws -> String {
        let text = _Builtins.tostring(input)
        let invalid = JSONFilterError(message: "\(_describe(input)) is not a valid uri encoding")
        var bytes: [UInt8] = []
        var source = Array(text.utf8)[...]
        while let byte = source.popFirst() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard source.count >= 2, let high = hexValue(source.removeFirst()), let low = hexValue(source.removeFirst()) else {
                throw invalid
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw invalid }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func base64Decoded(_ s: String) throws -> String {
        var table = [Int8](repeating: -1, count: 256)
        for (value, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = Int8(value)
        }
        var output: [UInt8] = []
        var accumulator: UInt32 = 0
        var pending = 0
        for byte in s.utf8 {
            if byte == UInt8(ascii: "=") { break }
            let value = table[Int(byte)]
            guard value >= 0 else {
                throw JSONFilterError(message: "\(_describe(.string(s))) is not valid base64 data")
            }
            accumulator = accumulator << 6 | UInt32(value)
            pending += 1
            if pending == 4 {
                output += [UInt8(accumulator >> 16 & 0xFF), UInt8(accumulator >> 8 & 0xFF), UInt8(accumulator & 0xFF)]
                accumulator = 0
                pending = 0
            }
        }
        switch pending {
        case 1: throw JSONFilterError(message: "\(_describe(.string(s))) trailing base64 byte found")
        case 2: output.append(UInt8(accumulator >> 4 & 0xFF))
        case 3: output += [UInt8(accumulator >> 10 & 0xFF), UInt8(accumulator >> 2 & 0xFF)]
        default: break
        }
        return String(jqDecoding: output[...])
    }
}

/// The escapes of one of `@csv`, `@tsv`, `@html` and `@sh`, by ASCII byte.
/// As in jq's `escape_string`, behind all four, a NUL becomes the two
/// characters `\0`. Every escaped byte is ASCII, so the bytes of other code
/// points pass through as they are.
private struct _Escapes {
    private var table = [StaticString?](repeating: nil, count: 128)

    init(_ escapes: [(Unicode.Scalar, StaticString)]) {
        table[0] = "\\0"
        for (scalar, escape) in escapes { table[Int(scalar.value)] = escape }
    }

    private func escape(_ byte: UInt8) -> StaticString? { byte < 128 ? table[Int(byte)] : nil }

    /// `s` with each byte that has an escape replaced by it.
    func escaping(_ s: String) -> String {
        guard s.utf8.contains(where: { escape($0) != nil }) else { return s }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count + 8)
        for byte in s.utf8 {
            if let text = escape(byte) {
                unsafe bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
