// SPDX-License-Identifier: Apache-2.0
import Foundation
import StreamingJSON

// The shape-stream and shape-foundation modes: the datasets of
// `scripts/generate-shapes.py` decoded into the models users would write,
// by StreamingJSONDecoder streamed and by Foundation's JSONDecoder the way
// users would call it. Both fold a digest of a few fields of every element
// (order-independent: Foundation's dictionary has no order), so that the
// work cannot be optimised away and scripts/compare can check that both
// decoders read the same values, not only the same number of elements.

enum Shape: String, CaseIterable {
    case twitter, citm, canada, github, logs
}

/// What a shape mode read: the elements, and the sum of their digests.
struct ShapeResult {
    var count = 0
    var digest = 0

    mutating func add(_ elementDigest: Int) {
        count += 1
        digest &+= elementDigest
    }
}

extension Shape {
    /// `elements(of:contentsOf:)`, one element at a time.
    func stream(_ url: URL) throws -> ShapeResult {
        let decoder = StreamingJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        switch self {
        case .twitter:
            return try streamed(decoder.elements(of: Status.self, contentsOf: url), digest: Self.digest)
        case .citm:
            // An object's member values: `.objectValues` (with a key path, `.auto` means `.array`).
            return try streamed(decoder.elements(of: CitmEvent.self, contentsOf: url, at: ["events"],
                                                 format: .objectValues), digest: Self.digest)
        case .canada:
            return try streamed(decoder.elements(of: [[Double]].self, contentsOf: url), digest: Self.digest)
        case .github:
            return try streamed(decoder.elements(of: GitHubEvent.self, contentsOf: url, format: .jsonLines),
                                digest: Self.digest)
        case .logs:
            return try streamed(decoder.elements(of: LogEvent.self, contentsOf: url, format: .jsonLines),
                                digest: Self.digest)
        }
    }

    /// Foundation: the whole file read, arrays and the object decoded whole,
    /// JSON Lines split at newlines and each line decoded by one decoder.
    func foundation(_ url: URL) throws -> ShapeResult {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let data = try Data(contentsOf: url)
        var result = ShapeResult()
        switch self {
        case .twitter:
            for status in try decoder.decode([Status].self, from: data) { result.add(Self.digest(status)) }
        case .citm:
            let events = try decoder.decode(CitmEvents.self, from: data).events
            for event in events.values { result.add(Self.digest(event)) }
        case .canada:
            for ring in try decoder.decode([[[Double]]].self, from: data) { result.add(Self.digest(ring)) }
        case .github:
            for line in data.split(separator: UInt8(ascii: "\n")) {
                result.add(Self.digest(try decoder.decode(GitHubEvent.self, from: line)))
            }
        case .logs:
            for line in data.split(separator: UInt8(ascii: "\n")) {
                result.add(Self.digest(try decoder.decode(LogEvent.self, from: line)))
            }
        }
        return result
    }

    private func streamed<T>(_ elements: JSONElements<T>, digest: (T) -> Int) throws -> ShapeResult {
        var result = ShapeResult()
        var iterator = elements.makeIterator()
        while let element = try iterator.next() { result.add(digest(element)) }
        return result
    }

    // MARK: Digests: a few fields of each element, read back

    static func digest(_ status: Status) -> Int {
        status.user.followersCount &+ status.entities.userMentions.count &+ Int(truncatingIfNeeded: status.id)
    }

    static func digest(_ event: CitmEvent) -> Int {
        event.id &+ event.subTopicIds.count &+ event.topicIds.count
    }

    /// Every coordinate's bits: the two decoders must round each number alike.
    static func digest(_ ring: [[Double]]) -> Int {
        var sum = ring.count
        for point in ring {
            for coordinate in point { sum &+= Int(truncatingIfNeeded: coordinate.bitPattern) }
        }
        return sum
    }

    static func digest(_ event: GitHubEvent) -> Int {
        Int(truncatingIfNeeded: event.id.value) &+ (event.payload.commits?.count ?? 0)
            &+ Int((event.createdAt.timeIntervalSince1970 * 1000).rounded())
            &+ (event.payload.issue?.body?.utf8.count ?? 0) &+ (event.payload.pullRequest?.body?.utf8.count ?? 0)
    }

    static func digest(_ event: LogEvent) -> Int {
        let fingerprint = switch event.fingerprint {
        case .signed(let value): Int(value)
        case .unsigned(let value): Int(truncatingIfNeeded: value)
        }
        let cents = event.amount.map { NSDecimalNumber(decimal: $0 * 100).intValue } ?? 0
        return fingerprint &+ cents &+ Int(event.timestamp.timeIntervalSince1970) &+ (event.level == .error ? 1 : 0)
    }
}
