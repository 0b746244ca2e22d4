// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension _ValueReader {
    /// Following roots, after `.mark(.rootEnd)`: the text of the value that
    /// ended, read again from the file (`rootHasRepeatedKey`); nil for an
    /// input that cannot be read twice (a pipe, a compressed file, a piece).
    package func rootTextAgain() -> Data? {
        guard let source, let start = rootStartOffset, let end = elementEndOffset(), end > start else { return nil }
        return source.bytesAgain(start..<end)
    }
}

extension _ValueReader {
    /// Following a key path: whether an object along it had the path's key
    /// more than once in what was read (`_TapeParser.metRepeatedPathKey`).
    package var metRepeatedPathKey: Bool {
        stream.parser?.metRepeatedPathKey ?? false
    }
}

extension _ReaderSource {
    /// The bytes at `range` of what this source reads (offsets from its
    /// first byte), read again from the file; nil for anything but a
    /// regular file that is not compressed.
    func bytesAgain(_ range: Range<Int>) -> Data? {
        let base = Int(startOffset) - readFirst.count
        guard size != nil, !isCompressedFile, base >= 0 else { return nil }
        var bytes = Data(count: range.count)
        var done = 0
        while done < range.count {
            let count = unsafe bytes.withUnsafeMutableBytes {
                unsafe pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(base + range.lowerBound + done))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            done += count
        }
        return bytes
    }
}

/// What a mark says when a reader follows roots (`SJ_MARK_*` in `CJSONTape.h`).
package enum _RootMark: Equatable, Sendable {
    /// The target is an array: its elements follow, then `.end`.
    case array
    /// The target is an object: its members follow, then `.end`.
    case object
    /// The target's elements or members have all been read.
    case end
    /// The next element is the value found after `keysFollowed` keys of the
    /// path: the target itself when that is all of them (not an array or
    /// object), else a value that is not an object, where the path stops.
    case whole(keysFollowed: Int)
    /// The object found after `keysFollowed` keys has no member for the next key.
    case missing(keysFollowed: Int)
    /// The top-level value ends here.
    case rootEnd

    init(code: Int32, keysFollowed: Int) {
        switch code {
        case Int32(SJ_MARK_ROOT_END): self = .rootEnd
        case Int32(SJ_MARK_ARRAY): self = .array
        case Int32(SJ_MARK_OBJECT): self = .object
        case Int32(SJ_MARK_END): self = .end
        case Int32(SJ_MARK_WHOLE): self = .whole(keysFollowed: keysFollowed)
        default: self = .missing(keysFollowed: keysFollowed)
        }
    }
}
