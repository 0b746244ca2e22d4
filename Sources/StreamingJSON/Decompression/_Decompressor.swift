// SPDX-License-Identifier: Apache-2.0

/// One compression library's streaming decoder, behind one interface: each
/// conformance owns its C boundary (`_Decompressor+Gzip.swift`, …) and turns
/// every status the library returns into progress or a `_DecompressionFailure`.
///
/// Conformances are classes: the C stream states they wrap must not move.
protocol _Decompressor: AnyObject {
    static var format: CompressedInputError.Format { get }

    /// Decompresses from the front of `input` into `output`, as much as both
    /// allow. `atEnd`: no input follows `input`. Consumes and produces
    /// nothing when nothing can be done without more input (or, at the end,
    /// when nothing is left). A failure comes with the output made before it
    /// (a checksum is checked after the text it covers was written).
    func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
                    atEnd: Bool) -> _DecompressionStep

    /// Whether the input so far ends where a compressed stream (or frame, or
    /// member) ends: at the end of the input, false means truncated.
    var isAtStreamEnd: Bool { get }
}

/// What one call to `_Decompressor.decompress` did.
struct _DecompressionStep {
    var consumed = 0
    var produced = 0
    var failure: _DecompressionFailure?
}

/// A failure in the compressed data, before offsets are attached.
struct _DecompressionFailure: Error {
    var kind: CompressedInputError.Kind
    var reason: String

    static func corrupt(_ reason: String) -> _DecompressionFailure {
        _DecompressionFailure(kind: .corrupt, reason: reason)
    }

    static let trailingData = _DecompressionFailure(kind: .trailingData, reason: "")
}

extension CompressedInputError.Format {
    /// The longest signature: the bytes needed to tell every format apart.
    static let signatureLength = 6

    /// Whether `first` can begin a signature: no JSON text starts with these
    /// bytes, so anything else is passed through after one look.
    static func mayBeginSignature(_ first: UInt8) -> Bool {
        first == 0x1F || first == 0x28 || first == 0x42 || first == 0xFD || (0x50...0x5F).contains(first)
    }

    /// The format whose signature `prefix` starts with, if any. `prefix` holds
    /// `signatureLength` bytes, or fewer when the input is that short.
    static func recognise(_ prefix: some Collection<UInt8>) -> Self? {
        let bytes = Array(prefix.prefix(signatureLength))
        func starts(_ signature: [UInt8]) -> Bool { bytes.starts(with: signature) }
        if starts([0x1F, 0x8B]) { return .gzip }
        if starts([0x28, 0xB5, 0x2F, 0xFD]) { return .zstd }
        // A zstd skippable frame (pzstd starts its files with one).
        if bytes.count >= 4, (0x50...0x5F).contains(bytes[0]), bytes[1...3].elementsEqual([0x2A, 0x4D, 0x18]) {
            return .zstd
        }
        // "BZh" and a block size digit.
        if bytes.count >= 4, starts([0x42, 0x5A, 0x68]), (0x31...0x39).contains(bytes[3]) { return .bzip2 }
        if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return .xz }
        return nil
    }

    func makeDecompressor() throws(_DecompressionFailure) -> any _Decompressor {
        switch self {
        case .gzip: return _GzipDecompressor()
        case .zstd: return try _ZstdDecompressor()
        case .bzip2: return try _Bzip2Decompressor()
        case .xz: return try _XZDecompressor()
        }
    }
}
