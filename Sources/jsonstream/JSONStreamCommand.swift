// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import JSONStreamTool

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `jsonstream [options] [FILTER] [FILE...]`: jq's syntax over huge JSON
/// dumps, one element at a time. Parses the command line into
/// `JSONStreamOptions` and hands them to `runJSONStream`.
@main
struct JSONStreamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jsonstream",
        abstract: "Filter huge JSON dumps with jq syntax, one element at a time, in constant memory.",
        usage: "jsonstream [options] [FILTER] [FILE...]\n  jsonstream --jq [jq options] FILTER [FILE...]",
        discussion: """
            Streams the elements of the root array (or of the array at --path .a.b, or the values of a \
            JSON Lines file), applies FILTER (default .) to each, and writes each result as compact \
            JSON on its own line. Files are read in turn; stdin when there is none, or for -. Memory \
            stays bounded by the largest element, whatever the size of the input. gzip, zstd, bzip2 \
            and xz input is decompressed as it is read (recognised by its first bytes, not its name); \
            a truncated or corrupt archive is an error (exit 2).

            For array input, `jsonstream F dump.json` prints what `jq -c '.[] | F' dump.json` prints; \
            for JSON Lines, what `jq -c 'F'` prints. Numbers keep their literal text when passed \
            through, as in jq 1.8.

            -s gathers every element into one array and runs FILTER once: the one mode whose memory \
            grows with the input (a note goes to stderr past 1 GiB).

            With --jq, the command line is jq's own: FILTER runs on each top-level input value, output \
            is pretty unless -c, and a command from a jq script runs unchanged, with jq 1.8.2's output \
            and exit status. Before reading, the filter is planned: where all it reads of each value is \
            the array (or object) at a key path, element by element, that value is streamed instead \
            of built (.items[] | F, [.[] | F], map(F), length, add, map(F) | add, reduce/foreach over \
            .[], any/all, first, limit, .[0], .[-1], .[2:5][], min_by/max_by, isempty); . and .a.b are \
            copied to the output as they are read; A, B reads a file once per part; -s streams the \
            input values through such a shape. Anything else is built whole, as jq does. --explain \
            prints the plan without reading. --stream makes jq's [path, leaf] events from the parser, \
            and -n --stream 'fromstream(1|truncate_stream(inputs))' runs as element streaming.

            EXAMPLES
              The examples read beers.json, a root array (it could be gigabytes):
                [{"id":1,"name":"Oak","abv":9.5,"style":"stout"},
                 {"id":2,"name":"Pils","abv":4.8,"style":"lager"},
                 {"id":3,"name":"Tripel","abv":8.4,"style":"ale"}]

              Filter a huge array, one element at a time (jq's '.[] | F'):
                $ jsonstream 'select(.abv > 8) | {name, style}' beers.json
                {"name":"Oak","style":"stout"}
                {"name":"Tripel","style":"ale"}

              Raw strings with -r; the number of results with --count:
                $ jsonstream -r 'select(.abv > 8) | .name' beers.json
                Oak
                Tripel
                $ jsonstream --count 'select(.abv > 8)' beers.json
                2

              The array under a key, with --path:
                $ echo '{"meta":{"page":1},"items":[{"id":7},{"id":8}]}' > api.json
                $ jsonstream --path .items .id api.json
                7
                8

              JSON Lines: a file named *.jsonl or *.ndjson, or any input that does not
              start with '[' (or --input lines):
                $ printf '{"level":"info"}\\n{"level":"error","code":504}\\n' > app.jsonl
                $ jsonstream 'select(.level == "error") | .code' app.jsonl
                504

              Go on past bad elements with --on-error skip (reported on stderr, exit 0
              when every byte was read; an array goes on at the element after the damage):
                $ printf '[{"n":1},{"n":}x,{"n":3}]' > bad.json
                $ jsonstream --on-error skip .n bad.json
                1
                3
                jsonstream: skipped (at bad.json:1:15, element 1): Unexpected ...
                jsonstream: 1 of 3 elements skipped

              jq's command line, unchanged, streamed (memory stays bounded on a 10 GB dump):
                $ jsonstream --jq '.items | map(.id) | add' api.json
                15
                $ jsonstream --jq --explain '.items | map(.id) | add'
                jsonstream: plan: streamed: .items, one element at a time (of each element, only id is built)
                jsonstream: plan: when .items is not an array or object, the value there ...

              Throughput and peak memory with --stats (on stderr):
                $ jsonstream --stats --count . beers.json
                3
                jsonstream: stats: 3 elements in, 3 results out, 0 skipped; ...

              More:
                jsonstream --csv --columns id,name,brewery.city . beers.json > beers.csv
                jsonstream --limit 5 . huge.json
                jsonstream --split-lines 100000 part- . huge.json
                    (writes part-00000.jsonl, part-00001.jsonl, ...)
                jsonstream --plan-pieces 8 huge.json > pieces.jsonl
                jsonstream -c --piece "$(sed -n 3p pieces.jsonl)" . huge.json > part-2.jsonl
                    (the third of 8 pieces, read alone, on any machine that sees the file;
                    the pieces' results joined in order are the whole run's. Spark, Ray or
                    xargs -P run one process per piece: see Examples/spark)
                curl -s https://example.com/dump.json | jsonstream .name | head -3

            FILTER LANGUAGE (jq 1.8)
            jq 1.8's language: paths, pipes, comma, literals and "\\(interpolation)", [...] and {...}, \
            arithmetic and comparison with jq's meaning per type, and/or/not, //, if-elif-else-end, \
            try-catch and ?, def with filter and $value parameters (recursion, closures), as with \
            destructuring and ?//, reduce, foreach, label/break, assignment (= |= += -= *= /= %= //=), \
            import/include, $__loc__, $ENV, @formats, and jq's built-ins, the math library and the \
            date functions included (jsonstream -n 'builtins' lists them). Variables come from --arg, \
            --argjson, --rawfile and --slurpfile, $ARGS from them and --args/--jsonargs; modules from \
            -L (jq's default search path otherwise). Compile errors are reported before any input is \
            read, with their column (exit 3). halt_error exits with its own status.

            Different on purpose: without --jq, FILTER runs on each element of the stream (see above), and numbers \
            keep the literal text they were read with. input and inputs read the following elements \
            of the stream (with -n, all of them: jsonstream -n 'reduce inputs as $r (0; . + 1)' \
            counts the elements in constant memory); input_line_number is the line the element \
            starts on. The input is strict JSON (RFC 8259): the NaN and Infinity that jq's reader \
            takes are syntax errors there (fromjson takes them, as in jq), and so is invalid UTF-8 in \
            a string, which jq replaces with U+FFFD (-R and @base64d repair it as jq does). With \
            --jq, what differs from jq: a streamed value with a repeated key along the path or in \
            a streamed object is read again whole from its file, to take the key's last value as jq \
            does; from a pipe or a compressed input it cannot be, and is an error; --seq changes the \
            output only; --stream-errors is --stream; an input syntax error reads "jsonstream: error (at \
            FILE:LINE:COLUMN): ..." where jq writes "jq: parse error: ... at line L, column C". \
            The results of a value streamed with --jq wait for the value's end, so that, as in jq, a \
            value with a syntax error prints nothing: into a file they are written as they come and \
            cut off again after an error; into a pipe they are held back (past a few MB in a \
            temporary file in $TMPDIR). Without --jq, messages begin with "jsonstream:", and a runtime error's \
            place adds the column and the element: (at dump.json:3:14, element 2).

            EXIT STATUS (jq 1.8's)
              0  success; also after | head closed the output, and with --on-error skip
                 when every byte of the input was read
              1  -e: the last result was false or null
              2  usage error, unreadable input file, output that cannot be written
              3  the filter does not compile (reported before any input is read)
              4  -e: no result at all
              5  input syntax error, an element over a limit, or a runtime error in the
                 filter (an array stops there; JSON Lines goes on after a runtime error);
                 with --on-error skip, an input that ends inside an element, or damage
                 with no element after it: the rest could not be read

            """,
        version: jsonStreamVersion
    )

    @OptionGroup(title: "Filter")
    var filter: FilterOptions

    @OptionGroup(title: "Input")
    var input: InputOptions

    @OptionGroup(title: "Output")
    var output: OutputOptions

    @OptionGroup(title: "Exit status and reports")
    var reports: ReportOptions

    @OptionGroup(title: "Past one machine: pieces of one file")
    var pieces: PieceOptions

    @Argument(help: ArgumentHelp(
        "The filter (default .), then the input files (stdin when none, or -). With -f, all are input files.",
        valueName: "filter-and-files"))
    var arguments: [String] = []

    /// The options the run needs.
    func makeOptions() throws -> JSONStreamOptions {
        var options = JSONStreamOptions()
        filter.apply(to: &options)
        try input.apply(to: &options)
        try output.apply(to: &options)
        reports.apply(to: &options)
        try pieces.apply(to: &options)
        options.settleJQLayout(compact: output.compact)
        if pieces.isStep {
            options.files = arguments  // a step runs no filter
        } else if let file = filter.filterFile {
            options.filter = .file(file)
            options.files = arguments
        } else if let first = arguments.first {
            options.filter = .text(first)
            options.files = Array(arguments.dropFirst())
        }
        return options
    }

    static func main() {
        // A closed stdout must come back as EPIPE (quiet exit 0), not kill the process.
        signal(SIGPIPE, SIG_IGN)
        // A file over its size limit (a full quota) must come back as EFBIG
        // ("Could not write", exit 2), not kill the process without a word.
        signal(SIGXFSZ, SIG_IGN)
        var given = Array(CommandLine.arguments.dropFirst())
        // `--jq`: jq's own command line, read by jq's rules.
        if CommandLineSyntax.asksForJQ(given) { given = CommandLineSyntax.canonicalJQArguments(given) }
        let options: JSONStreamOptions
        if let quick = QuickCommandLine.options(given) {
            options = quick
        } else {
            do {
                guard let parsed = try parsedOptions(given) else {
                    // `-h`/`--help` come back as ArgumentParser's help command.
                    printHelp(helpMessage())
                    exit(withError: nil)
                }
                options = parsed
            } catch {
                exitForCommandLineError(error)
            }
        }
        terminate(runOnLargeStack { runJSONStream(options) }.rawValue)
    }

    /// The options ArgumentParser makes of `given` (canonical, with `--jq`);
    /// nil for its help command.
    static func parsedOptions(_ given: [String]) throws -> JSONStreamOptions? {
        let arguments = CommandLineSyntax.markingPositionalArguments(CommandLineSyntax.joiningPairs(given))
        guard let parsed = try parseAsRoot(arguments) as? JSONStreamCommand else { return nil }
        var options = try parsed.makeOptions()
        options.argumentOrder = CommandLineSyntax.variableNames(given)
        return options
    }

    /// `--help` and `--version` print to stdout and exit 0; anything else is
    /// a usage error: jq's exit status 2, not ArgumentParser's 64.
    private static func exitForCommandLineError(_ error: any Error) -> Never {
        if exitCode(for: error) == .success {
            let text = fullMessage(for: error)
            if text.hasPrefix("#!/bin/bash") {  // --generate-completion-script=bash
                print(CommandLineSyntax.bashCompletion(adjusting: text), terminator: text.hasSuffix("\n") ? "" : "\n")
                exit(withError: nil)
            }
            guard text.hasPrefix("OVERVIEW:") else { exit(withError: error) }
            printHelp(text)
            exit(withError: nil)
        }
        var message = "jsonstream: error: " + message(for: error)
        message += "\nUse jsonstream --help for help with command-line options.\n"
        message.withUTF8 { _ = unsafe write(2, $0.baseAddress, $0.count) }
        terminate(ExitStatus.usage.rawValue)
    }
}

/// The C library's `exit`, which `ParsableCommand.exit(withError:)` hides inside the command.
private func terminate(_ status: Int32) -> Never {
    exit(status)
}

/// ArgumentParser prints the discussion between the overview and the usage
/// line; this one is long, so the usage and options come first (where a
/// reader looks) and the discussion, with its examples, after.
private func printHelp(_ text: String) {
    print(reorderedHelp(text), terminator: "")
}

/// The help with the usage line right after the overview's first paragraph.
private func reorderedHelp(_ text: String) -> String {
    let paragraphs = text.split(separator: "\n\n", omittingEmptySubsequences: false)
    guard let usage = paragraphs.firstIndex(where: { $0.drop { $0 == "\n" }.hasPrefix("USAGE:") }),
          usage > 1 else { return text }
    let trimmed = { (part: Substring) in part.drop { $0 == "\n" }.reversed().drop { $0 == "\n" }.reversed() }
    let discussion = paragraphs[1..<usage].map { String(trimmed($0)) }.filter { !$0.isEmpty }
    let rest = paragraphs[usage...].map { String(trimmed($0)) }.filter { !$0.isEmpty }
    return ([String(paragraphs[0])] + rest + discussion).joined(separator: "\n\n") + "\n"
}
