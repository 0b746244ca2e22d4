// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

extension String {
    /// Bytes as text the way jq 1.8.2 reads them (raw input, `--rawfile`,
    /// `@base64d`): valid UTF-8 unchanged, and each invalid sequence one
    /// U+FFFD.
    ///
    /// jq's repair is not the standard library's (one U+FFFD per maximal
    /// subpart): a sequence of full length that decodes to an overlong form,
    /// a surrogate or a code point past U+10FFFF is one replacement, not one
    /// per byte, and a sequence cut off by the end of the text takes the rest
    /// of it.
    /// (Not generic over the bytes: called from another module, a generic
    /// initializer would run unspecialized, many times slower.)
    package init(jqDecoding bytes: ArraySlice<UInt8>) {
        self = unsafe bytes.withUnsafeBufferPointer { unsafe Self._jqDecoding($0) }
    }

    private static func _jqDecoding(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        // The standard library's decoding is the fast check: valid input
        // comes back with the same bytes, and anything repaired does not.
        let text = unsafe String(decoding: bytes, as: UTF8.self)
        return unsafe text._hasUTF8(bytes) ? text : _jqRepairing(unsafe Array(bytes))
    }

    @inline(never)
    private static func _jqRepairing(_ bytes: [UInt8]) -> String {
        let replacement: Unicode.Scalar = "\u{FFFD}"
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let first = bytes[index]
            let length: Int
            switch first {
            case 0x00...0x7F:
                scalars.append(Unicode.Scalar(first))
                index += 1
                continue
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default:  // a continuation byte first, or a byte UTF-8 never uses
                scalars.append(replacement)
                index += 1
                continue
            }
            guard index + length <= bytes.count else {
                scalars.append(replacement)
                break
            }
            var value = UInt32(first) & (0x7F >> length)
            var taken = 1
            while taken < length, bytes[index + taken] & 0xC0 == 0x80 {
                value = value << 6 | UInt32(bytes[index + taken] & 0x3F)
                taken += 1
            }
            index += taken
            let smallest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x1_0000
            if taken == length, value >= smallest, let scalar = Unicode.Scalar(value) {
                scalars.append(scalar)
            } else {
                scalars.append(replacement)
            }
        }
        return String(scalars)
    }
}
