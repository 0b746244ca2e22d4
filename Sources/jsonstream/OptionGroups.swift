// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import JSONStreamTool

// The option groups of `jsonstream`, spelled as jq spells them where jq
// has the option. Each group copies its flags into `JSONStreamOptions`.

/// Two values joined by `CommandLineSyntax.joiningPairs` (`--arg NAME VALUE`).
struct Pair: ExpressibleByArgument {
    var first: String
    var second: String

    init?(argument: String) {
        guard let (first, second) = CommandLineSyntax.splitPair(argument) else { return nil }
        self.first = first
        self.second = second
    }
}

/// The pair's help text: ArgumentParser shows a value as `<valueName>`, so
/// this name renders as `<name> <value>`, the way the option is typed.
private func pairName(_ first: String, _ second: String) -> String { "\(first)> <\(second)" }

struct FilterOptions: ParsableArguments {
    @Flag(name: .customLong("jq"), help: ArgumentHelp(
        "jq's own command line: the filter runs on each top-level input value, as in jq, with jq's pretty output; the input is streamed where the filter allows (see --explain)."))
    var jq = false

    @Flag(help: ArgumentHelp(
        "With --jq: print on stderr how the filter will read each input value (streamed, copied or built whole) and exit without reading."))
    var explain = false

    @Option(name: [.customShort("f"), .customLong("from-file")], help: ArgumentHelp(
        "Read the filter from a file; every positional argument is then an input file.", valueName: "file"))
    var filterFile: String?

    @Option(name: .customLong("arg"), help: ArgumentHelp(
        "Set $name to the string value.", valueName: pairName("name", "value")))
    var stringArguments: [Pair] = []

    @Option(name: .customLong("argjson"), help: ArgumentHelp(
        "Set $name to the JSON value.", valueName: pairName("name", "json")))
    var jsonArguments: [Pair] = []

    @Option(name: .customLong("rawfile"), help: ArgumentHelp(
        "Set $name to the text of the file.", valueName: pairName("name", "file")))
    var rawFiles: [Pair] = []

    @Option(name: .customLong("slurpfile"), help: ArgumentHelp(
        "Set $name to an array of the JSON values in the file.", valueName: pairName("name", "file")))
    var slurpFiles: [Pair] = []

    @Flag(name: .customLong("args"), help: ArgumentHelp(
        "The remaining arguments (after the filter) are strings for $ARGS.positional, not files."))
    var positionalStrings = false

    @Flag(name: .customLong("jsonargs"), help: ArgumentHelp(
        "The remaining arguments (after the filter) are JSON texts for $ARGS.positional, not files."))
    var positionalJSON = false

    /// What `CommandLineSyntax.markingPositionalArguments` made of the
    /// arguments after `--args` / `--jsonargs`.
    @Option(name: .customLong("positional-argument"), help: .hidden)
    var positionalArguments: [String] = []

    @Option(name: [.customShort("L"), .customLong("library-path")], help: ArgumentHelp(
        "Look for import and include modules in this directory (repeatable).", valueName: "dir"))
    var libraryPaths: [String] = []

    @Flag(name: [.customShort("n"), .customLong("null-input")],
          help: "Run the filter once, on null; input and inputs read the stream.")
    var nullInput = false

    func apply(to options: inout JSONStreamOptions) {
        options.stringArguments = stringArguments.map { ($0.first, $0.second) }
        options.jsonArguments = jsonArguments.map { ($0.first, $0.second) }
        options.rawFileArguments = rawFiles.map { ($0.first, $0.second) }
        options.slurpFileArguments = slurpFiles.map { ($0.first, $0.second) }
        options.positionalArguments = positionalArguments.map { marked in
            marked.hasPrefix("j:") ? .json(String(marked.dropFirst(2))) : .string(String(marked.dropFirst(2)))
        }
        options.libraryPaths = libraryPaths
        options.nullInput = nullInput
        options.jqMode = jq
        options.explain = explain
    }
}

extension JSONStreamOptions.InputFormat: ExpressibleByArgument {}
extension JSONStreamOptions.OutputLayout: ExpressibleByArgument {}
extension JSONStreamOptions.ErrorPolicy: ExpressibleByArgument {}

struct InputOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Stream the array at this key path (.a.b, .\"a b\") instead of the root array.", valueName: "path"))
    var path: String?

    @Option(help: ArgumentHelp(
        "How the input is cut into elements: auto (JSON Lines for a file named *.jsonl or *.ndjson; otherwise an array when it starts with '[', JSON Lines otherwise), array, or lines.",
        valueName: "format"))
    var input: JSONStreamOptions.InputFormat = .auto

    @Flag(name: [.customShort("s"), .customLong("slurp")], help: ArgumentHelp(
        "Run the filter once, on an array of all the elements (with -R, on the whole text). Memory grows with the input: the one mode that does not stream."))
    var slurp = false

    @Flag(name: [.customShort("R"), .customLong("raw-input")], help: ArgumentHelp(
        "Each line of the input is a string element, not JSON."))
    var rawInput = false

    @Flag(help: ArgumentHelp(
        "With --jq: the inputs are jq's [path, leaf] events, made as the input is parsed; fromstream(1|truncate_stream(inputs)) with -n streams the elements at full speed."))
    var stream = false

    @Flag(name: .customLong("stream-errors"), help: ArgumentHelp(
        "With --jq: as --stream, and a syntax error becomes an event ([message, path]) instead of ending the run."))
    var streamErrors = false

    @Option(help: ArgumentHelp("Stop reading as soon as this many results are out.", valueName: "n"))
    var limit: Int?

    @Option(name: .customLong("on-error"), help: ArgumentHelp(
        "fail: stop as jq does (array input) or report and go on (JSON Lines). skip: report each bad element (index, line:column) on stderr and go on, past invalid JSON too (an array at its next element); exit 0 only if every byte of the input was read, else 5.",
        valueName: "policy"))
    var onError: JSONStreamOptions.ErrorPolicy = .fail

    @Option(name: .customLong("max-depth"), help: ArgumentHelp(
        "Deepest nesting of arrays and objects accepted (default 512; 10000 with --jq, as jq).", valueName: "levels"))
    var maxDepth: Int?

    @Option(name: .customLong("max-number-length"), help: ArgumentHelp(
        "Longest number literal accepted, in characters (default 1000).", valueName: "n"))
    var maxNumberLength: Int?

    @Option(name: .customLong("max-string-length"), help: ArgumentHelp(
        "Longest string or key accepted, in bytes (default 67108864, 64 MiB).", valueName: "bytes"))
    var maxStringLength: Int?

    @Option(name: .customLong("max-element-bytes"), help: ArgumentHelp(
        "Largest element accepted, in bytes of input (default 0: no limit). A larger one is an error, or skipped with --on-error skip.",
        valueName: "bytes"))
    var maxElementBytes: Int?

    func apply(to options: inout JSONStreamOptions) throws {
        // --jq reads what jq reads: nesting to 10,000 levels.
        if let maxDepth { options.limits.maxDepth = maxDepth } else if options.jqMode { options.limits.maxDepth = 10_000 }
        if let maxNumberLength { options.limits.maxNumberLength = maxNumberLength }
        if let maxStringLength { options.limits.maxStringLength = maxStringLength }
        if let maxElementBytes { options.limits.maxElementBytes = maxElementBytes }
        if let path {
            do {
                options.path = try CommandLineSyntax.keyPath(path)
            } catch let error as CommandLineSyntax.ValueError {
                throw ValidationError(error.description)
            }
        }
        options.inputFormat = input
        options.slurp = slurp
        options.rawInput = rawInput
        options.streamEvents = stream || streamErrors
        options.streamErrors = streamErrors
        options.limit = limit
        options.errorPolicy = onError
    }
}

/// `-C` and `-M`: the last one given wins, as in jq.
enum ColorChoice: EnumerableFlag {
    case colorOutput, monochromeOutput

    static func name(for value: ColorChoice) -> NameSpecification {
        switch value {
        case .colorOutput: return [.customShort("C"), .customLong("color-output")]
        case .monochromeOutput: return [.customShort("M"), .customLong("monochrome-output")]
        }
    }

    static func help(for value: ColorChoice) -> ArgumentHelp? {
        switch value {
        case .colorOutput: return "Colour the JSON output (default: when stdout is a terminal and NO_COLOR is unset)."
        case .monochromeOutput: return "Do not colour the output."
        }
    }
}

/// `--csv` or `--tsv`.
enum TableChoice: EnumerableFlag {
    case csv, tsv

    static func help(for value: TableChoice) -> ArgumentHelp? {
        switch value {
        case .csv: return "Write objects (and arrays) as CSV rows, with a header row (RFC 4180 quoting)."
        case .tsv: return "Write objects (and arrays) as TSV rows, with a header row (\\t \\n \\r \\\\ escaped)."
        }
    }
}

struct OutputOptions: ParsableArguments {
    @Flag(name: [.customShort("c"), .customLong("compact-output")],
          help: "Compact output, one result per line (the default; accepted for jq compatibility).")
    var compact = false

    @Flag(name: [.customShort("r"), .customLong("raw-output")], help: "Write strings without quotes.")
    var raw = false

    @Flag(name: [.customShort("j"), .customLong("join-output")], help: "Like -r, without a newline after each result.")
    var join = false

    @Flag(name: .customLong("raw-output0"), help: "Like -r, with a NUL byte after each result instead of a newline.")
    var raw0 = false

    @Flag(help: "Write an ASCII RS (0x1E) before each result: an RFC 7464 JSON text sequence.")
    var seq = false

    @Flag(name: [.customShort("a"), .customLong("ascii-output")], help: "Escape non-ASCII characters as \\uXXXX.")
    var ascii = false

    @Flag(name: [.customShort("S"), .customLong("sort-keys")], help: "Sort the keys of objects.")
    var sortKeys = false

    @Flag(exclusivity: .chooseLast)
    var color: ColorChoice?

    @Flag(help: "Indent with a tab per level.")
    var tab = false

    @Option(help: ArgumentHelp("Indent with this many spaces per level (0 to 7; 0 is compact, and with --jq, as in jq 1.8, line breaks without indentation).", valueName: "n"))
    var indent: Int?

    @Option(help: ArgumentHelp(
        "lines: one compact result per line (default). array: one JSON array of all results. pretty: indented like jq.",
        valueName: "layout"))
    var output: JSONStreamOptions.OutputLayout = .lines

    @Flag(exclusivity: .exclusive)
    var table: TableChoice?

    @Option(help: ArgumentHelp(
        "With --csv/--tsv: the columns, as member names or dotted paths (id,name,brewery.city). Default: the first object's keys.",
        valueName: "list"))
    var columns: String?

    @Flag(help: "Write each result as soon as it is computed (the default when stdout is a terminal).")
    var unbuffered = false

    @Flag(help: "Print only the number of results.")
    var count = false

    @Option(name: .customLong("split-lines"), help: ArgumentHelp(
        "Write the results as JSON Lines files of n lines each: <prefix>00000.jsonl, <prefix>00001.jsonl, ... Each is written as <name>.partial and renamed when complete, so an interrupted run leaves no file that passes for a whole one.",
        valueName: pairName("n", "prefix")))
    var splitLines: Pair?

    func apply(to options: inout JSONStreamOptions) throws {
        options.rawOutput = raw
        options.joinOutput = join
        options.rawOutput0 = raw0
        options.seq = seq
        options.asciiOutput = ascii
        options.sortKeys = sortKeys
        options.color = color.map { $0 == .colorOutput }
        options.tab = tab
        options.indent = indent
        options.layout = output
        options.table = table.map { $0 == .csv ? .csv : .tsv }
        options.columns = columns.map(CommandLineSyntax.columns)
        options.unbuffered = unbuffered
        options.count = count
        if let splitLines {
            guard let lines = Int(splitLines.first) else {
                throw ValidationError("--split-lines takes a number of lines per file, then a file name prefix")
            }
            options.split = .init(linesPerFile: lines, prefix: splitLines.second)
        }
    }
}

struct ReportOptions: ParsableArguments {
    @Flag(name: [.customShort("e"), .customLong("exit-status")],
          help: "Exit 1 when the last result is false or null, 4 when there is no result (as jq -e).")
    var exitStatus = false

    @Flag(inversion: .prefixedNo, help: ArgumentHelp(
        "Show bytes done/total, MB/s, elements and time left on stderr (default: when stderr is a terminal and the input size is known)."))
    var progress: Bool?

    @Flag(help: "At the end, print elements in/out/skipped, bytes, MB/s, peak memory and the pieces filtered on worker threads on stderr.")
    var stats = false

    @Option(help: ArgumentHelp(
        "Threads that parse and filter pieces of a large file at once, results kept in input order (default: one per core). 1: one thread reads, decompresses, parses and filters, nothing beside it. Pieces are used for a root array, the array at --path, or JSON Lines in a file or on standard input (a pipe, compressed or not, while it keeps the threads busy: once it has nothing for a moment, the rest is one stream, each value out as it arrives), element-wise filters without input, debug, stderr, halt, -e, --limit or --split-lines; with --jq, for JSON Lines and for '.[] | F' over a root array or '.items[] | F' over the array at .items.",
        valueName: "n"))
    var threads: Int?

    func apply(to options: inout JSONStreamOptions) {
        options.exitStatus = exitStatus
        options.progress = progress
        options.stats = stats
        options.threads = threads
    }
}

/// The steps of a plan of pieces, for running one input on many machines.
struct PieceOptions: ParsableArguments {
    @Option(name: .customLong("plan-pieces"), help: ArgumentHelp(
        "Print a plan of n pieces of FILE, one JSON line each, ready for --piece: the file is scanned on this machine's cores (far faster than parsing). The pieces' results, joined in order, are the whole run's.",
        valueName: "n"))
    var planPieces: Int?

    @Option(name: .customLong("plan-ranges"), help: ArgumentHelp(
        "Print the n ranges of a plan, reading only FILE's start: each is scanned where it will be read (--scan-piece), and all joined (--join-pieces).",
        valueName: "n"))
    var planRanges: Int?

    @Option(name: .customLong("scan-piece"), help: ArgumentHelp(
        "Scan the range of one line of --plan-ranges in FILE and print it with what was found.",
        valueName: "piece"))
    var scanPiece: String?

    @Flag(name: .customLong("join-pieces"), help: ArgumentHelp(
        "Read scanned pieces (--scan-piece's lines, all of a plan, in any order) on stdin and print them ready for --piece, in order."))
    var joinPieces = false

    @Option(help: ArgumentHelp(
        "Run FILTER on the elements of this piece of FILE only (one line of --plan-pieces or --join-pieces): its own range, the element straddling its end, no more.",
        valueName: "piece"))
    var piece: String?

    /// Whether a step of a plan was asked for: every positional argument is then a file.
    var isStep: Bool { planPieces != nil || planRanges != nil || scanPiece != nil || joinPieces }

    func apply(to options: inout JSONStreamOptions) throws {
        let steps: [PieceStep] = [planPieces.map(PieceStep.plan), planRanges.map(PieceStep.ranges),
                                  scanPiece.map(PieceStep.scan), joinPieces ? .join : nil].compactMap { $0 }
        guard steps.count <= 1 else {
            throw ValidationError("--plan-pieces, --plan-ranges, --scan-piece and --join-pieces are steps apart: one at a time")
        }
        options.pieceStep = steps.first
        options.piece = piece
    }
}
