// SPDX-License-Identifier: Apache-2.0
internal import CBzip2

/// bzip2 through libbz2. Streams one after another (pbzip2, `cat`) decompress
/// as one input, as `bzip2 -d` does.
/// Safe: it owns libbz2's stream state, from creation to release.
@safe final class _Bzip2Decompressor: _Decompressor {
    static let format = CompressedInputError.Format.bzip2

    private let stream: UnsafeMutablePointer<bz_stream>
    private var isOpen = false
    /// The last stream ended; what follows must begin another.
    private(set) var isAtStreamEnd = false

    init() throws(_DecompressionFailure) {
        unsafe stream = .allocate(capacity: 1)
        unsafe stream.initialize(to: bz_stream())
        do throws(_DecompressionFailure) {
            try open()
        } catch {
            unsafe stream.deallocate()
            throw error
        }
    }

    deinit {
        if isOpen { unsafe BZ2_bzDecompressEnd(stream) }
        unsafe stream.deallocate()
    }

    private func open() throws(_DecompressionFailure) {
        if let failure = unsafe check(BZ2_bzDecompressInit(stream, 0, 0)) { throw failure }
        isOpen = true
    }

    func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
                    atEnd: Bool) -> _DecompressionStep {
        guard unsafe !input.isEmpty, unsafe !output.isEmpty else { return _DecompressionStep() }
        if isAtStreamEnd {
            if input.count < 3 && !atEnd { return _DecompressionStep() }
            guard unsafe input.count >= 3 && input[0] == 0x42 && input[1] == 0x5A && input[2] == 0x68 else {
                return _DecompressionStep(failure: .trailingData)
            }
            unsafe BZ2_bzDecompressEnd(stream)
            isOpen = false
            unsafe stream.pointee = unsafe bz_stream()
            do {
                try open()
            } catch {
                return _DecompressionStep(failure: error)
            }
            isAtStreamEnd = false
        }
        let availableIn = UInt32(min(input.count, Int(UInt32.max)))
        let availableOut = UInt32(min(output.count, Int(UInt32.max)))
        unsafe stream.pointee.next_in =
            unsafe UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: CChar.self))
        unsafe stream.pointee.avail_in = availableIn
        unsafe stream.pointee.next_out = unsafe output.baseAddress!.assumingMemoryBound(to: CChar.self)
        unsafe stream.pointee.avail_out = availableOut
        let status = unsafe BZ2_bzDecompress(stream)
        if status == BZ_STREAM_END { isAtStreamEnd = true }
        return unsafe _DecompressionStep(consumed: Int(availableIn - stream.pointee.avail_in),
                                         produced: Int(availableOut - stream.pointee.avail_out),
                                         failure: status == BZ_STREAM_END ? nil : check(status))
    }

    /// Every libbz2 status goes through here.
    private func check(_ status: Int32) -> _DecompressionFailure? {
        switch status {
        case BZ_OK: return nil
        case BZ_MEM_ERROR: return .corrupt("out of memory")
        case BZ_DATA_ERROR: return .corrupt("data integrity error")
        case BZ_DATA_ERROR_MAGIC: return .corrupt("not a bzip2 stream")
        default: return .corrupt("libbz2 error \(status)")
        }
    }
}
