#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StreamingJSON

/// jq's math library (placeholder until the full table lands).
enum _MathLibrary {
    static func unary(_ name: String) -> ((Double) -> JSONValue)? {
        let table: [String: (Double) -> Double] = ["sin": sin, "cos": cos, "tan": tan, "exp": exp, "log": log,
                                                   "log2": log2, "log10": log10, "exp2": exp2, "exp10": { pow(10, $0) },
                                                   "trunc": trunc, "cbrt": cbrt]
        return table[name].map { f in { .number(JSONNumber(f($0))) } }
    }
    static func binary(_ name: String) -> ((Double, Double) -> JSONValue)? {
        let table: [String: (Double, Double) -> Double] = ["pow": pow, "atan2": atan2, "fmod": fmod]
        return table[name].map { f in { .number(JSONNumber(f($0, $1))) } }
    }
    static func ternary(_ name: String) -> ((Double, Double, Double) -> JSONValue)? { nil }
    static let names: [(name: String, arity: Int)] = []
    static func typeError(_ name: String, _ values: JSONValue...) -> JSONFilterError {
        JSONFilterError(message: "\(_describe(values[0])) number required")
    }
}
