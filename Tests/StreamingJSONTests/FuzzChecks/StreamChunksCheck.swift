// SPDX-License-Identifier: Apache-2.0
import Foundation
@testable import StreamingJSON

/// Fuzz target `stream`: a document streamed as `JSONValue` elements from an
/// async sequence split where the fuzzer chooses, and pushed through
/// `JSONElementFeed` in the same pieces.
///
/// Input: one header byte, then up to seven chunk sizes, then the document.
///   header bits 0-2  how many chunk-size bytes follow (0: one chunk)
///          bits 3-4  format: auto, array, jsonLines, objectValues
///          bit  5    an async sequence of single bytes instead of chunks
///          bit  6    stream at the key path ["a"]
///          bit  7    maxElementBytes 48 (then no comparison with `decode`)
/// Chunk sizes are used in turn until the document is used up; a size of 0
/// hands over an empty chunk.
///
/// - The split stream gives the same elements and the same errors, in the
///   same order, as the unsplit `elements(of:from: Data)`; so does the feed
///   (whose elements before an error come with the next call, so elements
///   and errors are compared as two lists).
///   (In an array, up to its first syntax error: where the array goes on
///   after damage is decided on the bytes that have arrived, and for some
///   damage that still depends on where the chunks end.)
/// - Parsed on a second thread that decodes half of each batch ahead (as it
///   does for a `Sendable` type such as `JSONValue`), the document gives the
///   same events as the unsplit stream.
/// - A root array streamed whole matches `decode([JSONValue].self)`: the
///   same elements, or, for invalid input, a first syntax error at the same
///   place (the stream may go on after it).
/// - An object streamed with `.objectValues` matches its decoded members.
/// - A plan of pieces whose ranges end where the chunks do gives, piece after
///   piece, the unsplit stream's events when it has no error; any input is
///   planned, scanned and read without a crash (`PiecesCheck.swift`).
public enum StreamChunksCheck {
    public enum Event: CustomStringConvertible {
        case element(JSONValue)
        case error(String)

        public var description: String {
            switch self {
            case .element(let value): return "element \(value)"
            case .error(let message): return "error \(message)"
            }
        }
    }

    public struct Setup {
        public var chunks: [[UInt8]]
        public var document: [UInt8]
        public var format: JSONStreamFormat
        public var bytewise: Bool
        public var path: [String]
        public var maxElementBytes: Int?
    }

    public static func setup(_ input: [UInt8]) -> Setup {
        var reader = FuzzBytes(input)
        let header = reader.next()
        let sizes = (0..<Int(header & 7)).map { _ in Int(reader.next()) }
        let format: JSONStreamFormat = [.auto, .array, .jsonLines, .objectValues][Int(header >> 3) & 3]
        let document = reader.rest
        var chunks: [[UInt8]] = []
        if sizes.isEmpty {
            if !document.isEmpty { chunks = [document] }
        } else {
            var offset = 0
            var turn = 0
            while offset < document.count {
                let size = sizes[turn % sizes.count]
                turn += 1
                chunks.append(Array(document[offset..<min(document.count, offset + size)]))
                offset += size
                if turn > 4 * document.count + 8 { // only empty chunks: hand over the rest
                    chunks.append(Array(document[offset...]))
                    break
                }
            }
        }
        return Setup(chunks: chunks, document: document, format: format,
                     bytewise: header & 0x20 != 0, path: header & 0x40 != 0 ? ["a"] : [],
                     maxElementBytes: header & 0x80 != 0 ? 48 : nil)
    }

    /// Returns the unsplit stream's events.
    public static func run(_ input: [UInt8]) async throws -> [Event] {
        let setup = setup(input)
        let decoder = StreamingJSONDecoder()
        decoder.maxElementBytes = setup.maxElementBytes
        let limit = setup.document.count + 2  // every event uses up at least one byte
        let reference = try unsplit(setup, decoder: decoder, limit: limit)

        let pipelined = StreamingJSONDecoder()
        pipelined.maxElementBytes = setup.maxElementBytes
        pipelined.pipelining = .always
        pipelined.decodeAheadShare = 8
        let ahead = try unsplit(setup, decoder: pipelined, limit: limit)
        // (libFuzzer checks for leaks after each input: let the thread finish.)
        _ParsingThreads.waitUntilNoneRunning(timeout: 10)
        try require(same(comparable(ahead, setup), comparable(reference, setup)),
                    "decoded ahead \(ahead.prefix(8)) differs from unsplit \(reference.prefix(8))")

        let streamed: [Event]
        if setup.bytewise {
            streamed = try await events(decoder.elements(of: JSONValue.self, from: FuzzAsyncBytes(setup.chunks.joined()),
                                                         at: setup.path, format: setup.format),
                                        in: setup.document, limit: limit)
        } else {
            streamed = try await events(decoder.elements(of: JSONValue.self, from: FuzzAsyncChunks(setup.chunks),
                                                         at: setup.path, format: setup.format),
                                        in: setup.document, limit: limit)
        }
        try require(same(comparable(streamed, setup), comparable(reference, setup)),
                    "split stream \(streamed.prefix(8)) differs from unsplit \(reference.prefix(8))")

        try checkFeed(setup, decoder: decoder, reference: reference, limit: limit)
        try checkAgainstDecode(setup, decoder: decoder, reference: reference)
        try checkPieces(setup, decoder: decoder, reference: reference, limit: limit)
        return reference
    }

    /// Whether `error` ends the stream that threw it (a syntax error flagged
    /// so, or an error that is no `DecodingError`).
    static func endsTheStream(_ error: any Error) -> Bool {
        (error as? DecodingError)?.endsStream ?? true
    }

    /// The events of the synchronous iterator over the whole document.
    private static func unsplit(_ setup: Setup, decoder: StreamingJSONDecoder, limit: Int) throws -> [Event] {
        try events(decoder.elements(of: JSONValue.self, from: Data(setup.document), at: setup.path,
                                    format: setup.format), in: setup.document, limit: limit)
    }

    /// The events of the synchronous iterator over `elements`, appended to
    /// `events`, which may hold no more than `limit`.
    static func events(_ elements: JSONElements<JSONValue>, in document: [UInt8], limit: Int,
                       after earlier: [Event] = []) throws -> [Event] {
        var events = earlier
        var iterator = elements.makeIterator()
        while true {
            do {
                guard let value = try iterator.next() else { break }
                events.append(.element(value))
            } catch {
                events.append(.error(try describe(error, in: document)))
                if Self.endsTheStream(error) { break }  // thrown again by every later call
            }
            try require(events.count <= limit, "more events than bytes: \(events.prefix(8))")
        }
        return events
    }

    private static func events<S: AsyncSequence>(_ sequence: S, in document: [UInt8], limit: Int) async throws
        -> [Event] where S.Element == JSONValue {
        var events: [Event] = []
        var iterator = sequence.makeAsyncIterator()
        while true {
            do {
                guard let value = try await iterator.next() else { break }
                events.append(.element(value))
            } catch {
                events.append(.error(try describe(error, in: document)))
                if Self.endsTheStream(error) { break }  // thrown again by every later call
            }
            try require(events.count <= limit, "more events than bytes: \(events.prefix(8))")
        }
        return events
    }

    /// The feed, given the same chunks, delivers the same elements and errors.
    ///
    /// Its contract: a call returns the elements decoded before the first
    /// error it reached, and the next call throws that error; after an error
    /// that ends the stream (anything but a malformed JSON Lines value) every
    /// call throws it again. So finish() is called until it returns nothing,
    /// or an error repeats.
    private static func checkFeed(_ setup: Setup, decoder: StreamingJSONDecoder, reference: [Event],
                                  limit: Int) throws {
        let feed = JSONElementFeed(of: JSONValue.self, decoder: decoder, at: setup.path, format: setup.format)
        var elements: [JSONValue] = []
        var errors: [String] = []
        var ended = false
        for chunk in setup.chunks where !ended {
            do {
                elements += try feed.feed(chunk)
            } catch {
                let message = try describe(error, in: setup.document)
                ended = message == errors.last
                if !ended { errors.append(message) }
            }
        }
        var calls = 0
        while !ended {
            calls += 1
            try require(calls <= limit, "finish() neither ends nor repeats its error: \(errors.suffix(3))")
            do {
                let more = try feed.finish()
                if more.isEmpty { break }
                elements += more
            } catch {
                let message = try describe(error, in: setup.document)
                if message == errors.last { break }
                errors.append(message)
            }
        }
        let compared = comparable(reference, setup)
        let referenceElements = compared.compactMap { if case .element(let v) = $0 { return v } else { return nil } }
        let referenceErrors = compared.compactMap { if case .error(let e) = $0 { return e } else { return nil } }
        if case .error(let last)? = compared.last, last.hasPrefix("syntax error"), setup.format != .jsonLines {
            // Cut after an array's first syntax error.
            elements = Array(elements.prefix(referenceElements.count))
            errors = Array(errors.prefix(referenceErrors.count))
        }
        try require(elements.count == referenceElements.count
                        && zip(elements, referenceElements).allSatisfy { FuzzJSON.identical($0, $1) },
                    "feed gave \(elements.prefix(8)), the stream \(referenceElements.prefix(8))")
        try require(errors == referenceErrors, "feed threw \(errors.prefix(4)), the stream \(referenceErrors.prefix(4))")
    }

    /// The first byte after whitespace and a byte order mark.
    static func firstByte(of document: [UInt8]) -> UInt8? {
        let body = document.starts(with: [0xEF, 0xBB, 0xBF]) ? document.dropFirst(3) : document[...]
        return body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    }

    /// Streaming a root array (or the members of a root object) agrees with
    /// decoding the whole document.
    private static func checkAgainstDecode(_ setup: Setup, decoder: StreamingJSONDecoder, reference: [Event]) throws {
        guard setup.path.isEmpty, setup.maxElementBytes == nil else { return }
        let data = Data(setup.document)
        let opening = firstByte(of: setup.document)
        // The first error: an array goes on after a syntax error, so the
        // stream's first error (not its last event) is decode's.
        let streamError = reference.lazy.compactMap { if case .error(let e) = $0 { return e } else { return nil } }.first
        let streamed = reference.compactMap { if case .element(let v) = $0 { return v } else { return nil } }
        let decoded: Result<[JSONValue], any Error>
        let isArray = setup.format == .array || setup.format == .auto && opening == UInt8(ascii: "[")
        if isArray {
            decoded = Result { try decoder.decode([JSONValue].self, from: data) }
        } else if setup.format == .objectValues {
            decoded = Result {
                let whole = try decoder.decode(JSONValue.self, from: data)
                guard case .object(let object) = whole else { throw FuzzViolation("not an object") }
                // A repeated key is one member of the value but two elements of the stream.
                return object.count == streamed.count ? object.values : streamed
            }
        } else {
            return
        }
        switch decoded {
        case .success(let elements):
            try require(streamError == nil, "decode accepts what the stream rejects: \(streamError ?? "")")
            try require(elements.count == streamed.count && zip(elements, streamed).allSatisfy { FuzzJSON.identical($0, $1) },
                        "decode gives \(elements.prefix(8)), the stream \(streamed.prefix(8))")
        case .failure(let error):
            try require(streamError != nil, "the stream accepts what decode rejects: \(error)")
            // Both see the same syntax error, unless the stream stopped first
            // at a root of the wrong kind.
            if let syntax = syntaxError(of: error), isArray && opening == UInt8(ascii: "[")
                || setup.format == .objectValues && opening == UInt8(ascii: "{") {
                try require(streamError!.hasPrefix(position(syntax)),
                            "decode's syntax error \(syntax) differs from the stream's \(streamError!)")
            }
        }
    }

    /// An error as compared between runs: a syntax error by its position and
    /// message (checked against the input), anything else by its description.
    static func describe(_ error: any Error, in document: [UInt8]) throws -> String {
        guard let decoding = error as? DecodingError else {
            throw FuzzViolation("a stream threw a non-DecodingError: \(error)")
        }
        if let syntax = syntaxError(of: decoding) {
            try syntax.checkPosition(in: document)
            return position(syntax) + " " + syntax.message
        }
        return "\(decoding)"
    }

    private static func position(_ syntax: JSONSyntaxError) -> String {
        "syntax error at \(syntax.byteOffset):\(syntax.line):\(syntax.column)"
    }

    /// The events that must agree however the input arrives: all of them,
    /// but in an array, those up to its first syntax error. Where an array
    /// goes on after damage is verified on the bytes that have arrived, and
    /// for some damage that decision can still depend on where chunks end.
    static func comparable(_ events: [Event], _ setup: Setup) -> [Event] {
        guard setup.format != .jsonLines,
              let first = events.firstIndex(where: { if case .error(let e) = $0 { return e.hasPrefix("syntax error") } else { return false } })
        else { return events }
        return Array(events[...first])
    }

    static func same(_ a: [Event], _ b: [Event]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy {
            switch ($0, $1) {
            case (.element(let x), .element(let y)): return FuzzJSON.identical(x, y)
            case (.error(let x), .error(let y)): return x == y
            default: return false
            }
        }
    }
}

/// Chunks handed out by an async sequence, without suspending.
struct FuzzAsyncChunks: AsyncSequence {
    typealias Element = [UInt8]
    let chunks: [[UInt8]]

    init(_ chunks: [[UInt8]]) {
        self.chunks = chunks
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: ArraySlice<[UInt8]>
        mutating func next() async -> [UInt8]? { remaining.popFirst() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: chunks[...]) }
}

/// Single bytes handed out by an async sequence (as `URLSession.FuzzAsyncBytes` does).
struct FuzzAsyncBytes: AsyncSequence {
    typealias Element = UInt8
    let bytes: [UInt8]

    init(_ bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: ArraySlice<UInt8>
        mutating func next() async -> UInt8? { remaining.popFirst() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: bytes[...]) }
}
