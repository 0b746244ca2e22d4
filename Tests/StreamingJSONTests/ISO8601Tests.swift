// SPDX-License-Identifier: Apache-2.0
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

    /// Fractional seconds and offsets decode to the very `Double` that
    /// Foundation's `JSONDecoder` gives (its calendar adds the fraction to
    /// the time into the day before the day's start; summing in another
    /// order came out one bit apart, as for `2021-03-14T09:26:53.123Z`).
    @Test func fractionsAndOffsetsMatchFoundationToTheBit() throws {
        struct Stamp: Decodable { var at: Date }
        let ours = StreamingJSONDecoder(), theirs = JSONDecoder()
        ours.dateDecodingStrategy = .iso8601
        theirs.dateDecodingStrategy = .iso8601
        func decode(_ text: String) -> (ours: Date?, theirs: Date?) {
            let data = Data(#"{"at":"\#(text)"}"#.utf8)
            return ((try? ours.decode(Stamp.self, from: data))?.at, (try? theirs.decode(Stamp.self, from: data))?.at)
        }
        // A fixed sequence (no seed per run), so that a failure reproduces.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ range: ClosedRange<Int>) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Int((state >> 33) % UInt64(range.count))
        }
        var compared = 0
        for _ in 0..<3_000 {
            let fraction = (0..<next(1...9)).map { _ in String(next(0...9)) }.joined()
            let offset = next(-1...1) * (next(0...17) * 60 + next(0...1) * 30)
            let zone = offset == 0 ? "Z" : String(format: "%@%02d:%02d", offset < 0 ? "-" : "+", abs(offset) / 60, abs(offset) % 60)
            let text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%@%@", next(1600...2400), next(1...12), next(1...28),
                              next(0...23), next(0...59), next(0...59), fraction, zone)
            let (a, b) = decode(text)
            #expect(a != nil && a == b, "\(text): \(a?.timeIntervalSinceReferenceDate ?? .nan) against \(b?.timeIntervalSinceReferenceDate ?? .nan)")
            compared += 1
        }
        #expect(compared == 3_000)
        #expect(decode("2021-03-14T09:26:53.123Z").ours?.timeIntervalSinceReferenceDate == 637_406_813.123)
        let edge = decode("2021-03-14T09:26:53.5-18:00")
        #expect(edge.ours != nil && edge.ours == edge.theirs)
        // Refused by both: ten fractional digits, a comma, no digit after the
        // point, an offset past ±18:00.
        for text in ["2021-03-14T09:26:53.1234567890Z", "2021-03-14T09:26:53,5Z", "2021-03-14T09:26:53.Z",
                     "2021-03-14T09:26:53+18:01", "2021-03-14T09:26:53.5-23:00"] {
            let (a, b) = decode(text)
            #expect(a == nil && b == nil, "\(text)")
        }
    }
}
