// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import JSONFilter
import StreamingJSON

/// The process's standard streams and what the run needs to know about them.
package struct StandardStreams: Sendable {
    package var input: Int32
    package var output: Int32
    package var error: Int32
    /// Colour and per-result flushing follow stdout being a terminal.
    package var outputIsTerminal: Bool
    /// The progress bar is on by default only when stderr is a terminal (and stdout is not).
    package var errorIsTerminal: Bool
    /// `NO_COLOR` set (and not empty): no colour unless `-C`.
    package var noColor: Bool
    /// `JQ_COLORS`, jq's colour specification, when set.
    package var jqColors: String?

    package init(input: Int32 = 0, output: Int32 = 1, error: Int32 = 2, outputIsTerminal: Bool = false,
                 errorIsTerminal: Bool = false, noColor: Bool = false, jqColors: String? = nil) {
        self.input = input
        self.output = output
        self.error = error
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
        self.noColor = noColor
        self.jqColors = jqColors
    }

    /// This process's stdin, stdout and stderr.
    package static func process() -> StandardStreams {
        let noColor = unsafe getenv("NO_COLOR").map { unsafe $0.pointee != 0 } ?? false
        return unsafe StandardStreams(outputIsTerminal: isatty(1) == 1, errorIsTerminal: isatty(2) == 1, noColor: noColor,
                                      jqColors: getenv("JQ_COLORS").map { unsafe String(cString: $0) })
    }
}

/// Runs `jsonstream`: compiles the filter, streams every input through it,
/// writes the results, and returns the exit status.
///
/// The process must ignore `SIGPIPE` (the executable does) so that a closed
/// stdout ends the run quietly instead of killing it.
package func runJSONStream(_ options: JSONStreamOptions, streams: StandardStreams = .process()) -> ExitStatus {
    let diagnostics = Diagnostics(descriptor: streams.error)
    // jq warns about a bad JQ_COLORS whether or not it colours, and goes on.
    if let spec = streams.jqColors, JQColorPalette(jqColors: spec) == nil {
        diagnostics.print("Failed to set $JQ_COLORS")
    }
    let problems = options.validationProblems()
    guard problems.isEmpty else {
        for problem in problems { diagnostics.print("jsonstream: error: \(problem)") }
        diagnostics.print("Use jsonstream --help for help with command-line options.")
        return .usage
    }
    if let step = options.pieceStep { return runPieceStep(step, options: options, streams: streams) }
    let filter: JSONFilter, programArguments: JSONValue
    switch compileFilter(options, diagnostics: diagnostics) {
    case .compiled(let compiled, let arguments): (filter, programArguments) = (compiled, arguments)
    case .failed(let status): return status
    }
    // `--explain` reads no input.
    let stdin = options.jqMode && !options.explain ? StdinPeek(descriptor: streams.input) : nil
    let plan = options.jqMode ? jqPlan(for: filter, options, stdin: stdin) : nil
    if options.explain {
        for line in explanation(of: plan, filter: filter, options) { diagnostics.print(line) }
        return .success
    }
    let run = JSONStreamRun(options: options, filter: filter, streams: streams, diagnostics: diagnostics)
    run.context.namedArguments = programArguments
    run.stdinPeeked = stdin?.peeked ?? []
    if let plan, plan.strategy != .whole {
        run.plan = plan
        run.followedPath = plan.path
        run.projection = plan.elementMembers.map(_Projection.init)
    } else if options.jqMode && options.slurp && !options.rawInput && !options.streamEvents,
              let slurped = slurpPlan(for: filter) {
        run.slurpPlan = slurped
        run.projection = slurped.elementMembers.map(_Projection.init)
    } else if options.jqMode && options.streamEvents {
        run.projection = nil
        if options.nullInput, let idiom = filter.streamIdiom {
            run.streamIdiom = idiom.program
            run.streamIdiomIsBare = idiom.isBare && idiom.depth == 1
            run.streamIdiomDepthOne = idiom.depthOneProgram.map { ($0, idiom.depthOneMembers.map(_Projection.init)) }
            run.followedPath = []
        } else {
            run.makesEvents = true
        }
    }
    return run.execute()
}

private enum Compilation {
    /// The filter and `$ARGS`.
    case compiled(JSONFilter, JSONValue)
    case failed(ExitStatus)
}

/// jq 1.8's module search path when no `-L` is given.
let defaultLibraryPaths = ["~/.jq", "$ORIGIN/../lib/jq", "$ORIGIN/../lib"]

/// Reads `-f FILE`, parses `--argjson` values and compiles: exit 2 or 3 before any input is read.
private func compileFilter(_ options: JSONStreamOptions, diagnostics: Diagnostics) -> Compilation {
    guard let arguments = filterArguments(options, diagnostics: diagnostics) else { return .failed(.usage) }
    let source: String
    switch options.filter {
    case .text(let text):
        source = text
    case .file(let path):
        guard let text = readTextFile(path) else {
            let reason = unsafe String(cString: strerror(errno))
            diagnostics.print(options.jqMode ? "jq: Could not open \(path): \(reason)"
                                             : "jsonstream: error: Could not open \(path): \(reason)")
            return .failed(.usage)
        }
        source = text
    }
    do {
        // As jq: a directory given with -L is made absolute when it exists.
        let libraryPaths = options.libraryPaths.isEmpty ? defaultLibraryPaths : options.libraryPaths.map { path in
            guard let resolved = unsafe realpath(path, nil) else { return path }
            defer { unsafe free(resolved) }
            return unsafe String(cString: resolved)
        }
        var programDirectory: String?
        if case .file(let path) = options.filter { programDirectory = (path as NSString).deletingLastPathComponent }
        let filter = try JSONFilter(source, arguments: arguments.variables, libraryPaths: libraryPaths, includesHomeLibrary: true,
                                    programDirectory: programDirectory.map { $0.isEmpty ? "." : $0 })
        return .compiled(filter, arguments.args)
    } catch let error as JSONFilterError {
        for line in compileErrorReport(error, source: source, tool: options.jqMode ? "jq" : "jsonstream") {
            diagnostics.print(line)
        }
        return .failed(.compile)
    } catch {
        diagnostics.print("jsonstream: error: \(error)")
        return .failed(.compile)
    }
}

/// The filter's variables (`--arg`, `--argjson`, `--rawfile`, `--slurpfile`)
/// and `$ARGS` (those and the positional arguments); nil once an error
/// about one is printed.
private func filterArguments(_ options: JSONStreamOptions,
                             diagnostics: Diagnostics) -> (variables: [String: JSONValue], args: JSONValue)? {
    var arguments: [String: JSONValue] = [:]
    for (name, value) in options.stringArguments { arguments[name] = .string(value) }
    for (name, text) in options.jsonArguments {
        do {
            arguments[name] = try StreamingJSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        } catch {
            diagnostics.print(options.jqMode
                ? "jq: invalid JSON text passed to --argjson\n" + jqUsageHint
                : "jsonstream: error: --argjson \(name): invalid JSON text: \(describe(error))")
            return nil
        }
    }
    for (name, path) in options.rawFileArguments {
        guard let text = readTextFile(path) else {
            let reason = unsafe String(cString: strerror(errno))
            diagnostics.print(options.jqMode ? "jq: Bad JSON in --rawfile \(name) \(path): Could not open \(path): \(reason)"
                                             : "jsonstream: error: --rawfile \(name): Could not open \(path): \(reason)")
            return nil
        }
        arguments[name] = .string(text)
    }
    for (name, path) in options.slurpFileArguments {
        do {
            // Every value in the file, as jq's --slurpfile: a file holding one array gives [[…]].
            let values = StreamingJSONDecoder().elements(of: JSONValue.self, contentsOf: URL(fileURLWithPath: path),
                                                         format: .jsonLines)
            var array: [JSONValue] = []
            try values.forEach { array.append($0) }
            arguments[name] = .array(array)
        } catch {
            let problem = openFailure(error).map { "Could not open \(path): \($0)" } ?? describe(error)
            diagnostics.print(options.jqMode ? "jq: Bad JSON in --slurpfile \(name) \(path): \(problem)"
                                             : "jsonstream: error: --slurpfile \(name): \(path): \(problem)")
            return nil
        }
    }
    var positional: [JSONValue] = []
    for argument in options.positionalArguments {
        switch argument {
        case .string(let text): positional.append(.string(text))
        case .json(let text):
            guard let value = try? StreamingJSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
                diagnostics.print(options.jqMode ? "jq: invalid JSON text passed to --jsonargs\n" + jqUsageHint
                                                 : "jsonstream: error: invalid JSON text passed to --jsonargs: \(text)")
                return nil
            }
            positional.append(value)
        }
    }
    var named = JSONObject()
    for name in options.argumentOrder { if let value = arguments[name] { named[name] = value } }
    for (name, value) in arguments.sorted(by: { $0.key < $1.key }) where named[name] == nil { named[name] = value }
    let programArguments = JSONValue.object(JSONObject([("positional", .array(positional)), ("named", .object(named))]))
    return (arguments, programArguments)
}

/// Ends the reading early without an error.
enum Stop: Error {
    /// `--limit N` results are out.
    case limitReached
}

/// One run's state: the outputs, the counters and what the exit status will be.
final class JSONStreamRun {
    let options: JSONStreamOptions
    let filter: JSONFilter
    let streams: StandardStreams
    let diagnostics: Diagnostics
    let start = monotonicSeconds()

    var formatter: ResultFormatter
    /// Where results go: stdout, or the current `--split-lines` file.
    var sink: OutputSink
    var split: SplitFiles?
    var counters = RunCounters()
    var exitRule = ExitStatusRule()
    var progress: ProgressMeter?
    /// Set by the flush before a blocking read, which cannot throw.
    var deferredOutputError: OutputError?
    /// The members of each element the filter can see, when not all of them.
    var projection: _Projection?
    /// `--jq`: how each top-level value is read (nil: element-wise, or built whole).
    var plan: JSONFilterPlan?
    /// `--jq -s` with a plan that streams the slurped array: its elements
    /// are the input values, read one at a time.
    var slurpPlan: JSONFilterPlan?
    /// `--jq '.[] | F'` with `F` element-local (`makeEachElement`).
    lazy var eachElement: EachElement? = makeEachElement()
    /// `--jq -n --stream 'fromstream(N|truncate_stream(inputs))…'`, rewritten.
    var streamIdiom: JSONFilter?
    /// The idiom at depth 1 with nothing after it: elements copied from the tape.
    var streamIdiomIsBare = false
    /// The idiom at depth 1 followed by a filter: that filter over the
    /// non-empty containers, and what of each it reads.
    var streamIdiomDepthOne: (program: JSONFilter, members: _Projection?)?
    /// `--stream`: the inputs are jq's events, made from the parser's tokens.
    var makesEvents = false
    let events = StreamEvents()
    /// `A, B` in parts: a mark read ahead, to know whether a value follows.
    var heldRootItem: RootItem?
    /// The element a streamed program read last, for its error messages.
    var currentStreamedElement: InputElement?
    /// `--jq` with a plan: the inputs are read following each top-level
    /// value along this path (`_ValueReader`'s `followingRoots`).
    var followedPath: [String]?
    /// The filter reads the stream itself (`input`, `inputs`) or asks for
    /// `input_line_number`: each element's position is needed at once.
    let readsFurtherInputs: Bool
    /// The elements of the input files, for the run loop and for `input`.
    let inputs: InputElements
    /// What the filter reaches besides its input: `input`, `inputs`,
    /// `input_filename`, `$ENV`.
    let context = JSONFilterContext()

    // What the exit status will say.
    var inputUnreadable = false
    /// Standard input's first bytes, read to make the plan (`StdinPeek`):
    /// its reader reads them first.
    var stdinPeeked: [UInt8] = []
    var inputFailed = false
    var runtimeFailed = false
    /// The element-wise hint has been given.
    var hinted = false
    /// `--jq`, while a value's results are held (`holdResultsUntilTheRootEnds`):
    /// jq names the line its input ends on, known only then, so its runtime
    /// error (one at most: it stops that input) waits with them for the
    /// root's end, or a read problem before it (`reportHeldJQFailure`).
    var heldJQFailure: String?
    /// `--jq`: the plan of the top-level value being read, and whether a
    /// runtime error came before it, for the value to run again whole
    /// (`runAgainWhole`).
    var rootBeingRead: (plan: JSONFilterPlan, failedBefore: Bool)?

    init(options: JSONStreamOptions, filter: JSONFilter, streams: StandardStreams, diagnostics: Diagnostics) {
        self.options = options
        self.filter = filter
        self.streams = streams
        self.diagnostics = diagnostics
        let color = options.split == nil && options.table == nil
            && (options.color ?? (streams.outputIsTerminal && !streams.noColor))
        let palette = streams.jqColors.flatMap(JQColorPalette.init(jqColors:)) ?? .jqDefault
        formatter = ResultFormatter(options: options, color: color, palette: palette)
        sink = OutputSink(descriptor: streams.output, name: "<stdout>",
                          flushesEachResult: options.unbuffered || streams.outputIsTerminal)
        if let split = options.split { self.split = SplitFiles(split) }
        projection = options.projectsInput ? filter.observedMembers.map(_Projection.init) : nil
        readsFurtherInputs = filter.readsTheInputStream
        // --path follows every document to its array (or object: its member values).
        if !options.path.isEmpty && !options.jqMode { followedPath = options.path }
        inputs = InputElements(files: options.files.isEmpty ? ["-"] : options.files)
        context.nextInput = { [unowned self] in try self.nextElement(asUnit: false)?.value }
    }

    func execute() -> ExitStatus {
        let files = options.files.isEmpty ? ["-"] : options.files
        // By default only where it is seen and does not get in the way: stderr
        // a terminal, stdout not the same screen (results would break the line).
        if options.progress ?? (streams.errorIsTerminal && !streams.outputIsTerminal && !options.nullInput) {
            let total = options.nullInput ? nil : totalSize(of: files)
            if options.progress == true || total != nil {
                progress = ProgressMeter(diagnostics: diagnostics, totalBytes: total, start: start)
            }
        }
        do {
            if options.limit == 0 {
                // Nothing may be printed, so nothing needs to be read.
            } else if let streamIdiom {
                try runStreamIdiom(streamIdiom)
            } else if options.nullInput {
                exitRule.beginUnit()
                // `--jq -n -s`: the one input is every value slurped (jq's reader);
                // element-wise, `inputs` is the stream's elements, one at a time.
                if options.slurp && options.jqMode { context.nextInput = slurpedOnce() }
                _ = try apply(to: .null, at: nil)
            } else if let slurpPlan {
                try streamSlurp(slurpPlan)
            } else if options.slurp {
                exitRule.beginUnit()
                let whole = try slurpedInput()
                // A syntax error leaves nothing whole to run on, as in jq.
                if !inputFailed { _ = try apply(to: whole, at: nil) }
            } else if let plan {
                try readRoots(plan)
            } else {
                try readAll()
            }
        } catch Stop.limitReached {
            // Done: the results asked for are out.
        } catch let halt as JSONFilterHalt {
            return halted(halt)
        } catch OutputError.closed {
            return finishQuietly()
        } catch {
            return outputFailed(error)
        }
        do {
            try finishOutput()
        } catch OutputError.closed {
            return finishQuietly()
        } catch {
            return outputFailed(error)
        }
        progress?.clear()
        report()
        return exitStatus()
    }

    /// `halt` or `halt_error`: the results so far go out, then `halt_error`'s
    /// value on stderr (a string as it is, anything else as JSON and a
    /// newline, null not at all), and the run ends with the halt's status.
    private func halted(_ halt: JSONFilterHalt) -> ExitStatus {
        do {
            try finishOutput()
        } catch OutputError.closed {
        } catch {
            return outputFailed(error)
        }
        progress?.clear()
        switch halt.value {
        case .string(let text)?: diagnostics.write(text)
        case nil, .null?: break
        case let value?:
            var bytes: [UInt8] = []
            _JQWriter(style: JQOutputStyle()).write(value, into: &bytes)
            diagnostics.print(String(decoding: bytes, as: UTF8.self))
        }
        // As jq's exit: a negative status is 0, or with -e its absolute value.
        let code = halt.exitCode
        return ExitStatus(rawValue: code >= 0 ? code : options.exitStatus ? (code == .min ? .max : -code) : 0)
    }

    /// The output was closed (`| head`): stop without a word, status 0.
    private func finishQuietly() -> ExitStatus {
        progress?.clear()
        if options.stats { report() }
        return .success
    }

    private func outputFailed(_ error: any Error) -> ExitStatus {
        progress?.clear()
        if case OutputError.failed(let path, let code) = error {
            diagnostics.print(unsafe "jsonstream: error: Could not write to \(path): \(String(cString: strerror(code)))")
        } else {
            diagnostics.print("jsonstream: error: \(error)")
        }
        return .usage
    }

    private func finishOutput() throws {
        try sink.release()
        if split == nil { formatter.finish(into: &sink.buffer) }
        try sink.flush()
        try split?.close()
    }

    /// The skipped-elements summary and `--stats`.
    private func report() {
        if options.errorPolicy == .skip && counters.skipped > 0 {
            let noun = counters.elementsIn == 1 ? "element" : "elements"
            var line = "jsonstream: \(grouped(counters.skipped)) of \(grouped(counters.elementsIn)) \(noun) skipped"
            // The last line says what was lost for good, so that no one takes
            // a short read for a whole one.
            for (name, unread) in counters.inputsCutShort {
                let amount = unread.map { $0 == 0 ? "ended inside an element" : "\(byteSize($0)) left unread" }
                line += "; \(name): \(amount ?? "the rest left unread")"
            }
            diagnostics.print(line)
        }
        if options.stats {
            diagnostics.print(statisticsLine(counters, bytes: counters.bytesOfFinishedInputs,
                                             seconds: monotonicSeconds() - start, peakBytes: peakResidentBytes()))
        }
    }

    private func exitStatus() -> ExitStatus {
        if inputUnreadable { return .usage }
        if inputFailed { return .failure }
        // jq's status is its last input's: a runtime error in an earlier one does not count.
        if options.jqMode {
            if options.exitStatus { return exitRule.exitStatus ?? .success }
            return exitRule.lastUnit == 5 ? .failure : .success
        }
        if runtimeFailed { return .failure }
        if options.exitStatus, let status = exitRule.exitStatus { return status }
        return .success
    }

    /// The sum of the inputs' sizes, when every one is a regular file.
    private func totalSize(of files: [String]) -> UInt64? {
        var total: UInt64 = 0
        for file in files {
            var info = stat()
            let found = unsafe file == "-" ? fstat(streams.input, &info) == 0 : stat(file, &info) == 0
            guard found, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            total += UInt64(info.st_size)
        }
        return total
    }

    // MARK: Results

    /// Runs the filter on one element and writes its results; false after a
    /// runtime error, which is reported here. Flow control (`Stop`, a closed
    /// output) is rethrown.
    @inline(__always)
    func apply(to value: JSONValue, at location: @autoclosure () -> ElementLocation?,
               using program: JSONFilter? = nil) throws -> Bool {
        do {
            try (program ?? filter).apply(to: value, context: context) { result in try self.emit(result) }
            return true
        } catch let error as any ElementFailure {
            elementFailed(error.reportTail, at: location())
        }
        return false
    }

    @inline(__always)
    func emit(_ result: JSONValue) throws {
        if let split {
            if split.needsFile { sink = try split.nextFile(replacing: sink) }
        }
        try formatter.append(result, into: &sink.buffer)
        counters.resultsOut += 1
        if case .string = result, options.rawOutput || options.joinOutput || options.rawOutput0 {
            exitRule.result(isFalseOrNull: false)
        } else {
            exitRule.result(isFalseOrNull: !result.isTruthy)
        }
        if sink.flushesEachResult, streams.outputIsTerminal { progress?.clear() }
        try sink.resultEnded()
        if let split { try split.resultWritten(to: sink) }
        if let limit = options.limit, counters.resultsOut >= limit { throw Stop.limitReached }
    }

    /// Where an element is, for messages.
    struct ElementLocation {
        var file: String
        var index: Int
        var line: Int? = nil
        var column: Int? = nil
        /// `--jq`: the input is whole values; no element index is named.
        var namesElement = true
        /// jq's line for it (`_ValueReader.elementEndLine()`), for `--jq`'s messages.
        var jqLine: Int? = nil

        var description: String {
            var text = file
            if let line, let column { text += ":\(line):\(column)" }
            return namesElement ? text + ", element \(index)" : text
        }

        /// As jq 1.8.2 names the place of a runtime error: `FILE:LINE`.
        var jqDescription: String {
            "\(file):\(jqLine ?? line ?? 0)"
        }
    }

    /// A runtime error in an element's filter, reported as skipped
    /// (`--on-error skip`) or as an error that makes the exit status 5.
    /// `tail` follows the place: an `ElementFailure`'s `reportTail`.
    func elementFailed(_ tail: String, at location: ElementLocation?) {
        exitRule.runtimeError()
        if options.jqMode {
            // jq 1.8.2's words: `jq: error (at FILE:LINE): …`, `<unknown>` before any input.
            runtimeFailed = true
            if sink.isHolding {
                heldJQFailure = heldJQFailure ?? tail
            } else {
                sayJQError(at: location?.jqDescription, tail)
            }
            return
        }
        var location = location
        if inputs.reader?.knowsElementIndexes == false { location?.namesElement = false }
        let place = location.map { " (at \($0.description))" } ?? ""
        if options.errorPolicy == .skip {
            counters.skipped += 1
            say("jsonstream: skipped\(place)\(tail)")
        } else {
            runtimeFailed = true
            say("jsonstream: error\(place)\(tail)")
        }
        if !hinted, let hint = elementWiseHint {
            hinted = true
            say(hint)
        }
    }

    /// `--jq`: the runtime error held while a target was streamed, now that
    /// the reader has read the root's end, at the line jq names.
    func reportHeldJQFailure() {
        guard let tail = heldJQFailure else { return }
        heldJQFailure = nil
        let place = ElementLocation(file: inputs.name, index: 0, jqLine: inputs.reader?.elementEndLine())
        sayJQError(at: place.jqDescription, tail)
    }

    /// jq 1.8.2's runtime error line; `<unknown>` before any input.
    private func sayJQError(at place: String?, _ tail: String) {
        say("jq: error (at \(place ?? "<unknown>"))\(tail)")
    }

    /// A jq command pasted as it is (`.[] | select(…)`) fails here because
    /// the filter already runs on each element: said once, after the first
    /// runtime error, when the filter starts by iterating.
    private var elementWiseHint: String? {
        guard case .text(let text) = options.filter, !options.nullInput, !options.slurp, !options.jqMode else {
            return nil
        }
        let trimmed = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        guard trimmed.hasPrefix(".[]") else { return nil }
        return "jsonstream: hint: the filter already runs on each element of the stream, as jq's '.[] | F'; "
            + "drop the leading '.[]' (jsonstream '\(Self.withoutLeadingIteration(trimmed))'), "
            + "or run the jq command unchanged with --jq (jsonstream --jq '\(text)')"
    }

    /// `.[] | F` → `F`, `.[].a` → `.a`, `.[]` → `.`.
    private static func withoutLeadingIteration(_ filter: Substring) -> String {
        var rest = filter.dropFirst(3).drop { $0 == " " }
        if rest.hasPrefix("?") { rest = rest.dropFirst().drop { $0 == " " } }
        if rest.hasPrefix("|") { return String(rest.dropFirst().drop { $0 == " " }) }
        return rest.isEmpty ? "." : String(rest)
    }

    /// A message on stderr, after the results so far (when both go to a
    /// terminal they stay in order) and with the progress line out of the way.
    func say(_ message: String) {
        progress?.clear()
        do {
            try sink.flush()
        } catch let error as OutputError {
            deferredOutputError = deferredOutputError ?? error
        } catch {}
        diagnostics.print(message)
    }
}
