// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Parses an RFC 3339 date-time, the `.iso8601` strategy's format:
/// `YYYY-MM-DDTHH:MM:SS`, optional fractional seconds (`.` and one to nine
/// digits), then `Z` or a numeric offset up to ±18:00 (`+08:00`, `+0800`, `+08`), as
/// Foundation's `JSONDecoder` reads it (measured: swift-foundation, Swift 6.3.1),
/// to the same `Double` (see the end).
func _parseISO8601(_ text: UnsafeBufferPointer<UInt8>) -> Date? {
    if text.count == 20, let date = unsafe _parseISO8601Seconds(text) { return date }
    var index = 0
    func number(_ width: Int) -> Int? {
        guard index + width <= text.count else { return nil }
        var value = 0
        for offset in 0..<width {
            let digit = unsafe text[index + offset] &- 0x30
            guard digit <= 9 else { return nil }
            value = value * 10 + Int(digit)
        }
        index += width
        return value
    }
    func expect(_ byte: UInt8) -> Bool {
        guard index < text.count, unsafe text[index] == byte else { return false }
        index += 1
        return true
    }
    guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
          let day = number(2) else { return nil }
    guard index < text.count, unsafe text[index] | 0x20 == UInt8(ascii: "t") else { return nil }
    index += 1
    guard let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2), expect(UInt8(ascii: ":")),
          let second = number(2) else { return nil }
    guard (1...12).contains(month), day >= 1, day <= _daysInMonth(month, year: year),
          hour <= 23, minute <= 59, second <= 60 else { return nil }

    // The fraction in nanoseconds: Foundation reads at most nine digits.
    var nanoseconds = 0
    if index < text.count, unsafe text[index] == UInt8(ascii: ".") {
        index += 1
        var digits = 0
        while index < text.count, unsafe text[index] &- 0x30 <= 9 {
            guard digits < 9 else { return nil }
            nanoseconds = unsafe nanoseconds * 10 + Int(text[index] &- 0x30)
            digits += 1
            index += 1
        }
        guard digits > 0 else { return nil }
        for _ in digits..<9 { nanoseconds *= 10 }
    }

    var offsetSeconds = 0
    guard index < text.count else { return nil }
    if unsafe text[index] | 0x20 == UInt8(ascii: "z") {
        index += 1
    } else if unsafe text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
        let sign = unsafe text[index] == UInt8(ascii: "-") ? -1 : 1
        index += 1
        guard let offsetHours = number(2), offsetHours <= 23 else { return nil }
        var offsetMinutes = 0
        if index < text.count {
            _ = expect(UInt8(ascii: ":"))
            guard let minutes = number(2), minutes <= 59 else { return nil }
            offsetMinutes = minutes
        }
        offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        // Foundation's time zones end at ±18:00.
        guard abs(offsetSeconds) <= 18 * 3600 else { return nil }
    } else {
        return nil
    }
    guard index == text.count else { return nil }

    // Summed in the order of Foundation's Gregorian calendar: the day's start,
    // plus the time into the day with its fraction, less the offset. The same
    // instant summed otherwise (seconds since 1970, then the fraction) can
    // come out one bit apart: 637406813.1229999 for .123 in 2021.
    let days = _daysFromCivil(year: year, month: month, day: day) - _daysFrom1970To2001
    let intoDay = Double(hour * 3600 + minute * 60 + second) + Double(nanoseconds) / 1_000_000_000
    return Date(timeIntervalSinceReferenceDate: Double(days * 86_400) + intoDay - Double(offsetSeconds))
}

/// 1970-01-01 to 2001-01-01, `Date`'s reference date.
private let _daysFrom1970To2001 = 11_323

/// The common case, `YYYY-MM-DDTHH:MM:SSZ` (20 bytes), read at fixed offsets:
/// a tenth of the general parser's instructions. Anything else (or any
/// irregularity) returns nil and goes through the general parser.
@inline(__always)
private func _parseISO8601Seconds(_ text: UnsafeBufferPointer<UInt8>) -> Date? {
    let base = text.baseAddress!
    /// The two digits at `offset` as a number, or a value over 99 when either is not a digit.
    @inline(__always) func pair(_ offset: Int) -> Int {
        let tens = unsafe base[offset] &- 0x30, ones = unsafe base[offset &+ 1] &- 0x30
        return tens <= 9 && ones <= 9 ? Int(tens) &* 10 &+ Int(ones) : 100
    }
    guard unsafe base[4] == UInt8(ascii: "-"), unsafe base[7] == UInt8(ascii: "-"),
          unsafe base[10] | 0x20 == UInt8(ascii: "t"),
          unsafe base[13] == UInt8(ascii: ":"), unsafe base[16] == UInt8(ascii: ":"),
          unsafe base[19] | 0x20 == UInt8(ascii: "z")
    else { return nil }
    let century = pair(0), yearOfCentury = pair(2), month = pair(5), day = pair(8)
    let hour = pair(11), minute = pair(14), second = pair(17)
    guard century <= 99, yearOfCentury <= 99, month >= 1, month <= 12, day >= 1,
          hour <= 23, minute <= 59, second <= 60 else { return nil }
    let year = century &* 100 &+ yearOfCentury
    guard day <= _daysInMonth(month, year: year) else { return nil }
    let days = _daysFromCivil(year: year, month: month, day: day)
    return Date(timeIntervalSince1970: Double(days &* 86_400 &+ hour &* 3600 &+ minute &* 60 &+ second))
}

private func _isLeapYear(_ year: Int) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

private func _daysInMonth(_ month: Int, year: Int) -> Int {
    switch month {
    case 2: return _isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
}

/// Days from 1970-01-01 to a proleptic Gregorian date (the usual era-based
/// computation: 400-year eras of 146 097 days, years starting in March).
func _daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
}
