// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

// Coding keys: renamed with CodingKeys, converted from snake_case, a struct
// CodingKeys, and dynamic keys read through allKeys.
// (Helpers and the shared Beer models are in CodableScenarioTests.swift.)

extension CodableScenarioTests {
    // MARK: CodingKeys renaming

    @Test func codingKeysRenameTheJSONKeys() throws {
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

    // MARK: Paged response with nested types and snake_case keys

    @Test func snakeCaseKeysThroughCodingKeysOrTheStrategy() throws {
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

    // MARK: GroceryProduct with an optional description, then renamed keys

    @Test func optionalMemberThenRenamedKeys() throws {
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

    // MARK: Student with a struct CodingKeys and a flattened "meta"

    @Test func structCodingKeysWithAFlattenedNestedObject() throws {
        // The plain struct-CodingKeys Student.
        let simpleJSON = #"{"name": "Jone", "age": 17, "born_in": "China"}"#
        let simple = try Self.streaming(SimpleStudent.self, simpleJSON)
        #expect(simple.name == "Jone")
        #expect(simple.age == 17)
        #expect(simple.bornIn == "China")
        #expect(simple == (try Self.foundation(SimpleStudent.self, simpleJSON)))

        let json = """
        {
            "name": "Jone",
            "age": 17,
            "born_in": "China",
            "meta": {
                "gross_score": 120,
                "scores": [
                    0.65,
                    0.75,
                    0.85
                ]
            }
        }
        """
        let student = try Self.streaming(Student.self, json)
        #expect(student.name == "Jone")
        #expect(student.age == 17)
        #expect(student.bornIn == "China")
        #expect(student.grossScore == 120)
        // 0.65 × 120, 0.75 × 120, 0.85 × 120 in Float round to exactly these.
        #expect(student.scores == [78, 90, 102])
        #expect(student.scores == [Float(0.65) * 120, Float(0.75) * 120, Float(0.85) * 120])
        #expect(student == (try Self.foundation(Student.self, json)))

        // Streamed, with an empty score list.
        let array = "[\(json), {\"meta\": {\"scores\": [], \"gross_score\": 100}, \"born_in\": \"Japan\", \"age\": 18, \"name\": \"Aki\"}]"
        var streamed: [Student] = []
        try StreamingJSONDecoder().elements(of: Student.self, from: Self.data(array)).forEach { streamed.append($0) }
        #expect(streamed.count == 2)
        #expect(streamed.first == student)
        #expect(streamed.last?.name == "Aki")
        #expect(streamed.last?.age == 18)
        #expect(streamed.last?.bornIn == "Japan")
        #expect(streamed.last?.grossScore == 100)
        #expect(streamed.last?.scores == [])

        // A missing key named by the struct key's string.
        let noBorn = #"{"name": "Jone", "age": 17, "meta": {"gross_score": 1, "scores": []}}"#
        let expected = ErrorSummary(kind: "keyNotFound", key: "born_in", path: [])
        #expect(Self.errorSummary { _ = try Self.streaming(Student.self, noBorn) } == expected)
        #expect(Self.errorSummary { _ = try Self.foundation(Student.self, noBorn) } == expected)
    }

    // MARK: Dynamic keys through a struct CodingKey and allKeys

    @Test func dynamicKeysThroughAStructCodingKeyAndAllKeys() throws {
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

    // MARK: GroceryStore keyed by product name through a dynamic ProductKey (decode only)

    @Test func dynamicKeysNameEachProduct() throws {
        let json = """
        {
            "Banana": {
                "points": 200,
                "description": "A banana grown in Ecuador."
            },
            "Orange": {
                "points": 100
            }
        }
        """
        let store = try Self.streaming(KeyedGroceryStore.self, json)
        let products = store.products.sorted { $0.name < $1.name }
        #expect(products.count == 2)
        #expect(products[0].name == "Banana")
        #expect(products[0].points == 200)
        #expect(products[0].description == "A banana grown in Ecuador.")
        #expect(products[1].name == "Orange")
        #expect(products[1].points == 100)
        #expect(products[1].description == nil)
        #expect((try Self.foundation(KeyedGroceryStore.self, json)).products.sorted { $0.name < $1.name } == products)

        // Product names that are not identifiers, and an empty store.
        let odd = #"{"Pumpkin Seeds": {"points": 400, "description": null}, "": {"points": 0}}"#
        let oddProducts = try Self.streaming(KeyedGroceryStore.self, odd).products.sorted { $0.name < $1.name }
        #expect(oddProducts == [
            KeyedGroceryStore.Product(name: "", points: 0, description: nil),
            KeyedGroceryStore.Product(name: "Pumpkin Seeds", points: 400, description: nil),
        ])
        #expect(try Self.streaming(KeyedGroceryStore.self, "{}").products.isEmpty)

        let missingPoints = #"{"Banana": {"points": 200}, "Lemons": {"description": "Sour"}}"#
        let expected = ErrorSummary(kind: "keyNotFound", key: "points", path: ["Lemons"])
        #expect(Self.errorSummary { _ = try Self.streaming(KeyedGroceryStore.self, missingPoints) } == expected)
        #expect(Self.errorSummary { _ = try Self.foundation(KeyedGroceryStore.self, missingPoints) } == expected)
    }
}

// MARK: - Models (nested, so they never clash with other test files)

extension CodableScenarioTests {
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

    private struct SimpleStudent: Decodable, Equatable {
        let name: String
        let age: Int
        let bornIn: String

        struct CodingKeys: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
            init?(stringValue: String) { self.stringValue = stringValue }

            static let name = CodingKeys(stringValue: "name")!
            static let age = CodingKeys(stringValue: "age")!
            static let bornIn = CodingKeys(stringValue: "born_in")!
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            age = try container.decode(Int.self, forKey: .age)
            bornIn = try container.decode(String.self, forKey: .bornIn)
        }
    }

    private struct Student: Decodable, Equatable {
        let name: String
        let age: Int
        let bornIn: String
        let grossScore: Int
        let scores: [Float]

        struct CodingKeys: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
            init?(stringValue: String) { self.stringValue = stringValue }

            static let name = CodingKeys(stringValue: "name")!
            static let age = CodingKeys(stringValue: "age")!
            static let bornIn = CodingKeys(stringValue: "born_in")!
            static let meta = CodingKeys(stringValue: "meta")!
        }

        enum MetaCodingKeys: String, CodingKey {
            case grossScore = "gross_score"
            case scores
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            age = try container.decode(Int.self, forKey: .age)
            bornIn = try container.decode(String.self, forKey: .bornIn)

            let meta = try container.nestedContainer(keyedBy: MetaCodingKeys.self, forKey: .meta)
            let grossScore = try meta.decode(Int.self, forKey: .grossScore)
            var unkeyed = try meta.nestedUnkeyedContainer(forKey: .scores)
            var scores: [Float] = []
            while !unkeyed.isAtEnd {
                let proportion = try unkeyed.decode(Float.self)
                scores.append(proportion * Float(grossScore))
            }
            self.grossScore = grossScore
            self.scores = scores
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

    private struct KeyedGroceryStore: Decodable {
        struct Product: Equatable {
            let name: String
            let points: Int
            let description: String?
        }

        struct ProductKey: CodingKey {
            var stringValue: String
            init?(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }

            static let points = ProductKey(stringValue: "points")!
            static let description = ProductKey(stringValue: "description")!
        }

        var products: [Product]

        init(from decoder: Decoder) throws {
            var products: [Product] = []
            let container = try decoder.container(keyedBy: ProductKey.self)
            for key in container.allKeys {
                let productContainer = try container.nestedContainer(keyedBy: ProductKey.self, forKey: key)
                let points = try productContainer.decode(Int.self, forKey: .points)
                let description = try productContainer.decodeIfPresent(String.self, forKey: .description)
                products.append(Product(name: key.stringValue, points: points, description: description))
            }
            self.products = products
        }
    }
}
