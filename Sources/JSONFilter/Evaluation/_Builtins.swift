import Foundation
import StreamingJSON

/// The built-in functions of the subset, by name and arity. Arguments are
/// filters: each is evaluated against the call's input when the function
/// needs it (`select(f)` runs `f`; `has($k)`-style value arguments take
/// every output of the argument, outermost argument last, as jq does).
struct _Builtin: Hashable, Sendable {
    let id: _BuiltinID
    let name: String
    let arity: Int

    init?(name: String, arity: Int) {
        guard let id = _BuiltinID(rawValue: "\(name)/\(arity)") else { return nil }
        self.id = id
        self.name = name
        self.arity = arity
    }
}

/// Every supported built-in as `name/arity`. Resolved once at parse time, so
/// a call dispatches on an enum, not on strings, for every input.
enum _BuiltinID: String, Sendable {
    case empty0 = "empty/0"
    case error0 = "error/0"
    case error1 = "error/1"
    case not0 = "not/0"
    case select1 = "select/1"
    case length0 = "length/0"
    case utf8bytelength0 = "utf8bytelength/0"
    case keys0 = "keys/0"
    case keysUnsorted0 = "keys_unsorted/0"
    case values0 = "values/0"
    case has1 = "has/1"
    case in1 = "in/1"
    case map1 = "map/1"
    case mapValues1 = "map_values/1"
    case toEntries0 = "to_entries/0"
    case fromEntries0 = "from_entries/0"
    case withEntries1 = "with_entries/1"
    case add0 = "add/0"
    case any0 = "any/0"
    case all0 = "all/0"
    case any1 = "any/1"
    case all1 = "all/1"
    case any2 = "any/2"
    case all2 = "all/2"
    case range1 = "range/1"
    case range2 = "range/2"
    case range3 = "range/3"
    case floor0 = "floor/0"
    case sqrt0 = "sqrt/0"
    case ceil0 = "ceil/0"
    case round0 = "round/0"
    case fabs0 = "fabs/0"
    case min0 = "min/0"
    case max0 = "max/0"
    case minBy1 = "min_by/1"
    case maxBy1 = "max_by/1"
    case sort0 = "sort/0"
    case sortBy1 = "sort_by/1"
    case groupBy1 = "group_by/1"
    case unique0 = "unique/0"
    case uniqueBy1 = "unique_by/1"
    case reverse0 = "reverse/0"
    case contains1 = "contains/1"
    case inside1 = "inside/1"
    case startswith1 = "startswith/1"
    case endswith1 = "endswith/1"
    case ltrimstr1 = "ltrimstr/1"
    case rtrimstr1 = "rtrimstr/1"
    case split1 = "split/1"
    case join1 = "join/1"
    case asciiDowncase0 = "ascii_downcase/0"
    case asciiUpcase0 = "ascii_upcase/0"
    case tostring0 = "tostring/0"
    case tonumber0 = "tonumber/0"
    case type0 = "type/0"
    case first0 = "first/0"
    case last0 = "last/0"
    case first1 = "first/1"
    case last1 = "last/1"
    case nth1 = "nth/1"
    case nth2 = "nth/2"
    case limit2 = "limit/2"
    case del1 = "del/1"
    case paths0 = "paths/0"
    case paths1 = "paths/1"
    case leafPaths0 = "leaf_paths/0"
    case getpath1 = "getpath/1"
    case setpath2 = "setpath/2"
    case tojson0 = "tojson/0"
    case fromjson0 = "fromjson/0"
    case ascii0 = "ascii/0"
    case recurse0 = "recurse/0"
    case recurse1 = "recurse/1"
    case recurse2 = "recurse/2"
    case scalars0 = "scalars/0"
    case arrays0 = "arrays/0"
    case objects0 = "objects/0"
    case iterables0 = "iterables/0"
    case booleans0 = "booleans/0"
    case numbers0 = "numbers/0"
    case strings0 = "strings/0"
    case nulls0 = "nulls/0"
    case explode0 = "explode/0"
    case implode0 = "implode/0"
    case flatten0 = "flatten/0"
    case flatten1 = "flatten/1"
    case isempty1 = "isempty/1"
    case indices1 = "indices/1"
    case index1 = "index/1"
    case rindex1 = "rindex/1"
    case walk1 = "walk/1"
    case transpose0 = "transpose/0"
    case infinite0 = "infinite/0"
    case nan0 = "nan/0"
    case isnan0 = "isnan/0"
    case isinfinite0 = "isinfinite/0"
    case isnormal0 = "isnormal/0"
    case test1 = "test/1"
    case test2 = "test/2"
    case match1 = "match/1"
    case match2 = "match/2"
    case capture1 = "capture/1"
    case capture2 = "capture/2"
    case sub2 = "sub/2"
    case sub3 = "sub/3"
    case gsub2 = "gsub/2"
    case gsub3 = "gsub/3"
    case split2 = "split/2"
    case debug0 = "debug/0"
}

enum _Builtins {


    static func call(_ builtin: _Builtin, _ args: [_Filter], _ input: JSONValue, _ env: _Environment,
                     _ emit: (JSONValue) throws -> Void) throws {
        let eval = _Evaluator.evaluate
        switch builtin.id {
        case .empty0: return
        case .error0: if input != .null { throw JSONFilterError(value: input) }
        case .error1:
            // jq 1.6: `error(null)` behaves as `empty`, even under `try`.
            try eval(args[0], input, env) { if $0 != .null { throw JSONFilterError(value: $0) } }
        case .not0: try emit(.bool(!input.isTruthy))
        case .select1:
            if _Evaluator.isDirect(args[0]) {
                if try _Evaluator.directValue(args[0], input, env).isTruthy { try emit(input) }
            } else {
                try eval(args[0], input, env) { if $0.isTruthy { try emit(input) } }
            }
        case .length0: try emit(try length(input))
        case .utf8bytelength0:
            guard case .string(let s) = input else {
                throw JSONFilterError(message: "\(_describe(input)) only strings have UTF-8 byte length")
            }
            try emit(number(s.utf8.count))
        case .keys0, .keysUnsorted0:
            try emit(.array(try keys(input, sorted: builtin.name == "keys")))
        case .values0: if input != .null { try emit(input) }
        case .has1: try eval(args[0], input, env) { try emit(.bool(try has(input, $0))) }
        case .in1: try eval(args[0], input, env) { try emit(.bool(try has($0, input))) }
        case .map1:
            var result: [JSONValue] = []
            try _Access.iterate(input) { element in try eval(args[0], element, env) { result.append($0) } }
            try emit(.array(result))
        case .mapValues1: try emit(try mapValues(input, args[0], env))
        case .toEntries0: try emit(try toEntries(input))
        case .fromEntries0: try emit(try fromEntries(input))
        case .withEntries1:
            guard case .array(let entries) = try toEntries(input) else { return }
            var mapped: [JSONValue] = []
            for entry in entries { try eval(args[0], entry, env) { mapped.append($0) } }
            try emit(try fromEntries(.array(mapped)))
        case .add0:
            var sum: JSONValue = .null
            try _Access.iterate(input) { sum = try _Arithmetic.add(sum, $0) }
            try emit(sum)
        case .any0, .all0:
            let wantsAny = builtin.name == "any"
            var result = !wantsAny
            try _Access.iterate(input) { if $0.isTruthy == wantsAny { result = wantsAny } }
            try emit(.bool(result))
        case .any1, .all1:
            try emit(.bool(try quantify(builtin.name == "any", .iterate(.identity), args[0], input, env)))
        case .any2, .all2:
            try emit(.bool(try quantify(builtin.name == "any", args[0], args[1], input, env)))
        case .range1, .range2, .range3: try range(args, input, env, emit)
        case .floor0, .sqrt0, .ceil0, .round0, .fabs0:
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
        case .min0, .max0:
            let array = try elements(input, for: builtin.name)
            try emit(extreme(array, keys: array, max: builtin.name == "max"))
        case .minBy1, .maxBy1:
            let array = try elements(input, for: builtin.name)
            let keys = try array.map { JSONValue.array(try _Evaluator.values(args[0], $0, env)) }
            try emit(extreme(array, keys: keys, max: builtin.name == "max_by"))
        case .sort0:
            try emit(.array(try sortable(input, "sort").sorted(by: JSONValue._less)))
        case .sortBy1:
            try emit(.array(try sortedBy(try sortable(input, "sort_by"), args[0], env).map(\.1)))
        case .groupBy1:
            try emit(.array(groups(try sortedBy(try sortable(input, "group_by"), args[0], env)).map { .array($0) }))
        case .unique0:
            let sorted = try sortable(input, "unique").sorted(by: JSONValue._less)
            try emit(.array(groups(sorted.map { ($0, $0) }).map { $0[0] }))
        case .uniqueBy1:
            try emit(.array(groups(try sortedBy(try sortable(input, "unique_by"), args[0], env)).map { $0[0] }))
        case .reverse0:
            switch input {
            case .array(let array): try emit(.array(array.reversed()))
            case .null: try emit(.array([]))
            case .string(let s) where s.isEmpty: try emit(.array([]))
            default: throw JSONFilterError(message: "Cannot index \(input.typeName) with number")
            }
        case .contains1:
            try eval(args[0], input, env) { try emit(.bool(try contains(input, $0))) }
        case .inside1:
            try eval(args[0], input, env) { try emit(.bool(try contains($0, input))) }
        case .startswith1, .endswith1:
            try eval(args[0], input, env) { affix in
                guard case .string(let s) = input, case .string(let a) = affix else {
                    throw JSONFilterError(message: "\(builtin.name)() requires string inputs")
                }
                try emit(.bool(builtin.name == "startswith" ? s.utf8.starts(with: a.utf8)
                                                             : s.utf8.reversed().starts(with: a.utf8.reversed())))
            }
        case .ltrimstr1, .rtrimstr1:
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
        case .split1:
            try eval(args[0], input, env) { separator in
                guard case .string(let s) = input, case .string(let sep) = separator else {
                    throw JSONFilterError(message: "split input and separator must be strings")
                }
                try emit(.array(_split(s, by: sep).map(JSONValue.string)))
            }
        case .join1:
            try eval(args[0], input, env) { try emit(try join(input, $0)) }
        case .asciiDowncase0, .asciiUpcase0:
            guard case .string(let s) = input else {
                throw JSONFilterError(message: "\(_describe(input)) cannot be \(builtin.name == "ascii_downcase" ? "lowercased" : "uppercased")")
            }
            let lower = builtin.name == "ascii_downcase"
            try emit(.string(String(decoding: s.utf8.map { byte in
                if lower, (0x41...0x5A).contains(byte) { return byte + 32 }
                if !lower, (0x61...0x7A).contains(byte) { return byte - 32 }
                return byte
            }, as: UTF8.self)))
        case .tostring0: try emit(.string(tostring(input)))
        case .tonumber0: try emit(try tonumber(input))
        case .type0: try emit(.string(input.typeName))
        case .first0: try emit(try _Access.index(input, .number(JSONNumber(0))))
        case .last0: try emit(try _Access.index(input, .number(JSONNumber(-1))))
        case .first1:
            try _Evaluator.generate(args[0], input, env, while: { try emit($0); return false })
        case .last1:
            // jq 1.6: `last(empty)` is null.
            var last: JSONValue = .null
            try eval(args[0], input, env) { last = $0 }
            try emit(last)
        case .nth1: try eval(args[0], input, env) { try emit(try _Access.index(input, $0)) }
        case .nth2:
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
        case .limit2:
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
        case .isempty1:
            var empty = true
            try _Evaluator.generate(args[0], input, env, while: { _ in empty = false; return false })
            try emit(.bool(empty))
        case .del1: try emit(try _Paths.delete(args[0], from: input, env))
        case .paths0: try _Paths.allPaths(input, leavesOnly: false) { path, _ in try emit(.array(path)) }
        case .paths1:
            try _Paths.allPaths(input, leavesOnly: false) { path, value in
                try eval(args[0], value, env) { if $0.isTruthy { try emit(.array(path)) } }
            }
        case .leafPaths0: try _Paths.allPaths(input, leavesOnly: true) { path, _ in try emit(.array(path)) }
        case .getpath1: try eval(args[0], input, env) { try emit(try _Paths.get($0, in: input)) }
        case .setpath2:
            try eval(args[1], input, env) { value in
                try eval(args[0], input, env) { path in try emit(try _Paths.set(path, in: input, to: value)) }
            }
        case .tojson0: try emit(.string(_jqText(input)))
        case .fromjson0: try emit(try fromjson(input))
        case .ascii0:
            guard case .number(let n) = input, let scalar = Unicode.Scalar(UInt32(clamping: _truncatedInt(n.double))) else {
                throw JSONFilterError(message: "ascii requires a code point")
            }
            try emit(.string(String(scalar)))
        case .recurse0: try recurse(input, .optional(.iterate(.identity)), nil, env, emit)
        case .recurse1: try recurse(input, args[0], nil, env, emit)
        case .recurse2: try recurse(input, args[0], args[1], env, emit)
        case .scalars0: if input._rank < 5 { try emit(input) }
        case .arrays0: if case .array = input { try emit(input) }
        case .objects0: if case .object = input { try emit(input) }
        case .iterables0: if input._rank >= 5 { try emit(input) }
        case .booleans0: if case .bool = input { try emit(input) }
        case .numbers0: if case .number = input { try emit(input) }
        case .strings0: if case .string = input { try emit(input) }
        case .nulls0: if input == .null { try emit(input) }
        case .explode0:
            guard case .string(let s) = input else { throw JSONFilterError(message: "\(_describe(input)) cannot be exploded") }
            try emit(.array(s.unicodeScalars.map { number(Int($0.value)) }))
        case .implode0:
            guard case .array(let codes) = input else { throw JSONFilterError(message: "\(_describe(input)) cannot be imploded") }
            var s = ""
            for code in codes {
                guard case .number(let n) = code, let scalar = Unicode.Scalar(UInt32(clamping: _truncatedInt(n.double))) else {
                    throw JSONFilterError(message: "Unicode codepoint must be numeric")
                }
                s.unicodeScalars.append(scalar)
            }
            try emit(.string(s))
        case .flatten0: try emit(.array(try flatten(input, depth: .infinity)))
        case .flatten1:
            try eval(args[0], input, env) { depth in
                guard case .number(let d) = depth, d.double >= 0 else {
                    throw JSONFilterError(message: "flatten depth must not be negative")
                }
                try emit(.array(try flatten(input, depth: d.double)))
            }
        case .indices1, .index1, .rindex1:
            try eval(args[0], input, env) { needle in
                let positions = try indices(input, needle)
                switch builtin.name {
                case "indices": try emit(positions)
                case "index": try emit(positions[0] ?? .null)
                default:
                    if case .array(let all) = positions { try emit(all.last ?? .null) } else { try emit(.null) }
                }
            }
        case .walk1: try walk(input, args[0], env, emit)
        case .transpose0:
            let rows = try elements(input, for: "transpose").map { row -> [JSONValue] in
                if case .array(let cells) = row { return cells }
                throw JSONFilterError(message: "Cannot index \(row.typeName) with number")
            }
            let width = rows.map(\.count).max() ?? 0
            try emit(.array((0..<width).map { column in .array(rows.map { column < $0.count ? $0[column] : .null }) }))
        case .infinite0: try emit(.number(JSONNumber(.infinity)))
        case .nan0: try emit(.number(JSONNumber(.nan)))
        case .isnan0, .isinfinite0, .isnormal0:
            guard case .number(let n) = input else { throw JSONFilterError(message: "\(_describe(input)) number required") }
            let value = n.double
            try emit(.bool(builtin.name == "isnan" ? value.isNaN : builtin.name == "isinfinite" ? value.isInfinite : value.isNormal))
        case .debug0:
            FileHandle.standardError.write(Data("[\"DEBUG:\",\(input.description)]\n".utf8))
            try emit(input)
        case .test1, .test2, .match1, .match2, .capture1, .capture2, .sub2, .sub3, .gsub2, .gsub3, .split2:
            try _RegexBuiltins.call(builtin, args, input, env, emit)
        }
    }

    static func number(_ value: Int) -> JSONValue { .number(JSONNumber(Double(value))) }
}
