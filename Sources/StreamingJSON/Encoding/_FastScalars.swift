// SPDX-License-Identifier: Apache-2.0
import Foundation

// The text of JSON scalars, formatted straight into a byte buffer: no
// intermediate `String`, one capacity check per value, stores through a
// pointer. This is the one formatter of both encoding paths (through
// `_JSONOutput+Scalars.swift`), and it writes exactly what Foundation's
// `JSONEncoder` writes: Swift's shortest `description` for floating point
// without a trailing `.0`, its escaping and its ISO 8601 dates. The tests
// compare the doubles with `description` over edge values and millions of
// random inputs.
enum _FastScalars {
    /// "00" "01" … "99": two digits per lookup.
    static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// The most bytes any formatter below writes for one number.
    static let maxNumberLength = 48

    @inline(__always)
    static func decimalLength(_ value: UInt64) -> Int {
        var length = 1
        var bound: UInt64 = 10
        while length < 20, value >= bound {
            length &+= 1
            bound &*= 10
        }
        return length
    }

    /// The decimal digits of `value`, exactly `length` of them (zero padded
    /// on the left), written at `p`.
    @inline(__always)
    static func writeDigits(_ value: UInt64, length: Int, to p: UnsafeMutablePointer<UInt8>) {
        let pairs = unsafe digitPairs.utf8Start
        var i = length
        var rest = value
        while i >= 2 {
            let (q, r) = rest.quotientAndRemainder(dividingBy: 100)
            i &-= 2
            unsafe p[i] = unsafe pairs[Int(r) &* 2]
            unsafe p[i &+ 1] = unsafe pairs[Int(r) &* 2 &+ 1]
            rest = q
        }
        if i == 1 { unsafe p[0] = UInt8(truncatingIfNeeded: rest) &+ 0x30 }
    }

    /// `value` in decimal at `p` (room for 20 bytes); returns the length.
    @inline(__always)
    static func formatUnsigned(_ value: UInt64, to p: UnsafeMutablePointer<UInt8>) -> Int {
        if value < 10 {
            unsafe p[0] = UInt8(truncatingIfNeeded: value) &+ 0x30
            return 1
        }
        let length = decimalLength(value)
        unsafe writeDigits(value, length: length, to: p)
        return length
    }

    /// A finite double as Foundation writes it: Swift's shortest round-trip
    /// `description` without a trailing `.0` (`1`, `-0`, `4.35`, `1e-05`,
    /// `1.2345678901234568e+17`). Needs `maxNumberLength` bytes at `p`.
    ///
    /// Fast path, for the usual values with a few decimals (1e-3 ≤ |v|,
    /// |v|·10^k < 2^45): the shortest decimal is the first k = 0, 1, 2, … for
    /// which m = round(|v|·10^k) satisfies m / 10^k == |v|. That division is
    /// exact in both operands and correctly rounded, so it is exactly what
    /// parsing "m·10^-k" gives; and while 10^k·ulp(v) < 0.01 at most one
    /// multiple of 10^-k lies within half an ulp of v (the rounding interval),
    /// so a k-digit decimal that round-trips is unique, is the one nearest v,
    /// and none with fewer digits exists when the smaller k failed. Swift's
    /// `description` prints such values in plain decimal notation. Anything
    /// else goes to the standard library's own formatter.
    static func formatDouble(_ value: Double, to p: UnsafeMutablePointer<UInt8>) -> Int {
        let magnitude = value.magnitude
        if magnitude == 0 {
            if value.sign == .minus {
                unsafe p[0] = UInt8(ascii: "-")
                unsafe p[1] = UInt8(ascii: "0")
                return 2
            }
            unsafe p[0] = UInt8(ascii: "0")
            return 1
        }
        if magnitude >= 1e-3, magnitude < 0x1p45, let (digits, decimals) = fewDecimals(magnitude) {
            var q = unsafe p
            if value < 0 {
                unsafe q[0] = UInt8(ascii: "-")
                unsafe q += 1
            }
            return unsafe (q - p) &+ formatFixed(digits, decimals: decimals, to: q)
        }
        return unsafe copyDescription(value.description, to: p)
    }

    /// The digits m and the count k of the shortest decimal m·10^-k of
    /// `magnitude` (1e-3 ≤ it < 2^45), by the fast path above; nil when it
    /// has none.
    @inline(__always)
    static func fewDecimals(_ magnitude: Double) -> (digits: UInt64, decimals: Int)? {
        // k = 4 first (most values have fewer decimals). Below 2^31 its
        // conditions hold, and a k ≤ 4 decimal that round-trips is that same
        // nearest multiple of 10^-4: the first k that would pass is 4 less
        // the trailing zeros of m. When 4 fails, so did 0…3.
        var scale = 1.0
        var decimals = 0
        if magnitude < 0x1p31 {
            let scaled = magnitude * 1e4
            let rounded = Double(Int64(scaled + 0.5))
            if (scaled - rounded).magnitude < 0.008, rounded / 1e4 == magnitude {
                var digits = UInt64(rounded)
                decimals = 4
                while decimals > 0, digits % 10 == 0 {
                    digits /= 10
                    decimals &-= 1
                }
                return (digits, decimals)
            }
            scale = 1e5
            decimals = 5
        }
        let ulp = magnitude.ulp
        while true {
            let scaled = magnitude * scale
            if scaled >= 0x1p45 || ulp * scale >= 0.01 { return nil }
            // Round half up; exact, as 0.5 is a multiple of ulp(scaled) here.
            let rounded = Double(Int64(scaled + 0.5))
            if (scaled - rounded).magnitude < 0.008, rounded / scale == magnitude {
                return (UInt64(rounded), decimals)
            }
            decimals &+= 1
            scale *= 10
        }
    }

    /// Swift's `description` of a float (at most 24 bytes for `Double`)
    /// without a trailing `.0`.
    @inline(never)
    static func copyDescription(_ description: String, to p: UnsafeMutablePointer<UInt8>) -> Int {
        var text = description
        return text.withUTF8 { utf8 in
            var length = min(utf8.count, maxNumberLength)
            if length >= 2, unsafe utf8[length - 2] == UInt8(ascii: "."), unsafe utf8[length - 1] == UInt8(ascii: "0") {
                length -= 2
            }
            unsafe p.update(from: utf8.baseAddress!, count: length)
            return length
        }
    }

    /// `digits` with a decimal point before its last `decimals` digits
    /// (`0.05` for 5 and 2); no point when `decimals` is 0.
    @inline(__always)
    static func formatFixed(_ digits: UInt64, decimals: Int, to p: UnsafeMutablePointer<UInt8>) -> Int {
        if decimals == 0 { return unsafe formatUnsigned(digits, to: p) }
        let length = decimalLength(digits)
        let integerLength = length > decimals ? length &- decimals : 1
        let total = integerLength &+ 1 &+ decimals
        let (integer, fraction) = digits.quotientAndRemainder(dividingBy: pow10(decimals))
        unsafe writeDigits(integer, length: integerLength, to: p)
        unsafe p[integerLength] = UInt8(ascii: ".")
        unsafe writeDigits(fraction, length: decimals, to: p + (integerLength &+ 1))
        return total
    }

    @inline(__always)
    static func pow10(_ n: Int) -> UInt64 {
        var result: UInt64 = 1
        for _ in 0..<n { result &*= 10 }
        return result
    }

    /// A finite float: Swift's `Float.description` without a trailing `.0`.
    static func formatFloat(_ value: Float, to p: UnsafeMutablePointer<UInt8>) -> Int {
        unsafe copyDescription(value.description, to: p)
    }

    /// `"2017-11-13T14:30:15Z"` (22 bytes, quotes included) for dates in
    /// `_ISO8601Formatter.arithmeticRange`; 0 for others.
    static func formatISO8601(_ date: Date, to p: UnsafeMutablePointer<UInt8>) -> Int {
        let interval = date.timeIntervalSince1970
        guard _ISO8601Formatter.arithmeticRange.contains(interval) else { return 0 }
        let seconds = Int(interval.rounded(.down))
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (dayNumber, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        let (year, month, day) = _ISO8601Formatter.civil(fromDays: dayNumber)
        let pairs = unsafe digitPairs.utf8Start
        @inline(__always) func pair(_ value: Int, _ at: Int) {
            unsafe p[at] = unsafe pairs[value &* 2]
            unsafe p[at &+ 1] = unsafe pairs[value &* 2 &+ 1]
        }
        unsafe p[0] = UInt8(ascii: "\"")
        pair(year / 100, 1)
        pair(year % 100, 3)
        unsafe p[5] = UInt8(ascii: "-")
        pair(month, 6)
        unsafe p[8] = UInt8(ascii: "-")
        pair(day, 9)
        unsafe p[11] = UInt8(ascii: "T")
        pair(second / 3600, 12)
        unsafe p[14] = UInt8(ascii: ":")
        pair(second / 60 % 60, 15)
        unsafe p[17] = UInt8(ascii: ":")
        pair(second % 60, 18)
        unsafe p[20] = UInt8(ascii: "Z")
        unsafe p[21] = UInt8(ascii: "\"")
        return 22
    }

    // MARK: Strings

    /// Bit 7 set in each byte of `word` (little-endian) that must be
    /// escaped: a control character, `"`, `\`, or `/` when slashes are
    /// escaped. The lowest set bit is exact; bits above a matching byte may
    /// be spurious (borrows only travel upwards), so only "any" and "the
    /// first" are meaningful.
    @inline(__always)
    static func escapeMask(_ word: UInt64, slashes: Bool) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let notWord = ~word
        var found = (word &- ones &* 0x20) & notWord & highs
        let quote = word ^ (ones &* 0x22)
        found |= (quote &- ones) & ~quote & highs
        let backslash = word ^ (ones &* 0x5C)
        found |= (backslash &- ones) & ~backslash & highs
        if slashes {
            let slash = word ^ (ones &* 0x2F)
            found |= (slash &- ones) & ~slash & highs
        }
        return found
    }

    /// The `n` < 8 bytes at `p` as the low bytes of a word (the rest zero),
    /// without reading past them: two overlapping loads.
    @inline(__always)
    static func loadPartial(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
        let raw = unsafe UnsafeRawPointer(p)
        if n >= 4 {
            let low = unsafe UInt64(raw.loadUnaligned(as: UInt32.self))
            let high = unsafe UInt64(raw.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self))
            return low | (high &<< UInt64((n &- 4) &* 8))
        }
        if n >= 2 {
            let low = unsafe UInt64(raw.loadUnaligned(as: UInt16.self))
            let high = unsafe UInt64(raw.loadUnaligned(fromByteOffset: n &- 2, as: UInt16.self))
            return low | (high &<< UInt64((n &- 2) &* 8))
        }
        return unsafe n == 1 ? UInt64(p[0]) : 0
    }
}
