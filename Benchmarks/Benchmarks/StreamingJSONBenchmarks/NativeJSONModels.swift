// SPDX-License-Identifier: Apache-2.0
import Foundation

// Typed models of the nativejson-benchmark files in Tests/Fixtures/nativejson
// (twitter.json's is TwitterModel.swift, linked from Sources/StreamingJSONBench).
// Keys are spelled out in CodingKeys (no key strategy), so both decoders do the
// same work. A field that is null or missing in some objects is Optional.

// MARK: - citm_catalog.json

struct CitmCatalog: Codable, Sendable {
    struct Event: Codable, Sendable {
        var description: String?
        var id: Int
        var logo: String?
        var name: String
        var subTopicIds: [Int]
        var subjectCode: String?
        var subtitle: String?
        var topicIds: [Int]
    }

    struct Performance: Codable, Sendable {
        struct Price: Codable, Sendable {
            var amount: Int
            var audienceSubCategoryId: Int
            var seatCategoryId: Int
        }

        struct SeatCategory: Codable, Sendable {
            struct Area: Codable, Sendable {
                var areaId: Int
                var blockIds: [Int]
            }

            var areas: [Area]
            var seatCategoryId: Int
        }

        var eventId: Int
        var id: Int
        var logo: String?
        var name: String?
        var prices: [Price]
        var seatCategories: [SeatCategory]
        var seatMapImage: String?
        var start: Int
        var venueCode: String
    }

    var areaNames: [String: String]
    var audienceSubCategoryNames: [String: String]
    var blockNames: [String: String]
    var events: [String: Event]
    var performances: [Performance]
    var seatCategoryNames: [String: String]
    var subTopicNames: [String: String]
    var subjectNames: [String: String]
    var topicNames: [String: String]
    var topicSubTopics: [String: [Int]]
    var venueNames: [String: String]
}

// MARK: - canada.json

struct Canada: Codable, Sendable {
    struct Feature: Codable, Sendable {
        struct Properties: Codable, Sendable {
            var name: String
        }

        struct Geometry: Codable, Sendable {
            var type: String
            var coordinates: [[[Double]]]
        }

        var type: String
        var properties: Properties
        var geometry: Geometry
    }

    var type: String
    var features: [Feature]
}
