// SPDX-License-Identifier: Apache-2.0
internal import CIsal

/// gzip through ISA-L's `isal_inflate`, which parses the member's header,
/// inflates and checks the CRC-32 and length in its trailer. Members written
/// one after another (`cat a.gz b.gz`, pigz, bgzip) decompress as one input,
/// as `gzip -d` does.
/// Safe: it owns ISA-L's inflate state, from creation to release.
@safe final class _GzipDecompressor: _Decompressor {
    static let format = CompressedInputError.Format.gzip

    private let state: UnsafeMutablePointer<inflate_state>

    /// The last member ended; what follows must begin another.
    var isAtStreamEnd: Bool { unsafe state.pointee.block_state == ISAL_BLOCK_FINISH }

    init() {
        unsafe state = .allocate(capacity: 1)
        unsafe state.initialize(to: inflate_state())
        startMember()
    }

    deinit {
        unsafe state.deallocate()
    }

    /// A fresh state, ready for a member's header (the gzip wrapper parsed
    /// and its trailer checked by ISA-L).
    private func startMember() {
        unsafe isal_inflate_init(state)
        unsafe state.pointee.crc_flag = UInt32(ISAL_GZIP)
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
            startMember()
        }
        let availableIn = UInt32(min(input.count, Int(UInt32.max)))
        let availableOut = UInt32(min(output.count, Int(UInt32.max)))
        unsafe state.pointee.next_in =
            unsafe UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: UInt8.self))
        unsafe state.pointee.avail_in = availableIn
        unsafe state.pointee.next_out = unsafe output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        unsafe state.pointee.avail_out = availableOut
        let status = unsafe isal_inflate(state)
        let consumed = unsafe Int(availableIn - state.pointee.avail_in)
        let produced = unsafe Int(availableOut - state.pointee.avail_out)
        return _DecompressionStep(consumed: consumed, produced: produced, failure: check(status))
    }

    /// Every ISA-L status goes through here; the reasons are zlib's words for
    /// the same faults, which `gzip -d` users know.
    private func check(_ status: Int32) -> _DecompressionFailure? {
        switch status {
        case ISAL_DECOMP_OK, ISAL_END_INPUT, ISAL_OUT_OVERFLOW:
            return nil
        case ISAL_INVALID_BLOCK:
            return .corrupt("invalid block type or lengths")
        case ISAL_INVALID_SYMBOL:
            return .corrupt("invalid code")
        case ISAL_INVALID_LOOKBACK:
            return .corrupt("invalid distance too far back")
        case ISAL_INVALID_WRAPPER:
            return .corrupt("incorrect header check")
        case ISAL_UNSUPPORTED_METHOD:
            return .corrupt("unknown compression method")
        case ISAL_INCORRECT_CHECKSUM:
            return .corrupt("incorrect data check")
        case ISAL_NEED_DICT:
            return .corrupt("a preset dictionary is needed")
        default:
            return .corrupt("ISA-L inflate status \(status)")
        }
    }
}
