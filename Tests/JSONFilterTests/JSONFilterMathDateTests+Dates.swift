// SPDX-License-Identifier: Apache-2.0
import StreamingJSON
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@testable import JSONFilter

/// The date half of `JSONFilterMathDateTests`: expected outputs are jq
/// 1.8.2's compact output (`jq -c`), or the message it fails with, recorded
/// from the binary as the suite's note says.
extension JSONFilterMathDateTests {
    struct DateCase: Sendable, CustomTestStringConvertible {
        let input: JSONValue
        let function: String
        let argument: JSONValue?
        let output: String?
        let error: String?

        init(_ input: JSONValue, _ function: String, _ argument: JSONValue?, _ output: String) {
            (self.input, self.function, self.argument, self.output, self.error) = (input, function, argument, output, nil)
        }

        init(_ input: JSONValue, _ function: String, _ argument: JSONValue?, error: String) {
            (self.input, self.function, self.argument, self.output, self.error) = (input, function, argument, nil, error)
        }

        var testDescription: String {
            "\(input) | \(function)\(argument.map { "(\($0))" } ?? "")"
        }

        func run() throws -> JSONValue {
            if let argument {
                let function = try #require(_DateLibrary.function1(function))
                return try function(input, argument)
            }
            let function = try #require(_DateLibrary.function0(function))
            return try function(input)
        }

        func check() throws {
            if let error {
                let thrown = #expect(throws: JSONFilterError.self, "\(self)") { try run() }
                #expect(thrown?.message == error, "\(self)")
            } else {
                #expect(try run().description == output, "\(self)")
            }
        }
    }

    // gmtime keeps the input's fraction (added to the truncated seconds, so
    // -1.5 is 23:59:59.5); mktime truncates seconds, carries out-of-range
    // fields, clamps to C int, and refuses -1; strftime on a number goes
    // through gmtime and fails on output longer than the format plus 100
    // bytes; strptime leaves glibc's markers 8 and 367 when no date was
    // parsed and hands back trailing white space as a ninth element; the
    // strings are C strings (a NUL ends them, error message included).
    @Test(arguments: dateCases) func date(_ example: DateCase) throws { try example.check() }

    // localtime, strflocaltime and the TZ-dependent corners of the others
    // (strftime's %s reads the fields as local time, strptime's %s converts
    // to local time) in two POSIX zones that need no zone files, one with
    // summer time; the UTC functions do not move.
    @Test func localTime() throws {
        let saved = getenv("TZ").map { String(cString: $0) }
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        for (zone, cases) in [("XST-5:30", Self.indiaLikeCases), ("EST5EDT,M3.2.0,M11.1.0", Self.easternCases)] {
            setenv("TZ", zone, 1)
            for example in cases { try example.check() }
        }
    }

    @Test func now() throws {
        guard case .number(let number) = try _DateLibrary.now(nil) else {
            Issue.record("now is not a number")
            return
        }
        let clock = Double(time(nil))
        #expect(number.double >= clock - 1 && number.double <= clock + 1)
    }

    // The registry: jq 1.8.2's date builtins (its `builtins` filtered on
    // time, date, now), and no dateadd, datesub, date or timegm.
    @Test func dateNames() {
        let registered = Set(_DateLibrary.names.map { "\($0.name)/\($0.arity)" })
        #expect(registered == [
            "fromdate/0", "fromdateiso8601/0", "gmtime/0", "localtime/0", "mktime/0", "now/0",
            "strflocaltime/1", "strftime/1", "strptime/1", "todate/0", "todateiso8601/0",
        ])
        for (name, arity) in _DateLibrary.names {
            #expect((_DateLibrary.function0(name) != nil) == (arity == 0), "\(name)")
            #expect((_DateLibrary.function1(name) != nil) == (arity == 1), "\(name)")
        }
        for name in ["dateadd", "datesub", "date", "timegm", "sin"] {
            #expect(_DateLibrary.function0(name) == nil && _DateLibrary.function1(name) == nil)
        }
    }

    // jq's own day-of-week and day-of-year, for a C library that leaves them
    // unset (glibc does not); checked against the days jq's gmtime gives.
    @Test func weekdayAndDayOfYear() {
        let days: [(Int, Int, Int, Int, Int)] = [
            (2015, 2, 5, 4, 63), (2024, 1, 29, 4, 59), (2024, 11, 31, 2, 365), (1970, 0, 1, 4, 0),
            (2000, 1, 29, 2, 59), (2023, 0, 1, 0, 0), (1999, 11, 31, 5, 364),
        ]
        for (year, month, day, weekday, dayOfYear) in days {
            #expect(_gaussWeekday(year: year, month: month, day: day) == weekday, "\(year)-\(month)-\(day)")
            #expect(_dayOfYear(year: year, month: month, day: day) == dayOfYear, "\(year)-\(month)-\(day)")
        }
    }

    static let dateCases: [DateCase] = [
        .init(1425599621, "gmtime", nil, "[2015,2,5,23,53,41,4,63]"),
        .init(1425599621.123, "gmtime", nil, "[2015,2,5,23,53,41.12299990653992,4,63]"),
        .init(1425599507.999, "gmtime", nil, "[2015,2,5,23,51,47.99900007247925,4,63]"),
        .init(-1.5, "gmtime", nil, "[1969,11,31,23,59,59.5,3,364]"),
        .init(-0.25, "gmtime", nil, "[1970,0,1,0,0,0.75,4,0]"),
        .init(-62135596800, "gmtime", nil, "[1,0,1,0,0,0,1,0]"),
        .init(1e16, "gmtime", nil, "[316889355,0,25,17,46,40,6,24]"),
        .init(-1e16, "gmtime", nil, "[-316885416,11,6,6,13,20,1,340]"),
        .init(1e17, "gmtime", nil, error: "error converting number of seconds since epoch to datetime"),
        .init(.number(JSONNumber(.nan)), "gmtime", nil, error: "error converting number of seconds since epoch to datetime"),
        .init(.number(JSONNumber(.infinity)), "gmtime", nil, error: "error converting number of seconds since epoch to datetime"),
        .init("x", "gmtime", nil, error: "gmtime() requires numeric inputs"),
        .init([1], "gmtime", nil, error: "gmtime() requires numeric inputs"),
        .init("x", "localtime", nil, error: "localtime() requires numeric inputs"),
        .init([2015, 2, 5, 23, 51, 47, 4, 63], "mktime", nil, "1425599507"),
        .init([], "mktime", nil, "-2209075200"),
        .init([2024, 13, 40, 25, 61, 61.9], "mktime", nil, "1741831321"),
        .init([2024, 0, 1, 0, 0, -0.5], "mktime", nil, "1704067200"),
        .init([2015, 2, 5, 23, 51, 47.999, 0, 0], "mktime", nil, "1425599507"),
        .init([2015, 2, 5, 23, 51, 47, 4, 63, "x"], "mktime", nil, "1425599507"),
        .init([1e12], "mktime", nil, "67768036160054400"),
        .init([.number(JSONNumber(.infinity))], "mktime", nil, "67768036160054400"),
        .init([.number(JSONNumber(-.infinity)), 0, 1], "mktime", nil, "-67768040609740800"),
        .init([1969, 11, 31, 23, 59, 59], "mktime", nil, error: "invalid gmtime representation"),
        .init([-1e300], "mktime", nil, error: "invalid gmtime representation"),
        .init([.number(JSONNumber(.nan))], "mktime", nil, error: "mktime requires parsed datetime inputs"),
        .init([2015, 2, 5, 23, 51, 47, "x"], "mktime", nil, error: "mktime requires parsed datetime inputs"),
        .init([nil], "mktime", nil, error: "mktime requires parsed datetime inputs"),
        .init("x", "mktime", nil, error: "mktime requires array inputs"),
        .init(1425599507, "mktime", nil, error: "mktime requires array inputs"),
        .init([2015, 2, 5, 23, 51, 47, 4, 63], "strftime", "%Y-%m-%dT%H:%M:%SZ", "\"2015-03-05T23:51:47Z\""),
        .init(1425599507.9, "strftime", "%Y-%m-%dT%H:%M:%SZ", "\"2015-03-05T23:51:47Z\""),
        .init(0, "strftime", "%Z|%z|%c|%j|%a|%A|%b|%B|%U|%u|%G|%V|%e", "\"GMT|+0000|Thu Jan  1 00:00:00 1970|001|Thu|Thursday|Jan|January|00|4|1970|01| 1\""),
        .init(1e9, "strftime", "%H:%M:%S %p %I %y %C %G-W%V-%u %U %W %D %R %T %n%t|", "\"01:46:40 AM 01 01 20 2001-W36-7 36 36 09/09/01 01:46 01:46:40 \\n\\t|\""),
        .init([2024], "strftime", "%Z|%z|%a|%j|%F", "\"GMT|+0000|Sun|365|2023-12-31\""),
        .init([], "strftime", "%j %a %Y", "\"365 Sun 1899\""),
        .init([2024, 1, 30], "strftime", "%j %a %F", "\"061 Fri 2024-03-01\""),
        .init([2024, 13, 40, 25, 61, 61.9], "strftime", "%FT%T", "\"2025-03-13T02:02:01\""),
        .init([1e12], "strftime", "%Y", "\"-2147481750\""),
        .init([2024, 0, 1], "strftime", "%Y年%m月 %%", "\"2024年01月 %\""),
        .init([2024, 0, 1], "strftime", "a\u{0}b", "\"a\""),
        .init([2024, 5, 15, 12], "strftime", "", "\"\""),
        .init([], "strftime", "%p", "\"AM\""),
        .init([], "strftime", "%c%c%c%c%c", error: "strftime/1: unknown system failure"),
        .init(1e20, "strftime", "%Y", error: "error converting number of seconds since epoch to datetime"),
        .init(1e20, "strftime", 1, error: "error converting number of seconds since epoch to datetime"),
        .init([], "strftime", 1, error: "strftime/1 requires a string format"),
        .init(1, "strftime", 1, error: "strftime/1 requires a string format"),
        .init("x", "strftime", 1, error: "strftime/1 requires parsed datetime inputs"),
        .init([:], "strftime", "%Y", error: "strftime/1 requires parsed datetime inputs"),
        .init(["a"], "strftime", "%Y", error: "strftime/1 requires parsed datetime inputs"),
        .init([true], "strftime", "%Y", error: "strftime/1 requires parsed datetime inputs"),
        .init([:], "strflocaltime", "%Y", error: "strflocaltime/1 requires parsed datetime inputs"),
        .init([], "strflocaltime", 1, error: "strflocaltime/1 requires a string format"),
        .init(["a"], "strflocaltime", "%Y", error: "strflocaltime/1 requires parsed datetime inputs"),
        .init("x", "strflocaltime", "%Y", error: "strflocaltime/1 requires parsed datetime inputs"),
        .init(1e17, "strflocaltime", "%Y", error: "error converting number of seconds since epoch to datetime"),
        .init(.number(JSONNumber(.nan)), "strflocaltime", "%Y", error: "error converting number of seconds since epoch to datetime"),
        .init([], "strflocaltime", "%c%c%c%c%c", error: "strflocaltime/1: unknown system failure"),
        .init("2015-03-05T23:51:47Z", "strptime", "%Y-%m-%dT%H:%M:%SZ", "[2015,2,5,23,51,47,4,63]"),
        .init("15", "strptime", "%d", "[1900,0,15,0,0,0,1,14]"),
        .init("2024-02-29", "strptime", "%Y-%m-%d", "[2024,1,29,0,0,0,4,59]"),
        .init("Thu, 05 Mar 2015 23:51:47 GMT", "strptime", "%a, %d %b %Y %H:%M:%S GMT", "[2015,2,5,23,51,47,4,63]"),
        .init("2015 64", "strptime", "%Y %j", "[2015,2,5,0,0,0,4,63]"),
        .init("12:30 PM", "strptime", "%I:%M %p", "[1900,0,0,12,30,0,8,367]"),
        .init("  2015-03-05T23:51:47Z", "strptime", "%Y-%m-%dT%H:%M:%SZ", "[2015,2,5,23,51,47,4,63]"),
        .init("2015-03-05T23:51:47Z\t", "strptime", "%Y-%m-%dT%H:%M:%SZ", "[2015,2,5,23,51,47,4,63,\"\\t\"]"),
        .init("2015-03-05 23:51:47  xy", "strptime", "%Y-%m-%d %H:%M:%S", "[2015,2,5,23,51,47,4,63,\"  xy\"]"),
        .init("2015-03-05T23:51:47Zx", "strptime", "%Y-%m-%dT%H:%M:%SZ", error: "date \"2015-03-05T23:51:47Zx\" does not match format \"%Y-%m-%dT%H:%M:%SZ\""),
        .init("1900-01-15", "strptime", "%Y-%m-%d", "[1900,0,15,0,0,0,1,14]"),
        .init("2100-02-15", "strptime", "%Y-%m-%d", "[2100,1,15,0,0,0,1,45]"),
        .init("", "strptime", "", "[1900,0,0,0,0,0,8,367]"),
        .init("abc", "strptime", "", error: "date \"abc\" does not match format \"\""),
        .init(" abc", "strptime", "", "[1900,0,0,0,0,0,8,367,\" abc\"]"),
        .init("x", "strptime", "%Y", error: "date \"x\" does not match format \"%Y\""),
        .init("a\u{0}b", "strptime", "%Y", error: "date \"a\" does not match format \"%Y\""),
        .init("x", "strptime", "a\u{0}b", error: "date \"x\" does not match format \"a\""),
        .init(1, "strptime", "%Y", error: "strptime/1 requires string inputs and arguments"),
        .init("1", "strptime", 1, error: "strptime/1 requires string inputs and arguments"),
        .init(1425599507, "todate", nil, "\"2015-03-05T23:51:47Z\""),
        .init([2015, 2, 5, 23, 51, 47, 4, 63], "todate", nil, "\"2015-03-05T23:51:47Z\""),
        .init("x", "todate", nil, error: "strftime/1 requires parsed datetime inputs"),
        .init(1425599507, "todateiso8601", nil, "\"2015-03-05T23:51:47Z\""),
        .init(-62135596801, "todateiso8601", nil, "\"0-12-31T23:59:59Z\""),
        .init(253402300800, "todateiso8601", nil, "\"10000-01-01T00:00:00Z\""),
        .init("2015-03-05T23:51:47Z", "fromdate", nil, "1425599507"),
        .init("2015-03-05T23:51:47.123Z", "fromdate", nil, error: "date \"2015-03-05T23:51:47.123Z\" does not match format \"%Y-%m-%dT%H:%M:%SZ\""),
        .init(1, "fromdate", nil, error: "strptime/1 requires string inputs and arguments"),
        .init("2015-03-05T23:51:47Z", "fromdateiso8601", nil, "1425599507"),
        .init("bad", "fromdateiso8601", nil, error: "date \"bad\" does not match format \"%Y-%m-%dT%H:%M:%SZ\""),
    ]

    /// TZ=XST-5:30.
    static let indiaLikeCases: [DateCase] = [
        .init(1425599507, "localtime", nil, "[2015,2,6,5,21,47,5,64]"),
        .init(1425599507.5, "localtime", nil, "[2015,2,6,5,21,47.5,5,64]"),
        .init(1e17, "localtime", nil, error: "error converting number of seconds since epoch to datetime"),
        .init(1425599507, "strflocaltime", "%Y-%m-%dT%H:%M:%S %Z %z %s", "\"2015-03-06T05:21:47 XST +0530 1425599507\""),
        .init([2015, 2, 5, 23, 51, 47, 4, 63], "strflocaltime", "%Y-%m-%dT%H:%M:%S %Z %z %s %j %a", "\"2015-03-05T23:51:47 XST +0530 1425579707 064 Thu\""),
        .init([2015, 6, 5, 23, 51, 47], "strflocaltime", "%H %Z %z", "\"23 XST +0530\""),
        .init([2015, 1, 40], "strflocaltime", "%F %j %Z", "\"2015-03-12 071 XST\""),
        .init([2015, 2, 5, 23, 51, 47, 4, 63], "strftime", "%Y-%m-%dT%H:%M:%S %Z %z %s", "\"2015-03-05T23:51:47 GMT +0000 1425579707\""),
        .init([2015, 2, 5, 23, 51, 47, 4, 63], "mktime", nil, "1425599507"),
        .init("1425599507", "strptime", "%s", "[2015,2,6,5,21,47,5,64]"),
        .init(1425599507, "todate", nil, "\"2015-03-05T23:51:47Z\""),
        .init("2015-03-05T23:51:47Z", "fromdate", nil, "1425599507"),
    ]

    /// TZ=EST5EDT,M3.2.0,M11.1.0.
    static let easternCases: [DateCase] = [
        .init(1425599507, "localtime", nil, "[2015,2,5,18,51,47,4,63]"),
        .init(1425599507.5, "localtime", nil, "[2015,2,5,18,51,47.5,4,63]"),
        .init(1e17, "localtime", nil, error: "error converting number of seconds since epoch to datetime"),
        .init(1425599507, "strflocaltime", "%Y-%m-%dT%H:%M:%S %Z %z %s", "\"2015-03-05T18:51:47 EST -0500 1425599507\""),
        .init([2015, 2, 5, 23, 51, 47, 4, 63], "strflocaltime", "%Y-%m-%dT%H:%M:%S %Z %z %s %j %a", "\"2015-03-05T23:51:47 EST -0500 1425617507 064 Thu\""),
        .init([2015, 6, 5, 23, 51, 47], "strflocaltime", "%H %Z %z", "\"23 EDT -0400\""),
        .init([2015, 1, 40], "strflocaltime", "%F %j %Z", "\"2015-03-12 071 EDT\""),
        .init([2015, 2, 5, 23, 51, 47, 4, 63], "strftime", "%Y-%m-%dT%H:%M:%S %Z %z %s", "\"2015-03-05T23:51:47 GMT +0000 1425617507\""),
        .init([2015, 2, 5, 23, 51, 47, 4, 63], "mktime", nil, "1425599507"),
        .init("1425599507", "strptime", "%s", "[2015,2,5,18,51,47,4,63]"),
        .init(1425599507, "todate", nil, "\"2015-03-05T23:51:47Z\""),
        .init("2015-03-05T23:51:47Z", "fromdate", nil, "1425599507"),
    ]
}
