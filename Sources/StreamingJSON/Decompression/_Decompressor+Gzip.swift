// SPDX-License-Identifier: Apache-2.0
import CZlib

/// gzip through zlib's `inflate`. Members written one after another (`cat
/// a.gz b.gz`, pigz, bgzip) decompress as one input, as `gzip -d` does.
/// Safe: it owns zlib's stream state, from creation to release.
@safe final class _GzipDecompressor: _Decompressor {
    static let format = CompressedInputError.Format.gzip

    private let stream: UnsafeMutablePointer<z_stream>
    /// The last member ended; what follows must begin another.
    private(set) var isAtStreamEnd = false

    init() throws(_DecompressionFailure) {
        unsafe stream = .allocate(capacity: 1)
        unsafe stream.initialize(to: z_stream())
        // 15: the largest window; +16: a gzip header and trailer, not zlib's.
        let status = unsafe inflateInit2_(stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        if let failure = check(status) {
            unsafe stream.deallocate()
            throw failure
        }
    }

    deinit {
        unsafe inflateEnd(stream)
        unsafe stream.deallocate()
    }

    func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
                    atEnd: Bool) -> _DecompressionStep {
        guard unsafe !input.isEmpty, unsafe !output.isEmpty else { return _DecompressionStep() }
        if isAtStreamEnd {
            // Another member, or bytes that do not belong.
            if input.count < 2 && !atEnd { return _DecompressionStep() }
            guard unsafe input.count >= 2 && input[0] == 0x1F && input[1] == 0x8B else {
                return _DecompressionStep(failure: .trailingData)
            }
            if let failure = unsafe check(inflateReset(stream)) { return _DecompressionStep(failure: failure) }
            isAtStreamEnd = false
        }
        unsafe stream.pointee.next_in =
            unsafe UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: Bytef.self))
        unsafe stream.pointee.avail_in = uInt(min(input.count, Int(UInt32.max)))
        unsafe stream.pointee.next_out = unsafe output.baseAddress!.assumingMemoryBound(to: Bytef.self)
        unsafe stream.pointee.avail_out = uInt(min(output.count, Int(UInt32.max)))
        let availableIn = unsafe Int(stream.pointee.avail_in), availableOut = unsafe Int(stream.pointee.avail_out)
        let status = unsafe inflate(stream, Z_NO_FLUSH)
        let consumed = unsafe availableIn - Int(stream.pointee.avail_in)
        let produced = unsafe availableOut - Int(stream.pointee.avail_out)
        if status == Z_STREAM_END { isAtStreamEnd = true }
        return _DecompressionStep(consumed: consumed, produced: produced,
                                  failure: status == Z_STREAM_END ? nil : check(status))
    }

    /// Every zlib status goes through here. `Z_BUF_ERROR` is "no progress
    /// possible": the caller sees 0 consumed, 0 produced, and supplies more
    /// input or finds the stream truncated.
    private func check(_ status: Int32) -> _DecompressionFailure? {
        switch status {
        case Z_OK, Z_BUF_ERROR:
            return nil
        case Z_MEM_ERROR:
            return .corrupt("out of memory")
        case Z_NEED_DICT:
            return .corrupt("a preset dictionary is needed")
        default:
            return unsafe .corrupt(stream.pointee.msg.map { unsafe String(cString: $0) } ?? "zlib error \(status)")
        }
    }
}
