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
                openRaw(inputs.pendingFiles.removeFirst())
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
            case .readError(let code):
                inputUnreadable = true
                say("jsonstream: error: Could not read \(inputs.name): \(String(cString: strerror(code)))")
                closeCurrentInput()
            case .end:
                closeCurrentInput()
            }
        }
    }

    /// Opens `file` (or stdin for `-`) for `-R`; an unreadable file is
    /// reported and skipped.
    private func openRaw(_ file: String) {
        let flush = { [unowned self] in self.flushBeforeBlockingRead() }
        do {
            if file == "-" {
                inputs.rawReader = RawLineReader(descriptor: streams.input, ownsDescriptor: false, beforeBlockingRead: flush)
            } else {
                inputs.rawReader = try RawLineReader(contentsOfFile: file, beforeBlockingRead: flush)
            }
        } catch let error as RawInputError {
            inputUnreadable = true
            say("jsonstream: error: Could not open \(file): \(String(cString: strerror(error.code)))")
            return
        } catch {
            return
        }
        inputs.name = file == "-" ? "<stdin>" : file
        context.inputFilename = file == "-" ? .null : .string(file)
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
                openRaw(inputs.pendingFiles.removeFirst())
                guard let reader = inputs.rawReader else { continue }
                do {
                    text += try reader.remainingText()
                } catch let error as RawInputError {
                    inputUnreadable = true
                    say("jsonstream: error: Could not read \(inputs.name): \(String(cString: strerror(error.code)))")
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
