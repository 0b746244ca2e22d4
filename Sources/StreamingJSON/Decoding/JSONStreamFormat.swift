// SPDX-License-Identifier: Apache-2.0
/// The shape of a stream of JSON values.
///
/// Passed to `StreamingJSONDecoder.elements(of:…)`, ``JSONElementFeed`` and
/// ``JSONStreamWriter``:
///
/// ```swift
/// // [ {…}, {…}, … ]
/// decoder.elements(of: Beer.self, contentsOf: url, format: .array)
/// // {…}\n{…}\n…
/// decoder.elements(of: Event.self, contentsOf: url, format: .jsonLines)
/// // {"u1": {…}, "u2": {…}, …}
/// decoder.elements(of: User.self, contentsOf: url, format: .objectValues)
/// ```
public enum JSONStreamFormat: Sendable, Hashable {
    /// `.array` when the input's first byte (after whitespace and an optional
    /// UTF-8 BOM) is `[`, otherwise `.jsonLines`; always `.array` with a key path.
    /// For a writer, `.auto` means `.array`.
    case auto
    /// The elements of the array at the path (the root array when the path is empty).
    ///
    /// Any other value there is an error (`Expected an array at the root but
    /// found an object`); so is an empty input (`No JSON value`). A syntax
    /// error ends the stream after the elements before it.
    case array
    /// A sequence of top-level values separated by newlines or any JSON whitespace.
    ///
    /// Blank lines and CRLF line ends are fine, and a value may span lines.
    /// The coding path of an error starts with the value's ordinal. After a
    /// syntax error the stream resumes at the next line; empty input is zero
    /// elements. The `at:` path does not apply to this format: each
    /// top-level value is an element.
    case jsonLines
    /// The member values of the object at the path, in document order (jq's
    /// `.[]` on an object); each member's key is the first coding-path entry.
    ///
    /// `{}` is zero elements. A writer does not accept this format.
    case objectValues

    /// The parser mode, or nil when it depends on the input (`.auto`).
    func streamMode(path: [String]) -> _StreamMode? {
        switch self {
        case .auto: return path.isEmpty ? nil : .array
        case .array: return .array
        case .jsonLines: return .lines
        case .objectValues: return .members
        }
    }
}
