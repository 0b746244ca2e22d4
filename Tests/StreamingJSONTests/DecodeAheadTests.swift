// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// For `Sendable` element types, the parsing thread of a pipelined stream
/// decodes some elements ahead of the caller (`_DecodeAhead.swift`). These
/// tests fix the share it decodes (`decodeAheadShare`, in sixteenths of each
/// batch) and check that the caller sees exactly what decoding on its own
/// thread gives: the same values, the same errors with the same coding paths
/// and positions, in the same order; and that nothing decoded ahead outlives
/// the iteration.
@Suite struct DecodeAheadTests {
    /// Notes which threads decoded elements, through `userInfo`.
    final class ThreadLog: @unchecked Sendable {
        static let key = CodingUserInfoKey(rawValue: "threadLog")!
        private let lock = NSLock()
        private let caller = pthread_self()
        private(set) var onCaller = 0
        private(set) var elsewhere = 0

        func note() {
            let here = pthread_equal(pthread_self(), caller) != 0
            lock.lock()
            if here { onCaller += 1 } else { elsewhere += 1 }
            lock.unlock()
        }
    }

    struct Item: Decodable, Sendable, Equatable {
        var id: Int
        var name: String
        var tags: [String]
        var inner: Inner
        struct Inner: Decodable, Sendable, Equatable { var values: [Int] }

        enum CodingKeys: String, CodingKey { case id, name, tags, inner }

        init(from decoder: any Decoder) throws {
            (decoder.userInfo[ThreadLog.key] as? ThreadLog)?.note()
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            name = try container.decode(String.self, forKey: .name)
            tags = try container.decode([String].self, forKey: .tags)
            inner = try container.decode(Inner.self, forKey: .inner)
        }
    }

    /// The same shape, not `Sendable`: never decoded off the caller's thread.
    final class UnsendableItem: Decodable {
        var id: Int
        init(from decoder: any Decoder) throws {
            (decoder.userInfo[ThreadLog.key] as? ThreadLog)?.note()
            id = try decoder.container(keyedBy: Item.CodingKeys.self).decode(Int.self, forKey: .id)
        }
    }

    /// `count` items, one per line, some of them bad: a string where an int
    /// belongs (every 997th), a missing key (every 1 499th).
    static func items(_ count: Int, lines: Bool = false) -> Data {
        var json = lines ? "" : "[\n"
        for index in 0..<count {
            let values = index % 997 == 5 ? #"[1, "x"]"# : "[\(index), \(index * 2)]"
            let name = index % 1_499 == 7 ? "" : #""name": "item \#(index) é","#
            json += #"{"id": \#(index), \#(name) "tags": ["a", "b\n"], "inner": {"values": \#(values)}}"#
            json += lines ? "\n" : (index == count - 1 ? "\n" : ",\n")
        }
        return Data((json + (lines ? "" : "]")).utf8)
    }

    enum Outcome: Equatable {
        case value(Item)
        case error(path: [String], description: String)
    }

    /// Every outcome of iterating `data`, errors included.
    /// `threads`: 1 (the default) keeps pieces out (`PieceDecodingTests`).
    static func outcomes(_ data: Data, share: Int?, pipelined: Bool = true, format: JSONStreamFormat = .auto,
                         path: [String] = [], log: ThreadLog? = nil, maxElementBytes: Int? = nil,
                         threads: Int = 1, pieceSize: Int? = nil) throws -> [Outcome] {
        let decoder = StreamingJSONDecoder()
        decoder.maxThreads = threads
        decoder.pieceSize = pieceSize
        decoder.maxElementBytes = maxElementBytes
        decoder.pipelining = pipelined ? .always : .never
        decoder.decodeAheadShare = share
        if let log { decoder.userInfo[ThreadLog.key] = log }
        var iterator = decoder.elements(of: Item.self, from: data, at: path, format: format).makeIterator()
        var outcomes: [Outcome] = []
        while true {
            do {
                guard let item = try iterator.next() else { return outcomes }
                outcomes.append(.value(item))
            } catch let error as DecodingError {
                switch error {
                case .typeMismatch(_, let context), .valueNotFound(_, let context),
                     .keyNotFound(_, let context), .dataCorrupted(let context):
                    outcomes.append(.error(path: context.codingPath.map(\.stringValue),
                                           description: context.debugDescription))
                @unknown default:
                    throw error
                }
                if error.endsStream { return outcomes }  // thrown again by every later call
            }
        }
    }

    @Test(arguments: [0, 1, 8, 16])
    func sameValuesAndErrorsAsOnTheCallersThread(share: Int) throws {
        // About 2 MB: several of the parsing thread's 256 KiB batches.
        let data = Self.items(20_000)
        let expected = try Self.outcomes(data, share: nil, pipelined: false)
        #expect(expected.count == 20_000)
        #expect(expected.filter { if case .error = $0 { true } else { false } }.count == 35)
        let log = ThreadLog()
        #expect(try Self.outcomes(data, share: share, log: log) == expected)
        #expect(log.onCaller + log.elsewhere == 20_000)
        if share == 0 { #expect(log.elsewhere == 0) }
        if share == 16 { #expect(log.onCaller == 0) }
        if share == 8 { #expect(log.elsewhere > 5_000 && log.onCaller > 5_000, "\(log.elsewhere) ahead") }
    }

    @Test func errorsDecodedAheadKeepTheirPathAndPosition() throws {
        let data = Self.items(3_000)
        let ahead = try Self.outcomes(data, share: 16)
        let serial = try Self.outcomes(data, share: nil, pipelined: false)
        guard case .error(let path, let description) = ahead[5] else {
            Issue.record("element 5 decoded")
            return
        }
        #expect(path == ["Index 5", "inner", "values", "Index 1"])
        #expect(description.hasPrefix("Expected to decode Int but found a string instead, at line 7, column "))
        guard case .error(let missingPath, let missing) = ahead[7] else {
            Issue.record("element 7 decoded")
            return
        }
        #expect(missingPath == ["Index 7"])
        #expect(missing.hasPrefix("No value associated with key CodingKeys(stringValue: \"name\""))
        #expect(ahead == serial)
    }

    /// `decode([Item].self, …)` of a Sendable element decodes ahead too: the
    /// same array, the same first error (path and text) as on one thread.
    @Test(arguments: [1, 8, 16])
    func wholeArraysOfSendableElementsDecodeAhead(share: Int) throws {
        func decoder(pipelined: Bool, log: ThreadLog? = nil) -> StreamingJSONDecoder {
            let decoder = StreamingJSONDecoder()
            decoder.pipelining = pipelined ? .always : .never
            decoder.decodeAheadShare = pipelined ? share : nil
            if let log { decoder.userInfo[ThreadLog.key] = log }
            return decoder
        }
        // Without bad elements: the same values, some decoded off the caller's thread.
        var json = "["
        for index in 0..<20_000 {
            if index > 0 { json += ",\n" }
            json += #"{"id": \#(index), "name": "item \#(index) é", "tags": ["a"], "inner": {"values": [\#(index)]}}"#
        }
        let good = Data((json + "]").utf8)
        let log = ThreadLog()
        let serial = try decoder(pipelined: false).decode([Item].self, from: good)
        #expect(serial.count == 20_000)
        #expect(try decoder(pipelined: true, log: log).decode([Item].self, from: good) == serial)
        if share == 16 { #expect(log.elsewhere > 10_000, "\(log.elsewhere) decoded ahead") }
        // With them: the first error, whichever thread met it.
        let bad = Self.items(20_000)
        func firstError(_ decoder: StreamingJSONDecoder) -> String {
            do {
                _ = try decoder.decode([Item].self, from: bad)
                return "decoded"
            } catch let error as DecodingError {
                guard case .typeMismatch(_, let context) = error else { return "\(error)" }
                return context.codingPath.map(\.stringValue).joined(separator: "/") + ": " + context.debugDescription
            } catch {
                return "\(error)"
            }
        }
        let expected = firstError(decoder(pipelined: false))
        #expect(expected.hasPrefix("Index 5/inner/values/Index 1: Expected to decode Int but found a string"))
        #expect(firstError(decoder(pipelined: true)) == expected)
    }

    @Test func jsonLinesWithABrokenLineAndObjectValues() throws {
        // A syntax error between elements is thrown in its place (JSON Lines
        // goes on at the next line), whichever thread decoded the neighbours.
        var lines = String(decoding: Self.items(12_000, lines: true), as: UTF8.self)
        let broken = lines.range(of: "{\"id\": 6000,")!
        lines.replaceSubrange(broken, with: "{\"id\": 6000 oops,")
        let data = Data(lines.utf8)
        let expected = try Self.outcomes(data, share: nil, pipelined: false, format: .jsonLines)
        #expect(expected.count == 12_000)
        for share in [8, 16] {
            #expect(try Self.outcomes(data, share: share, format: .jsonLines) == expected, "share \(share)")
        }

        // .objectValues: the member's key is the coding path.
        var object = "{"
        for index in 0..<12_000 {
            let values = index == 11_000 ? #"["x"]"# : "[\(index)]"
            object += #"\#(index == 0 ? "" : ",")"k\#(index)": {"id": \#(index), "name": "n", "tags": [], "inner": {"values": \#(values)}}"#
        }
        let members = Data((object + "}").utf8)
        let serial = try Self.outcomes(members, share: nil, pipelined: false, format: .objectValues)
        #expect(serial.count == 12_000)
        #expect(serial[11_000] == .error(path: ["k11000", "inner", "values", "Index 0"], description:
            serial[11_000].description))
        #expect(try Self.outcomes(members, share: 16, format: .objectValues) == serial)
    }

    @Test func elementsOverTheSizeLimitAreReportedInTheirPlace() throws {
        var json = String(decoding: Self.items(12_000), as: UTF8.self)
        let long = json.range(of: #""name": "item 4000 é","#)!
        json.replaceSubrange(long, with: #""name": "\#(String(repeating: "x", count: 500))","#)
        let data = Data(json.utf8)
        let serial = try Self.outcomes(data, share: nil, pipelined: false, maxElementBytes: 300)
        guard case .error(let path, let description) = serial[4_000] else {
            Issue.record("element 4000 decoded")
            return
        }
        #expect(path == ["Index 4000"])
        #expect(description.hasPrefix("Element larger than 300 bytes (maxElementBytes)"))
        #expect(try Self.outcomes(data, share: 16, maxElementBytes: 300) == serial)
    }

    /// A chain of objects as deep as `maxDepth` allows.
    final class Link: Decodable, Sendable {
        let child: Link?
        var depth: Int { 1 + (child?.depth ?? 0) }
    }

    @Test func deepElementsDecodeOnTheParsingThread() throws {
        // 511 nested objects inside the root array: 512 levels, maxDepth.
        let element = String(repeating: #"{"child":"#, count: 510) + #"{"child":null}"# + String(repeating: "}", count: 510)
        let data = Data(("[" + Array(repeating: element, count: 40).joined(separator: ",\n") + "]").utf8)
        let decoder = StreamingJSONDecoder()
        decoder.pipelining = .always
        decoder.decodeAheadShare = 16
        var depths: [Int] = []
        try decoder.elements(of: Link.self, from: data).forEach { depths.append($0.depth) }
        #expect(depths == Array(repeating: 511, count: 40))
    }

    @Test func typesThatAreNotSendableStayOnTheCallersThread() throws {
        let decoder = StreamingJSONDecoder()
        decoder.pipelining = .always
        decoder.decodeAheadShare = 16
        let log = ThreadLog()
        decoder.userInfo[ThreadLog.key] = log
        var count = 0
        var iterator = decoder.elements(of: UnsendableItem.self, from: Self.items(10_000)).makeIterator()
        while true {
            do {
                guard try iterator.next() != nil else { break }
                count += 1
            } catch is DecodingError {
                continue
            }
        }
        #expect(count == 10_000)  // (it reads `id` only)
        #expect(log.onCaller == 10_000 && log.elsewhere == 0)
    }

    /// A value that counts its instances, to see that none is leaked.
    final class Counted: Decodable, @unchecked Sendable {
        final class Census: @unchecked Sendable {
            static let key = CodingUserInfoKey(rawValue: "census")!
            private let lock = NSLock()
            private var live = 0
            private(set) var made = 0
            var alive: Int { lock.lock(); defer { lock.unlock() }; return live }
            func change(_ delta: Int) {
                lock.lock()
                live += delta
                if delta > 0 { made += delta }
                lock.unlock()
            }
        }

        let census: Census
        init(from decoder: any Decoder) throws {
            census = decoder.userInfo[Census.key] as! Census
            census.change(1)
        }
        deinit { census.change(-1) }
    }

    @Test func leavingTheLoopEarlyLetsGoOfWhatWasDecodedAhead() throws {
        let census = Counted.Census()
        do {
            let decoder = StreamingJSONDecoder()
            decoder.pipelining = .always
            decoder.decodeAheadShare = 16
            decoder.userInfo[Counted.Census.key] = census
            var iterator = decoder.elements(of: Counted.self, from: Self.items(20_000)).makeIterator()
            for _ in 0..<10 { _ = try iterator.next() }
        }
        // The parsing thread stops at its next batch and lets go of the queue. It
        // is waited for up to a minute (a busy machine may keep that thread
        // waiting; one that never lets go fails all the same).
        for _ in 0..<6_000 where census.alive > 0 { Thread.sleep(forTimeInterval: 0.01) }
        #expect(census.alive == 0)
        #expect(census.made >= 10 && census.made < 20_000, "\(census.made) made")
    }
}

extension DecodeAheadTests.Outcome: CustomStringConvertible {
    var description: String {
        switch self {
        case .value(let item): "value \(item.id)"
        case .error(_, let description): description
        }
    }
}
