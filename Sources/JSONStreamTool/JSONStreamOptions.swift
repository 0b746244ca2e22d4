// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// Everything a `jsonstream` run is asked to do, independent of how it was
/// spelled on the command line. The executable fills it from its flags;
/// tests build it directly.
package struct JSONStreamOptions: Sendable {
    /// Where the filter text comes from.
    package enum FilterSource: Sendable, Equatable {
        /// The filter itself (the first positional argument, `.` when absent).
        case text(String)
        /// A file holding the filter (`-f FILE`).
        case file(String)
    }

    /// How the input is cut into elements (`--input`).
    package enum InputFormat: String, Sendable, CaseIterable {
        /// JSON Lines for a file named `*.jsonl` or `*.ndjson` (compressed or
        /// not); otherwise an array when the first byte is `[` (or with
        /// `--path`), JSON Lines otherwise.
        case auto
        /// The elements of the root array, or of the array at `--path`.
        case array
        /// One value per line (any whitespace-separated values).
        case lines
    }

    /// Whether `file` is named as JSON Lines: `.jsonl` or `.ndjson`, before
    /// any compression suffix.
    package static func namesJSONLines(_ file: String) -> Bool {
        var name = file.lowercased()[...]
        if let suffix = [".gz", ".zst", ".bz2", ".xz"].first(where: { name.hasSuffix($0) }) {
            name = name.dropLast(suffix.count)
        }
        return name.hasSuffix(".jsonl") || name.hasSuffix(".ndjson")
    }

    /// How `file` is cut into elements. `--input auto` takes a file named as
    /// JSON Lines for JSON Lines whatever its first byte: lines that are
    /// arrays start with `[` too.
    func streamFormat(for file: String) -> JSONStreamFormat {
        // jq's command line: every top-level value is one input.
        if jqMode { return .jsonLines }
        switch inputFormat {
        case .auto: return path.isEmpty && JSONStreamOptions.namesJSONLines(file) ? .jsonLines : .auto
        case .array: return .array
        case .lines: return .jsonLines
        }
    }

    /// How results are laid out (`--output`).
    package enum OutputLayout: String, Sendable, CaseIterable {
        /// One result per line, compact (the default; `-c` is accepted for jq compatibility).
        case lines
        /// One valid JSON array holding every result, one element per line.
        case array
        /// Each result indented like `jq .` (two spaces; `--indent N`, `--tab`).
        case pretty
    }

    /// Rows instead of JSON (`--csv`, `--tsv`).
    package enum TableFormat: String, Sendable {
        case csv, tsv
    }

    /// What happens to an element that fails (`--on-error`).
    package enum ErrorPolicy: String, Sendable, CaseIterable {
        /// Stop as jq does (array input) or report and go on (JSON Lines), with jq's exit codes.
        case fail
        /// Report the element's index and position on stderr, go on, exit 0.
        case skip
    }

    /// `--split-lines N PREFIX`: results go to JSON Lines files of `linesPerFile` lines each.
    package struct Split: Sendable, Equatable {
        /// Results per file (at least 1).
        package var linesPerFile: Int
        /// Path prefix of the files: `PREFIX00000.jsonl`, `PREFIX00001.jsonl` …
        package var prefix: String

        package init(linesPerFile: Int, prefix: String) {
            self.linesPerFile = linesPerFile
            self.prefix = prefix
        }
    }

    // Filter
    package var filter: FilterSource = .text(".")
    /// Input files, read in turn; empty or `-` for stdin.
    package var files: [String] = []
    /// `--arg NAME VALUE` (strings) and `--argjson NAME JSON` (parsed), in order.
    package var stringArguments: [(name: String, value: String)] = []
    package var jsonArguments: [(name: String, text: String)] = []
    /// `--rawfile NAME FILE`: the file's text as a string.
    package var rawFileArguments: [(name: String, path: String)] = []
    /// `--slurpfile NAME FILE`: an array of the JSON values in the file.
    package var slurpFileArguments: [(name: String, path: String)] = []
    /// The order the four options above named their variables in, for
    /// `$ARGS.named` (jq keeps the command line's order).
    package var argumentOrder: [String] = []
    /// `--args` / `--jsonargs`: `$ARGS.positional`, strings or JSON texts, in order.
    package var positionalArguments: [PositionalArgument] = []
    /// `-L DIR` / `--library-path DIR`: where `import` and `include` look;
    /// jq's default (`~/.jq`, `$ORIGIN/../lib/jq`, `$ORIGIN/../lib`) when empty.
    package var libraryPaths: [String] = []
    /// `-n`: run the filter once on `null`; `input`/`inputs` read the stream.
    package var nullInput = false
    /// `-s`: run the filter once on an array of every element (or, with
    /// `-R`, on the whole text). Memory grows with the input.
    package var slurp = false
    /// `-R`: each line of the input is a string element (no JSON parsing).
    package var rawInput = false

    /// `--jq`: jq's own command line. The filter runs on each top-level
    /// input value, as in jq, streamed where its plan allows (`JSONFilterPlan`).
    package var jqMode = false
    /// `--stream` (with `--jq`): jq's `[path, leaf]` events are the inputs.
    package var streamEvents = false
    /// `--stream-errors` (with `--jq`): as `--stream`, and a syntax error
    /// becomes an event instead of ending the run.
    package var streamErrors = false
    /// `--explain` (with `--jq`): print the plan on stderr, read nothing.
    package var explain = false

    // Input
    package var inputFormat: InputFormat = .auto
    /// `--path .a.b`: the key path of the array to stream.
    package var path: [String] = []
    /// `--limit N`: stop after N results.
    package var limit: Int?
    package var errorPolicy: ErrorPolicy = .fail
    /// `--max-depth`, `--max-number-length`, `--max-string-length`,
    /// `--max-element-bytes` (0: none): what an input may hold before it is
    /// an error (exit 5), checked while parsing, before memory is spent.
    package var limits = _ParserLimits()

    // Output
    /// `-r`: strings without quotes.
    package var rawOutput = false
    /// `--raw-output0`: like `-r`, with NUL instead of a newline after each
    /// result (a string holding NUL is an error).
    package var rawOutput0 = false
    /// `--seq`: an ASCII RS before each result (RFC 7464 text sequences).
    package var seq = false
    /// `-j`: like `-r`, and no newline after each result.
    package var joinOutput = false
    /// `-a`: non-ASCII as `\uXXXX`.
    package var asciiOutput = false
    /// `-S`: object keys sorted.
    package var sortKeys = false
    /// `-C` (true) / `-M` (false); nil: colour when stdout is a terminal and `NO_COLOR` is unset.
    package var color: Bool?
    package var layout: OutputLayout = .lines
    /// `--indent N` (0 to 7); nil for the layout's default.
    package var indent: Int?
    /// `--tab`: indent with one tab per level.
    package var tab = false
    package var table: TableFormat?
    /// `--columns a,b.c`: the table's columns, as dotted paths.
    package var columns: [String]?
    /// `--unbuffered`: flush after every result.
    package var unbuffered = false
    /// `--count`: print only the number of results.
    package var count = false
    package var split: Split?

    // Exit status and reports
    /// `-e`: exit status from the last result, as jq's `-e`.
    package var exitStatus = false
    /// `--progress` (true) / `--no-progress` (false); nil: on when stderr is a terminal and the size is known.
    package var progress: Bool?
    /// `--stats`: a summary on stderr at the end.
    package var stats = false
    /// `--threads N`: threads that parse and filter pieces of a large input
    /// at once (`JSONStreamRun+Parallel.swift`); 1: everything on the main
    /// thread; nil: one per core.
    package var threads: Int?
    /// The size of those pieces; nil: `_PieceSplitter.defaultPieceSize`.
    /// Tests make it small, to cut small inputs into many pieces.
    package var pieceSize: Int?
    /// How long a pipe may have nothing to read before the rest of it is
    /// read as one stream (milliseconds); nil: the splitter's own. Tests
    /// make it long, so that a slow test machine still cuts their pipes.
    package var pipeIdleWait: Int32?

    /// `--plan-pieces N`, `--plan-ranges N`, `--scan-piece P`, `--join-pieces`:
    /// a step of a plan of pieces (`PieceCommands.swift`) instead of a filter run.
    package var pieceStep: PieceStep?
    /// `--piece P`: the filter runs on the elements of this piece (a
    /// `JSONPiece` as JSON) of the one input file only.
    package var piece: String?

    /// Build only the members of each element that the filter reads
    /// (`JSONFilter.observedMembers`). Same output either way; tests turn it off
    /// to check exactly that.
    package var projectsInput = true

    package init() {}
}

/// A step of a plan of pieces, as `jsonstream` runs it.
package enum PieceStep: Sendable, Equatable {
    /// `--plan-pieces N`: plan, scan on this machine's cores, join; print the pieces.
    case plan(Int)
    /// `--plan-ranges N`: plan only; print the pieces, to be scanned elsewhere.
    case ranges(Int)
    /// `--scan-piece P`: scan the piece's range; print it.
    case scan(String)
    /// `--join-pieces`: join the scanned pieces read on stdin; print them ready.
    case join
}

/// One `--args` or `--jsonargs` value.
package enum PositionalArgument: Sendable, Equatable {
    case string(String)
    /// JSON text, parsed when the run starts (invalid text is a usage error).
    case json(String)
}

extension JSONStreamOptions {
    /// jq's default layout under `--jq`: pretty unless `-c` (`compact`), or
    /// `--output`, chose another.
    package mutating func settleJQLayout(compact: Bool) {
        if jqMode && !compact && layout == .lines { layout = .pretty }
    }

    /// Problems in a combination of options that each parsed fine: a usage
    /// error (exit 2), reported before anything is read.
    package func validationProblems() -> [String] {
        var problems: [String] = []
        if let indent, !(0...7).contains(indent) {
            problems.append("--indent takes a number between 0 and 7")
        }
        if let limit, limit < 0 { problems.append("--limit takes a number of results, 0 or more") }
        if let threads, threads < 1 { problems.append("--threads takes a number of threads, 1 or more") }
        if limits.maxDepth < 1 { problems.append("--max-depth takes a number of levels, 1 or more") }
        if limits.maxNumberLength < 1 { problems.append("--max-number-length takes a number of characters, 1 or more") }
        if limits.maxStringLength < 0 { problems.append("--max-string-length takes a number of bytes, 0 or more") }
        if limits.maxElementBytes < 0 { problems.append("--max-element-bytes takes a number of bytes, 0 (no limit) or more") }
        if let split, split.linesPerFile < 1 { problems.append("--split-lines takes a number of lines per file, 1 or more") }
        if let split, split.prefix.isEmpty { problems.append("--split-lines needs a file name prefix") }
        if columns != nil && table == nil { problems.append("--columns goes with --csv or --tsv") }
        if let columns, columns.isEmpty || columns.contains(where: \.isEmpty) {
            problems.append("--columns takes a comma-separated list of member names (a,b.c)")
        }
        if table != nil && layout != .lines { problems.append("--csv and --tsv write rows; they cannot be combined with --output \(layout.rawValue)") }
        if layout == .array && (rawOutput || joinOutput) {
            problems.append("--output array writes one JSON array; raw output (-r, -j) would break it")
        }
        if split != nil {
            if count { problems.append("--split-lines writes the results to files; --count prints only their number") }
            if table != nil || layout != .lines {
                problems.append("--split-lines writes JSON Lines files; it cannot be combined with --csv, --tsv or --output \(layout.rawValue)")
            }
        }
        if inputFormat == .lines && !path.isEmpty {
            problems.append("--path selects an array inside a document; it cannot be combined with --input lines")
        }
        // Pretty results end in NUL as well (jq's default output is pretty).
        if rawOutput0 && (table != nil || layout == .array) {
            problems.append("--raw-output0 writes NUL-separated results; it cannot be combined with --csv, --tsv or --output array")
        }
        if rawInput && !path.isEmpty { problems.append("--path selects an array inside JSON; it cannot be combined with -R") }
        if (streamEvents || streamErrors || explain) && !jqMode {
            let flag = explain ? "--explain" : streamErrors ? "--stream-errors" : "--stream"
            problems.append("\(flag) goes with --jq (jq's own command line). Without --jq, jsonstream always "
                + "streams, one element of the root array (or of --path .a.b, or one JSON Lines value) at a time, "
                + "in constant memory: drop \(flag) and write the filter for one element, as after jq's '.[] |'")
        }
        if jqMode && !path.isEmpty {
            problems.append("--path goes without --jq: with --jq the filter sees each whole input value, as in jq "
                + "(write .a.b[] in the filter)")
        }
        if jqMode && inputFormat != .auto {
            problems.append("--input goes without --jq: with --jq every top-level value is one input, as in jq")
        }
        if count && table != nil { problems.append("--count prints only the number of results; it cannot be combined with --csv or --tsv") }
        return problems + pieceProblems()
    }
}
