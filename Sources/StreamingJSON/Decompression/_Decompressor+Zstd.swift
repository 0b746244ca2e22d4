// SPDX-License-Identifier: Apache-2.0
internal import CZstd

/// zstd through libzstd's streaming decoder. Frames one after another, and
/// skippable frames, decompress as one input, as `zstd -d` does.
/// Safe: it owns libzstd's stream state, from creation to release.
@safe final class _ZstdDecompressor: _Decompressor {
    static let format = CompressedInputError.Format.zstd

    private let stream: OpaquePointer
    /// 0 from `ZSTD_decompressStream`: a frame ended and was flushed.
    private(set) var isAtStreamEnd = false

    init() throws(_DecompressionFailure) {
        guard let stream = unsafe ZSTD_createDStream() else { throw .corrupt("out of memory") }
        unsafe self.stream = unsafe stream
        if let failure = unsafe check(ZSTD_initDStream(stream)) {
            unsafe ZSTD_freeDStream(stream)
            throw failure
        }
    }

    deinit {
        unsafe ZSTD_freeDStream(stream)
    }

    func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
                    atEnd: Bool) -> _DecompressionStep {
        guard unsafe !input.isEmpty, unsafe !output.isEmpty else { return _DecompressionStep() }
        var inBuffer = unsafe ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        var outBuffer = unsafe ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
        let result = unsafe ZSTD_decompressStream(stream, &outBuffer, &inBuffer)
        let failure = check(result)
        if failure == nil { isAtStreamEnd = result == 0 }
        return unsafe _DecompressionStep(consumed: inBuffer.pos, produced: outBuffer.pos, failure: failure)
    }

    /// Every libzstd status goes through here.
    private func check(_ result: Int) -> _DecompressionFailure? {
        unsafe ZSTD_isError(result) != 0 ? .corrupt(String(cString: ZSTD_getErrorName(result))) : nil
    }
}
