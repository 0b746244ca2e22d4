// SPDX-License-Identifier: Apache-2.0
internal import CLzma

/// xz through liblzma. Streams one after another decompress as one input
/// (`LZMA_CONCATENATED`), as `xz -d` does.
/// Safe: it owns liblzma's stream state, from creation to release.
@safe final class _XZDecompressor: _Decompressor {
    static let format = CompressedInputError.Format.xz

    private let stream: UnsafeMutablePointer<lzma_stream>
    /// `LZMA_STREAM_END`: given the end of the input, the last stream was complete.
    private(set) var isAtStreamEnd = false

    init() throws(_DecompressionFailure) {
        unsafe stream = .allocate(capacity: 1)
        // Zeroed, which is what LZMA_STREAM_INIT spells.
        unsafe stream.initialize(to: lzma_stream())
        // LZMA_CONCATENATED, a macro Swift does not import.
        let concatenated: UInt32 = 0x08
        if let failure = unsafe check(lzma_stream_decoder(stream, UInt64.max, concatenated)) {
            unsafe stream.deallocate()
            throw failure
        }
    }

    deinit {
        unsafe lzma_end(stream)
        unsafe stream.deallocate()
    }

    func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
                    atEnd: Bool) -> _DecompressionStep {
        guard unsafe !output.isEmpty, !isAtStreamEnd, unsafe !input.isEmpty || atEnd else { return _DecompressionStep() }
        unsafe stream.pointee.next_in = unsafe input.baseAddress?.assumingMemoryBound(to: UInt8.self)
        unsafe stream.pointee.avail_in = input.count
        unsafe stream.pointee.next_out = unsafe output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        unsafe stream.pointee.avail_out = output.count
        let status = unsafe lzma_code(stream, atEnd ? LZMA_FINISH : LZMA_RUN)
        if status == LZMA_STREAM_END { isAtStreamEnd = true }
        return unsafe _DecompressionStep(consumed: input.count - stream.pointee.avail_in,
                                         produced: output.count - stream.pointee.avail_out,
                                         failure: status == LZMA_STREAM_END ? nil : check(status))
    }

    /// Every liblzma status goes through here. `LZMA_BUF_ERROR` is "no
    /// progress possible": more input, or (at the end) a truncated stream.
    private func check(_ status: lzma_ret) -> _DecompressionFailure? {
        switch status {
        case LZMA_OK, LZMA_BUF_ERROR: return nil
        case LZMA_MEM_ERROR, LZMA_MEMLIMIT_ERROR: return .corrupt("out of memory")
        case LZMA_FORMAT_ERROR: return .corrupt("not an xz stream")
        case LZMA_OPTIONS_ERROR: return .corrupt("unsupported options")
        case LZMA_DATA_ERROR: return .corrupt("data integrity error")
        default: return .corrupt("liblzma error \(status.rawValue)")
        }
    }
}
