// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// Indexing, slicing and iterating, with jq's rules and error messages.
enum _Access {
    /// `.[key]`: object member (null when missing), array element (negative
    /// counts from the end; fractional indices are floored), null for any
    /// key on null; an array index yields the positions of a sub-array.
    static func index(_ container: JSONValue, _ key: JSONValue) throws -> JSONValue {
        switch (container, key) {
        case (.object(let object), .string(let name)):
            return object[name] ?? .null
        case (.array(let array), .number(let number)):
            // jq 1.8: NaN gives null; other indices are truncated toward zero.
            let value = number.double
            guard !value.isNaN else { return .null }
            var position = _truncatedIndex(value)
            if position < 0 { position += array.count }
            return array.indices.contains(position) ? array[position] : .null
        case (.null, .string), (.null, .number):
            return .null
        case (.array, .object(let range)), (.string, .object(let range)):
            // `.[{"start": 1, "end": 3}]` is a slice in jq; both members are needed.
            guard let from = range["start"], let to = range["end"] else {
                throw JSONFilterError(message: "Array/string slice indices must be integers")
            }
            return try slice(container, from, to)
        case (.array(let array), .array(let needle)):
            return .array(_indices(of: needle, in: array).map { .number(JSONNumber($0)) })
        case (.null, .object):
            return .null
        default:
            throw indexError(container, key)
        }
    }

    /// The positions `.[from:to]` covers in a sequence of `count` items, as
    /// jq 1.8 computes them: null bounds are the ends, negative ones count
    /// from the end, the start is rounded down and the end up, NaN is the
    /// start (as a start) or the end (as an end), and both are clamped.
    static func sliceRange(_ from: JSONValue, _ to: JSONValue, count: Int) throws -> Range<Int> {
        let length = Double(count)
        var start: Double, end: Double
        switch (from, to) {
        case (.null, .null): return 0..<count
        case (.null, .number(let b)): start = 0; end = b.double
        case (.number(let a), .null): start = a.double; end = length
        case (.number(let a), .number(let b)): start = a.double; end = b.double
        default: throw JSONFilterError(message: "Array/string slice indices must be integers")
        }
        if start.isNaN { start = 0 }
        if start < 0 { start += length }
        start = min(max(start, 0), length)
        let lower = Int(start)
        if end.isNaN { end = length }
        if end < 0 { end += length }
        if end < 0 { end = Double(lower) }
        var upper = end >= length ? count : Int(end)
        if upper < count, Double(upper) < end { upper += 1 }
        return lower..<max(lower, upper)
    }

    /// `.[from:to]` on arrays and strings (by code point).
    static func slice(_ container: JSONValue, _ from: JSONValue, _ to: JSONValue) throws -> JSONValue {
        switch container {
        case .null:
            return .null
        case .array(let array):
            return .array(Array(array[try sliceRange(from, to, count: array.count)]))
        case .string(let string):
            return .string(try sliceString(string, from, to))
        default:
            throw indexError(container, sliceKey(from, to))
        }
    }

    /// `.[from:to]` on a string, by code point: the UTF-8 bytes are walked
    /// once to find both ends, and only the slice is copied. An ASCII string
    /// is not walked at all: `sub` and `gsub` slice the same text at each
    /// match, which a walk would make quadratic in the text's length.
    private static func sliceString(_ string: String, _ from: JSONValue, _ to: JSONValue) throws -> String {
        var string = string
        // Equal only when every code point is one byte: a native string
        // knows whether it is ASCII (a long one keeps its UTF-16 offsets
        // once counted), so the slices of one text cost no walk of it.
        let isASCII = string.utf16.count == string.utf8.count
        return try string.withUTF8 { bytes in
            let count = isASCII ? bytes.count : unsafe bytes.count { $0 & 0xC0 != 0x80 }
            let range = try sliceRange(from, to, count: count)
            if range.isEmpty { return "" }
            if count == bytes.count { return unsafe String(decoding: bytes[range], as: UTF8.self) }
            var scalar = 0, start = bytes.count, end = bytes.count
            for unsafe (offset, byte) in unsafe bytes.enumerated() where byte & 0xC0 != 0x80 {
                if scalar == range.lowerBound { start = offset }
                if scalar == range.upperBound { end = offset; break }
                scalar += 1
            }
            return unsafe String(decoding: bytes[start..<end], as: UTF8.self)
        }
    }

    /// The object jq's path for a slice is: `{"start": from, "end": to}`.
    static func sliceKey(_ from: JSONValue, _ to: JSONValue) -> JSONValue {
        .object(JSONObject([("start", from), ("end", to)]))
    }

    /// jq 1.8's message: `Cannot index number with string ("a")`.
    @inline(never)
    static func indexError(_ container: JSONValue, _ key: JSONValue) -> JSONFilterError {
        JSONFilterError(message: "Cannot index \(container.typeName) with \(_describe(key))")
    }

    /// `.[]`: array elements or object values.
    static func iterate(_ container: JSONValue, _ emit: (JSONValue) throws -> Void) throws {
        switch container {
        case .array(let array): for element in array { try emit(element) }
        case .object(let object): for (_, value) in object { try emit(value) }
        default: throw JSONFilterError(message: "Cannot iterate over \(_describe(container))")
        }
    }
}

/// An array index from a number, truncated toward zero and saturating at
/// `Int32`'s ends, as jq's `(int)` cast of a clamped double gives.
func _truncatedIndex(_ value: Double) -> Int {
    if value <= -2147483648 { return -2147483648 }
    if value >= 2147483647 { return 2147483647 }
    return Int(value)
}

/// An array index from a number: floored, and saturating at `Int`'s ends
/// (a huge index is past every array, not a crash); NaN is `Int.min`, as
/// jq's cast gives on x86, so it counts as a negative index.
func _flooredIndex(_ value: Double) -> Int {
    let floored = value.rounded(.down)
    if floored.isNaN || floored < -0x1p63 { return .min }
    if floored >= 0x1p63 { return .max }
    return Int(floored)
}

/// Start positions where `needle` occurs in `array` (jq's `indices` on arrays).
func _indices(of needle: [JSONValue], in array: [JSONValue]) -> [Int] {
    guard !needle.isEmpty, needle.count <= array.count else { return [] }
    return (0...(array.count - needle.count)).filter { start in
        needle.indices.allSatisfy { array[start + $0] == needle[$0] }
    }
}
