// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

// Codable scenarios 17–22 (the package's list of classic Codable tutorial cases); support helpers are in CodableScenarioTests.swift.

extension CodableScenarioTests {

    // MARK: 17. Nested GroceryStoreService flattened into GroceryStore

    @Test func scenario17_nestedServiceFlattened() throws {
        let json = """
        [
            {
                "name": "Home Town Market",
                "aisles": [
                    {
                        "name": "Produce",
                        "shelves": [
                            {
                                "name": "Discount Produce",
                                "product": {
                                    "name": "Banana",
                                    "points": 200,
                                    "description": "A banana that's perfectly ripe."
                                }
                            }
                        ]
                    }
                ]
            },
            {
                "name": "Big City Market",
                "aisles": [
                    {
                        "name": "Sale Aisle",
                        "shelves": [
                            {
                                "name": "Seasonal Sale",
                                "product": {
                                    "name": "Chestnuts",
                                    "points": 700,
                                    "description": "Chestnuts that were roasted over an open fire."
                                }
                            },
                            {
                                "name": "Last Season's Clearance",
                                "product": {
                                    "name": "Pumpkin Seeds",
                                    "points": 400,
                                    "description": "Seeds harvested from a pumpkin."
                                }
                            }
                        ]
                    }
                ]
            }
        ]
        """
        let services = try Self.streaming([GroceryStoreService].self, json)
        #expect(services.count == 2)
        #expect(services[0].name == "Home Town Market")
        #expect(services[0].aisles.map(\.name) == ["Produce"])
        #expect(services[0].aisles[0].shelves.map(\.name) == ["Discount Produce"])
        #expect(services[1].name == "Big City Market")
        #expect(services[1].aisles.map(\.name) == ["Sale Aisle"])
        #expect(services[1].aisles[0].shelves.map(\.name) == ["Seasonal Sale", "Last Season's Clearance"])
        #expect(services == (try Self.foundation([GroceryStoreService].self, json)))

        let stores = services.map(GroceryStore.init(from:))
        #expect(stores.count == 2)
        #expect(stores[0].name == "Home Town Market")
        #expect(stores[0].products == [
            GroceryStore.Product(name: "Banana", points: 200, description: "A banana that's perfectly ripe."),
        ])
        #expect(stores[1].name == "Big City Market")
        #expect(stores[1].products == [
            GroceryStore.Product(name: "Chestnuts", points: 700, description: "Chestnuts that were roasted over an open fire."),
            GroceryStore.Product(name: "Pumpkin Seeds", points: 400, description: "Seeds harvested from a pumpkin."),
        ])

        // Streamed store by store gives the same stores.
        var streamed: [GroceryStore] = []
        try StreamingJSONDecoder().elements(of: GroceryStoreService.self, from: Self.data(json))
            .forEach { streamed.append(GroceryStore(from: $0)) }
        #expect(streamed == stores)

        // A deep error carries the whole path.
        let bad = json.replacingOccurrences(of: #""points": 400"#, with: #""points": "400""#)
        let expected = ErrorSummary(kind: "typeMismatch", type: "Int",
                                    path: ["[1]", "aisles", "[0]", "shelves", "[1]", "product", "points"])
        #expect(Self.errorSummary { _ = try Self.streaming([GroceryStoreService].self, bad) } == expected)
        #expect(Self.errorSummary { _ = try Self.foundation([GroceryStoreService].self, bad) } == expected)
    }

    // MARK: 18. GroceryStore keyed by product name through a dynamic ProductKey (decode only)

    @Test func scenario18_dynamicProductKeys() throws {
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

    // MARK: 19. Landmark with nested Codable types, collections, URL?, renamed keys

    @Test func scenario19_landmark() throws {
        let json = """
        [
          {
            "name": "Eiffel Tower",
            "foundingYear": 1889,
            "location": {"latitude": 48.8584, "longitude": 2.2945},
            "vantagePoints": [
              {"latitude": 48.8554, "longitude": 2.2984},
              {"latitude": 48.8619, "longitude": -2.2886}
            ],
            "metadata": {"architect": "Gustave Eiffel", "height": "330 m"},
            "website": "https://www.toureiffel.paris/en"
          },
          {
            "name": "Gyeongbokgung",
            "foundingYear": 1395,
            "location": {"latitude": 37.5796, "longitude": 126.977},
            "vantagePoints": [],
            "metadata": {}
          },
          {
            "name": "Tokyo Tower",
            "foundingYear": 1958,
            "location": {"latitude": 35.6586, "longitude": 139.7454},
            "vantagePoints": [{"latitude": 35.66, "longitude": 139.75}],
            "metadata": {"height": "333 m"},
            "website": null
          }
        ]
        """
        let landmarks = try Self.streaming([Landmark].self, json)
        #expect(landmarks.count == 3)
        #expect(landmarks[0].name == "Eiffel Tower")
        #expect(landmarks[0].foundingYear == 1889)
        #expect(landmarks[0].location == Coordinate(latitude: 48.8584, longitude: 2.2945))
        #expect(landmarks[0].vantagePoints == [Coordinate(latitude: 48.8554, longitude: 2.2984),
                                              Coordinate(latitude: 48.8619, longitude: -2.2886)])
        #expect(landmarks[0].metadata == ["architect": "Gustave Eiffel", "height": "330 m"])
        #expect(landmarks[0].website == URL(string: "https://www.toureiffel.paris/en"))
        #expect(landmarks[0].website?.host == "www.toureiffel.paris")
        #expect(landmarks[1].name == "Gyeongbokgung")
        #expect(landmarks[1].foundingYear == 1395)
        #expect(landmarks[1].location == Coordinate(latitude: 37.5796, longitude: 126.977))
        #expect(landmarks[1].vantagePoints == [])
        #expect(landmarks[1].metadata == [:])
        #expect(landmarks[1].website == nil)
        #expect(landmarks[2].name == "Tokyo Tower")
        #expect(landmarks[2].foundingYear == 1958)
        #expect(landmarks[2].location == Coordinate(latitude: 35.6586, longitude: 139.7454))
        #expect(landmarks[2].vantagePoints == [Coordinate(latitude: 35.66, longitude: 139.75)])
        #expect(landmarks[2].metadata == ["height": "333 m"])
        #expect(landmarks[2].website == nil)
        #expect(landmarks == (try Self.foundation([Landmark].self, json)))

        var streamed: [Landmark] = []
        try StreamingJSONDecoder().elements(of: Landmark.self, from: Self.data(json)).forEach { streamed.append($0) }
        #expect(streamed == landmarks)

        // Renamed keys: "title" and "founding_date".
        let renamedJSON = """
        {
          "title": "Eiffel Tower",
          "founding_date": 1889,
          "location": {"latitude": 48.8584, "longitude": 2.2945},
          "vantagePoints": [{"latitude": 48.8554, "longitude": 2.2984}]
        }
        """
        let renamed = try Self.streaming(RenamedLandmark.self, renamedJSON)
        #expect(renamed.name == "Eiffel Tower")
        #expect(renamed.foundingYear == 1889)
        #expect(renamed.location == Coordinate(latitude: 48.8584, longitude: 2.2945))
        #expect(renamed.vantagePoints == [Coordinate(latitude: 48.8554, longitude: 2.2984)])
        #expect(renamed == (try Self.foundation(RenamedLandmark.self, renamedJSON)))

        // A non-string metadata value.
        let badMetadata = #"{"title": "X", "founding_date": 1, "location": {"latitude": 0, "longitude": 0}, "vantagePoints": [], "metadata": {"floors": 3}}"#
        let plain = badMetadata.replacingOccurrences(of: "\"title\"", with: "\"name\"")
            .replacingOccurrences(of: "\"founding_date\"", with: "\"foundingYear\"")
        let expected = ErrorSummary(kind: "typeMismatch", type: "String", path: ["metadata", "floors"])
        #expect(Self.errorSummary { _ = try Self.streaming(Landmark.self, plain) } == expected)
        #expect(Self.errorSummary { _ = try Self.foundation(Landmark.self, plain) } == expected)
    }

    // MARK: 20. Coordinate with elevation inside additionalInfo

    @Test func scenario20_coordinateAdditionalInfo() throws {
        let json = """
        {
          "latitude": 48.8584,
          "longitude": 2.2945,
          "additionalInfo": {
            "elevation": 35.5
          }
        }
        """
        let coordinate = try Self.streaming(ElevatedCoordinate.self, json)
        #expect(coordinate.latitude == 48.8584)
        #expect(coordinate.longitude == 2.2945)
        #expect(coordinate.elevation == 35.5)
        #expect(coordinate == (try Self.foundation(ElevatedCoordinate.self, json)))

        // Integer literals and extra keys in the nested object.
        let more = #"[{"latitude": -33, "longitude": 151, "additionalInfo": {"source": "GPS", "elevation": 58}}]"#
        let list = try Self.streaming([ElevatedCoordinate].self, more)
        #expect(list == [ElevatedCoordinate(latitude: -33, longitude: 151, elevation: 58)])

        // No additionalInfo: keyNotFound for the nested container's key.
        let flat = #"{"latitude": 48.8584, "longitude": 2.2945, "elevation": 35.5}"#
        let expected = ErrorSummary(kind: "keyNotFound", key: "additionalInfo", path: [])
        #expect(Self.errorSummary { _ = try Self.streaming(ElevatedCoordinate.self, flat) } == expected)
        #expect(Self.errorSummary { _ = try Self.foundation(ElevatedCoordinate.self, flat) } == expected)
        // additionalInfo without elevation.
        let empty = #"{"latitude": 48.8584, "longitude": 2.2945, "additionalInfo": {}}"#
        let inner = ErrorSummary(kind: "keyNotFound", key: "elevation", path: ["additionalInfo"])
        #expect(Self.errorSummary { _ = try Self.streaming(ElevatedCoordinate.self, empty) } == inner)
        #expect(Self.errorSummary { _ = try Self.foundation(ElevatedCoordinate.self, empty) } == inner)
    }

    // MARK: 21. Heterogeneous array: peek at "type" through a copied unkeyed container

    @Test func scenario21_heterogeneousArrayPeekThroughCopy() throws {
        let elements = """
        [
            {
                "type": "water",
                "description": "All natural"
            },
            {
                "type": "orange_juice",
                "description": "Best drank with breakfast"
            },
            {
                "type": "beer",
                "description": "An alcoholic beverage, best drunk on fridays after work",
                "alcohol_content": "5%"
            }
        ]
        """
        func check(_ drinks: [Drink], sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(drinks.count == 3, sourceLocation: sourceLocation)
            guard drinks.count == 3 else { return }
            #expect(ObjectIdentifier(type(of: drinks[0])) == ObjectIdentifier(Drink.self), sourceLocation: sourceLocation)
            #expect(drinks[0].type == "water", sourceLocation: sourceLocation)
            #expect(drinks[0].description == "All natural", sourceLocation: sourceLocation)
            #expect(ObjectIdentifier(type(of: drinks[1])) == ObjectIdentifier(Drink.self), sourceLocation: sourceLocation)
            #expect(drinks[1].type == "orange_juice", sourceLocation: sourceLocation)
            #expect(drinks[1].description == "Best drank with breakfast", sourceLocation: sourceLocation)
            #expect(ObjectIdentifier(type(of: drinks[2])) == ObjectIdentifier(DrinkBeer.self), sourceLocation: sourceLocation)
            #expect(drinks[2].type == "beer", sourceLocation: sourceLocation)
            #expect(drinks[2].description == "An alcoholic beverage, best drunk on fridays after work",
                    sourceLocation: sourceLocation)
            #expect((drinks[2] as? DrinkBeer)?.alcoholContent == "5%", sourceLocation: sourceLocation)
        }

        // {"drinks": [...]}: the array is under a key.
        let wrapped = "{\"drinks\": \(elements)}"
        check(try Self.streaming(Drinks.self, wrapped).drinks)
        check(try Self.foundation(Drinks.self, wrapped).drinks)

        // A root-level array read by a custom root type through decoder.unkeyedContainer()
        // (the streamed, incremental container).
        check(try Self.streaming(RootDrinks.self, elements).drinks)
        check(try Self.foundation(RootDrinks.self, elements).drinks)

        // Longer, so the peeking copy trails the original across many elements.
        let many = "[" + (0..<200).map { index in
            index % 3 == 2
                ? #"{"type": "beer", "description": "Beer \#(index)", "alcohol_content": "\#(index % 10)%"}"#
                : #"{"description": "Water \#(index)", "type": "water"}"#
        }.joined(separator: ",\n") + "]"
        let drinks = try Self.streaming(RootDrinks.self, many).drinks
        #expect(drinks.count == 200)
        for (index, drink) in drinks.enumerated() {
            if index % 3 == 2 {
                #expect(drink.type == "beer")
                #expect(drink.description == "Beer \(index)")
                #expect((drink as? DrinkBeer)?.alcoholContent == "\(index % 10)%")
            } else {
                #expect(ObjectIdentifier(type(of: drink)) == ObjectIdentifier(Drink.self))
                #expect(drink.type == "water")
                #expect(drink.description == "Water \(index)")
            }
        }
        let wrappedMany = try Self.streaming(Drinks.self, "{\"drinks\": \(many)}").drinks
        #expect(wrappedMany.map(\.description) == drinks.map(\.description))
        #expect(wrappedMany.map { $0 is DrinkBeer } == drinks.map { $0 is DrinkBeer })

        // Empty arrays.
        #expect(try Self.streaming(RootDrinks.self, "[]").drinks.isEmpty)
        #expect(try Self.streaming(Drinks.self, #"{"drinks": []}"#).drinks.isEmpty)

        // An unknown type: the peeked enum fails with the element's path.
        let unknown = #"[{"type": "water", "description": "x"}, {"type": "milk", "description": "y"}]"#
        let expected = ErrorSummary(kind: "dataCorrupted", path: ["[1]", "type"])
        #expect(Self.errorSummary { _ = try Self.streaming(RootDrinks.self, unknown) } == expected)
        #expect(Self.errorSummary { _ = try Self.foundation(RootDrinks.self, unknown) } == expected)
        // A beer without its alcohol content.
        let noAlcohol = #"{"drinks": [{"type": "beer", "description": "y"}]}"#
        let missing = ErrorSummary(kind: "keyNotFound", key: "alcohol_content", path: ["drinks", "[0]"])
        #expect(Self.errorSummary { _ = try Self.streaming(Drinks.self, noAlcohol) } == missing)
        #expect(Self.errorSummary { _ = try Self.foundation(Drinks.self, noAlcohol) } == missing)
    }

    // MARK: 22. Student with a struct CodingKeys and a flattened "meta"

    @Test func scenario22_studentStructCodingKeysFlattenedMeta() throws {
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
}

// MARK: - Models for scenarios 17–22 (nested, so they never clash with other test files)

extension CodableScenarioTests {
    private struct GroceryStore: Equatable {
        var name: String
        var products: [Product]

        struct Product: Decodable, Equatable {
            var name: String
            var points: Int
            var description: String?
        }

        init(from service: GroceryStoreService) {
            name = service.name
            products = []
            for aisle in service.aisles {
                for shelf in aisle.shelves {
                    products.append(shelf.product)
                }
            }
        }
    }

    private struct GroceryStoreService: Decodable, Equatable {
        let name: String
        let aisles: [Aisle]

        struct Aisle: Decodable, Equatable {
            let name: String
            let shelves: [Shelf]

            struct Shelf: Decodable, Equatable {
                let name: String
                let product: GroceryStore.Product
            }
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

    private struct Coordinate: Decodable, Equatable {
        var latitude: Double
        var longitude: Double
    }

    private struct Landmark: Decodable, Equatable {
        var name: String
        var foundingYear: Int
        var location: Coordinate
        var vantagePoints: [Coordinate]
        var metadata: [String: String]
        var website: URL?
    }

    private struct RenamedLandmark: Decodable, Equatable {
        var name: String
        var foundingYear: Int
        var location: Coordinate
        var vantagePoints: [Coordinate]

        enum CodingKeys: String, CodingKey {
            case name = "title"
            case foundingYear = "founding_date"
            case location
            case vantagePoints
        }
    }

    private struct ElevatedCoordinate: Decodable, Equatable {
        var latitude: Double
        var longitude: Double
        var elevation: Double

        enum CodingKeys: String, CodingKey {
            case latitude
            case longitude
            case additionalInfo
        }

        enum AdditionalInfoKeys: String, CodingKey {
            case elevation
        }

        init(latitude: Double, longitude: Double, elevation: Double) {
            self.latitude = latitude
            self.longitude = longitude
            self.elevation = elevation
        }

        init(from decoder: Decoder) throws {
            let values = try decoder.container(keyedBy: CodingKeys.self)
            latitude = try values.decode(Double.self, forKey: .latitude)
            longitude = try values.decode(Double.self, forKey: .longitude)
            let additionalInfo = try values.nestedContainer(keyedBy: AdditionalInfoKeys.self, forKey: .additionalInfo)
            elevation = try additionalInfo.decode(Double.self, forKey: .elevation)
        }
    }

    private class Drink: Decodable {
        let type: String
        let description: String
    }

    private final class DrinkBeer: Drink {
        let alcoholContent: String

        private enum CodingKeys: String, CodingKey {
            case alcoholContent = "alcohol_content"
        }

        required init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            alcoholContent = try container.decode(String.self, forKey: .alcoholContent)
            try super.init(from: decoder)
        }
    }

    private enum DrinkTypeKey: CodingKey {
        case type
    }

    private enum DrinkTypes: String, Decodable {
        case water
        case orangeJuice = "orange_juice"
        case beer
    }

    /// Decodes each element as the class its "type" names: a copy of the container
    /// peeks at the type, then the original decodes the element.
    private static func decodeDrinks(_ container: inout any UnkeyedDecodingContainer) throws -> [Drink] {
        var drinks: [Drink] = []
        while !container.isAtEnd {
            var peek = container
            let typeContainer = try peek.nestedContainer(keyedBy: DrinkTypeKey.self)
            let type = try typeContainer.decode(DrinkTypes.self, forKey: .type)
            switch type {
            case .water, .orangeJuice:
                drinks.append(try container.decode(Drink.self))
            case .beer:
                drinks.append(try container.decode(DrinkBeer.self))
            }
        }
        return drinks
    }

    /// `{"drinks": [...]}`.
    private struct Drinks: Decodable {
        let drinks: [Drink]

        enum DrinksKey: CodingKey {
            case drinks
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: DrinksKey.self)
            var drinksArray: any UnkeyedDecodingContainer = try container.nestedUnkeyedContainer(forKey: .drinks)
            drinks = try CodableScenarioTests.decodeDrinks(&drinksArray)
        }
    }

    /// A root-level array of drinks.
    private struct RootDrinks: Decodable {
        let drinks: [Drink]

        init(from decoder: Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var drinks: [Drink] = []
            while !container.isAtEnd {
                var peek = container
                let typeContainer = try peek.nestedContainer(keyedBy: DrinkTypeKey.self)
                let type = try typeContainer.decode(DrinkTypes.self, forKey: .type)
                switch type {
                case .water, .orangeJuice:
                    drinks.append(try container.decode(Drink.self))
                case .beer:
                    drinks.append(try container.decode(DrinkBeer.self))
                }
            }
            self.drinks = drinks
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
}
