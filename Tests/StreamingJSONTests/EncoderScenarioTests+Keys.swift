// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

// Encoder scenarios, continued: key strategies and userInfo.
extension EncoderScenarioTests {

    // MARK: Key strategies

    @Test func convertToSnakeCase() {
        let mapping: [(String, String)] = [
            ("myURLKey", "my_url_key"), ("ABC", "a_bc"), ("aBCd", "a_b_cd"), ("_leading", "_leading"),
            ("trailing_", "trailing_"), ("__a__b__", "__a__b__"), ("camelCase", "camel_case"),
            ("oneTwoThree", "one_two_three"), ("numbers123And", "numbers123_and"), ("snake_already", "snake_already"),
            ("URL", "u_rl"), ("a", "a"), ("", ""), ("simple", "simple"), ("已经CamelCase", "已经_camel_case"),
        ]
        struct Keys: Encodable {
            var keys: [String]
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: EncKey.self)
                for key in keys { try container.encode(key, forKey: EncKey(key)) }
            }
        }
        for (key, snake) in mapping {
            expect(Keys(keys: [key]), #"{"\#(snake)":"\#(key)"}"#, EncodingSetup(keys: .snake))
        }
        // Synthesized keys are converted; [String: V] keys are not (Foundation).
        struct Paged: Encodable {
            var totalPages = 3
            var perPage = 20
            var extraInfo: [String: Int] = ["pageSize": 1, "already_snake": 2]
            var nestedMeta = NestedMeta()
            struct NestedMeta: Encodable { var lastPageURL = "a/b" }
        }
        expect(Paged(), #"{"extra_info":{"already_snake":2,"pageSize":1},"nested_meta":{"last_page_url":"a\/b"},"per_page":20,"total_pages":3}"#,
               EncodingSetup(keys: .snake))
        expect(["myKey": ["innerKey": 1]], #"{"myKey":{"innerKey":1}}"#, EncodingSetup(keys: .snake))
    }

    @Test func customKeyStrategy() throws {
        struct Inner: Encodable { var aB = 1; var cD: [String: Int] = ["xY": 2] }
        // The closure sees the whole path, the key being written last; dictionary keys are not passed through it.
        expect(["k": [Inner()]], #"{"k":[{"AB_K":1,"CD_K":{"xY":2}}]}"#, EncodingSetup(keys: .customUpper))
        final class Paths: @unchecked Sendable {
            let lock = NSLock()
            var all: [[String]] = []
            func add(_ path: [any CodingKey]) { lock.lock(); all.append(Enc.path(path)); lock.unlock() }
        }
        let ours = Paths(), foundation = Paths()
        let encoder = StreamingJSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.keyEncodingStrategy = .custom { path in ours.add(path); return EncKey(path.last!.stringValue + "!") }
        let reference = JSONEncoder()
        reference.outputFormatting = .sortedKeys
        reference.keyEncodingStrategy = .custom { path in foundation.add(path); return EncKey(path.last!.stringValue + "!") }
        let value = ["k": [Inner()]]
        #expect(Enc.text(try encoder.encode(value)) == Enc.text(try reference.encode(value)))
        #expect(ours.all.sorted { $0.lexicographicallyPrecedes($1) } == [["k", "[0]", "aB"], ["k", "[0]", "cD"]])
        #expect(ours.all.sorted { $0.lexicographicallyPrecedes($1) } == foundation.all.sorted { $0.lexicographicallyPrecedes($1) })
        // Two keys mapped to the same name: the last value wins.
        struct Clash: Encodable { var a = 1; var A = 2 }
        expect(Clash(), #"{"A_K":2}"#, EncodingSetup(keys: .customUpper))
    }

    // MARK: userInfo

    struct VersionedCustomer: Encodable {
        static let versionKey = CodingUserInfoKey(rawValue: "apiVersion")!
        static let formatterKey = CodingUserInfoKey(rawValue: "legacyFormatter")!
        var name: String
        var joined: Date
        var referrer: Referrer

        struct Referrer: Encodable {
            var name: String
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: EncKey.self)
                try container.encode(name, forKey: "name")
                // Nested encoders see the same userInfo.
                try container.encode(encoder.userInfo[VersionedCustomer.versionKey] as? Int ?? -1, forKey: "seenVersion")
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: EncKey.self)
            let version = encoder.userInfo[Self.versionKey] as? Int ?? 1
            try container.encode(name, forKey: version >= 2 ? "full_name" : "name")
            if let formatter = encoder.userInfo[Self.formatterKey] as? DateFormatter {
                try container.encode(formatter.string(from: joined), forKey: "joined")
            } else {
                try container.encode(joined, forKey: "joined")
            }
            try container.encode(referrer, forKey: "referrer")
            var superContainer = container.superEncoder().container(keyedBy: EncKey.self)
            try superContainer.encode(encoder.userInfo.count, forKey: "entries")
        }
    }

    @Test func userInfoIsVisibleInEncode() throws {
        let customer = VersionedCustomer(name: "Ann", joined: Date(timeIntervalSince1970: 86_400), referrer: .init(name: "Bob"))
        let plain = StreamingJSONEncoder()
        plain.outputFormatting = .sortedKeys
        #expect(Enc.text(try plain.encode(customer))
                == #"{"joined":-978220800,"name":"Ann","referrer":{"name":"Bob","seenVersion":-1},"super":{"entries":0}}"#)

        let encoder = StreamingJSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.userInfo = [VersionedCustomer.versionKey: 2, VersionedCustomer.formatterKey: Enc.formatter("dd.MM.yyyy")]
        let expected = #"{"full_name":"Ann","joined":"02.01.1970","referrer":{"name":"Bob","seenVersion":2},"super":{"entries":2}}"#
        #expect(Enc.text(try encoder.encode(customer)) == expected)
        let reference = JSONEncoder()
        reference.outputFormatting = .sortedKeys
        reference.userInfo = [VersionedCustomer.versionKey: 2, VersionedCustomer.formatterKey: Enc.formatter("dd.MM.yyyy")]
        #expect(Enc.text(try reference.encode(customer)) == expected)
        #expect(encoder.userInfo[VersionedCustomer.versionKey] as? Int == 2)
    }
}
