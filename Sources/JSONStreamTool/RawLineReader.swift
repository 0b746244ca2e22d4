// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import JSONFilter
import StreamingJSON

/// `-R`: an input's lines, each a string without its newline, read in
/// chunks so that memory holds one line (a last line without a newline
/// counts too). Bytes that are not UTF-8 become U+FFFD, as in jq. A
/// compressed input's lines are those of its text (`_DescriptorReader`).
final class RawLineReader {
    enum Event {
        case line(String)
        case end
        /// `POSIXError`, or `CompressedInputError` for a damaged archive.
        case readError(any Error)
    }

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private var reader: _DescriptorReader?
    private var buffer: [UInt8] = []
    /// Where the unread part of `buffer` starts.
    private var start = 0
    /// How far past `start` is known to hold no newline: a long line is
    /// searched once, not again after every read that extends it.
    private var searched = 0
    private var atEnd = false
    /// Bytes handed out so far, or for a compressed file the file's bytes read.
    var bytesRead: UInt64 { reader?.compressedBytesRead ?? bytesHandedOut }
    private var bytesHandedOut: UInt64 = 0
    /// Lines returned so far: the 1-based number of the last one.
    private(set) var lineNumber = 0
    /// Newlines read so far (jq's `input_line_number`: a last line without
    /// one does not count).
    private(set) var newlineCount = 0

    /// `onOneThread`: a compressed input is decompressed on the calling thread.
    init(descriptor: Int32, ownsDescriptor: Bool, onOneThread: Bool, beforeBlockingRead: @escaping () -> Void) {
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.reader = _DescriptorReader(descriptor: descriptor, onOneThread: onOneThread,
                                        beforeBlockingRead: beforeBlockingRead)
    }

    /// Opens `path` for reading; throws the `POSIXError` of a failed open.
    convenience init(contentsOfFile path: String, onOneThread: Bool,
                     beforeBlockingRead: @escaping () -> Void) throws {
        let descriptor = unsafe open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.lastError() }
        self.init(descriptor: descriptor, ownsDescriptor: true, onOneThread: onOneThread,
                  beforeBlockingRead: beforeBlockingRead)
    }

    deinit {
        // The reader (and a decompressing thread) lets go of the descriptor first.
        reader = nil
        if ownsDescriptor { close(descriptor) }
    }

    func next() -> Event {
        while true {
            if let newline = buffer[max(start, searched)...].firstIndex(of: 0x0A) {
                let line = String(jqDecoding: buffer[start..<newline])
                start = newline + 1
                searched = start
                lineNumber += 1
                newlineCount += 1
                return .line(line)
            }
            searched = buffer.count
            if atEnd {
                guard start < buffer.count else { return .end }
                let line = String(jqDecoding: buffer[start...])
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
        return String(jqDecoding: buffer[start...])
    }

    /// Reads one chunk after what is unread; nil, or the error of a failed read.
    private func fill() -> (any Error)? {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            searched = max(searched - start, 0)
            start = 0
        }
        let chunk = 64 * 1024
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        do {
            // The reader runs beforeBlockingRead first when a read would wait
            // (a pipe, a terminal): results computed so far go out.
            let count = unsafe try buffer.withUnsafeMutableBytes {
                unsafe try reader!.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[old...]))
            }
            buffer.removeSubrange((old + count)...)
            if count == 0 { atEnd = true }
            bytesHandedOut += UInt64(count)
            return nil
        } catch {
            buffer.removeSubrange(old...)
            return error
        }
    }
}

extension RawLineReader {
    /// `errno` as the error the JSON inputs report too.
    fileprivate static func lastError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}

/// The whole file as UTF-8 text, or nil (errno set) when it cannot be read.
func readTextFile(_ path: String) -> String? {
    let fd = unsafe open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    return readText(from: fd)
}

/// Everything left to read on `fd` as UTF-8 text, or nil (errno set) when it cannot be read.
func readText(from fd: Int32) -> String? {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let count = unsafe chunk.withUnsafeMutableBytes { unsafe read(fd, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            return nil
        }
        if count == 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
    }
    return String(jqDecoding: bytes[...])
}
