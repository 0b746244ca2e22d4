// SPDX-License-Identifier: Apache-2.0

/// A compressed input that cannot be decompressed to its end: it is
/// truncated, corrupt, or followed by bytes that are not part of it.
///
/// A file, file handle or chunk sequence whose first bytes are those of a
/// gzip, zstd, bzip2 or xz stream is decompressed as it is read (a JSON text
/// never starts with those bytes). The elements decoded before the problem
/// are delivered first; this error then ends the stream, so that a damaged
/// archive is never mistaken for a shorter document.
///
/// ```swift
/// do {
///     for try await event in decoder.elements(of: Event.self, contentsOf: dump) { … }
/// } catch let error as CompressedInputError {
///     print(error)   // "Truncated gzip input: it ends inside a compressed stream …"
/// }
/// ```
public struct CompressedInputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The compression formats recognised by their first bytes.
    public enum Format: String, Hashable, Sendable, CustomStringConvertible {
        /// gzip (`1F 8B`), members one after another read as one input.
        case gzip
        /// Zstandard (`28 B5 2F FD`, or a skippable frame first), frames one after another.
        case zstd
        /// bzip2 (`BZh` and a block size), streams one after another.
        case bzip2
        /// xz (`FD 37 7A 58 5A 00`), streams one after another.
        case xz

        /// The format's name: `gzip`, `zstd`, `bzip2`, `xz`.
        public var description: String { rawValue }
    }

    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// The input ends inside a compressed stream.
        case truncated
        /// The compressed data is invalid; `reason` has the library's words.
        case corrupt
        /// Bytes follow the compressed stream that do not begin another one.
        case trailingData
    }

    /// The input's format.
    public var format: Format
    /// What went wrong.
    public var kind: Kind
    /// The decompressor's own explanation, when it gives one.
    public var reason: String
    /// Compressed bytes read when the problem was found.
    public var compressedOffset: Int
    /// Decompressed bytes delivered before it: where the JSON text stops.
    public var byteOffset: Int

    /// Creates an error; the library throws it, tests and wrappers may make one.
    public init(format: Format, kind: Kind, reason: String, compressedOffset: Int, byteOffset: Int) {
        self.format = format
        self.kind = kind
        self.reason = reason
        self.compressedOffset = compressedOffset
        self.byteOffset = byteOffset
    }

    /// What went wrong and where, for a person: `Truncated gzip input: it
    /// ends inside a compressed stream, at compressed byte 15686244 (after
    /// 100000000 bytes of JSON)`.
    public var description: String {
        let what: String
        switch kind {
        case .truncated: what = "Truncated \(format) input: it ends inside a compressed stream"
        case .corrupt: what = "Corrupt \(format) input (\(reason))"
        case .trailingData: what = "Unexpected bytes after the end of the \(format) input"
        }
        return "\(what), at compressed byte \(compressedOffset) (after \(byteOffset) bytes of JSON)"
    }
}
