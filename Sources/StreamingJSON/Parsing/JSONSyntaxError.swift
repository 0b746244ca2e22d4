// SPDX-License-Identifier: Apache-2.0
/// Input that is not valid JSON (or breaks one of the decoder's limits).
///
/// Thrown as the `underlyingError` of `DecodingError.dataCorrupted`. Positions
/// follow the usual editor conventions: `line` and `column` start at 1,
/// `byteOffset` at 0; `column` counts bytes from the start of the line, and a
/// line ends at LF. The position is the first byte that could not be accepted
/// (end of input for truncated documents).
///
/// ```swift
/// do {
///     _ = try StreamingJSONDecoder().decode([Int].self, from: Data("[1,2,x]".utf8))
/// } catch DecodingError.dataCorrupted(let context) {
///     if let syntax = context.underlyingError as? JSONSyntaxError {
///         print(syntax)             // Unexpected character 'x' at line 1, column 6 (byte 5)
///         print(syntax.byteOffset)  // 5
///     }
/// }
/// ```
///
/// The limits (``StreamingJSONDecoder/maxDepth`` and the others) are reported
/// the same way, with a message that names the limit.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, without the position (`Unexpected character 'x'`).
    public var message: String
    /// Offset of the offending byte from the start of the input.
    public var byteOffset: Int
    /// 1-based line of the offending byte.
    public var line: Int
    /// 1-based column, in bytes from the start of the line.
    public var column: Int

    /// An error with this message and position (for tests and for wrapping
    /// errors of your own in the same form).
    public init(message: String, byteOffset: Int, line: Int, column: Int) {
        self.message = message
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
    }

    /// `message at line L, column C (byte B)`: also the `debugDescription`
    /// of the `DecodingError` that carries this error.
    public var description: String {
        "\(message) at line \(line), column \(column) (byte \(byteOffset))"
    }
}

/// A position in the input, resolved to line and column.
struct _SourcePosition: Hashable, Sendable, CustomStringConvertible {
    var byteOffset: Int
    var line: Int
    var column: Int

    var description: String {
        var text = _ErrorText()
        append(to: &text)
        return text.string
    }

    /// "line 3, column 17 (byte 45)": built in place, since a failed `try?`
    /// builds one for every value it reads.
    func append(to text: inout _ErrorText) {
        text.append("line ")
        text.append(line)
        text.append(", column ")
        text.append(column)
        text.append(" (byte ")
        text.append(byteOffset)
        text.append(")")
    }
}
