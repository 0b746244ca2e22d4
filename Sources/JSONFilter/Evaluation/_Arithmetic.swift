// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// `+ - * / %` with jq's meaning per type and jq's error messages.
enum _Arithmetic {
    static func apply(_ op: _ArithmeticOperator, _ a: JSONValue, _ b: JSONValue) throws -> JSONValue {
        switch op {
        case .add: return try add(a, b)
        case .subtract: return try subtract(a, b)
        case .multiply: return try multiply(a, b)
        case .divide: return try divide(a, b)
        case .modulo: return try modulo(a, b)
        }
    }

    /// `-f`: numbers only.
    static func negate(_ value: JSONValue) throws -> JSONValue {
        guard case .number(let number) = value else {
            throw JSONFilterError(message: "\(_describe(value)) cannot be negated")
        }
        // jq 1.8 negates a literal by its text: `-(1.000)` is `-1.000`.
        if let text = number.literal {
            // decNumber's minus is 0 - x: a zero comes out unsigned.
            let isZero = number.double == 0
            let negated = text.hasPrefix("-") || isZero ? String(text.drop { $0 == "-" }) : "-" + text
            if let literal = JSONNumber(text: negated) { return .number(literal) }
        }
        return .number(JSONNumber(-number.double))
    }

    /// `a += b` on a value nothing else holds: arrays, strings and objects
    /// grow in place instead of being copied.
    static func addInPlace(_ a: inout JSONValue, _ b: JSONValue) throws {
        // `a` is matched without binding its payload first: a tuple
        // `(a, b)` would hold a second reference and force a copy.
        switch b {
        case .array(let y):
            guard case .array(var x) = a else { return a = try add(a, b) }
            a = .null
            x.append(contentsOf: y)
            a = .array(x)
        case .string(let y):
            guard case .string(var x) = a else { return a = try add(a, b) }
            a = .null
            x += y
            a = .string(x)
        case .object(let y):
            guard case .object(var x) = a else { return a = try add(a, b) }
            a = .null
            for (key, value) in y { x[key] = value }
            a = .object(x)
        default:
            a = try add(a, b)
        }
    }

    /// Numbers add; strings, arrays concatenate; objects merge (right wins);
    /// null is the identity on either side.
    static func add(_ a: JSONValue, _ b: JSONValue) throws -> JSONValue {
        switch (a, b) {
        case (.null, _): return b
        case (_, .null): return a
        case (.number(let x), .number(let y)): return .number(JSONNumber(x.double + y.double))
        case (.string(let x), .string(let y)): return .string(x + y)
        case (.array(let x), .array(let y)): return .array(x + y)
        case (.object(var x), .object(let y)):
            for (key, value) in y { x[key] = value }
            return .object(x)
        default:
            throw JSONFilterError(message: "\(_describe(a)) and \(_describe(b)) cannot be added")
        }
    }

    /// Numbers subtract; arrays lose every element that occurs in the right one.
    static func subtract(_ a: JSONValue, _ b: JSONValue) throws -> JSONValue {
        switch (a, b) {
        case (.number(let x), .number(let y)): return .number(JSONNumber(x.double - y.double))
        case (.array(let x), .array(let y)):
            return .array(try x.filter { element in try !y.contains { try JSONValue._equal(element, $0) } })
        default:
            throw JSONFilterError(message: "\(_describe(a)) and \(_describe(b)) cannot be subtracted")
        }
    }

    /// Numbers multiply; a string times n repeats it; objects merge deeply.
    static func multiply(_ a: JSONValue, _ b: JSONValue) throws -> JSONValue {
        switch (a, b) {
        case (.number(let x), .number(let y)): return .number(JSONNumber(x.double * y.double))
        case (.string(let s), .number(let n)), (.number(let n), .string(let s)):
            // jq 1.8: a negative or NaN count is null, others are truncated.
            let count = n.double
            guard count >= 0 else { return .null }
            let copies = count > Double(Int32.max) ? Double(Int32.max) : count.rounded(.towardZero)
            if s.isEmpty || copies == 0 { return .string("") }
            // jq's bound (INT_MAX bytes); it also keeps the count inside Int.
            guard copies * Double(s.utf8.count) < Double(Int32.max) else {
                throw JSONFilterError(message: "Repeat string result too long")
            }
            return .string(String(repeating: s, count: Int(copies)))
        case (.object(let x), .object(let y)):
            return .object(try deepMerge(x, y, depth: 0))
        default:
            throw JSONFilterError(message: "\(_describe(a)) and \(_describe(b)) cannot be multiplied")
        }
    }

    private static func deepMerge(_ x: JSONObject, _ y: JSONObject, depth: Int) throws -> JSONObject {
        if depth > JSONValue._depthLimit { throw JSONFilterError(message: "Object merge too deep") }
        var result = x
        for (key, value) in y {
            if case .object(let inner) = value, case .object(let existing)? = result[key] {
                result[key] = .object(try deepMerge(existing, inner, depth: depth + 1))
            } else {
                result[key] = value
            }
        }
        return result
    }

    /// Numbers divide (a zero divisor is an error); a string divided by a
    /// string is split on it.
    static func divide(_ a: JSONValue, _ b: JSONValue) throws -> JSONValue {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            guard y.double != 0 else {
                throw JSONFilterError(message: "\(_describe(a)) and \(_describe(b)) cannot be divided because the divisor is zero")
            }
            return .number(JSONNumber(x.double / y.double))
        case (.string(let x), .string(let y)):
            return .array(_split(x, by: y).map(JSONValue.string))
        default:
            throw JSONFilterError(message: "\(_describe(a)) and \(_describe(b)) cannot be divided")
        }
    }

    /// Integer remainder of the truncated operands, with C's sign rule.
    /// jq 1.8's `%`: NaN on either side gives NaN; otherwise both sides
    /// are truncated to 64-bit integers (saturating), and the sign follows
    /// the dividend.
    static func modulo(_ a: JSONValue, _ b: JSONValue) throws -> JSONValue {
        guard case .number(let x) = a, case .number(let y) = b else {
            throw JSONFilterError(message: "\(_describe(a)) and \(_describe(b)) cannot be divided (remainder)")
        }
        if x.double.isNaN || y.double.isNaN { return .number(JSONNumber(Double.nan)) }
        let divisor = _saturatedInt(y.double)
        guard divisor != 0 else {
            throw JSONFilterError(message: "\(_describe(a)) and \(_describe(b)) cannot be divided (remainder) because the divisor is zero")
        }
        if divisor == -1 { return .number(JSONNumber(0)) }
        return .number(JSONNumber(Double(_saturatedInt(x.double) % divisor)))
    }

    /// jq's `dtoi`: a double as a 64-bit integer, saturating at both ends.
    private static func _saturatedInt(_ value: Double) -> Int {
        if value < -0x1p63 { return .min }
        if value >= 0x1p63 { return .max }
        return Int(value)
    }
}

/// A double truncated to an integer, saturating at the ends (jq casts to intmax_t).
func _truncatedInt(_ value: Double) -> Int {
    if value.isNaN { return 0 }
    if value >= 9.2e18 { return Int.max }
    if value <= -9.2e18 { return Int.min }
    return Int(value.rounded(.towardZero))
}

/// jq's split of a string on a separator: an empty string gives `[]`, an
/// empty separator splits into code points, and the separator is found by
/// its bytes (jq's `memmem`), not by Foundation's canonical search.
func _split(_ string: String, by separator: String) -> [String] {
    if string.isEmpty { return [] }
    if separator.isEmpty { return string.unicodeScalars.map { String($0) } }
    let bytes = Array(string.utf8), needle = Array(separator.utf8)
    var parts: [String] = []
    var start = 0, position = 0
    while position + needle.count <= bytes.count {
        if bytes[position] == needle[0], bytes[position..<position + needle.count].elementsEqual(needle) {
            parts.append(String(decoding: bytes[start..<position], as: UTF8.self))
            position += needle.count
            start = position
        } else {
            position += 1
        }
    }
    parts.append(String(decoding: bytes[start...], as: UTF8.self))
    return parts
}
