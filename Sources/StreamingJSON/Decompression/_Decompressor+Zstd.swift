// SPDX-License-Identifier: Apache-2.0
import CZstd

/// zstd through libzstd's streaming decoder. Frames one after another, and
/// skippable frames, decompress as one input, as `zstd -d` does.
final class _ZstdDecompressor: _Decompressor {
    static let format = CompressedInputError.Format.zstd

    private let stream: OpaquePointer
    /// 0 from `ZSTD_decompressStream`: a frame ended and was flushed.
    private(set) var isAtStreamEnd = false

    init() throws(_DecompressionFailure) {
        guard let stream = ZSTD_createDStream() else { throw .corrupt("out of memory") }
        self.stream = stream
        if let failure = check(ZSTD_initDStream(stream)) {
            ZSTD_freeDStream(stream)
            throw failure
        }
    }

    deinit {
        ZSTD_freeDStream(stream)
    }

    func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
                    atEnd: Bool) -> _DecompressionStep {
        guard !input.isEmpty, !output.isEmpty else { return _DecompressionStep() }
        var inBuffer = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        var outBuffer = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
        let result = ZSTD_decompressStream(stream, &outBuffer, &inBuffer)
        let failure = check(result)
        if failure == nil { isAtStreamEnd = result == 0 }
        return _DecompressionStep(consumed: inBuffer.pos, produced: outBuffer.pos, failure: failure)
    }

    /// Every libzstd status goes through here.
    private func check(_ result: Int) -> _DecompressionFailure? {
        ZSTD_isError(result) != 0 ? .corrupt(String(cString: ZSTD_getErrorName(result))) : nil
    }
}
