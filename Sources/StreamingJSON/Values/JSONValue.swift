// SPDX-License-Identifier: Apache-2.0
/// Any JSON value, as jq sees it: what `jsonstream` filters over, and a
/// `Codable` type for JSON whose shape is not known in advance.
///
/// ```swift
/// let decoder = StreamingJSONDecoder()
/// for try await item in decoder.elements(of: JSONValue.self, contentsOf: dumpURL) {
///     if item["abv"] == 8, case .string(let name)? = item["name"] {
///         print(name)
///     }
/// }
///
/// let value: JSONValue = ["name": "Oak", "abv": 9.5, "tags": ["dark", nil]]
/// print(value)   // {"name":"Oak","abv":9.5,"tags":["dark",null]}
/// ```
///
/// Numbers keep their literal text (``JSONNumber``) and objects their key
/// order (``JSONObject``). Equality and hashing follow jq: numbers compare by
/// value (`1 == 1.0`), objects as unordered maps.
///
/// Decoded by `StreamingJSONDecoder`, a `JSONValue` is built straight from
/// the parser's tape. Encoded by `StreamingJSONEncoder`, numbers are written
/// with their literal text; other encoders get the nearest `Int64`, `UInt64`
/// or `Double`.
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, with its literal text when it was read from input.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its keys in document order.
    case object(JSONObject)
}

extension JSONValue {
    /// Equal values of the same kind, as jq compares them: strings by their
    /// bytes (code points), not by Swift's canonical equivalence; objects in
    /// any member order.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a._hasSameBytes(as: b)
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        default: return false
        }
    }
}

extension JSONValue {
    /// jq's name for the value's type: `"null"`, `"boolean"`, `"number"`,
    /// `"string"`, `"array"` or `"object"`.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The member `key` of an object; nil for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `index` of an array; nil when out of range or not an array.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    /// jq's truthiness: everything but `null` and `false` is true.
    public var isTruthy: Bool {
        switch self {
        case .null, .bool(false): return false
        default: return true
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral {
    /// `nil` is ``null``.
    public init(nilLiteral: ()) { self = .null }
    /// `true` and `false` are ``bool(_:)``.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal is a ``number(_:)`` with its decimal text.
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    /// A floating-point literal is a computed ``number(_:)``.
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
    /// A string literal is a ``string(_:)``.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal is an ``array(_:)``.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// A dictionary literal is an ``object(_:)`` with its keys in the
    /// literal's order; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON, written as jq writes it (`/` unescaped),
    /// numbers exactly as read.
    public var description: String {
        var bytes: [UInt8] = []
        _JQWriter(style: .init(canonicalNumbers: false)).write(self, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
