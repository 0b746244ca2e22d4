// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Buffers of pieces read, kept for the next pieces: a fresh buffer of a
/// piece's size is a fresh mapping, and its first use a page fault per page.
/// Any thread may give one back (whoever releases the last piece's `Data`).
@safe final class _BufferPool: @unchecked Sendable {
    private let lock = NSLock()
    private var spare: [UnsafeMutableRawBufferPointer] = unsafe []
    /// More than the pieces in flight: the rest are freed.
    private static let limit = 16

    deinit {
        for unsafe buffer in unsafe spare { unsafe buffer.deallocate() }
    }

    /// A buffer of at least `capacity` bytes.
    func take(_ capacity: Int) -> UnsafeMutableRawBufferPointer {
        let reused = unsafe lock.withLock { () -> UnsafeMutableRawBufferPointer? in
            guard let index = unsafe spare.lastIndex(where: { $0.count >= capacity }) else { return nil }
            return unsafe spare.remove(at: index)
        }
        return unsafe reused ?? .allocate(byteCount: capacity, alignment: 16)
    }

    func give(_ buffer: UnsafeMutableRawBufferPointer) {
        let kept = lock.withLock { () -> Bool in
            guard unsafe spare.count < Self.limit else { return false }
            unsafe spare.append(buffer)
            return true
        }
        if !kept { unsafe buffer.deallocate() }
    }
}
