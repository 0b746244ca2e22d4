// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// What a filter can observe of its input: nothing, some members of an
/// object (each of them whole), or everything.
///
/// `jsonstream 'select(.abv > 8) | {name, style}'` looks at three members of
/// each record; building the other twelve as `JSONValue`s (strings, nested
/// objects) is most of the cost of a run. The analysis is conservative: any
/// construct it does not understand demands the whole input, and a filter
/// run on an object reduced to the demanded members gives exactly the
/// outputs and errors it gives on the full object (checked over the whole
/// jq corpus by the differential tests).
enum _Demand: Equatable, Sendable {
    case none
    case members(Set<String>)
    case whole

    /// The members observed: none, some, or nil for the whole input.
    var members: Set<String>? {
        switch self {
        case .none: return []
        case .members(let keys): return keys
        case .whole: return nil
        }
    }

    func union(_ other: _Demand) -> _Demand {
        switch (self, other) {
        case (.none, _): return other
        case (_, .none): return self
        case (.members(let a), .members(let b)): return .members(a.union(b))
        default: return .whole
        }
    }

    /// What `filter` demands of its input when `output` is demanded of what it produces.
    static func of(_ filter: _Filter, output: _Demand) -> _Demand {
        switch filter {
        case .identity:
            return output
        case .literal, .variable, .breakLabel:
            return .none
        case .index(let target, .literal(.string(let key))):
            // `.key`: one member, whole. An error on a non-object names only its type.
            return of(target, output: .members([key]))
        case .optional(let body):
            return of(body, output: output)
        case .array(let body):
            return body.map { of($0, output: .whole) } ?? .none
        case .object(let entries):
            return entries.reduce(_Demand.none) { (demand: _Demand, entry: _ObjectEntry) in
                var result = demand.union(of(entry.value, output: .whole))
                switch entry.key {
                case .computed(let key), .computedMember(let key): result = result.union(of(key, output: .whole))
                case .name: break
                }
                return result
            }
        case .string(let pieces, _):
            return pieces.reduce(_Demand.none) { demand, piece in
                if case .filter(let inner) = piece { return demand.union(of(inner, output: .whole)) }
                return demand
            }
        case .pipe(let left, let right):
            return of(left, output: of(right, output: output))
        case .comma(let left, let right):
            return of(left, output: output).union(of(right, output: output))
        case .arithmetic(_, let left, let right), .comparison(_, let left, let right),
             .and(let left, let right), .or(let left, let right):
            return of(left, output: .whole).union(of(right, output: .whole))
        case .alternative(let left, let right):
            return of(left, output: .whole).union(of(right, output: output))
        case .negate(let body):
            return of(body, output: .whole)
        case .conditional(let branches, let otherwise):
            var demand = otherwise.map { of($0, output: output) } ?? output
            for branch in branches {
                demand = demand.union(of(branch.condition, output: .whole)).union(of(branch.then, output: output))
            }
            return demand
        case .tryCatch(let body, _):
            // The handler's input is the error, which describes only values
            // the body demanded whole.
            return of(body, output: output)
        case .bind(let source, _, let body):
            return of(source, output: .whole).union(of(body, output: output))
        case .call(let name, let arguments, _):
            // A program that redefines a built-in is `.define`, which
            // demands everything, so these names are the built-ins.
            switch (name, arguments.count) {
            case ("empty", 0): return .none
            case ("select", 1): return output.union(of(arguments[0], output: .whole))
            default: return .whole
            }
        case .index, .slice, .iterate, .recurseAll, .format, .reduce, .foreach, .label, .define, .assign:
            return .whole
        }
    }
}

extension JSONFilter {
    /// The members of an object input the filter can observe, or nil when it
    /// may observe the whole input. A caller may build only these members of
    /// each object it feeds the filter (see `_Demand`).
    package var observedMembers: Set<String>? {
        _Demand.of(root, output: .whole).members
    }

    /// For a program `select(C)`, the members of an object input that `C`
    /// can observe (nil for any other program, or when `C` may observe the
    /// whole input). Every output of such a program is its input: a caller
    /// may run it on an object reduced to these members and, for each
    /// output, write the input it has whole (`jsonstream` copies it from
    /// the tape).
    package var selectionMembers: Set<String>? {
        guard case .call("select", let arguments, _) = root, arguments.count == 1 else { return nil }
        return _Demand.of(arguments[0], output: .whole).members
    }

    /// For a program `select(C)` whose `C` reads only member paths, each
    /// alone or compared with a constant (`.active`, `.abv > 8 and .ibu`),
    /// that condition, to be decided without building the input; nil for
    /// any other program.
    package var selectionCondition: JSONFilterCondition? {
        guard case .call("select", let arguments, _) = root, arguments.count == 1 else { return nil }
        return JSONFilterCondition(arguments[0], arguments: origin.arguments)
    }

    /// For a program `.[] | F` (or `.[]`), or `.k1.k2[] | F` with `path`
    /// `["k1", "k2"]`, `F` compiled alone (`.` for `.[]`): what runs on each
    /// element when the input is streamed (`jsonstream --jq`); nil for any
    /// other program.
    package func eachElementFilter(at path: [String] = []) -> JSONFilter? {
        let (iterated, rest): (_Filter, _Filter)
        switch root {
        case .iterate(let target): (iterated, rest) = (target, .identity)
        case .pipe(.iterate(let target), let second): (iterated, rest) = (target, second)
        default: return nil
        }
        return Self.isPath(iterated, path[...]) ? compiled(rest) : nil
    }

    /// Whether `filter` is `.` followed by exactly the keys of `path`.
    private static func isPath(_ filter: _Filter, _ path: ArraySlice<String>) -> Bool {
        switch filter {
        case .identity:
            return path.isEmpty
        case .index(let target, .literal(.string(let key))):
            return path.last == key && isPath(target, path.dropLast())
        default:
            return false
        }
    }

    /// For a program whose outputs are made of member paths of its input —
    /// a path (`.brewery.name`, `.a | ."b"`), a path's `length`, an object
    /// of these (`{name, city: .brewery.city}`), either after `select(C)` —
    /// what it is made of; nil for any other program, and for `.`. A caller may write such outputs from the input
    /// as it has it, running `selection` (on the members it observes) for
    /// how many there are, and the program itself wherever a path meets a
    /// value that is neither an object nor `null` (for its error).
    package var memberProgram: JSONFilterMemberProgram? {
        var selection: JSONFilter?
        var rest = root
        if case .pipe(let first, let second) = root, case .call("select", let arguments, _) = first,
           arguments.count == 1 {
            guard let compiled = compiled(first) else { return nil }
            selection = compiled
            rest = second
        }
        if let (path, length) = Self.memberValue(of: rest), !path.isEmpty {
            return JSONFilterMemberProgram(selection: selection, keys: nil, paths: [path], lengths: [length])
        }
        guard case .object(let entries) = rest else { return nil }
        var keys: [String] = []
        var paths: [[String]] = []
        var lengths: [Bool] = []
        for entry in entries {
            guard case .name(let key) = entry.key, !keys.contains(key),
                  let (path, length) = Self.memberValue(of: entry.value) else { return nil }
            keys.append(key)
            paths.append(path)
            lengths.append(length)
        }
        return JSONFilterMemberProgram(selection: selection, keys: keys, paths: paths, lengths: lengths)
    }

    /// A member path, or one followed by `| length`.
    private static func memberValue(of filter: _Filter) -> (path: [String], length: Bool)? {
        if case .pipe(let first, .call("length", let arguments, _)) = filter, arguments.isEmpty {
            return memberPath(of: first).map { ($0, true) }
        }
        return memberPath(of: filter).map { ($0, false) }
    }

    /// The names of a path of member names; `[]` for `.`.
    static func memberPath(of filter: _Filter) -> [String]? {
        switch filter {
        case .identity:
            return []
        case .index(let target, .literal(.string(let name))):
            return memberPath(of: target).map { $0 + [name] }
        case .pipe(let first, let second):
            guard let head = memberPath(of: first), let tail = memberPath(of: second) else { return nil }
            return head + tail
        default:
            return nil
        }
    }
}

/// What `JSONFilter.memberProgram` found a program to be made of.
package struct JSONFilterMemberProgram: Sendable {
    /// `select(C)`, compiled alone, when the program starts with it.
    package let selection: JSONFilter?
    /// The object's keys, in order; nil when the output is the one path.
    package let keys: [String]?
    /// The member path of each key (or the one path); `[]` is the input.
    package let paths: [[String]]
    /// Whether each path is followed by `| length`.
    package let lengths: [Bool]
}
