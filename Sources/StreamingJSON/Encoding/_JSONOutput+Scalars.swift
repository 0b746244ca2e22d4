// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

// Scalars written at the end of the output, formatted by `_FastScalars`:
// the direct encoder writes them into the output, the tape encoder into the
// tape's `bytes`, so the two paths agree byte for byte.

extension _JSONOutput {
    @inline(__always)
    func writeByte(_ byte: UInt8) {
        unsafe reserve(1).pointee = byte
        unsafe count &+= 1
    }

    @inline(__always)
    func writeLiteral(_ literal: StaticString) {
        let n = literal.utf8CodeUnitCount
        unsafe reserve(n).update(from: literal.utf8Start, count: n)
        unsafe count &+= n
    }

    @inline(__always)
    func writeBool(_ value: Bool) {
        if value { writeLiteral("true") } else { writeLiteral("false") }
    }

    /// A newline and two spaces per level (pretty printing).
    @inline(__always)
    func writeNewline(indent: Int) {
        let n = 1 &+ 2 &* indent
        let p = unsafe reserve(n)
        unsafe p[0] = UInt8(ascii: "\n")
        if indent > 0 { unsafe (p + 1).update(repeating: 0x20, count: n &- 1) }
        unsafe count &+= n
    }

    @inline(__always)
    func writeInteger<T: FixedWidthInteger>(_ value: T) {
        if T.bitWidth > 64 {
            var text = String(value)
            text.withUTF8 { unsafe append(contentsOf: $0) }
            return
        }
        let p = unsafe reserve(21)
        if T.isSigned, value < 0 {
            unsafe p[0] = UInt8(ascii: "-")
            unsafe count &+= 1 &+ _FastScalars.formatUnsigned(UInt64(truncatingIfNeeded: value.magnitude), to: p + 1)
        } else {
            unsafe count &+= _FastScalars.formatUnsigned(UInt64(truncatingIfNeeded: value), to: p)
        }
    }

    /// A finite double (see `_FastScalars.formatDouble`).
    @inline(__always)
    func writeDouble(_ value: Double) {
        let p = unsafe reserve(_FastScalars.maxNumberLength)
        unsafe count &+= _FastScalars.formatDouble(value, to: p)
    }

    func writeFloat(_ value: Float) {
        let p = unsafe reserve(_FastScalars.maxNumberLength)
        unsafe count &+= _FastScalars.formatFloat(value, to: p)
    }

    /// A finite `Double` or `Float` (the floating-point types `Encoder` knows).
    @inline(__always)
    func writeFinite<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) {
        if F.self == Double.self {
            unsafe writeDouble(unsafeBitCast(value, to: Double.self))
        } else {
            unsafe count &+= _FastScalars.copyDescription(value.description, to: reserve(_FastScalars.maxNumberLength))
        }
    }

    /// The `.iso8601` strategy's text, `"2017-11-13T14:30:15Z"`;
    /// Foundation's format style outside `_ISO8601Formatter.arithmeticRange`.
    func writeISO8601(_ date: Date) {
        let n = unsafe _FastScalars.formatISO8601(date, to: reserve(22))
        if n > 0 {
            unsafe count &+= n
        } else {
            writeISO8601WithFoundation(date)
        }
    }

    @inline(never)
    private func writeISO8601WithFoundation(_ date: Date) {
        writeString(date.formatted(.iso8601), escapesSlashes: true)
    }

    /// A string, quoted and escaped as Foundation does: `"` and `\`, `/`
    /// unless `escapesSlashes` is false, `\b \f \n \r \t`, other control
    /// characters as lowercase `\u00XX`; everything else (DEL, U+2028, all
    /// non-ASCII) as its UTF-8 bytes. Returns the hash of `writeEscaped`.
    @inline(__always) @discardableResult
    func writeString(_ string: String, escapesSlashes: Bool) -> UInt64 {
        if let hash = unsafe string.utf8.withContiguousStorageIfAvailable({ utf8 in
            unsafe writeShortOrEscaped(utf8, escapesSlashes: escapesSlashes)
        }) {
            return hash
        }
        var copy = string
        return copy.withUTF8 { unsafe writeEscaped($0, escapesSlashes: escapesSlashes) }
    }

    /// `writeEscaped`, with strings of at most 8 bytes that need no escape
    /// (most keys) done inline: one word loaded, checked and stored.
    @inline(__always)
    func writeShortOrEscaped(_ utf8: UnsafeBufferPointer<UInt8>, escapesSlashes slashes: Bool) -> UInt64 {
        let n = utf8.count
        if n <= 8, n > 0, let source = utf8.baseAddress {
            let word = unsafe n == 8
                ? UnsafeRawPointer(source).loadUnaligned(as: UInt64.self) : _FastScalars.loadPartial(source, n)
            let mask: UInt64 = n == 8 ? ~0 : (1 &<< UInt64(n &* 8)) &- 1
            if _FastScalars.escapeMask(word, slashes: slashes) & mask == 0 {
                let p = unsafe reserve(18)
                unsafe p[0] = UInt8(ascii: "\"")
                unsafe UnsafeMutableRawPointer(p + 1).storeBytes(of: word, as: UInt64.self)
                unsafe p[n &+ 1] = UInt8(ascii: "\"")
                unsafe count &+= n &+ 2
                return (UInt64(truncatingIfNeeded: n) ^ word) &* 0x9E37_79B9_7F4A_7C15
            }
        }
        return unsafe writeEscaped(utf8, escapesSlashes: slashes)
    }

    /// Quoted and escaped UTF-8: runs that need nothing are checked and
    /// copied 16 bytes at a time (`sj_write_escaped`, SSE2; 8 elsewhere).
    /// Returns a hash of the raw bytes (length, first and last word), which
    /// object keys use for the duplicate check.
    @discardableResult
    func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>, escapesSlashes slashes: Bool) -> UInt64 {
        let n = utf8.count
        guard n > 0, let source = utf8.baseAddress else {
            let p = unsafe reserve(2)
            unsafe p[0] = UInt8(ascii: "\"")
            unsafe p[1] = UInt8(ascii: "\"")
            unsafe count &+= 2
            return UInt64(truncatingIfNeeded: n)
        }
        // The hash: the length, the first and the last word of the raw bytes
        // (one word, as `writeShortOrEscaped` hashes, up to 8 bytes).
        var hash = unsafe (UInt64(truncatingIfNeeded: n) ^ _FastScalars.loadPartial(source, min(n, 8))) &* 0x9E37_79B9_7F4A_7C15
        if n > 8 {
            hash = unsafe (hash ^ UnsafeRawPointer(source + (n &- 8)).loadUnaligned(as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
        }
        let chunk = 1024
        if n <= chunk {
            // Room for the bytes escaped at worst (6 per byte), the quotes
            // and the slack of whole-word stores.
            let d = unsafe reserve(n &* 6 &+ 18)
            unsafe d[0] = UInt8(ascii: "\"")
            let written = unsafe sj_write_escaped(d + 1, source, n, slashes ? Int32(SJ_ESCAPE_SLASHES) : 0)
            unsafe d[written &+ 1] = UInt8(ascii: "\"")
            unsafe count &+= written &+ 2
        } else {
            unsafe writeLong(source, n, chunk: chunk, slashes: slashes)
        }
        return hash
    }

    /// A long string, escaped a chunk at a time (room reserved per chunk).
    @inline(never)
    private func writeLong(_ source: UnsafePointer<UInt8>, _ n: Int, chunk: Int, slashes: Bool) {
        writeByte(UInt8(ascii: "\""))
        var i = 0
        while i < n {
            let take = min(n &- i, chunk)
            let d = unsafe reserve(take &* 6 &+ 17)
            unsafe count &+= sj_write_escaped(d, source + i, take, slashes ? Int32(SJ_ESCAPE_SLASHES) : 0)
            i &+= take
        }
        writeByte(UInt8(ascii: "\""))
    }
}
