// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A regular file read at offsets (`pread`), for planning and reading pieces:
/// each worker reads only where it is asked to, and can say what it read.
@safe final class _PieceFile {
    let descriptor: Int32
    let size: Int
    /// Every range read, in order, when `recordsReads` (tests).
    private(set) var reads: [Range<Int>] = []
    var recordsReads = false

    /// - Throws: `CocoaError` when it cannot be opened (`.fileReadNoSuchFile` …), or `JSONPieceError` for something other than a regular file.
    init(url: URL) throws {
        let fd = unsafe open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw _FileDescriptorSource.openError(errno: errno, path: url.path) }
        var info = stat()
        guard unsafe fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw JSONPieceError("\(url.path) is not a regular file: only a file can be read in pieces")
        }
        descriptor = fd
        size = Int(info.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// Reads up to `buffer.count` bytes at `offset`: fewer only at the end.
    ///
    /// - Throws: `POSIXError` when the system refuses.
    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var done = 0
        while done < buffer.count {
            let count = unsafe pread(descriptor, buffer.baseAddress! + done, buffer.count - done,
                                     off_t(offset + done))
            if count < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            if count == 0 { break }
            done += count
        }
        if recordsReads && done > 0 { reads.append(offset..<(offset + done)) }
        return done
    }

    /// The bytes at `range` (fewer at the end of the file).
    func bytes(_ range: Range<Int>) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, range.count))
        let count = unsafe try bytes.withUnsafeMutableBytes { unsafe try read(at: range.lowerBound, into: $0) }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// Checks that the file is the size a plan saw.
    func check(_ piece: JSONPiece) throws {
        guard size == piece.inputSize else {
            throw JSONPieceError("The file is \(size) bytes, not the \(piece.inputSize) it was planned at: "
                                    + "it changed since, so the plan no longer fits it")
        }
    }
}
