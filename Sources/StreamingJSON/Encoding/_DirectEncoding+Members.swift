// SPDX-License-Identifier: Apache-2.0
import Foundation

// Members and elements of the containers being written: separators, keys
// (their strategies and the duplicate check), nested containers, and the
// coding paths of the open frames.

extension _DirectEncoding {
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
                let written = unsafe UnsafeBufferPointer(start: out.base + (start &- 1), count: out.count &- start &+ 1)
                unsafe slot.pointee = unsafe _KeyBytes(written, hash: hash)
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
                let bytes = unsafe UnsafeBufferPointer(start: out.base + spans[span].start, count: spans[span].length)
                unsafe keys.insert(Array(bytes))
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

    func pathNode(_ frame: Int) -> _CodingPathNode {
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
}
