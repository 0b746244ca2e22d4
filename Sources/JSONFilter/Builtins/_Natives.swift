// SPDX-License-Identifier: Apache-2.0
import Foundation
import StreamingJSON

/// The built-ins implemented in Swift, by `name/arity`. The rest of jq's
/// library is written in jq (`_Prelude`) on top of these.
enum _Natives {
    static func make(_ name: String, _ args: [_Lambda], column: Int) throws -> _Node? {
        let key = "\(name)/\(args.count)"
        if let function = unary[key] { return _UnaryFunctionNode(function) }
        if let function = valued[key] { return _ValueFunctionNode(args, function) }
        if args.isEmpty, let math = _MathLibrary.unary(name) {
            return _UnaryFunctionNode { input in
                guard case .number(let n) = input else { throw _MathLibrary.typeError(name, input) }
                return math(n.double)
            }
        }
        if args.count == 2, let math = _MathLibrary.binary(name) {
            return _ValueFunctionNode(args) { _, values in
                guard case .number(let a) = values[0], case .number(let b) = values[1] else {
                    throw _MathLibrary.typeError(name, values.first { if case .number = $0 { return false } else { return true } } ?? values[0])
                }
                return math(a.double, b.double)
            }
        }
        if args.count == 3, let math = _MathLibrary.ternary(name) {
            return _ValueFunctionNode(args) { _, values in
                guard case .number(let a) = values[0], case .number(let b) = values[1], case .number(let c) = values[2] else {
                    throw _MathLibrary.typeError(name, values.first { if case .number = $0 { return false } else { return true } } ?? values[0])
                }
                return math(a.double, b.double, c.double)
            }
        }
        let node = try generator(key, args)
        (node as? _NativeNode)?.arguments = args
        return node
    }

    static func number(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

    /// `builtins`: every built-in as `name/arity`.
    static var builtinNames: [String] {
        let natives = Array(unary.keys) + Array(valued.keys) + generatorNames + _ModuleLoader.builtinNames
        let math = _MathLibrary.names.map { "\($0.name)/\($0.arity)" }
        return Set(natives + math + _PreludeLibrary.names).filter { !$0.hasPrefix("_") }.sorted()
    }

    static let generatorNames = [
        "empty/0", "error/0", "path/1", "select/1", "recurse/0", "recurse/1", "recurse/2", "first/1", "last/1",
        "limit/2", "range/1", "range/2", "range/3", "repeat/1", "isempty/1", "map/1", "getpath/1", "add/1",
        "input/0", "inputs/0", "debug/0", "stderr/0", "input_filename/0", "input_line_number/0", "env/0", "halt/0",
        "halt_error/1", "tostream/0", "_streamed_elements/0",
    ]
    static func number(_ value: Double) -> JSONValue { .number(JSONNumber(value)) }

    /// Functions of the input alone.
    static let unary: [String: @Sendable (JSONValue) throws -> JSONValue] = [
        "not/0": { .bool(!$0.isTruthy) },
        "length/0": _Builtins.length,
        "utf8bytelength/0": { input in
            guard case .string(let s) = input else {
                throw JSONFilterError(message: "\(_describe(input)) only strings have UTF-8 byte length")
            }
            return number(s.utf8.count)
        },
        "keys/0": { .array(try _Builtins.keys($0, sorted: true)) },
        "keys_unsorted/0": { .array(try _Builtins.keys($0, sorted: false)) },
        "to_entries/0": _Builtins.toEntries,
        "from_entries/0": _Builtins.fromEntries,
        "add/0": { input in
            if case .object(let object) = input { return try _Natives.sum(object.values) }
            guard case .array(let array) = input else {
                // jq 1.8.2's `def add: reduce .[] as $x (null; . + $x)`: null too.
                throw JSONFilterError(message: "Cannot iterate over \(_describe(input))")
            }
            return try _Natives.sum(array)
        },
        "floor/0": { try rounding($0, "floor") { $0.rounded(.down) } },
        "ceil/0": { try rounding($0, "ceil") { $0.rounded(.up) } },
        "round/0": { try rounding($0, "round") { $0.rounded(.toNearestOrAwayFromZero) } },
        "sqrt/0": { try rounding($0, "sqrt") { $0.squareRoot() } },
        "fabs/0": { try rounding($0, "fabs") { Swift.abs($0) } },
        "min/0": { input in
            let array = try _Builtins.elements(input, for: "min")
            return try _Builtins.extreme(array, keys: array, max: false)
        },
        "max/0": { input in
            let array = try _Builtins.elements(input, for: "max")
            return try _Builtins.extreme(array, keys: array, max: true)
        },
        "sort/0": { .array(try _Builtins.sortable($0, "sort").sorted(by: JSONValue._less)) },
        "unique/0": { input in
            let sorted = try _Builtins.sortable(input, "unique").sorted(by: JSONValue._less)
            return .array(try _Builtins.groups(sorted.map { ($0, $0) }).map { $0[0] })
        },
        "reverse/0": { input in
            // jq 1.8.2's `[.[length - 1 - range(0; length)]]`: arrays reverse,
            // null and empty values give [], anything else fails to index.
            if case .array(let array) = input { return .array(array.reversed()) }
            guard case .number(let count) = try _Builtins.length(input), count.double > 0 else { return .array([]) }
            let last = count.double - 1
            if case .object = input { throw _Access.indexError(input, number(last)) }
            throw _Access.indexError(input, number(last))
        },
        "tostring/0": { .string(_Builtins.tostring($0)) },
        "tonumber/0": _Builtins.tonumber,
        "toboolean/0": { input in
            switch input {
            case .bool: return input
            case .string("true"): return .bool(true)
            case .string("false"): return .bool(false)
            default: throw JSONFilterError(message: "\(_describe(input)) cannot be parsed as a boolean")
            }
        },
        "type/0": { .string($0.typeName) },
        "tojson/0": { .string(_jqText($0)) },
        "fromjson/0": _Builtins.fromjson,
        "explode/0": { input in
            guard case .string(let s) = input else { throw JSONFilterError(message: "explode input must be a string") }
            return .array(s.unicodeScalars.map { number(Int($0.value)) })
        },
        "implode/0": implode,
        "ascii_downcase/0": { try asciiCase($0, lower: true) },
        "ascii_upcase/0": { try asciiCase($0, lower: false) },
        "trim/0": { try trimmed($0, leading: true, trailing: true) },
        "ltrim/0": { try trimmed($0, leading: true, trailing: false) },
        "rtrim/0": { try trimmed($0, leading: false, trailing: true) },
        "infinite/0": { _ in number(Double.infinity) },
        "nan/0": { _ in number(Double.nan) },
        "isinfinite/0": { numberTest($0) { $0.isInfinite } },
        "isnan/0": { numberTest($0) { $0.isNaN } },
        "isnormal/0": { numberTest($0) { $0.isNormal } },
        // Literals keep every digit (what decNumber gives jq); arithmetic is in doubles, as in jq.
        "have_decnum/0": { _ in .bool(true) },
        "have_literal_numbers/0": { _ in .bool(true) },
        "flatten/0": { .array(try _Builtins.flatten($0, depth: .infinity)) },
        "now/0": { _ in number(Date().timeIntervalSince1970) },
        "gmtime/0": _DateLibrary.gmtime,
        "localtime/0": _DateLibrary.localtime,
        "mktime/0": _DateLibrary.mktime,
        "builtins/0": { _ in .array(_Natives.builtinNames.map(JSONValue.string)) },
    ]

    /// Functions of the input and `$value` arguments.
    static let valued: [String: @Sendable (JSONValue, [JSONValue]) throws -> JSONValue] = [
        "has/1": { .bool(try _Builtins.has($0, $1[0])) },
        "contains/1": { .bool(try _Builtins.contains($0, $1[0])) },
        "startswith/1": { input, args in
            guard case .string(let s) = input, case .string(let a) = args[0] else {
                throw JSONFilterError(message: "startswith() requires string inputs")
            }
            return .bool(s.utf8.starts(with: a.utf8))
        },
        "endswith/1": { input, args in
            guard case .string(let s) = input, case .string(let a) = args[0] else {
                throw JSONFilterError(message: "endswith() requires string inputs")
            }
            return .bool(s.utf8.reversed().starts(with: a.utf8.reversed()))
        },
        "split/1": { input, args in
            guard case .string(let s) = input, case .string(let sep) = args[0] else {
                throw JSONFilterError(message: "split input and separator must be strings")
            }
            return .array(_split(s, by: sep).map(JSONValue.string))
        },
        "join/1": { try _Builtins.join($0, $1[0]) },
        "_strindices/1": { input, args in
            guard case .string(let s) = input else {
                throw JSONFilterError(message: "\(_describe(input)) cannot be searched, as it is not a string")
            }
            guard case .string(let sub) = args[0] else {
                throw JSONFilterError(message: "\(_describe(args[0])) is not a string")
            }
            return .array(_codePointOffsets(of: sub, in: s).map { _Natives.number($0) })
        },
        "indices/1": { try _Builtins.indices($0, $1[0]) },
        "setpath/2": { input, args in
            var result = input
            try result._set(path: args[0], to: args[1])
            return result
        },
        "delpaths/1": { input, args in
            var result = input
            try result._delete(paths: args[0])
            return result
        },
        "flatten/1": { input, args in
            guard case .number(let d) = args[0] else { return try _Builtins.flatten(input, depthOfAnotherType: args[0]) }
            guard d.double >= 0 else { throw JSONFilterError(message: "flatten depth must not be negative") }
            return .array(try _Builtins.flatten(input, depth: d.double))
        },
        "error/1": { _, args in throw JSONFilterError(value: args[0]) },
        "format/1": { input, args in
            guard case .string(let name) = args[0] else {
                throw JSONFilterError(message: "\(_describe(args[0])) is not a valid format")
            }
            return .string(try _Formats.apply(name, to: input))
        },
        "_match_impl/3": { input, args in try _Natives.matchImpl(input, args[0], args[1], args[2]) },
        "ltrimstr/1": { input, args in
            guard case .string(let s) = input else { throw JSONFilterError(message: "startswith() requires string inputs") }
            guard case .string(let a) = args[0] else { throw JSONFilterError(message: "startswith() requires string inputs") }
            guard s.utf8.starts(with: a.utf8) else { return input }
            return .string(String(decoding: s.utf8.dropFirst(a.utf8.count), as: UTF8.self))
        },
        "rtrimstr/1": { input, args in
            guard case .string(let s) = input else { throw JSONFilterError(message: "endswith() requires string inputs") }
            guard case .string(let a) = args[0] else { throw JSONFilterError(message: "endswith() requires string inputs") }
            guard s.utf8.reversed().starts(with: a.utf8.reversed()) else { return input }
            return .string(String(decoding: s.utf8.dropLast(a.utf8.count), as: UTF8.self))
        },
        "_sort_by_impl/1": { input, args in .array(try sortedBy(input, args[0], "sort_by").map(\.1)) },
        "_group_by_impl/1": { input, args in
            .array(try _Builtins.groups(try sortedBy(input, args[0], "group_by")).map { .array($0) })
        },
        "_unique_by_impl/1": { input, args in
            .array(try _Builtins.groups(try sortedBy(input, args[0], "unique_by")).map { $0[0] })
        },
        "_min_by_impl/1": { input, args in try extremeBy(input, args[0], max: false) },
        "_max_by_impl/1": { input, args in try extremeBy(input, args[0], max: true) },
        "bsearch/1": { input, args in try bsearch(input, args[0]) },
        "strftime/1": { try _DateLibrary.strftime($0, $1[0]) },
        "strflocaltime/1": { try _DateLibrary.strflocaltime($0, $1[0]) },
        "strptime/1": { try _DateLibrary.strptime($0, $1[0]) },
    ]

    /// `add`: the sum in place, so that adding up arrays or strings does
    /// not copy the running total per element.
    static func sum(_ values: [JSONValue]) throws -> JSONValue {
        guard var total = values.first else { return .null }
        for value in values.dropFirst() { try _Arithmetic.addInPlace(&total, value) }
        return total
    }
}
