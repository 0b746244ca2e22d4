import Foundation
import StreamingJSON

/// The built-in functions of the subset, by name and arity. Arguments are
/// filters: each is evaluated against the call's input when the function
/// needs it (`select(f)` runs `f`; `has($k)`-style value arguments take
/// every output of the argument, outermost argument last, as jq does).
struct _Builtin: Hashable, Sendable {
    let name: String
    let arity: Int

    init?(name: String, arity: Int) {
        guard _Builtins.supported.contains("\(name)/\(arity)") else { return nil }
        self.name = name
        self.arity = arity
    }
}

enum _Builtins {
    static let supported: Set<String> = [
        "empty/0", "error/0", "error/1", "not/0", "select/1", "length/0", "utf8bytelength/0", "keys/0",
        "keys_unsorted/0", "values/0", "has/1", "in/1", "map/1", "map_values/1", "to_entries/0", "from_entries/0",
        "with_entries/1", "add/0", "any/0", "all/0", "any/1", "all/1", "any/2", "all/2", "range/1", "range/2",
        "range/3", "floor/0", "sqrt/0", "ceil/0", "round/0", "fabs/0", "min/0", "max/0", "min_by/1", "max_by/1",
        "sort/0", "sort_by/1", "group_by/1", "unique/0", "unique_by/1", "reverse/0", "contains/1", "inside/1",
        "startswith/1", "endswith/1", "ltrimstr/1", "rtrimstr/1", "split/1", "join/1", "ascii_downcase/0",
        "ascii_upcase/0", "tostring/0", "tonumber/0", "type/0", "first/0", "last/0", "first/1", "last/1", "nth/1",
        "nth/2", "limit/2", "del/1", "paths/0", "paths/1", "leaf_paths/0", "getpath/1", "setpath/2", "tojson/0",
        "fromjson/0", "ascii/0", "recurse/0", "recurse/1", "recurse/2", "scalars/0", "arrays/0", "objects/0",
        "iterables/0", "booleans/0", "numbers/0", "strings/0", "nulls/0", "explode/0", "implode/0", "flatten/0",
        "flatten/1", "isempty/1", "indices/1", "index/1", "rindex/1", "walk/1", "transpose/0", "infinite/0", "nan/0",
        "isnan/0", "isinfinite/0", "isnormal/0", "test/1", "test/2", "match/1", "match/2", "capture/1", "capture/2",
        "sub/2", "sub/3", "gsub/2", "gsub/3", "split/2", "debug/0",
    ]

    static func call(_ builtin: _Builtin, _ args: [_Filter], _ input: JSONValue, _ env: _Environment,
                     _ emit: (JSONValue) throws -> Void) throws {
        let eval = _Evaluator.evaluate
        switch (builtin.name, args.count) {
        case ("empty", 0): return
        case ("error", 0): if input != .null { throw JSONFilterError(value: input) }
        case ("error", 1):
            // jq 1.6: `error(null)` behaves as `empty`, even under `try`.
            try eval(args[0], input, env) { if $0 != .null { throw JSONFilterError(value: $0) } }
        case ("not", 0): try emit(.bool(!input.isTruthy))
        case ("select", 1): try eval(args[0], input, env) { if $0.isTruthy { try emit(input) } }
        case ("length", 0): try emit(try length(input))
        case ("utf8bytelength", 0):
            guard case .string(let s) = input else {
                throw JSONFilterError(message: "\(_describe(input)) only strings have UTF-8 byte length")
            }
            try emit(number(s.utf8.count))
        case ("keys", 0), ("keys_unsorted", 0):
            try emit(.array(try keys(input, sorted: builtin.name == "keys")))
        case ("values", 0): if input != .null { try emit(input) }
        case ("has", 1): try eval(args[0], input, env) { try emit(.bool(try has(input, $0))) }
        case ("in", 1): try eval(args[0], input, env) { try emit(.bool(try has($0, input))) }
        case ("map", 1):
            var result: [JSONValue] = []
            try _Access.iterate(input) { element in try eval(args[0], element, env) { result.append($0) } }
            try emit(.array(result))
        case ("map_values", 1): try emit(try mapValues(input, args[0], env))
        case ("to_entries", 0): try emit(try toEntries(input))
        case ("from_entries", 0): try emit(try fromEntries(input))
        case ("with_entries", 1):
            guard case .array(let entries) = try toEntries(input) else { return }
            var mapped: [JSONValue] = []
            for entry in entries { try eval(args[0], entry, env) { mapped.append($0) } }
            try emit(try fromEntries(.array(mapped)))
        case ("add", 0):
            var sum: JSONValue = .null
            try _Access.iterate(input) { sum = try _Arithmetic.add(sum, $0) }
            try emit(sum)
        case ("any", 0), ("all", 0):
            let wantsAny = builtin.name == "any"
            var result = !wantsAny
            try _Access.iterate(input) { if $0.isTruthy == wantsAny { result = wantsAny } }
            try emit(.bool(result))
        case ("any", 1), ("all", 1):
            try emit(.bool(try quantify(builtin.name == "any", .iterate(.identity), args[0], input, env)))
        case ("any", 2), ("all", 2):
            try emit(.bool(try quantify(builtin.name == "any", args[0], args[1], input, env)))
        case ("range", _): try range(args, input, env, emit)
        case ("floor", 0), ("sqrt", 0), ("ceil", 0), ("round", 0), ("fabs", 0):
            guard case .number(let n) = input else {
                throw JSONFilterError(message: "\(_describe(input)) number required")
            }
            let value = n.double
            let result: Double = switch builtin.name {
            case "floor": value.rounded(.down)
            case "ceil": value.rounded(.up)
            case "round": value.rounded(.toNearestOrAwayFromZero)
            case "fabs": abs(value)
            default: value.squareRoot()
            }
            try emit(.number(JSONNumber(result)))
        case ("min", 0), ("max", 0):
            let array = try elements(input, for: builtin.name)
            try emit(extreme(array, keys: array, max: builtin.name == "max"))
        case ("min_by", 1), ("max_by", 1):
            let array = try elements(input, for: builtin.name)
            let keys = try array.map { JSONValue.array(try _Evaluator.values(args[0], $0, env)) }
            try emit(extreme(array, keys: keys, max: builtin.name == "max_by"))
        case ("sort", 0):
            try emit(.array(try sortable(input, "sort").sorted(by: JSONValue._less)))
        case ("sort_by", 1):
            try emit(.array(try sortedBy(try sortable(input, "sort_by"), args[0], env).map(\.1)))
        case ("group_by", 1):
            try emit(.array(groups(try sortedBy(try sortable(input, "group_by"), args[0], env)).map { .array($0) }))
        case ("unique", 0):
            let sorted = try sortable(input, "unique").sorted(by: JSONValue._less)
            try emit(.array(groups(sorted.map { ($0, $0) }).map { $0[0] }))
        case ("unique_by", 1):
            try emit(.array(groups(try sortedBy(try sortable(input, "unique_by"), args[0], env)).map { $0[0] }))
        case ("reverse", 0):
            switch input {
            case .array(let array): try emit(.array(array.reversed()))
            case .null: try emit(.array([]))
            case .string(let s) where s.isEmpty: try emit(.array([]))
            default: throw JSONFilterError(message: "Cannot index \(input.typeName) with number")
            }
        case ("contains", 1):
            try eval(args[0], input, env) { try emit(.bool(try contains(input, $0))) }
        case ("inside", 1):
            try eval(args[0], input, env) { try emit(.bool(try contains($0, input))) }
        case ("startswith", 1), ("endswith", 1):
            try eval(args[0], input, env) { affix in
                guard case .string(let s) = input, case .string(let a) = affix else {
                    throw JSONFilterError(message: "\(builtin.name)() requires string inputs")
                }
                try emit(.bool(builtin.name == "startswith" ? s.utf8.starts(with: a.utf8)
                                                             : s.utf8.reversed().starts(with: a.utf8.reversed())))
            }
        case ("ltrimstr", 1), ("rtrimstr", 1):
            try eval(args[0], input, env) { affix in
                guard case .string(let s) = input, case .string(let a) = affix else { return try emit(input) }
                if builtin.name == "ltrimstr", s.utf8.starts(with: a.utf8) {
                    try emit(.string(String(decoding: s.utf8.dropFirst(a.utf8.count), as: UTF8.self)))
                } else if builtin.name == "rtrimstr", s.utf8.reversed().starts(with: a.utf8.reversed()), !a.isEmpty {
                    try emit(.string(String(decoding: s.utf8.dropLast(a.utf8.count), as: UTF8.self)))
                } else {
                    try emit(input)
                }
            }
        case ("split", 1):
            try eval(args[0], input, env) { separator in
                guard case .string(let s) = input, case .string(let sep) = separator else {
                    throw JSONFilterError(message: "split input and separator must be strings")
                }
                try emit(.array(_split(s, by: sep).map(JSONValue.string)))
            }
        case ("join", 1):
            try eval(args[0], input, env) { try emit(try join(input, $0)) }
        case ("ascii_downcase", 0), ("ascii_upcase", 0):
            guard case .string(let s) = input else {
                throw JSONFilterError(message: "\(_describe(input)) cannot be \(builtin.name == "ascii_downcase" ? "lowercased" : "uppercased")")
            }
            let lower = builtin.name == "ascii_downcase"
            try emit(.string(String(decoding: s.utf8.map { byte in
                if lower, (0x41...0x5A).contains(byte) { return byte + 32 }
                if !lower, (0x61...0x7A).contains(byte) { return byte - 32 }
                return byte
            }, as: UTF8.self)))
        case ("tostring", 0): try emit(.string(tostring(input)))
        case ("tonumber", 0): try emit(try tonumber(input))
        case ("type", 0): try emit(.string(input.typeName))
        case ("first", 0): try emit(try _Access.index(input, .number(JSONNumber(0))))
        case ("last", 0): try emit(try _Access.index(input, .number(JSONNumber(-1))))
        case ("first", 1):
            try _Evaluator.generate(args[0], input, env, while: { try emit($0); return false })
        case ("last", 1):
            // jq 1.6: `last(empty)` is null.
            var last: JSONValue = .null
            try eval(args[0], input, env) { last = $0 }
            try emit(last)
        case ("nth", 1): try eval(args[0], input, env) { try emit(try _Access.index(input, $0)) }
        case ("nth", 2):
            try eval(args[0], input, env) { n in
                guard case .number(let count) = n else { throw JSONFilterError(message: "nth requires a number") }
                guard count.double >= 0 else { throw JSONFilterError(message: "nth doesn't support negative indices") }
                // jq 1.6: `last(limit($n + 1; f))`, so a short generator gives its last value (or null).
                var seen = 0.0
                var last: JSONValue = .null
                try _Evaluator.generate(args[1], input, env, while: { value in
                    last = value
                    seen += 1
                    return seen <= count.double
                })
                try emit(last)
            }
        case ("limit", 2):
            try eval(args[0], input, env) { n in
                guard case .number(let count) = n else { throw JSONFilterError(message: "Invalid limit") }
                let limit = count.double
                // jq 1.6: a negative limit emits everything, 0 still emits the first output.
                if limit < 0 { return try eval(args[1], input, env, emit) }
                var emitted = 0.0
                try _Evaluator.generate(args[1], input, env, while: { value in
                    try emit(value)
                    emitted += 1
                    return emitted < limit
                })
            }
        case ("isempty", 1):
            var empty = true
            try _Evaluator.generate(args[0], input, env, while: { _ in empty = false; return false })
            try emit(.bool(empty))
        case ("del", 1): try emit(try _Paths.delete(args[0], from: input, env))
        case ("paths", 0): try _Paths.allPaths(input, leavesOnly: false) { path, _ in try emit(.array(path)) }
        case ("paths", 1):
            try _Paths.allPaths(input, leavesOnly: false) { path, value in
                try eval(args[0], value, env) { if $0.isTruthy { try emit(.array(path)) } }
            }
        case ("leaf_paths", 0): try _Paths.allPaths(input, leavesOnly: true) { path, _ in try emit(.array(path)) }
        case ("getpath", 1): try eval(args[0], input, env) { try emit(try _Paths.get($0, in: input)) }
        case ("setpath", 2):
            try eval(args[1], input, env) { value in
                try eval(args[0], input, env) { path in try emit(try _Paths.set(path, in: input, to: value)) }
            }
        case ("tojson", 0): try emit(.string(_jqText(input)))
        case ("fromjson", 0): try emit(try fromjson(input))
        case ("ascii", 0):
            guard case .number(let n) = input, let scalar = Unicode.Scalar(UInt32(clamping: _truncatedInt(n.double))) else {
                throw JSONFilterError(message: "ascii requires a code point")
            }
            try emit(.string(String(scalar)))
        case ("recurse", 0): try recurse(input, .optional(.iterate(.identity)), nil, env, emit)
        case ("recurse", 1): try recurse(input, args[0], nil, env, emit)
        case ("recurse", 2): try recurse(input, args[0], args[1], env, emit)
        case ("scalars", 0): if input._rank < 5 { try emit(input) }
        case ("arrays", 0): if case .array = input { try emit(input) }
        case ("objects", 0): if case .object = input { try emit(input) }
        case ("iterables", 0): if input._rank >= 5 { try emit(input) }
        case ("booleans", 0): if case .bool = input { try emit(input) }
        case ("numbers", 0): if case .number = input { try emit(input) }
        case ("strings", 0): if case .string = input { try emit(input) }
        case ("nulls", 0): if input == .null { try emit(input) }
        case ("explode", 0):
            guard case .string(let s) = input else { throw JSONFilterError(message: "\(_describe(input)) cannot be exploded") }
            try emit(.array(s.unicodeScalars.map { number(Int($0.value)) }))
        case ("implode", 0):
            guard case .array(let codes) = input else { throw JSONFilterError(message: "\(_describe(input)) cannot be imploded") }
            var s = ""
            for code in codes {
                guard case .number(let n) = code, let scalar = Unicode.Scalar(UInt32(clamping: _truncatedInt(n.double))) else {
                    throw JSONFilterError(message: "Unicode codepoint must be numeric")
                }
                s.unicodeScalars.append(scalar)
            }
            try emit(.string(s))
        case ("flatten", 0): try emit(.array(try flatten(input, depth: .infinity)))
        case ("flatten", 1):
            try eval(args[0], input, env) { depth in
                guard case .number(let d) = depth, d.double >= 0 else {
                    throw JSONFilterError(message: "flatten depth must not be negative")
                }
                try emit(.array(try flatten(input, depth: d.double)))
            }
        case ("indices", 1), ("index", 1), ("rindex", 1):
            try eval(args[0], input, env) { needle in
                let positions = try indices(input, needle)
                switch builtin.name {
                case "indices": try emit(positions)
                case "index": try emit(positions[0] ?? .null)
                default:
                    if case .array(let all) = positions { try emit(all.last ?? .null) } else { try emit(.null) }
                }
            }
        case ("walk", 1): try walk(input, args[0], env, emit)
        case ("transpose", 0):
            let rows = try elements(input, for: "transpose").map { row -> [JSONValue] in
                if case .array(let cells) = row { return cells }
                throw JSONFilterError(message: "Cannot index \(row.typeName) with number")
            }
            let width = rows.map(\.count).max() ?? 0
            try emit(.array((0..<width).map { column in .array(rows.map { column < $0.count ? $0[column] : .null }) }))
        case ("infinite", 0): try emit(.number(JSONNumber(.infinity)))
        case ("nan", 0): try emit(.number(JSONNumber(.nan)))
        case ("isnan", 0), ("isinfinite", 0), ("isnormal", 0):
            guard case .number(let n) = input else { throw JSONFilterError(message: "\(_describe(input)) number required") }
            let value = n.double
            try emit(.bool(builtin.name == "isnan" ? value.isNaN : builtin.name == "isinfinite" ? value.isInfinite : value.isNormal))
        case ("debug", 0):
            FileHandle.standardError.write(Data("[\"DEBUG:\",\(input.description)]\n".utf8))
            try emit(input)
        case ("test", _), ("match", _), ("capture", _), ("sub", _), ("gsub", _), ("split", 2):
            try _RegexBuiltins.call(builtin, args, input, env, emit)
        default:
            throw JSONFilterError(message: "\(builtin.name)/\(builtin.arity) is not implemented")
        }
    }

    static func number(_ value: Int) -> JSONValue { .number(JSONNumber(Double(value))) }
}
