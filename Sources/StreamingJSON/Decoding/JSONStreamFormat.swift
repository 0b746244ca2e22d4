/// The shape of a stream of JSON values.
public enum JSONStreamFormat: Sendable, Hashable {
    /// `.array` when the input's first byte (after whitespace and an optional
    /// UTF-8 BOM) is `[`, otherwise `.jsonLines`; always `.array` with a key path.
    /// For a writer, `.auto` means `.array`.
    case auto
    /// The elements of the array at the path (the root array when the path is empty).
    case array
    /// A sequence of top-level values separated by newlines or any JSON whitespace.
    case jsonLines
    /// The member values of the object at the path, in document order (jq's
    /// `.[]` on an object); each member's key is the first coding-path entry.
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
