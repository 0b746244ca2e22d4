/// Any JSON value, as jq sees it: what `jsonstream` filters over, and a
/// `Codable` type for JSON whose shape is not known in advance.
///
///     let decoder = StreamingJSONDecoder()
///     for try await item in decoder.elements(of: JSONValue.self, contentsOf: dumpURL) {
///         if case .object(let object) = item, object["abv"] == 8 { … }
///     }
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
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
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
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON, written as jq writes it (`/` unescaped).
    public var description: String {
        var bytes: [UInt8] = []
        _JQWriter(style: .init()).write(self, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
