// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// `jsonstream --jq` prints nothing of a value that fails to parse, as jq,
// which parses each value whole before it runs the filter. A value that is
// streamed (`.[] | f` over a huge array) makes its results while it is read,
// so they are held back until its end is read: released then, or dropped
// after a syntax error. Into a regular file they are written as they come
// and cut off if dropped; into a pipe, past `spillThreshold` they wait in a
// temporary file, so that memory stays bounded however many there are.
/// Where held results wait.
enum HoldingPlace {
    /// A regular file: written as usual, cut off again (`ftruncate`) when
    /// dropped, so that holding costs nothing.
    case outputFile
    /// `/dev/null`: written as usual; nothing to take back.
    case nowhere
    /// A pipe, a terminal: in the buffer, then in a temporary file.
    case spillFile
}

extension OutputSink {
    /// Held bytes kept in memory before they move to a temporary file.
    static let spillThreshold = 4 << 20

    /// Holds back the results appended from now on, until `release()` or
    /// `discardHeld()`. Does nothing while holding already.
    func hold() {
        guard !isHolding else { return }
        isHolding = true
        releasedCount = buffer.count
        let place = holdingPlace ?? Self.holdingPlace(for: descriptor)
        holdingPlace = place
        if place == .outputFile {
            let offset = lseek(descriptor, 0, SEEK_CUR)
            if offset >= 0 {
                heldOffset = Int64(offset) + Int64(buffer.count)
                return
            }
            holdingPlace = .spillFile  // not seekable after all
        }
    }

    /// Lets the held results out, in order, and stops holding.
    func release() throws {
        guard isHolding else { return }
        if holdsInMemory, let spill, spill.size > 0 {
            // Nothing released is in the buffer once bytes have spilled.
            try send(spill)
            try spill.empty()
        }
        isHolding = false
        releasedCount = 0
        try resultEnded()
    }

    /// Drops the held results and stops holding.
    func discardHeld() {
        guard isHolding else { return }
        buffer.removeSubrange(releasedCount...)
        if holdsInMemory {
            try? spill?.empty()
        } else if holdingPlace == .outputFile, lseek(descriptor, 0, SEEK_CUR) > heldOffset {
            // Held bytes already written: cut them off. (A failure leaves them:
            // the error that made them be dropped is reported all the same.)
            if ftruncate(descriptor, off_t(heldOffset)) == 0 { _ = lseek(descriptor, off_t(heldOffset), SEEK_SET) }
        }
        isHolding = false
        releasedCount = 0
    }

    /// `flush()` while holding in memory: writes what is released, and
    /// moves the held bytes to the temporary file once there are enough.
    @inline(never)
    func flushHolding() throws {
        if releasedCount > 0 {
            let released = releasedCount
            unsafe try buffer.withUnsafeBytes { unsafe try writeAll(UnsafeRawBufferPointer(rebasing: $0[..<released])) }
            buffer.removeSubrange(..<released)
            releasedCount = 0
        }
        guard buffer.count >= Self.spillThreshold else { return }
        if spill == nil { spill = try SpillFile() }
        try spill!.append(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// The spill file's bytes to the output: on Linux by `sendfile(2)`,
    /// which copies them in the kernel, else read and written a block at a time.
    private func send(_ spill: SpillFile) throws {
        #if canImport(Glibc)
        var offset: off_t = 0
        while offset < off_t(spill.size) {
            let sent = unsafe sendfile(descriptor, spill.descriptor, &offset, spill.size - Int(offset))
            if sent > 0 {
                bytesWritten += UInt64(sent)
                continue
            }
            switch sent < 0 ? errno : EIO {
            case EINTR, EAGAIN: continue
            case EPIPE: throw OutputError.closed
            case let code where (code == EINVAL || code == ENOSYS) && offset == 0:
                return unsafe try spill.copy { unsafe try self.writeAll($0) }
            case let code: throw OutputError.failed(path: name, errno: code)
            }
        }
        #else
        unsafe try spill.copy { unsafe try self.writeAll($0) }
        #endif
    }

    /// A regular file can take held bytes back; `/dev/null` needs none back.
    private static func holdingPlace(for descriptor: Int32) -> HoldingPlace {
        var info = stat()
        guard unsafe fstat(descriptor, &info) == 0 else { return .spillFile }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            // Appending (`>> file`), the offset is no place to cut back to:
            // the bytes before it are someone else's.
            return fcntl(descriptor, F_GETFL) & O_APPEND == 0 ? .outputFile : .spillFile
        case S_IFCHR:
            var null = stat()
            let isNull = unsafe stat("/dev/null", &null) == 0 && null.st_rdev == info.st_rdev
            return isNull ? .nowhere : .spillFile
        default:
            return .spillFile
        }
    }
}

/// An unlinked temporary file in `$TMPDIR` (or `/tmp`) for held results:
/// gone when closed, even after a crash.
final class SpillFile {
    let descriptor: Int32
    /// For messages: the directory the file is in.
    private let place: String
    /// Bytes in the file.
    private(set) var size = 0

    init() throws {
        let directory = unsafe getenv("TMPDIR").map { unsafe String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        place = "a temporary file in \(directory)"
        var template = Array("\(directory)/jsonstream-held.XXXXXX".utf8CString)
        descriptor = unsafe template.withUnsafeMutableBufferPointer { unsafe mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw OutputError.failed(path: place, errno: errno) }
        unsafe template.withUnsafeBufferPointer { _ = unsafe unlink($0.baseAddress!) }
    }

    deinit {
        _ = close(descriptor)
    }

    func append(_ bytes: [UInt8]) throws {
        var offset = 0
        try unsafe bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let written = unsafe pwrite(descriptor, raw.baseAddress! + offset, raw.count - offset,
                                            off_t(size + offset))
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw OutputError.failed(path: place, errno: written < 0 ? errno : ENOSPC) }
                offset += written
            }
        }
        size += offset
    }

    /// Hands the file's bytes, in order, to `write`, a block at a time.
    func copy(to write: (UnsafeRawBufferPointer) throws -> Void) throws {
        var block = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while offset < size {
            let count = try unsafe block.withUnsafeMutableBytes { raw -> Int in
                let read = unsafe pread(descriptor, raw.baseAddress!, min(raw.count, size - offset), off_t(offset))
                if read < 0 && errno == EINTR { return 0 }
                guard read > 0 else { throw OutputError.failed(path: place, errno: read < 0 ? errno : EIO) }
                return read
            }
            try unsafe block.withUnsafeBytes { unsafe try write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            offset += count
        }
    }

    /// Empties the file for the next value's results.
    func empty() throws {
        guard ftruncate(descriptor, 0) == 0 else { throw OutputError.failed(path: place, errno: errno) }
        size = 0
    }
}
