// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

// Nested objects and arrays: wrapper keys, nested Codable types, and members
// flattened through nestedContainer(keyedBy:forKey:).
// (Helpers and the shared Beer models are in CodableScenarioTests.swift.)

extension CodableScenarioTests {
    // MARK: Wrapper key

    @Test func arrayUnderAWrapperKey() throws {
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

    // MARK: Array of single-key wrappers

    @Test func arrayOfSingleKeyWrapperObjects() throws {
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

    // MARK: Flattening with nestedContainer(keyedBy:forKey:)

    @Test func nestedObjectFlattenedThroughNestedContainer() throws {
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

    // MARK: Coordinate with elevation inside additionalInfo

    @Test func memberReadFromANestedObject() throws {
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

    // MARK: Landmark with nested Codable types, collections, URL?, renamed keys

    @Test func nestedTypesCollectionsAndAnOptionalURL() throws {
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

    // MARK: Nested GroceryStoreService flattened into GroceryStore

    @Test func deeplyNestedTypesFlattenedAfterDecoding() throws {
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
}

// MARK: - Models (nested, so they never clash with other test files)

extension CodableScenarioTests {
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
}
