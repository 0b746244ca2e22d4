// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

// The decoder's value strategies: dates, non-conforming floats and Data.
// (Helpers and the shared Beer models are in CodableScenarioTests.swift.)

extension CodableScenarioTests {
    // MARK: Date strategies

    @Test func dateDecodingStrategies() throws {
        struct Foo: Decodable, Equatable { let date: Date }
        typealias Strategies = (StreamingJSONDecoder.DateDecodingStrategy, JSONDecoder.DateDecodingStrategy)

        func both(_ json: String, _ strategies: Strategies) throws -> (Date, Date) {
            let ours = try Self.streaming(Foo.self, json) { $0.dateDecodingStrategy = strategies.0 }
            let theirs = try Self.foundation(Foo.self, json) { $0.dateDecodingStrategy = strategies.1 }
            return (ours.date, theirs.date)
        }

        // deferredToDate (the default): seconds since 2001-01-01 as a number.
        let deferred = try both(#"{"date": 519751611.12542897}"#, (.deferredToDate, .deferredToDate))
        #expect(deferred.0 == Date(timeIntervalSinceReferenceDate: 519751611.12542897))
        #expect(deferred.0 == deferred.1)
        #expect(try Self.streaming(Foo.self, #"{"date": 0}"#).date == Date(timeIntervalSince1970: 978_307_200))
        #expect(try Self.streaming(Foo.self, #"{"date": -86400}"#).date == Date(timeIntervalSince1970: 978_220_800))

        // .iso8601: Z, a numeric offset, fractional seconds.
        let iso = try both(#"{"date": "2017-06-21T15:29:32Z"}"#, (.iso8601, .iso8601))
        #expect(iso.0 == Date(timeIntervalSince1970: 1_498_058_972))
        #expect(iso.0 == iso.1)
        let offset = try both(#"{"date": "2017-11-13T22:30:15+08:00"}"#, (.iso8601, .iso8601))
        #expect(offset.0 == Date(timeIntervalSince1970: 1_510_583_415))
        #expect(offset.0 == offset.1)
        let fractional = try Self.streaming(Foo.self, #"{"date": "2016-05-01T12:00:00.250Z"}"#) {
            $0.dateDecodingStrategy = .iso8601
        }
        #expect(abs(fractional.date.timeIntervalSince1970 - 1_462_104_000.25) < 0.0005)
        let notISO = ErrorSummary(kind: "dataCorrupted", path: ["date"])
        #expect(Self.errorSummary {
            _ = try Self.streaming(Foo.self, #"{"date": "13/11/2017"}"#) { $0.dateDecodingStrategy = .iso8601 }
        } == notISO)
        // (Foundation on Linux reports this one with an empty coding path; only its kind is compared.)
        #expect(Self.errorSummary {
            _ = try Self.foundation(Foo.self, #"{"date": "13/11/2017"}"#) { $0.dateDecodingStrategy = .iso8601 }
        }.kind == notISO.kind)

        // .formatted with "MMM-dd-yyyy".
        let formatted = try both(#"{"date": "Oct-24-1995"}"#,
                                 (.formatted(Self.formatter("MMM-dd-yyyy")), .formatted(Self.formatter("MMM-dd-yyyy"))))
        #expect(formatted.0 == Date(timeIntervalSince1970: 814_492_800))
        #expect(formatted.0 == formatted.1)
        // The formatter's time zone is honoured (UTC+2: midnight there is 22:00 UTC the day before).
        let plusTwo = try Self.streaming(Foo.self, #"{"date": "Oct-24-1995"}"#) {
            $0.dateDecodingStrategy = .formatted(Self.formatter("MMM-dd-yyyy", secondsFromGMT: 7200))
        }
        #expect(plusTwo.date == Date(timeIntervalSince1970: 814_492_800 - 7200))
        let mismatch = ErrorSummary(kind: "dataCorrupted", path: ["date"])
        #expect(Self.errorSummary {
            _ = try Self.streaming(Foo.self, #"{"date": "1995-10-24"}"#) {
                $0.dateDecodingStrategy = .formatted(Self.formatter("MMM-dd-yyyy"))
            }
        } == mismatch)

        // .custom reading a string through singleValueContainer.
        @Sendable func custom(_ decoder: any Decoder) throws -> Date {
            let container = try decoder.singleValueContainer()
            let string = try container.decode(String.self)
            guard let date = Self.formatter("yyyy-MM-dd HH:mm:ss Z").date(from: string) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "bad date \(string)")
            }
            return date
        }
        let customJSON = #"{"date": "2017-11-13 22:30:15 +0800"}"#
        let customDates = try both(customJSON, (.custom(custom), .custom(custom)))
        #expect(customDates.0 == Date(timeIntervalSince1970: 1_510_583_415))
        #expect(customDates.0 == customDates.1)
        // The custom closure sees the coding path of the value, and its errors come through.
        let badCustom = ErrorSummary(kind: "dataCorrupted", path: ["[1]", "date"])
        let twoDates = #"[{"date": "2017-11-13 22:30:15 +0800"}, {"date": "yesterday"}]"#
        #expect(Self.errorSummary {
            _ = try Self.streaming([Foo].self, twoDates) { $0.dateDecodingStrategy = .custom(custom) }
        } == badCustom)
        #expect(Self.errorSummary {
            _ = try Self.foundation([Foo].self, twoDates) { $0.dateDecodingStrategy = .custom(custom) }
        } == badCustom)

        // secondsSince1970, whole and fractional.
        let seconds = try both(#"{"date": 1510583415}"#, (.secondsSince1970, .secondsSince1970))
        #expect(seconds.0 == Date(timeIntervalSince1970: 1_510_583_415))
        #expect(seconds.0 == seconds.1)
        let halfSecond = try both(#"{"date": 1510583415.5}"#, (.secondsSince1970, .secondsSince1970))
        #expect(halfSecond.0 == Date(timeIntervalSince1970: 1_510_583_415.5))
        #expect(halfSecond.0 == halfSecond.1)

        // millisecondsSince1970.
        let millis = try both(#"{"date": 1510583415250}"#, (.millisecondsSince1970, .millisecondsSince1970))
        #expect(millis.0 == Date(timeIntervalSince1970: 1_510_583_415.25))
        #expect(millis.0 == millis.1)

        // A string where a number is expected.
        let wrong = ErrorSummary(kind: "typeMismatch", type: "Double", path: ["date"])
        #expect(Self.errorSummary {
            _ = try Self.streaming(Foo.self, #"{"date": "1510583415"}"#) { $0.dateDecodingStrategy = .secondsSince1970 }
        } == wrong)
        #expect(Self.errorSummary {
            _ = try Self.foundation(Foo.self, #"{"date": "1510583415"}"#) { $0.dateDecodingStrategy = .secondsSince1970 }
        } == wrong)
    }

    // MARK: Non-conforming floats

    @Test func nonConformingFloatStrategies() throws {
        struct Numbers: Decodable { let a: Float; let b: Float; let c: Float }
        struct Doubles: Decodable { let a: Double; let b: Double; let c: Double }
        let json = #"{"a": "NaN", "b": "+Infinity", "c": "-Infinity"}"#
        let strings = StreamingJSONDecoder.NonConformingFloatDecodingStrategy
            .convertFromString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        let foundationStrings = JSONDecoder.NonConformingFloatDecodingStrategy
            .convertFromString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")

        let numbers = try Self.streaming(Numbers.self, json) { $0.nonConformingFloatDecodingStrategy = strings }
        #expect(numbers.a.isNaN)
        #expect(numbers.b == Float.infinity)
        #expect(numbers.c == -Float.infinity)
        let reference = try Self.foundation(Numbers.self, json) { $0.nonConformingFloatDecodingStrategy = foundationStrings }
        #expect(reference.a.isNaN && reference.b == numbers.b && reference.c == numbers.c)

        let doubles = try Self.streaming(Doubles.self, json) { $0.nonConformingFloatDecodingStrategy = strings }
        #expect(doubles.a.isNaN)
        #expect(doubles.b == Double.infinity)
        #expect(doubles.c == -Double.infinity)

        // Ordinary numbers still decode under the strategy.
        let mixed = try Self.streaming(Doubles.self, #"{"a": 1.5, "b": -2, "c": "-Infinity"}"#) {
            $0.nonConformingFloatDecodingStrategy = strings
        }
        #expect(mixed.a == 1.5)
        #expect(mixed.b == -2)
        #expect(mixed.c == -Double.infinity)

        // .throw (the default) rejects them: typeMismatch at the first one.
        let rejected = ErrorSummary(kind: "typeMismatch", type: "Float", path: ["a"])
        #expect(Self.errorSummary { _ = try Self.streaming(Numbers.self, json) } == rejected)
        #expect(Self.errorSummary {
            _ = try Self.streaming(Numbers.self, json) { $0.nonConformingFloatDecodingStrategy = .throw }
        } == rejected)
        #expect(Self.errorSummary { _ = try Self.foundation(Numbers.self, json) } == rejected)

        // A string that matches none of the three names is still a type mismatch.
        let unknown = #"{"a": "NaN", "b": "Infinity", "c": "-Infinity"}"#
        let notMatched = ErrorSummary(kind: "typeMismatch", type: "Float", path: ["b"])
        #expect(Self.errorSummary {
            _ = try Self.streaming(Numbers.self, unknown) { $0.nonConformingFloatDecodingStrategy = strings }
        } == notMatched)
        #expect(Self.errorSummary {
            _ = try Self.foundation(Numbers.self, unknown) { $0.nonConformingFloatDecodingStrategy = foundationStrings }
        } == notMatched)
    }

    // MARK: Data as base64 and through .custom

    @Test func dataDecodingStrategies() throws {
        struct Blob: Decodable { let name: String; let payload: Data }

        // .base64 (the default) and set explicitly.
        let base64JSON = #"{"name": "greeting", "payload": "SGVsbG8sIHdvcmxkIQ=="}"#
        let byDefault = try Self.streaming(Blob.self, base64JSON)
        #expect(byDefault.name == "greeting")
        #expect(byDefault.payload == Data("Hello, world!".utf8))
        let explicit = try Self.streaming(Blob.self, base64JSON) { $0.dataDecodingStrategy = .base64 }
        #expect(explicit.name == "greeting")
        #expect(explicit.payload == Data("Hello, world!".utf8))
        #expect(explicit.payload == (try Self.foundation(Blob.self, base64JSON)).payload)
        let empty = try Self.streaming(Blob.self, #"{"name": "", "payload": ""}"#)
        #expect(empty.name == "")
        #expect(empty.payload == Data())

        let notBase64 = #"{"name": "x", "payload": "!!not base64!!"}"#
        let corrupted = ErrorSummary(kind: "dataCorrupted", path: ["payload"])
        #expect(Self.errorSummary { _ = try Self.streaming(Blob.self, notBase64) } == corrupted)
        #expect(Self.errorSummary { _ = try Self.foundation(Blob.self, notBase64) } == corrupted)

        // .custom: a hex string read through singleValueContainer.
        @Sendable func hex(_ decoder: any Decoder) throws -> Data {
            let container = try decoder.singleValueContainer()
            let string = try container.decode(String.self)
            var bytes: [UInt8] = []
            var index = string.startIndex
            while index < string.endIndex {
                let next = string.index(index, offsetBy: 2, limitedBy: string.endIndex) ?? string.endIndex
                guard let byte = UInt8(string[index..<next], radix: 16), string.distance(from: index, to: next) == 2 else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "not hex: \(string)")
                }
                bytes.append(byte)
                index = next
            }
            return Data(bytes)
        }
        let hexJSON = #"{"name": "hex", "payload": "48656c6c6f"}"#
        let custom = try Self.streaming(Blob.self, hexJSON) { $0.dataDecodingStrategy = .custom(hex) }
        #expect(custom.name == "hex")
        #expect(custom.payload == Data("Hello".utf8))
        #expect(custom.payload == (try Self.foundation(Blob.self, hexJSON) { $0.dataDecodingStrategy = .custom(hex) }).payload)
        let badHex = ErrorSummary(kind: "dataCorrupted", path: ["payload"])
        #expect(Self.errorSummary {
            _ = try Self.streaming(Blob.self, #"{"name": "hex", "payload": "4865zz"}"#) { $0.dataDecodingStrategy = .custom(hex) }
        } == badHex)

        // The custom strategy also applies to streamed root-level elements.
        let decoder = StreamingJSONDecoder()
        decoder.dataDecodingStrategy = .custom(hex)
        var chunks: [Data] = []
        try decoder.elements(of: Data.self, from: Self.data(#"["4869", "", "21"]"#)).forEach { chunks.append($0) }
        #expect(chunks == [Data("Hi".utf8), Data(), Data("!".utf8)])

        // .deferredToData: Data's own Decodable, an array of bytes.
        let deferred = try Self.streaming(Blob.self, #"{"name": "raw", "payload": [72, 105, 0, 255]}"#) {
            $0.dataDecodingStrategy = .deferredToData
        }
        #expect(deferred.name == "raw")
        #expect(deferred.payload == Data([72, 105, 0, 255]))
    }
}
