// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

// The value-level work of the Swift built-ins, with jq 1.8's messages.
extension _Natives {
    static func rounding(_ input: JSONValue, _ name: String, _ body: (Double) -> Double) throws -> JSONValue {
        guard case .number(let n) = input else { throw _MathLibrary.typeError(name, input) }
        return number(body(n.double))
    }

    /// `isinfinite`, `isnan`, `isnormal`: false for anything but a number, as in jq 1.8.2.
    static func numberTest(_ input: JSONValue, _ test: (Double) -> Bool) -> JSONValue {
        guard case .number(let n) = input else { return .bool(false) }
        return .bool(test(n.double))
    }

    static func asciiCase(_ input: JSONValue, lower: Bool) throws -> JSONValue {
        guard case .string(let s) = input else { throw JSONFilterError(message: "explode input must be a string") }
        return .string(String(decoding: s.utf8.map { byte in
            if lower, (0x41...0x5A).contains(byte) { return byte + 32 }
            if !lower, (0x61...0x7A).contains(byte) { return byte - 32 }
            return byte
        }, as: UTF8.self))
    }

    /// jq's `trim`: the whitespace jq's isspace-like test knows.
    static func trimmed(_ input: JSONValue, leading: Bool, trailing: Bool) throws -> JSONValue {
        guard case .string(let s) = input else { throw JSONFilterError(message: "trim input must be a string") }
        let isSpace: (Unicode.Scalar) -> Bool = { scalar in
            switch scalar.value {
            case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
            default: return false
            }
        }
        var scalars = Substring(s).unicodeScalars[...]
        if leading { while let first = scalars.first, isSpace(first) { scalars.removeFirst() } }
        if trailing { while let last = scalars.last, isSpace(last) { scalars.removeLast() } }
        return .string(String(String.UnicodeScalarView(scalars)))
    }

    /// jq 1.8's `implode`: a code point that is not a Unicode scalar value
    /// becomes U+FFFD.
    static func implode(_ input: JSONValue) throws -> JSONValue {
        guard case .array(let codes) = input else { throw JSONFilterError(message: "implode input must be an array") }
        var text = ""
        for code in codes {
            // jq 1.8 refuses NaN as it refuses a non-number (NaN prints as null).
            guard case .number(let n) = code, !n.double.isNaN else {
                throw JSONFilterError(message: "\(_describe(code)) can't be imploded, unicode codepoint needs to be numeric")
            }
            let value = n.double
            let scalar = value >= 0 && value <= 0x10FFFF ? Unicode.Scalar(UInt32(value)) : nil
            text.unicodeScalars.append(scalar ?? Unicode.Scalar(0xFFFD)!)
        }
        return .string(text)
    }

    /// Stable sort of an array by precomputed keys (`map([f])`).
    static func sortedBy(_ input: JSONValue, _ keys: JSONValue, _ name: String) throws -> [(JSONValue, JSONValue)] {
        guard case .array(let values) = input, case .array(let keyList) = keys else {
            throw JSONFilterError(message: "\(_describe(input)) and \(_describe(keys)) cannot be sorted, as they are not both arrays")
        }
        guard keyList.count == values.count else {
            throw JSONFilterError(message: "\(name) requires an array of keys of the same length")
        }
        let order = try values.indices.sorted { a, b in
            let comparison = try JSONValue._compare(keyList[a], keyList[b])
            return comparison != 0 ? comparison < 0 : a < b
        }
        return order.map { (keyList[$0], values[$0]) }
    }

    static func extremeBy(_ input: JSONValue, _ keys: JSONValue, max: Bool) throws -> JSONValue {
        guard case .array(let values) = input, case .array(let keyList) = keys else {
            throw JSONFilterError(message: "\(_describe(input)) and \(_describe(keys)) cannot be iterated over")
        }
        return try _Builtins.extreme(values, keys: keyList, max: max)
    }

    static func bsearch(_ input: JSONValue, _ target: JSONValue) throws -> JSONValue {
        guard case .array(let values) = input else {
            throw JSONFilterError(message: "\(_describe(input)) cannot be searched from")
        }
        var low = 0, high = values.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let comparison = try JSONValue._compare(values[mid], target)
            if comparison == 0 { return number(mid) }
            if comparison < 0 { low = mid + 1 } else { high = mid - 1 }
        }
        return number(-1 - low)
    }

    /// `_match_impl(re; flags; test)`.
    static func matchImpl(_ input: JSONValue, _ pattern: JSONValue, _ flags: JSONValue,
                          _ test: JSONValue) throws -> JSONValue {
        if test.isTruthy { return .bool(try _Regex.test(input, pattern, flags)) }
        return .array(try _Regex.matches(input, pattern, flags).map(\.json))
    }
}
