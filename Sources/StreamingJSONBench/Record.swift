// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The record written by scripts/generate-records.py. The Benchmarks package
/// compiles this file too (a symbolic link there).
struct Record: Codable, Sendable {
    enum Style: String, Codable, Sendable {
        case ipa, stout, lager, pilsner, porter, saison, kolsch, wheat, sour, barleywine
    }

    struct Brewery: Codable, Sendable {
        var id: Int
        var name: String
        var city: String
        var country: String
    }

    var id: Int
    var serial: UInt64
    var name: String
    var brewery: Brewery
    var style: Style
    var abv: Double
    var ibu: Int?
    var rating: Double
    var price: Double
    var createdAt: Date
    var tags: [String]
    var description: String
    var available: Bool
    var retiredAt: Date?
    var scores: [Double]

    enum CodingKeys: String, CodingKey {
        case id, serial, name, brewery, style, abv, ibu, rating, price
        case createdAt = "created_at"
        case tags, description, available
        case retiredAt = "retired_at"
        case scores
    }
}
