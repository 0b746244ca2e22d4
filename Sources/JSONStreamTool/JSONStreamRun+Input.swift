// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import JSONFilter
import StreamingJSON

/// The elements of all the input files, one after another: what the run
/// loop applies the filter to, and what the filter's `input` and `inputs`
/// read (with `-n`, all of them).
final class InputElements {
    var pendingFiles: [String]
    var reader: _ValueReader?
    /// With `-R`, the current input's lines instead of `reader`.
    var rawReader: RawLineReader?
    var name = ""
    /// Whether the current array input has begun its one jq input (unit).
    var unitStarted = false
    /// A syntax error (or a broken element) ended all reading.
    var finished = false
    /// The current input's errors said once that its name decided its format.
    var namedItsFormat = false

    init(files: [String]) {
        pendingFiles = files
    }
}

/// One element and where it came from.
struct InputElement {
    let value: JSONValue
    /// File and index; line and column too when they were needed at once.
    let knownLocation: JSONStreamRun.ElementLocation
    /// Where line and column come from when only a message needs them: the
    /// reader has not moved past the element while the filter has not read
    /// further inputs (a filter that can is given them at once).
    let reader: _ValueReader?
    /// The element belongs to an array input (a runtime error stops that input).
    let isInArray: Bool

    var location: JSONStreamRun.ElementLocation {
        guard knownLocation.line == nil, let reader, let position = reader.elementPosition() else { return knownLocation }
        var location = knownLocation
        (location.line, location.column) = (position.line, position.column)
        location.jqLine = reader.elementEndLine()
        return location
    }

    /// The element with its line and column taken from the reader now.
    var locatedNow: InputElement {
        InputElement(value: value, knownLocation: location, reader: nil, isInArray: isInArray)
    }
}

extension JSONStreamRun {
    /// Applies the filter to every element of every input.
    ///
    /// What each event does follows the package's "jsonstream behaviour by
    /// input kind": a runtime error stops an array (jq stops `.[] | F`) and
    /// not JSON Lines; a syntax error stops everything; an element over a
    /// limit is reported and the input goes on; with `--on-error skip` every
    /// element error is reported and skipped.
    func readAll() throws {
        let skips = options.errorPolicy == .skip
        let output = elementOutput
        if let workers = parallelWorkers() {
            while inputs.reader == nil && !inputs.finished, let file = inputs.pendingFiles.first,
                  try readInParallel(file, workers: workers) != nil {
                inputs.pendingFiles.removeFirst()
            }
        }
        while true {
            // Elements copied or selected are not built whole. (A reader that
            // `nextElement` opens builds its first one: the result is the same.)
            if case .filtered = output {} else { inputs.reader?.buildsValues = false }
            guard let element = try nextElement(asUnit: true) else { break }
            let succeeded = if let reader = element.reader {
                try apply(output, to: element, reader: reader)
            } else {
                try apply(to: element.value, at: element.location)
            }
            if let error = deferredOutputError { throw error }
            if !succeeded && element.isInArray && !skips { closeCurrentInput() }
        }
    }

    /// How `readAll` makes each element's results.
    enum ElementOutput {
        /// The filter runs on the element, built.
        case filtered
        /// The program is `.`: the element is its one result, copied from the tape.
        case copied
        /// The program is `select(C)`, decided on the tape or run on the
        /// element built with only the members `C` reads; each output is the
        /// element, copied from the tape.
        case selected(Selection)
        /// The program's outputs are made of member paths (`.brewery.name`,
        /// `select(C) | {name, style}`): found and copied on the tape, as
        /// many as `selection` (if any) has outputs on the element built
        /// with only the members it reads; the filter runs only where a path
        /// fails (`JSONFilter.memberProgram`).
        case members(_MemberLayout, selection: Selection?)
    }

    /// A program `select(C)`, before outputs made of member paths or alone;
    /// `elementOutput` compiles it each time it is read, so each worker
    /// thread's is its own. A class: it goes with every element.
    final class Selection {
        let filter: JSONFilter
        /// The members `C` reads (nil: it may read the whole element).
        let members: _Projection?
        /// `C` when it reads only member paths, alone or compared with constants.
        let condition: JSONFilterCondition?
        /// The condition's paths, as UTF-8.
        let conditionPaths: [[[UInt8]]]

        init(_ filter: JSONFilter) {
            self.filter = filter
            members = filter.selectionMembers.map(_Projection.init)
            condition = filter.selectionCondition
            conditionPaths = condition?.paths.map { $0.map { Array($0.utf8) } } ?? []
        }

        /// Runs `select(C)` on the element `reader` returned last: `output`
        /// once per output. A condition of member paths is decided on the
        /// tape; otherwise (or where a path meets a value that is neither an
        /// object nor `null`) `C` runs on the element built with only the
        /// members it reads.
        func forEachOutput(of reader: _ValueReader, context: JSONFilterContext,
                           _ output: () throws -> Void) throws {
            if let condition, let holds = condition.holds(valueAt: { reader.lastElementTestValue(at: conditionPaths[$0]) }) {
                if holds { try output() }
                return
            }
            try filter.apply(to: reader.lastElementValue(keeping: members), context: context) { _ in try output() }
        }
    }

    /// Makes the outputs of member paths for the element `reader` returned
    /// last: `write` once per output of `selection` (once without one).
    /// False, with nothing written, where `write` is (a path met a value
    /// that is neither an object nor `null`: the filter is to run on the
    /// element instead, which the first output already shows).
    static func forEachMembersOutput(of reader: _ValueReader, selection: Selection?, context: JSONFilterContext,
                                     write: () throws -> Bool) throws -> Bool {
        struct NeedsFilter: Error {}
        guard let selection else { return try write() }
        do {
            try selection.forEachOutput(of: reader, context: context) {
                guard try write() else { throw NeedsFilter() }
            }
            return true
        } catch is NeedsFilter {
            return false
        }
    }

    var elementOutput: ElementOutput { elementOutput(of: filter) }

    /// How `program` makes each element's results (`filter`'s, or `F` of
    /// `--jq '.[] | F'`).
    func elementOutput(of program: JSONFilter, inPieces: Bool = false) -> ElementOutput {
        // Values from a reader, no limit, no file splitting (but for pieces,
        // whose results the main thread splits by line).
        guard !options.rawInput && !makesEvents && (split == nil || inPieces) && options.limit == nil
        else { return .filtered }
        // `--count` writes nothing: an element passed whole, or selected, is only counted.
        if !formatter.countsOnly {
            // Results written from the tape: plain JSON (no raw strings, colours or sorted keys).
            guard formatter.copiesFromTape && !options.rawOutput0
                    && (formatter.writesIncrementally(isObject: true) || formatter.writesArrayElementsFromTape)
            else { return .filtered }
            // Member paths also with raw strings (`jq -r .name`).
            if let members = program.memberProgram {
                return .members(_MemberLayout(keys: members.keys, paths: members.paths, lengths: members.lengths),
                                selection: members.selection.map(Selection.init))
            }
            guard !options.rawOutput && !options.joinOutput else { return .filtered }
        }
        if program.isIdentity { return .copied }
        if projection == nil, program.selectionMembers != nil {
            return .selected(Selection((try? program.independentCopy()) ?? program))
        }
        return .filtered
    }

    /// The results `output` makes of `element`, which `reader` returned
    /// last; false after a runtime error. `program`: the filter that
    /// `output` was made for, when it is not the run's (`F` of `.[] | F`).
    func apply(_ output: ElementOutput, to element: InputElement, reader: _ValueReader,
               program: JSONFilter? = nil) throws -> Bool {
        switch output {
        case .copied:
            try emitFromTape(reader)
            return true
        case .selected(let selection):
            return try applySelecting(element, reader: reader, selection: selection)
        case .members(let layout, let selection):
            return try applyMembers(layout, selection: selection, element: element, reader: reader, program: program)
        case .filtered:
            return try apply(to: element.value, at: element.location, using: program)
        }
    }

    /// `apply(to:at:)` for `select(C)`: `C` decided on the tape or run on the
    /// element reduced to the members it reads (`Selection.forEachOutput`),
    /// and each output is the element, copied whole.
    private func applySelecting(_ element: InputElement, reader: _ValueReader, selection: Selection) throws -> Bool {
        do {
            try selection.forEachOutput(of: reader, context: context) { try self.emitFromTape(reader) }
            return true
        } catch let error as any ElementFailure {
            elementFailed(error.reportTail, at: element.location)
        }
        return false
    }

    /// `apply(to:at:)` for outputs made of member paths: written from the
    /// tape (`forEachMembersOutput`), or the filter (`program`, by default
    /// the run's) run on the element where a path meets neither an object
    /// nor `null`.
    private func applyMembers(_ layout: _MemberLayout, selection: Selection?, element: InputElement,
                              reader: _ValueReader, program: JSONFilter? = nil) throws -> Bool {
        let written: Bool
        do {
            written = try Self.forEachMembersOutput(of: reader, selection: selection, context: context) {
                try self.emitMembers(layout, from: reader)
            }
        } catch let error as any ElementFailure {
            elementFailed(error.reportTail, at: element.location)
            return false
        }
        return try written || apply(to: reader.lastElementValue(keeping: nil), at: element.location, using: program)
    }

    /// `emit(_:)` for the output `layout` makes of the element `reader`
    /// returned last; false, with nothing written, when the filter is to run.
    private func emitMembers(_ layout: _MemberLayout, from reader: _ValueReader) throws -> Bool {
        guard let isFalseOrNull = formatter.append(members: layout, from: reader, into: &sink.buffer) else {
            return false
        }
        counters.resultsOut += 1
        exitRule.result(isFalseOrNull: isFalseOrNull)
        if sink.flushesEachResult, streams.outputIsTerminal { progress?.clear() }
        try sink.resultEnded()
        return true
    }

    /// `emit(_:)` for the element `reader` returned last, from its tape.
    private func emitFromTape(_ reader: _ValueReader) throws {
        formatter.append(from: reader, into: &sink.buffer)
        counters.resultsOut += 1
        exitRule.result(isFalseOrNull: reader.lastElementIsFalseOrNull)
        if sink.flushesEachResult, streams.outputIsTerminal { progress?.clear() }
        try sink.resultEnded()
    }

    /// The next element of the inputs, or nil when there is none. `asUnit`:
    /// the element is one jq input of its own (not one `input` reads).
    func nextElement(asUnit: Bool) throws -> InputElement? {
        if options.rawInput { return try nextRawLine(asUnit: asUnit) }
        if makesEvents { return try nextEvent(asUnit: asUnit) }
        while true {
            guard let reader = inputs.reader else {
                guard !inputs.finished, !inputs.pendingFiles.isEmpty else { return nil }
                open(inputs.pendingFiles.removeFirst())
                continue
            }
            var event = reader.next()
            if let error = deferredOutputError { throw error }
            let name = inputs.name
            if case .member(_, let value) = event { event = .value(value) }  // --path to an object: its values
            switch event {
            case .value(let value):
                counters.elementsIn += 1
                // --path follows each document to its array or object, one jq input each.
                let isArray = reader.isArray == true || followedPath != nil
                if asUnit, !isArray || !inputs.unitStarted {
                    exitRule.beginUnit()
                    inputs.unitStarted = true
                }
                progress?.tick(bytes: counters.bytesOfFinishedInputs + reader.bytesRead, elements: counters.elementsIn)
                var element = InputElement(value: value, knownLocation: ElementLocation(file: name, index: reader.index),
                                           reader: reader, isInArray: isArray)
                if readsFurtherInputs {
                    // The reader moves on while the filter reads: the position is taken now.
                    element = element.locatedNow
                    let location = element.knownLocation
                    context.inputLineNumber = (options.jqMode ? location.jqLine : nil) ?? location.line ?? 0
                }
                return element

            case .mark(let mark):
                if mark == .array || mark == .object { inputs.unitStarted = false }
                pathProblem(mark, reader: reader)
            case .member, .key:
                continue  // a member became a value above; keys come only when making events (--jq --stream)
            default:
                handleReadProblem(event, reader: reader)
            }
        }
    }

    /// `--path` to something other than an array or object, or to nothing:
    /// reported as the element's error (exit 5); the next document goes on.
    private func pathProblem(_ mark: _RootMark, reader: _ValueReader) {
        let path = JSONFilterPlan.describe(options.path)
        let message: String
        switch mark {
        case .whole(let keys):
            // The value met is the next element: read (not built) for its place and kind.
            reader.buildsValues = false
            defer { reader.buildsValues = true }
            guard case .value = reader.next() else { return }
            let found = reader.lastElementKind
            message = keys < options.path.count
                ? "Expected an object on the way to path \(path) but found \(found)"
                : "Expected an array or object at path \(path) but found \(found)"
        case .missing:
            message = "No array or object at path \(path): the key is missing"
        default:
            return
        }
        counters.elementsIn += 1
        inputFailed = true
        let place = reader.elementPosition().map { "\(inputs.name):\($0.line):\($0.column)" } ?? inputs.name
        say("jsonstream: error (at \(place)): \(message)")
    }

    /// `, element N` after a position, where N means something: not with
    /// `--jq`, whose inputs are whole values (jq names none).
    private func elementSuffix(_ index: Int) -> String {
        options.jqMode || inputs.reader?.knowsElementIndexes == false ? "" : ", element \(index)"
    }

    /// An error or the end of the current input: reported and dealt with as
    /// "jsonstream behaviour by input kind" says (see `readAll`).
    func handleReadProblem(_ event: _ValueReader.Event, reader: _ValueReader) {
        handleReadProblem(event, index: reader.index, isArray: reader.isArray == true)
    }

    /// `handleReadProblem(_:reader:)` for the reader's `index` then; false
    /// when the input ends there.
    @discardableResult
    func handleReadProblem(_ event: _ValueReader.Event, index: Int, isArray: Bool) -> Bool {
        switch event {
        case .end:
            do { try sink.release() } catch let error as OutputError {
                deferredOutputError = deferredOutputError ?? error
            } catch {}
        case .elementError, .syntaxError, .readError:
            // Nothing of a value that failed to parse: jq never ran the filter on it.
            if sink.isHolding { dropHeldResults() }
            rootBeingRead = nil
        case .value, .mark, .member, .key:
            break
        }
        reportHeldJQFailure()  // (its input ends here, or is read no further)
        let skips = options.errorPolicy == .skip
        let name = inputs.name
        switch event {
        case .elementError(let error, let isLimit):
            // Damage between an array's elements (an extra byte or comma, a
            // stray bracket) broke no element: it is reported, not counted.
            let between = isArray && !isLimit && error.elementIndex == nil
            if !between { counters.elementsIn += 1 }
            let place = "\(name):\(error.line):\(error.column)"
                + (between ? (options.jqMode ? "" : ", between elements") : elementSuffix(index))
            let message = error.message + (isLimit ? "" : formatDecidedByNameHint(error, inFirstValue: index == 0))
            if skips {
                if !between { counters.skipped += 1 }
                let passed = error.skippedBytes.map { "; \(grouped($0)) \($0 == 1 ? "byte" : "bytes") passed over" } ?? ""
                say("jsonstream: skipped (at \(place)): \(message)\(passed)")
                return true
            }
            inputFailed = true
            say("jsonstream: error (at \(place)): \(message)")
            // A value over a limit is well-formed: the next line is sound. After
            // a malformed line, jq stops reading.
            if isLimit { return true }
            finishReading()

        case .syntaxError(let error):
            counters.elementsIn += 1
            let place = "\(name):\(error.line):\(error.column)" + elementSuffix(index + 1)
            let message = error.message
                + (isArray ? afterTheArrayHint(error) : formatDecidedByNameHint(error, inFirstValue: index < 0))
            // The rest of this input cannot be read: never a success, even
            // when skipping (nothing may be lost quietly).
            inputFailed = true
            if skips {
                counters.skipped += 1
                noteUnread(after: error)
                say("jsonstream: error (at \(place)): \(message); the rest of \(name) cannot be read")
                closeCurrentInput()
                return false
            }
            say("jsonstream: error (at \(place)): \(message)")
            finishReading()

        case .readError(let error):
            inputUnreadable = true
            say("jsonstream: error: Could not read \(name): \(reason(error))")
            closeCurrentInput()

        case .end:
            // An empty array is still one jq input, with no result (`-e` exits 4).
            if isArray && !inputs.unitStarted { exitRule.beginUnit() }
            closeCurrentInput()
        case .value, .mark, .member, .key:
            return true
        }
        return false
    }

    /// For a syntax error in an input read as JSON Lines because of its
    /// name (`.jsonl`, `.ndjson`) whose first value begins with `[` and runs
    /// past its first line, as one array would: which one decided, and how
    /// to override it (once per input).
    private func formatDecidedByNameHint(_ error: JSONSyntaxError, inFirstValue: Bool) -> String {
        guard inFirstValue, error.line > 1, !inputs.namedItsFormat, !options.jqMode, options.inputFormat == .auto,
              options.path.isEmpty, JSONStreamOptions.namesJSONLines(inputs.name),
              inputs.reader?.startsWithBracket == true else { return "" }
        inputs.namedItsFormat = true
        return " (\(inputs.name) is read as JSON Lines for its name, though it begins with '[': "
            + "if it holds one array, --input array reads it as one)"
    }

    /// Counts what a syntax error that ends the current input leaves
    /// unread, for the summary (`--on-error skip`).
    private func noteUnread(after error: JSONSyntaxError) {
        let size = inputs.reader?.size
        let unread = error.unreadBytes.map(UInt64.init)
            ?? size.map { $0 - min($0, UInt64(error.byteOffset)) }
        counters.inputsCutShort.append((inputs.name, unread))
    }

    /// How messages and `input_filename` name `file`: `<stdin>` for `-`, as
    /// jq 1.8 names it.
    static func inputName(_ file: String) -> String {
        file == "-" ? "<stdin>" : file
    }

    /// Opens `file` (a path, or `-` for stdin) as the current input, as JSON
    /// or, with `-R`, as lines; an unreadable file is reported and skipped
    /// (jq goes on and exits 2).
    func open(_ file: String) {
        let name = Self.inputName(file)
        let flush = { [unowned self] in self.flushBeforeBlockingRead() }
        do {
            if options.rawInput {
                inputs.rawReader = file == "-"
                    ? RawLineReader(descriptor: streams.input, ownsDescriptor: false, onOneThread: runsOnOneThread,
                                    beforeBlockingRead: flush)
                    : try RawLineReader(contentsOfFile: file, onOneThread: runsOnOneThread, beforeBlockingRead: flush)
            } else if file == "-" {
                inputs.reader = _ValueReader(descriptor: streams.input, format: streamFormat(for: "-"),
                                             path: followedPath ?? options.path, followingRoots: followedPath != nil,
                                             makingEvents: makesEvents, limits: options.limits, projection: projection,
                                             onOneThread: runsOnOneThread, readFirst: stdinPeeked,
                                             beforeBlockingRead: flush)
                stdinPeeked = []
            } else if let piece = try openedPiece(), piece.wholeInputReason == nil || piece.index > 0 {
                inputs.reader = try _ValueReader(piece: piece, contentsOfFile: file, format: streamFormat(for: file),
                                                 limits: options.limits, projection: projection)
            } else {
                inputs.reader = try _ValueReader(contentsOfFile: file, format: streamFormat(for: file),
                                                 path: followedPath ?? options.path,
                                                 followingRoots: followedPath != nil, makingEvents: makesEvents,
                                                 limits: options.limits, projection: projection,
                                                 onOneThread: runsOnOneThread, beforeBlockingRead: flush)
            }
        } catch {
            inputUnreadable = true
            say(couldNotOpen(file, reason(error)))
            return
        }
        begin(named: name)
    }

    /// The message for an input file that cannot be read: jq 1.8.2's with `--jq`.
    func couldNotOpen(_ file: String, _ reason: String) -> String {
        guard options.jqMode else { return "jsonstream: error: Could not open \(file): \(reason)" }
        // jq opens a directory, then fails to read it, with no file name.
        return reason == "Is a directory" ? "jq: error: \(reason)" : "jq: error: Could not open file \(file): \(reason)"
    }

    /// `--piece`'s piece; nil without it. (The first piece of a plan that
    /// reads the whole input is the input, opened as any file is.)
    private func openedPiece() throws -> JSONPiece? {
        try options.piece.map(decodePiece)
    }

    /// Reading goes on in the input called `name` (`input_filename`).
    func begin(named name: String) {
        inputs.name = name
        inputs.unitStarted = false
        inputs.namedItsFormat = false
        context.inputFilename = .string(name)
    }

    /// Ends the current input file; reading goes on with the next.
    func closeCurrentInput() {
        if let reader = inputs.reader { counters.bytesOfFinishedInputs += reader.bytesRead }
        if let reader = inputs.rawReader { counters.bytesOfFinishedInputs += reader.bytesRead }
        inputs.reader = nil
        inputs.rawReader = nil
    }

    /// Ends all reading (after a syntax error).
    func finishReading() {
        closeCurrentInput()
        inputs.finished = true
    }

    /// How `file` is cut into elements (`JSONStreamOptions.streamFormat(for:)`).
    func streamFormat(for file: String) -> JSONStreamFormat {
        options.streamFormat(for: file)
    }

    /// What a value after a root array read with `--input auto` adds to
    /// its message: the likely cause, JSON Lines of arrays.
    private func afterTheArrayHint(_ error: JSONSyntaxError) -> String {
        guard !options.jqMode, options.inputFormat == .auto, options.path.isEmpty, error.followsTheValue else {
            return ""
        }
        return " (read as one array, since it starts with '['; for JSON Lines, use --input lines)"
    }

    /// Called before a read from stdin that would wait: what is computed so
    /// far goes out now. A failure is kept for the read loop to throw.
    func flushBeforeBlockingRead() {
        guard deferredOutputError == nil else { return }
        do {
            try sink.flush()
        } catch let error as OutputError {
            deferredOutputError = error
        } catch {}
    }
}
