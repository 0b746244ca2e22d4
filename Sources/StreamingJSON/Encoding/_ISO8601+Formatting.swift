// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Writes the `.iso8601` strategy's text, `"2017-11-13T14:30:15Z"`, as
/// Foundation's `JSONEncoder` does (`Date.ISO8601FormatStyle()`):
/// UTC, whole seconds rounded down.
enum _ISO8601Formatter {
    /// Seconds since 1970 of 1583-01-01 and of 10000-01-01: inside, every
    /// calendar agrees with the proleptic Gregorian arithmetic below. Outside
    /// (the Julian switch of 1582, negative and five-digit years) Foundation's
    /// format style decides.
    static let arithmeticRange: ClosedRange<Double> = -12_212_553_600 ... 253_402_300_799

    static func append(_ date: Date, to bytes: inout some _ByteAppending) {
        let interval = date.timeIntervalSince1970
        guard arithmeticRange.contains(interval) else {
            appendWithFoundation(date, to: &bytes)
            return
        }
        let seconds = Int(interval.rounded(.down))
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (dayNumber, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        let (year, month, day) = civil(fromDays: dayNumber)

        bytes.append(UInt8(ascii: "\""))
        appendPadded(year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(day, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendPadded(second / 3600, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(second / 60 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(second % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
        bytes.append(UInt8(ascii: "\""))
    }

    private static func appendPadded(_ value: Int, width: Int, to bytes: inout some _ByteAppending) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(truncatingIfNeeded: rest / divisor) &+ 0x30)
            rest %= divisor
            divisor /= 10
        }
    }

    /// The proleptic Gregorian date of a day number counted from 1970-01-01
    /// (the inverse of `_daysFromCivil`: 400-year eras, years from March).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    @inline(never)
    private static func appendWithFoundation(_ date: Date, to bytes: inout some _ByteAppending) {
        _JSONScalars.append(string: date.formatted(.iso8601), escapesSlashes: true, to: &bytes)
    }
}
