// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StreamingJSON

/// jq 1.8.2's date functions, as pure functions for the evaluator to call.
///
/// jq builds them on the C library (`gmtime_r`, `localtime_r`, `timegm`,
/// `mktime`, `strftime`, `strptime`), and so do these: outputs, the odd
/// ones included (`strftime("%s")` reads the time as local, `%Z` of a UTC
/// time is `GMT`), are the C library's, in the current `TZ` and locale.
///
/// A broken-down time is jq's array `[year, month (0-11), day of month,
/// hours, minutes, seconds, day of week, day of year]`; `gmtime` and
/// `localtime` keep the input's fraction of a second in the seconds.
/// Every function takes the input first, then the evaluated argument; `now`
/// ignores its input so that the zero-argument ones share one shape.
/// jq 1.8.2 no longer has `dateadd`, `datesub`, `date` or a `timegm`.
enum _DateLibrary {
    /// All names with their jq arity, for registration.
    static let names: [(name: String, arity: Int)] = [
        ("gmtime", 0), ("localtime", 0), ("mktime", 0), ("now", 0),
        ("todate", 0), ("todateiso8601", 0), ("fromdate", 0), ("fromdateiso8601", 0),
        ("strftime", 1), ("strflocaltime", 1), ("strptime", 1),
    ]

    /// The zero-argument function with this name, or nil.
    static func function0(_ name: String) -> ((JSONValue) throws -> JSONValue)? {
        switch name {
        case "gmtime": gmtime
        case "localtime": localtime
        case "mktime": mktime
        case "now": now
        case "todate": todate
        case "todateiso8601": todateiso8601
        case "fromdate": fromdate
        case "fromdateiso8601": fromdateiso8601
        default: nil
        }
    }

    /// The one-argument function with this name (input, argument), or nil.
    static func function1(_ name: String) -> ((JSONValue, JSONValue) throws -> JSONValue)? {
        switch name {
        case "strftime": strftime
        case "strflocaltime": strflocaltime
        case "strptime": strptime
        default: nil
        }
    }

    /// Seconds since the epoch to a UTC broken-down time.
    static func gmtime(_ input: JSONValue) throws -> JSONValue {
        try _brokenDown(input, local: false)
    }

    /// Seconds since the epoch to a broken-down time in the current `TZ`.
    static func localtime(_ input: JSONValue) throws -> JSONValue {
        try _brokenDown(input, local: true)
    }

    /// A UTC broken-down time to seconds since the epoch (C's `timegm`, out of
    /// range fields carried over; seconds truncated).
    static func mktime(_ input: JSONValue) throws -> JSONValue {
        guard case .array(let fields) = input else {
            throw JSONFilterError(message: "mktime requires array inputs")
        }
        guard var time = unsafe _cTime(fields, local: false) else {
            throw JSONFilterError(message: "mktime requires parsed datetime inputs")
        }
        let seconds = unsafe timegm(&time)
        // jq cannot tell an error from 1969-12-31T23:59:59Z, which it refuses too.
        guard seconds != -1 else {
            throw JSONFilterError(message: "invalid gmtime representation")
        }
        return .number(JSONNumber(Double(seconds)))
    }

    /// A broken-down time, or seconds (through `gmtime`), formatted by C's
    /// `strftime`.
    static func strftime(_ input: JSONValue, _ format: JSONValue) throws -> JSONValue {
        try _format(input, format, local: false)
    }

    /// `strftime` in the current `TZ`: seconds go through `localtime`, and
    /// the fields are read as local time (`%Z`, `%z` are the zone's).
    static func strflocaltime(_ input: JSONValue, _ format: JSONValue) throws -> JSONValue {
        try _format(input, format, local: true)
    }

    /// A string parsed by C's `strptime` into a broken-down time. Trailing
    /// white space is allowed and handed back as a ninth element.
    static func strptime(_ input: JSONValue, _ format: JSONValue) throws -> JSONValue {
        guard case .string(let text) = input, case .string(let pattern) = format else {
            throw JSONFilterError(message: "strptime/1 requires string inputs and arguments")
        }
        return try _parse(text, pattern)
    }

    /// The time of day in seconds since the epoch, to the microsecond.
    static func now(_ input: JSONValue) throws -> JSONValue {
        var clock = timeval()
        guard unsafe gettimeofday(&clock, nil) == 0 else {
            return .number(JSONNumber(Double(time(nil))))
        }
        return .number(JSONNumber(Double(clock.tv_sec) + Double(clock.tv_usec) / 1000000.0))
    }

    /// jq's `todate`, defined as `todateiso8601`.
    static func todate(_ input: JSONValue) throws -> JSONValue {
        try todateiso8601(input)
    }

    /// jq's `todateiso8601`: `strftime("%Y-%m-%dT%H:%M:%SZ")`.
    static func todateiso8601(_ input: JSONValue) throws -> JSONValue {
        try strftime(input, .string(_iso8601))
    }

    /// jq's `fromdate`, defined as `fromdateiso8601`.
    static func fromdate(_ input: JSONValue) throws -> JSONValue {
        try fromdateiso8601(input)
    }

    /// jq's `fromdateiso8601`: `strptime("%Y-%m-%dT%H:%M:%SZ") | mktime`.
    static func fromdateiso8601(_ input: JSONValue) throws -> JSONValue {
        try mktime(strptime(input, .string(_iso8601)))
    }

    private static let _iso8601 = "%Y-%m-%dT%H:%M:%SZ"
}

private func _brokenDown(_ input: JSONValue, local: Bool) throws -> JSONValue {
    guard case .number(let number) = input else {
        let name = local ? "localtime" : "gmtime"
        throw JSONFilterError(message: "\(name)() requires numeric inputs")
    }
    let seconds = number.double
    var whole = time_t(_cLong(seconds))
    var time = unsafe tm()
    let converted: UnsafeMutablePointer<tm>?
    if local {
        // localtime_r need not look at TZ again; a long-lived process
        // should see it change, as mktime does.
        tzset()
        unsafe converted = unsafe localtime_r(&whole, &time)
    } else {
        unsafe converted = unsafe gmtime_r(&whole, &time)
    }
    guard unsafe converted != nil else {
        throw JSONFilterError(message: "error converting number of seconds since epoch to datetime")
    }
    // jq adds the input's fraction to the truncated seconds, so -1.5 is
    // 23:59:59.5, not 23:59:58.5.
    return unsafe .array(_fields(time, fraction: seconds - seconds.rounded(.down)))
}

private func _fields(_ time: tm, fraction: Double) -> [JSONValue] {
    let fields = unsafe [
        Double(time.tm_year) + 1900, Double(time.tm_mon), Double(time.tm_mday),
        Double(time.tm_hour), Double(time.tm_min), Double(time.tm_sec) + fraction,
        Double(time.tm_wday), Double(time.tm_yday),
    ]
    return fields.map { .number(JSONNumber($0)) }
}

/// A broken-down time's fields into C's `tm`, nil when one of the first
/// eight is not a number or is NaN. Missing fields are zero, each field is
/// truncated and clamped to C's int, and the result is normalised by
/// `timegm` (or, for local time, `mktime`), which also recomputes the day of
/// the week and of the year.
private func _cTime(_ fields: [JSONValue], local: Bool) -> tm? {
    var values = [Int32](repeating: 0, count: 8)
    for index in 0..<min(fields.count, 8) {
        guard case .number(let number) = fields[index], !number.double.isNaN else { return nil }
        let value = index == 0 ? number.double - 1900 : number.double
        values[index] = value < -2147483648 ? .min : value > 2147483647 ? .max : Int32(value)
    }
    var time = unsafe tm()
    unsafe time.tm_year = values[0]
    unsafe time.tm_mon = values[1]
    unsafe time.tm_mday = values[2]
    unsafe time.tm_hour = values[3]
    unsafe time.tm_min = values[4]
    unsafe time.tm_sec = values[5]
    unsafe time.tm_wday = values[6]
    unsafe time.tm_yday = values[7]
    if local {
        unsafe time.tm_isdst = -1
        _ = unsafe mktime(&time)
    } else {
        _ = unsafe timegm(&time)
    }
    return unsafe time
}

private func _format(_ input: JSONValue, _ format: JSONValue, local: Bool) throws -> JSONValue {
    let name = local ? "strflocaltime" : "strftime"
    var input = input
    if case .number = input {
        input = try _brokenDown(input, local: local)
    }
    guard case .array(let fields) = input else {
        throw JSONFilterError(message: "\(name)/1 requires parsed datetime inputs")
    }
    guard case .string(let pattern) = format else {
        throw JSONFilterError(message: "\(name)/1 requires a string format")
    }
    guard var time = unsafe _cTime(fields, local: local) else {
        throw JSONFilterError(message: "\(name)/1 requires parsed datetime inputs")
    }
    return unsafe .string(try _cFormat(pattern, &time, name))
}

/// C's strftime into jq's buffer: the format's length plus 100 bytes. A
/// longer result (or an empty one from a non-empty format) is jq's "unknown
/// system failure", so the buffer size is part of the behaviour.
private func _cFormat(_ pattern: String, _ time: inout tm, _ name: String) throws -> String {
    unsafe try pattern.withCString { cPattern in
        let length = unsafe strlen(cPattern)
        let capacity = length + 100
        return unsafe try withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
            let count = unsafe strftime(buffer.baseAddress!, capacity, cPattern, &time)
            if count == 0 && length != 0 {
                throw JSONFilterError(message: "\(name)/1: unknown system failure")
            }
            let bytes = unsafe UnsafeRawBufferPointer(start: buffer.baseAddress!, count: count)
            return unsafe String(decoding: bytes, as: UTF8.self)
        }
    }
}

/// C's strptime on a zeroed `tm` whose day of the week and of the year hold
/// out-of-range markers (8, 367): glibc fills them in whenever a date was
/// parsed, and jq computes them itself when the C library did not but a
/// day and month are known. Both strings are read as C strings, up to a
/// NUL, in the match and in the error message alike.
private func _parse(_ text: String, _ pattern: String) throws -> JSONValue {
    var time = unsafe tm()
    unsafe time.tm_wday = 8
    unsafe time.tm_yday = 367
    // `%s` converts through localtime_r, which need not reread TZ.
    tzset()
    let (matched, rest): (Bool, String?) = unsafe text.withCString { cText in
        unsafe pattern.withCString { cPattern in
            guard let end = unsafe _strptime(cText, cPattern, &time) else { return (false, nil) }
            if unsafe end.pointee == 0 { return (true, nil) }
            guard unsafe isspace(Int32(UInt8(truncatingIfNeeded: end.pointee))) != 0 else { return (false, nil) }
            return unsafe (true, String(cString: end))
        }
    }
    guard matched else {
        let shownText = unsafe text.withCString { unsafe String(cString: $0) }
        let shownPattern = unsafe pattern.withCString { unsafe String(cString: $0) }
        throw JSONFilterError(message: "date \"\(shownText)\" does not match format \"\(shownPattern)\"")
    }
    if unsafe time.tm_mday != 0, unsafe (0...11).contains(time.tm_mon) {
        let (year, month, day) = unsafe (Int(time.tm_year) + 1900, Int(time.tm_mon), Int(time.tm_mday))
        if unsafe time.tm_wday == 8 { unsafe time.tm_wday = Int32(_gaussWeekday(year: year, month: month, day: day)) }
        if unsafe time.tm_yday == 367 { unsafe time.tm_yday = Int32(_dayOfYear(year: year, month: month, day: day)) }
    }
    var fields = unsafe _fields(time, fraction: 0)
    if let rest { fields.append(.string(rest)) }
    return .array(fields)
}

#if canImport(Glibc)
private typealias _CStrptime = @convention(c) (
    UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutablePointer<tm>?
) -> UnsafeMutablePointer<CChar>?

/// glibc's strptime, which the Glibc module leaves out (it is an X/Open
/// function); looked up once at run time rather than through a C shim
/// target. A C library without it makes every match fail.
private let _glibcStrptime: _CStrptime? = unsafe dlsym(dlopen(nil, RTLD_NOW), "strptime")
    .map { unsafe unsafeBitCast($0, to: _CStrptime.self) }

private func _strptime(
    _ text: UnsafePointer<CChar>, _ pattern: UnsafePointer<CChar>, _ time: UnsafeMutablePointer<tm>
) -> UnsafeMutablePointer<CChar>? {
    unsafe _glibcStrptime?(text, pattern, time)
}
#else
private func _strptime(
    _ text: UnsafePointer<CChar>, _ pattern: UnsafePointer<CChar>, _ time: UnsafeMutablePointer<tm>
) -> UnsafeMutablePointer<CChar>? {
    strptime(text, pattern, time)
}
#endif

/// The day of the week (0 is Sunday) by Gauss's formula, as jq works it out
/// when strptime left it unset. Like jq's, it does not carry January and
/// February back across a century, so 1900 and 2100 before March are off.
func _gaussWeekday(year: Int, month: Int, day: Int) -> Int {
    let century = year / 100
    var yearOfCentury = year % 100
    if month < 2 { yearOfCentury -= 1 }
    // Months counted from March = 1, so that February's leap day comes last.
    let shifted = month < 2 ? month + 11 : month - 1
    let monthTerm = Int((2.6 * Double(shifted) - 0.2).rounded(.down))
    let yearTerms = yearOfCentury + Int((Double(yearOfCentury) / 4).rounded(.down))
    let centuryTerms = Int((Double(century) / 4).rounded(.down)) - 2 * century
    let weekday = (day + monthTerm + yearTerms + centuryTerms) % 7
    return weekday < 0 ? weekday + 7 : weekday
}

/// The day of the year (0-based) of a month (0-11) and day, Gregorian leap
/// years included.
func _dayOfYear(year: Int, month: Int, day: Int) -> Int {
    let daysBefore = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]
    let isLeap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    return daysBefore[month] + (isLeap && month > 1 ? 1 : 0) + day - 1
}
