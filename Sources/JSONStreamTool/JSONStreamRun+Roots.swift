// SPDX-License-Identifier: Apache-2.0
import JSONFilter
import StreamingJSON

/// `--jq` with a plan that streams or copies: each top-level value is read
/// along the plan's path (`_ValueReader` following roots), and the value
/// there is streamed into the plan's rewritten filter, copied to the
/// output, or, when it is not what the plan needs, handed whole to the
/// original filter inside a skeleton of its input (`JSONFilterPlan`).
extension JSONStreamRun {
    /// `F` of `--jq '.[] | F'` and how it makes each element's results.
    struct EachElement {
        let filter: JSONFilter
        let output: ElementOutput
    }

    /// What reading roots yields: a mark, or one element (member) of the target.
    enum RootItem {
        case mark(_RootMark)
        case element(InputElement, key: String?)
    }

    func readRoots(_ plan: JSONFilterPlan) throws {
        if plan.strategy == .inParts { return try readRootsInParts(plan) }
        if let workers = parallelWorkers() { try readRootArraysInParallel(workers, plan) }
        while try readRoot(plan, beginsUnit: true) != nil {}
        reportHeldJQFailure()  // (the array's end never came)
    }

    /// `.[] | F` on files whose one value is a large array: each file cut
    /// into pieces that `workers` filter (`readInParallel`), until a file
    /// that cannot be cut or that goes on past what the pieces could take.
    private func readRootArraysInParallel(_ workers: PieceWorkers, _ plan: JSONFilterPlan) throws {
        while inputs.reader == nil && !inputs.finished, let file = inputs.pendingFiles.first {
            exitRule.beginUnit()
            guard let end = try readInParallel(file, workers: workers) else { return }
            inputs.pendingFiles.removeFirst()
            switch end {
            case .readAgain(let count, let runsRest):
                open(file)
                return try readRootArrayOn(skipping: count, runsRest: runsRest, plan)
            case .readOn(let count, let runsRest):
                return try readRootArrayOn(skipping: count, runsRest: runsRest, plan)
            case .read:
                continue
            }
        }
    }

    /// The root array that `inputs.reader` reads from its start, after its
    /// pieces: its first `count` elements, which the pieces read and
    /// counted, passed over uncounted; then the rest of the array streamed
    /// into the filter (`runsRest`) or passed over. The values after the
    /// array are left to `readRoots`.
    private func readRootArrayOn(skipping count: Int, runsRest: Bool, _ plan: JSONFilterPlan) throws {
        guard case .mark(let mark)? = try nextRootItem() else { return }
        let counted = counters.elementsIn
        inputs.reader?.buildsValues = false
        var skipped = 0
        while skipped < count, case .element? = try nextRootItem() { skipped += 1 }
        inputs.reader?.buildsValues = true
        counters.elementsIn = counted
        guard skipped == count else { return }
        if runsRest {
            _ = try runRootTarget(mark, plan)
        } else {
            _ = try passOverRoot()
        }
        if let error = deferredOutputError { throw error }
    }

    /// Reads the next top-level value with `plan` and runs the filter on
    /// it: whether the filter succeeded, or nil when there is no value.
    func readRoot(_ plan: JSONFilterPlan, beginsUnit: Bool) throws -> Bool? {
        var succeeded: Bool?
        while let item = try nextRootItem() {
            guard case .mark(let mark) = item else { continue }
            if case .rootEnd = mark { return succeeded ?? true }
            if case .end = mark { continue }
            if beginsUnit { exitRule.beginUnit() }
            succeeded = try runRootTarget(mark, plan)
            if let error = deferredOutputError { throw error }
        }
        return succeeded
    }

    /// The value the path led to (announced by `mark`), streamed, copied,
    /// or handed to the filter whole; false after a runtime error.
    private func runRootTarget(_ mark: _RootMark, _ plan: JSONFilterPlan) throws -> Bool {
        holdResultsUntilTheRootEnds(plan)
        switch mark {
        case .array, .object:
            let isObject = mark == .object
            if plan.strategy == .copied && formatter.writesIncrementally(isObject: isObject) {
                try copyTarget(isObject: isObject)
                return true
            } else if plan.strategy == .streamed && (!isObject || plan.streamsObjects) {
                return try streamTarget(plan)
            } else if let (value, location) = try collectTarget(isObject: isObject) {
                return try runWhole(plan.skeleton(holding: value, afterKeys: plan.path.count), plan, at: location)
            }
        case .whole(let keys):
            guard case .element(let element, _)? = try nextRootItem() else { return true }
            return try runWhole(plan.skeleton(holding: element.value, afterKeys: keys), plan, at: element.location)
        case .missing(let keys):
            return try runWhole(plan.skeleton(holding: nil, afterKeys: keys), plan, at: nil)
        case .end, .rootEnd:
            break
        }
        return true
    }

    /// The plan's (or part's) original filter on a value found whole, or in a skeleton.
    private func runWhole(_ input: JSONValue, _ plan: JSONFilterPlan, at location: ElementLocation?) throws -> Bool {
        try apply(to: input, at: location, using: plan.program)
    }

    /// `A, B, …` planned in parts: each part reads the file with a reader of
    /// its own, all of them a top-level value at a time, in step; a value's
    /// parts run in turn. A part that fails ends that value's program, as in
    /// jq (the parts after it only pass over the value).
    private func readRootsInParts(_ plan: JSONFilterPlan) throws {
        let files = inputs.pendingFiles
        inputs.pendingFiles = []  // each file is opened here, once per part
        for file in files {
            let readers = plan.parts.map { $0.readsNothing ? nil : openPart(file, $0) }
            guard let lead = readers.firstIndex(where: { $0 != nil }), !inputUnreadable else { return }
            inputs.name = file
            context.inputFilename = .string(file)
            while true {
                // Whether another value follows, asked of the first part that reads.
                inputs.reader = readers[lead]
                guard let first = try nextRootItem() else { break }
                heldRootItem = first
                exitRule.beginUnit()
                var failed = false
                for (part, reader) in zip(plan.parts, readers) {
                    if part.readsNothing {
                        if !failed { failed = !(try apply(to: .null, at: nil, using: part.program)) }
                        continue
                    }
                    inputs.reader = reader
                    guard let succeeded = failed ? try passOverRoot() : try readRoot(part, beginsUnit: false) else {
                        return  // a syntax error, reported
                    }
                    failed = failed || !succeeded
                }
            }
            closeCurrentInput()
        }
    }

    /// The current reader's next top-level value, parsed and not used.
    private func passOverRoot() throws -> Bool? {
        inputs.reader?.buildsValues = false
        defer { inputs.reader?.buildsValues = true }
        while let item = try nextRootItem() {
            if case .mark(.rootEnd) = item { return true }
        }
        return nil
    }

    /// `file` read for one part of a plan.
    private func openPart(_ file: String, _ part: JSONFilterPlan) -> _ValueReader? {
        let flush = { [unowned self] in self.flushBeforeBlockingRead() }
        do {
            return try _ValueReader(contentsOfFile: file, format: .jsonLines, path: part.path, followingRoots: true,
                                    limits: options.limits, projection: part.elementMembers.map(_Projection.init),
                                    onOneThread: runsOnOneThread, beforeBlockingRead: flush)
        } catch {
            inputUnreadable = true
            say(couldNotOpen(file, reason(error)))
            return nil
        }
    }

    /// The plan's filter, reading the target's elements as they are parsed;
    /// what it leaves unread is parsed and skipped, never built.
    private func streamTarget(_ plan: JSONFilterPlan) throws -> Bool {
        if let each = eachElement { return try streamEachElement(each) }
        guard let program = plan.elementProgram else { return true }
        var ended = false
        var current: InputElement?
        // Where the target starts, for an error once the reader has moved
        // past the element the filter read last (after the end, say).
        var first: ElementLocation?
        inputs.reader?.buildsValues = plan.buildsElements
        context.nextStreamedElement = { [unowned self] in
            guard !ended else { return nil }
            switch try self.nextRootItem() {
            case .element(let element, _)?:
                current = element
                if first == nil { first = element.locatedNow.knownLocation }
                return element.value
            case .mark(.end)?:
                ended = true
                return nil
            default:
                // The input broke off inside the value (reported already): a
                // result over part of it would be wrong, so there is none.
                ended = true
                throw TruncatedTarget()
            }
        }
        defer { context.nextStreamedElement = nil }
        let succeeded: Bool
        do {
            succeeded = try apply(to: .null, at: { let last = current?.location; return last?.line == nil ? first : last }(),
                                  using: program)
        } catch is TruncatedTarget {
            return true
        }
        inputs.reader?.buildsValues = false
        while !ended {
            guard case .element? = try nextRootItem() else { break }
        }
        inputs.reader?.buildsValues = true
        return succeeded
    }

    /// For `.[] | F` streamed from the root, or `.items[] | F` from the
    /// plan's path, with `F` element-local: `F` and how `jsonstream F`
    /// makes its results (`elementOutput(of:)`: written from the tape or
    /// decided on it where it can, else run on each element built).
    func makeEachElement() -> EachElement? {
        guard let plan, plan.strategy == .streamed,
              let each = filter.eachElementFilter(at: plan.path), each.isElementLocal else { return nil }
        return EachElement(filter: each, output: elementOutput(of: each))
    }

    /// `.[] | F`: each element of the target through `F`, built only if
    /// `F` needs it, as the plan's program would run it: from the first
    /// runtime error on, the rest of the target is passed over, as in jq.
    private func streamEachElement(_ each: EachElement) throws -> Bool {
        if case .filtered = each.output {} else { inputs.reader?.buildsValues = false }
        defer { inputs.reader?.buildsValues = true }
        var succeeded = true
        while true {
            guard case .element(let element, _)? = try nextRootItem() else { return succeeded }
            guard succeeded, let reader = element.reader else { continue }
            succeeded = try apply(each.output, to: element, reader: reader, program: each.filter)
            if !succeeded { inputs.reader?.buildsValues = false }
            if let error = deferredOutputError { throw error }
        }
    }

    /// The target's elements (members) gathered into the array (object)
    /// they form; nil when the input broke off inside it.
    private func collectTarget(isObject: Bool) throws -> (JSONValue, ElementLocation?)? {
        var elements: [JSONValue] = []
        var members = JSONObject()
        var first: ElementLocation?
        while true {
            switch try nextRootItem() {
            case .element(let element, let key)?:
                if first == nil { first = element.location }
                if isObject { members[key ?? ""] = element.value } else { elements.append(element.value) }
            case .mark(.end)?:
                return (isObject ? .object(members) : .array(elements), first)
            default:
                return nil
            }
        }
    }

    /// `.` (or `.a.b`) over a huge array or object: written out a member at
    /// a time as it is read, the same bytes jq prints for the whole value.
    private func copyTarget(isObject: Bool) throws {
        formatter.beginContainer(isObject: isObject, into: &sink.buffer)
        let fromTape = formatter.copiesFromTape
        if fromTape { inputs.reader?.buildsValues = false }
        defer { inputs.reader?.buildsValues = true }
        var first = true
        while true {
            switch try nextRootItem() {
            case .element(let element, let key)?:
                if fromTape, let reader = element.reader {
                    formatter.appendContainerMember(from: reader, key: key, first: first, into: &sink.buffer)
                } else {
                    formatter.appendContainerMember(element.value, key: key, first: first, into: &sink.buffer)
                }
                first = false
                if sink.buffer.count >= OutputSink.blockSize { try sink.flush() }
                continue
            case .mark(.end)?:
                break
            default:
                // The input broke off inside the value (reported already): the
                // output stops where it did, visibly incomplete.
                return
            }
            break
        }
        formatter.endContainer(isObject: isObject, isEmpty: first, into: &sink.buffer)
        counters.resultsOut += 1
        exitRule.result(isFalseOrNull: false)
        try sink.resultEnded()
    }

    /// The next mark or element of the inputs, read following roots; nil at
    /// the end of the last input. Errors are reported as `nextElement` does.
    func nextRootItem() throws -> RootItem? {
        if let held = heldRootItem {
            heldRootItem = nil
            return held
        }
        while true {
            guard let reader = inputs.reader else {
                guard !inputs.finished, !inputs.pendingFiles.isEmpty else { return nil }
                open(inputs.pendingFiles.removeFirst())
                continue
            }
            let event = reader.next()
            if let error = deferredOutputError { throw error }
            switch event {
            case .mark(let mark):
                if mark == .rootEnd {
                    if reader.rootHasRepeatedKey, sink.isHolding, let root = rootBeingRead {
                        try runAgainWhole(root, reader)
                    }
                    rootBeingRead = nil
                    try sink.release()
                    reportHeldJQFailure()  // jq's line for it is known now
                }
                return .mark(mark)
            case .value(let value):
                return .element(rootElement(value, reader), key: nil)
            case .member(let key, let value):
                return .element(rootElement(value, reader), key: key)
            default:
                handleReadProblem(event, reader: reader)
            }
        }
    }

    /// `--jq`: results and the runtime error made while a top-level value
    /// is read wait for its end, as in jq, which parses each value whole
    /// before it runs the filter, and so prints nothing of a value that
    /// fails to parse (`OutputSink+Holding.swift`). Released at
    /// `.rootEnd` (`nextRootItem`), dropped by `handleReadProblem`.
    func holdResultsUntilTheRootEnds(_ plan: JSONFilterPlan) {
        guard options.jqMode else { return }
        sink.hold()
        if rootBeingRead == nil { rootBeingRead = (plan, runtimeFailed) }
    }

    /// Drops what the value being read made, results and runtime error.
    func dropHeldResults() {
        heldJQFailure = nil
        sink.discardHeld()
    }

    /// `--jq`: the value that just ended has a key along the plan's path, or
    /// among the streamed object's members, more than once. jq keeps the
    /// last value of a repeated key; the path followed the first, and the
    /// members streamed were each of them. What they made (held until now)
    /// is dropped, and the plan's program runs on the value read again
    /// from the file and built whole, as jq builds it.
    private func runAgainWhole(_ root: (plan: JSONFilterPlan, failedBefore: Bool), _ reader: _ValueReader) throws {
        dropHeldResults()
        sink.hold()
        runtimeFailed = root.failedBefore
        exitRule.restartUnit()
        guard let text = reader.rootTextAgain(),
              let value = try? StreamingJSONDecoder().decode(JSONValue.self, from: text) else {
            inputFailed = true
            let line = reader.elementEndLine().map(String.init) ?? "?"
            say("jsonstream: error (at \(inputs.name):\(line)): this value has a repeated key, of which jq keeps the last "
                + "value: it is read again whole to find it, which a pipe or compressed input cannot be; "
                + "give it as an uncompressed file")
            return
        }
        _ = try apply(to: value, at: nil, using: root.plan.program)
    }

    /// Thrown into the plan's filter when its elements break off.
    private struct TruncatedTarget: Error {}

    private func rootElement(_ value: JSONValue, _ reader: _ValueReader) -> InputElement {
        counters.elementsIn += 1
        progress?.tick(bytes: counters.bytesOfFinishedInputs + reader.bytesRead, elements: counters.elementsIn)
        return InputElement(value: value, knownLocation: ElementLocation(file: inputs.name, index: reader.index),
                            reader: reader, isInArray: true)
    }
}

