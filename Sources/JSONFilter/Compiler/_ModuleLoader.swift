// SPDX-License-Identifier: Apache-2.0
import Foundation
import StreamingJSON

/// Finds `import`/`include` targets as jq 1.8's linker does. An import
/// without a `search` key looks in `.` and then the library paths (`-L`);
/// one with `search` (a string or an array) looks there, relative entries
/// resolved against the importing module's directory (the program's origin
/// for the main program) and `$ORIGIN/` against the executable's. In each
/// directory: `PATH.jq`, then `PATH/jq/main.jq`, then `PATH/LAST.jq`
/// (`.json` for data).
struct _ModuleLoader {
    var searchPaths: [String]
    /// The directory of a program read from a file; nil for the working directory.
    var programDirectory: String?

    /// Where the program comes from (`get_prog_origin`), made absolute.
    var programOrigin: String { Self.realPath(programDirectory ?? FileManager.default.currentDirectoryPath) }

    /// The file for `path` with `suffix` (`jq` or `json`) along an import's
    /// search chain, or nil.
    func locate(_ path: String, suffix: String, search: JSONValue?, origin: String?) -> String? {
        locate(path, suffix: suffix, in: directories(search, origin: origin))
    }

    /// The file for `path` with `suffix` in the first of `directories` that has it.
    private func locate(_ path: String, suffix: String, in directories: [String]) -> String? {
        let last = (path as NSString).lastPathComponent
        for directory in directories {
            for candidate in ["\(path).\(suffix)", "\(path)/jq/main.\(suffix)", "\(path)/\(last).\(suffix)"] {
                let full = (directory as NSString).appendingPathComponent(candidate)
                var isDirectory: ObjCBool = false
                if unsafe FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                    return Self.realPath(full)
                }
            }
        }
        return nil
    }

    /// jq's search chain for one import.
    private func directories(_ search: JSONValue?, origin: String?) -> [String] {
        let requested: [String]
        switch search {
        case nil: requested = ["."] + searchPaths
        case .string(let one)?: requested = [one]
        case .array(let many)?: requested = many.compactMap { if case .string(let s) = $0 { s } else { nil } }
        default: requested = []
        }
        // Only an import's own search entries are relative to its origin.
        let base = search == nil ? nil : origin ?? programOrigin
        return requested.compactMap { Self.directory($0, relativeTo: base) }
    }

    /// One search entry as a directory: `~` and `$ORIGIN/` expanded, a
    /// relative one under `base` when there is one; nil for an empty entry.
    private static func directory(_ entry: String, relativeTo base: String?) -> String? {
        let path = (entry as NSString).expandingTildeInPath
        if path.isEmpty { return nil }
        if path == "." { return path }
        if path.hasPrefix("$ORIGIN/") { return executableOrigin + "/" + path.dropFirst("$ORIGIN/".count) }
        if let base, !path.hasPrefix("/") { return base + "/" + path }
        return path
    }

    func text(of file: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw JSONFilterError(message: "module not found: \(file)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The directory of the running executable (`get_jq_origin`).
    static var executableOrigin: String {
        let executable = Bundle.main.executablePath ?? CommandLine.arguments.first ?? "."
        return realPath((executable as NSString).deletingLastPathComponent)
    }

    static func realPath(_ path: String) -> String {
        guard let resolved = unsafe realpath(path, nil) else { return path }
        defer { unsafe free(resolved) }
        return unsafe String(cString: resolved)
    }
}

extension _ModuleLoader {
    /// jq's implicit `include "" {search: $HOME, optional: true}`: the
    /// definitions in the file `~/.jq`, when there is one.
    static var homeLibrary: _Import? {
        guard let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty else { return nil }
        let metadata = JSONObject([("optional", .bool(true)), ("search", .string(home))])
        return _Import(path: "", alias: nil, metadata: .object(metadata), column: 0)
    }

    /// Whether `~/.jq` is a file (which the command line includes).
    static var homeLibraryExists: Bool {
        guard let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty else { return false }
        var isDirectory: ObjCBool = false
        return unsafe FileManager.default.fileExists(atPath: home + "/.jq", isDirectory: &isDirectory)
            && !isDirectory.boolValue
    }

    /// `modulemeta`: a module's own metadata, then `deps` (each import's
    /// metadata with `as`, `is_data` and `relpath`) and `defs` (`name/arity`).
    func metadata(of input: JSONValue) throws -> JSONValue {
        guard case .string(let name) = input else {
            throw JSONFilterError(message: "modulemeta input module name must be a string")
        }
        // jq looks in the library paths only: it cannot know a caller's origin.
        let directories = searchPaths.compactMap { Self.directory($0, relativeTo: nil) }
        guard let file = locate(name, suffix: "jq", in: directories) else {
            throw JSONFilterError(message: "module not found: \(name)")
        }
        let module = try _Parser.parseProgram(try text(of: file))
        var result: JSONObject
        if case .object(let own)? = module.metadata { result = own } else { result = JSONObject() }
        result["deps"] = .array(module.imports.map(Self.dependency))
        result["defs"] = .array(module.definitions.map { .string("\($0.name)/\($0.arity)") })
        return .object(result)
    }

    private static func dependency(_ directive: _Import) -> JSONValue {
        var entry: JSONObject
        if case .object(let metadata)? = directive.metadata { entry = metadata } else { entry = JSONObject() }
        if let alias = directive.alias { entry["as"] = .string(directive.isData ? String(alias.dropFirst()) : alias) }
        entry["is_data"] = .bool(directive.isData)
        entry["relpath"] = .string(directive.path)
        return .object(entry)
    }

    static let builtinNames = ["modulemeta/0", "get_search_list/0", "get_prog_origin/0", "get_jq_origin/0"]

    /// The built-ins that answer from the module system, nil for any other name.
    func builtin(_ name: String, arity: Int) -> _Node? {
        guard arity == 0 else { return nil }
        switch name {
        case "modulemeta": return _NativeNode { input, path, _, emit in try emit(self.metadata(of: input), _Node.computed(path)) }
        case "get_search_list": return constant(.array(searchPaths.map(JSONValue.string)))
        case "get_prog_origin": return constant(.string(programOrigin))
        case "get_jq_origin": return constant(.string(Self.executableOrigin))
        default: return nil
        }
    }

    private func constant(_ value: JSONValue) -> _Node {
        _NativeNode { _, path, _, emit in try emit(value, _Node.computed(path)) }
    }
}

extension _Compiler {
    /// Brings a program's imports into scope: a module's definitions
    /// (under `alias::` for `import`, bare for `include`), or a data file's
    /// values as `$alias::alias`.
    mutating func importModules(_ imports: [_Import], _ scope: _Scope, _ level: _Level,
                                slots: inout [JSONValue], origin: String? = nil) throws -> _Scope {
        var scope = scope
        for directive in imports {
            if directive.isData {
                let name = String(directive.alias!.dropFirst())
                guard let file = modules.locate(directive.path, suffix: "json", search: directive.metadata?["search"],
                                                origin: origin) else {
                    throw JSONFilterError(message: "module not found: \(directive.path)", column: directive.column)
                }
                var values: [JSONValue] = []
                let text = try modules.text(of: file)
                try StreamingJSONDecoder().elements(of: JSONValue.self, from: Data(text.utf8), format: .jsonLines)
                    .forEach { values.append($0) }
                let slot = level.newSlot()
                slots.append(.array(values))
                scope = scope.adding(.variable("\(name)::\(name)", slot: slot), depth: level.depth)
                scope = scope.adding(.variable(name, slot: slot), depth: level.depth)
                continue
            }
            guard let file = modules.locate(directive.path, suffix: "jq", search: directive.metadata?["search"],
                                            origin: origin) else {
                if case .bool(true)? = directive.metadata?["optional"] { continue }
                throw JSONFilterError(message: "module not found: \(directive.path)", column: directive.column)
            }
            let module = try _Parser.parseProgram(try modules.text(of: file))
            var moduleScope = try importModules(module.imports, _Scope(nil, depth: level.depth, next: nil), level,
                                                slots: &slots, origin: (file as NSString).deletingLastPathComponent)
            for definition in module.definitions {
                let function = _Function(name: definition.name, arity: definition.arity)
                moduleScope = moduleScope.adding(.function(function), depth: level.depth)
                try define(function, definition, moduleScope, level)
                let exported: _Function
                if let alias = directive.alias {
                    exported = _Function(name: "\(alias)::\(definition.name)", arity: definition.arity)
                    exported.body = function.body
                    exported.slotCount = function.slotCount
                    exported.valueParameters = function.valueParameters
                    functions.append(exported)
                } else {
                    exported = function
                }
                scope = scope.adding(.function(exported), depth: level.depth)
            }
        }
        return scope
    }
}
