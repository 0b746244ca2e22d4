// SPDX-License-Identifier: Apache-2.0
/// Which nodes give exactly one output, once calls are known.
///
/// A node's `isSingle` is set from its children when it is built, but a
/// call of a `def` is built before the definition's body is known (it may
/// be recursive). This pass revises them: every function is first assumed
/// single, then the tree is re-evaluated until nothing changes (the
/// greatest fixed point: a function is single when each of its branches
/// gives one output or recurses into single calls). A single call is
/// evaluated by returning its value, so `ack($m-1; ack($m; $n-1))` does not
/// keep a continuation per call on the stack.
enum _Singleness {
    static func revise(_ roots: [_Node]) {
        var nodes: [_Node] = []
        var functions: [_Function] = []
        collect(roots, &nodes, &functions)
        for function in functions { function.isSingle = true }
        var changed = true
        while changed {
            changed = false
            for node in nodes {
                let single = computeSingle(node)
                if single != node.isSingle {
                    node.isSingle = single
                    changed = true
                }
            }
            for function in functions where function.isSingle && !function.body.isSingle {
                function.isSingle = false
                changed = true
            }
        }
    }

    /// Every node reachable from `roots`, children before parents, and the
    /// functions their calls reach.
    private static func collect(_ roots: [_Node], _ nodes: inout [_Node], _ functions: inout [_Function]) {
        var seen = Set<ObjectIdentifier>()
        var seenFunctions = Set<ObjectIdentifier>()
        var stack: [(node: _Node, expanded: Bool)] = roots.reversed().map { ($0, false) }
        while let (node, expanded) = stack.popLast() {
            if expanded {
                nodes.append(node)
                continue
            }
            guard seen.insert(ObjectIdentifier(node)).inserted else { continue }
            stack.append((node, true))
            if let call = node as? _CallNode, unsafe seenFunctions.insert(ObjectIdentifier(call.function)).inserted {
                unsafe functions.append(call.function)
                unsafe stack.append((call.function.body, false))
            }
            for child in children(of: node).reversed() { stack.append((child, false)) }
        }
    }

    static func children(of node: _Node) -> [_Node] {
        switch node {
        case let n as _PipeNode: return [n.left, n.right]
        case let n as _CommaNode: return [n.left, n.right]
        case let n as _ArrayNode: return n.body.map { [$0] } ?? []
        case let n as _TryNode: return [n.body] + (n.handler.map { [$0] } ?? [])
        case let n as _IndexNode: return [n.target, n.key]
        case let n as _SliceNode: return [n.target] + [n.from, n.to].compactMap { $0 }
        case let n as _IterateNode: return [n.target]
        case let n as _BinaryNode: return [n.left, n.right]
        case let n as _LogicNode: return [n.left, n.right]
        case let n as _AlternativeNode: return [n.left, n.right]
        case let n as _NegateNode: return [n.body]
        case let n as _ConditionalNode: return [n.condition, n.then, n.otherwise]
        case let n as _ObjectNode:
            return n.entries.flatMap { entry -> [_Node] in
                switch entry.key {
                case .name: return [entry.value]
                case .computed(let key), .computedMember(let key): return [key, entry.value]
                }
            }
        case let n as _InterpolationNode:
            return n.pieces.compactMap { if case .node(let inner) = $0 { return inner } else { return nil } }
        case let n as _BindNode: return [n.source, n.body] + n.binders.flatMap(binderNodes)
        case let n as _ReduceNode: return [n.source, n.initial, n.update] + binderNodes(n.binder)
        case let n as _ForeachNode:
            return [n.source, n.initial, n.update] + (n.extract.map { [$0] } ?? []) + binderNodes(n.binder)
        case let n as _LabelNode: return [n.body]
        case let n as _CallNode: return n.arguments.map(\.body)
        case let n as _AssignNode: return [n.lhs, n.rhs]
        case let n as _ValueFunctionNode: return n.arguments.map(\.body)
        case let n as _NativeNode: return n.arguments.map(\.body)
        default: return []
        }
    }

    private static func binderNodes(_ binder: _Binder) -> [_Node] {
        switch binder {
        case .slot, .ignore: return []
        case .branching(let pattern): return binderNodes(pattern)
        case .array(let elements): return elements.flatMap(binderNodes)
        case .object(let entries):
            return entries.flatMap { entry -> [_Node] in
                var nodes: [_Node] = []
                if case .computed(let key) = entry.key { nodes.append(key) }
                if let value = entry.value { nodes += binderNodes(value) }
                return nodes
            }
        }
    }

    /// A node's singleness from its children's current values; nodes whose
    /// answer cannot change keep theirs.
    private static func computeSingle(_ node: _Node) -> Bool {
        switch node {
        case let n as _PipeNode: return n.left.isSingle && n.right.isSingle
        case let n as _IndexNode: return n.target.isSingle && n.key.isSingle && !n.guardsEach
        case let n as _SliceNode:
            return n.target.isSingle && (n.from?.isSingle ?? true) && (n.to?.isSingle ?? true) && !n.guardsEach
        case let n as _BinaryNode: return n.left.isSingle && n.right.isSingle
        case let n as _LogicNode: return n.left.isSingle && n.right.isSingle
        case let n as _AlternativeNode: return n.left.isSingle && n.right.isSingle
        case let n as _NegateNode: return n.body.isSingle
        case let n as _ConditionalNode: return n.condition.isSingle && n.then.isSingle && n.otherwise.isSingle
        case let n as _ObjectNode: return children(of: n).allSatisfy(\.isSingle)
        case let n as _InterpolationNode: return children(of: n).allSatisfy(\.isSingle)
        case let n as _ReduceNode: return n.initial.isSingle
        case let n as _AssignNode:
            if case .update = n.kind { return true }
            return n.rhs.isSingle
        case let n as _ValueFunctionNode: return n.arguments.allSatisfy(\.isSingle)
        case let n as _CallNode:
            return unsafe n.function.isSingle && n.function.valueParameters.allSatisfy { n.arguments[$0.closure].isSingle }
        default: return node.isSingle
        }
    }
}
