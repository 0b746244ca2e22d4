// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// A filter that does not compile, or that fails on an input.
///
/// Compile errors carry the 1-based `column` of the offending construct in
/// the filter text. Runtime errors carry jq's message and, in `value`, the
/// error's value: the message as a string for built-in errors, or whatever
/// `error(v)` was given, which is what `try … catch` hands to its handler.
///
/// ```swift
/// do {
///     _ = try JSONFilter(".a | frobnicate")
/// } catch let error as JSONFilterError {
///     print(error)                  // frobnicate/0 is not defined at column 6
///     print(error.isCompileError)   // true
/// }
/// ```
public struct JSONFilterError: Error, CustomStringConvertible, Sendable {
    /// Column in the filter text, for compile errors.
    public let column: Int?
    /// The value `catch` receives.
    public let value: JSONValue

    /// True for compile errors.
    public let isCompileError: Bool

    /// An error with this message; a `column` makes it a compile error.
    public init(message: String, column: Int? = nil) {
        self.column = column
        self.value = .string(message)
        self.isCompileError = column != nil
    }

    /// An error raised by `error(value)`.
    public init(value: JSONValue) {
        self.value = value
        self.column = nil
        self.isCompileError = false
    }

    /// A compile error of the program as a whole, with no column to name
    /// (jq's "Top-level program not given").
    init(compileErrorWithoutPlace message: String) {
        self.column = nil
        self.value = .string(message)
        self.isCompileError = true
    }

    /// What went wrong, in jq's words (`Cannot index number with string ("a")`);
    /// for `error(v)` with a value that is not a string, jq's
    /// `v (not a string)`. Written only when asked for: `try … catch` never
    /// needs it.
    public var message: String {
        if case .string(let text) = value { return text }
        return "\(_jqText(value)) (not a string)"
    }

    /// The message, followed by `at column N` for a compile error.
    public var description: String {
        if let column { return "\(message) at column \(column)" }
        return message
    }
}
