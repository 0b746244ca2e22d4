// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--split-lines N PREFIX`: results go to numbered JSON Lines files of N
/// lines each, `PREFIX00000.jsonl`, `PREFIX00001.jsonl` … (five digits,
/// more past 99 999), so that Spark, Dask or DuckDB can read the shards in
/// parallel (`read_json('PREFIX*.jsonl')`). Files are created as results
/// arrive: no result, no file; the last file may hold fewer lines. Each is
/// written under a temporary name and renamed when full or at the end
/// (`OutputSink(creatingFileAt:)`): a run interrupted leaves `.partial`
/// files, never a short one under a final name.
final class SplitFiles {
    let linesPerFile: Int
    let prefix: String
    /// Number of the next file to create.
    private(set) var nextIndex = 0
    private var current: OutputSink?
    private var linesInCurrent = 0

    init(_ split: JSONStreamOptions.Split) {
        linesPerFile = split.linesPerFile
        prefix = split.prefix
    }

    /// The name of file number `index`.
    static func fileName(prefix: String, index: Int) -> String {
        let digits = String(index)
        return prefix + String(repeating: "0", count: max(0, 5 - digits.count)) + digits + ".jsonl"
    }

    /// Whether the next result needs a new file.
    var needsFile: Bool { current == nil }

    /// Opens the next file; it replaces `sink` as where results go.
    func nextFile(replacing sink: OutputSink) throws -> OutputSink {
        let file = try OutputSink(creatingFileAt: Self.fileName(prefix: prefix, index: nextIndex))
        nextIndex += 1
        linesInCurrent = 0
        current = file
        return file
    }

    /// Counts a result written to the current file, and closes the file when full.
    @inline(__always)
    func resultWritten(to sink: OutputSink) throws {
        linesInCurrent += 1
        if linesInCurrent == linesPerFile { try close() }
    }

    /// Writes `bytes`, whole results one per line (a piece's), across as
    /// many files as their lines fill; `sink` follows the current file.
    func append(lines bytes: ArraySlice<UInt8>, to sink: inout OutputSink) throws {
        var rest = bytes
        while !rest.isEmpty {
            if needsFile { sink = try nextFile(replacing: sink) }
            let (end, lines) = Self.end(ofLines: linesPerFile - linesInCurrent, in: rest)
            try sink.append(results: rest[..<end])
            linesInCurrent += lines
            rest = rest[end...]
            if linesInCurrent == linesPerFile { try close() }
        }
    }

    /// Where the first `count` lines of `bytes` end (all of it when it has
    /// fewer), and how many lines that is.
    private static func end(ofLines count: Int, in bytes: ArraySlice<UInt8>) -> (Int, Int) {
        unsafe bytes.withUnsafeBytes { buffer in
            var offset = 0, lines = 0
            while lines < count, offset < buffer.count,
                  let found = unsafe memchr(buffer.baseAddress! + offset, 0x0A, buffer.count - offset) {
                offset = unsafe buffer.baseAddress!.distance(to: UnsafeRawPointer(found)) + 1
                lines += 1
            }
            return (bytes.startIndex + (lines < count ? buffer.count : offset), lines)
        }
    }

    /// Flushes and closes the current file, if any.
    func close() throws {
        guard let file = current else { return }
        current = nil
        try file.close()
    }
}
