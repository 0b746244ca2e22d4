// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

// Hand-written init(from:): a nested unkeyed container walked to its end, a
// child object built from a string, and userInfo choosing what is read.
// (Helpers and the shared Beer models are in CodableScenarioTests.swift.)

extension CodableScenarioTests {
    // MARK: Custom init(from:) with nestedUnkeyedContainer + isAtEnd

    @Test func customInitRoundsTheElementsOfANestedUnkeyedContainer() throws {
        let json = """
        {
          "name": "Endeavor",
          "abv": 8.9,
          "brewery": "Saint Arnold",
          "style": "ipa",
          "created_at": "2016-05-01T12:00:00Z",
          "bottle_sizes": [12.2, 15.7, 22.5, 32],
          "comments": null
        }
        """
        let decoder = StreamingJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let beer = try decoder.decode(BottledBeer.self, from: Self.data(json))
        #expect(beer.name == "Endeavor")
        #expect(beer.abv == Float(8.9))
        #expect(beer.brewery == "Saint Arnold")
        #expect(beer.style == .ipa)
        #expect(beer.createdAt == Date(timeIntervalSince1970: 1_462_104_000))
        #expect(beer.bottleSizes == [12, 16, 23, 32])
        #expect(beer.comments == nil)
        #expect(beer == (try Self.foundation(BottledBeer.self, json) { $0.dateDecodingStrategy = .iso8601 }))

        // Comments present, no bottle sizes, streamed as a root array.
        let array = """
        [
          {"name": "Lawnmower", "abv": 4.9, "brewery": "Saint Arnold", "style": "kolsch",
           "created_at": "2017-06-21T15:29:32Z", "bottle_sizes": [], "comments": "Crisp"},
          {"name": "Draught", "abv": 4.2, "brewery": "Guinness", "style": "stout",
           "created_at": "2017-11-13T22:30:15+08:00", "bottle_sizes": [11.9, 0.4]}
        ]
        """
        var streamed: [BottledBeer] = []
        try decoder.elements(of: BottledBeer.self, from: Self.data(array)).forEach { streamed.append($0) }
        #expect(streamed.count == 2)
        #expect(streamed.first?.name == "Lawnmower")
        #expect(streamed.first?.abv == Float(4.9))
        #expect(streamed.first?.brewery == "Saint Arnold")
        #expect(streamed.first?.style == .kolsch)
        #expect(streamed.first?.createdAt == Date(timeIntervalSince1970: 1_498_058_972))
        #expect(streamed.first?.bottleSizes == [])
        #expect(streamed.first?.comments == "Crisp")
        #expect(streamed.last?.name == "Draught")
        #expect(streamed.last?.abv == Float(4.2))
        #expect(streamed.last?.brewery == "Guinness")
        #expect(streamed.last?.style == .stout)
        #expect(streamed.last?.createdAt == Date(timeIntervalSince1970: 1_510_583_415))
        #expect(streamed.last?.bottleSizes == [12, 0])
        #expect(streamed.last?.comments == nil)

        // A non-number among the sizes: typeMismatch at its index.
        let bad = json.replacingOccurrences(of: "[12.2, 15.7, 22.5, 32]", with: #"[12.2, "16"]"#)
        let expected = ErrorSummary(kind: "typeMismatch", type: "Float", path: ["bottle_sizes", "[1]"])
        #expect(Self.errorSummary { _ = try decoder.decode(BottledBeer.self, from: Self.data(bad)) } == expected)
        #expect(Self.errorSummary {
            _ = try Self.foundation(BottledBeer.self, bad) { $0.dateDecodingStrategy = .iso8601 }
        } == expected)
    }

    // MARK: A child object built from a plain string

    @Test func childObjectDecodedFromAPlainString() throws {
        let json = #"{"name": "Endeavor", "brewery": "Saint Arnold", "style": "ipa"}"#
        let beer = try Self.streaming(BreweryBeer.self, json)
        #expect(beer.name == "Endeavor")
        #expect(beer.brewery == Brewery(name: "Saint Arnold"))
        #expect(beer.style == .ipa)
        #expect(beer == (try Self.foundation(BreweryBeer.self, json)))

        // Brewery decoding itself from a single value container, in an array.
        let array = #"{"name": "Tap list", "breweries": ["Saint Arnold", "Buffalo Bayou", "Guinness"]}"#
        let list = try Self.streaming(TapList.self, array)
        #expect(list.name == "Tap list")
        #expect(list.breweries == [Brewery(name: "Saint Arnold"), Brewery(name: "Buffalo Bayou"), Brewery(name: "Guinness")])
        #expect(list == (try Self.foundation(TapList.self, array)))

        // An object where the string is expected.
        let objectBrewery = #"{"name": "Endeavor", "brewery": {"name": "Saint Arnold"}, "style": "ipa"}"#
        let mismatch = ErrorSummary(kind: "typeMismatch", type: "String", path: ["brewery"])
        #expect(Self.errorSummary { _ = try Self.streaming(BreweryBeer.self, objectBrewery) } == mismatch)
        #expect(Self.errorSummary { _ = try Self.foundation(BreweryBeer.self, objectBrewery) } == mismatch)
    }

    // MARK: userInfo changes which key and date format are read

    @Test func userInfoSelectsTheKeyAndTheDateFormat() throws {
        let v1JSON = """
        {
          "customer_name": "Acme, Inc",
          "migration_date": "Oct-24-1995",
          "created_at": "1991-05-12T12:00:00Z"
        }
        """
        let v2JSON = """
        {
          "name": "Acme, Inc",
          "migration_date": "24.10.1995",
          "created_at": "1991-05-12T12:00:00Z"
        }
        """
        let v1 = CustomerCodingOptions(apiVersion: .v1, legacyDateFormatter: Self.formatter("MMM-dd-yyyy"))
        let v2 = CustomerCodingOptions(apiVersion: .v2, legacyDateFormatter: Self.formatter("dd.MM.yyyy"))
        let migration = Date(timeIntervalSince1970: 814_492_800)   // 1995-10-24T00:00:00Z
        let created = Date(timeIntervalSince1970: 674_049_600)     // 1991-05-12T12:00:00Z

        func decoder(_ options: CustomerCodingOptions) -> StreamingJSONDecoder {
            let decoder = StreamingJSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            decoder.userInfo = [CustomerCodingOptions.key: options]
            return decoder
        }
        func foundation(_ options: CustomerCodingOptions) -> JSONDecoder {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            decoder.userInfo = [CustomerCodingOptions.key: options]
            return decoder
        }

        let old = try decoder(v1).decode(Customer.self, from: Self.data(v1JSON))
        #expect(old.name == "Acme, Inc")
        #expect(old.legacyMigrationDate == migration)
        #expect(old.createdAt == created)
        #expect(old == (try foundation(v1).decode(Customer.self, from: Self.data(v1JSON))))

        let new = try decoder(v2).decode(Customer.self, from: Self.data(v2JSON))
        #expect(new.name == "Acme, Inc")
        #expect(new.legacyMigrationDate == migration)
        #expect(new.createdAt == created)
        #expect(new == (try foundation(v2).decode(Customer.self, from: Self.data(v2JSON))))

        // The option really selects the key: v2 options on v1 JSON look for "name".
        let wrongKey = ErrorSummary(kind: "keyNotFound", key: "name", path: [])
        #expect(Self.errorSummary { _ = try decoder(v2).decode(Customer.self, from: Self.data(v1JSON)) } == wrongKey)
        #expect(Self.errorSummary { _ = try foundation(v2).decode(Customer.self, from: Self.data(v1JSON)) } == wrongKey)
        // …and the date format: v1's formatter cannot read "24.10.1995".
        let v1FormatOnly = CustomerCodingOptions(apiVersion: .v2, legacyDateFormatter: Self.formatter("MMM-dd-yyyy"))
        let wrongFormat = ErrorSummary(kind: "dataCorrupted", path: ["migration_date"])
        #expect(Self.errorSummary { _ = try decoder(v1FormatOnly).decode(Customer.self, from: Self.data(v2JSON)) } == wrongFormat)

        // No options at all.
        let noOptions = ErrorSummary(kind: "dataCorrupted", path: [])
        #expect(Self.errorSummary { _ = try StreamingJSONDecoder().decode(Customer.self, from: Self.data(v1JSON)) } == noOptions)
        #expect(decoder(v1).userInfo[CustomerCodingOptions.key] is CustomerCodingOptions)

        // userInfo reaches every streamed element; a missing migration date is allowed.
        let stream = """
        [
          {"customer_name": "Acme, Inc", "migration_date": "Oct-24-1995", "created_at": "1991-05-12T12:00:00Z"},
          {"customer_name": "Globex", "created_at": "2017-06-21T15:29:32Z"}
        ]
        """
        var customers: [Customer] = []
        try decoder(v1).elements(of: Customer.self, from: Self.data(stream)).forEach { customers.append($0) }
        #expect(customers.count == 2)
        #expect(customers.first == old)
        #expect(customers.last?.name == "Globex")
        #expect(customers.last?.legacyMigrationDate == nil)
        #expect(customers.last?.createdAt == Date(timeIntervalSince1970: 1_498_058_972))
    }
}

// MARK: - Models (nested, so they never clash with other test files)

extension CodableScenarioTests {
    /// The tutorial's Beer with a hand-written init(from:).
    private struct BottledBeer: Decodable, Equatable {
        let name: String
        let brewery: String
        let abv: Float
        let style: Brew.BeerStyle
        let createdAt: Date
        let bottleSizes: [Float]
        let comments: String?

        enum CodingKeys: String, CodingKey {
            case name
            case abv
            case brewery
            case style
            case createdAt = "created_at"
            case bottleSizes = "bottle_sizes"
            case comments
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            abv = try container.decode(Float.self, forKey: .abv)
            brewery = try container.decode(String.self, forKey: .brewery)
            style = try container.decode(Brew.BeerStyle.self, forKey: .style)
            createdAt = try container.decode(Date.self, forKey: .createdAt)
            comments = try container.decodeIfPresent(String.self, forKey: .comments)

            var bottleSizesArray = try container.nestedUnkeyedContainer(forKey: .bottleSizes)
            var sizes: [Float] = []
            while !bottleSizesArray.isAtEnd {
                let size = try bottleSizesArray.decode(Float.self)
                sizes.append(size.rounded())
            }
            bottleSizes = sizes
        }
    }

    private struct Brewery: Decodable, Equatable {
        let name: String

        init(name: String) { self.name = name }

        /// A brewery is written as its name.
        init(from decoder: Decoder) throws {
            name = try decoder.singleValueContainer().decode(String.self)
        }
    }

    private struct BreweryBeer: Decodable, Equatable {
        let name: String
        let brewery: Brewery
        let style: Brew.BeerStyle

        enum CodingKeys: String, CodingKey {
            case name
            case brewery
            case style
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            let breweryName = try container.decode(String.self, forKey: .brewery)
            brewery = Brewery(name: breweryName)
            style = try container.decode(Brew.BeerStyle.self, forKey: .style)
        }
    }

    private struct TapList: Decodable, Equatable {
        let name: String
        let breweries: [Brewery]
    }

    private struct CustomerCodingOptions: @unchecked Sendable {  // DateFormatter is thread-safe
        enum ApiVersion: Sendable {
            case v1
            case v2
        }

        let apiVersion: ApiVersion
        let legacyDateFormatter: DateFormatter

        static let key = CodingUserInfoKey(rawValue: "com.mycompany.customercodingoptions")!
    }

    private struct Customer: Decodable, Equatable {
        let name: String
        let legacyMigrationDate: Date?
        let createdAt: Date

        enum CodingKeys: String, CodingKey {
            case name
            case legacyCustomerName = "customer_name"
            case legacyMigrationDate = "migration_date"
            case createdAt = "created_at"
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            guard let options = decoder.userInfo[CustomerCodingOptions.key] as? CustomerCodingOptions else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                        debugDescription: "CustomerCodingOptions are required"))
            }
            switch options.apiVersion {
            case .v1: name = try container.decode(String.self, forKey: .legacyCustomerName)
            case .v2: name = try container.decode(String.self, forKey: .name)
            }
            if let string = try container.decodeIfPresent(String.self, forKey: .legacyMigrationDate) {
                guard let date = options.legacyDateFormatter.date(from: string) else {
                    throw DecodingError.dataCorruptedError(forKey: .legacyMigrationDate, in: container,
                                                           debugDescription: "Unexpected migration date \(string)")
                }
                legacyMigrationDate = date
            } else {
                legacyMigrationDate = nil
            }
            createdAt = try container.decode(Date.self, forKey: .createdAt)
        }
    }
}
