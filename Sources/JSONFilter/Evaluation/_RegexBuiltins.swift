import StreamingJSON

/// test, match, capture, sub, gsub and split/2, each following its definition
/// in jq 1.6's builtin.jq: the same argument loops (a value argument takes
/// every output of its filter), the same evaluation order and the same quirks,
/// so answers and errors match jq 1.6's. The regex work itself is `_Regex`
/// (Oniguruma, jq's engine, driven as jq 1.6's f_match drives it).
enum _RegexBuiltins {
    static func call(_ builtin: _Builtin, _ args: [_Filter], _ input: JSONValue, _ env: _Environment,
                     _ emit: (JSONValue) throws -> Void) throws {
        let eval = _Evaluator.evaluate
        switch (builtin.name, args.count) {
        case ("test", 1), ("match", 1), ("capture", 1):
            // `def test($val)`: a pattern string, or [pattern, flags].
            try eval(args[0], input, env) { value in
                let (pattern, flags) = try patternAndFlags(value)
                try run(builtin.name, input, pattern, flags, emit)
            }
        case ("test", 2), ("match", 2), ("capture", 2):
            // `_match_impl(re; mode; …)` loops over the flags outside the pattern.
            try eval(args[1], input, env) { flags in
                try eval(args[0], input, env) { pattern in try run(builtin.name, input, pattern, flags, emit) }
            }
        case ("sub", 2):
            try substituteFirst(args[0], args[1], input, env, emit)
        case ("sub", 3):
            try substitute(args[0], args[1], .given(args[2]), input, env, emit)
        case ("gsub", 2):
            try substitute(args[0], args[1], .global, input, env, emit)
        case ("gsub", 3):
            try substitute(args[0], args[1], .givenPlusG(args[2]), input, env, emit)
        case ("split", 2):
            try eval(args[0], input, env) { pattern in try emit(try split(input, pattern, args[1], env)) }
        default:
            throw JSONFilterError(message: "\(builtin.name)/\(builtin.arity) is not implemented")
        }
    }

    /// test, match or capture with one pattern and one flags value.
    private static func run(_ name: String, _ input: JSONValue, _ pattern: JSONValue, _ flags: JSONValue,
                            _ emit: (JSONValue) throws -> Void) throws {
        if name == "test" { return try emit(.bool(try _Regex.test(input, pattern, flags))) }
        for match in try _Regex.matches(input, pattern, flags) {
            try emit(name == "match" ? match.json : match.captureObject)
        }
    }

    /// The one-argument forms' `$val`: a string is the pattern; an array is
    /// [pattern, flags] (extra elements ignored, flags null when missing).
    private static func patternAndFlags(_ value: JSONValue) throws -> (JSONValue, JSONValue) {
        switch value {
        case .string: return (value, .null)
        case .array(let items) where items.count > 1: return (items[0], items[1])
        case .array(let items) where items.count == 1: return (items[0], .null)
        default: throw JSONFilterError(message: "\(value.typeName) not a string or array")
        }
    }

    // MARK: split

    /// `def split($re; flags): [splits($re; flags)]` with `splits` cutting the
    /// input at every `match($re; "g" + flags)`. Every flags output adds its
    /// matches to one list of cut points (jq collects them in one array), and
    /// a piece whose end comes before its start is empty, as jq's slice makes it.
    private static func split(_ input: JSONValue, _ pattern: JSONValue, _ flags: _Filter,
                              _ env: _Environment) throws -> JSONValue {
        var cuts: [Int] = [0]
        try _Evaluator.evaluate(flags, input, env) { flags in
            for match in try _Regex.matches(input, pattern, try _Arithmetic.add(.string("g"), flags)) {
                cuts.append(match.bytes.lowerBound)
                cuts.append(match.bytes.upperBound)
            }
        }
        guard case .string(let subject) = input else {
            // Only reachable when `flags` has no output: jq then slices `.[0:length]`.
            return .array([try _Access.slice(input, .number(JSONNumber(0)), try _Builtins.length(input))])
        }
        let bytes = Array(subject.utf8)
        cuts.append(bytes.count)
        return .array(stride(from: 0, to: cuts.count, by: 2).map { index in
            .string(String(decoding: bytes[cuts[index]..<max(cuts[index], cuts[index + 1])], as: UTF8.self))
        })
    }

    // MARK: sub/2

    /// jq 1.6 defines `sub($re; s)` twice and its first definition is the one
    /// in use: `[match($re)] | .[0]`, so `$re` may be [pattern, flags] like
    /// match/1's argument, and only the first match is replaced whatever the
    /// flags. The replacement gets the named captures as its input; each of
    /// its outputs gives one result (`$in[:offset] + s + $in[offset+length:]`).
    private static func substituteFirst(_ pattern: _Filter, _ replacement: _Filter, _ input: JSONValue,
                                        _ env: _Environment, _ emit: (JSONValue) throws -> Void) throws {
        try _Evaluator.evaluate(pattern, input, env) { value in
            let (pattern, flags) = try patternAndFlags(value)
            guard let match = try _Regex.matches(input, pattern, flags).first,
                  case .string(let subject) = input else { return try emit(input) }
            let bytes = Array(subject.utf8)
            let before = JSONValue.string(String(decoding: bytes[..<match.bytes.lowerBound], as: UTF8.self))
            let after = JSONValue.string(String(decoding: bytes[match.bytes.upperBound...], as: UTF8.self))
            try _Evaluator.evaluate(replacement, match.captureObject, env) { text in
                try emit(try _Arithmetic.add(try _Arithmetic.add(before, text), after))
            }
        }
    }

    // MARK: sub/3, gsub

    /// One replacement site of sub/3: the text since the previous site, the
    /// replacement's input, and text to keep after the replacement (see `sites`).
    private struct Site {
        let before: Range<Int>
        let captures: JSONValue
        let skipped: Range<Int>
    }

    /// The flags sub/3 receives: its own argument, gsub/2's "g", or gsub/3's `flags + "g"`.
    private enum Flags {
        case given(_Filter)
        case global
        case givenPlusG(_Filter)

        func each(_ input: JSONValue, _ env: _Environment, _ body: (JSONValue) throws -> Void) throws {
            switch self {
            case .given(let filter): try _Evaluator.evaluate(filter, input, env, body)
            case .global: try body(.string("g"))
            case .givenPlusG(let filter):
                try _Evaluator.evaluate(filter, input, env) { try body(try _Arithmetic.add($0, .string("g"))) }
            }
        }
    }

    /// jq 1.6's `sub($re; s; flags)`, which gsub calls with `flags + "g"`:
    ///
    ///     (flags | index("g")) as $gs | (flags | if $gs then <drop every g> else . end) as $fla
    ///
    /// `flags` runs twice, nested, so a flags filter with n outputs gives n² rounds.
    private static func substitute(_ pattern: _Filter, _ replacement: _Filter, _ flags: Flags, _ input: JSONValue,
                                   _ env: _Environment, _ emit: (JSONValue) throws -> Void) throws {
        try _Evaluator.evaluate(pattern, input, env) { pattern in
            try flags.each(input, env) { first in
                let global = try indexOfG(first).isTruthy
                try flags.each(input, env) { second in
                    let remaining = global ? try droppingG(second) : second
                    try substitute(input, pattern, remaining, global: global, replacement, env, emit)
                }
            }
        }
    }

    /// `flags | index("g")`, only for its truthiness, with jq's errors for
    /// values that are neither strings nor null (`index` is `indices | .[0]`).
    private static func indexOfG(_ flags: JSONValue) throws -> JSONValue {
        switch flags {
        case .null:
            return .null
        case .string(let letters):
            return letters.unicodeScalars.contains("g") ? .number(JSONNumber(0)) : .null
        case .array(let items):
            return items.firstIndex(of: .string("g")).map { .number(JSONNumber($0)) } ?? .null
        case .object(let object):
            return try _Access.index(object["g"] ?? .null, .number(JSONNumber(0)))
        default:
            throw JSONFilterError(message: "Cannot index \(flags.typeName) with string \"g\"")
        }
    }

    /// `[explode[] | select(. != 103)] | implode`.
    private static func droppingG(_ flags: JSONValue) throws -> JSONValue {
        guard case .string(let letters) = flags else {
            throw JSONFilterError(message: "explode input must be a string")
        }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: letters.unicodeScalars.filter { $0 != "g" })
        return .string(String(kept))
    }

    /// One round of jq 1.6's recursive `mysub`: replace the first match of the
    /// pattern; with `g`, run again on the text after it (as a new string, so
    /// `^` matches at each restart: `"aaa" | gsub("^a"; "b")` is "bbb") until
    /// that text is empty or has no match.
    ///
    /// jq 1.6 evaluates `$in[:offset] + s + (rest | mysub)`, the rest in the
    /// outer loop: the last site's replacement runs first and the first site's
    /// varies fastest in the results. `emitResults` keeps that order.
    private static func substitute(_ input: JSONValue, _ pattern: JSONValue, _ flags: JSONValue, global: Bool,
                                   _ replacement: _Filter, _ env: _Environment,
                                   _ emit: (JSONValue) throws -> Void) throws {
        let (subject, text, options) = try _Regex.arguments(input, pattern, flags)
        let bytes = Array(subject.utf8)
        let (sites, tail) = try _RegexCache.shared.withRegex(text, options: options.onig) { regex in
            try bytes.withUnsafeBufferPointer { try self.sites(regex, $0, global: global) }
        }
        if sites.isEmpty { return try emit(input) }
        try emitResults(sites, tail: tail, bytes, replacement, env, emit)
    }

    /// The replacement sites of one `mysub` round and where the untouched tail starts.
    ///
    /// An empty match at the very start of a non-empty rest makes jq 1.6 call
    /// itself on the same text forever (`gsub(""; "-")` never returns). Here
    /// that site instead keeps one character and the search goes on after it,
    /// as jq's own `match(…; "g")` steps past empty matches:
    /// `"abc" | gsub(""; "-")` is "-a-b-c".
    private static func sites(_ regex: _Regex, _ all: UnsafeBufferPointer<UInt8>,
                              global: Bool) throws -> ([Site], tail: Int) {
        var sites: [Site] = []
        var rest = 0
        while let match = try regex.matches(UnsafeBufferPointer(rebasing: all[rest...]), global: false).first {
            let start = rest + match.bytes.lowerBound, end = rest + match.bytes.upperBound
            var next = end
            if global, end == rest, next < all.count {
                next = min(all.count, next + _utf8SequenceLength(all[next]))
            }
            sites.append(Site(before: rest..<start, captures: match.captureObject, skipped: end..<next))
            rest = next
            guard global, rest < all.count else { break }
        }
        return (sites, rest)
    }

    /// Emits every combination of the replacement's outputs, as jq 1.6's
    /// nested generators do: site k's outputs loop inside site k+1's, each
    /// site's replacement runs when its turn first comes (the last site's
    /// first), and an error it raises after some outputs surfaces only after
    /// the combinations built from those outputs were emitted.
    ///
    /// jq re-runs a site's replacement for each output of the later sites;
    /// filters are pure, so each site's outputs (and error) are computed once
    /// and replayed. jq also builds `$in[:offset] + s + rest` at every site,
    /// which is quadratic in the number of sites; here a site only checks
    /// that its output can be added to text (a string or null, else jq's
    /// error at that moment) and each result is assembled once, when emitted.
    /// The loop is an odometer rather than recursion, so no number of sites
    /// can overflow the stack.
    private static func emitResults(_ sites: [Site], tail: Int, _ bytes: [UInt8], _ replacement: _Filter,
                                    _ env: _Environment, _ emit: (JSONValue) throws -> Void) throws {
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        var known = [(values: [JSONValue], failure: (any Error)?)?](repeating: nil, count: sites.count)
        func outputs(at index: Int) -> (values: [JSONValue], failure: (any Error)?) {
            if let result = known[index] { return result }
            var values: [JSONValue] = []
            var failure: (any Error)?
            do {
                try _Evaluator.evaluate(replacement, sites[index].captures, env) { values.append($0) }
            } catch {
                failure = error
            }
            known[index] = (values, failure)
            return (values, failure)
        }

        var choice = [Int](repeating: 0, count: sites.count)
        var level = sites.count - 1
        while true {
            let (values, failure) = outputs(at: level)
            if choice[level] < values.count {
                switch values[choice[level]] {
                case .string, .null: break
                case let value: _ = try _Arithmetic.add(.string(text(sites[level].before)), value)
                }
                if level > 0 {
                    level -= 1
                    choice[level] = 0
                    continue
                }
                var result = ""
                result.reserveCapacity(bytes.count)
                for (index, site) in sites.enumerated() {
                    result += text(site.before)
                    if case .string(let value) = known[index]!.values[choice[index]] { result += value }
                    result += text(site.skipped)
                }
                result += text(tail..<bytes.count)
                try emit(.string(result))
                choice[0] += 1
            } else {
                if let failure { throw failure }
                if level == sites.count - 1 { return }
                level += 1
                choice[level] += 1
            }
        }
    }
}
