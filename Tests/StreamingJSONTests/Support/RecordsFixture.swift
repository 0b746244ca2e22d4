// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny deterministic random number generator (xorshift64*), so that every
/// run of the tests builds the same fixture and the same chunk splits.
struct XorShift: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// A value in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

/// ~500 realistic records written as JSON text by hand (so the text holds the
/// escapes and spellings we want), together with the Swift values they mean.
enum RecordsFixture {
    struct Location: Codable, Equatable, Sendable {
        var city: String
        var coordinates: [Double]
        var code: Int?
    }

    struct Item: Codable, Equatable, Sendable {
        var sku: String
        var quantity: Int
        var price: Double?
        var attributes: [String: String]
    }

    struct Record: Codable, Equatable, Sendable {
        var id: Int
        var serial: UInt64
        var score: Double
        var ratio: Double?
        var name: String
        var note: String?
        var created: Date
        var updated: Date?
        var active: Bool
        var tags: [String]
        var location: Location?
        var items: [Item]
        var matrix: [[Int]]
    }

    struct Fixture: Sendable {
        /// The records that decode (without the broken one, if any).
        var records: [Record]
        /// `[ r0,\n r1, … ]`
        var array: Data
        /// One record per line, LF-terminated.
        var lines: Data
    }

    /// Pieces of string content: how they are written in JSON, what they mean.
    static let stringPieces: [(json: String, value: String)] = [
        (#"\""#, "\""), (#"\\"#, "\\"), (#"\n"#, "\n"), (#"\t"#, "\t"), (#"\u00e9"#, "é"),
        (#"\ud83c\udf7a"#, "🍺"), ("é", "é"), ("東京", "東京"), ("🍺", "🍺"), (#"\/"#, "/"),
        ("/", "/"), ("Saint Arnold", "Saint Arnold"), ("IPA", "IPA"), (" ", " "), (#"\r\b\f"#, "\r\u{8}\u{C}"),
        (#"\u0041\u00DF"#, "Aß"), ("ü-Ω", "ü-Ω"), ("€", "€"),
    ]

    static let standard = make(count: 500, seed: 0x5EED_CAFE)

    /// The decoder every fixture test uses (dates are ISO-8601 strings).
    static func decoder(_ base: StreamingJSONDecoder = StreamingJSONDecoder()) -> StreamingJSONDecoder {
        base.dateDecodingStrategy = .iso8601
        return base
    }

    /// `badAt`: that record's `id` is written as a string, so it fails to decode
    /// (`typeMismatch` at `[Index badAt, id]`) and is left out of `records`.
    static func make(count: Int, seed: UInt64, badAt: Int? = nil) -> Fixture {
        var rng = XorShift(seed: seed)
        var records: [Record] = []
        var texts: [String] = []
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]

        func string(_ label: String) -> (String, String) {
            var json = label, value = label
            for _ in 0..<(1 + rng.below(6)) {
                let piece = stringPieces[rng.below(stringPieces.count)]
                json += piece.json
                value += piece.value
            }
            return ("\"" + json + "\"", value)
        }
        func double() -> Double {
            switch rng.below(5) {
            case 0: return Double(rng.below(2_000_001) - 1_000_000) / 1000
            case 1: return Double(rng.below(999) + 1) * 1e-300
            case 2: return Double(rng.below(999) + 1) * 1e290
            case 3: return Double(rng.below(100))
            default: return Double(bitPattern: rng.next() & 0x3FEF_FFFF_FFFF_FFFF)  // in [0, 2)
            }
        }
        func date(_ fraction: Bool) -> (String, Date) {
            let seconds = Double(946_684_800 + rng.below(1_000_000_000))
            let date = Date(timeIntervalSince1970: fraction ? seconds + 0.25 : seconds)
            return ("\"" + (fraction ? fractional : plain).string(from: date) + "\"", date)
        }

        for index in 0..<count {
            var members: [String] = []
            let id: Int
            switch index % 50 {
            case 7: id = .min
            case 8: id = .max
            default: id = Int(truncatingIfNeeded: rng.next()) >> rng.below(60)
            }
            members.append(index == badAt ? #""id": "\#(id)""# : #""id": \#(id)"#)
            let serial: UInt64
            switch index % 4 {
            case 0: serial = UInt64(Int64.max) + 1 + rng.next() % 1_000_000_000_000  // past Int64.max
            case 1: serial = index % 40 == 1 ? .max : rng.next()
            default: serial = rng.next() >> 40
            }
            members.append(#""serial": \#(serial)"#)
            let score = double()
            members.append(#""score": \#(score)"#)
            let ratio: Double? = rng.chance(30) ? nil : double()
            members.append(#""ratio": \#(ratio.map { "\($0)" } ?? "null")"#)
            let (nameJSON, name) = string("n\(index) ")
            members.append(#""name": \#(nameJSON)"#)
            var note: String?
            switch rng.below(3) {
            case 0: members.append(#""note": null"#)
            case 1: break  // absent
            default:
                let (json, value) = string("")
                note = value
                members.append(#""note": \#(json)"#)
            }
            let (createdJSON, created) = date(false)
            members.append(#""created": \#(createdJSON)"#)
            var updated: Date?
            if rng.chance(50) {
                let (json, value) = date(rng.chance(50))
                updated = value
                members.append(#""updated": \#(json)"#)
            } else {
                members.append(#""updated": null"#)
            }
            let active = rng.chance(50)
            members.append(#""active": \#(active)"#)
            var tags: [String] = [], tagsJSON: [String] = []
            for tag in 0..<rng.below(4) {
                let (json, value) = string("t\(tag)")
                tags.append(value)
                tagsJSON.append(json)
            }
            members.append(#""tags": [\#(tagsJSON.joined(separator: ", "))]"#)
            var location: Location?
            if rng.chance(70) {
                let (cityJSON, city) = string(["東京", "Zürich", "Houston"][rng.below(3)])
                let coordinates = (0..<rng.below(3)).map { _ in double() }
                let code: Int? = rng.chance(50) ? rng.below(100_000) : nil
                location = Location(city: city, coordinates: coordinates, code: code)
                var parts = [#""city": \#(cityJSON)"#, #""coordinates": [\#(coordinates.map { "\($0)" }.joined(separator: ","))]"#]
                if let code { parts.append(#""code": \#(code)"#) }
                members.append(#""location": {\#(parts.joined(separator: ", "))}"#)
            } else {
                members.append(#""location": null"#)
            }
            var items: [Item] = [], itemsJSON: [String] = []
            for number in 0..<rng.below(4) {
                let (skuJSON, sku) = string("sku-\(number)-")
                let quantity = rng.below(1000) - 10
                let price: Double? = rng.chance(20) ? nil : double()
                var attributes: [String: String] = [:], attributesJSON: [String] = []
                for key in ["colour", "東京", "k\\\"q"].prefix(rng.below(4)) {
                    let (json, value) = string("")
                    attributes[key.replacingOccurrences(of: "\\\"", with: "\"")] = value
                    attributesJSON.append(#""\#(key)": \#(json)"#)
                }
                items.append(Item(sku: sku, quantity: quantity, price: price, attributes: attributes))
                itemsJSON.append(#"{"sku": \#(skuJSON), "quantity": \#(quantity), "price": \#(price.map { "\($0)" } ?? "null"), "attributes": {\#(attributesJSON.joined(separator: ", "))}}"#)
            }
            members.append(#""items": [\#(itemsJSON.joined(separator: ", "))]"#)
            let matrix = (0..<rng.below(3)).map { _ in (0..<rng.below(4)).map { _ in rng.below(2_000) - 1_000 } }
            members.append(#""matrix": [\#(matrix.map { "[" + $0.map(String.init).joined(separator: ",") + "]" }.joined(separator: ","))]"#)
            // Key order varies from record to record.
            members.shuffle(using: &rng)
            texts.append("{" + members.joined(separator: ", ") + "}")
            if index != badAt {
                records.append(Record(id: id, serial: serial, score: score, ratio: ratio, name: name, note: note,
                                      created: created, updated: updated, active: active, tags: tags,
                                      location: location, items: items, matrix: matrix))
            }
        }
        return Fixture(records: records,
                       array: Data(("[\n" + texts.joined(separator: ",\n") + "\n]\n").utf8),
                       lines: Data(texts.map { $0 + "\n" }.joined().utf8))
    }
}

// MARK: Byte sources for tests

enum Chunks {
    /// `data` cut into pieces of 1…`maxSize` bytes, at seeded random places.
    static func random(_ data: Data, seed: UInt64, maxSize: Int = 5_000) -> [[UInt8]] {
        var rng = XorShift(seed: seed)
        let bytes = [UInt8](data)
        var pieces: [[UInt8]] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + 1 + rng.below(maxSize))
            pieces.append(Array(bytes[start..<end]))
            start = end
        }
        return pieces
    }

    /// `data` cut into pieces of exactly `size` bytes (the last may be shorter).
    static func fixed(_ data: Data, size: Int) -> [[UInt8]] {
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
    }

    static func stream(_ pieces: [[UInt8]]) -> AsyncStream<[UInt8]> {
        AsyncStream { continuation in
            for piece in pieces { continuation.yield(piece) }
            continuation.finish()
        }
    }

    static func dataStream(_ pieces: [[UInt8]]) -> AsyncStream<Data> {
        AsyncStream { continuation in
            for piece in pieces { continuation.yield(Data(piece)) }
            continuation.finish()
        }
    }

    /// Hands out one byte per `next()`, letting other tasks run now and then
    /// (a long run of `next()` calls that never suspend would hold a thread of
    /// the shared pool that the tests timing delivery need).
    static func byteStream(_ data: Data) -> AsyncStream<UInt8> {
        let bytes = [UInt8](data)
        let cursor = SharedCounter()
        return AsyncStream(unfolding: {
            let index = cursor.increment() - 1
            if index % 4096 == 4095 { await Task.yield() }
            return index < bytes.count ? bytes[index] : nil
        })
    }
}

/// Results of a stream, read to its end with every error recorded (a stream
/// that should go on after an error is read on).
struct Outcome<T> {
    var elements: [T] = []
    var errors: [any Error] = []
}

enum Collect {
    /// Every element and error, as a loop that catches errors and goes on
    /// would see them; it stops at an error that ends the stream (a syntax
    /// error flagged `endsStream`, a system error), after checking that the
    /// next call throws it again (the stream never ends quietly).
    static func sync<T>(_ elements: JSONElements<T>, limit: Int = 100_000) -> Outcome<T> {
        var outcome = Outcome<T>()
        var iterator = elements.makeIterator()
        for _ in 0..<limit {
            do {
                guard let element = try iterator.next() else { break }
                outcome.elements.append(element)
            } catch {
                outcome.errors.append(error)
                if endsTheStream(error) {
                    expectThrownAgain(error) { _ = try iterator.next() }
                    break
                }
            }
        }
        return outcome
    }

    static func async<T, S>(_ elements: AsyncJSONElements<T, S>, limit: Int = 100_000) async -> Outcome<T> {
        var outcome = Outcome<T>()
        var iterator = elements.makeAsyncIterator()
        for _ in 0..<limit {
            do {
                guard let element = try await iterator.next() else { break }
                outcome.elements.append(element)
            } catch {
                outcome.errors.append(error)
                if endsTheStream(error) {
                    do {
                        _ = try await iterator.next()
                        Issue.record("the call after \(streamErrorText(error)) did not throw")
                    } catch let again {
                        #expect(streamErrorText(again) == streamErrorText(error))
                    }
                    break
                }
            }
        }
        return outcome
    }

    /// Whether `error` ends the stream that threw it.
    static func endsTheStream(_ error: any Error) -> Bool {
        guard let decoding = error as? DecodingError else { return true }
        return decoding.endsStream
    }

    private static func expectThrownAgain(_ error: any Error, _ call: () throws -> Void) {
        do {
            try call()
            Issue.record("the call after \(streamErrorText(error)) did not throw")
        } catch let again {
            #expect(streamErrorText(again) == streamErrorText(error))
        }
    }

    /// Feeds every piece, then finishes; an error thrown by one call is recorded
    /// and feeding goes on. A syntax error thrown again by later calls (a stream
    /// that cannot go on) is recorded once.
    static func feed<T>(_ feed: JSONElementFeed<T>, _ pieces: [[UInt8]]) -> Outcome<T> {
        var outcome = Outcome<T>()
        var seen: Set<JSONSyntaxError> = []
        func record(_ error: any Error) -> Bool {
            if let syntax = streamSyntaxError(error) {
                if seen.contains(syntax) { return false }
                seen.insert(syntax)
            }
            outcome.errors.append(error)
            return true
        }
        for piece in pieces {
            do { outcome.elements += try feed.feed(piece) } catch { _ = record(error) }
        }
        // finish() is called until it has nothing more: each call returns the
        // elements before the next error, which the call after throws.
        for _ in 0..<10_000 {
            do {
                let more = try feed.finish()
                if more.isEmpty { break }
                outcome.elements += more
            } catch {
                if !record(error) { break }
            }
        }
        return outcome
    }
}

/// A counter shared between threads and tasks.
final class SharedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    /// Adds one; returns the new value.
    @discardableResult
    func increment() -> Int { lock.lock(); defer { lock.unlock() }; count += 1; return count }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

enum Pipes {
    /// Writes everything with write(2); false when the reader went away.
    /// SIGPIPE is ignored so a closed pipe is an error, not the end of the process.
    @discardableResult
    static func write(_ bytes: [UInt8], to handle: FileHandle) -> Bool {
        signal(SIGPIPE, SIG_IGN)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { buffer in
                #if canImport(Glibc)
                Glibc.write(handle.fileDescriptor, buffer.baseAddress, buffer.count)
                #else
                Darwin.write(handle.fileDescriptor, buffer.baseAddress, buffer.count)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}

/// What a thrown error says: the syntax error's message and the context's description.
func streamErrorText(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(type(of: error)): \(error)" }
    switch error {
    case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
         .keyNotFound(_, let context):
        return context.debugDescription + " | " + (context.underlyingError.map { "\($0)" } ?? "")
    @unknown default:
        return "\(error)"
    }
}

/// The coding path of a `DecodingError`, as strings; nil for other errors.
func streamErrorPath(_ error: any Error) -> [String]? {
    guard let error = error as? DecodingError else { return nil }
    switch error {
    case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
         .keyNotFound(_, let context):
        return context.codingPath.map(\.stringValue)
    @unknown default:
        return nil
    }
}

/// The `JSONSyntaxError` under a `DecodingError.dataCorrupted`, if any.
func streamSyntaxError(_ error: any Error) -> JSONSyntaxError? {
    guard case DecodingError.dataCorrupted(let context)? = error as? DecodingError else { return nil }
    return context.underlyingError as? JSONSyntaxError
}

/// Compares element lists, reporting counts and the first difference only
/// (a record prints long; 500 of them drown the log).
func expectSameElements<T: Equatable>(_ got: [T], _ expected: [T], _ comment: @autoclosure () -> String = "",
                                      sourceLocation: SourceLocation = #_sourceLocation) {
    guard got != expected else { return }
    let first = (0..<min(got.count, expected.count)).first { got[$0] != expected[$0] } ?? min(got.count, expected.count)
    let detail = first < min(got.count, expected.count) ? "\ngot      \(got[first])\nexpected \(expected[first])" : ""
    Issue.record("\(comment()): \(got.count) elements, expected \(expected.count); first difference at index \(first)\(detail)",
                 sourceLocation: sourceLocation)
}
