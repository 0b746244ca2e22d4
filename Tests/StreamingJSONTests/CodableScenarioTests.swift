// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

// The 22 Codable scenarios the package must pass (classic Codable tutorial cases), one @Test each.
// Scenarios 1–8 are here, 9–16 in CodableScenarioTests+Part2.swift, 17–22 in +Part3.swift.
// JSON and model types follow those tutorials.
// Every decoded field is asserted; several scenarios are also decoded with
// Foundation's JSONDecoder on the same input and compared.

@Suite struct CodableScenarioTests {

    // MARK: Support (shared with Part2 and Part3)

    static func data(_ json: String) -> Data { Data(json.utf8) }

    /// Decodes with a fresh `StreamingJSONDecoder`.
    static func streaming<T: Decodable>(_ type: T.Type, _ json: String,
                                        configure: (StreamingJSONDecoder) -> Void = { _ in }) throws -> T {
        let decoder = StreamingJSONDecoder()
        configure(decoder)
        return try decoder.decode(type, from: data(json))
    }

    /// Decodes with a fresh Foundation `JSONDecoder`.
    static func foundation<T: Decodable>(_ type: T.Type, _ json: String,
                                         configure: (JSONDecoder) -> Void = { _ in }) throws -> T {
        let decoder = JSONDecoder()
        configure(decoder)
        return try decoder.decode(type, from: data(json))
    }

    /// A coding path as strings: `[3]` for an index, the key's string otherwise.
    static func path(_ keys: [any CodingKey]) -> [String] {
        keys.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
    }

    /// What a test needs to know of a `DecodingError`.
    struct ErrorSummary: Equatable, CustomStringConvertible {
        var kind: String            // "dataCorrupted", "keyNotFound", "typeMismatch", "valueNotFound"
        var key: String? = nil      // keyNotFound: the missing key's stringValue
        var type: String? = nil     // typeMismatch / valueNotFound: the expected type
        var path: [String]

        var description: String { "\(kind)(key: \(key ?? "-"), type: \(type ?? "-"), path: \(path))" }

        /// The same error without the type (Foundation names container types differently).
        var withoutType: ErrorSummary { var copy = self; copy.type = nil; return copy }
    }

    static func summary(_ error: DecodingError) -> ErrorSummary {
        switch error {
        case .dataCorrupted(let context):
            return ErrorSummary(kind: "dataCorrupted", path: path(context.codingPath))
        case .keyNotFound(let key, let context):
            return ErrorSummary(kind: "keyNotFound", key: key.stringValue, path: path(context.codingPath))
        case .typeMismatch(let type, let context):
            return ErrorSummary(kind: "typeMismatch", type: String(describing: type), path: path(context.codingPath))
        case .valueNotFound(let type, let context):
            return ErrorSummary(kind: "valueNotFound", type: String(describing: type), path: path(context.codingPath))
        @unknown default:
            return ErrorSummary(kind: "unknown \(error)", path: [])
        }
    }

    static func context(_ error: DecodingError) -> DecodingError.Context? {
        switch error {
        case .dataCorrupted(let context), .keyNotFound(_, let context),
             .typeMismatch(_, let context), .valueNotFound(_, let context):
            return context
        @unknown default:
            return nil
        }
    }

    /// Runs `body`, which must throw a `DecodingError`, and returns it.
    static func decodingError(sourceLocation: SourceLocation = #_sourceLocation,
                              _ body: () throws -> Void) -> DecodingError? {
        do {
            try body()
        } catch let error as DecodingError {
            return error
        } catch {
            Issue.record("expected a DecodingError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
            return nil
        }
        Issue.record("expected a DecodingError, nothing was thrown", sourceLocation: sourceLocation)
        return nil
    }

    /// The summary of the DecodingError `body` throws ("none" when it throws nothing or something else).
    static func errorSummary(sourceLocation: SourceLocation = #_sourceLocation,
                             _ body: () throws -> Void) -> ErrorSummary {
        guard let error = decodingError(sourceLocation: sourceLocation, body) else {
            return ErrorSummary(kind: "none", path: [])
        }
        return summary(error)
    }

    /// A POSIX formatter in a fixed time zone, so results do not depend on the machine.
    static func formatter(_ format: String, secondsFromGMT: Int = 0) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: secondsFromGMT)!
        formatter.dateFormat = format
        return formatter
    }

    // MARK: 1. Root-level array of Beer with a String raw-value enum

    @Test func scenario01_rootArrayOfBeersWithRawValueEnum() throws {
        let json = """
        [
          {"name": "Endeavor", "abv": 8.9, "brewery": "Saint Arnold", "style": "ipa"},
          {"name": "Lawnmower", "abv": 4.9, "brewery": "Saint Arnold", "style": "kolsch"},
          {"name": "Guinness Draught", "abv": 4.2, "brewery": "Guinness", "style": "stout"}
        ]
        """
        let beers = try Self.streaming([Brew.Beer].self, json)
        #expect(beers.count == 3)
        #expect(beers[0].name == "Endeavor")
        #expect(beers[0].brewery == "Saint Arnold")
        #expect(beers[0].style == .ipa)
        #expect(beers[1].name == "Lawnmower")
        #expect(beers[1].brewery == "Saint Arnold")
        #expect(beers[1].style == .kolsch)
        #expect(beers[2].name == "Guinness Draught")
        #expect(beers[2].brewery == "Guinness")
        #expect(beers[2].style == .stout)

        // Same result as Foundation.
        #expect(beers == (try Self.foundation([Brew.Beer].self, json)))

        // Streamed one at a time: sync iterator, then forEach, then a second pass.
        let elements = StreamingJSONDecoder().elements(of: Brew.Beer.self, from: Self.data(json))
        var iterator = elements.makeIterator()
        var streamed: [Brew.Beer] = []
        while let beer = try iterator.next() { streamed.append(beer) }
        #expect(streamed == beers)
        #expect(try iterator.next() == nil)
        var names: [String] = []
        try elements.forEach { names.append($0.name) }
        #expect(names == ["Endeavor", "Lawnmower", "Guinness Draught"])

        // A single Beer object.
        let one = try Self.streaming(Brew.Beer.self,
                                     #"{"name": "Endeavor", "abv": 8.9, "brewery": "Saint Arnold", "style": "ipa"}"#)
        #expect(one == Brew.Beer(name: "Endeavor", brewery: "Saint Arnold", style: .ipa))

        // A raw value the enum does not know: dataCorrupted at the style.
        let bad = #"[{"name": "X", "brewery": "Y", "style": "ipa"}, {"name": "Z", "brewery": "Y", "style": "porter"}]"#
        let expected = ErrorSummary(kind: "dataCorrupted", path: ["[1]", "style"])
        #expect(Self.errorSummary { _ = try Self.streaming([Brew.Beer].self, bad) } == expected)
        #expect(Self.errorSummary { _ = try Self.foundation([Brew.Beer].self, bad) } == expected)
    }

    // MARK: 2. CodingKeys renaming

    @Test func scenario02_codingKeysRenaming() throws {
        let json = #"{"name": "Endeavor", "alcohol_by_volume": 8.9, "brewery_name": "Saint Arnold", "style": "ipa"}"#
        let beer = try Self.streaming(RenamedBeer.self, json)
        #expect(beer.name == "Endeavor")
        #expect(beer.abv == Float(8.9))
        #expect(beer.brewery == "Saint Arnold")
        #expect(beer.style == .ipa)
        #expect(beer == (try Self.foundation(RenamedBeer.self, json)))

        // Inside an array, streamed.
        let array = "[\(json), {\"style\": \"stout\", \"brewery_name\": \"Guinness\", \"alcohol_by_volume\": 4.2, \"name\": \"Draught\"}]"
        var streamed: [RenamedBeer] = []
        try StreamingJSONDecoder().elements(of: RenamedBeer.self, from: Self.data(array)).forEach { streamed.append($0) }
        #expect(streamed.count == 2)
        #expect(streamed[0] == beer)
        #expect(streamed[1].name == "Draught")
        #expect(streamed[1].abv == Float(4.2))
        #expect(streamed[1].brewery == "Guinness")
        #expect(streamed[1].style == .stout)

        // The Swift names are not the JSON names: "abv" does not satisfy "alcohol_by_volume".
        let swiftNames = #"{"name": "Endeavor", "abv": 8.9, "brewery": "Saint Arnold", "style": "ipa"}"#
        let expected = ErrorSummary(kind: "keyNotFound", key: "alcohol_by_volume", path: [])
        #expect(Self.errorSummary { _ = try Self.streaming(RenamedBeer.self, swiftNames) } == expected)
        #expect(Self.errorSummary { _ = try Self.foundation(RenamedBeer.self, swiftNames) } == expected)
    }

    // MARK: 3. Date strategies

    @Test func scenario03_dateDecodingStrategies() throws {
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

    // MARK: 4. Non-conforming floats

    @Test func scenario04_nonConformingFloats() throws {
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

    // MARK: 5. Data as base64 and through .custom

    @Test func scenario05_dataStrategies() throws {
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

    // MARK: 6. Wrapper key

    @Test func scenario06_wrapperKey() throws {
        struct BeerList: Decodable, Equatable { let beers: [Brew.Beer] }
        let json = """
        {
          "beers": [
            {"name": "Endeavor", "abv": 8.9, "brewery": "Saint Arnold", "style": "ipa"},
            {"name": "Pumpkinator", "abv": 11.2, "brewery": "Saint Arnold", "style": "stout"}
          ]
        }
        """
        let list = try Self.streaming(BeerList.self, json)
        #expect(list.beers.count == 2)
        #expect(list.beers[0].name == "Endeavor")
        #expect(list.beers[0].brewery == "Saint Arnold")
        #expect(list.beers[0].style == .ipa)
        #expect(list.beers[1].name == "Pumpkinator")
        #expect(list.beers[1].brewery == "Saint Arnold")
        #expect(list.beers[1].style == .stout)
        #expect(list == (try Self.foundation(BeerList.self, json)))

        let none = try Self.streaming(BeerList.self, #"{"beers": []}"#)
        #expect(none.beers.isEmpty)

        // The same array streamed from under its wrapper key.
        var streamed: [Brew.Beer] = []
        try StreamingJSONDecoder().elements(of: Brew.Beer.self, from: Self.data(json), at: ["beers"])
            .forEach { streamed.append($0) }
        #expect(streamed == list.beers)

        // A missing wrapper key.
        let missing = ErrorSummary(kind: "keyNotFound", key: "beers", path: [])
        #expect(Self.errorSummary { _ = try Self.streaming(BeerList.self, #"{"items": []}"#) } == missing)
        #expect(Self.errorSummary { _ = try Self.foundation(BeerList.self, #"{"items": []}"#) } == missing)
    }

    // MARK: 7. Array of single-key wrappers

    @Test func scenario07_arrayOfSingleKeyWrappers() throws {
        let json = """
        [
          {
            "beer" : {
              "id": "uuid12459078214",
              "name": "Endeavor",
              "abv": 8.9,
              "brewery": "Saint Arnold",
              "style": "ipa"
            }
          },
          {
            "beer" : {
              "id": "uuid12459078215",
              "name": "Fancy Lawnmower",
              "abv": 4.9,
              "brewery": "Saint Arnold",
              "style": "kolsch"
            }
          }
        ]
        """
        let wrapped = try Self.streaming([[String: AbvBeer]].self, json)
        #expect(wrapped.count == 2)
        #expect(Array(wrapped[0].keys) == ["beer"])
        #expect(Array(wrapped[1].keys) == ["beer"])
        let first = try #require(wrapped[0]["beer"])
        #expect(first.name == "Endeavor")
        #expect(first.abv == Float(8.9))
        #expect(first.brewery == "Saint Arnold")
        #expect(first.style == "ipa")
        let second = try #require(wrapped[1]["beer"])
        #expect(second.name == "Fancy Lawnmower")
        #expect(second.abv == Float(4.9))
        #expect(second.brewery == "Saint Arnold")
        #expect(second.style == "kolsch")
        #expect(wrapped == (try Self.foundation([[String: AbvBeer]].self, json)))

        // Streamed as [String: Beer] elements.
        var streamed: [[String: AbvBeer]] = []
        try StreamingJSONDecoder().elements(of: [String: AbvBeer].self, from: Self.data(json)).forEach { streamed.append($0) }
        #expect(streamed == wrapped)
    }

    // MARK: 8. Paged response with nested types and snake_case keys

    @Test func scenario08_pagedResponse() throws {
        let json = """
        {
           "meta": {
               "page": 1,
               "total_pages": 4,
               "per_page": 10,
               "total_records": 38
           },
           "breweries": [
               {
                   "id": 1234,
                   "name": "Saint Arnold"
               },
               {
                   "id": 52892,
                   "name": "Buffalo Bayou"
               }
           ]
        }
        """
        func check(_ page: PagedBreweries) {
            #expect(page.meta.page == 1)
            #expect(page.meta.totalPages == 4)
            #expect(page.meta.perPage == 10)
            #expect(page.meta.totalRecords == 38)
            #expect(page.breweries.count == 2)
            #expect(page.breweries.first?.id == 1234)
            #expect(page.breweries.first?.name == "Saint Arnold")
            #expect(page.breweries.last?.id == 52892)
            #expect(page.breweries.last?.name == "Buffalo Bayou")
        }

        // Explicit CodingKeys.
        let page = try Self.streaming(PagedBreweries.self, json)
        check(page)
        #expect(page == (try Self.foundation(PagedBreweries.self, json)))

        // The same through .convertFromSnakeCase and no CodingKeys.
        let converted = try Self.streaming(SnakePagedBreweries.self, json) { $0.keyDecodingStrategy = .convertFromSnakeCase }
        check(PagedBreweries(converted))
        #expect(converted == (try Self.foundation(SnakePagedBreweries.self, json) { $0.keyDecodingStrategy = .convertFromSnakeCase }))

        // Without the strategy the camelCase keys are missing.
        let missing = ErrorSummary(kind: "keyNotFound", key: "totalPages", path: ["meta"])
        #expect(Self.errorSummary { _ = try Self.streaming(SnakePagedBreweries.self, json) } == missing)
        #expect(Self.errorSummary { _ = try Self.foundation(SnakePagedBreweries.self, json) } == missing)
    }
}

// MARK: - Models for scenarios 1–8 (nested, so they never clash with other test files;
// Brew and AbvBeer are shared with the other parts)

extension CodableScenarioTests {
    enum Brew {
        enum BeerStyle: String, Codable, Equatable {
            case ipa
            case stout
            case kolsch
        }

        /// Scenario 1's Beer: no abv, so the JSON's "abv" is ignored.
        struct Beer: Codable, Equatable {
            let name: String
            let brewery: String
            let style: BeerStyle
        }
    }

    private struct RenamedBeer: Decodable, Equatable {
        let name: String
        let abv: Float
        let brewery: String
        let style: Brew.BeerStyle

        enum CodingKeys: String, CodingKey {
            case name
            case abv = "alcohol_by_volume"
            case brewery = "brewery_name"
            case style
        }
    }

    /// Beer with an abv and no renaming (scenarios 7 and 15).
    struct AbvBeer: Decodable, Equatable {
        let name: String
        let abv: Float
        let brewery: String
        let style: String
    }

    private struct PagedBreweries: Decodable, Equatable {
        struct Meta: Decodable, Equatable {
            let page: Int
            let totalPages: Int
            let perPage: Int
            let totalRecords: Int
            enum CodingKeys: String, CodingKey {
                case page
                case totalPages = "total_pages"
                case perPage = "per_page"
                case totalRecords = "total_records"
            }
        }

        struct Brewery: Decodable, Equatable {
            let id: Int
            let name: String
        }

        let meta: Meta
        let breweries: [Brewery]

        init(meta: Meta, breweries: [Brewery]) {
            self.meta = meta
            self.breweries = breweries
        }

        init(_ other: SnakePagedBreweries) {
            self.init(meta: Meta(page: other.meta.page, totalPages: other.meta.totalPages,
                                 perPage: other.meta.perPage, totalRecords: other.meta.totalRecords),
                      breweries: other.breweries.map { Brewery(id: $0.id, name: $0.name) })
        }
    }

    private struct SnakePagedBreweries: Decodable, Equatable {
        struct Meta: Decodable, Equatable {
            let page: Int
            let totalPages: Int
            let perPage: Int
            let totalRecords: Int
        }

        struct Brewery: Decodable, Equatable {
            let id: Int
            let name: String
        }

        let meta: Meta
        let breweries: [Brewery]
    }
}
