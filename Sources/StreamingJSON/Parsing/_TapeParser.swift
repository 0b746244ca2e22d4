// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
internal import CYajl
import Foundation

/// What a stream records: see `SJ_MODE_*` in `CJSONTape.h`.
enum _StreamMode: Int32 {
    /// The root value; a root array is streamed element by element.
    case document = 0
    /// The elements of the array at the path.
    case array = 1
    /// Top-level values separated by whitespace.
    case lines = 2
    /// The members of the object at the path.
    case members = 3
    /// Every top-level value followed along the path (`SJ_MODE_ROOTS`):
    /// the target's elements or members between marks, or a value whole.
    case roots = 4
    /// Every token an element of its own (`SJ_MODE_EVENTS`), for jq's `--stream`.
    case events = 5
}

/// Limits a parse enforces while yajl runs (yajl itself has none). The
/// decoder's properties and jsonstream's `--max-…` options set them.
package struct _ParserLimits: Sendable {
    package var maxDepth = 512
    package var maxNumberLength = 1_000
    /// Bytes of a string or key after unescaping; a string that spans reads
    /// is also held to it as written (`tape_feed.c` in CJSONTape).
    package var maxStringLength = 64 << 20
    /// 0: no limit.
    package var maxElementBytes = 0
    var allowsComments = false
    /// Not a limit: when set, elements that are objects are recorded with
    /// these members only (`sj_parser_project`), for a consumer that reads
    /// nothing else. The others are parsed, so errors in them still count.
    var recordedMembers: _Projection?

    package init() {}
}

/// How a call into yajl ended.
enum _ParseOutcome {
    case ok
    /// A tape callback stopped the parse: `SJ_ERROR_*`, where, and the kind of
    /// value found (for the target and path errors).
    case stopped(code: Int32, position: UInt64, foundKind: UInt8)
    /// yajl rejected the input; `offset` is yajl's offset in the bytes of its
    /// last call (`_TapeParser.lastFed`: the chunk, or a long token's bytes
    /// held back), `boundary` the end of the last token it accepted (`CJSONTape.h`).
    case invalid(message: String, offset: Int, boundary: _TokenBoundary)
}

extension _ParseOutcome {
    var isOK: Bool { if case .ok = self { true } else { false } }
}

/// The one owner of the C parser: allocation, configuration, feeding, status
/// checks and the tape's memory. Everything else reads the tape through
/// `tokens` and `arena`, which move when the tape grows or is compacted.
///
/// Safe: it owns the C parser and the key lists it reads; the tape pointers
/// it hands out are unsafe by their types, and its index-taking calls into
/// the tape (unchecked) are `@unsafe`.
@safe final class _TapeParser {
    let state: UnsafeMutablePointer<sj_parser>
    /// The key path's and the projection's keys, as the C parser reads them;
    /// they must outlive it.
    private let pathKeys: _CKeyList?
    private let memberKeys: _CKeyList?
    private var allowsComments = false

    init(mode: _StreamMode, path: [String], limits: _ParserLimits) {
        pathKeys = path.isEmpty ? nil : _CKeyList(path.map { Array($0.utf8) })
        unsafe state = unsafe Self.create(mode, pathKeys, count: path.count)
        unsafe tape = unsafe Self.tape(of: state)
        if let members = limits.recordedMembers {
            let list = _CKeyList(members.names)
            unsafe sj_parser_project(state, list.keys, list.lengths, list.count)
            memberKeys = list
        } else {
            memberKeys = nil
        }
        unsafe state.pointee.limits = sj_limits(
            maxDepth: limits.maxDepth, maxNumberLength: limits.maxNumberLength,
            maxStringLength: limits.maxStringLength, maxElementBytes: UInt64(limits.maxElementBytes))

        allowsComments = limits.allowsComments
        guard let handle = unsafe sj_parser_open(state) else { Self.outOfMemory() }
        // UTF-8 validation stays on (the flag named `dont_validate` turns it off).
        _ = unsafe cyajl_config(handle, yajl_allow_comments, limits.allowsComments ? 1 : 0)
        if mode == .lines || mode == .roots || mode == .events {
            _ = unsafe cyajl_config(handle, yajl_allow_multiple_values, 1)
        }
    }

    /// A tape with no parser behind it: a batch between threads, or the
    /// decoding thread's tape when parsing runs on another thread.
    init(tapeOnly: Void) {
        pathKeys = nil
        memberKeys = nil
        unsafe state = unsafe Self.create(.lines, nil, count: 0)
        unsafe tape = unsafe Self.tape(of: state)
    }

    deinit {
        unsafe sj_parser_destroy(state)
    }

    /// The C parser's state, on cache lines of its own (`sj_parser_create`).
    private static func create(_ mode: _StreamMode, _ path: _CKeyList?, count: Int) -> UnsafeMutablePointer<sj_parser> {
        guard let state = unsafe sj_parser_create(mode.rawValue, path?.keys, path?.lengths, count) else { outOfMemory() }
        return unsafe state
    }

    /// The tape's buffers grow with the largest element; running out of
    /// memory for them is fatal, as it is for a Swift array.
    @inline(never)
    private static func outOfMemory() -> Never {
        fatalError("StreamingJSON: out of memory for the parser's state")
    }

    /// After a syntax error in JSON Lines: a new yajl handle (yajl cannot
    /// recover), the element in progress forgotten, complete elements kept.
    /// The input begins in the middle of a larger one (a piece): the first
    /// bytes fed are a token boundary, as after `restart()`, for locating a
    /// token rejected before any is accepted.
    func beginsAtFirstFedByte() {
        unsafe state.pointee.location.restarted = 1
    }

    func restart() {
        unsafe sj_parser_restart(state)
        guard unsafe state.pointee.yajl != nil else { Self.outOfMemory() }
        _ = unsafe cyajl_config(state.pointee.yajl, yajl_allow_comments, allowsComments ? 1 : 0)
        _ = unsafe cyajl_config(state.pointee.yajl, yajl_allow_multiple_values, 1)
    }

    /// After a syntax error in an array (`_ElementStream+Resume.swift`): a new
    /// handle, given `opening` (the target's `[`, after the key path's
    /// objects) as if it ended at `offset`, stands inside the target array,
    /// ready for the element that begins there. Complete elements stay.
    func reenter(opening: [UInt8], endingAt offset: UInt64) -> _ParseOutcome {
        let status = unsafe opening.withUnsafeBytes {
            unsafe sj_parser_reenter(state, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count,
                                     offset - UInt64($0.count), allowsComments ? 1 : 0)
        }
        guard unsafe state.pointee.yajl != nil else { Self.outOfMemory() }
        return check(status)
    }

    /// Following roots: whether the parse stands inside a target array.
    var isInTargetArray: Bool {
        unsafe state.pointee.framing.inTarget != 0 && Int(state.pointee.framing.mode) == SJ_MODE_ARRAY
    }

    /// Containers open where yajl stopped, the target's own included.
    var openContainers: Int { unsafe state.pointee.framing.depth }
    /// The depth of the target's elements (`openContainers` between them).
    var targetDepth: Int { unsafe state.pointee.framing.frameDepth }
    /// Whether the parse is inside the target, between or in its elements.
    var isInTarget: Bool { unsafe state.pointee.framing.inTarget != 0 }
    /// Whether the target has closed.
    var targetClosed: Bool { unsafe state.pointee.framing.targetDone != 0 }
    /// Whether some of an element's tokens are on the tape, its end not yet.
    var hasTokensInProgress: Bool {
        unsafe state.pointee.tape.tokenCount > Int(state.pointee.tape.completeEnd.token)
    }
    /// The first byte of the element in progress (valid with `hasTokensInProgress`).
    var currentElementStart: UInt64 { unsafe state.pointee.tape.currentPosition }
    /// Where complete element `ordinal` (0: the first on the tape) ends;
    /// `ordinal` must be below `elementCount`.
    func elementEnd(ordinal: Int) -> UInt64 {
        precondition(ordinal < elementCount)
        return unsafe state.pointee.tape.elements[ordinal].end
    }
    /// Where the first complete element on the tape ends (0: none).
    var firstElementEnd: UInt64 {
        unsafe elementCount > 0 ? state.pointee.tape.elements[0].end : 0
    }
    /// Whether the last complete element on the tape is an object or array.
    var lastElementIsContainer: Bool {
        guard elementCount > 0 else { return false }
        let kind = unsafe view[elementStart(elementCount - 1)].kind
        return kind == _Kind.object || kind == _Kind.array
    }

    /// The end of the last token yajl accepted (`CJSONTape.h`).
    var boundary: _TokenBoundary {
        unsafe _TokenBoundary(offset: state.pointee.location.boundary,
                              separated: state.pointee.location.boundarySeparated != 0)
    }

    /// Where the element being parsed began, if one is in progress.
    var elementInProgressStart: UInt64? {
        let p = unsafe state.pointee
        return unsafe p.framing.depth > 0 || p.tape.tokenCount > Int(p.tape.completeEnd.token) ? p.tape.currentPosition : nil
    }

    // MARK: Feeding

    func parse(_ chunk: UnsafeRawBufferPointer, base: UInt64) -> _ParseOutcome {
        let status = unsafe sj_parser_parse(state, chunk.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                            chunk.count, base)
        return check(status)
    }

    /// The bytes of yajl's last call and their absolute offset: the chunk
    /// just parsed, or the bytes of a long token held back until its end
    /// (`tape_feed.c` in CJSONTape). Valid until the next call.
    var lastFed: (bytes: UnsafeRawBufferPointer, base: UInt64) {
        let p = unsafe state.pointee
        return unsafe (UnsafeRawBufferPointer(start: p.input.fed, count: p.input.fedLength), p.input.fedBase)
    }

    /// The UTF-16 code unit of the last unpaired surrogate escape found
    /// (`SJ_ERROR_SURROGATE`).
    var unpairedSurrogate: UInt16 { unsafe UInt16(truncatingIfNeeded: state.pointee.checks.escUnit) }

    /// Why the last UTF-8 sequence refused was refused (`SJ_ERROR_UTF8`, `SJ_UTF8_*`).
    var invalidUTF8Reason: UInt8 { unsafe state.pointee.checks.utf8Bad }

    /// Following a key path: whether an object along it had the path's key
    /// more than once in what was parsed (for a piece: in its document's
    /// tail), so that the value the path found may not be the one jq keeps.
    var metRepeatedPathKey: Bool {
        unsafe state.pointee.framing.repeatedPathKey != 0
    }

    /// Where the token that the last chunk ended inside of begins, if one is open.
    var openTokenStart: UInt64? {
        let start = unsafe state.pointee.pending.pendingStart
        return start == UInt64.max ? nil : start
    }

    /// Where a string that the last chunk ended inside of begins, if one is open.
    var openStringStart: UInt64? {
        unsafe state.pointee.pending.pendingKind == UInt8(ascii: "\"") ? openTokenStart : nil
    }

    /// Hands yajl the bytes of a long token held back (`tape_feed.c`), so that
    /// an error in them is reported before one found after them.
    func flushHeld() -> _ParseOutcome {
        unsafe check(sj_parser_flush_held(state))
    }

    /// Ends the input, `end` bytes long: yajl reports truncation only here.
    func complete(end: UInt64) -> _ParseOutcome {
        unsafe check(sj_parser_complete(state, end))
    }

    /// Every yajl status goes through here.
    private func check(_ status: yajl_status) -> _ParseOutcome {
        switch status {
        case yajl_status_ok:
            return .ok
        case yajl_status_client_canceled:
            let p = unsafe state.pointee
            return unsafe .stopped(code: p.location.error, position: p.location.errorPosition,
                                   foundKind: UInt8(truncatingIfNeeded: p.location.errorKind))
        default:
            let handle = unsafe state.pointee.yajl
            let offset = unsafe Int(yajl_get_bytes_consumed(handle))
            var message = "invalid JSON"
            if let text = unsafe yajl_get_error(handle, 0, nil, 0) {
                message = unsafe String(cString: text)
                unsafe yajl_free_error(handle, text)
            }
            return .invalid(message: message, offset: offset, boundary: boundary)
        }
    }

    // MARK: The tape

    /// The recorded tokens, inside the parser's state: readers keep this
    /// pointer, which stays valid as long as the parser (the buffers it
    /// points to move when the tape grows or is compacted).
    let tape: UnsafeMutablePointer<sj_tape>

    /// `state`'s `tape` field, found once when the parser is made.
    private static func tape(of state: UnsafeMutablePointer<sj_parser>) -> UnsafeMutablePointer<sj_tape> {
        unsafe (UnsafeMutableRawPointer(state) + MemoryLayout<sj_parser>.offset(of: \.tape)!)
            .assumingMemoryBound(to: sj_tape.self)
    }

    /// The tape as it is now.
    var view: _TapeView {
        unsafe _TapeView(tokens: UnsafePointer(tape.pointee.tokens), arena: UnsafePointer(tape.pointee.arena))
    }
    var tokenCount: Int { unsafe state.pointee.tape.tokenCount }
    var elementCount: Int { unsafe state.pointee.tape.elementCount }

    /// Index (on the tape) of complete element `index` (0 = oldest kept);
    /// `index` must be below `elementCount`.
    @unsafe func elementStart(_ index: Int) -> Int { unsafe Int(state.pointee.tape.elements[index].token) }

    /// Absolute input offset just past complete element `index`'s last byte.
    @unsafe func elementEnd(_ index: Int) -> UInt64 { unsafe state.pointee.tape.elements[index].end }

    /// Drops the `count` oldest complete elements (at most `elementCount`);
    /// returns the tokens dropped.
    @unsafe func dropElements(_ count: Int) -> Int { unsafe sj_parser_drop_elements(state, count) }

    /// Whether the target of an `.array`/`.members` stream was found.
    var foundTarget: Bool { unsafe state.pointee.framing.inTarget != 0 || state.pointee.framing.targetDone != 0 }

    /// In `.document` mode: the root is an array whose elements are streamed.
    var streamsRootArray: Bool {
        let p = unsafe state.pointee
        return unsafe p.framing.frameDepth == 1 && (p.framing.inTarget != 0 || p.framing.targetDone != 0)
    }

    var completedElements: UInt64 { unsafe state.pointee.tape.completedElements }
}

/// Byte strings laid out for C (`const unsigned char *const *` and
/// `const size_t *`), alive as long as this object.
@safe final class _CKeyList {
    let keys: UnsafeMutablePointer<UnsafePointer<UInt8>?>
    let lengths: UnsafeMutablePointer<Int>
    let count: Int
    private let storage: [UnsafeMutablePointer<UInt8>]

    init(_ names: [[UInt8]]) {
        count = names.count
        unsafe keys = .allocate(capacity: max(count, 1))
        unsafe lengths = .allocate(capacity: max(count, 1))
        unsafe storage = unsafe names.map { name in
            let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(name.count, 1))
            unsafe bytes.initialize(from: name, count: name.count)
            return unsafe bytes
        }
        for index in 0..<count {
            unsafe keys[index] = unsafe UnsafePointer(storage[index])
            unsafe lengths[index] = names[index].count
        }
    }

    deinit {
        unsafe storage.forEach { unsafe $0.deallocate() }
        unsafe keys.deallocate()
        unsafe lengths.deallocate()
    }
}
