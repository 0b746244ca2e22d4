// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// What a name means at one point of the program: a variable slot, a
/// `def`, a filter parameter or a label, with the frame level it lives in.
/// Scopes are a persistent list: an inner scope adds entries in front.
final class _Scope {
    enum Entry {
        case variable(String, slot: Int)
        case function(_Function)
        case parameter(String, index: Int)
        case label(String, slot: Int)
    }

    let entry: Entry?
    let depth: Int
    let next: _Scope?

    init(_ entry: Entry?, depth: Int, next: _Scope?) {
        self.entry = entry
        self.depth = depth
        self.next = next
    }

    func adding(_ entry: Entry, depth: Int) -> _Scope {
        _Scope(entry, depth: depth, next: self)
    }
}

/// A frame level being compiled: how many slots its frames need.
final class _Level {
    let depth: Int
    var slotCount = 0

    init(depth: Int) {
        self.depth = depth
    }

    func newSlot() -> Int {
        slotCount += 1
        return slotCount - 1
    }
}

/// Turns a parsed filter into the node tree: resolves every name to a
/// slot, a definition, a parameter or a built-in, and gives each frame
/// level its slot count.
struct _Compiler {
    /// Modules by path, loaded through the library paths.
    var modules: _ModuleLoader
    /// Built-ins defined in jq (`_Prelude`), compiled when first called.
    var prelude: _PreludeLibrary
    /// Every function compiled: what keeps them alive (calls do not).
    var functions: [_Function] = []
    /// The Swift built-ins the program calls, as `name/arity`.
    var nativeCalls: Set<String> = []

    init(modules: _ModuleLoader) {
        self.modules = modules
        self.prelude = _PreludeLibrary()
    }

    // MARK: Names

    func lookupVariable(_ name: String, _ scope: _Scope) -> (depth: Int, slot: Int)? {
        var current: _Scope? = scope
        while let node = current {
            if case .variable(let candidate, let slot)? = node.entry, candidate == name { return (node.depth, slot) }
            current = node.next
        }
        return nil
    }

    func lookupLabel(_ name: String, _ scope: _Scope) -> (depth: Int, slot: Int)? {
        var current: _Scope? = scope
        while let node = current {
            if case .label(let candidate, let slot)? = node.entry, candidate == name { return (node.depth, slot) }
            current = node.next
        }
        return nil
    }

    enum Callee {
        case function(_Function, depth: Int)
        case parameter(index: Int, depth: Int)
    }

    func lookupFunction(_ name: String, arity: Int, _ scope: _Scope) -> Callee? {
        var current: _Scope? = scope
        while let node = current {
            switch node.entry {
            case .function(let function)? where function.name == name && function.arity == arity:
                return .function(function, depth: node.depth)
            case .parameter(let candidate, let index)? where candidate == name && arity == 0:
                return .parameter(index: index, depth: node.depth)
            default:
                break
            }
            current = node.next
        }
        return nil
    }

    // MARK: Filters

    mutating func compile(_ filter: _Filter, _ scope: _Scope, _ level: _Level) throws -> _Node {
        switch filter {
        case .identity:
            return _IdentityNode()
        case .recurseAll:
            return _RecurseAllNode()
        case .literal(let value):
            return _LiteralNode(value)
        case .index(let target, let key):
            return _IndexNode(try compile(target, scope, level), try compile(key, scope, level))
        case .slice(let target, let from, let to):
            return _SliceNode(try compile(target, scope, level), try from.map { try compile($0, scope, level) },
                              try to.map { try compile($0, scope, level) })
        case .iterate(let target):
            return _IterateNode(try compile(target, scope, level))
        case .optional(.index(let target, let key)):
            // jq's INDEX_OPT: an index that fails is passed over (`.["a", 0]?`
            // on an array gives `.[0]`); errors of the target or the key are not.
            return _IndexNode(try compile(target, scope, level), try compile(key, scope, level), guardsEach: true)
        case .optional(.slice(let target, let from, let to)):
            return _SliceNode(try compile(target, scope, level), try from.map { try compile($0, scope, level) },
                              try to.map { try compile($0, scope, level) }, guardsEach: true)
        case .optional(let body):
            return _TryNode(try compile(body, scope, level), handler: nil)
        case .tryCatch(let body, let handler):
            return _TryNode(try compile(body, scope, level),
                            handler: try handler.map { try compile($0, scope, level) } ?? _EmptyNode())
        case .string(let pieces, let format):
            let compiled: [_InterpolationNode.Piece] = try pieces.map { piece in
                switch piece {
                case .text(let text): return .text(text)
                case .filter(let inner): return .node(try compile(inner, scope, level))
                }
            }
            return _InterpolationNode(compiled, format: format)
        case .format(let name):
            return _FormatNode(name)
        case .array(let body):
            return _ArrayNode(try body.map { try compile($0, scope, level) })
        case .object(let entries):
            return _ObjectNode(try entries.map { entry in
                let key: _ObjectNode.Key
                switch entry.key {
                case .name(let name): key = .name(name)
                case .computed(let f): key = .computed(try compile(f, scope, level))
                case .computedMember(let f): key = .computedMember(try compile(f, scope, level))
                }
                return (key, try compile(entry.value, scope, level))
            })
        case .pipe(let left, let right):
            return _PipeNode(try compile(left, scope, level), try compile(right, scope, level))
        case .comma(let left, let right):
            return _CommaNode(try compile(left, scope, level), try compile(right, scope, level))
        case .arithmetic(let op, let left, let right):
            var addsToInput = false
            if op == .add, case .identity = left { addsToInput = true }
            return _BinaryNode(try compile(left, scope, level), try compile(right, scope, level), _BinaryNode.operation(op),
                               addsToInput: addsToInput)
        case .comparison(let op, let left, let right):
            return _BinaryNode(try compile(left, scope, level), try compile(right, scope, level), _BinaryNode.operation(op))
        case .and(let left, let right):
            return _LogicNode(try compile(left, scope, level), try compile(right, scope, level), isAnd: true)
        case .or(let left, let right):
            return _LogicNode(try compile(left, scope, level), try compile(right, scope, level), isAnd: false)
        case .alternative(let left, let right):
            return _AlternativeNode(try compile(left, scope, level), try compile(right, scope, level))
        case .negate(let body):
            return _NegateNode(try compile(body, scope, level))
        case .conditional(let branches, let otherwise):
            var result = try otherwise.map { try compile($0, scope, level) } ?? _IdentityNode()
            for branch in branches.reversed() {
                result = _ConditionalNode(try compile(branch.condition, scope, level),
                                          then: try compile(branch.then, scope, level), otherwise: result)
            }
            return result
        default:
            return try compileScoped(filter, scope, level)
        }
    }

    /// The constructs that bind names.
    private mutating func compileScoped(_ filter: _Filter, _ scope: _Scope, _ level: _Level) throws -> _Node {
        switch filter {
        case .bind(let source, let patterns, let body):
            let sourceNode = try compile(source, scope, level)
            var inner = scope
            var slots: [String: Int] = [:]
            for name in patterns.flatMap(\.variables) where slots[name] == nil {
                let slot = level.newSlot()
                slots[name] = slot
                inner = inner.adding(.variable(name, slot: slot), depth: level.depth)
            }
            // With alternatives (`?//`) every binding is made and the last
            // one made wins, as in jq; alone, a pattern keeps the first.
            let binders = try patterns.map { pattern in
                var bound: Set<String>? = patterns.count == 1 ? [] : nil
                return _Binder.whole(try binder(pattern, slots, &bound, scope, level))
            }
            return _BindNode(source: sourceNode, binders: binders, allSlots: Array(slots.values),
                             body: try compile(body, inner, level))
        case .reduce(let source, let pattern, let initial, let update):
            let (inner, binder) = try bindPattern(pattern, scope, level)
            return _ReduceNode(source: try compile(source, scope, level), binder: binder,
                               initial: try compile(initial, scope, level), update: try compile(update, inner, level))
        case .foreach(let source, let pattern, let initial, let update, let extract):
            let (inner, binder) = try bindPattern(pattern, scope, level)
            return _ForeachNode(source: try compile(source, scope, level), binder: binder,
                                initial: try compile(initial, scope, level), update: try compile(update, inner, level),
                                extract: try extract.map { try compile($0, inner, level) })
        case .label(let name, let body):
            let slot = level.newSlot()
            let inner = scope.adding(.label(name, slot: slot), depth: level.depth)
            return _LabelNode(slot: slot, body: try compile(body, inner, level))
        case .breakLabel(let name, let column):
            guard let found = lookupLabel(name, scope) else {
                throw JSONFilterError(message: "$*label-\(name) is not defined", column: column)
            }
            return _BreakNode(up: level.depth - found.depth, slot: found.slot)
        case .variable(let name, let column):
            return try variable(name, column: column, scope, level)
        case .call(let name, let arguments, let column):
            return try call(name, arguments, column: column, scope, level)
        case .define(let definition, let rest):
            let function = _Function(name: definition.name, arity: definition.arity)
            let inner = scope.adding(.function(function), depth: level.depth)
            try define(function, definition, inner, level)
            return try compile(rest, inner, level)
        case .assign(let op, let lhs, let rhs):
            return try _AssignNode.make(op, lhs: try compile(lhs, scope, level), rhs: try compile(rhs, scope, level))
        default:
            fatalError("unreachable: \(filter)")
        }
    }

    private mutating func variable(_ name: String, column: Int, _ scope: _Scope, _ level: _Level) throws -> _Node {
        if let found = lookupVariable(name, scope) {
            return _VariableNode(up: level.depth - found.depth, slot: found.slot)
        }
        switch name {
        case "ENV": return _ContextValueNode(.environment)
        case "ARGS": return _ContextValueNode(.arguments)
        default: throw JSONFilterError(message: "$\(name) is not defined", column: column)
        }
    }

    /// Compiles a `def` body in a level of its own.
    mutating func define(_ function: _Function, _ definition: _FunctionDefinition, _ scope: _Scope,
                         _ level: _Level) throws {
        functions.append(function)
        let bodyLevel = _Level(depth: level.depth + 1)
        var inner = scope
        for (index, parameter) in definition.parameters.enumerated() {
            if parameter.hasPrefix("$") {
                let name = String(parameter.dropFirst())
                let slot = bodyLevel.newSlot()
                function.valueParameters.append((index, slot))
                inner = inner.adding(.parameter(name, index: index), depth: bodyLevel.depth)
                inner = inner.adding(.variable(name, slot: slot), depth: bodyLevel.depth)
            } else {
                inner = inner.adding(.parameter(parameter, index: index), depth: bodyLevel.depth)
            }
        }
        function.body = try compile(definition.body, inner, bodyLevel)
        function.slotCount = bodyLevel.slotCount
    }

    private mutating func call(_ name: String, _ arguments: [_Filter], column: Int, _ scope: _Scope,
                               _ level: _Level) throws -> _Node {
        if let callee = lookupFunction(name, arity: arguments.count, scope) {
            switch callee {
            case .function(let function, let depth):
                return _CallNode(function, up: level.depth - depth,
                                 arguments: try arguments.map { try lambda($0, scope, level) })
            case .parameter(let index, let depth):
                return _ClosureCallNode(up: level.depth - depth, index: index)
            }
        }
        let lambdas = try arguments.map { try lambda($0, scope, level) }
        if let native = try _Natives.make(name, lambdas, column: column) {
            nativeCalls.insert("\(name)/\(arguments.count)")
            return native
        }
        if let native = modules.builtin(name, arity: arguments.count) { return native }
        if let function = try prelude.function(name, arity: arguments.count, compiler: &self) {
            return _CallNode(function, up: level.depth, arguments: lambdas)
        }
        throw JSONFilterError(message: "\(name)/\(arguments.count) is not defined", column: column)
    }

    /// An argument: compiled in the caller's level when it binds no
    /// variables, else in a level of its own (see `_Frame`).
    mutating func lambda(_ filter: _Filter, _ scope: _Scope, _ level: _Level) throws -> _Lambda {
        guard _Compiler.bindsVariables(filter) else {
            return _Lambda(body: try compile(filter, scope, level), slotCount: nil)
        }
        let inner = _Level(depth: level.depth + 1)
        let body = try compile(filter, scope, inner)
        return _Lambda(body: body, slotCount: inner.slotCount)
    }

    /// Whether `filter` binds a variable or label in its own level (not
    /// counting the bodies of `def`s and the arguments of calls, which have
    /// levels of their own when they need them).
    static func bindsVariables(_ filter: _Filter) -> Bool {
        switch filter {
        case .bind, .reduce, .foreach, .label:
            return true
        case .identity, .recurseAll, .literal, .format, .breakLabel, .variable, .call:
            return false
        case .index(let a, let b), .pipe(let a, let b), .comma(let a, let b), .arithmetic(_, let a, let b),
             .comparison(_, let a, let b), .and(let a, let b), .or(let a, let b), .alternative(let a, let b),
             .assign(_, let a, let b):
            return bindsVariables(a) || bindsVariables(b)
        case .slice(let a, let b, let c):
            return bindsVariables(a) || (b.map(bindsVariables) ?? false) || (c.map(bindsVariables) ?? false)
        case .iterate(let a), .optional(let a), .negate(let a):
            return bindsVariables(a)
        case .tryCatch(let a, let b):
            return bindsVariables(a) || (b.map(bindsVariables) ?? false)
        case .string(let pieces, _):
            return pieces.contains { if case .filter(let f) = $0 { return bindsVariables(f) } else { return false } }
        case .array(let body):
            return body.map(bindsVariables) ?? false
        case .object(let entries):
            return entries.contains { entry in
                if bindsVariables(entry.value) { return true }
                switch entry.key {
                case .name: return false
                case .computed(let f), .computedMember(let f): return bindsVariables(f)
                }
            }
        case .conditional(let branches, let otherwise):
            return branches.contains { bindsVariables($0.condition) || bindsVariables($0.then) }
                || (otherwise.map(bindsVariables) ?? false)
        case .define(_, let rest):
            return bindsVariables(rest)
        }
    }

    // MARK: Patterns

    private mutating func bindPattern(_ pattern: _Pattern, _ scope: _Scope, _ level: _Level) throws -> (_Scope, _Binder) {
        var inner = scope
        var slots: [String: Int] = [:]
        for name in pattern.variables where slots[name] == nil {
            let slot = level.newSlot()
            slots[name] = slot
            inner = inner.adding(.variable(name, slot: slot), depth: level.depth)
        }
        var bound: Set<String>? = []
        return (inner, _Binder.whole(try binder(pattern, slots, &bound, scope, level)))
    }

    /// `bound`: the variables bound so far, in the order jq binds them: an
    /// array's elements from the last to the first, an object's entries in
    /// order, each nested pattern after its key. A variable that appears
    /// twice keeps its first binding in that order, as in jq 1.8.2
    /// (`[1,2] as [$a, $a]` gives 2, `{"a":1,"b":2} as {a: $x, b: $x}` gives 1);
    /// nil binds every appearance.
    private mutating func binder(_ pattern: _Pattern, _ slots: [String: Int], _ bound: inout Set<String>?,
                                 _ scope: _Scope, _ level: _Level) throws -> _Binder {
        func isFirst(_ name: String) -> Bool { bound?.insert(name).inserted ?? true }
        switch pattern {
        case .variable(let name):
            return isFirst(name) ? .slot(slots[name]!) : .ignore
        case .array(let elements):
            var binders: [_Binder] = []
            for element in elements.reversed() {
                binders.append(try binder(element, slots, &bound, scope, level))
            }
            return .array(binders.reversed())
        case .object(let entries):
            return .object(try entries.map { entry in
                let key: _BinderKey, slot: Int?
                switch entry.key {
                case .variable(let name): (key, slot) = (.name(name), isFirst(name) ? slots[name] : nil)
                case .name(let name): (key, slot) = (.name(name), nil)
                case .computed(let f): (key, slot) = (.computed(try compile(f, scope, level)), nil)
                }
                return (key, slot, try entry.value.map { try binder($0, slots, &bound, scope, level) })
            })
        }
    }
}
