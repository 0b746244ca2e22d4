// SPDX-License-Identifier: Apache-2.0
import Foundation

// The values `_DirectEncoding` writes itself (scalars, dates and data under
// their usual strategies, arrays and dictionaries) and the way into
// everything else: a type's own `encode(to:)`, or the tape for `_TapeEncodable`.

extension _DirectEncoding {
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
        unsafe Unmanaged.passUnretained(out)._withUnsafeGuaranteedRef { $0.writeString(string, escapesSlashes: escapesSlashes) }
    }

    @inline(__always)
    func writeBool(_ value: Bool) {
        out.writeBool(value)
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
