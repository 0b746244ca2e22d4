// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

// An array after a syntax error: the error is queued for the element it
// broke (it ends that element, not the stream), the input after it is
// gathered (a window of `_ArrayResume.capacity` bytes, up to
// `_ArrayResume.reach` past the error) until `_ResumeSearch` finds where
// the next element begins; there a new yajl handle, standing
// inside the array, goes on. When no place holds, the stream ends with a
// terminal error (`JSONSyntaxError.endsStream`).

/// The state of an array looking for its next element.
struct _ArrayResume {
    var search: _ResumeSearch
    /// The error, for the element it broke.
    let error: JSONSyntaxError
    /// Where the skipped bytes begin: the broken element's first byte, or
    /// the error when it is between elements.
    let skippedFrom: UInt64
    /// Some of an element's tokens were recorded: the error broke it.
    let brokeAnElement: Bool
    /// The error followed a bracket that closed the array too early.
    let afterStrayBracket: Bool
    /// The target's opening (`[`, or the key path's objects and `[`), fed to
    /// each parser that stands inside the array again.
    let opening: [UInt8]
    /// Bytes kept at most: past them, the search drops what it has passed
    /// (`_ResumeSearch.slide()`), or decides with what it has.
    static let capacity = 4 << 20
    /// How far past the error the search looks: past it, the rest cannot
    /// be read (an element that large, or damage that never ends).
    static let reach: UInt64 = 64 << 20
}

extension _ElementStream {
    /// Whether a syntax error at this point may be resumed from: in an
    /// array, inside the target or just after it closed (the bracket may
    /// have been a stray one; `beginResume` decides with the bytes), or
    /// inside a target array when following roots; for a reason that leaves
    /// the input after it readable.
    func mayResume(after outcome: _ParseOutcome?) -> Bool {
        guard let parser, resume == nil else { return false }
        switch mode {
        case .array?:
            guard parser.isInTarget || (parser.targetClosed && parser.openContainers == parser.targetDepth - 1) else {
                return false
            }
        case .roots?:  // following roots (`--path`): inside a target array only
            guard parser.isInTargetArray else { return false }
        default:
            return false
        }
        if case .stopped(let code, _, _)? = outcome {
            switch Int(code) {
            case SJ_ERROR_NOT_ARRAY, SJ_ERROR_PATH_NOT_OBJECT, SJ_ERROR_MEMORY, SJ_ERROR_TOO_LARGE: return false
            default: break
            }
        }
        return true
    }

    /// Starts looking for the next element after `syntax`, found while
    /// parsing `chunk[start...]` (at input offset `base`); false when it
    /// cannot be resumed from after all (the target closed for good).
    func beginResume(after syntax: JSONSyntaxError, outcome: _ParseOutcome?,
                     chunk: UnsafeRawBufferPointer, from start: Int, base: UInt64) -> Bool {
        let errorOffset = UInt64(syntax.byteOffset)
        var boundary = parser.boundary.offset
        var depth = parser.openContainers - parser.targetDepth + 1
        if case .stopped(let code, _, _)? = outcome, Int(code) == SJ_ERROR_DEPTH { depth += 1 }  // its bracket not counted
        // What is still here of the input before the chunk (the string
        // before the error may have begun there), then the chunk.
        let chunkStart = base + UInt64(start)
        let earlier = recent.bytes(from: recent.base, to: chunkStart) ?? []
        var bytes = earlier
        unsafe bytes.append(contentsOf: chunk[start...])
        var gatheredBase = chunkStart - UInt64(earlier.count)
        // The same bytes however the input was cut into chunks: from 4 KiB
        // before the boundary (or what there is), so that where the search
        // looks back does not depend on the chunks.
        let from = max(gatheredBase, (boundary > 0 ? boundary - 1 : 0) - min(boundary > 0 ? boundary - 1 : 0, 4096))
        if from > gatheredBase {
            bytes.removeFirst(Int(from - gatheredBase))
            gatheredBase = from
        }
        var skippedFrom = errorOffset
        let targetClosed = parser.targetClosed
        if targetClosed {
            // Only when the bracket that closed it is the last token: taken
            // for a stray one, the scan starts again at it, inside the array
            // (and the comma after it loses no element).
            guard boundary > gatheredBase, bytes[Int(boundary - gatheredBase) - 1] == UInt8(ascii: "]") else {
                return false
            }
            boundary -= 1
            depth = 1
            skippedFrom = boundary
        } else if parser.hasTokensInProgress {
            skippedFrom = min(parser.currentElementStart, errorOffset)
        }
        var search = _ResumeSearch(bytes: bytes, base: gatheredBase, errorOffset: targetClosed ? boundary : errorOffset,
                                   scanStart: boundary >= gatheredBase ? (boundary, depth) : nil, lastString: nil)
        if !targetClosed { search.lastString = lastString(in: search, boundary: boundary) }
        // Failed again where it resumed, or at the error it resumed after:
        // that place is no place to go on.
        if let resumedAt, errorOffset <= resumedAt || errorOffset == resumedAfterError { search.notBefore = resumedAt }
        // How large elements are: this one so far. (Not those before it: a
        // stream read again from a piece of the input must decide as one
        // read from the start does.)
        search.typicalElementBytes = parser.hasTokensInProgress
            ? errorOffset - min(parser.currentElementStart, errorOffset) : 0
        var error = syntax
        error.elementIndex = elementsCompleted + elementsLost
        resume = _ArrayResume(search: search, error: error, skippedFrom: skippedFrom,
                              brokeAnElement: !targetClosed && parser.hasTokensInProgress,
                              afterStrayBracket: targetClosed, opening: _PathLocator.opening(path))
        return true
    }

    /// The contents of the string that ends at `boundary`, when the error
    /// comes right after it (past whitespace and one separator).
    private func lastString(in search: _ResumeSearch, boundary: UInt64) -> Range<UInt64>? {
        let bytes = search.bytes, base = search.base
        guard boundary >= base + 2, boundary <= search.errorOffset, search.errorOffset <= search.end,
              bytes[Int(boundary - base) - 1] == UInt8(ascii: "\"") else { return nil }
        let between = bytes[Int(boundary - base)..<Int(search.errorOffset - base)]
        guard between.allSatisfy({ _isJSONWhitespace($0) || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ":") }) else {
            return nil
        }
        // Its opening quote: the first one going back that no backslash escapes.
        var index = Int(boundary - base) - 2
        while index >= 0 {
            if bytes[index] == UInt8(ascii: "\"") {
                var backslashes = 0
                while index - backslashes - 1 >= 0 && bytes[index - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
                if backslashes % 2 == 0 { break }
            }
            index -= 1
        }
        return base + UInt64(index + 1)..<boundary - 1
    }

    /// Adds a chunk read while looking for the next element.
    func gatherForResume(_ chunk: UnsafeRawBufferPointer) {
        unsafe resume?.search.bytes.append(contentsOf: chunk)
    }

    /// Looks for the next element in what was gathered; where one begins,
    /// queues the error and parses on from there (which may start another
    /// search). `atEnd`: the input has no more bytes.
    func driveResume(atEnd: Bool) {
        while var current = resume {
            // Through a long element, a window: what the search has passed goes.
            if current.search.bytes.count >= _ArrayResume.capacity && !atEnd { _ = current.search.slide() }
            let tooFar = current.search.end - min(current.search.errorOffset, current.search.end) > _ArrayResume.reach
            let full = current.search.bytes.count >= _ArrayResume.capacity || tooFar
            let snapshot = current.search, opening = current.opening
            let outcome = current.search.run(atEnd: atEnd || tooFar) { offset, proof in
                guard offset > snapshot.notBefore else { return .fails }
                return verifyResume(at: offset, proof: proof, in: snapshot, opening: opening,
                                    atEnd: atEnd, windowFull: full)
            }
            switch outcome {
            case .needsMore where !atEnd && !tooFar
                && (current.search.bytes.count < _ArrayResume.capacity || current.search.slide()):
                resume = current  // with how far the search got
                return
            case .needsMore, .none:
                resume = nil
                failure = decodingError(terminalError(current, atEnd: atEnd))
                return
            case .resume(let offset):
                resume = nil
                var error = current.error
                error.skippedBytes = Int(offset - min(current.skippedFrom, offset))
                // Damage between two elements (an extra byte, a missing or
                // doubled comma, a stray bracket) loses none: no element was
                // begun, and no comma passed over after the error.
                let search = current.search
                let passed = search.bytes[Int(min(max(search.errorOffset, search.base), offset) - search.base)
                                          ..< Int(offset - search.base)]
                if current.brokeAnElement || (!current.afterStrayBracket && passed.contains(UInt8(ascii: ","))) {
                    elementsLost += 1
                } else {
                    error.elementIndex = nil
                }
                unsafe pendingErrors.append((elementsCompleted, decodingError(error, element: error.elementIndex)))
                restartInside(at: offset, opening: current.opening)
                resumedAt = offset
                resumedAfterError = current.search.errorOffset
                let bytes = current.search.bytes
                unsafe bytes.withUnsafeBytes { unsafe parseBody($0, from: Int(offset - current.search.base),
                                                                base: current.search.base) }
            }
        }
    }

    /// The error that ends the stream when no next element was found.
    private func terminalError(_ resume: _ArrayResume, atEnd: Bool) -> JSONSyntaxError {
        var error = resume.error
        let unread = resume.search.end - min(resume.search.errorOffset, resume.search.end)
        if !atEnd {
            error.message += "; no element begins in the \(_ArrayResume.reach >> 20) MiB after it"
        }
        error.endsStream = true
        error.unreadBytes = atEnd ? Int(unread) : nil
        return error
    }

    /// A new handle standing inside the array, at `offset`.
    private func restartInside(at offset: UInt64, opening: [UInt8]) {
        let outcome = parser.reenter(opening: opening, endingAt: max(offset, UInt64(opening.count)))
        precondition(outcome.isOK, "the array's opening parses")
        recent = _RecentBytes()
        tokensAfterBoundary = nil
        handleSawContent = true
    }

    /// Parses from `offset` with a fresh parser standing inside the array,
    /// and says whether what follows bears out an element beginning there.
    /// `atEnd`: the input ends with the bytes gathered. `windowFull`: no
    /// more can be gathered; what needs more is decided now (a structural
    /// place holds, a long run fails).
    private func verifyResume(at offset: UInt64, proof: _ResumeProof, in search: _ResumeSearch, opening: [UInt8],
                              atEnd: Bool, windowFull: Bool) -> _ResumeVerdict {
        let trial = _TapeParser(mode: .array, path: path, limits: limits)
        guard trial.reenter(opening: opening, endingAt: max(offset, UInt64(opening.count))).isOK else { return .fails }
        // The stream stops at a raw form feed or vertical tab, which yajl
        // takes for whitespace (`parseSpan`): so does the trial, or it would
        // bear out a place the stream fails at again, for ever.
        let rawSpace = search.firstFormFeedOrVerticalTab(from: offset)
        var outcome = unsafe search.bytes.withUnsafeBytes {
            unsafe trial.parse(UnsafeRawBufferPointer(rebasing: $0[Int(offset - search.base)..<Int((rawSpace ?? search.end) - search.base)]),
                               base: offset)
        }
        if outcome.isOK && atEnd && rawSpace == nil { outcome = trial.complete(end: search.end) }
        var failedAt: UInt64?
        switch outcome {
        case .ok: failedAt = rawSpace
        case .stopped(_, let position, _): failedAt = position
        case .invalid(_, _, let boundary): failedAt = boundary.offset
        }
        let elements = trial.completedElements > 0
        switch proof {
        case .element:
            // The array's end at the place itself: what follows must be seen
            // to be sound (the input's end, or a token accepted after it).
            if !elements && trial.targetClosed && failedAt == nil {
                return atEnd || windowFull || trial.boundary.offset > offset + 1 ? .holds : .needsMore
            }
            guard elements else { return failedAt != nil || atEnd ? .fails : windowFull ? .holds : .needsMore }
            // An element, judged on what follows it up to a horizon, so that
            // the verdict is the same however many bytes are gathered: no
            // error there; or an error inside a next element begun after a
            // separator (more damage); or, right after an object or array,
            // garbage other than `:` or `}` (its own error). A key read as an
            // element (`"items": [`), a member's value, or items of a nested
            // array that close the array the parse stands in, fail here.
            let horizon = trial.firstElementEnd + _ResumeSearch.elementHorizon
            guard let failedAt, failedAt < horizon else {
                if search.end >= horizon || atEnd || windowFull { return failedAt == nil && atEnd && !trial.targetClosed
                    ? .fails : .holds }
                return .needsMore
            }
            if trial.targetClosed { return .fails }
            if trial.boundary.offset > trial.firstElementEnd { return trial.hasTokensInProgress ? .holds : .fails }
            guard trial.lastElementIsContainer, let next = search.firstNonWhitespace(after: trial.firstElementEnd - 1),
                  let byte = search.byte(at: next) else { return .fails }
            return byte == UInt8(ascii: ":") || byte == UInt8(ascii: "}") ? .fails : .holds
        case .longRun:
            guard elements || trial.targetClosed else {
                return failedAt != nil || atEnd || windowFull ? .fails : .needsMore
            }
            // Past the error, and then: `strictSpan` bytes without one (or
            // twice the largest element seen, if more); or three elements
            // over twice the largest element seen, the third ending with no
            // error before it; or (more damage close by) an element, then an
            // error inside the next one, begun after a comma. Each is judged
            // on the bytes up to a point it fixes, so that the verdict is the
            // same however many bytes are gathered.
            let span = 2 * max(search.typicalElementBytes, 1)
            if trial.completedElements >= 3, case let third = trial.elementEnd(ordinal: 2),
               third > search.errorOffset, third >= offset + span, failedAt.map({ $0 > third }) ?? true {
                return .holds
            }
            if let failedAt, failedAt > search.errorOffset, trial.hasTokensInProgress { return .holds }
            let reach = failedAt ?? search.end
            let needed = max(search.errorOffset + 1, offset + max(_ResumeSearch.strictSpan, span))
            if failedAt != nil { return reach >= needed ? .holds : .fails }
            if atEnd || search.end >= needed { return .holds }
            return windowFull ? .fails : .needsMore
        }
    }

    /// A syntax error, for the element it broke when it names one.
    func decodingError(_ error: JSONSyntaxError, element: Int?) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: element.map { [_JSONKey(index: $0)] } ?? [],
            debugDescription: error.description, underlyingError: error))
    }
}

extension _ElementStream {
    /// The stream's failure as thrown: a syntax error in a stream is
    /// flagged as ending it (`JSONSyntaxError.endsStream`), since every later
    /// request throws it again. A whole document's is left as it is.
    func endingTheStream(_ failure: any Error) -> any Error {
        guard mode != .document, case .dataCorrupted(let context) = failure as? DecodingError,
              var syntax = context.underlyingError as? JSONSyntaxError, !syntax.endsStream else { return failure }
        syntax.endsStream = true
        if syntax.unreadBytes == nil, reachedEndOfInput, UInt64(syntax.byteOffset) <= bytesRead {
            syntax.unreadBytes = Int(bytesRead - UInt64(syntax.byteOffset))
        }
        return DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: context.codingPath, debugDescription: context.debugDescription, underlyingError: syntax))
    }

    /// A lost element's error, with the coding path `path` (a reader's
    /// numbering) and the element index its last entry names.
    func renumbered(_ error: any Error, at path: _CodingPathNode) -> any Error {
        guard case .dataCorrupted(let context) = error as? DecodingError,
              var syntax = context.underlyingError as? JSONSyntaxError else { return error }
        let codingPath = path.path
        syntax.elementIndex = codingPath.last?.intValue
        return DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: codingPath, debugDescription: context.debugDescription, underlyingError: syntax))
    }

    /// Reading side: array elements lost to syntax errors before element
    /// `ordinal` (the stream's numbering), for coding paths that count them.
    @inline(__always)
    func lostElements(before ordinal: Int) -> Int {
        lostOrdinals.isEmpty ? lostPassed : passLostElements(before: ordinal)
    }

    @inline(never)
    private func passLostElements(before ordinal: Int) -> Int {
        while let first = lostOrdinals.first, first <= ordinal {
            lostOrdinals.removeFirst()
            lostPassed += 1
        }
        return lostPassed
    }
}

extension Error {
    /// The element index a stream's syntax error names, if any.
    var brokenElementIndex: Int? {
        guard case .dataCorrupted(let context) = self as? DecodingError else { return nil }
        return (context.underlyingError as? JSONSyntaxError)?.elementIndex
    }
}
