// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// A jq program, compiled once and applied to any number of values.
///
/// ```swift
/// let filter = try JSONFilter("select(.abv > 8) | {name, style}")
/// let beer: JSONValue = ["name": "Oak", "abv": 9.5, "style": "stout"]
/// for result in try filter.apply(to: beer) {
///     print(result)   // {"name":"Oak","style":"stout"}
/// }
/// ```
///
/// With `StreamingJSONDecoder` it filters a huge array one element at a
/// time, as `jsonstream` does:
///
/// ```swift
/// let decoder = StreamingJSONDecoder()
/// for try await beer in decoder.elements(of: JSONValue.self, contentsOf: dumpURL) {
///     try filter.apply(to: beer) { print($0) }
/// }
/// ```
///
/// The language is jq 1.8's: paths, pipes, comma, literals, array and
/// object construction, arithmetic and comparison with jq's meaning per
/// type, `def` with filter and `$value` parameters, recursion, assignment
/// (`=`, `|=`, `+=`, …), destructuring and `?//`, `reduce`, `foreach`,
/// `label`/`break`, `try`/`catch`, string interpolation and `@formats`,
/// modules (`import`, `include`) and jq's library of built-ins (regular
/// expressions through Oniguruma, jq's own engine). Numbers keep their
/// literal text until arithmetic touches them, as jq 1.8 does.
///
/// A compiled filter is immutable and `Sendable`: apply it from any number
/// of threads.
public struct JSONFilter: @unchecked Sendable {
    let program: _Program
    /// The parsed text, for the demand analysis.
    let root: _Filter

    /// Whether the program is `.` (definitions aside): each input is its one
    /// output, which `jsonstream` then copies from the tape, never built.
    package var isIdentity: Bool {
        if case .identity = root { return true }
        return false
    }
    /// What it was compiled from, for the planner's rewritten forms.
    let origin: _FilterOrigin

    /// Compiles `source`. `arguments` are the `$name` variables (`--arg`,
    /// `--argjson`); `libraryPaths` are where `import` and `include` look.
    ///
    /// ```swift
    /// let filter = try JSONFilter("select(.abv > $min)", arguments: ["min": 8])
    /// ```
    ///
    /// - Throws: `JSONFilterError` with the `column` of the offending construct;
    ///   without one for a program with no query (empty, or only definitions).
    public init(_ source: String, arguments: [String: JSONValue] = [:], libraryPaths: [String] = []) throws {
        try self.init(source, arguments: arguments, libraryPaths: libraryPaths, includesHomeLibrary: false)
    }

    /// As the public initializer; with `includesHomeLibrary`, the definitions
    /// in `~/.jq` (when it is a file) come first, as jq's command line
    /// includes them. `programDirectory` is where the program comes from
    /// (a `-f` file's directory; the working directory when nil): what
    /// `get_prog_origin` says and what relative `search` paths start from.
    package init(_ source: String, arguments: [String: JSONValue], libraryPaths: [String],
                 includesHomeLibrary: Bool, programDirectory: String? = nil) throws {
        var parsed = try _Parser.parseProgram(source)
        // jq's own compile error, before any module is looked for.
        guard parsed.hasQuery else { throw JSONFilterError(compileErrorWithoutPlace: "Top-level program not given (try \".\")") }
        if includesHomeLibrary, let home = _ModuleLoader.homeLibrary { parsed.imports.insert(home, at: 0) }
        root = parsed.filter
        let modules = _ModuleLoader(searchPaths: libraryPaths, programDirectory: programDirectory)
        program = try _Program(parsed, arguments: arguments, modules: modules)
        origin = _FilterOrigin(parsed: parsed, arguments: arguments, modules: modules)
    }

    /// Compiles a program parsed elsewhere (the planner's rewritten form)
    /// with the arguments and modules of `origin`.
    init(parsed: _ParsedProgram, origin: _FilterOrigin) throws {
        root = parsed.filter
        program = try _Program(parsed, arguments: origin.arguments, modules: origin.modules)
        self.origin = _FilterOrigin(parsed: parsed, arguments: origin.arguments, modules: origin.modules)
    }

    /// Every output of the filter for `input`, in order.
    ///
    /// - Throws: `JSONFilterError` on a runtime error (`error(…)`, a type
    ///   mismatch); `JSONFilterHalt` from `halt` and `halt_error`.
    public func apply(to input: JSONValue) throws -> [JSONValue] {
        var results: [JSONValue] = []
        try apply(to: input) { results.append($0) }
        return results
    }

    /// Hands each output to `emit` as soon as it is produced. An error thrown
    /// by `emit` stops the filter and is rethrown unchanged.
    public func apply(to input: JSONValue, emit: (JSONValue) throws -> Void) throws {
        try program.run(input, context: nil, emit)
    }

    /// Whether the program reads the input stream beyond its input
    /// (`input`, `inputs`) or asks where its input is (`input_line_number`).
    package var readsTheInputStream: Bool {
        !program.nativeCalls.isDisjoint(with: ["input/0", "inputs/0", "input_line_number/0"])
    }

    /// Whether each input's results depend on that input alone and write
    /// nothing besides them: no `input`, `inputs` or `input_line_number`, no
    /// `debug` or `stderr` messages, no `halt`. Such a program may run on
    /// several inputs at once, on several threads, each with its own copy.
    package var isElementLocal: Bool {
        program.nativeCalls.isDisjoint(with: ["input/0", "inputs/0", "input_line_number/0", "debug/0", "stderr/0",
                                              "halt/0", "halt_error/1", "_streamed_elements/0"])
    }

    /// The same program compiled again: a copy that shares no state with this
    /// one, for another thread.
    package func independentCopy() throws -> JSONFilter {
        try JSONFilter(parsed: origin.parsed, origin: origin)
    }

    /// Runs the filter with a context: the rest of the input stream for
    /// `input`/`inputs`, the environment, `input_filename`, where `debug`
    /// and `stderr` write.
    public func apply(to input: JSONValue, context: JSONFilterContext, emit: (JSONValue) throws -> Void) throws {
        try program.run(input, context: context, emit)
    }
}

/// The parsed program and what it was compiled with.
struct _FilterOrigin {
    let parsed: _ParsedProgram
    let arguments: [String: JSONValue]
    let modules: _ModuleLoader
}

/// A compiled program: its node tree and what its root frame holds.
final class _Program {
    let body: _Node
    /// Every `def` the program uses, its own and the prelude's: calls do
    /// not retain their function, so this does.
    let functions: [_Function]
    let slotCount: Int
    /// Values of the root frame's first slots: `--arg` values, imported data.
    let initialSlots: [JSONValue]
    /// The Swift built-ins the program calls, as `name/arity`.
    let nativeCalls: Set<String>

    init(_ parsed: _ParsedProgram, arguments: [String: JSONValue], modules: _ModuleLoader) throws {
        var compiler = _Compiler(modules: modules)
        let level = _Level(depth: 0)
        var scope = _Scope(nil, depth: 0, next: nil)
        var slots: [JSONValue] = []
        for (name, value) in arguments.sorted(by: { $0.key < $1.key }) {
            scope = scope.adding(.variable(name, slot: level.newSlot()), depth: 0)
            slots.append(value)
        }
        scope = try compiler.importModules(parsed.imports, scope, level, slots: &slots)
        body = try compiler.compile(parsed.filter, scope, level)
        _Singleness.revise([body])
        functions = compiler.functions
        nativeCalls = compiler.nativeCalls
        slotCount = level.slotCount
        initialSlots = slots
    }

    func run(_ input: JSONValue, context: JSONFilterContext?, _ emit: (JSONValue) throws -> Void) throws {

        // A frame per run: the root frame holds the arguments and the
        // program's top-level variables.
        let frame = _Frame(parent: nil, slotCount: slotCount, closures: [], context: context ?? JSONFilterContext())
        for (index, value) in initialSlots.enumerated() { frame.slots[index] = value }
        do {
            try body.run(input, nil, frame) { value, _ in try emit(value) }
        } catch let stop as _Break {
            _ = stop
            throw JSONFilterError(message: "break")
        }
    }
}
