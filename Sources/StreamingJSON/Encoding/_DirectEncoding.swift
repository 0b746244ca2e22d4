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
    private let dateMode: DateMode
    private let dataIsBase64: Bool

    enum KeyMode { case plain, snakeCase, custom }
    private enum DateMode { case deferred, seconds, milliseconds, iso8601, formatted, custom }

    var frames = unsafe _Growable<_DirectFrame>(capacity: 32)
    private var spans = unsafe _Growable<_KeySpan>(capacity: 64)
    private var segments: UnsafeMutablePointer<_PathSegment>
    private var segmentCapacity = 32
    private var nextSerial: UInt64 = 1
    /// Set when the value must be encoded again through the tape.
    var needsTape = false
    /// Indent level of the root value (1 for the elements of a pretty root array).
    private(set) var baseIndent = 0
    /// Nesting depth of the root value as the tape counts it (1 for array elements).
    private(set) var baseDepth = 0
    /// Index of the root value in a root array whose coding paths start with it, or -1.
    private var baseIndex = -1
    /// Types known to be neither `_DirectEncodable` nor `_TapeEncodable`
    /// (a conformance check costs hundreds of instructions; user types come
    /// back for every element). Raw storage, so a lookup is plain loads.
    private let plainTypes = UnsafeMutablePointer<ObjectIdentifier>.allocate(capacity: 64)
    private var plainTypeCount = 0
    /// Keys of objects past `_EncodingTape.indexedObjectSize` members, by frame.
    private var largeKeys: [Int: Set<[UInt8]>] = [:]
    /// Whether `largeKeys` may hold anything (checked instead of the dictionary).
    private var hasLargeKeys = false
    private var snakeCaseCache: [String: String] = [:]
    /// For `_TapeEncodable` values other than arrays and dictionaries
    /// (`JSONValue`): encoded into this tape and written from it.
    private var bridgeTape: _EncodingTape?
    private var bridgeContext: _EncodingContext?
    private var bridgeWriter: _JSONWriter?
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
    private func makeTop(_ frame: Int, _ serial: UInt64) throws {
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

    // MARK: Members and elements

    /// Writes the separator, the key and the colon of a new member of the
    /// object at `frame`; throws if the frame is closed or the key repeats.
    @inline(__always)
    func beginMember<Key: CodingKey>(_ frame: Int, _ serial: UInt64, _ key: Key,
                                     spellings: _KeySlots? = nil) throws {
        try makeTop(frame, serial)
        let index = unsafe Int(frames[frame].count)
        separator(index, frame: frame)
        let start = unsafe out.count &+ 1
        let hash: UInt64
        if let spellings = unsafe spellings {
            // (Only with `.plain` keys: the other strategies may depend on the path.)
            let slot = unsafe spellings.slot(for: key)
            if let bytes = unsafe slot.pointee.bytes {
                let count = unsafe slot.pointee.count
                if count <= 16 {
                    // Two word copies (the slot holds at least 16 bytes): most keys.
                    let to = unsafe UnsafeMutableRawPointer(out.reserve(16))
                    let from = UnsafeRawPointer(bytes)
                    unsafe to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                    unsafe (to + 8).storeBytes(of: (from + 8).loadUnaligned(as: UInt64.self), as: UInt64.self)
                    unsafe out.count &+= count
                } else {
                    unsafe out.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
                }
                hash = unsafe slot.pointee.hash
            } else {
                hash = writeString(key.stringValue)
                unsafe slot.pointee = unsafe _KeyBytes(UnsafeBufferPointer(start: out.base + (start &- 1),
                                                                           count: out.count &- start &+ 1),
                                                       hash: hash)
            }
        } else {
            switch keyMode {
            case .plain: hash = writeString(key.stringValue)
            case .snakeCase: hash = writeString(snakeCased(key.stringValue))
            case .custom: hash = writeString(customKey(key, frame: frame))
            }
        }
        unsafe try noteKey(frame, start: start, length: out.count &- 1 &- start, hash: hash)
        unsafe frames[frame].count &+= 1
        writeColon()
    }

    private func snakeCased(_ name: String) -> String {
        if let converted = snakeCaseCache[name] { return converted }
        let converted = _convertToSnakeCase(name)
        snakeCaseCache[name] = converted
        return converted
    }

    private func customKey<Key: CodingKey>(_ key: Key, frame: Int) -> String {
        guard case .custom(let convert) = options.keyEncodingStrategy else { return key.stringValue }
        var path = unsafe codingPath(frame, frames[frame].serial)
        path.append(key)
        return convert(path).stringValue
    }

    /// Records the key just written (escaped, at `start` in the output; its
    /// hash from `writeEscaped`) as a member of the object at `frame`;
    /// throws if it is there already.
    @inline(__always)
    private func noteKey(_ frame: Int, start: Int, length: Int, hash: UInt64) throws {
        let key = unsafe out.base + start
        let bit: UInt64 = 1 &<< (hash &>> 58)
        let object = unsafe frames[frame]
        if object.count >= UInt32(_EncodingTape.indexedObjectSize) {
            return try noteLargeKey(frame, start: start, length: length)
        }
        if object.keyMask & bit != 0 {
            var span = Int(object.spansStart)
            while unsafe span < spans.count {
                let other = unsafe spans[span]
                if other.length == length, unsafe Self.bytesEqual(out.base + other.start, key, length) { throw fallback() }
                span &+= 1
            }
        }
        unsafe frames[frame].keyMask = object.keyMask | bit
        var keySpans = unsafe spans
        unsafe keySpans.append(_KeySpan(start: start, length: length))
        unsafe spans = unsafe keySpans
    }

    @inline(never)
    private func noteLargeKey(_ frame: Int, start: Int, length: Int) throws {
        hasLargeKeys = true
        if largeKeys[frame] == nil {
            var keys = Set<[UInt8]>()
            for span in unsafe Int(frames[frame].spansStart)..<spans.count {
                unsafe keys.insert(Array(UnsafeBufferPointer(start: out.base + spans[span].start,
                                                             count: spans[span].length)))
            }
            largeKeys[frame] = keys
        }
        let key = unsafe Array(UnsafeBufferPointer(start: out.base + start, count: length))
        guard largeKeys[frame]!.insert(key).inserted else { throw fallback() }
    }

    @inline(__always)
    static func bytesEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        var i = 0
        while length &- i >= 8 {
            if unsafe UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self)
                != UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self) {
                return false
            }
            i &+= 8
        }
        return unsafe _FastScalars.loadPartial(a + i, length &- i) == _FastScalars.loadPartial(b + i, length &- i)
    }

    /// Writes the separator before a new element of the array at `frame`;
    /// returns the element's index.
    @inline(__always)
    func beginElement(_ frame: Int, _ serial: UInt64) throws -> Int {
        try makeTop(frame, serial)
        let index = unsafe Int(frames[frame].count)
        separator(index, frame: frame)
        unsafe frames[frame].count &+= 1
        return index
    }

    func elementCount(_ frame: Int, _ serial: UInt64) -> Int {
        guard isOpen(frame, serial) else {
            needsTape = true
            return 0
        }
        return unsafe Int(frames[frame].count)
    }

    /// Checks that the single-value slot at `frame` is still empty and on
    /// top; `fill` marks it written.
    @inline(__always)
    func beginSingle(_ frame: Int, _ serial: UInt64, fill: Bool) throws {
        guard !needsTape, isOpen(frame, serial), unsafe frame == frames.count &- 1,
              unsafe frames[frame].kind == .pending else { throw fallback() }
        if fill { unsafe frames[frame].kind = .filled }
    }

    /// A new member holding a nested container.
    func openNested<Key: CodingKey>(_ frame: Int, _ serial: UInt64, key: Key,
                                    kind: _DirectFrame.Kind) -> (Int, UInt64) {
        do { unsafe try beginMember(frame, serial, key) } catch { return (-1, 0) }
        return openChild(frame, kind: kind, segment: .key(key))
    }

    /// A new element holding a nested container.
    func openNestedElement(_ frame: Int, _ serial: UInt64, kind: _DirectFrame.Kind) -> (Int, UInt64) {
        let index: Int
        do { index = try beginElement(frame, serial) } catch { return (-1, 0) }
        return openChild(frame, kind: kind, segment: .index(index))
    }

    private func openChild(_ frame: Int, kind: _DirectFrame.Kind, segment: _PathSegment) -> (Int, UInt64) {
        switch kind {
        case .object, .array:
            guard baseDepth &+ frame &+ 1 < maxDepth else {
                needsTape = true
                return (-1, 0)
            }
            out.writeByte(kind == .object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        case .pending, .filled:
            break
        }
        return push(kind, segment)
    }

    /// A new member whose value is filled through the returned encoder.
    func openSuper<Key: CodingKey>(_ frame: Int, _ serial: UInt64, key: Key) -> (Int, UInt64) {
        do { unsafe try beginMember(frame, serial, key) } catch { return (-1, 0) }
        return push(.pending, .key(key))
    }

    func openSuperElement(_ frame: Int, _ serial: UInt64) -> (Int, UInt64) {
        let index: Int
        do { index = try beginElement(frame, serial) } catch { return (-1, 0) }
        return push(.pending, .index(index))
    }

    // MARK: Coding paths

    func codingPath(_ frame: Int, _ serial: UInt64) -> [any CodingKey] {
        guard isOpen(frame, serial) else {
            // A closed frame: the path is gone, and so is this attempt.
            needsTape = true
            return []
        }
        var keys: [any CodingKey] = []
        if baseIndex >= 0 { keys.append(_JSONKey(index: baseIndex)) }
        if frame >= 1 {
            for level in 1...frame {
                switch unsafe segments[level] {
                case .none: break
                case .index(let index): keys.append(_JSONKey(index: index))
                case .key(let key): keys.append(key)
                }
            }
        }
        return keys
    }

    private func pathNode(_ frame: Int) -> _CodingPathNode {
        var node = baseIndex >= 0 ? _CodingPathNode.root.appending(index: baseIndex) : .root
        if frame >= 1 {
            for level in 1...frame {
                switch unsafe segments[level] {
                case .none: break
                case .index(let index): node = node.appending(index: index)
                case .key(let key): node = node.appending(key)
                }
            }
        }
        return node
    }

    // MARK: Values

    /// Writes `value` at the end of the output if it is one of the types
    /// written without an encoder (scalars, dates and data under their
    /// usual strategies, arrays of scalars); `level` is the frame index the
    /// value sits at (its indent and depth). Returns false for other types.
    @inline(__always)
    func encodeFast<T: Encodable>(_ value: T, level: Int) throws -> Bool {
        try encodeFast(value, type: _FastType(T.self), level: level)
    }

    @inline(__always)
    private func encodeFast<T: Encodable>(_ value: T, type: _FastType, level: Int) throws -> Bool {
        switch type {
        case .string:
            unsafe writeString(unsafeBitCast(value, to: String.self))
        case .int:
            unsafe out.writeInteger(unsafeBitCast(value, to: Int.self))
        case .double:
            unsafe try writeDouble(unsafeBitCast(value, to: Double.self))
        case .bool:
            unsafe writeBool(unsafeBitCast(value, to: Bool.self))
        case .date:
            return unsafe try writeDate(unsafeBitCast(value, to: Date.self))
        case .data:
            guard dataIsBase64 else { return false }
            unsafe writeString(unsafeBitCast(value, to: Data.self).base64EncodedString())
        case .url:
            unsafe writeString(unsafeBitCast(value, to: URL.self).absoluteString)
        case .decimal:
            var text = unsafe unsafeBitCast(value, to: Decimal.self).description
            text.withUTF8 { unsafe out.append(contentsOf: $0) }
        case .other, .floats, .int32s, .uint8s:
            return false
        case .strings, .doubles, .ints, .bools, .int64s, .uint64s:
            try writeScalarArray(value, type: type, level: level)
        }
        return true
    }

    /// Encodes `value` into the pending slot at `frame` (on top).
    func encodeInto<T: Encodable>(_ value: T, frame: Int, serial: UInt64) throws {
        let type = _FastType(T.self)
        if try encodeFast(value, type: type, level: frame) {
            unsafe frames[frame].kind = .filled
            return
        }
        if type == .date {
            let date = unsafe unsafeBitCast(value, to: Date.self)
            switch options.dateEncodingStrategy {
            case .custom(let closure):
                // Nothing encoded leaves the slot pending: `{}`, as the tape writes.
                try closure(date, _DirectEncoder(state: self, frame: frame, serial: serial))
            default:
                try date.encode(to: _DirectEncoder(state: self, frame: frame, serial: serial))
            }
            return
        }
        if type == .data {
            let data = unsafe unsafeBitCast(value, to: Data.self)
            switch options.dataEncodingStrategy {
            case .custom(let closure):
                try closure(data, _DirectEncoder(state: self, frame: frame, serial: serial))
            default:
                try data.encode(to: _DirectEncoder(state: self, frame: frame, serial: serial))
            }
            return
        }
        // Past the tape's depth limit the tape throws before `encode(to:)`.
        guard baseDepth &+ frame <= maxDepth else { throw fallback() }
        if !isPlain(ObjectIdentifier(T.self)) {
            if let collection = value as? any _DirectEncodable {
                return try collection._directEncode(into: self, frame: frame, serial: serial)
            }
            if let special = value as? any _TapeEncodable {
                return try bridge(special, frame: frame)
            }
            if plainTypeCount < 64 {
                unsafe plainTypes[plainTypeCount] = ObjectIdentifier(T.self)
                plainTypeCount &+= 1
            }
        }
        try value.encode(to: _DirectEncoder(state: self, frame: frame, serial: serial))
    }

    @inline(__always)
    private func isPlain(_ id: ObjectIdentifier) -> Bool {
        var i = 0
        while i < plainTypeCount {
            if unsafe plainTypes[i] == id { return true }
            i &+= 1
        }
        return false
    }

    /// A value in a new slot above `parent`: pushed, encoded, closed.
    func encodeNested<T: Encodable>(_ value: T, parent: Int, segment: _PathSegment) throws {
        let (frame, serial) = push(.pending, segment)
        try encodeInto(value, frame: frame, serial: serial)
        if isOpen(frame, serial) { closeFrames(downTo: frame) }
    }

    /// A quoted, escaped string at the end of the output; returns its hash
    /// (`writeEscaped`). Every string the direct encoder writes goes through
    /// here, on an unretained reference: `out` lives as long as this
    /// encoding, and a plain `out.writeString` (a call not inlined) was
    /// bracketed by a retain and a release of `out`.
    @inline(__always) @discardableResult
    func writeString(_ string: String) -> UInt64 {
        unsafe Unmanaged.passUnretained(out)._withUnsafeGuaranteedRef {
            $0.writeString(string, escapesSlashes: escapesSlashes)
        }
    }

    @inline(__always)
    func writeBool(_ value: Bool) {
        if value { out.writeLiteral("true") } else { out.writeLiteral("false") }
    }

    @inline(__always)
    func writeDouble(_ value: Double) throws {
        if _fastPath(value.isFinite) {
            out.writeDouble(value)
        } else {
            try writeNonFinite(value)
        }
    }

    func writeFloat(_ value: Float) throws {
        if value.isFinite {
            out.writeFloat(value)
        } else {
            try writeNonFinite(value)
        }
    }

    @inline(never)
    private func writeNonFinite<F: FloatingPoint>(_ value: F) throws {
        // `.throw`: the tape throws the error, with its coding path.
        guard case .convertToString(let positive, let negative, let nan) = options.nonConformingFloatEncodingStrategy else {
            throw fallback()
        }
        writeString(value.isNaN ? nan : (value < 0 ? negative : positive))
    }

    /// A date under a strategy that writes a scalar; false for
    /// `.deferredToDate` and `.custom`, which need an encoder.
    @inline(__always)
    private func writeDate(_ date: Date) throws -> Bool {
        switch dateMode {
        case .iso8601: out.writeISO8601(date)
        case .seconds: try writeDouble(date.timeIntervalSince1970)
        case .milliseconds: try writeDouble(1000.0 * date.timeIntervalSince1970)
        case .formatted:
            guard case .formatted(let formatter) = options.dateEncodingStrategy else { return false }
            writeString(formatter.string(from: date))
        case .deferred, .custom:
            return false
        }
        return true
    }

    /// `[String]`, `[Double]`, … written in one loop each.
    private func writeScalarArray<T>(_ value: T, type: _FastType, level: Int) throws {
        guard baseDepth &+ level < maxDepth else { throw fallback() }
        out.writeByte(UInt8(ascii: "["))
        let count: Int
        switch type {
        case .strings:
            let array = unsafe unsafeBitCast(value, to: [String].self)
            count = array.count
            for index in 0..<count {
                separator(index, frame: level)
                writeString(array[index])
            }
        case .doubles:
            let array = unsafe unsafeBitCast(value, to: [Double].self)
            count = array.count
            for index in 0..<count {
                separator(index, frame: level)
                try writeDouble(array[index])
            }
        case .ints:
            let array = unsafe unsafeBitCast(value, to: [Int].self)
            count = array.count
            for index in 0..<count {
                separator(index, frame: level)
                out.writeInteger(array[index])
            }
        case .bools:
            let array = unsafe unsafeBitCast(value, to: [Bool].self)
            count = array.count
            for index in 0..<count {
                separator(index, frame: level)
                writeBool(array[index])
            }
        case .int64s:
            let array = unsafe unsafeBitCast(value, to: [Int64].self)
            count = array.count
            for index in 0..<count {
                separator(index, frame: level)
                out.writeInteger(array[index])
            }
        case .uint64s:
            let array = unsafe unsafeBitCast(value, to: [UInt64].self)
            count = array.count
            for index in 0..<count {
                separator(index, frame: level)
                out.writeInteger(array[index])
            }
        default:
            preconditionFailure("not a scalar array type")
        }
        closeBracket(UInt8(ascii: "]"), count: count, indent: baseIndent &+ level)
    }

    /// An array of any element type into the pending slot at `frame`.
    func encodeArray<Element: Encodable>(_ array: [Element], frame: Int, serial: UInt64) throws {
        guard baseDepth &+ frame < maxDepth else { throw fallback() }
        // Complete once written: no container may be asked of this slot.
        unsafe frames[frame].kind = .filled
        out.writeByte(UInt8(ascii: "["))
        var index = 0
        for element in array {
            separator(index, frame: frame)
            if try !encodeFast(element, level: frame &+ 1) {
                try encodeNested(element, parent: frame, segment: .index(index))
                guard unsafe frames.count == frame &+ 1, unsafe frames[frame].serial == serial else { throw fallback() }
            }
            index &+= 1
        }
        closeBracket(UInt8(ascii: "]"), count: index, indent: baseIndent &+ frame)
    }

    /// `[String: V]`: keys as they are (no key strategy, no duplicates).
    func encodeDictionary<Value: Encodable>(_ dictionary: [String: Value], frame: Int, serial: UInt64) throws {
        guard baseDepth &+ frame < maxDepth else { throw fallback() }
        unsafe frames[frame].kind = .filled
        out.writeByte(UInt8(ascii: "{"))
        var index = 0
        for (key, value) in dictionary {
            separator(index, frame: frame)
            writeString(key)
            writeColon()
            if try !encodeFast(value, level: frame &+ 1) {
                try encodeNested(value, parent: frame, segment: .key(_JSONKey(stringValue: key)))
                guard unsafe frames.count == frame &+ 1, unsafe frames[frame].serial == serial else { throw fallback() }
            }
            index &+= 1
        }
        closeBracket(UInt8(ascii: "}"), count: index, indent: baseIndent &+ frame)
    }

    /// A `_TapeEncodable` value (`JSONValue`, `JSONNumber`): encoded into a
    /// small tape of its own and written from there at this position.
    private func bridge(_ value: any _TapeEncodable, frame: Int) throws {
        if bridgeTape == nil {
            let tape = _EncodingTape()
            bridgeTape = tape
            bridgeContext = _EncodingContext(tape: tape, options: options)
            var writer = _JSONWriter(options: options, tape: tape, compact: !pretty)
            writer.flushes = false
            bridgeWriter = writer
        }
        let tape = bridgeTape!
        tape.reset()
        let root = tape.appendEmptyNode()
        do {
            try value._encode(into: root, context: bridgeContext!, path: pathNode(frame), depth: baseDepth &+ frame)
        } catch {
            throw fallback()
        }
        guard tape.misuse == nil else { throw fallback() }
        try bridgeWriter!.write(root, depth: baseIndent &+ frame, into: out)
        unsafe frames[frame].kind = .filled
    }
}
