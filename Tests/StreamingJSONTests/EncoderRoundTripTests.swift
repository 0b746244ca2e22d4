// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// `StreamingJSONDecoder().decode(T.self, from: StreamingJSONEncoder().encode(x)) == x`
/// for the tutorial models and for every pair of matching encoder/decoder strategies.
@Suite struct EncoderRoundTripTests {

    /// Encodes with each output formatting and decodes with our decoder; when `foundation`
    /// is given, Foundation's decoder so configured must read the compact bytes the same way.
    func roundTrip<T: Codable & Equatable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation,
                                           encoder: (StreamingJSONEncoder) -> Void = { _ in },
                                           decoder: (StreamingJSONDecoder) -> Void = { _ in },
                                           foundation: ((JSONDecoder) -> Void)? = { _ in }) throws {
        for formatting in [[], [.prettyPrinted], [.sortedKeys], [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]]
            as [StreamingJSONEncoder.OutputFormatting] {
            let ours = StreamingJSONEncoder()
            encoder(ours)
            ours.outputFormatting = formatting
            let data = try ours.encode(value)
            let reader = StreamingJSONDecoder()
            decoder(reader)
            let back = try reader.decode(T.self, from: data)
            #expect(back == value, "\(formatting.rawValue): \(Enc.text(data))", sourceLocation: sourceLocation)
            if formatting == [], let foundation {
                let reference = JSONDecoder()
                foundation(reference)
                #expect(try reference.decode(T.self, from: data) == value, "Foundation", sourceLocation: sourceLocation)
            }
        }
    }

    // MARK: Tutorial models

    enum BeerStyle: String, Codable { case ipa, stout, kolsch, lager }

    struct Beer: Codable, Equatable {
        var name: String
        var abv: Float
        var brewery: String
        var style: BeerStyle
        enum CodingKeys: String, CodingKey { case name, abv = "alcohol_by_volume", brewery = "brewery_name", style }
    }

    struct BeerList: Codable, Equatable { var beers: [Beer] }

    struct PagedBreweries: Codable, Equatable {
        struct Meta: Codable, Equatable { var page: Int; var totalPages: Int; var perPage: Int; var totalRecords: Int }
        struct Brewery: Codable, Equatable { var id: Int; var name: String }
        var meta: Meta
        var breweries: [Brewery]
    }

    struct Coordinate: Codable, Equatable {
        var latitude: Double
        var longitude: Double
        var elevation: Double
        enum CodingKeys: String, CodingKey { case latitude, longitude, additionalInfo }
        enum AdditionalInfoKeys: String, CodingKey { case elevation }
        init(latitude: Double, longitude: Double, elevation: Double) {
            self.latitude = latitude; self.longitude = longitude; self.elevation = elevation
        }
        init(from decoder: any Decoder) throws {
            let values = try decoder.container(keyedBy: CodingKeys.self)
            latitude = try values.decode(Double.self, forKey: .latitude)
            longitude = try values.decode(Double.self, forKey: .longitude)
            let info = try values.nestedContainer(keyedBy: AdditionalInfoKeys.self, forKey: .additionalInfo)
            elevation = try info.decode(Double.self, forKey: .elevation)
        }
        func encode(to encoder: any Encoder) throws {
            var values = encoder.container(keyedBy: CodingKeys.self)
            try values.encode(latitude, forKey: .latitude)
            try values.encode(longitude, forKey: .longitude)
            var info = values.nestedContainer(keyedBy: AdditionalInfoKeys.self, forKey: .additionalInfo)
            try info.encode(elevation, forKey: .elevation)
        }
    }

    struct Landmark: Codable, Equatable {
        var name: String
        var foundingYear: Int
        var location: Coordinate
        var vantagePoints: [Coordinate]
        var metadata: [String: String]
        var website: URL?
        enum CodingKeys: String, CodingKey {
            case name = "title", foundingYear = "founding_date", location, vantagePoints, metadata, website
        }
    }

    struct GroceryProduct: Codable, Equatable { var name: String; var points: Int; var description: String? }

    struct Student: Codable, Equatable {
        var name: String
        var bornIn: Int
        var grossScore: Int
        var scores: [Int]
        struct CodingKeys: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
            static let name = CodingKeys(stringValue: "name")
            static let bornIn = CodingKeys(stringValue: "born_in")
            static let meta = CodingKeys(stringValue: "meta")
        }
        enum MetaKeys: String, CodingKey { case grossScore = "gross_score", scores }
        init(name: String, bornIn: Int, grossScore: Int, scores: [Int]) {
            self.name = name; self.bornIn = bornIn; self.grossScore = grossScore; self.scores = scores
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            bornIn = try container.decode(Int.self, forKey: .bornIn)
            let meta = try container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
            grossScore = try meta.decode(Int.self, forKey: .grossScore)
            var list = try meta.nestedUnkeyedContainer(forKey: .scores)
            scores = []
            while !list.isAtEnd { scores.append(try list.decode(Int.self) - 1) }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(bornIn, forKey: .bornIn)
            var meta = container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
            try meta.encode(grossScore, forKey: .grossScore)
            var list = meta.nestedUnkeyedContainer(forKey: .scores)
            for score in scores { try list.encode(score + 1) }  // stored off by one, undone on decode
        }
    }

    /// A class hierarchy written through superEncoder(forKey:), compared by fields.
    final class Employee: Codable, Equatable {
        var name: String
        var employeeID: String
        var manager: Employee?
        enum CodingKeys: String, CodingKey { case name, employeeID = "emp_id", manager, person }
        init(name: String, employeeID: String, manager: Employee? = nil) {
            self.name = name; self.employeeID = employeeID; self.manager = manager
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            employeeID = try container.decode(String.self, forKey: .employeeID)
            manager = try container.decodeIfPresent(Employee.self, forKey: .manager)
            let person = try container.superDecoder(forKey: .person).singleValueContainer()
            name = try person.decode(String.self)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(employeeID, forKey: .employeeID)
            try container.encodeIfPresent(manager, forKey: .manager)
            var person = container.superEncoder(forKey: .person).singleValueContainer()
            try person.encode(name)
        }
        static func == (a: Employee, b: Employee) -> Bool {
            a.name == b.name && a.employeeID == b.employeeID && a.manager == b.manager
        }
    }

    static let beers = [
        Beer(name: "Endeavor", abv: 8.9, brewery: "Saint Arnold", style: .ipa),
        Beer(name: "Lawnmower", abv: 4.9, brewery: "Saint Arnold", style: .kolsch),
        Beer(name: "Guinness \"Draught\" / Stout", abv: 4.2, brewery: "Guinness\n", style: .stout),
    ]

    @Test func tutorialModels() throws {
        try roundTrip(Self.beers)
        try roundTrip(BeerList(beers: Self.beers))
        try roundTrip(BeerList(beers: []))
        try roundTrip(Self.beers.map { ["beer": $0] })
        try roundTrip(PagedBreweries(meta: .init(page: 1, totalPages: 9, perPage: 20, totalRecords: 170),
                                     breweries: [.init(id: 1, name: "Saint Arnold"), .init(id: 2, name: "Brasserie de l'Abbaye")]))
        let location = Coordinate(latitude: 29.7604, longitude: -95.3698, elevation: 13.5)
        try roundTrip(Landmark(name: "Alamo", foundingYear: 1718, location: location,
                               vantagePoints: [location, Coordinate(latitude: -0.0, longitude: 1e-300, elevation: -1e300)],
                               metadata: ["a/b": "c\\d", "": "empty", "東京": "🍺"],
                               website: URL(string: "https://www.thealamo.org/visit?x=1&y=%20")))
        try roundTrip(Landmark(name: "", foundingYear: -1, location: location, vantagePoints: [], metadata: [:], website: nil))
        try roundTrip([GroceryProduct(name: "Banana", points: 200, description: "A banana grown in Ecuador."),
                       GroceryProduct(name: "Orange", points: 100, description: nil)])
        try roundTrip(Student(name: "Kim", bornIn: 1990, grossScore: 270, scores: [90, 85, 95]))
        let boss = Employee(name: "Ann", employeeID: "E-1")
        try roundTrip([boss, Employee(name: "Bob", employeeID: "E-2", manager: boss)])
    }

    @Test func standardTypesAndExtremes() throws {
        try roundTrip(FoundationParityTests.Limits())
        try roundTrip(FoundationParityTests.Floats())
        try roundTrip(FoundationParityTests.Misc())
        try roundTrip(FoundationParityTests.Dates())
        let records = RecordsFixture.make(count: 200, seed: 0x0DD_BA11).records
        try roundTrip(records, encoder: { $0.dateEncodingStrategy = .secondsSince1970 },
                      decoder: { $0.dateDecodingStrategy = .secondsSince1970 },
                      foundation: { $0.dateDecodingStrategy = .secondsSince1970 })
        try roundTrip(["strings": (0..<0x80).map { String(UnicodeScalar(UInt8($0))) } + ["\u{2028}", "🍺", "e\u{301}", ""]])
    }

    // MARK: Strategy pairs

    struct Stamped: Codable, Equatable { var when: Date; var dates: [Date]; var maybe: Date?; var byName: [String: Date] }

    @Test(arguments: ["deferred", "seconds", "milliseconds", "iso8601", "formatted", "custom"])
    func dateStrategyPairs(_ name: String) throws {
        let exact: [Double] = [0, 1_510_583_415.25, -86_400.5, 4_102_444_800.125, 978_307_200]  // binary fractions survive every numeric form
        let whole: [Double] = [0, 1_510_583_415, -86_400, 4_102_444_800, -2_000_000_000]
        let formatter = Enc.formatter("yyyy-MM-dd HH:mm:ss.SSS")
        let (seconds, encode, decode): ([Double], StreamingJSONEncoder.DateEncodingStrategy, StreamingJSONDecoder.DateDecodingStrategy)
        switch name {
        case "deferred": (seconds, encode, decode) = (exact, .deferredToDate, .deferredToDate)
        case "seconds": (seconds, encode, decode) = (exact, .secondsSince1970, .secondsSince1970)
        case "milliseconds": (seconds, encode, decode) = (exact, .millisecondsSince1970, .millisecondsSince1970)
        case "iso8601": (seconds, encode, decode) = (whole, .iso8601, .iso8601)
        case "formatted": (seconds, encode, decode) = (exact, .formatted(formatter), .formatted(formatter))
        default:
            (seconds, encode, decode) = (exact, .custom({ date, encoder in
                var container = encoder.unkeyedContainer()
                try container.encode("since1970")
                try container.encode(date.timeIntervalSince1970.bitPattern)
            }), .custom({ decoder in
                var container = try decoder.unkeyedContainer()
                guard try container.decode(String.self) == "since1970" else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "tag")
                }
                return Date(timeIntervalSince1970: Double(bitPattern: try container.decode(UInt64.self)))
            }))
        }
        let dates = seconds.map { Date(timeIntervalSince1970: $0) }
        let value = Stamped(when: dates[1], dates: dates, maybe: dates[3], byName: ["a": dates[2], "b/c": dates[4]])
        try roundTrip(value, encoder: { $0.dateEncodingStrategy = encode }, decoder: { $0.dateDecodingStrategy = decode },
                      foundation: nil)
        try roundTrip(Stamped(when: dates[0], dates: [], maybe: nil, byName: [:]),
                      encoder: { $0.dateEncodingStrategy = encode }, decoder: { $0.dateDecodingStrategy = decode },
                      foundation: nil)
    }

    struct Payloads: Codable, Equatable { var one: Data; var many: [Data]; var maybe: Data?; var keyed: [String: Data] }

    @Test(arguments: ["deferred", "base64", "custom"])
    func dataStrategyPairs(_ name: String) throws {
        let (encode, decode): (StreamingJSONEncoder.DataEncodingStrategy, StreamingJSONDecoder.DataDecodingStrategy)
        switch name {
        case "deferred": (encode, decode) = (.deferredToData, .deferredToData)
        case "base64": (encode, decode) = (.base64, .base64)
        default:
            (encode, decode) = (.custom(EncodingSetup.customDataHex), .custom({ decoder in
                let hex = try decoder.singleValueContainer().decode(String.self)
                var bytes: [UInt8] = []
                var index = hex.startIndex
                while index < hex.endIndex {
                    let next = hex.index(index, offsetBy: 2)
                    bytes.append(UInt8(hex[index..<next], radix: 16)!)
                    index = next
                }
                return Data(bytes)
            }))
        }
        let all = Data((0...255).map { UInt8($0) })
        let value = Payloads(one: all, many: [Data(), Data([0xFF]), Data([0xFB, 0xFF]), Data([1, 2, 3])], maybe: Data([0x3F]),
                             keyed: ["x": Data("hello /world".utf8)])
        try roundTrip(value, encoder: { $0.dataEncodingStrategy = encode }, decoder: { $0.dataDecodingStrategy = decode },
                      foundation: nil)
    }

    struct Measurements: Codable { var double: Double; var float: Float; var list: [Double] }

    @Test func nonConformingFloatPair() throws {
        let encoder = StreamingJSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+∞", negativeInfinity: "-∞", nan: "n/a")
        let decoder = StreamingJSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+∞", negativeInfinity: "-∞", nan: "n/a")
        let value = Measurements(double: .nan, float: -.infinity, list: [.infinity, 1.5, .nan, -0.0, .greatestFiniteMagnitude])
        let back = try decoder.decode(Measurements.self, from: encoder.encode(value))
        #expect(back.double.isNaN)
        #expect(back.float == -.infinity)
        #expect(back.list.count == 5)
        #expect(back.list[0] == .infinity && back.list[1] == 1.5 && back.list[2].isNaN)
        #expect(back.list[3] == 0 && back.list[3].sign == .minus && back.list[4] == .greatestFiniteMagnitude)
        // .throw on both sides: finite values pass.
        let finite = Measurements(double: 0.1, float: 0.1, list: [Double.leastNonzeroMagnitude, 1e-7])
        let plain = try StreamingJSONDecoder().decode(Measurements.self, from: StreamingJSONEncoder().encode(finite))
        #expect(plain.double == 0.1 && plain.float == 0.1 && plain.list == finite.list)
    }

    struct CamelCase: Codable, Equatable {
        var firstName: String
        var lastName: String
        var addressLineTwo: String?
        var nestedValue: Inner
        var values: [String: Int]
        struct Inner: Codable, Equatable { var innerKeyName: Int; var simple: Bool }
    }

    @Test func keyStrategyPairs() throws {
        let value = CamelCase(firstName: "Ann", lastName: "Lee", addressLineTwo: "x", nestedValue: .init(innerKeyName: 3, simple: true),
                              values: ["keepMe": 1, "and_me": 2])
        try roundTrip(value, encoder: { $0.keyEncodingStrategy = .convertToSnakeCase },
                      decoder: { $0.keyDecodingStrategy = .convertFromSnakeCase },
                      foundation: { $0.keyDecodingStrategy = .convertFromSnakeCase })
        let snake = StreamingJSONEncoder()
        snake.keyEncodingStrategy = .convertToSnakeCase
        snake.outputFormatting = .sortedKeys
        #expect(Enc.text(try snake.encode(value))
                == #"{"address_line_two":"x","first_name":"Ann","last_name":"Lee","nested_value":{"inner_key_name":3,"simple":true},"values":{"and_me":2,"keepMe":1}}"#)

        // .custom both ways: the encoder appends "_K" and upper-cases, the decoder maps back.
        let names = ["firstName", "lastName", "addressLineTwo", "nestedValue", "values", "innerKeyName", "simple"]
        let table = Dictionary(uniqueKeysWithValues: names.map { ($0.uppercased() + "_K", $0) })
        let back: @Sendable ([any CodingKey]) -> any CodingKey = { path in
            EncKey(table[path.last!.stringValue] ?? path.last!.stringValue)
        }
        try roundTrip(value, encoder: { $0.keyEncodingStrategy = .custom(EncodingSetup.upper) },
                      decoder: { $0.keyDecodingStrategy = .custom(back) },
                      foundation: { $0.keyDecodingStrategy = .custom(back) })
    }

    // MARK: Errors

    struct Deep: Codable, Equatable {
        var depth: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            if depth > 1 { try container.encode(Deep(depth: depth - 1)) }
        }
        init(depth: Int) { self.depth = depth }
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            depth = container.isAtEnd ? 1 : try container.decode(Deep.self).depth + 1
        }
    }

    struct DeepObject: Encodable {
        var depth: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: EncKey.self)
            if depth > 1 { try container.encode(DeepObject(depth: depth - 1), forKey: "a") } else { try container.encode(1, forKey: "a") }
        }
    }

    @Test func nestingLimit() throws {
        // 512 levels of arrays and objects are written (and read back); 513 throw an EncodingError.
        let data = try StreamingJSONEncoder().encode(Deep(depth: 512))
        #expect(data == Data((String(repeating: "[", count: 512) + String(repeating: "]", count: 512)).utf8))
        #expect(try StreamingJSONDecoder().decode(Deep.self, from: data) == Deep(depth: 512))
        _ = try StreamingJSONEncoder().encode(DeepObject(depth: 512))
        #expect(Enc.encodingError { _ = try StreamingJSONEncoder().encode(Deep(depth: 513)) } != nil)
        #expect(Enc.encodingError { _ = try StreamingJSONEncoder().encode(DeepObject(depth: 513)) } != nil)
        let pretty = StreamingJSONEncoder()
        pretty.outputFormatting = .prettyPrinted
        #expect(Enc.encodingError { _ = try pretty.encode([Deep(depth: 512)]) } != nil)
        // The encoder is still usable afterwards.
        #expect(try Enc.ours([1]) == "[1]")
    }

    /// A value nested far deeper than the limit must throw at the limit, not recurse on
    /// until the stack overflows. Run in a child process, so a crash fails only this test.
    @Test func veryDeepValueThrowsInsteadOfOverflowingTheStack() async {
        await #expect(processExitsWith: .success) {
            do {
                _ = try StreamingJSONEncoder().encode(EncoderRoundTripTests.Deep(depth: 100_000))
                exit(1)
            } catch is EncodingError {
                exit(0)
            } catch {
                exit(2)
            }
        }
    }

    @Test func nonConformingFloatThrowsWithPath() {
        struct Reading: Encodable { var label: String; var values: [String: [Float]] }
        struct Station: Encodable { var name: String; var readings: [Reading] }
        let station = Station(name: "s", readings: [Reading(label: "ok", values: ["t": [1, 2]]),
                                                    Reading(label: "bad", values: ["t": [1, 2], "p": [3, 4, .nan]])])
        let ours = Enc.encodingError { _ = try StreamingJSONEncoder().encode(station) }
        #expect(Enc.invalidValuePath(ours) == ["readings", "[1]", "values", "p", "[2]"])
        let foundation = Enc.encodingError { _ = try JSONEncoder().encode(station) }
        #expect(Enc.invalidValuePath(foundation) == ["readings", "[1]", "values", "p", "[2]"])
        if case .invalidValue(let value, _)? = ours { #expect((value as? Float)?.isNaN == true) }
        // Inside a custom date strategy the path continues into the closure's encoder.
        let encoder = StreamingJSONEncoder()
        encoder.dateEncodingStrategy = .custom { _, encoder in
            var container = encoder.container(keyedBy: EncKey.self)
            try container.encode(Double.infinity, forKey: "x")
        }
        let custom = Enc.encodingError { _ = try encoder.encode(["when": [Date()]]) }
        #expect(Enc.invalidValuePath(custom) == ["when", "[0]", "x"])
    }
}
