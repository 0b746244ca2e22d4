// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The calendar arithmetic behind the `.iso8601` strategy's text,
/// `"2017-11-13T14:30:15Z"`, as Foundation's `JSONEncoder` writes it
/// (`Date.ISO8601FormatStyle()`): UTC, whole seconds rounded down.
/// `_FastScalars.formatISO8601` writes it; `_JSONOutput.writeISO8601` asks
/// Foundation outside `arithmeticRange`.
enum _ISO8601Formatter {
    /// Seconds since 1970 of 1583-01-01 and of 10000-01-01: inside, every
    /// calendar agrees with the proleptic Gregorian arithmetic below. Outside
    /// (the Julian switch of 1582, negative and five-digit years) Foundation's
    /// format style decides.
    static let arithmeticRange: ClosedRange<Double> = -12_212_553_600 ... 253_402_300_799

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
}
