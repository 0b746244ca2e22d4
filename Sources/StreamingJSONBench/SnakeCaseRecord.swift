// SPDX-License-Identifier: Apache-2.0
import Foundation

/// `Record` as a newcomer writes it for `.convertFromSnakeCase`: the same
/// properties, no `CodingKeys`; the strategy maps `created_at` and
/// `retired_at`. Decoded by `streamingjson-bench stream-snake`, beside
/// `stream`, to compare the strategy with spelled-out keys.
struct SnakeCaseRecord: Decodable, Sendable {
    var id: Int
    var serial: UInt64
    var name: String
    var brewery: Record.Brewery
    var style: Record.Style
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
}
