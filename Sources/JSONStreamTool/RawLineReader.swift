// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// `-R`: an input's lines, each a string without its newline, read in
/// chunks so that memory holds one line (a last line without a newline
/// counts too). Bytes that are not UTF-8 become U+FFFD, as in jq.
final class RawLineReader {
    enum Event {
        case line(String)
        case end
        case readError(POSIXError)
    }

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let beforeBlockingRead: () -> Void
    private var buffer: [UInt8] = []
    /// Where the unread part of `buffer` starts.
    private var start = 0
    /// How far past `start` is known to hold no newline: a long line is
    /// searched once, not again after every read that extends it.
    private var searched = 0
    private var atEnd = false
    private(set) var bytesRead: UInt64 = 0
    /// Lines returned so far: the 1-based number of the last one.
    private(set) var lineNumber = 0
    /// Newlines read so far (jq's `input_line_number`: a last line without
    /// one does not count).
    private(set) var newlineCount = 0

    init(descriptor: Int32, ownsDescriptor: Bool, beforeBlockingRead: @escaping () -> Void) {
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.beforeBlockingRead = beforeBlockingRead
    }

    /// Opens `path` for reading; throws the `POSIXError` of a failed open.
    convenience init(contentsOfFile path: String, beforeBlockingRead: @escaping () -> Void) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.lastError() }
        self.init(descriptor: descriptor, ownsDescriptor: true, beforeBlockingRead: beforeBlockingRead)
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    func next() -> Event {
        while true {
            if let newline = buffer[max(start, searched)...].firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                searched = start
                lineNumber += 1
                newlineCount += 1
                return .line(line)
            }
            searched = buffer.count
            if atEnd {
                guard start < buffer.count else { return .end }
                let line = String(decoding: buffer[start...], as: UTF8.self)
                start = buffer.count
                lineNumber += 1
                return .line(line)
            }
            if let error = fill() { return .readError(error) }
        }
    }

    /// The rest of the input as one string (`-R -s`).
    func remainingText() throws -> String {
        while !atEnd {
            if let error = fill() { throw error }
        }
        defer { start = buffer.count }
        return String(decoding: buffer[start...], as: UTF8.self)
    }

    /// Reads one chunk after what is unread; nil, or the error of a failed read.
    private func fill() -> POSIXError? {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            searched = max(searched - start, 0)
            start = 0
        }
        let chunk = 64 * 1024
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        // Results computed so far go out before a read that would wait (a pipe, a terminal).
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        if poll(&ready, 1, 0) == 0 { beforeBlockingRead() }
        var count: Int
        repeat {
            count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + old, chunk) }
        } while count < 0 && errno == EINTR
        let failure = count < 0 ? Self.lastError() : nil
        buffer.removeSubrange((old + max(count, 0))...)
        if let failure { return failure }
        if count == 0 { atEnd = true }
        bytesRead += UInt64(count)
        return nil
    }
}

extension RawLineReader {
    /// `errno` as the error the JSON inputs report too.
    fileprivate static func lastError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
