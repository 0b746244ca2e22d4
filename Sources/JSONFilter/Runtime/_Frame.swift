// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

// How a running program keeps its variables.
//
// A filter is a generator that hands each output to a continuation (the
// `emit` closure), so everything a binding's body does with one value —
// including the rest of the program downstream — has finished before the
// binding takes its next value. Variables can therefore live in mutable
// slots, overwritten per value, instead of a new environment per binding:
//
//     _Frame: one per activation of a `def` (and of a lambda that binds
//     variables), slots for its `$params` and the variables its body binds,
//     plus the closures of its filter parameters; `parent` is the frame the
//     definition was made in (static link), so `up` hops reach any
//     enclosing variable.
//
// The one way to re-enter a binding before its body has finished is to run
// the same code again from inside it: recursion (a new frame per call) or a
// lambda run from inside its own output (`recurse(f)`, `def f(g): g | g`).
// That is why a lambda that binds variables gets a frame of its own each
// time it runs, and one that binds none runs in the frame it was made in.

/// One activation's variables and filter parameters.
final class _Frame {
    let parent: _Frame?
    var slots: [JSONValue]
    let closures: [_Closure]
    let context: JSONFilterContext

    init(parent: _Frame?, slotCount: Int, closures: [_Closure], context: JSONFilterContext) {
        self.parent = parent
        self.slots = slotCount == 0 ? [] : Array(repeating: .null, count: slotCount)
        self.closures = closures
        self.context = context
    }

    /// The frame `hops` static links up.
    @inline(__always)
    func ancestor(_ hops: Int) -> _Frame {
        var frame = self
        for _ in 0..<hops { frame = frame.parent! }
        return frame
    }
}

/// A filter argument's code: run in the caller's frame when it binds no
/// variables (`slotCount == nil`), else in a new frame under it.
final class _Lambda {
    var body: _Node
    let slotCount: Int?

    init(body: _Node, slotCount: Int?) {
        self.body = body
        self.slotCount = slotCount
    }

    @inline(__always)
    func frame(in frame: _Frame) -> _Frame {
        guard let slotCount else { return frame }
        return _Frame(parent: frame, slotCount: slotCount, closures: [], context: frame.context)
    }

    @inline(__always)
    func run(_ input: JSONValue, _ path: _Path?, _ frame: _Frame, _ emit: _Emit) throws {
        try body.run(input, path, self.frame(in: frame), emit)
    }

    /// The single output of a lambda known to produce exactly one.
    @inline(__always)
    func value(_ input: JSONValue, _ frame: _Frame) throws -> JSONValue {
        try body.value(input, self.frame(in: frame))
    }

    var isSingle: Bool { body.isSingle }
}

/// A filter parameter bound at a call: the argument's code and the frame
/// of the call site.
struct _Closure {
    let lambda: _Lambda
    let frame: _Frame
}

/// Thrown by `break $label` (and by the early stops of `first`, `limit`,
/// …); caught only by the activation whose token it carries.
struct _Break: Error {
    /// The label activation's number (`_Runtime.newLabel()`).
    let label: Int

    /// The error jq raises for it: the label's value, numbered from 0 in
    /// the order labels ran (jq's `GENLABEL`).
    var errorValue: JSONValue { _Break.labelValue(label) }

    static func labelValue(_ label: Int) -> JSONValue {
        var object = JSONObject()
        object["__jq"] = .number(JSONNumber(label - 1))
        return .object(object)
    }
}

/// Thrown by `halt` and `halt_error`: ends the program with an exit code.
public struct JSONFilterHalt: Error, Sendable {
    /// The process exit status jq would use.
    public let exitCode: Int32
    /// `halt_error`'s value (printed to stderr: a string raw, anything else
    /// as JSON with a newline); nil for `halt`.
    public let value: JSONValue?
}
