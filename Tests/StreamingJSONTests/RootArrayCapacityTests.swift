// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// `decode([T].self, …)` of a root array sizes the array once, from the bytes
/// its first elements took (`_TapeDecoder+RootArray.swift`). The values and
/// errors must be those of element-by-element appending whatever the
/// estimate says.
@Suite struct RootArrayCapacityTests {
    struct Row: Codable, Equatable, Sendable {
        var id: Int
        var name: String
    }

    /// `count` rows whose names are `short` bytes long up to `switchAt`, then `long`.
    static func rows(_ count: Int, short: Int, long: Int, switchAt: Int) -> [Row] {
        (0..<count).map { Row(id: $0, name: String(repeating: "x", count: $0 < switchAt ? short : long)) }
    }

    @Test(arguments: [3_000, 40_000])
    func uniformElementsReserveOnce(count: Int) throws {
        let rows = Self.rows(count, short: 20, long: 20, switchAt: 0)
        let data = try JSONEncoder().encode(rows)
        let decoded = try StreamingJSONDecoder().decode([Row].self, from: data)
        #expect(decoded == rows)
        // Doubling from 512 would leave 4 096 or 65 536: the estimate leaves
        // about an eighth more than the count.
        #expect(decoded.capacity >= count && decoded.capacity <= count + count / 4)
    }

    @Test func elementsGrowingPastTheEstimateStillAllArrive() throws {
        let rows = Self.rows(30_000, short: 1, long: 200, switchAt: 600)
        let data = try JSONEncoder().encode(rows)
        #expect(try StreamingJSONDecoder().decode([Row].self, from: data) == rows)
    }

    @Test func elementsShrinkingAfterTheEstimateStillAllArrive() throws {
        let rows = Self.rows(30_000, short: 300, long: 1, switchAt: 600)
        let data = try JSONEncoder().encode(rows)
        let decoded = try StreamingJSONDecoder().decode([Row].self, from: data)
        #expect(decoded == rows)
    }

    @Test func aBadElementAfterTheEstimateFailsAsJSONDecoderSays() throws {
        var rows = (0..<3_000).map { #"{"id":\#($0),"name":"n"}"# }
        rows[2_500] = #"{"id":"oops","name":"n"}"#
        let data = Data("[\(rows.joined(separator: ","))]".utf8)
        #expect {
            try StreamingJSONDecoder().decode([Row].self, from: data)
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["Index 2500", "id"]
        }
    }

    @Test func theEstimate() {
        // 512 elements in 51 200 bytes: 100 bytes each, 10 000 in 1 MB.
        #expect(_RootArrayEstimate.capacity(after: 512, endingAt: 51_200, of: 1_000_000) == 11_250)
        // No better than doubling: left to the array.
        #expect(_RootArrayEstimate.capacity(after: 512, endingAt: 51_200, of: 60_000) == nil)
        // The element's end is no longer known, or the input is empty.
        #expect(_RootArrayEstimate.capacity(after: 512, endingAt: nil, of: 1_000_000) == nil)
        #expect(_RootArrayEstimate.capacity(after: 512, endingAt: 0, of: 1_000_000) == nil)
    }
}
