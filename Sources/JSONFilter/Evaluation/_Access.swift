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
            let value = number.double
            guard value.isFinite else { return .null }
            var position = _flooredIndex(value)
            if position < 0 { position += array.count }
            return array.indices.contains(position) ? array[position] : .null
        case (.null, .string), (.null, .number), (.null, .null):
            return .null
        case (.array, .object(let range)):
            // `.[{"start": 1, "end": 3}]` is a slice in jq.
            return try slice(container, range["start"] ?? .null, range["end"] ?? .null)
        case (.array(let array), .array(let needle)):
            return .array(_indices(of: needle, in: array).map { .number(JSONNumber($0)) })
        case (.null, .object):
            return .null
        default:
            if case .string(let name) = key {
                throw JSONFilterError(message: "Cannot index \(container.typeName) with string \"\(name)\"")
            }
            throw JSONFilterError(message: "Cannot index \(container.typeName) with \(key.typeName)")
        }
    }

    /// The positions `.[from:to]` covers in a sequence of `count` items:
    /// null bounds are the ends, negative ones count from the end, fractions
    /// are floored, and everything is clamped to the sequence.
    static func sliceRange(_ from: JSONValue, _ to: JSONValue, count: Int) throws -> Range<Int> {
        func bound(_ value: JSONValue, default fallback: Int) throws -> Int {
            switch value {
            case .null: return fallback
            case .number(let number):
                let raw = number.double
                var position = raw.isFinite ? _flooredIndex(raw) : (raw < 0 ? -count : count)
                if position < 0 { position += count }
                return min(max(position, 0), count)
            default:
                throw JSONFilterError(message: "Start and end indices of an array slice must be numbers")
            }
        }
        let lower = try bound(from, default: 0)
        return lower..<max(lower, try bound(to, default: count))
    }

    /// `.[from:to]` on arrays and strings (by code point).
    static func slice(_ container: JSONValue, _ from: JSONValue, _ to: JSONValue) throws -> JSONValue {
        switch container {
        case .null:
            return .null
        case .array(let array):
            return .array(Array(array[try sliceRange(from, to, count: array.count)]))
        case .string(let string):
            let scalars = Array(string.unicodeScalars)
            var result = ""
            result.unicodeScalars.append(contentsOf: scalars[try sliceRange(from, to, count: scalars.count)])
            return .string(result)
        default:
            throw JSONFilterError(message: "Cannot index \(container.typeName) with object")
        }
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
