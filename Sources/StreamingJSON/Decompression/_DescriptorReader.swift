// SPDX-License-Identifier: Apache-2.0

/// A descriptor's bytes, decompressed when they start compressed: what
/// `jsonstream -R` reads lines from, so that raw lines of a `.gz` are its
/// text's lines, as for the JSON inputs.
package final class _DescriptorReader {
    private var source: any _ByteSource
    private let file: _ReaderSource

    /// Reads `descriptor` (not closed here). `beforeBlockingRead` runs
    /// before a read that would wait, as for `_ValueReader`; `onOneThread`:
    /// decompress on the calling thread.
    package init(descriptor: Int32, onOneThread: Bool = false, beforeBlockingRead: (() -> Void)?) {
        file = _ReaderSource(descriptor: descriptor, beforeBlockingRead: beforeBlockingRead)
        file.readsAhead = !onOneThread
        source = file.recognisingCompression()
    }

    /// Fills the front of `buffer`; 0 at the end. Throws `POSIXError` for a
    /// failed read, `CompressedInputError` for a damaged archive.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        unsafe try source.read(into: buffer)
    }

    /// For a regular file that starts compressed, the file's bytes read so
    /// far (as its size counts them); nil otherwise.
    package var compressedBytesRead: UInt64? { file.isCompressedFile ? file.bytesReadFromFile : nil }
}
