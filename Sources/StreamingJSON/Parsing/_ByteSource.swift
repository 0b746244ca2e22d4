// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Where a stream's bytes come from. `read(into:)` fills the front of the
/// reused chunk buffer with what is available and returns the count, 0 at the
/// end of the input.
protocol _ByteSource {
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int

    /// Whether a read may wait on the system (a descriptor): compressed
    /// input from such a source is decompressed on its own thread.
    var prefersReadAhead: Bool { get }

    /// Hands over what the source runs before a read that would block, for
    /// a reader on another thread to run on the caller's thread instead.
    mutating func takeBlockingReadHook() -> (() -> Void)?

    /// Whether a read would return without waiting on the system for more
    /// than `milliseconds` (0: at once). Only a pipe or a terminal with
    /// nothing to read yet says no.
    mutating func isReady(within milliseconds: Int32) -> Bool
}

extension _ByteSource {
    var prefersReadAhead: Bool { false }
    mutating func takeBlockingReadHook() -> (() -> Void)? { nil }
    mutating func isReady(within milliseconds: Int32) -> Bool { true }
}

/// Bytes already in memory, handed out one chunk at a time.
struct _DataSource: _ByteSource {
    let data: Data
    var offset: Int
    /// Largest chunk handed out: tests use small ones to split tokens.
    let chunkLimit: Int

    init(_ data: Data, chunkLimit: Int = .max) {
        self.data = data
        self.offset = data.startIndex
        self.chunkLimit = max(1, chunkLimit)
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, data.endIndex - offset, chunkLimit)
        guard count > 0 else { return 0 }
        unsafe data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: offset..<(offset + count))
        offset += count
        return count
    }
}

/// A file descriptor read with `read(2)`, which returns what is available: a
/// pipe's elements are delivered as they arrive. (`FileHandle.read(upToCount:)`
/// waits for the full count on Linux.)
final class _FileDescriptorSource: _ByteSource {
    let descriptor: Int32
    /// The size of a regular file, for choosing whether to parse on another thread.
    let size: Int?
    private let ownsDescriptor: Bool
    /// Keeps a borrowed FileHandle alive while its descriptor is read.
    private let handle: FileHandle?

    /// Opens `url` for reading; throws `CocoaError` as Foundation does.
    init(url: URL) throws {
        guard url.isFileURL else {
            throw CocoaError(.fileReadUnsupportedScheme, userInfo: [NSURLErrorKey: url])
        }
        let path = url.path
        let fd = unsafe open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw _FileDescriptorSource.openError(errno: errno, path: path) }
        self.descriptor = fd
        var info = stat()
        self.size = unsafe fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
        self.ownsDescriptor = true
        self.handle = nil
    }

    var prefersReadAhead: Bool { true }

    init(handle: FileHandle) {
        self.descriptor = handle.fileDescriptor
        self.size = nil
        self.ownsDescriptor = false
        self.handle = handle
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = unsafe Foundation.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    static func openError(errno code: Int32, path: String) -> CocoaError {
        let kind: CocoaError.Code
        switch code {
        case ENOENT, ENOTDIR: kind = .fileReadNoSuchFile
        case EACCES, EPERM: kind = .fileReadNoPermission
        case ENAMETOOLONG: kind = .fileReadInvalidFileName
        default: kind = .fileReadUnknown
        }
        var info: [String: Any] = [NSFilePathErrorKey: path]
        if let posix = POSIXErrorCode(rawValue: code) { info[NSUnderlyingErrorKey] = POSIXError(posix) }
        return CocoaError(kind, userInfo: info)
    }
}

/// Bytes in memory, then another source's.
final class _PrefixedSource: _ByteSource {
    private let prefix: Data
    private var offset = 0
    private var rest: any _ByteSource

    init(prefix: Data, rest: any _ByteSource) {
        self.prefix = prefix
        self.rest = rest
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard offset == prefix.count else {
            let count = min(buffer.count, prefix.count - offset)
            unsafe prefix.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: offset..<(offset + count))
            offset += count
            return count
        }
        return unsafe try rest.read(into: buffer)
    }
}

/// A source whose every read throws `error`: what follows the bytes read
/// before a read failed.
struct _FailingSource: _ByteSource {
    let error: any Error

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        throw error
    }
}
