import Foundation
import StreamingJSON

/// Finds and parses `import`/`include` targets along the library search
/// path (`-L`), as jq does: `NAME.jq` (or `.json` for data), also as
/// `NAME/LAST.jq`, relative paths resolved against each search directory.
struct _ModuleLoader {
    var searchPaths: [String]

    /// The file for `path` with `suffix`, or nil.
    func locate(_ path: String, suffix: String) -> String? {
        let last = (path as NSString).lastPathComponent
        for directory in searchPaths {
            let base = (directory as NSString).expandingTildeInPath
            for candidate in ["\(path).\(suffix)", "\(path)/\(last).\(suffix)", "\(path)/jq/main.\(suffix)"] {
                let full = (base as NSString).appendingPathComponent(candidate)
                if FileManager.default.fileExists(atPath: full) { return full }
            }
        }
        return nil
    }

    func text(of file: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw JSONFilterError(message: "module not found: \(file)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

extension _Compiler {
    /// Brings a program's imports into scope: a module's definitions
    /// (under `alias::` for `import`, bare for `include`), or a data file's
    /// values as `$alias::alias`.
    mutating func importModules(_ imports: [_Import], _ scope: _Scope, _ level: _Level,
                                slots: inout [JSONValue]) throws -> _Scope {
        var scope = scope
        for directive in imports {
            if directive.isData {
                let name = String(directive.alias!.dropFirst())
                guard let file = modules.locate(directive.path, suffix: "json") else {
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
            guard let file = modules.locate(directive.path, suffix: "jq") else {
                throw JSONFilterError(message: "module not found: \(directive.path)", column: directive.column)
            }
            let module = try _Parser.parseProgram(try modules.text(of: file))
            var moduleScope = try importModules(module.imports, _Scope(nil, depth: level.depth, next: nil), level,
                                                slots: &slots)
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
