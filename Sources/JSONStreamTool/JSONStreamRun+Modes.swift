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
