#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StreamingJSON

extension JSONStreamRun {
    /// Streams one input (a path, or `-` for stdin) through the filter.
    ///
    /// What each event does follows DESIGN.md's "jsonstream behaviour by
    /// input kind": a runtime error stops an array (jq stops `.[] | F`) and
    /// not JSON Lines; a syntax error stops everything; an element over a
    /// limit is reported and the input goes on; with `--on-error skip` every
    /// element error is reported and skipped. Returns false when nothing
    /// more may be read (a syntax error).
    func read(_ file: String) throws -> Bool {
        let name = file == "-" ? "<stdin>" : file
        let reader: _ValueReader
        let flush = { [unowned self] in self.flushBeforeBlockingRead() }
        if file == "-" {
            reader = _ValueReader(descriptor: streams.input, format: streamFormat, path: options.path,
                                  limits: options.limits, projection: projection, beforeBlockingRead: flush)
        } else {
            do {
                reader = try _ValueReader(contentsOfFile: file, format: streamFormat, path: options.path,
                                          limits: options.limits, projection: projection, beforeBlockingRead: flush)
            } catch {
                inputUnreadable = true
                say("jsonstream: error: Could not open \(file): \(reason(error))")
                return true  // jq goes on with the next file and exits 2
            }
        }
        defer { counters.bytesOfFinishedInputs += reader.bytesRead }

        let skips = options.errorPolicy == .skip
        var unitStarted = false
        while true {
            let event = reader.next()
            if let error = deferredOutputError { throw error }
            switch event {
            case .value(let value):
                counters.elementsIn += 1
                let isArray = reader.isArray == true
                if !isArray || !unitStarted {
                    exitRule.beginUnit()
                    unitStarted = true
                }
                let succeeded = try apply(to: value, at: location(of: reader, in: name))
                if let error = deferredOutputError { throw error }
                if !succeeded && isArray && !skips { return true }
                progress?.tick(bytes: counters.bytesOfFinishedInputs + reader.bytesRead, elements: counters.elementsIn)

            case .elementError(let error, let isLimit):
                counters.elementsIn += 1
                let place = "\(name):\(error.line):\(error.column), element \(reader.index)"
                if skips {
                    counters.skipped += 1
                    say("jsonstream: skipped (at \(place)): \(error.message)")
                    continue
                }
                inputFailed = true
                say("jsonstream: error (at \(place)): \(error.message)")
                // A value over a limit is well-formed: the next line is sound. After
                // a malformed line, jq stops reading.
                if !isLimit { return false }

            case .syntaxError(let error):
                counters.elementsIn += 1
                let place = "\(name):\(error.line):\(error.column), element \(reader.index + 1)"
                if skips {
                    counters.skipped += 1
                    say("jsonstream: skipped (at \(place)): \(error.message); the rest of \(name) cannot be read")
                    return true
                }
                inputFailed = true
                say("jsonstream: error (at \(place)): \(error.message)")
                return false

            case .readError(let error):
                inputUnreadable = true
                say("jsonstream: error: Could not read \(name): \(reason(error))")
                return true

            case .end:
                // An empty array is still one jq input, with no result (`-e` exits 4).
                if reader.isArray == true && !unitStarted { exitRule.beginUnit() }
                return true
            }
        }
    }

    private var streamFormat: JSONStreamFormat {
        switch options.inputFormat {
        case .auto: return .auto
        case .array: return .array
        case .lines: return .jsonLines
        }
    }

    private func location(of reader: _ValueReader, in name: String) -> ElementLocation {
        let position = reader.elementPosition()
        return ElementLocation(file: name, index: reader.index, line: position?.line, column: position?.column)
    }

    /// Called before a read from stdin that would wait: what is computed so
    /// far goes out now. A failure is kept for the read loop to throw.
    private func flushBeforeBlockingRead() {
        guard deferredOutputError == nil else { return }
        do {
            try sink.flush()
        } catch let error as OutputError {
            deferredOutputError = error
        } catch {}
    }

    /// `No such file or directory` rather than a `CocoaError` dump.
    private func reason(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        return describe(error)
    }
}
