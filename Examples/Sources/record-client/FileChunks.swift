// SPDX-License-Identifier: Apache-2.0
import Foundation
import NIOCore

/// A file's bytes as `ByteBuffer`s of up to 64 KiB, read as they are asked
/// for: an upload body of any size in constant memory.
///
/// Reads are plain blocking `read(2)` calls: fine for a command-line client,
/// whose task has nothing else to do meanwhile.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let path: String
    var chunkSize = 64 * 1024

    func makeAsyncIterator() -> Iterator {
        Iterator(path: path, chunkSize: chunkSize)
    }

    struct Iterator: AsyncIteratorProtocol {
        let path: String
        let chunkSize: Int
        private var file: OpenFile?
        private let allocator = ByteBufferAllocator()

        init(path: String, chunkSize: Int) {
            self.path = path
            self.chunkSize = chunkSize
        }

        mutating func next() async throws -> ByteBuffer? {
            if file == nil { file = try OpenFile(path: path) }
            var buffer = allocator.buffer(capacity: chunkSize)
            let count = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: chunkSize) { bytes in
                try file!.read(into: bytes)
            }
            return count == 0 ? nil : buffer
        }
    }

    /// A descriptor closed when the last iterator holding it goes away.
    private final class OpenFile {
        let descriptor: Int32

        let path: String

        init(path: String) throws {
            self.path = path
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw FileError(path: path, code: errno) }
        }

        deinit {
            close(descriptor)
        }

        func read(into bytes: UnsafeMutableRawBufferPointer) throws -> Int {
            while true {
                let count = Foundation.read(descriptor, bytes.baseAddress, bytes.count)
                if count >= 0 { return count }
                if errno != EINTR { throw FileError(path: path, code: errno) }
            }
        }
    }
}

/// A file that could not be opened or read: `cannot read PATH: REASON`.
struct FileError: Error, CustomStringConvertible {
    let path: String
    let code: Int32

    var description: String { "cannot read \(path): \(String(cString: strerror(code)))" }
}
