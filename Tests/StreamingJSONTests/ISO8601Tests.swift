import Foundation
import Testing
@testable import StreamingJSON

/// `_parseISO8601`'s fixed-offset path for `YYYY-MM-DDTHH:MM:SSZ` against its
/// general path (which a `.0` fraction forces) and against Foundation.
@Suite struct ISO8601Tests {
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { _parseISO8601($0) }
    }

    /// The same text with `.0` before the zone: the general parser.
    static func parseGeneral(_ text: String) -> Date? {
        parse(String(text.dropLast()) + ".0" + String(text.suffix(1)))
    }

    @Test func theFixedOffsetPathAgreesWithTheGeneralOne() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789-:TtZz+ x".utf8)
        var checked = 0, dates = 0
        for year in [0, 1, 99, 100, 1582, 1900, 1970, 1999, 2000, 2004, 2023, 2024, 2100, 9999] {
            for month in [0, 1, 2, 3, 4, 6, 9, 11, 12, 13, 99] {
                for day in [0, 1, 28, 29, 30, 31, 32] {
                    let text = String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", year, month, day,
                                      Int.random(in: 0...25, using: &generator), Int.random(in: 0...61, using: &generator),
                                      Int.random(in: 0...61, using: &generator))
                    #expect(Self.parse(text) == Self.parseGeneral(text), "\(text)")
                    if Self.parse(text) != nil { dates += 1 }
                    // One byte replaced anywhere.
                    var bytes = Array(text.utf8)
                    bytes[Int.random(in: 0..<20, using: &generator)] = alphabet.randomElement(using: &generator)!
                    let mutated = String(decoding: bytes, as: UTF8.self)
                    #expect(Self.parse(mutated) == Self.parseGeneral(mutated), "\(mutated)")
                    checked += 2
                }
            }
        }
        #expect(checked == 2 * 14 * 11 * 7)
        #expect(dates > 100)
    }

    @Test func fixedOffsetDatesMatchFoundation() throws {
        let formatter = ISO8601DateFormatter()
        for text in ["1970-01-01T00:00:00Z", "2018-12-01T14:25:05Z", "2024-02-29T23:59:59Z", "2000-02-29T12:00:00z",
                     "1999-12-31t23:59:59Z", "1583-01-01T00:00:00Z", "9999-12-31T23:59:59Z"] {
            // (Before October 1582 Foundation counts in the Julian calendar, this parser
            // in the proleptic Gregorian one that RFC 3339 prescribes.)
            let ours = try #require(Self.parse(text), "\(text)")
            let theirs = try #require(formatter.date(from: text.uppercased()), "\(text)")
            #expect(ours == theirs, "\(text)")
        }
        for text in ["2023-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "2024-04-31T00:00:00Z", "2024-00-10T00:00:00Z",
                     "2024-13-10T00:00:00Z", "2024-01-00T00:00:00Z", "2024-01-10T24:00:00Z", "2024-01-10T10:60:00Z",
                     "2024-01-10T10:00:61Z", "2024-01-10 10:00:00Z", "2024-01-10T10:00:00+", "2024/01/10T10:00:00Z",
                     "2024-01-1aT10:00:00Z", "-024-01-10T10:00:00Z"] {
            #expect(Self.parse(text) == nil, "\(text)")
        }
    }
}
