// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// `convertFromSnakeCase`: lookups compare each member's converted spelling
/// with the coding key, through a cache of conversions. The results must be
/// Foundation's, on keys that convert in every way the rule allows.
@Suite struct SnakeCaseKeyTests {
    struct Tricky: Decodable, Equatable {
        var userName: String?
        var _id: Int?
        var __meta__: Int?
        var aB: Int?
        var urlValue: Int?
        var größeWert: Int?
        var x_: Int?
        var longKeyWithManyWordsInItPastThirtyTwoBytes: Int?
        var plain: Int?
        /// Never matches under the strategy: converted keys have no inner underscore.
        var created_at: Int?
        var createdAt: Int?
    }

    /// A coding key for any string, to read every member through `allKeys`.
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Every member, looked up by its converted key.
    struct Bag: Decodable, Equatable {
        var values: [String: Int] = [:]
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            for key in container.allKeys { values[key.stringValue] = try container.decode(Int.self, forKey: key) }
        }
    }

    private func decoders() -> (JSONDecoder, StreamingJSONDecoder) {
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        let ours = StreamingJSONDecoder()
        ours.keyDecodingStrategy = .convertFromSnakeCase
        return (foundation, ours)
    }

    @Test func keysConvertAsFoundationConvertsThem() throws {
        let json = #"""
        {"user_name":"ann","_id":1,"__meta__":2,"a__b":3,"URL_value":4,"größe_wert":5,"x_":6,
         "long_key_with_many_words_in_it_past_thirty_two_bytes":7,"plain":8,"created_at":9}
        """#
        let (foundation, ours) = decoders()
        let expected = try foundation.decode(Tricky.self, from: Data(json.utf8))
        #expect(expected.createdAt == 9 && expected.created_at == nil && expected.userName == "ann")
        #expect(try ours.decode(Tricky.self, from: Data(json.utf8)) == expected)
        #expect(try Engine.decode(Tricky.self, Data(json.utf8), chunk: 3, decoder: ours) == expected)
    }

    @Test func keysInAnyOrderAndMissing() throws {
        let json = #"{"plain":8,"a__b":3,"user_name":"bo","created_at":9,"_id":1}"#
        let (foundation, ours) = decoders()
        #expect(try ours.decode(Tricky.self, from: Data(json.utf8)) == foundation.decode(Tricky.self, from: Data(json.utf8)))
    }

    /// More keys than the cache has slots, some longer than a slot holds:
    /// each still found, through conversions made again.
    @Test func manyDistinctKeys() throws {
        var members: [String] = []
        for number in 0..<700 {
            let long = number % 7 == 0 ? "_and_a_tail_long_enough_to_pass_the_slot_size" : ""
            members.append(#""key_number_\#(number)\#(long)":\#(number)"#)
        }
        let json = Data("[{\(members.joined(separator: ","))},{\(members.reversed().joined(separator: ","))}]".utf8)
        let (foundation, ours) = decoders()
        let expected = try foundation.decode([Bag].self, from: json)
        #expect(expected[0].values.count == 700 && expected[0].values["keyNumber700"] == nil)
        #expect(expected[0].values["keyNumber7AndATailLongEnoughToPassTheSlotSize"] == 7)
        #expect(try ours.decode([Bag].self, from: json) == expected)
        var streamed: [Bag] = []
        var iterator = ours.elements(of: Bag.self, from: json).makeIterator()
        while let bag = try iterator.next() { streamed.append(bag) }
        #expect(streamed == expected)
    }

    /// Two members that convert to the same key: the first one's value, as before the cache.
    @Test func aRepeatedConvertedKeyFindsTheFirstMember() throws {
        struct User: Decodable { var userName: String }
        let (_, ours) = decoders()
        let json = Data(#"{"user_name":"first","userName":"second","user__name":"third"}"#.utf8)
        #expect(try ours.decode(User.self, from: json).userName == "first")
        let reordered = Data(#"{"userName":"first","user_name":"second"}"#.utf8)
        #expect(try ours.decode(User.self, from: reordered).userName == "first")
    }

    /// The word-at-a-time check against a plain search, for every length and
    /// place of the underscore, with bytes on either side of 0x5F.
    @Test func underscoresAreFoundAtEveryLengthAndPlace() {
        for count in 0...40 {
            for place in -1..<count {
                var bytes = (0..<count).map { UInt8(truncatingIfNeeded: 0x5E &+ 2 &* ($0 % 2)) }  // '^' and '`'
                if place >= 0 { bytes[place] = UInt8(ascii: "_") }
                let found = bytes.withUnsafeBufferPointer { _containsUnderscore($0) }
                #expect(found == (place >= 0), "count \(count), underscore at \(place)")
            }
        }
    }

    @Test func aMissingKeyNamesTheConvertedKey() throws {
        struct Needs: Decodable { var createdAt: Int; var userName: String }
        let (_, ours) = decoders()
        #expect {
            try ours.decode(Needs.self, from: Data(#"{"created_at":1,"user_nam":"x"}"#.utf8))
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return false }
            return key.stringValue == "userName"
        }
    }
}
