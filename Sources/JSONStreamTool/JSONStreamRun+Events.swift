// SPDX-License-Identifier: Apache-2.0
import JSONFilter
import StreamingJSON

/// `--jq --stream`: jq's streaming form of the input, the events
/// `[path, leaf]` for every scalar and empty container and `[path]` after
/// the last member of a container, made from the parser's tokens as they
/// come (`_ValueReader` making events): nothing is built, memory is
/// bounded by the nesting depth.
final class StreamEvents {
    /// One open container: its kind, members begun, and the key or index
    /// of the member being read.
    private struct Frame {
        var isObject: Bool
        var count = 0
        var step: JSONValue = .null
    }

    private var frames: [Frame] = []
    /// An object's key, waiting for its value.
    private var pendingKey: JSONValue = .null
    /// What the reader gave after a number, read ahead.
    var peeked: _ValueReader.Event?

    var isInsideContainer: Bool { !frames.isEmpty }

    /// The path to the value beginning now (its parent's step advanced).
    private func beginValue() -> [JSONValue] {
        if !frames.isEmpty {
            let top = frames.count - 1
            frames[top].step = frames[top].isObject ? pendingKey : .number(JSONNumber(frames[top].count))
            frames[top].count += 1
        }
        return frames.map(\.step)
    }

    /// A scalar: its event.
    func scalar(_ value: JSONValue) -> JSONValue {
        .array([.array(beginValue()), value])
    }

    func open(isObject: Bool) {
        _ = beginValue()
        frames.append(Frame(isObject: isObject))
    }

    func key(_ key: String) {
        pendingKey = .string(key)
    }

    /// A container ends: `[path, []]` when it was empty, else the closing
    /// event, the path of its last member.
    func close() -> JSONValue? {
        guard let frame = frames.popLast() else { return nil }
        let path = frames.map(\.step)
        if frame.count == 0 { return .array([.array(path), frame.isObject ? .object(JSONObject()) : .array([])]) }
        return .array([.array(path + [frame.step])])
    }

    /// A new input (after an error ended the last one mid-value).
    func reset() {
        frames.removeAll()
        peeked = nil
    }
}

extension JSONStreamRun {
    /// `--stream`: the next event of the inputs, as an input of its own
    /// (`asUnit`) or for `input`/`inputs`.
    func nextEvent(asUnit: Bool) throws -> InputElement? {
        while true {
            guard let reader = inputs.reader else {
                guard !inputs.finished, !inputs.pendingFiles.isEmpty else { return nil }
                open(inputs.pendingFiles.removeFirst())
                events.reset()
                continue
            }
            let next = events.peeked ?? reader.next()
            events.peeked = nil
            if let error = deferredOutputError { throw error }
            let event: JSONValue?
            switch next {
            case .value(let value):
                if case .number = value, events.isInsideContainer {
                    // A number that the input's end cut short is no event in
                    // jq (it cannot know the number ended): look one ahead.
                    // One that a byte after it ended is (`[1,2,x]`).
                    let end = reader.elementEndOffset()
                    let after = reader.next()
                    events.peeked = after
                    if case .syntaxError(let error) = after, end.map({ error.byteOffset <= $0 }) ?? true { continue }
                }
                event = events.scalar(value)
            case .mark(.array): events.open(isObject: false); event = nil
            case .mark(.object): events.open(isObject: true); event = nil
            case .mark: event = events.close()
            case .key(let key): events.key(key); event = nil
            case .member: event = nil
            default:
                handleReadProblem(next, reader: reader)
                continue
            }
            guard let event else { continue }
            counters.elementsIn += 1
            if asUnit { exitRule.beginUnit() }
            let location = ElementLocation(file: inputs.name, index: Int(counters.elementsIn - 1))
            return InputElement(value: event, knownLocation: location, reader: reader, isInArray: false).locatedNow
        }
    }

    /// `fromstream(N|truncate_stream(inputs))` with `-n --stream`: the
    /// elements at depth 1 of every input value, read as `--jq` streams an
    /// array's elements, for the rewritten program to take apart further.
    func runStreamIdiom(_ program: JSONFilter) throws {
        exitRule.beginUnit()
        if streamIdiomIsBare && formatter.copiesFromTape && formatter.writesIncrementally(isObject: false) {
            return try copyStreamIdiom()
        }
        var members: _Projection?
        var program = program
        if let depthOne = streamIdiomDepthOne { (program, members) = depthOne }
        // At depth 1 the idiom's own test (a non-empty array or object) is
        // made on the tape, and the filter after it builds what it reads.
        let testsOnTape = streamIdiomDepthOne != nil
        context.nextStreamedElement = { [unowned self] in
            while let element = try self.nextDepthOneElement(building: !testsOnTape) {
                guard let reader = element.reader, testsOnTape else {
                    self.currentStreamedElement = element
                    return element.value
                }
                guard reader.lastElementIsNonEmptyContainer else { continue }
                self.currentStreamedElement = element
                return reader.lastElementValue(keeping: members)
            }
            return nil
        }
        defer { context.nextStreamedElement = nil }
        _ = try apply(to: .null, at: currentStreamedElement?.locatedNow.knownLocation, using: program)
    }

    /// `fromstream(1|truncate_stream(inputs))` alone: each element that is
    /// a non-empty array or object, written from the tape, never built.
    private func copyStreamIdiom() throws {
        while let element = try nextDepthOneElement(building: false) {
            guard let reader = element.reader, reader.lastElementIsNonEmptyContainer else { continue }
            formatter.append(from: reader, into: &sink.buffer)
            counters.resultsOut += 1
            exitRule.result(isFalseOrNull: false)
            try sink.resultEnded()
            if let limit = options.limit, counters.resultsOut >= limit { throw Stop.limitReached }
        }
    }

    /// The next element at depth 1 of the input values (a scalar value has
    /// none), built or not; nil at the end of the inputs.
    private func nextDepthOneElement(building: Bool) throws -> InputElement? {
        var scalarRoot = false
        while true {
            inputs.reader?.buildsValues = building
            guard let item = try nextRootItem() else { return nil }
            switch item {
            case .element(let element, _):
                if scalarRoot {
                    scalarRoot = false
                    continue
                }
                return element
            case .mark(.whole):
                scalarRoot = true
            case .mark:
                break
            }
        }
    }
}
