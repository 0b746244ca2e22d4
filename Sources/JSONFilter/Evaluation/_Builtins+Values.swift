// SPDX-License-Identifier: Apache-2.0
import Foundation
import StreamingJSON

// The value-level helpers behind `_Builtins.call`: each follows jq 1.8's
// definition (builtin.jq or its C implementation), including its error texts.
enum _Builtins {
    /// A computed count or index: a double, as in jq (`-(length)` of `[]` is `-0`).
    static func number(_ value: Int) -> JSONValue { .number(JSONNumber(Double(value))) }

    /// null → 0, numbers → absolute value, strings → code points, arrays and objects → members.
    static func length(_ input: JSONValue) throws -> JSONValue {
        switch input {
        case .null: return number(0)
        case .bool: throw JSONFilterError(message: "\(_describe(input)) has no length")
        case .number(let n):
            // jq 1.8: the absolute value, a literal keeping its digits.
            return n.double.sign == .minus ? try _Arithmetic.negate(input) : input
        case .string(let s): return number(s.unicodeScalars.count)
        case .array(let a): return number(a.count)
        case .object(let o): return number(o.count)
        }
    }

    /// Object keys (sorted by their UTF-8 bytes for `keys`), or array indices.
    static func keys(_ input: JSONValue, sorted: Bool) throws -> [JSONValue] {
        switch input {
        case .object(let object):
            let keys = sorted ? object.keys.sorted { _compareBytes($0, $1) < 0 } : object.keys
            return keys.map(JSONValue.string)
        case .array(let array):
            return array.indices.map(number)
        default:
            throw JSONFilterError(message: "\(_describe(input)) has no keys")
        }
    }

    static func has(_ container: JSONValue, _ key: JSONValue) throws -> Bool {
        switch (container, key) {
        case (.null, _): return false
        case (.object(let object), .string(let name)): return object[name] != nil
        case (.array(let array), .number(let index)): return index.double >= 0 && index.double < Double(array.count)
        default:
            throw JSONFilterError(message: "Cannot check whether \(container.typeName) has a \(key.typeName) key")
        }
    }

    static func toEntries(_ input: JSONValue) throws -> JSONValue {
        let keys = try keys(input, sorted: false)
        return .array(try keys.map { key in
            .object(["key": key, "value": try _Access.index(input, key)])
        })
    }

    /// jq 1.8: the key is `.key // .name // .Name // .Key` (a string), the
    /// value `.value` when present, else `.Value`.
    static func fromEntries(_ input: JSONValue) throws -> JSONValue {
        var result = JSONObject()
        try _Access.iterate(input) { entry in
            var key: JSONValue = .null
            for name in ["key", "name", "Name", "Key"] {
                key = try _Access.index(entry, .string(name))
                if key.isTruthy { break }
            }
            guard case .string(let name) = key else {
                throw JSONFilterError(message: "Cannot use \(_describe(key)) as object key")
            }
            let hasValue = if case .object(let object) = entry { object["value"] != nil } else { false }
            result[name] = try _Access.index(entry, .string(hasValue ? "value" : "Value"))
        }
        return .object(result)
    }

    /// The elements of an array input, for functions that need one.
    static func elements(_ input: JSONValue, for name: String) throws -> [JSONValue] {
        guard case .array(let array) = input else {
            throw JSONFilterError(message: "\(_describe(input)) and \(_describe(input)) cannot be iterated over")
        }
        return array
    }

    /// `min`/`max`(`_by`): the first smallest or the last largest key; null when empty.
    static func extreme(_ values: [JSONValue], keys: [JSONValue], max: Bool) throws -> JSONValue {
        guard var best = values.indices.first else { return .null }
        for position in values.indices.dropFirst() {
            let order = try JSONValue._compare(keys[position], keys[best])
            if max ? order >= 0 : order < 0 { best = position }
        }
        return values[best]
    }

    static func sortable(_ input: JSONValue, _ name: String) throws -> [JSONValue] {
        guard case .array(let array) = input else {
            throw JSONFilterError(message: "\(_describe(input)) cannot be sorted, as it is not an array")
        }
        return array
    }

    /// Runs of equal keys in (key, value) pairs already sorted by key.
    static func groups(_ pairs: [(JSONValue, JSONValue)]) throws -> [[JSONValue]] {
        var result: [[JSONValue]] = []
        var lastKey: JSONValue?
        for (key, value) in pairs {
            if let lastKey, try JSONValue._compare(lastKey, key) == 0 {
                result[result.count - 1].append(value)
            } else {
                result.append([value])
            }
            lastKey = key
        }
        return result
    }

    /// jq's `contains`: substrings, every wanted element inside some element,
    /// every wanted member inside the member; other values by equality.
    static func contains(_ a: JSONValue, _ b: JSONValue) throws -> Bool {
        // jq compares kinds, and true and false are different kinds.
        guard a._rank == b._rank else {
            throw JSONFilterError(message: "\(_describe(a)) and \(_describe(b)) cannot have their containment checked")
        }
        return try contained(b, in: a, depth: 0)
    }

    private static func contained(_ b: JSONValue, in a: JSONValue, depth: Int) throws -> Bool {
        if depth > JSONValue._depthLimit { throw JSONFilterError(message: "Containment check too deep") }
        guard a._rank == b._rank else { return false }
        switch (a, b) {
        case (.object(let x), .object(let y)):
            for (key, wanted) in y {
                guard let member = x[key], try contained(wanted, in: member, depth: depth + 1) else { return false }
            }
            return true
        case (.array(let x), .array(let y)):
            return try y.allSatisfy { wanted in try x.contains { try contained(wanted, in: $0, depth: depth + 1) } }
        case (.string(let x), .string(let y)):
            return y.isEmpty || !_byteOffsets(of: y, in: x, first: true).isEmpty
        default:
            return a == b
        }
    }

    /// jq 1.8's `join`: null as "", numbers and booleans as JSON, strings
    /// as they are; anything else cannot be added to the text. Built in one
    /// buffer, not by adding strings.
    static func join(_ input: JSONValue, _ separator: JSONValue) throws -> JSONValue {
        var result: String?
        func append(_ text: inout String, _ value: JSONValue) throws {
            switch value {
            case .null: break
            case .string(let s): text += s
            case .bool, .number: text += _jqText(value)
            default: throw JSONFilterError(message: "\(_describe(.string(text))) and \(_describe(value)) cannot be added")
            }
        }
        let elements: [JSONValue]
        switch input {
        case .array(let array): elements = array
        case .object(let object): elements = object.values
        default: throw JSONFilterError(message: "Cannot iterate over \(_describe(input))")
        }
        for element in elements {
            // The running text is taken out of `result` so that it is
            // appended to in place.
            var text = result ?? ""
            let isFirst = result == nil
            result = nil
            if !isFirst {
                switch separator {
                case .string(let glue): text += glue
                case .null: break
                default: throw JSONFilterError(message: "\(_describe(.string(text))) and \(_describe(separator)) cannot be added")
                }
            }
            try append(&text, element)
            result = text
        }
        return .string(result ?? "")
    }

    static func tostring(_ value: JSONValue) -> String {
        if case .string(let s) = value { return s }
        return _jqText(value)
    }

    /// Numbers as they are; strings parsed as a JSON number (surrounding
    /// whitespace allowed); anything else is an error.
    /// jq 1.8's `tonumber`: numbers as they are; a string holding a whole
    /// decimal literal (an optional sign, `.5` and `1.` allowed, leading
    /// zeros dropped) keeps its digits, `nan` and `infinity` in any case are
    /// those values; anything else, whitespace included, is an error.
    static func tonumber(_ input: JSONValue) throws -> JSONValue {
        switch input {
        case .number: return input
        case .string(let text):
            var body = Substring(text)
            var negative = false
            if let sign = body.first, sign == "+" || sign == "-" {
                negative = sign == "-"
                body = body.dropFirst()
            }
            switch body.lowercased() {
            case "nan": return .number(JSONNumber(Double.nan))
            case "infinity": return .number(JSONNumber(negative ? -Double.infinity : .infinity))
            default: break
            }
            let isDecimal = !body.isEmpty && body.allSatisfy { $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }
                && body.first != "e" && body.first != "E"
            if isDecimal, Double(String(body)) != nil {
                let literal = _Parser.numberLiteral(String(body))
                if literal.literal != nil {
                    return .number(negative ? JSONNumber(text: "-" + literal.literal!) ?? literal : literal)
                }
            }
            throw JSONFilterError(message: "\(_describe(input)) cannot be parsed as a number")
        default:
            throw JSONFilterError(message: "\(_describe(input)) cannot be parsed as a number")
        }
    }

    static func fromjson(_ input: JSONValue) throws -> JSONValue {
        guard case .string(let text) = input else {
            throw JSONFilterError(message: "\(_describe(input)) only strings can be parsed")
        }
        return try _JQTextParser.parse(text)
    }

    /// jq's `_flatten`: members of any iterable, arrays spliced `depth` levels deep.
    static func flatten(_ input: JSONValue, depth: Double) throws -> [JSONValue] {
        var result: [JSONValue] = []
        try _Access.iterate(input) { element in
            if case .array = element, depth != 0 {
                result += try flatten(element, depth: depth - 1)
            } else {
                result.append(element)
            }
        }
        return result
    }

    /// `flatten(d)` with a depth that is not a number, as jq 1.8.2's
    /// `flatten` (written in jq) meets it: null and booleans order below 0;
    /// a string, array or object orders above 0, and the first nested array
    /// then counts the depth down, which fails.
    static func flatten(_ input: JSONValue, depthOfAnotherType depth: JSONValue) throws -> JSONValue {
        if case .null = depth { throw JSONFilterError(message: "flatten depth must not be negative") }
        if case .bool = depth { throw JSONFilterError(message: "flatten depth must not be negative") }
        var result: [JSONValue] = []
        try _Access.iterate(input) { element in
            if case .array = element {
                throw JSONFilterError(message: "\(_describe(depth)) and number (1) cannot be subtracted")
            }
            result.append(element)
        }
        return .array(result)
    }

    /// `indices($i)`: byte offsets of a substring (as jq reports them),
    /// start positions of a sub-array or an element, null on null.
    static func indices(_ input: JSONValue, _ needle: JSONValue) throws -> JSONValue {
        switch (input, needle) {
        case (.array(let array), .array(let sub)):
            return .array(_indices(of: sub, in: array).map(number))
        case (.array(let array), _):
            return .array(_indices(of: [needle], in: array).map(number))
        case (.string(let string), .string(let sub)):
            // jq 1.8.2's `_strindices`: an empty needle matches nowhere, `[]`.
            return .array(_codePointOffsets(of: sub, in: string).map(number))
        default:
            return try _Access.index(input, needle)
        }
    }

}

/// Code-point offsets where `needle` starts in `haystack` (overlapping
/// matches included), as jq 1.8's `indices` reports them.
func _codePointOffsets(of needle: String, in haystack: String) -> [Int] {
    let bytes = _byteOffsets(of: needle, in: haystack)
    guard !bytes.isEmpty else { return [] }
    let h = Array(haystack.utf8)
    var offsets: [Int] = []
    var scalar = 0, next = 0
    for (offset, byte) in h.enumerated() {
        if next < bytes.count, bytes[next] == offset {
            offsets.append(scalar)
            next += 1
        }
        if byte & 0xC0 != 0x80 { scalar += 1 }
    }
    return offsets
}

/// Byte offsets where `needle` starts in `haystack` (overlapping matches
/// included), or only the first one.
func _byteOffsets(of needle: String, in haystack: String, first: Bool = false) -> [Int] {
    let h = Array(haystack.utf8), n = Array(needle.utf8)
    guard !n.isEmpty, h.count >= n.count else { return [] }
    var offsets: [Int] = []
    for start in 0...(h.count - n.count) where h[start] == n[0] && h[start..<(start + n.count)].elementsEqual(n) {
        offsets.append(start)
        if first { break }
    }
    return offsets
}


/// A value as jq 1.8 writes it inside strings (`tostring`, `tojson`,
/// interpolation, error messages): compact, literal numbers in their
/// canonical form, computed ones with 17 significant digits.
func _jqText(_ value: JSONValue) -> String {
    var bytes: [UInt8] = []
    _JQWriter(style: JQOutputStyle()).write(value, into: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}
