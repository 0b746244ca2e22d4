// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JSONFilter
import StreamingJSON

/// `-R` (lines as strings) and `-s` (everything as one value): the input
/// modes besides streaming JSON elements.
extension JSONStreamRun {
    /// Past this much input, `-s` says on stderr that it holds it all.
    static let slurpNoticeBytes: UInt64 = 1 << 30

    /// `-R`: the next line of the inputs, as a string element.
    func nextRawLine(asUnit: Bool) throws -> InputElement? {
        while true {
            guard let reader = inputs.rawReader else {
                guard !inputs.pendingFiles.isEmpty else { return nil }
                open(inputs.pendingFiles.removeFirst())
                continue
            }
            let event = reader.next()
            if let error = deferredOutputError { throw error }
            switch event {
            case .line(let text):
                counters.elementsIn += 1
                if asUnit { exitRule.beginUnit() }
                context.inputLineNumber = reader.newlineCount
                progress?.tick(bytes: counters.bytesOfFinishedInputs + reader.bytesRead, elements: counters.elementsIn)
                let location = ElementLocation(file: inputs.name, index: reader.lineNumber - 1,
                                               line: reader.lineNumber, column: 1)
                return InputElement(value: .string(text), knownLocation: location, reader: nil, isInArray: false)
            case .readError(let error):
                inputUnreadable = true
                say("jsonstream: error: Could not read \(inputs.name): \(reason(error))")
                closeCurrentInput()
            case .end:
                closeCurrentInput()
            }
        }
    }

    /// `--jq -s` with a plan: the input values are the elements of the
    /// slurped array, streamed into the plan's filter (or copied), never
    /// gathered. A syntax error leaves no result, as in jq.
    func streamSlurp(_ plan: JSONFilterPlan) throws {
        exitRule.beginUnit()
        if plan.strategy == .copied && formatter.writesIncrementally(isObject: false) {
            var held: [UInt8] = []
            formatter.beginContainer(isObject: false, into: &held)
            var first = true
            while let element = try nextElement(asUnit: false) {
                formatter.appendContainerMember(element.value, key: nil, first: first, into: &held)
                first = false
                // Held until a block is full: a syntax error in the first values prints nothing.
                if held.count >= OutputSink.blockSize {
                    sink.buffer.append(contentsOf: held)
                    held.removeAll(keepingCapacity: true)
                    try sink.flush()
                }
            }
            guard !inputFailed else { return }
            formatter.endContainer(isObject: false, isEmpty: first, into: &held)
            sink.buffer.append(contentsOf: held)
            counters.resultsOut += 1
            exitRule.result(isFalseOrNull: false)
            try sink.resultEnded()
            return
        }
        guard let program = plan.elementProgram else { return }
        struct BrokenInput: Error {}
        context.nextStreamedElement = { [unowned self] in
            let element = try self.nextElement(asUnit: false)
            if element == nil && self.inputFailed { throw BrokenInput() }
            return element?.value
        }
        defer { context.nextStreamedElement = nil }
        do {
            _ = try apply(to: .null, at: nil, using: program)
        } catch is BrokenInput {}
        // What the filter left unread is still read, for its syntax errors, as jq reads it.
        while try nextElement(asUnit: false) != nil {}
    }

    /// `-n -s`'s `input`: the slurped input the first time, then none.
    func slurpedOnce() -> () throws -> JSONValue? {
        var given = false
        return { [unowned self] in
            guard !given else { return nil }
            given = true
            return try self.slurpedInput()
        }
    }

    /// `-s`: every element in one array, or with `-R` the whole text of
    /// every input as one string. An element error stops there, as without `-s`.
    func slurpedInput() throws -> JSONValue {
        var noticed = false
        func noticeSize() {
            let bytes = counters.bytesOfFinishedInputs + (inputs.reader?.bytesRead ?? inputs.rawReader?.bytesRead ?? 0)
            guard !noticed, bytes > Self.slurpNoticeBytes else { return }
            noticed = true
            say("jsonstream: note: --slurp holds the whole input in memory (over 1 GiB so far); "
                + "without -s the filter runs on each element in constant memory")
        }
        if options.rawInput {
            var text = ""
            while !inputs.pendingFiles.isEmpty {
                open(inputs.pendingFiles.removeFirst())
                guard let reader = inputs.rawReader else { continue }
                do {
                    text += try reader.remainingText()
                } catch {
                    inputUnreadable = true
                    say("jsonstream: error: Could not read \(inputs.name): \(reason(error))")
                }
                noticeSize()
                closeCurrentInput()
            }
            return .string(text)
        }
        var elements: [JSONValue] = []
        while let element = try nextElement(asUnit: false) {
            elements.append(element.value)
            if elements.count & 0xFFF == 0 { noticeSize() }
        }
        noticeSize()
        return .array(elements)
    }
}
