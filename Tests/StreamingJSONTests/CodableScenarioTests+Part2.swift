// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

// Codable scenarios 9–16; 17–22 are in CodableScenarioTests+Part3.swift; support helpers are in CodableScenarioTests.swift.

extension CodableScenarioTests {

    // MARK: 9. Custom init(from:) with nestedUnkeyedContainer + isAtEnd

    @Test func scenario09_customInitNestedUnkeyedRounding() throws {
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

    // MARK: 10. Flattening with nestedContainer(keyedBy:forKey:)

    @Test func scenario10_flatteningNestedContainer() throws {
        let json = """
        {
          "name": "Lawnmower",
          "brewery": "Saint Arnold",
          "info": {
            "style": "kolsch",
            "abv": 4.9
          }
        }
        """
        let beer = try Self.streaming(FlatBeer.self, json)
        #expect(beer.name == "Lawnmower")
        #expect(beer.brewery == "Saint Arnold")
        #expect(beer.style == .kolsch)
        #expect(beer.abv == Float(4.9))
        #expect(beer == (try Self.foundation(FlatBeer.self, json)))

        // Missing inside the nested object: the path names "info".
        let noAbv = #"{"name": "Lawnmower", "brewery": "Saint Arnold", "info": {"style": "kolsch"}}"#
        let missing = ErrorSummary(kind: "keyNotFound", key: "abv", path: ["info"])
        #expect(Self.errorSummary { _ = try Self.streaming(FlatBeer.self, noAbv) } == missing)
        #expect(Self.errorSummary { _ = try Self.foundation(FlatBeer.self, noAbv) } == missing)

        // "info" is not an object.
        let notObject = #"{"name": "Lawnmower", "brewery": "Saint Arnold", "info": [4.9]}"#
        let mismatch = ErrorSummary(kind: "typeMismatch", path: ["info"])
        #expect(Self.errorSummary { _ = try Self.streaming(FlatBeer.self, notObject) }.withoutType == mismatch)
        #expect(Self.errorSummary { _ = try Self.foundation(FlatBeer.self, notObject) }.withoutType == mismatch)
    }

    // MARK: 11. A child object built from a plain string

    @Test func scenario11_childObjectFromString() throws {
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

    // MARK: 12. Class inheritance through superDecoder() and superDecoder(forKey:)

    @Test func scenario12_classInheritanceSuperDecoder() throws {
        // superDecoder(): the superclass is under "super".
        // (Errors are recorded here rather than thrown, so the superDecoder(forKey:) part still runs.)
        let json = #"{"super": {"name": "Joe"}, "emp_id": "emp123"}"#
        do {
            let employee = try Self.streaming(Employee.self, json)
            #expect(employee.name == "Joe")
            #expect(employee.employeeID == "emp123")
            #expect(employee.decodedAt == ["super"])
        } catch {
            Issue.record(error, "superDecoder() on {\"super\": {…}} with a CodingKeys enum that has no \"super\" case")
        }
        let reference = try Self.foundation(Employee.self, json)
        #expect(reference.name == "Joe")
        #expect(reference.employeeID == "emp123")
        #expect(reference.decodedAt == ["super"])

        // superDecoder(forKey: .person).
        let keyedJSON = #"{"person": {"name": "Joe"}, "emp_id": "emp123"}"#
        let keyed = try Self.streaming(KeyedEmployee.self, keyedJSON)
        #expect(keyed.name == "Joe")
        #expect(keyed.employeeID == "emp123")
        #expect(keyed.decodedAt == ["person"])
        let keyedReference = try Self.foundation(KeyedEmployee.self, keyedJSON)
        #expect(keyedReference.name == keyed.name)
        #expect(keyedReference.employeeID == keyed.employeeID)
        #expect(keyedReference.decodedAt == keyed.decodedAt)

        // In a streamed root array the super decoder's path starts with the element index;
        // optional fields may be null or absent.
        let array = """
        [
          {"person": {"name": "Joe"}, "emp_id": "emp123"},
          {"emp_id": null, "person": {"name": null}},
          {"person": {}}
        ]
        """
        var streamed: [KeyedEmployee] = []
        try StreamingJSONDecoder().elements(of: KeyedEmployee.self, from: Self.data(array)).forEach { streamed.append($0) }
        #expect(streamed.count == 3)
        #expect(streamed.map(\.name) == ["Joe", nil, nil])
        #expect(streamed.map(\.employeeID) == ["emp123", nil, nil])
        #expect(streamed.map(\.decodedAt) == [["[0]", "person"], ["[1]", "person"], ["[2]", "person"]])
        let whole = try Self.streaming([KeyedEmployee].self, array)
        #expect(whole.map(\.name) == ["Joe", nil, nil])
        #expect(whole.map(\.employeeID) == ["emp123", nil, nil])
        #expect(whole.map(\.decodedAt) == [["[0]", "person"], ["[1]", "person"], ["[2]", "person"]])

        // No "super" key: the super decoder holds null, so asking it for a keyed container fails there.
        let noSuper = #"{"emp_id": "emp123"}"#
        let expected = ErrorSummary(kind: "valueNotFound", path: ["super"])
        #expect(Self.errorSummary { _ = try Self.streaming(Employee.self, noSuper) }.withoutType == expected)
        #expect(Self.errorSummary { _ = try Self.foundation(Employee.self, noSuper) }.withoutType == expected)
    }

    // MARK: 13. userInfo changes which key and date format are read

    @Test func scenario13_userInfoOptions() throws {
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

    // MARK: 14. Dynamic keys through a struct CodingKey and allKeys

    @Test func scenario14_dynamicKeysAllKeys() throws {
        let json = """
        {
          "kolsch" : {
            "description" : "First only brewed in Köln, Germany, now many American brewpubs..."
          },
          "stout" : {
            "description" : "As mysterious as they look, stouts are typically dark brown to pitch black in color..."
          }
        }
        """
        let styles = try Self.streaming(BeerStyles.self, json)
        // allKeys order is not specified (Foundation's is not either): compare sorted.
        let sorted = styles.beerStyles.sorted { $0.name < $1.name }
        #expect(sorted.count == 2)
        #expect(sorted.first?.name == "kolsch")
        #expect(sorted.first?.description == "First only brewed in Köln, Germany, now many American brewpubs...")
        #expect(sorted.last?.name == "stout")
        #expect(sorted.last?.description
                == "As mysterious as they look, stouts are typically dark brown to pitch black in color...")
        #expect(styles.keysSeen.sorted() == ["kolsch", "stout"])
        #expect(styles.nestedKeysSeen == [["description"], ["description"]])
        #expect(styles.containsKolsch == true)
        #expect(styles.containsPorter == false)

        let reference = try Self.foundation(BeerStyles.self, json)
        #expect(reference.beerStyles.sorted { $0.name < $1.name } == sorted)
        #expect(reference.keysSeen.sorted() == styles.keysSeen.sorted())

        // No styles at all.
        let none = try Self.streaming(BeerStyles.self, "{}")
        #expect(none.beerStyles.isEmpty)
        #expect(none.keysSeen.isEmpty)
        #expect(none.containsKolsch == false)

        // A style without a description: keyNotFound under that style's key.
        let missing = #"{"stout": {"description": "Dark"}, "porter": {"notes": "Dark too"}}"#
        let expected = ErrorSummary(kind: "keyNotFound", key: "description", path: ["porter"])
        #expect(Self.errorSummary { _ = try Self.streaming(BeerStyles.self, missing) } == expected)
        #expect(Self.errorSummary { _ = try Self.foundation(BeerStyles.self, missing) } == expected)
    }

    // MARK: 15. Errors

    @Test func scenario15_errors() throws {
        // HTML instead of JSON: dataCorrupted at the very first byte.
        let html = "<!DOCTYPE html>\n<html><body><h1>502 Bad Gateway</h1></body></html>\n"
        let htmlError = try #require(Self.decodingError { _ = try Self.streaming([AbvBeer].self, html) })
        #expect(Self.summary(htmlError) == ErrorSummary(kind: "dataCorrupted", path: []))
        let syntax = try #require(Self.context(htmlError)?.underlyingError as? JSONSyntaxError)
        #expect(syntax.byteOffset == 0)
        #expect(syntax.line == 1)
        #expect(syntax.column == 1)
        #expect(Self.errorSummary { _ = try Self.foundation([AbvBeer].self, html) }.kind == "dataCorrupted")

        // Missing key: keyNotFound with the path of the object that lacks it.
        let missingKey = """
        [
        {"name": "Endeavor", "abv": 8.9, "brewery": "Saint Arnold", "style": "ipa"},
        {"name": "Lawnmower", "abv": 4.9, "style": "kolsch"}
        ]
        """
        let keyError = try #require(Self.decodingError { _ = try Self.streaming([AbvBeer].self, missingKey) })
        #expect(Self.summary(keyError) == ErrorSummary(kind: "keyNotFound", key: "brewery", path: ["[1]"]))
        #expect(Self.context(keyError)?.debugDescription.contains("line 3") == true)
        #expect(Self.errorSummary { _ = try Self.foundation([AbvBeer].self, missingKey) } == Self.summary(keyError))

        // Wrong type: typeMismatch naming the expected type, at the value.
        let wrongType = """
        [
        {"name": "Endeavor", "abv": "8.9", "brewery": "Saint Arnold", "style": "ipa"}
        ]
        """
        let typeError = try #require(Self.decodingError { _ = try Self.streaming([AbvBeer].self, wrongType) })
        #expect(Self.summary(typeError) == ErrorSummary(kind: "typeMismatch", type: "Float", path: ["[0]", "abv"]))
        if case .typeMismatch(let type, _) = typeError { #expect(ObjectIdentifier(type) == ObjectIdentifier(Float.self)) }
        #expect(Self.context(typeError)?.debugDescription.contains("line 2") == true)
        #expect(Self.errorSummary { _ = try Self.foundation([AbvBeer].self, wrongType) } == Self.summary(typeError))

        // null for a non-optional: valueNotFound.
        let null = """
        [
        {"name": "Endeavor", "abv": 8.9, "brewery": "Saint Arnold", "style": "ipa"},

        {"name": null, "abv": 4.9, "brewery": "Saint Arnold", "style": "kolsch"}
        ]
        """
        let nullError = try #require(Self.decodingError { _ = try Self.streaming([AbvBeer].self, null) })
        #expect(Self.summary(nullError) == ErrorSummary(kind: "valueNotFound", type: "String", path: ["[1]", "name"]))
        if case .valueNotFound(let type, _) = nullError { #expect(ObjectIdentifier(type) == ObjectIdentifier(String.self)) }
        #expect(Self.context(nullError)?.debugDescription.contains("line 4") == true)
        #expect(Self.errorSummary { _ = try Self.foundation([AbvBeer].self, null) } == Self.summary(nullError))

        // An object where the array is expected.
        let notArray = ErrorSummary(kind: "typeMismatch", path: [])
        #expect(Self.errorSummary { _ = try Self.streaming([AbvBeer].self, #"{"beers": []}"#) }.withoutType == notArray)
        #expect(Self.errorSummary { _ = try Self.foundation([AbvBeer].self, #"{"beers": []}"#) }.withoutType == notArray)

        // Streamed: each bad element throws its own error, with the element's index first,
        // and the stream goes on with the next element.
        let mixed = """
        [
        {"name": "Endeavor", "abv": 8.9, "brewery": "Saint Arnold", "style": "ipa"},
        {"name": "Lawnmower", "abv": 4.9, "style": "kolsch"},
        {"name": "Pumpkinator", "abv": "11.2", "brewery": "Saint Arnold", "style": "stout"},
        {"name": null, "abv": 4.2, "brewery": "Guinness", "style": "stout"},
        {"name": "Art Car", "abv": 5.0, "brewery": "Saint Arnold", "style": "ipa"}
        ]
        """
        var iterator = StreamingJSONDecoder().elements(of: AbvBeer.self, from: Self.data(mixed)).makeIterator()
        #expect(try iterator.next() == AbvBeer(name: "Endeavor", abv: 8.9, brewery: "Saint Arnold", style: "ipa"))
        #expect(Self.errorSummary { _ = try iterator.next() }
                == ErrorSummary(kind: "keyNotFound", key: "brewery", path: ["[1]"]))
        #expect(Self.errorSummary { _ = try iterator.next() }
                == ErrorSummary(kind: "typeMismatch", type: "Float", path: ["[2]", "abv"]))
        #expect(Self.errorSummary { _ = try iterator.next() }
                == ErrorSummary(kind: "valueNotFound", type: "String", path: ["[3]", "name"]))
        #expect(try iterator.next() == AbvBeer(name: "Art Car", abv: 5.0, brewery: "Saint Arnold", style: "ipa"))
        #expect(try iterator.next() == nil)

        // HTML through the stream: `.auto` reads it as JSON Lines (it does not start
        // with "["), so each malformed line is reported with its line, then the stream ends.
        var htmlIterator = StreamingJSONDecoder().elements(of: AbvBeer.self, from: Self.data(html)).makeIterator()
        for line in [1, 2] {
            let error = Self.decodingError { _ = try htmlIterator.next() }
            #expect((Self.context(error!)?.underlyingError as? JSONSyntaxError)?.line == line)
        }
        #expect(try htmlIterator.next() == nil)
        // As an array, the first syntax error ends the stream.
        var arrayIterator = StreamingJSONDecoder().elements(of: AbvBeer.self, from: Self.data(html), format: .array)
            .makeIterator()
        #expect(Self.errorSummary { _ = try arrayIterator.next() }.kind == "dataCorrupted")
        #expect(try arrayIterator.next() == nil)
    }

    // MARK: 16. GroceryProduct with an optional description, then renamed keys

    @Test func scenario16_groceryProducts() throws {
        let json = """
        [
            {
                "name": "Banana",
                "points": 200,
                "description": "A banana grown in Ecuador."
            },
            {
                "name": "Orange",
                "points": 100
            }
        ]
        """
        let products = try Self.streaming([GroceryProduct].self, json)
        #expect(products.count == 2)
        #expect(products[0].name == "Banana")
        #expect(products[0].points == 200)
        #expect(products[0].description == "A banana grown in Ecuador.")
        #expect(products[1].name == "Orange")
        #expect(products[1].points == 100)
        #expect(products[1].description == nil)
        #expect(products == (try Self.foundation([GroceryProduct].self, json)))

        // An explicit null is nil as well.
        let nullDescription = try Self.streaming(GroceryProduct.self, #"{"name": "Kiwi", "points": 50, "description": null}"#)
        #expect(nullDescription == GroceryProduct(name: "Kiwi", points: 50, description: nil))

        let renamedJSON = """
        [
            {
                "product_name": "Bananas",
                "product_cost": 200,
                "description": "A banana grown in Ecuador."
            },
            {
                "product_name": "Oranges",
                "product_cost": 100,
                "description": "A juicy orange."
            }
        ]
        """
        let renamed = try Self.streaming([RenamedGroceryProduct].self, renamedJSON)
        #expect(renamed.count == 2)
        #expect(renamed[0].name == "Bananas")
        #expect(renamed[0].points == 200)
        #expect(renamed[0].description == "A banana grown in Ecuador.")
        #expect(renamed[1].name == "Oranges")
        #expect(renamed[1].points == 100)
        #expect(renamed[1].description == "A juicy orange.")
        #expect(renamed == (try Self.foundation([RenamedGroceryProduct].self, renamedJSON)))

        // The first model cannot read the renamed keys.
        let expected = ErrorSummary(kind: "keyNotFound", key: "name", path: ["[0]"])
        #expect(Self.errorSummary { _ = try Self.streaming([GroceryProduct].self, renamedJSON) } == expected)
        #expect(Self.errorSummary { _ = try Self.foundation([GroceryProduct].self, renamedJSON) } == expected)
    }
}

// MARK: - Models for scenarios 9–16 (nested, so they never clash with other test files)

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

    /// abv and style live in a nested "info" object.
    private struct FlatBeer: Decodable, Equatable {
        let name: String
        let brewery: String
        let abv: Float
        let style: Brew.BeerStyle

        enum CodingKeys: String, CodingKey {
            case name
            case brewery
            case info
        }

        enum InfoCodingKeys: String, CodingKey {
            case abv
            case style
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            brewery = try container.decode(String.self, forKey: .brewery)
            let info = try container.nestedContainer(keyedBy: InfoCodingKeys.self, forKey: .info)
            abv = try info.decode(Float.self, forKey: .abv)
            style = try info.decode(Brew.BeerStyle.self, forKey: .style)
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

    private class Person: Decodable {
        var name: String?
        /// The coding path of the decoder this Person was decoded from.
        let decodedAt: [String]

        private enum CodingKeys: String, CodingKey {
            case name
        }

        required init(from decoder: Decoder) throws {
            decodedAt = CodableScenarioTests.path(decoder.codingPath)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decodeIfPresent(String.self, forKey: .name)
        }
    }

    /// The superclass is decoded from `superDecoder()`, i.e. the "super" key.
    private final class Employee: Person {
        var employeeID: String?

        private enum CodingKeys: String, CodingKey {
            case employeeID = "emp_id"
        }

        required init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            employeeID = try container.decodeIfPresent(String.self, forKey: .employeeID)
            try super.init(from: container.superDecoder())
        }
    }

    /// The superclass is decoded from `superDecoder(forKey: .person)`.
    private final class KeyedEmployee: Person {
        var employeeID: String?

        private enum CodingKeys: String, CodingKey {
            case employeeID = "emp_id"
            case person
        }

        required init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            employeeID = try container.decodeIfPresent(String.self, forKey: .employeeID)
            try super.init(from: container.superDecoder(forKey: .person))
        }
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

    private struct BeerStyles: Decodable {
        struct BeerStyleKey: CodingKey {
            var stringValue: String
            init?(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }

            static let description = BeerStyleKey(stringValue: "description")!
        }

        struct BeerStyle: Decodable, Equatable {
            let name: String
            let description: String
        }

        let beerStyles: [BeerStyle]
        let keysSeen: [String]
        let nestedKeysSeen: [[String]]
        let containsKolsch: Bool
        let containsPorter: Bool

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: BeerStyleKey.self)
            var styles: [BeerStyle] = []
            var nestedKeys: [[String]] = []
            for key in container.allKeys {
                let nested = try container.nestedContainer(keyedBy: BeerStyleKey.self, forKey: key)
                nestedKeys.append(nested.allKeys.map(\.stringValue))
                let description = try nested.decode(String.self, forKey: .description)
                styles.append(BeerStyle(name: key.stringValue, description: description))
            }
            beerStyles = styles
            keysSeen = container.allKeys.map(\.stringValue)
            nestedKeysSeen = nestedKeys
            containsKolsch = container.contains(BeerStyleKey(stringValue: "kolsch")!)
            containsPorter = container.contains(BeerStyleKey(stringValue: "porter")!)
        }
    }

    private struct GroceryProduct: Decodable, Equatable {
        var name: String
        var points: Int
        var description: String?
    }

    private struct RenamedGroceryProduct: Decodable, Equatable {
        var name: String
        var points: Int
        var description: String?

        private enum CodingKeys: String, CodingKey {
            case name = "product_name"
            case points = "product_cost"
            case description
        }
    }
}
