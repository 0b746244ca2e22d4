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
    /// In a stream, the index of the element the error broke (its ordinal
    /// in an array; for JSON Lines, the value's); nil for a whole document,
    /// or where no element was in progress.
    public var elementIndex: Int?
    /// In a stream that went on after the error: the bytes passed over, from
    /// the broken element's first byte (or the error, between elements) to
    /// where the next element begins. nil when the stream did not go on.
    public var skippedBytes: Int?
    /// Whether the stream ends here: the rest of the input cannot be read
    /// (the input ends inside a value, or no element start could be found
    /// after the damage). Every later `next()` throws this error again, so
    /// a loop that catches errors and goes on must stop at this one.
    public var endsStream: Bool
    /// With ``endsStream``: the bytes of input after the error that were
    /// left unread, when known (0 when the input ended there).
    public var unreadBytes: Int?

    /// An error with this message and position (for tests and for wrapping
    /// errors of your own in the same form).
    public init(message: String, byteOffset: Int, line: Int, column: Int,
                elementIndex: Int? = nil, skippedBytes: Int? = nil,
                endsStream: Bool = false, unreadBytes: Int? = nil) {
        self.message = message
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
        self.elementIndex = elementIndex
        self.skippedBytes = skippedBytes
        self.endsStream = endsStream
        self.unreadBytes = unreadBytes
    }

    /// Errors are equal when they say the same at the same place: the
    /// stream's details (``elementIndex``, ``skippedBytes``, ``endsStream``,
    /// ``unreadBytes``) are about the stream, not the input's error.
    public static func == (lhs: JSONSyntaxError, rhs: JSONSyntaxError) -> Bool {
        lhs.message == rhs.message && lhs.byteOffset == rhs.byteOffset && lhs.line == rhs.line && lhs.column == rhs.column
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(message)
        hasher.combine(byteOffset)
        hasher.combine(line)
        hasher.combine(column)
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

/// Telling an error that ends a stream from one that ends an element.
extension DecodingError {
    /// Whether this error ends the stream that threw it: invalid JSON after
    /// which the rest of the input cannot be read (``JSONSyntaxError/endsStream``).
    /// A loop that catches errors and goes on stops at this one:
    ///
    /// ```swift
    /// var beers = decoder.elements(of: Beer.self, contentsOf: url).makeIterator()
    /// while true {
    ///     do {
    ///         guard let beer = try beers.next() else { break }  // every byte read
    ///         use(beer)
    ///     } catch let error as DecodingError where !error.endsStream {
    ///         log(error)  // one element lost; the next call goes on after it
    ///     }
    /// }
    /// ```
    public var endsStream: Bool {
        guard case .dataCorrupted(let context) = self else { return false }
        return (context.underlyingError as? JSONSyntaxError)?.endsStream == true
    }
}
