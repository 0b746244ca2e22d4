// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// `target[key]`, also `.name`. The key is evaluated on the original input
/// and is the outer loop, as in jq.
final class _IndexNode: _Node {
    let target: _Node
    let key: _Node
    /// `.[f]?`: an index that fails is passed over, and the next key tried.
    let guardsEach: Bool

    init(_ target: _Node, _ key: _Node, guardsEach: Bool = false) {
        self.target = target
        self.key = key
        self.guardsEach = guardsEach
        super.init(isSingle: target.isSingle && key.isSingle && !guardsEach)
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        let container = try target.value(input, frame)
        return try _Access.index(container, try key.value(input, frame))
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        if path == nil, isSingle { return try emit(try value(input, frame), nil) }
        let target = self.target, guardsEach = self.guardsEach
        try key.run(input, nil, frame) { key, _ in
            try target.run(input, path, frame) { container, containerPath in
                if let containerPath, _Node.isInvalid(containerPath) { throw _Node.invalidPathAccess(key, of: container) }
                let value: JSONValue
                do {
                    value = try containerPath == nil ? _Access.index(container, key) : _IndexNode.pathIndex(container, key)
                } catch is JSONFilterError where guardsEach {
                    return
                }
                try emit(value, containerPath.map { $0 + [key] })
            }
        }
    }

    /// `.[key]` while tracking paths: null stays null whatever the key.
    static func pathIndex(_ container: JSONValue, _ key: JSONValue) throws -> JSONValue {
        if case .null = container { return .null }
        return try _Access.index(container, key)
    }
}

/// `target[from:to]`: `from` is the outer loop, then `to`, then the target
/// (jq 1.8.2's order).
final class _SliceNode: _Node {
    let target: _Node
    let from: _Node?
    let to: _Node?
    /// `.[a:b]?`: a slice that fails is passed over; errors of the target
    /// and the bounds are not (jq's INDEX_OPT).
    let guardsEach: Bool

    init(_ target: _Node, _ from: _Node?, _ to: _Node?, guardsEach: Bool = false) {
        self.target = target
        self.from = from
        self.to = to
        self.guardsEach = guardsEach
        super.init(isSingle: target.isSingle && (from?.isSingle ?? true) && (to?.isSingle ?? true) && !guardsEach)
    }

    override func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        let container = try target.value(input, frame)
        let lower = try from?.value(input, frame) ?? .null
        let upper = try to?.value(input, frame) ?? .null
        return try _Access.slice(container, lower, upper)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        if path == nil, isSingle { return try emit(try value(input, frame), nil) }
        try bound(from, input, frame) { lower in
            try bound(to, input, frame) { upper in
                try target.run(input, path, frame) { [guardsEach] container, containerPath in
                    if let containerPath, _Node.isInvalid(containerPath) {
                        throw _Node.invalidPathAccess(_Access.sliceKey(lower, upper), of: container)
                    }
                    let sliced: JSONValue
                    do {
                        sliced = try _Access.slice(container, lower, upper)
                    } catch is JSONFilterError where guardsEach {
                        return
                    }
                    try emit(sliced, containerPath.map { $0 + [_Access.sliceKey(lower, upper)] })
                }
            }
        }
    }

    private func bound(_ node: _Node?, _ input: JSONValue, _ frame: _Frame,
                       _ body: (JSONValue) throws -> Void) throws {
        guard let node else { return try body(.null) }
        try node.run(input, nil, frame) { value, _ in try body(value) }
    }
}

/// `target[]`: array elements or object values.
final class _IterateNode: _Node {
    let target: _Node

    init(_ target: _Node) {
        self.target = target
        super.init(isSingle: false)
    }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        if path == nil, target.isSingle {
            return try _IterateNode.each(try target.value(input, frame), emit)
        }
        try target.run(input, path, frame) { container, containerPath in
            guard let containerPath else { return try _IterateNode.each(container, emit) }
            if _Node.isInvalid(containerPath) { throw _Node.invalidPathIterate(container) }
            try _IterateNode.eachWithPath(container, containerPath, emit)
        }
    }

    static func each(_ container: JSONValue, _ emit: _Emit) throws {
        switch container {
        case .array(let array): for element in array { try emit(element, nil) }
        case .object(let object): for value in object.values { try emit(value, nil) }
        default: throw JSONFilterError(message: "Cannot iterate over \(_describe(container))")
        }
    }

    static func eachWithPath(_ container: JSONValue, _ path: _Path, _ emit: _Emit) throws {
        switch container {
        case .array(let array):
            for (index, element) in array.enumerated() { try emit(element, path + [.number(JSONNumber(index))]) }
        case .object(let object):
            for (key, value) in object { try emit(value, path + [.string(key)]) }
        default:
            throw JSONFilterError(message: "Cannot iterate over \(_describe(container))")
        }
    }
}

/// `..`: the input, then everything inside it, depth first (`recurse`).
final class _RecurseAllNode: _Node {
    init() { super.init(isSingle: false) }

    override func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        try _RecurseAllNode.walk(input, path, emit)
    }

    static func walk(_ value: JSONValue, _ path: _Path?, _ emit: _Emit) throws {
        try emit(value, path)
        if let path, _Node.isInvalid(path) { return }
        switch value {
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                try walk(element, path.map { $0 + [.number(JSONNumber(index))] }, emit)
            }
        case .object(let object):
            for (key, member) in object { try walk(member, path.map { $0 + [.string(key)] }, emit) }
        default:
            break
        }
    }
}
