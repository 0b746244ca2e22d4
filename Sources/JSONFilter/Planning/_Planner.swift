// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// Finds how a program can run on each input value without building it.
///
/// A program streams when all it reads of its input is one array or object
/// at a key path (`.items`), element by element: `.items[] | f`,
/// `[.[] | f]`, `map(f) | add`, `reduce .[] as $x (…)`, `length`,
/// `first(.[])`… The planner rewrites such a program into one that reads
/// those elements from the generator `_streamed_elements` instead of from
/// its input, so the evaluator itself gives the reductions, early stops and
/// errors their jq meaning; the input is never built.
///
/// Whatever the shape, a program the planner accepts observes nothing of
/// its input but the value at the path. When that value is not what the
/// stream needs (a number, a missing key, an object for an array-only
/// shape), the original program runs on a *skeleton*: an input holding only
/// that value at the path, which it cannot tell from the real one.
struct _Planner {
    /// The names of every `def` in the program: a program that redefines a
    /// built-in the planner knows keeps the meaning it gave it.
    private let defined: Set<String>

    init(defining definitions: Set<String>) {
        defined = definitions
    }

    /// The streamed form of `body`, or nil when it must be built whole.
    func stream(_ body: _Filter) -> _StreamShape? {
        generator(of: body)
    }

    // MARK: Shapes

    /// `filter`, which reads the input only through the elements of the
    /// value at a path, rewritten to read them from the stream.
    private func generator(of filter: _Filter) -> _StreamShape? {
        let stages = Self.stages(of: filter)
        var keys: [String] = []
        for stage in stages {
            guard case .index(.identity, .literal(.string(let key))) = stage else { break }
            keys.append(key)
        }
        guard keys.count < stages.count else { return nil }
        let rest = Array(stages[(keys.count + 1)...])
        guard var shape = consumer(stages[keys.count], rest: rest) else { return nil }
        shape.path = keys + shape.path
        return shape
    }

    /// The stage after the path (`head`) with the stages after it.
    private func consumer(_ head: _Filter, rest: [_Filter]) -> _StreamShape? {
        switch head {
        case .iterate(.identity), .optional(.iterate(.identity)):
            // `.[] | f`: f runs on each element, as it is.
            let each = Self.pipe(rest)
            return _StreamShape(filter: rest.isEmpty ? Self.elements : .pipe(Self.elements, each), elementFilter: each)
        case .slice(.identity, let from, let to):
            guard let first = rest.first, Self.isIteration(first),
                  let range = Self.literalRange(from, to) else { return nil }
            let each = Self.pipe(Array(rest.dropFirst()))
            var source = Self.call("skip", Self.number(range.lowerBound), Self.elements)
            if let upper = range.upperBound { source = Self.call("limit", Self.number(upper - range.lowerBound), source) }
            return _StreamShape(filter: .pipe(source, each), elementFilter: each, acceptsObjects: false)
        case .array(let body?):
            // `[g]` where g is a generator over the stream: an array, which
            // the stages after it may consume in turn.
            guard var inner = generator(of: body) else { return nil }
            return collected(&inner, rest: rest)
        default:
            guard var shape = arrayConsumer(head, of: Self.elements, elementFilter: nil) else {
                return generatorConsumer(head, rest: rest)
            }
            if shape.isCollection {
                // `map(f) | …`: as `[.[] | f] | …`.
                shape.isCollection = false
                return collected(&shape, rest: rest)
            }
            if shape.selectsElement {
                // `first | .id`, `max_by(.n) | .name`: what follows reads the element chosen.
                let after = Self.pipe(rest)
                shape.elementFilter = shape.selectionKey.map { .comma($0, after) } ?? after
            }
            shape.filter = .pipe(shape.filter, Self.pipe(rest))
            return shape
        }
    }

    /// `[g] | rest`: when the first stage of `rest` consumes an array, it
    /// consumes g's outputs instead, and the array is never made.
    private func collected(_ inner: inout _StreamShape, rest: [_Filter]) -> _StreamShape? {
        var generatorFilter = inner.filter
        var remaining = rest[...]
        var elementFilter = inner.elementFilter
        while let next = remaining.first {
            guard let shape = arrayConsumer(next, of: generatorFilter, elementFilter: elementFilter) else { break }
            remaining = remaining.dropFirst()
            if shape.isCollection {
                // `map(f)` again: still a generator, collected later.
                generatorFilter = shape.filter
                elementFilter = shape.elementFilter
                continue
            }
            var result = inner
            result.filter = .pipe(shape.filter, Self.pipe(Array(remaining)))
            result.buildsElements = inner.buildsElements && shape.buildsElements
            result.elementFilter = shape.elementFilter
            result.acceptsObjects = inner.acceptsObjects
            return result
        }
        var result = inner
        result.filter = .pipe(.array(generatorFilter), Self.pipe(Array(remaining)))
        result.elementFilter = elementFilter
        return result
    }

    /// A stage that consumes an array (`length`, `add`, `map(f)`, `first`,
    /// `min_by(f)` …), rewritten to consume `source`'s outputs, its elements.
    /// A collection (`map`) comes back as a generator with `isCollection` set.
    private func arrayConsumer(_ stage: _Filter, of source: _Filter, elementFilter: _Filter?) -> _StreamShape? {
        let isStream = Self.isElements(source)
        func shape(_ filter: _Filter, each: _Filter? = nil, objects: Bool = true, builds: Bool = true) -> _StreamShape {
            _StreamShape(filter: filter, elementFilter: isStream ? each : elementFilter,
                         acceptsObjects: objects, buildsElements: builds || !isStream)
        }
        /// A consumer that outputs one of the elements, chosen by `key`.
        func selecting(_ filter: _Filter, key: _Filter? = nil) -> _StreamShape {
            var result = shape(filter, objects: false)
            result.selectsElement = isStream
            result.selectionKey = key
            return result
        }
        if case .index(.identity, .literal(.number(let n))) = stage, let index = Self.integer(n) {
            return selecting(index >= 0 ? Self.nth(index, source) : Self.fromEnd(-index, source))
        }
        guard case .call(let name, let arguments, _) = stage, !defined.contains("\(name)/\(arguments.count)") else {
            return nil
        }
        switch (name, arguments.count) {
        case ("map", 1):
            var result = shape(.pipe(source, arguments[0]), each: arguments[0])
            result.isCollection = true
            return result
        case ("length", 0):
            // An object's length counts distinct keys: arrays only.
            return shape(.reduce(source: source, pattern: .variable("__sj_x"), initial: Self.number(0),
                                 update: .arithmetic(.add, .identity, Self.number(1))),
                         objects: false, builds: false)
        case ("add", 0): return shape(Self.call("add", source))
        case ("any", 0), ("all", 0): return shape(Self.call(name, source, .identity))
        case ("any", 1), ("all", 1): return shape(Self.call(name, source, arguments[0]), each: arguments[0])
        case ("first", 0): return selecting(Self.nth(0, source))
        case ("last", 0): return selecting(Self.fromEnd(1, source))
        case ("min", 0), ("max", 0): return selecting(Self.extreme(source, key: .identity, max: name == "max"), key: .identity)
        case ("min_by", 1), ("max_by", 1):
            return selecting(Self.extreme(source, key: arguments[0], max: name == "max_by"), key: arguments[0])
        default: return nil
        }
    }

    /// A construct that takes a generator over the input: `reduce g as $x`,
    /// `foreach`, `first(g)`, `limit(n; g)`, `add(g)`, `any(g; c)` …
    private func generatorConsumer(_ stage: _Filter, rest: [_Filter]) -> _StreamShape? {
        var shape: _StreamShape
        switch stage {
        case .reduce(let source, let pattern, let initial, let update):
            guard !Self.readsInput(initial), Self.givesOneValue(initial), let inner = generator(of: source) else {
                return nil
            }
            shape = inner
            shape.filter = .reduce(source: inner.filter, pattern: pattern, initial: initial, update: update)
        case .foreach(let source, let pattern, let initial, let update, let extract):
            guard !Self.readsInput(initial), Self.givesOneValue(initial), let inner = generator(of: source) else {
                return nil
            }
            shape = inner
            shape.filter = .foreach(source: inner.filter, pattern: pattern, initial: initial, update: update,
                                    extract: extract)
        case .call(let name, let arguments, let column):
            guard !defined.contains("\(name)/\(arguments.count)") else { return nil }
            // Which argument is the generator; the others may not read the input.
            let generatorIndex: Int
            switch (name, arguments.count) {
            case ("first", 1), ("last", 1), ("isempty", 1), ("add", 1): generatorIndex = 0
            case ("limit", 2), ("skip", 2), ("nth", 2): generatorIndex = 1
            case ("any", 2), ("all", 2): generatorIndex = 0
            default: return nil
            }
            for (index, argument) in arguments.enumerated() where index != generatorIndex {
                // `any(g; c)`'s condition runs on g's outputs, not the input.
                if !(name == "any" || name == "all") && Self.readsInput(argument) { return nil }
            }
            guard let inner = generator(of: arguments[generatorIndex]) else { return nil }
            shape = inner
            var rewritten = arguments
            rewritten[generatorIndex] = inner.filter
            shape.filter = .call(name, rewritten, column: column)
            if name == "any" || name == "all" {
                // The condition reads what the generator makes of each element.
                shape.elementFilter = inner.elementFilter.map { .pipe($0, arguments[1]) }
            } else if ["first", "last", "limit", "skip", "nth"].contains(name) {
                // Some of the generator's outputs pass on, as they are, to what follows.
                shape.elementFilter = inner.elementFilter.map { .pipe($0, Self.pipe(rest)) }
            }
        default:
            return nil
        }
        shape.filter = .pipe(shape.filter, Self.pipe(rest))
        return shape
    }

    // MARK: Building blocks

    /// The generator the rewritten program reads the stream from. (Made
    /// on each use: an indirect enum held by a `static let` is reported as
    /// a leak by LeakSanitizer, which cannot read the tagged box pointer.)
    static var elements: _Filter { .call("_streamed_elements", [], column: 0) }

    private static func isElements(_ filter: _Filter) -> Bool {
        if case .call("_streamed_elements", let arguments, _) = filter { return arguments.isEmpty }
        return false
    }

    /// `.[n]` of the array `source` would make: its n-th output, or null.
    private static func nth(_ index: Int, _ source: _Filter) -> _Filter {
        .pipe(.array(call("limit", number(1), call("skip", number(index), source))),
              .index(.identity, .literal(.number(0))))
    }

    /// `.[-n]` of the array `source` would make: the last n outputs are kept.
    private static func fromEnd(_ count: Int, _ source: _Filter) -> _Filter {
        if count == 1 { return .reduce(source: source, pattern: .variable("__sj_x"), initial: .literal(.null),
                                       update: .variable("__sj_x", column: 0)) }
        let kept = _Filter.reduce(source: source, pattern: .variable("__sj_x"), initial: .literal(.array([])),
                                  update: .slice(.arithmetic(.add, .identity, .array(.variable("__sj_x", column: 0))),
                                                 number(-count), nil))
        return .pipe(kept, .conditional([(condition: .comparison(.equal, call("length"), number(count)),
                                          then: .index(.identity, .literal(.number(0))))],
                                        otherwise: .literal(.null)))
    }

    /// `min_by(f)`/`max_by(f)` over `source`'s outputs with jq's ties: the
    /// first of equal minima, the last of equal maxima.
    private static func extreme(_ source: _Filter, key: _Filter, max: Bool) -> _Filter {
        let pair = _Filter.array(.comma(.array(key), .identity))
        let candidate = _Filter.variable("__sj_p", column: 0)
        let better = _Filter.comparison(max ? .greaterOrEqual : .less, .index(candidate, .literal(.number(0))),
                                        .index(.identity, .literal(.number(0))))
        let update = _Filter.conditional([(condition: .or(.comparison(.equal, .identity, .literal(.null)), better),
                                           then: candidate)], otherwise: .identity)
        let kept = _Filter.reduce(source: .pipe(source, pair), pattern: .variable("__sj_p"), initial: .literal(.null),
                                  update: update)
        return .pipe(kept, .conditional([(condition: .comparison(.equal, .identity, .literal(.null)),
                                          then: .literal(.null))],
                                        otherwise: .index(.identity, .literal(.number(1)))))
    }

    static func call(_ name: String, _ arguments: _Filter...) -> _Filter {
        .call(name, arguments, column: 0)
    }

    static func number(_ value: Int) -> _Filter { .literal(.number(JSONNumber(value))) }

    private static func integer(_ number: JSONNumber) -> Int? {
        let value = number.double
        guard value.rounded() == value, abs(value) < 1e15 else { return nil }
        return Int(value)
    }

    /// `.[a:b]` with literal, non-negative bounds (b at least a, or absent).
    private static func literalRange(_ from: _Filter?, _ to: _Filter?) -> (lowerBound: Int, upperBound: Int?)? {
        var lower = 0
        if let from {
            guard case .literal(.number(let n)) = from, let value = integer(n), value >= 0 else { return nil }
            lower = value
        }
        guard let to else { return (lower, nil) }
        guard case .literal(.number(let n)) = to, let upper = integer(n), upper >= lower else { return nil }
        return (lower, upper)
    }

    private static func isIteration(_ stage: _Filter) -> Bool {
        switch stage {
        case .iterate(.identity), .optional(.iterate(.identity)): return true
        default: return false
        }
    }

    /// `a | b | c` from stages; `.` for none.
    static func pipe(_ stages: [_Filter]) -> _Filter {
        guard var result = stages.last else { return .identity }
        for stage in stages.dropLast().reversed() { result = .pipe(stage, result) }
        return result
    }

    /// The filters a pipeline applies in turn: `.a.b[] | f` is `.a`, `.b`,
    /// `.[]`, `f`. A postfix chain is split only where each step reads the
    /// previous one's output alone (`.a[]?` stays whole: its `?` covers `.a`).
    static func stages(of filter: _Filter) -> [_Filter] {
        switch filter {
        case .pipe(let left, let right):
            return stages(of: left) + stages(of: right)
        case .index(let target, let key) where !isIdentity(target) && isConstant(key):
            return stages(of: target) + [.index(.identity, key)]
        case .iterate(let target) where !isIdentity(target):
            return stages(of: target) + [.iterate(.identity)]
        case .slice(let target, let from, let to) where !isIdentity(target) && from.map(isConstant) != false
                                                      && to.map(isConstant) != false:
            return stages(of: target) + [.slice(.identity, from, to)]
        case .optional(.iterate(let target)) where !isIdentity(target) && pathOnly(target):
            // `.a.b[]?`: when `.a.b` is an array or object, the `?` has nothing to catch.
            return stages(of: target) + [.optional(.iterate(.identity))]
        default:
            return [filter]
        }
    }

    private static func isIdentity(_ filter: _Filter) -> Bool {
        if case .identity = filter { return true }
        return false
    }

    private static func isConstant(_ filter: _Filter) -> Bool {
        if case .literal = filter { return true }
        return false
    }

    /// `.a.b`: keys only.
    private static func pathOnly(_ filter: _Filter) -> Bool {
        switch filter {
        case .identity: return true
        case .index(let target, .literal(.string)): return pathOnly(target)
        default: return false
        }
    }

    /// Whether `filter` may read its input: conservative. Constants,
    /// variables and what is built of them (`{}`, `{"n": 0, "seen": []}`,
    /// `[$x, 1]`, `"\($x)"`) do not; a pipe reads the input only through its
    /// left side (its right side reads what the left makes), unless it
    /// reads further inputs (`input`). Anything else may.
    static func readsInput(_ filter: _Filter) -> Bool {
        switch filter {
        case .literal, .variable:
            return false
        case .arithmetic(_, let left, let right), .comparison(_, let left, let right), .comma(let left, let right),
             .and(let left, let right), .or(let left, let right), .alternative(let left, let right):
            return readsInput(left) || readsInput(right)
        case .negate(let body):
            return readsInput(body)
        case .array(let body):
            return body.map(readsInput) ?? false
        case .object(let entries):
            return entries.contains { entry in
                let keyReads = switch entry.key {
                case .name: false
                case .computed(let key): readsInput(key)
                case .computedMember: true
                }
                return keyReads || readsInput(entry.value)
            }
        case .string(let pieces, _):
            return pieces.contains { if case .filter(let inner) = $0 { readsInput(inner) } else { false } }
        case .conditional(let branches, let otherwise):
            return branches.contains { readsInput($0.condition) || readsInput($0.then) }
                || otherwise.map(readsInput) ?? false
        case .pipe(let left, let right):
            return readsInput(left) || readsFurtherInputs(right)
        case .call(let name, let arguments, _) where name == "empty" && arguments.isEmpty:
            return false
        default:
            return true
        }
    }

    /// Whether `filter`, which reads no input, gives one value (or fails):
    /// conservative. A streamed `reduce` or `foreach` reads the elements
    /// once; jq runs the loop again for each further initial value
    /// (`reduce` over a null input, `foreach` over the input again).
    static func givesOneValue(_ filter: _Filter) -> Bool {
        switch filter {
        case .literal, .variable, .array:
            return true
        case .arithmetic(_, let left, let right), .comparison(_, let left, let right), .pipe(let left, let right):
            return givesOneValue(left) && givesOneValue(right)
        case .negate(let body):
            return givesOneValue(body)
        case .assign(let op, _, let right):
            return op == .update || givesOneValue(right)  // one result per value of the right side
        case .conditional(let branches, let otherwise):
            return branches.allSatisfy { givesOneValue($0.condition) && givesOneValue($0.then) }
                && otherwise.map(givesOneValue) ?? true
        case .object(let entries):
            return entries.allSatisfy { entry in
                if case .computed(let key) = entry.key, !givesOneValue(key) { return false }
                return givesOneValue(entry.value)
            }
        case .string(let pieces, _):
            return pieces.allSatisfy { if case .filter(let inner) = $0 { givesOneValue(inner) } else { true } }
        default:
            return false
        }
    }

    /// Whether `filter` calls one of the built-ins that read further inputs
    /// (or may: a function defined in it, or a call whose body is not seen).
    private static func readsFurtherInputs(_ filter: _Filter) -> Bool {
        if case .call(let name, _, _) = filter, ["input", "inputs", "input_line_number"].contains(name) {
            return true
        }
        if case .define = filter { return true }
        var found = false
        filter.forEachChild { if !found && readsFurtherInputs($0) { found = true } }
        return found
    }
}

/// What the planner found: the rewritten program and what it needs of the stream.
struct _StreamShape {
    /// The program over `_streamed_elements`; it never reads its input.
    var filter: _Filter
    /// What runs on each element as it is (`f` of `.[] | f`, `map(f)`), for
    /// the projection; nil when the element is used in other ways.
    var elementFilter: _Filter?
    /// The keys from the input value to the array or object streamed.
    var path: [String] = []
    /// Whether an object's member values stream as an array's elements do
    /// (`.[]`, `map`, `add`); if not, an object is built whole.
    var acceptsObjects = true
    /// Whether the elements are used at all (`length` only counts them).
    var buildsElements = true
    /// `map(f)`: still a generator that the next stage may consume.
    var isCollection = false
    /// The output is one of the elements (`first`, `.[-1]`, `min_by(f)`),
    /// chosen by `selectionKey` (nil: by position).
    var selectsElement = false
    var selectionKey: _Filter?

    init(filter: _Filter, elementFilter: _Filter?, acceptsObjects: Bool = true, buildsElements: Bool = true) {
        self.filter = filter
        self.elementFilter = elementFilter
        self.acceptsObjects = acceptsObjects
        self.buildsElements = buildsElements
    }
}
