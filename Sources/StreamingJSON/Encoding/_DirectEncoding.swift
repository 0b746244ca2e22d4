// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Encodes a value straight into the output bytes, without the node tape,
/// for the common case where a value fills its containers in output order.
///
/// The Codable protocol does not promise that order: a keyed container may
/// hand out a nested container (or `superEncoder()`), encode a sibling, and
/// only then fill the nested one; a key may be encoded twice (the last value
/// wins, at the first position). `_EncodingTape` handles all of that. This
/// encoder handles the in-order case and notices everything else:
///
/// - Open containers form a stack of frames, one per value being written
///   (a pending slot, an array or an object), each with a serial number.
///   Every encoder and container names its frame by index and serial.
/// - Writing into a frame closes the frames above it (their values are
///   complete: `]`, `}`, or `{}` for a slot nothing was encoded into, as the
///   tape writes an `.empty` node). A frame that is no longer on the stack
///   (its serial differs) was closed already: writing into it would need
///   bytes inserted before text already written.
/// - Each object keeps a 64-bit mask of its key hashes and the spans of its
///   keys in the output, so a key encoded twice is found.
///
/// Whenever the tape would do something this writer cannot (a closed frame
/// written again, a duplicate key, a scalar replaced, a misuse the tape
/// reports, an error this encoder throws, nesting near the depth limit), it
/// sets `needsTape` and stops: containers then do nothing and their throwing
/// methods throw `_DirectFallback`. `_ValueWriter` drops the bytes written
/// for the value and encodes it again through the tape, whose result
/// (output or error) is the one that counts. So the output is always the
/// tape's; the price is that such a value's `encode(to:)` runs twice.
///
/// This file holds the state and the stack of frames; the members and
/// elements are in `_DirectEncoding+Members.swift`, the values in
/// `+Values.swift`, the encoder and its containers in `+Containers.swift`.
///
/// Safe: it owns the frame stack and its key spans and path segments, and
/// every container's (frame, serial) is checked (`isOpen`) before use.
@safe final class _DirectEncoding {
    let out: _JSONOutput
    let options: _EncodingOptions
    let pretty: Bool
    let escapesSlashes: Bool
    let maxDepth: Int
    let userInfo: [CodingUserInfoKey: Any]
    let keyMode: KeyMode
    let dateMode: DateMode
    let dataIsBase64: Bool

    enum KeyMode { case plain, snakeCase, custom }
    enum DateMode { case deferred, seconds, milliseconds, iso8601, formatted, custom }

    var frames = unsafe _Growable<_DirectFrame>(capacity: 32)
    var spans = unsafe _Growable<_KeySpan>(capacity: 64)
    private(set) var segments: UnsafeMutablePointer<_PathSegment>
    private var segmentCapacity = 32
    private var nextSerial: UInt64 = 1
    /// Set when the value must be encoded again through the tape.
    var needsTape = false
    /// Indent level of the root value (1 for the elements of a pretty root array).
    private(set) var baseIndent = 0
    /// Nesting depth of the root value as the tape counts it (1 for array elements).
    private(set) var baseDepth = 0
    /// Index of the root value in a root array whose coding paths start with it, or -1.
    private(set) var baseIndex = -1
    /// Types known to be neither `_DirectEncodable` nor `_TapeEncodable`
    /// (a conformance check is a dynamic cast through the runtime, and user
    /// types come back for every element). Raw storage, so a lookup is
    /// plain loads.
    let plainTypes = UnsafeMutablePointer<ObjectIdentifier>.allocate(capacity: 64)
    var plainTypeCount = 0
    /// Keys of objects past `_EncodingTape.indexedObjectSize` members, by frame.
    var largeKeys: [Int: Set<[UInt8]>] = [:]
    /// Whether `largeKeys` may hold anything (checked instead of the dictionary).
    var hasLargeKeys = false
    var snakeCaseCache: [String: String] = [:]
    /// For `_TapeEncodable` values other than arrays and dictionaries
    /// (`JSONValue`): encoded into this tape and written from it.
    var bridgeTape: _EncodingTape?
    var bridgeContext: _EncodingContext?
    var bridgeWriter: _JSONWriter?
    /// Keyed containers kept for reuse while a `shelfScope()` is alive.
    @exclusivity(unchecked) var shelf = _ContainerShelf<_DirectKeyedTarget>()

    init(options: _EncodingOptions, output: _JSONOutput, pretty: Bool) {
        out = output
        self.options = options
        self.pretty = pretty
        escapesSlashes = !options.outputFormatting.contains(.withoutEscapingSlashes)
        maxDepth = options.maxDepth
        userInfo = options.userInfo
        switch options.keyEncodingStrategy {
        case .useDefaultKeys: keyMode = .plain
        case .convertToSnakeCase: keyMode = .snakeCase
        case .custom: keyMode = .custom
        }
        switch options.dateEncodingStrategy {
        case .deferredToDate: dateMode = .deferred
        case .secondsSince1970: dateMode = .seconds
        case .millisecondsSince1970: dateMode = .milliseconds
        case .iso8601: dateMode = .iso8601
        case .formatted: dateMode = .formatted
        case .custom: dateMode = .custom
        }
        if case .base64 = options.dataEncodingStrategy { dataIsBase64 = true } else { dataIsBase64 = false }
        unsafe segments = .allocate(capacity: segmentCapacity)
    }

    deinit {
        unsafe segments.deinitialize(count: frames.count)
        unsafe segments.deallocate()
        unsafe plainTypes.deallocate()
        unsafe frames.deallocate()
        unsafe spans.deallocate()
    }

    // MARK: Root

    /// Encodes `value` as a whole value at the end of the output. Check
    /// `needsTape` afterwards, whether this returns or throws.
    func encodeRoot<T: Encodable>(_ value: T, isElement: Bool, indent: Int, index: Int) throws {
        reset()
        baseIndent = indent
        baseDepth = isElement ? 1 : 0
        baseIndex = index
        let (root, serial) = push(.pending, .none)
        try encodeInto(value, frame: root, serial: serial)
        guard !needsTape else { return }
        guard unsafe frames.count > 0, unsafe frames[0].serial == serial else {
            needsTape = true
            return
        }
        // A top-level value that encoded nothing is the tape's error to report.
        if !isElement, unsafe frames[0].kind == .pending {
            needsTape = true
            return
        }
        closeFrames(downTo: 0)
    }

    private func reset() {
        unsafe segments.deinitialize(count: frames.count)
        unsafe frames.removeAll()
        unsafe spans.removeAll()
        if hasLargeKeys {
            largeKeys.removeAll()
            hasLargeKeys = false
        }
        needsTape = false
    }

    // MARK: Frames

    @inline(__always)
    func fallback() -> _DirectFallback {
        needsTape = true
        return _DirectFallback()
    }

    @inline(__always)
    func isOpen(_ frame: Int, _ serial: UInt64) -> Bool {
        unsafe UInt(bitPattern: frame) < UInt(bitPattern: frames.count) && frames[frame].serial == serial
    }

    @inline(__always)
    func push(_ kind: _DirectFrame.Kind, _ segment: _PathSegment) -> (Int, UInt64) {
        let index = unsafe frames.count
        let serial = nextSerial
        nextSerial &+= 1
        // Grow first: growSegments moves the segments of the frames on the
        // stack, which must not include the one being pushed yet.
        if index == segmentCapacity { growSegments() }
        var stack = unsafe frames
        unsafe stack.append(_DirectFrame(kind: kind, count: 0, spansStart: UInt32(truncatingIfNeeded: spans.count),
                                         serial: serial, keyMask: 0))
        unsafe frames = unsafe stack
        unsafe (segments + index).initialize(to: segment)
        return (index, serial)
    }

    @inline(never)
    private func growSegments() {
        let capacity = segmentCapacity * 2
        let grown = UnsafeMutablePointer<_PathSegment>.allocate(capacity: capacity)
        unsafe grown.moveInitialize(from: segments, count: frames.count)
        unsafe segments.deallocate()
        unsafe segments = unsafe grown
        segmentCapacity = capacity
    }

    /// Closes every frame from the top down to index `index` (kept).
    @inline(__always)
    func closeFrames(downTo index: Int) {
        while unsafe frames.count > index { closeTop() }
    }

    private func closeTop() {
        let index = unsafe frames.count - 1
        let frame = unsafe frames[index]
        let indent = baseIndent &+ index
        switch frame.kind {
        case .pending:
            out.writeByte(UInt8(ascii: "{"))
            closeBracket(UInt8(ascii: "}"), count: 0, indent: indent)
        case .filled:
            break
        case .array:
            closeBracket(UInt8(ascii: "]"), count: Int(frame.count), indent: indent)
        case .object:
            closeBracket(UInt8(ascii: "}"), count: Int(frame.count), indent: indent)
            if hasLargeKeys { largeKeys[index] = nil }
        }
        var keySpans = unsafe spans
        unsafe keySpans.truncate(to: Int(frame.spansStart))
        unsafe spans = unsafe keySpans
        unsafe (segments + index).deinitialize(count: 1)
        var stack = unsafe frames
        unsafe stack.removeLast()
        unsafe frames = unsafe stack
    }

    /// The end of a container with `count` children, in the tape writer's layout.
    @inline(__always)
    func closeBracket(_ close: UInt8, count: Int, indent: Int) {
        if pretty {
            if count == 0 { out.writeByte(UInt8(ascii: "\n")) }
            out.writeNewline(indent: indent)
        }
        out.writeByte(close)
    }

    /// The `,` and indent before child number `index` of the container at `frame`.
    @inline(__always)
    func separator(_ index: Int, frame: Int) {
        if pretty {
            if index > 0 { out.writeByte(UInt8(ascii: ",")) }
            out.writeNewline(indent: baseIndent &+ frame &+ 1)
        } else if index > 0 {
            out.writeByte(UInt8(ascii: ","))
        }
    }

    @inline(__always)
    func writeColon() {
        if pretty {
            let p = unsafe out.reserve(3)
            unsafe p[0] = 0x20
            unsafe p[1] = UInt8(ascii: ":")
            unsafe p[2] = 0x20
            unsafe out.count &+= 3
        } else {
            out.writeByte(UInt8(ascii: ":"))
        }
    }

    /// Makes `frame` the top of the stack, or throws if it was closed.
    @inline(__always)
    func makeTop(_ frame: Int, _ serial: UInt64) throws {
        guard !needsTape, isOpen(frame, serial) else { throw fallback() }
        if unsafe frame != frames.count &- 1 { closeFrames(downTo: frame &+ 1) }
    }

    /// The encoder at `frame` asks for a container of `kind`: the pending
    /// slot becomes one, or the same container is handed out again.
    func openContainer(_ frame: Int, _ serial: UInt64, _ kind: _DirectFrame.Kind) -> Bool {
        guard !needsTape, isOpen(frame, serial) else {
            needsTape = true
            return false
        }
        if unsafe frame != frames.count &- 1 { closeFrames(downTo: frame &+ 1) }
        let current = unsafe frames[frame].kind
        if current == kind { return true }
        guard current == .pending, baseDepth &+ frame < maxDepth else {
            needsTape = true
            return false
        }
        out.writeByte(kind == .object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        unsafe frames[frame].kind = kind
        return true
    }
}
