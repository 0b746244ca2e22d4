// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// How a filter can run over each input value without building it: what
/// `jsonstream --jq` decides before it reads any input, and what its
/// `--explain` prints.
///
/// ```swift
/// let plan = try JSONFilter(".items | map(.price) | add").plan
/// plan.strategy   // .streamed
/// plan.path       // ["items"]
/// ```
///
/// A filter streams when all it reads of its input is one array or object
/// at a key path, element by element (`.items[] | f`, `map(f)`, `length`,
/// `add`, `reduce .[] as $x (…)`, `first(.[])`, `min_by(f)` …). One that
/// prints a value unchanged (`.`, `.items`) has it copied as it is read.
/// Anything else is evaluated on the whole value, as jq does.
public struct JSONFilterPlan: Sendable, CustomStringConvertible {
    /// What happens to each input value.
    public enum Strategy: Sendable, Equatable {
        /// The array (or object) at `path` is read one element (or member
        /// value) at a time; the filter never holds more than one.
        case streamed
        /// The value at `path` is written out as it is read, never built.
        case copied
        /// Each input value is built whole before the filter runs, as in jq.
        case whole
        /// `A, B`: each comma-separated part streams, copies or reads
        /// nothing on its own (`parts`); a file is read once per part, each
        /// input value's parts in turn. From a pipe, the value is built whole.
        case inParts
    }

    /// What happens to each input value.
    public private(set) var strategy: Strategy
    /// The keys from each input value to the part streamed or copied.
    public private(set) var path: [String] = []
    /// Why the value is built whole (`.whole` only).
    public private(set) var reason: String?
    /// Of each streamed element that is an object, the members the filter
    /// can observe (nil: all of them, or not streamed).
    public private(set) var elementMembers: Set<String>?
    /// Whether an object at `path` streams its member values; if not, an
    /// object there is built whole (`length`, `first`, `.[2:5]` need an array).
    public private(set) var streamsObjects = true
    /// `.inParts`: the plan of each comma-separated part, in order.
    public private(set) var parts: [JSONFilterPlan] = []

    /// The rewritten filter that reads the elements (`.streamed` only).
    package private(set) var elementProgram: JSONFilter?
    /// Whether the elements are used at all (`length` only counts them).
    package private(set) var buildsElements = true
    /// A part's own filter, which its skeleton inputs run (nil: the whole filter).
    package private(set) var program: JSONFilter?
    /// A part that reads nothing of its input (`"total:"`): run once per value.
    package private(set) var readsNothing = false

    /// The plan, in a line: what `jsonstream --jq --explain` prints.
    public var description: String {
        let target = path.isEmpty ? "each input value" : Self.describe(path)
        switch strategy {
        case .inParts:
            return "in parts: each input value is read once per part, the parts in turn (a file, not a pipe: "
                + "from a pipe it is built whole)"
        case .whole where readsNothing:
            return "reads nothing of the input: run once per input value"
        case .whole:
            return "built whole: each input value is built before the filter runs, as in jq"
                + (reason.map { " (\($0))" } ?? "")
        case .copied:
            return "copied: \(target) is written out as it is read, never built"
        case .streamed:
            var text = "streamed: \(target), one element at a time"
            if !streamsObjects { text += " (an array; an object there is built whole)" }
            if !buildsElements {
                text += " (counted, never built)"
            } else if let members = elementMembers {
                text += members.isEmpty ? " (nothing of an element is built)"
                    : " (of each element, only \(members.sorted().joined(separator: ", ")) \(members.count == 1 ? "is" : "are") built)"
            }
            return text
        }
    }

    /// What happens when the value at the path is not what the plan needs.
    public var fallback: String? {
        guard strategy == .streamed || strategy == .copied else { return nil }
        let place = path.isEmpty ? "an input value" : Self.describe(path)
        let kinds = strategy == .copied || streamsObjects ? "an array or object" : "an array"
        return "when \(place) is not \(kinds), the value there is built and the filter runs on it as jq's would"
    }

    /// A key path as jq writes it: `.a.b`, `."a b"`, `.` for none.
    package static func describe(_ path: [String]) -> String {
        path.isEmpty ? "." : path.map { key in
            key.allSatisfy { $0.isLetter || $0 == "_" || $0.isNumber } && !(key.first?.isNumber ?? true)
                ? ".\(key)" : ".\(_jqText(.string(key)))"
        }.joined()
    }

    init(whole reason: String) {
        strategy = .whole
        self.reason = reason
        streamsObjects = false
    }

    init(copying path: [String]) {
        strategy = .copied
        self.path = path
    }

    init(streaming shape: _StreamShape, program: JSONFilter, members: Set<String>?) {
        strategy = .streamed
        path = shape.path
        // Elements only counted: an object element is recorded with no member.
        elementMembers = shape.buildsElements ? members : []
        streamsObjects = shape.acceptsObjects
        elementProgram = program
        buildsElements = shape.buildsElements
    }

    /// `A, B, …`: each part planned on its own, run in turn on each value.
    init(parts: [JSONFilterPlan]) {
        strategy = .inParts
        self.parts = parts
    }

    /// This plan as one part: `filter` is the part's own program.
    func part(of filter: JSONFilter, readsNothing: Bool) -> JSONFilterPlan {
        var part = self
        part.program = filter
        part.readsNothing = readsNothing
        return part
    }

    /// An input that holds `value` at the first `keys` keys of the path and
    /// nothing else; with `value` nil, one whose object there lacks the next
    /// key. The filter cannot tell it from the real input, which it reads
    /// only along the path.
    package func skeleton(holding value: JSONValue?, afterKeys keys: Int) -> JSONValue {
        var result = value ?? .object(JSONObject())
        for key in path[..<keys].reversed() { result = .object(JSONObject([(key, result)])) }
        return result
    }
}

extension JSONFilter {
    /// How the filter runs over each input value without building it, when
    /// it can: see `JSONFilterPlan`.
    public var plan: JSONFilterPlan {
        if readsTheInputStream {
            return JSONFilterPlan(whole: "the filter reads the input stream: input, inputs or input_line_number")
        }
        for module in origin.parsed.imports {
            // ~/.jq is included by jsonstream's command line when it is a file.
            let absentHomeLibrary = module.path.isEmpty && module.alias == nil && !_ModuleLoader.homeLibraryExists
            guard absentHomeLibrary else {
                return JSONFilterPlan(whole: "the filter imports modules (or ~/.jq), which are not analysed")
            }
        }
        let (definitions, body) = splitDefinitions
        if let path = Self.keyPath(body) { return JSONFilterPlan(copying: path) }
        let planner = _Planner(defining: Self.definedNames(origin.parsed.filter))
        guard let shape = planner.stream(body) else {
            return partsPlan(of: body, definitions: definitions)
                ?? JSONFilterPlan(whole: Self.wholeValueReason(body, defined: Self.definedNames(origin.parsed.filter)))
        }
        guard let program = compiled(shape.filter, inside: definitions) else {
            return JSONFilterPlan(whole: "its streamed form does not compile")
        }
        let members = shape.elementFilter.flatMap { _Demand.of($0, output: .whole).members }
        return JSONFilterPlan(streaming: shape, program: program, members: members)
    }

    /// `A, B, …` where every part streams, copies, or reads nothing.
    private func partsPlan(of body: _Filter, definitions: [_FunctionDefinition]) -> JSONFilterPlan? {
        var branches: [_Filter] = []
        func collect(_ filter: _Filter) {
            if case .comma(let left, let right) = filter {
                collect(left)
                collect(right)
            } else {
                branches.append(filter)
            }
        }
        collect(body)
        guard branches.count > 1 else { return nil }
        var parts: [JSONFilterPlan] = []
        for branch in branches {
            guard let filter = compiled(branch, inside: definitions) else { return nil }
            let plan = filter.plan
            let readsNothing = !_Planner.readsInput(branch)
            guard plan.strategy == .streamed || plan.strategy == .copied || readsNothing else { return nil }
            parts.append(plan.part(of: filter, readsNothing: readsNothing && plan.strategy == .whole))
        }
        // Parts that all read nothing: nothing to stream.
        guard parts.contains(where: { !$0.readsNothing }) else { return nil }
        return JSONFilterPlan(parts: parts)
    }

    /// `.`, `.a`, `.a.b`: the keys; nil for anything else.
    private static func keyPath(_ filter: _Filter) -> [String]? {
        switch filter {
        case .identity: return []
        case .index(let target, .literal(.string(let key))): return keyPath(target).map { $0 + [key] }
        case .pipe(let left, let right):
            guard let first = keyPath(left), let second = keyPath(right) else { return nil }
            return first + second
        default: return nil
        }
    }

    /// `name/arity` of every `def` in `filter`, at any depth.
    /// Why nothing of `body` streams, for `--explain`: the built-in at the
    /// head of its pipeline, which takes each input value whole (`sort_by`,
    /// `group_by`, `keys`, `to_entries`, …), when there is one.
    static func wholeValueReason(_ body: _Filter, defined: Set<String>) -> String {
        var head = body
        while case .pipe(let first, _) = head { head = first }
        guard case .call(let name, let arguments, _) = head, case let function = "\(name)/\(arguments.count)",
              !defined.contains(function) else {
            return "no part of it reads the input one element at a time"
        }
        return "\(function) at its start takes each input value whole, as jq's does; "
            + "no part of it reads the input one element at a time"
    }

    static func definedNames(_ filter: _Filter) -> Set<String> {
        var names: Set<String> = []
        func visit(_ filter: _Filter) {
            if case .define(let definition, let rest) = filter {
                names.insert("\(definition.name)/\(definition.arity)")
                visit(definition.body)
                visit(rest)
            } else {
                filter.forEachChild(visit)
            }
        }
        visit(filter)
        return names
    }
}

extension JSONFilter {
    /// For `jq -n --stream 'fromstream(N|truncate_stream(inputs)) | f'`, the
    /// idiom jq's manual gives for huge inputs: the same program over the
    /// elements at depth 1 of each input value (read through
    /// `_streamed_elements`), taking them apart to depth N as the idiom does.
    /// nil for any other program.
    package var streamIdiomProgram: JSONFilter? { streamIdiom?.program }

    /// The idiom, rewritten (see `streamIdiomProgram`).
    package struct StreamIdiom {
        /// The program over `_streamed_elements`, the depth-1 elements.
        package let program: JSONFilter
        /// N of `truncate_stream`.
        package let depth: Int
        /// Nothing follows `fromstream(…)`.
        package let isBare: Bool
        /// For depth 1: the program over elements already known to be
        /// non-empty arrays or objects (what follows the idiom), and the
        /// members of an element it can observe (nil: all).
        package let depthOneProgram: JSONFilter?
        package let depthOneMembers: Set<String>?
    }

    package var streamIdiom: StreamIdiom? {
        var (definitions, body) = splitDefinitions
        var rest: _Filter?
        if case .pipe(let left, let right) = body {
            body = left
            rest = right
        }
        guard case .call("fromstream", let arguments, _) = body, arguments.count == 1,
              case .pipe(.literal(.number(let depthNumber)), .call("truncate_stream", let inner, _)) = arguments[0],
              inner.count == 1, case .call("inputs", let none, _) = inner[0], none.isEmpty,
              case let depth = depthNumber.double, depth >= 1, depth <= 1000, depth.rounded() == depth else { return nil }
        let names = Self.definedNames(origin.parsed.filter)
        guard names.isDisjoint(with: ["fromstream/1", "truncate_stream/1", "inputs/0"]) else { return nil }
        // What the idiom yields: the containers at depth N that are not
        // empty (scalars and empty containers leave no closing event there).
        let source = """
            def __sj_at($n): if $n == 0 then select((type == "array" or type == "object") and length > 0) \
            elif type == "array" or type == "object" then .[] | __sj_at($n - 1) else empty end;
            _streamed_elements | __sj_at(\(Int(depth) - 1))
            """
        guard let idiom = try? _Parser.parseProgram(source).filter,
              let program = compiled(rest.map { Self.appending($0, to: idiom) } ?? idiom, inside: definitions)
        else { return nil }
        var depthOne: JSONFilter?
        var members: Set<String>?
        if depth == 1, let rest {
            depthOne = compiled(.pipe(_Planner.elements, rest), inside: definitions)
            members = _Demand.of(rest, output: .whole).members
        }
        return StreamIdiom(program: program, depth: Int(depth), isBare: rest == nil, depthOneProgram: depthOne,
                           depthOneMembers: members)
    }

    /// The program's top-level definitions, and the query inside them.
    private var splitDefinitions: ([_FunctionDefinition], _Filter) {
        var definitions: [_FunctionDefinition] = []
        var body = origin.parsed.filter
        while case .define(let definition, let rest) = body {
            definitions.append(definition)
            body = rest
        }
        return (definitions, body)
    }

    /// `body` compiled inside `definitions`, with this program's imports and arguments.
    func compiled(_ body: _Filter, inside definitions: [_FunctionDefinition] = []) -> JSONFilter? {
        var parsed = origin.parsed
        parsed.filter = body
        for definition in definitions.reversed() { parsed.filter = .define(definition, rest: parsed.filter) }
        return try? JSONFilter(parsed: parsed, origin: origin)
    }

    /// `filter | rest`, inside `filter`'s definitions.
    private static func appending(_ rest: _Filter, to filter: _Filter) -> _Filter {
        if case .define(let definition, let body) = filter { return .define(definition, rest: appending(rest, to: body)) }
        return .pipe(filter, rest)
    }
}
