// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
/// The text of JSON scalars, appended to a byte buffer exactly as
/// Foundation's `JSONEncoder` writes them.
enum _JSONScalars {
    static let null: StaticString = "null"
    static let `true`: StaticString = "true"
    static let `false`: StaticString = "false"

    @inline(__always)
    static func append(_ literal: StaticString, to bytes: inout some _ByteAppending) {
        unsafe bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Decimal digits, exact for every width (`UInt64.max`, `Int64.min`).
    static func append<T: FixedWidthInteger>(integer value: T, to bytes: inout some _ByteAppending) {
        if T.isSigned, value < 0 {
            bytes.append(UInt8(ascii: "-"))
            // The magnitude of T.min fits in the unsigned type.
            appendDigits(UInt64(truncatingIfNeeded: value.magnitude), to: &bytes)
        } else if T.bitWidth <= 64 {
            appendDigits(UInt64(truncatingIfNeeded: value), to: &bytes)
        } else {
            var text = String(value)
            text.withUTF8 { unsafe bytes.append(contentsOf: $0) }
        }
    }

    static func appendDigits(_ value: UInt64, to bytes: inout some _ByteAppending) {
        if value < 10 {
            bytes.append(UInt8(truncatingIfNeeded: value) &+ 0x30)
            return
        }
        unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var v = value
            var i = 20
            while v >= 10 {
                let (q, r) = v.quotientAndRemainder(dividingBy: 10)
                i -= 1
                unsafe buffer[i] = UInt8(truncatingIfNeeded: r) &+ 0x30
                v = q
            }
            i -= 1
            unsafe buffer[i] = UInt8(truncatingIfNeeded: v) &+ 0x30
            unsafe bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[i..<20]))
        }
    }

    /// A finite floating-point value as Foundation writes it: Swift's shortest
    /// round-trip `description` (`1e+20`, `1.5e-07`, `5e-324`), without a
    /// trailing `.0`. Most such strings are short enough to live inline in
    /// `String`, so this does not allocate.
    static func append<F: BinaryFloatingPoint & CustomStringConvertible>(finite value: F, to bytes: inout some _ByteAppending) {
        if F.self == Double.self {
            // The same text, formatted without a String (`_FastScalars`).
            unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: _FastScalars.maxNumberLength) { buffer in
                let length = unsafe _FastScalars.formatDouble(unsafeBitCast(value, to: Double.self), to: buffer.baseAddress!)
                unsafe bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress!, count: length))
            }
            return
        }
        var text = value.description
        text.withUTF8 { utf8 in
            var count = utf8.count
            if count >= 2, unsafe utf8[count - 2] == UInt8(ascii: "."), unsafe utf8[count - 1] == UInt8(ascii: "0") {
                count -= 2
            }
            unsafe bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[0..<count]))
        }
    }

    /// A string, quoted and escaped as Foundation does: `"` and `\`, `/`
    /// unless `escapesSlashes` is false, `\b \f \n \r \t`, other control
    /// characters as lowercase `\u00XX`; everything else (DEL, U+2028,
    /// all non-ASCII) as its UTF-8 bytes.
    static func append(string: String, escapesSlashes: Bool, to bytes: inout some _ByteAppending) {
        var string = string
        string.withUTF8 { unsafe append(utf8: $0, escapesSlashes: escapesSlashes, to: &bytes) }
    }

    /// Escaped by `sj_write_escaped` (as `_JSONOutput.writeEscaped` is), a
    /// few hundred bytes at a time through a buffer on the stack.
    static func append(utf8: UnsafeBufferPointer<UInt8>, escapesSlashes: Bool, to bytes: inout some _ByteAppending) {
        bytes.append(UInt8(ascii: "\""))
        if let source = utf8.baseAddress, !utf8.isEmpty {
            let chunk = 256
            // Room for a chunk escaped at worst (6 per byte) and the slack of whole-block stores.
            unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chunk * 6 + 16) { buffer in
                var i = 0
                while i < utf8.count {
                    let take = min(utf8.count - i, chunk)
                    let written = unsafe sj_write_escaped(buffer.baseAddress!, source + i, take, escapesSlashes ? 1 : 0)
                    unsafe bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress!, count: written))
                    i += take
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
