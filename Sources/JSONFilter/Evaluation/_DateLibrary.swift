import StreamingJSON

/// jq's date functions (placeholder until the full library lands).
enum _DateLibrary {
    static func gmtime(_ input: JSONValue) throws -> JSONValue { throw JSONFilterError(message: "gmtime() is not available") }
    static func localtime(_ input: JSONValue) throws -> JSONValue { throw JSONFilterError(message: "localtime() is not available") }
    static func mktime(_ input: JSONValue) throws -> JSONValue { throw JSONFilterError(message: "mktime() is not available") }
    static func strftime(_ input: JSONValue, format: JSONValue) throws -> JSONValue { throw JSONFilterError(message: "strftime/1 is not available") }
    static func strflocaltime(_ input: JSONValue, format: JSONValue) throws -> JSONValue { throw JSONFilterError(message: "strflocaltime/1 is not available") }
    static func strptime(_ input: JSONValue, format: JSONValue) throws -> JSONValue { throw JSONFilterError(message: "strptime/1 is not available") }
}
