// SPDX-License-Identifier: Apache-2.0
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

    /// Flushes and closes the current file, if any.
    func close() throws {
        guard let file = current else { return }
        current = nil
        try file.close()
    }
}
