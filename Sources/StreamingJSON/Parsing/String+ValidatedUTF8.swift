// SPDX-License-Identifier: Apache-2.0

extension String {
    /// A string of the UTF-8 in `bytes`, which the caller knows to be valid:
    /// copied without the standard library checking it again, as
    /// `String(decoding:as:)` does byte by byte.
    ///
    /// For the text of the tape's strings and keys: the recorder lets only
    /// valid UTF-8 into the arena (yajl checks the shape of each sequence,
    /// `sj_check_utf8` the overlong, surrogate and out-of-range forms yajl
    /// lets through, and an unpaired surrogate escape stops the parse), so
    /// checking it again is work done twice; on non-ASCII text, most of the
    /// work of making the string.
    @inline(__always)
    init(_validatedUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *), bytes.count > 0 {
            self = unsafe String(copying: UTF8Span(unchecked: Span(_unsafeElements: bytes)))
        } else {
            self = unsafe String(decoding: bytes, as: UTF8.self)
        }
    }
}
