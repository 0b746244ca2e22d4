// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StreamingJSON

/// What a running filter can reach besides its input: the rest of the input
/// stream (`input`, `inputs`), the process environment (`$ENV`, `env`),
/// `input_filename`, and where `debug` and `stderr` write.
///
/// ```swift
/// var rest: [JSONValue] = [2, 3]
/// let context = JSONFilterContext()
/// context.nextInput = { rest.isEmpty ? nil : rest.removeFirst() }
/// let sum = try JSONFilter("reduce inputs as $x (.; . + $x)")
/// try sum.apply(to: 1, context: context) { print($0) }   // 6
/// ```
///
/// A context is used by one run at a time; it is not thread-safe.
public final class JSONFilterContext: @unchecked Sendable {
    /// The next value of the input stream, or nil at its end. `input` fails
    /// with jq's message, "break", when this is nil or returns nil.
    public var nextInput: (() throws -> JSONValue?)?
    /// The elements of the value a plan streams (`JSONFilterPlan`), read
    /// by its rewritten filter; nil at their end.
    package var nextStreamedElement: (() throws -> JSONValue?)?
    /// What `input_filename` returns: the current file's name, or null.
    public var inputFilename: JSONValue = .null
    /// What `input_line_number` returns.
    public var inputLineNumber: Int = 0
    /// `$ENV` and `env`: the process's environment unless set. Read on
    /// first use, since most programs never look.
    public var environment: [String: String] {
        get {
            if let storedEnvironment { return storedEnvironment }
            let current = ProcessInfo.processInfo.environment
            storedEnvironment = current
            return current
        }
        set { storedEnvironment = newValue }
    }
    private var storedEnvironment: [String: String]?
    /// `$__prog_args`-style named and positional arguments, `$ARGS`.
    public var namedArguments: JSONValue = .object(JSONObject([("positional", .array([])), ("named", .object(JSONObject()))]))
    /// Receives `debug`'s messages (jq writes `["DEBUG:",value]` to stderr).
    public var debug: (JSONValue) -> Void
    /// Receives `stderr`'s values (jq writes them compact, without newline).
    public var stderr: (JSONValue) -> Void

    /// A context with no further inputs, the process's environment, and
    /// `debug`/`stderr` writing to standard error as jq does.
    public init() {
        debug = { value in
            let text = "[\"DEBUG:\",\(_jqText(value))]\n"
            _writeStandardError(text)
        }
        stderr = { value in
            if case .string(let text) = value { _writeStandardError(text) } else { _writeStandardError(_jqText(value)) }
        }
    }

    private var labelCount = 0

    /// A number no other label activation of a run on this context has.
    func newLabel() -> Int {
        labelCount += 1
        return labelCount
    }

    func nextValue() throws -> JSONValue? {
        try nextInput?()
    }

    /// `$ENV` as a value: the process's in `environ`'s order, as jq builds
    /// it; an environment set here (a dictionary, with no order) sorted.
    var environmentValue: JSONValue {
        #if canImport(Glibc)
        if storedEnvironment == nil { return Self.processEnvironment() }
        #endif
        return .object(JSONObject(environment.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }))
    }

    #if canImport(Glibc)
    private static func processEnvironment() -> JSONValue {
        var object = JSONObject()
        var entry = unsafe environ
        while let pointer = unsafe entry.pointee {
            let text = unsafe String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                object[String(text[..<equals])] = .string(String(text[text.index(after: equals)...]))
            }
            unsafe entry += 1
        }
        return .object(object)
    }
    #endif
}

func _writeStandardError(_ text: String) {
    var bytes = Array(text.utf8)
    unsafe bytes.withUnsafeMutableBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = unsafe write(2, buffer.baseAddress! + offset, buffer.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}
