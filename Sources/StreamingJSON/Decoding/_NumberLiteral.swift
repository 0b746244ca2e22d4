// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

// Numbers arrive from yajl as their literal text, already checked against
// JSON's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?

/// The integer a literal denotes, if it is integral and fits `T`. Integral
/// literals written with a fraction or an exponent (`34.0`, `1e3`) count, as
/// in Foundation. Exact for every width: no detour through Double.
func _parseInteger<T: FixedWidthInteger>(_ text: UnsafeBufferPointer<UInt8>) -> T? {
    let negative = unsafe text.first == UInt8(ascii: "-")
    let start = negative ? 1 : 0
    // A fraction, an exponent, or more digits than 64 bits hold: the slow path.
    guard text.count &- start <= 20,
          let magnitude = unsafe _digitsValue(text.baseAddress! + start, count: text.count &- start)
    else { return unsafe _parseIntegralLiteral(text) }
    return _fit(magnitude: magnitude, negative: negative)
}

/// The value of `count` (at most 20) decimal digits, or nil when one of the
/// bytes is not a digit or the value passes `UInt64.max`. Eight digits at a
/// time (as `_DecimalLiteral` reads them): ids and hashes of 16 to 20 digits
/// are common in logs and events.
@inline(__always)
private func _digitsValue(_ digits: UnsafePointer<UInt8>, count: Int) -> UInt64? {
    var value: UInt64 = 0
    var index = 0
    while count &- index >= 8 {
        let word = unsafe UInt64(littleEndian: UnsafeRawPointer(digits + index).loadUnaligned(as: UInt64.self))
        guard _areEightDigits(word) else { return nil }
        value = value &* 100_000_000 &+ _valueOfEightDigits(word)  // at most 16 digits so far
        index &+= 8
    }
    while index < count {
        let digit = unsafe digits[index] &- 0x30
        guard digit <= 9 else { return nil }
        if index == 19 {  // only the 20th digit can overflow
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(UInt64(digit))
            guard !overflow1 && !overflow2 else { return nil }
            return sum
        }
        value = value &* 10 &+ UInt64(digit)
        index &+= 1
    }
    return value
}

@inline(__always)
private func _fit<T: FixedWidthInteger>(magnitude: UInt64, negative: Bool) -> T? {
    if negative {
        if magnitude == 0 { return 0 }
        guard T.isSigned, magnitude - 1 <= UInt64(clamping: T.max) else { return nil }
        // -magnitude in two's complement, truncated to T.
        return T(truncatingIfNeeded: 0 &- magnitude)
    }
    guard magnitude <= UInt64(clamping: T.max) else { return nil }
    return T(truncatingIfNeeded: magnitude)
}

/// The slow path: a literal with a fraction or an exponent.
@inline(never)
private func _parseIntegralLiteral<T: FixedWidthInteger>(_ text: UnsafeBufferPointer<UInt8>) -> T? {
    let negative = unsafe text.first == UInt8(ascii: "-")
    var index = negative ? 1 : 0
    // Significant digits, with the position of the decimal point among them.
    var digits: [UInt8] = []
    while index < text.count, unsafe text[index] >= 0x30, unsafe text[index] <= 0x39 {
        unsafe digits.append(text[index] - 0x30)
        index += 1
    }
    var point = digits.count
    if index < text.count, unsafe text[index] == UInt8(ascii: ".") {
        index += 1
        while index < text.count, unsafe text[index] >= 0x30, unsafe text[index] <= 0x39 {
            unsafe digits.append(text[index] - 0x30)
            index += 1
        }
    }
    if index < text.count, unsafe text[index] | 0x20 == UInt8(ascii: "e") {
        index += 1
        var exponentNegative = false
        if index < text.count, unsafe text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
            exponentNegative = unsafe text[index] == UInt8(ascii: "-")
            index += 1
        }
        var exponent = 0
        while index < text.count, unsafe text[index] >= 0x30, unsafe text[index] <= 0x39 {
            exponent = unsafe min(exponent * 10 + Int(text[index] - 0x30), 1_000_000)  // saturate
            index += 1
        }
        point += exponentNegative ? -exponent : exponent
    }
    // Drop leading zeros; the value is zero when no non-zero digit is left.
    guard let firstNonZero = digits.firstIndex(where: { $0 != 0 }) else { return 0 }
    // Integral: every digit after the point is zero.
    if let lastNonZero = digits.lastIndex(where: { $0 != 0 }), lastNonZero >= point { return nil }
    guard point - firstNonZero <= 20 else { return nil }  // more than 20 digits overflows 64 bits
    var magnitude: UInt64 = 0
    for position in firstNonZero..<point {
        let digit = position < digits.count ? digits[position] : 0
        let (shifted, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = shifted.addingReportingOverflow(UInt64(digit))
        guard !overflow1 && !overflow2 else { return nil }
        magnitude = sum
    }
    return _fit(magnitude: magnitude, negative: negative)
}

/// 10^exponent for 0 ... 22, the powers of ten a Double holds exactly. A
/// switch of literals, where a global array cost a lazy-initialization check
/// and a bounds check per number.
@inline(__always)
private func _exactPowerOfTen(_ exponent: Int) -> Double {
    switch exponent {
    case 0: 1e0
    case 1: 1e1
    case 2: 1e2
    case 3: 1e3
    case 4: 1e4
    case 5: 1e5
    case 6: 1e6
    case 7: 1e7
    case 8: 1e8
    case 9: 1e9
    case 10: 1e10
    case 11: 1e11
    case 12: 1e12
    case 13: 1e13
    case 14: 1e14
    case 15: 1e15
    case 16: 1e16
    case 17: 1e17
    case 18: 1e18
    case 19: 1e19
    case 20: 1e20
    case 21: 1e21
    default: 1e22
    }
}

/// The correctly rounded Double nearest to a literal.
///
/// Up to 19 significant digits, with any exponent: when the digits fit in
/// 2^53 and the decimal exponent is within ±22, one IEEE multiplication or
/// division of two exact values (Clinger's fast path); otherwise the
/// Eisel–Lemire method (`sj_decimal_to_double`). Longer literals, and the
/// rare cases that method cannot decide, go to the standard library's parser.
func _parseDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double {
    let literal = unsafe _DecimalLiteral(text)
    guard literal.isShort else { return unsafe _parseDoubleSlowly(text) }
    let digits = literal.digits, exponent = literal.exponent
    if digits <= 1 << 53, exponent >= -22, exponent <= 22 {
        var value = Double(digits)
        value = exponent < 0 ? value / _exactPowerOfTen(-exponent) : value * _exactPowerOfTen(exponent)
        return literal.isNegative ? -value : value
    }
    var value = 0.0
    if unsafe sj_decimal_to_double(digits, Int64(exponent), literal.isNegative, &value) { return value }
    return unsafe _parseDoubleSlowly(text)
}

/// A literal's `Decimal`, as `Decimal(string:)` reads it: built from its
/// digits and exponent when they fit in 64 bits and Decimal's exponent,
/// else through the string (rare: over 19 significant digits).
func _parseDecimal(_ text: UnsafeBufferPointer<UInt8>) -> Decimal? {
    let literal = unsafe _DecimalLiteral(text)
    if literal.isShort, literal.exponent >= -128, literal.exponent <= 127 {
        return Decimal(sign: literal.isNegative ? .minus : .plus, exponent: literal.exponent,
                       significand: Decimal(literal.digits))
    }
    return unsafe Decimal(string: String(decoding: text, as: UTF8.self), locale: _posixLocale)
}

private let _posixLocale = Locale(identifier: "en_US_POSIX")

/// A number literal read as digits × 10^exponent.
struct _DecimalLiteral {
    var isNegative = false
    /// The digits, without the point (wrapped when there are more than 19).
    var digits: UInt64 = 0
    /// Digits from the first nonzero one on (trailing zeros included).
    var significantDigits = 0
    var exponent = 0
    /// Whether the whole text was read (JSON's grammar, or jq's `.5`/`1.`).
    var isComplete = false

    /// Complete, and its digits held exactly.
    var isShort: Bool { isComplete && significantDigits <= 19 }

    @inline(__always)
    init(_ text: UnsafeBufferPointer<UInt8>) {
        let count = text.count
        var index = 0
        isNegative = unsafe text.first == UInt8(ascii: "-")
        if isNegative { index = 1 }
        unsafe readDigits(text, &index, countingExponent: false)
        if index < count, unsafe text[index] == UInt8(ascii: ".") {
            index &+= 1
            unsafe readDigits(text, &index, countingExponent: true)
        }
        if index < count, unsafe text[index] | 0x20 == UInt8(ascii: "e") {
            index &+= 1
            let exponentIsNegative = unsafe index < count && text[index] == UInt8(ascii: "-")
            if unsafe index < count && (text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+")) {
                index &+= 1
            }
            var written = 0
            while index < count, unsafe text[index] &- 0x30 <= 9 {
                // Past any double's range already: more digits change nothing.
                if written < 100_000 { written = unsafe written &* 10 &+ Int(text[index] &- 0x30) }
                index &+= 1
            }
            exponent &+= exponentIsNegative ? -written : written
        }
        isComplete = index == count
    }

    @inline(__always)
    private mutating func readDigits(_ text: UnsafeBufferPointer<UInt8>, _ index: inout Int, countingExponent: Bool) {
        let count = text.count
        if digits == 0 {  // leading zeros are not significant digits
            while index < count, unsafe text[index] == UInt8(ascii: "0") {
                index &+= 1
                if countingExponent { exponent &-= 1 }
            }
        }
        let start = index
        // Eight at a time, then one at a time. (`digits` wraps past 19
        // digits; the count says so.)
        while index &+ 8 <= count {
            let word = unsafe UInt64(littleEndian: UnsafeRawPointer(text.baseAddress! + index)
                .loadUnaligned(as: UInt64.self))
            guard _areEightDigits(word) else { break }
            digits = digits &* 100_000_000 &+ _valueOfEightDigits(word)
            index &+= 8
        }
        while index < count, unsafe text[index] &- 0x30 <= 9 {
            digits = unsafe digits &* 10 &+ UInt64(text[index] &- 0x30)
            index &+= 1
        }
        significantDigits &+= index &- start
        if countingExponent { exponent &-= index &- start }
    }
}

/// Whether the eight bytes of `word` (the first in its low byte) are all
/// ASCII digits: each byte's high nibble is 3, and adding 6 keeps it 3.
@inline(__always)
func _areEightDigits(_ word: UInt64) -> Bool {
    (word & 0xF0F0_F0F0_F0F0_F0F0) | (((word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) &>> 4)
        == 0x3333_3333_3333_3333
}

/// The value of eight ASCII digits (the first in the low byte): pairs, then
/// fours, then the eight combined, with three multiplications.
@inline(__always)
func _valueOfEightDigits(_ word: UInt64) -> UInt64 {
    var value = word &- 0x3030_3030_3030_3030
    value = (value &* 10) &+ (value &>> 8)  // each even byte: two digits
    let pairs = value & 0x0000_00FF_0000_00FF, nextPairs = (value &>> 16) & 0x0000_00FF_0000_00FF
    return ((pairs &* (100 &+ (1_000_000 &<< 32))) &+ (nextPairs &* (1 &+ (10_000 &<< 32)))) &>> 32
}

@inline(never)
private func _parseDoubleSlowly(_ text: UnsafeBufferPointer<UInt8>) -> Double {
    unsafe Double(String(decoding: text, as: UTF8.self)) ?? .nan
}

/// Whether a literal denotes zero (every digit before its exponent is 0),
/// as opposed to a nonzero value too small for a Double or Float.
func _isZeroLiteral(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    for unsafe byte in unsafe text {
        if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
        if byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9") { return false }
    }
    return true
}
