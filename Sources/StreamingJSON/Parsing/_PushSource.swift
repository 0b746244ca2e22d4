// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Bytes pushed in by the caller (`JSONElementFeed`, async sequences) instead
/// of read from a descriptor. `read(into:)` returns -1 when everything pushed
/// so far has been handed out and more may come: the stream then asks for input.
final class _PushSource: _ByteSource {
    private var pending: [UInt8] = []
    private var offset = 0
    private var handedOut = 0
    private(set) var isFinished = false

    func append(_ bytes: some DataProtocol) {
        compact()
        pending.append(contentsOf: bytes)
    }

    func append(_ byte: UInt8) {
        pending.append(byte)
    }

    /// No more bytes will come.
    func finish() {
        isFinished = true
    }

    var hasPendingBytes: Bool { offset < pending.count }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let available = pending.count - offset
        // The first read waits for three bytes while they could begin a byte order mark.
        let maybeBOM = handedOut == 0 && available < 3 && !isFinished
            && (0..<available).allSatisfy { pending[offset + $0] == _utf8BOM[$0] }
        if available == 0 || maybeBOM {
            return isFinished && available == 0 ? 0 : -1
        }
        let count = min(available, buffer.count)
        unsafe pending.withUnsafeBytes { bytes in
            unsafe buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]))
        }
        offset += count
        handedOut += count
        return count
    }

    private func compact() {
        guard offset > 0 else { return }
        pending.removeFirst(offset)
        offset = 0
    }
}
