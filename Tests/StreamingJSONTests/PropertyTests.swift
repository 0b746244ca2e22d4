// SPDX-License-Identifier: Apache-2.0
import Foundation
import PropertyBased
import Testing
@testable import StreamingJSON

/// Property-based tests (x-sheep/swift-property-based): random values and
/// documents instead of hand-picked ones. Generators are in
/// PropertyTests+Generators.swift.
///
/// A failure prints the input (shrunk to a small one when the shrinker finds
/// it, with the original beside it) and a seed: add
/// `.fixedSeed("…")` to the `@Test` to replay exactly that case (the trait
/// always reports an issue, so never commit it). Each property runs its
/// cases in at most a few seconds of a debug build; `PROPERTY_SCALE=20 swift
/// test --filter PropertyTests` runs twenty times as many.
///
/// The suite runs on a thread of its own (`.onItsOwnThread`): thousands of
/// cases that never suspend would otherwise hold one of the cooperative
/// pool's threads (two on a 2-core machine) for seconds, keeping the async
/// tests beside them waiting.
@Suite(.onItsOwnThread) struct PropertyTests {
    /// Multiplies every property's number of cases (environment `PROPERTY_SCALE`, default 1).
    static let scale = max(1, Int(ProcessInfo.processInfo.environment["PROPERTY_SCALE"] ?? "") ?? 1)

    // MARK: 1. Values round-trip through the encoder and the decoder

    /// `decode(encode(v)) == v` (jq's equality), and encoding the decoded
    /// value again gives the same bytes (numbers keep their text, strings
    /// their scalars, objects their key order), with every output formatting.
    @Test func encodedValuesDecodeToThemselves() async {
        await propertyCheck(count: 600 * Self.scale, input: JSONValueGen.value(), Gen<UInt>.value(in: 0...15)) { value, bits in
            let encoder = StreamingJSONEncoder()
            encoder.outputFormatting = StreamingJSONEncoder.OutputFormatting(rawValue: bits & 0b1011)
            let bytes: Data
            do {
                bytes = try encoder.encode(value)
            } catch {
                Issue.record("encoding \(value) with formatting \(bits & 0b1011) threw \(error)")
                return
            }
            do {
                let decoded = try StreamingJSONDecoder().decode(JSONValue.self, from: bytes)
                #expect(decoded == value, "decoded \(decoded) from \(showBytes(bytes))")
                #expect(decoded.hashValue == value.hashValue, "equal values hash alike: \(value)")
                let again = try encoder.encode(decoded)
                #expect(again == bytes, "re-encoded \(showBytes(again))\nfirst time \(showBytes(bytes))")
            } catch {
                Issue.record("decoding \(showBytes(bytes)) threw \(error)")
            }
        }
    }

    /// The decoder reads any valid spelling of a value (whitespace anywhere,
    /// any escape, duplicate keys) back to exactly that value: same scalars,
    /// same number text, same key order (compared through the jq writer,
    /// which is stricter than `==`).
    @Test func anySpellingDecodesToTheValueSpelled() async {
        await propertyCheck(count: 600 * Self.scale, input: JSONValueGen.value(), Gen<UInt64>.value()) { value, seed in
            var spelling = RandomSpelling(seed: seed)
            var bytes: [UInt8] = []
            spelling.space(&bytes)
            spelling.write(value, into: &bytes)
            spelling.space(&bytes)
            do {
                let decoded = try StreamingJSONDecoder().decode(JSONValue.self, from: Data(bytes))
                #expect(decoded.description == value.description,
                        "decoded \(decoded.description) from \(showBytes(bytes)), expected \(value.description)")
                #expect(decoded == value)
            } catch {
                Issue.record("decoding \(showBytes(bytes)) threw \(error)")
            }
        }
    }

    // MARK: 2. Any chunking of a valid document gives the same elements

    /// A document split anywhere (1-byte chunks, random cuts inside escapes,
    /// multi-byte characters, numbers, literals; empty chunks) gives the
    /// elements it was written from, through every way bytes reach the
    /// decoder: Data, async chunks, async single bytes, `JSONElementFeed`.
    @Test func anyChunkingGivesTheSameElements() async {
        await propertyCheck(count: 300 * Self.scale, input: StreamDocument.generator(), ChunkPlan.generator) { document, plan in
            let bytes = document.text
            let chunks = plan.chunks(of: bytes)
            let decoder = StreamingJSONDecoder()
            let expected = document.elements.map(\.description)
            func check(_ outcome: Outcome<JSONValue>, _ via: String) {
                #expect(outcome.errors.isEmpty, "\(via): \(outcome.errors) reading \(showBytes(bytes))")
                #expect(outcome.elements.map(\.description) == expected,
                        "\(via): \(outcome.elements) from \(showBytes(bytes)), expected \(document.elements)")
            }

            let whole = decoder.elements(of: JSONValue.self, from: Data(bytes), at: document.path, format: document.format)
            check(Collect.sync(whole, limit: 1000), "Data")
            let asyncChunks = decoder.elements(of: JSONValue.self, from: ChunkSequence(chunks: chunks),
                                               at: document.path, format: document.format)
            check(await Collect.async(asyncChunks, limit: 1000), "async chunks")
            let asyncBytes = decoder.elements(of: JSONValue.self, from: ByteSequence(bytes: bytes),
                                              at: document.path, format: document.format)
            check(await Collect.async(asyncBytes, limit: 1000), "async bytes")
            let feed = JSONElementFeed(of: JSONValue.self, decoder: decoder, at: document.path, format: document.format)
            check(Collect.feed(feed, chunks), "JSONElementFeed")

            // The whole-document decode of a root array agrees too.
            if document.shape == .rootArray {
                do {
                    let array = try decoder.decode([JSONValue].self, from: Data(bytes))
                    #expect(array.map(\.description) == expected, "decode([JSONValue]) of \(showBytes(bytes))")
                } catch {
                    Issue.record("decode([JSONValue]) of \(showBytes(bytes)) threw \(error)")
                }
            }
        }
    }

    // MARK: 3. A corrupted byte is never reported before it

    /// One byte of a valid document replaced by another: reading it either
    /// succeeds or fails with a `JSONSyntaxError` at or after the replaced
    /// byte (every byte before it belongs to a valid prefix, so none of them
    /// can be the first that could not be accepted), with the line and
    /// column of that offset. Checked for a whole-document decode, the sync
    /// elements over Data and the feed with random chunks; a failure names
    /// the document, the position and the byte.
    @Test func aCorruptedByteIsNeverReportedBeforeItself() async {
        let shapes: [StreamDocument.Shape] = [.rootArray, .rootArray, .lines, .keyPath, .objectValues]
        await propertyCheck(count: 1500 * Self.scale, input: Corruption.generator(shapes: shapes)) { corruption in
            guard let (bytes, position) = corruption.corrupted else { return }
            let document = corruption.document
            func check(_ error: any Error, _ via: String) {
                guard let syntax = syntaxError(in: error) else {
                    Issue.record("\(via): \(error) is not a JSONSyntaxError (byte \(position) of \(showBytes(bytes)))")
                    return
                }
                #expect(syntax.byteOffset >= position && syntax.byteOffset <= bytes.count,
                        "\(via): \"\(syntax)\" for the byte corrupted at \(position) in \(showBytes(bytes))")
                let (line, column) = expectedLineAndColumn(of: syntax.byteOffset, in: bytes)
                #expect(syntax.line == line && syntax.column == column,
                        "\(via): \"\(syntax)\" but byte \(syntax.byteOffset) is at line \(line), column \(column) in \(showBytes(bytes))")
            }

            let decoder = StreamingJSONDecoder()
            // (JSON Lines of several values is not one document to begin with.)
            if document.shape != .lines {
                do {
                    _ = try decoder.decode(JSONValue.self, from: Data(bytes))
                } catch {
                    check(error, "decode(JSONValue)")
                }
            }
            let elements = decoder.elements(of: JSONValue.self, from: Data(bytes), at: document.path, format: document.format)
            for error in Collect.sync(elements, limit: 1000).errors { check(error, "elements(\(document.format))") }
            let feed = JSONElementFeed(of: JSONValue.self, decoder: decoder, at: document.path, format: document.format)
            for error in Collect.feed(feed, corruption.chunks.chunks(of: bytes)).errors {
                check(error, "JSONElementFeed(\(document.format))")
            }
        }
    }
}

extension PropertyTests {
    /// The generators make what the properties rely on: a fixed seed, a few
    /// hundred draws, and counts of the awkward cases (a generator that
    /// quietly stopped making them would leave the properties vacuous).
    @Test func generatorsMakeTheAwkwardCases() throws {
        #expect(SerialThreadExecutor.isCurrent, "the suite runs off the cooperative pool")
        var rng = Xoshiro(seed: (1, 2, 3, 4))
        let values = (0..<400).map { _ in JSONValueGen.value().run(using: &rng) }
        var kinds: [String: Int] = [:]
        func visit(_ value: JSONValue, depth: Int) {
            kinds["depth \(depth)", default: 0] += 1
            switch value {
            case .number(let number):
                if number.literal == nil { kinds["computed double", default: 0] += 1 }
                if let text = number.literal, text.filter(\.isNumber).count > 20 { kinds["long literal", default: 0] += 1 }
                if let text = number.literal, text.contains(where: { $0 == "e" || $0 == "E" }) { kinds["exponent", default: 0] += 1 }
            case .string(let string):
                for scalar in string.unicodeScalars {
                    if scalar.value < 0x20 { kinds["control", default: 0] += 1 }
                    if scalar == "\"" || scalar == "\\" { kinds["quote or backslash", default: 0] += 1 }
                    if scalar.value > 0xFFFF { kinds["astral", default: 0] += 1 }
                }
            case .array(let array):
                if array.isEmpty { kinds["empty array", default: 0] += 1 }
                array.forEach { visit($0, depth: depth + 1) }
            case .object(let object):
                if object.count >= 3 { kinds["object of 3+", default: 0] += 1 }
                object.values.forEach { visit($0, depth: depth + 1) }
            default:
                break
            }
        }
        values.forEach { visit($0, depth: 0) }
        let nodes = kinds.filter { $0.key.hasPrefix("depth") }.values.reduce(0, +)
        #expect(nodes >= 400 * 8, "\(nodes) values in 400 trees")
        for kind in ["computed double", "long literal", "exponent", "control", "quote or backslash", "astral",
                     "empty array", "object of 3+", "depth 3"] {
            #expect(kinds[kind, default: 0] >= 10, "only \(kinds[kind, default: 0]) of \(kind) in \(kinds)")
        }

        // Spellings use every kind of escape and whitespace, and duplicate keys.
        var text = ""
        for (index, value) in values.enumerated() {
            var spelling = RandomSpelling(seed: UInt64(index))
            var bytes: [UInt8] = []
            spelling.write(value, into: &bytes)
            text += String(decoding: bytes, as: UTF8.self)
        }
        for needle in [#"\u00"#, #"\uD8"#, #"\ud8"#, #"\/"#, #"\n"#, #"\""#, #"\\"#, "\r\n", "\t", #""decoy""#] {
            #expect(text.contains(needle), "no \(needle) in the spellings")
        }

        // About half the corruptions are rejected, and some are still valid.
        var rejected = 0, accepted = 0
        let corruptions = Corruption.generator(shapes: [.rootArray])
        for _ in 0..<400 {
            guard let (bytes, _) = corruptions.run(using: &rng).corrupted else { continue }
            if (try? StreamingJSONDecoder().decode(JSONValue.self, from: Data(bytes))) == nil {
                rejected += 1
            } else {
                accepted += 1
            }
        }
        #expect(rejected > 150 && accepted > 20, "\(rejected) rejected, \(accepted) accepted")
    }
}
