// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

/// The unkeyed container of a streamed array: elements are pulled from the
/// parser on demand, so a type's `init(from:)` can decode and drop them one at
/// a time while memory stays bounded by one element.
///
/// `count` is nil (unknown until the end); `isAtEnd` reads just far enough to
/// know whether another element follows. Copies are independent cursors over
/// the one stream: a copy may trail the newest element by one (peek at a
/// `type` field, then decode the element as the concrete type); a copy further
/// behind gets a `DecodingError` instead of unbounded buffering.
struct _IncrementalUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: _TapeDecoder
    let node: _CodingPathNode
    private(set) var currentIndex = 0
    /// Set for the containers the element sequences own: their decoder keeps
    /// keyed containers for reuse while this lives.
    private let shelfScope: _ContainerShelfScope?
    /// Elements before the stream's first, in coding paths: a stream that
    /// begins in the middle of an array (`_PieceDecoder`).
    private let pathIndexBase: Int

    init(decoder: _TapeDecoder, path: _CodingPathNode, shelvesContainers: Bool = false, pathIndexBase: Int = 0) {
        self.decoder = decoder
        self.node = path
        self.pathIndexBase = pathIndexBase
        shelfScope = shelvesContainers ? decoder.shelfScope() : nil
    }

    var codingPath: [any CodingKey] { node.path }
    var count: Int? { nil }

    /// A stream error is not "the end": `isAtEnd` is false so that the next
    /// decode throws it.
    var isAtEnd: Bool {
        (try? decoder.stream.hasElement(currentIndex)) == false
    }

    /// The next element's value index and coding path; throws at the end.
    private func next(_ type: Any.Type) throws -> (index: Int, path: _CodingPathNode) {
        if case .element(let index, let path) = try slot() { return (index, path) }
        throw DecodingError.valueNotFound(type, .init(
            codingPath: node.appending(index: pathIndexBase + currentIndex).path,
            debugDescription: "Unkeyed container is at end."))
    }

    enum Slot {
        case element(index: Int, path: _CodingPathNode)
        case end
        /// A pushed source has no more bytes for now.
        case needsInput
    }

    /// Element `currentIndex`. An element of `.objectValues` is a key token
    /// followed by the value; the key is its coding path.
    private func slot() throws -> Slot {
        let stream = decoder.stream
        let thrownBefore = stream.pendingErrorsThrown
        let lookup: _ElementStream.Lookup
        do {
            lookup = try stream.element(currentIndex)
        } catch {
            // An array's element lost to a syntax error: named in this
            // container's numbering, which counts it.
            guard stream.pendingErrorsThrown != thrownBefore, stream.mode == .array,
                  error.brokenElementIndex != nil else { throw error }
            throw stream.renumbered(error, at: node.appending(index: pathIndexBase + currentIndex
                                                                  + stream.lostElements(before: currentIndex) - 1))
        }
        switch lookup {
        case .end:
            return .end
        case .needsInput:
            return .needsInput
        case .dropped:
            throw decoder.dropped(path: node.appending(index: pathIndexBase + currentIndex))
        case .element(let start):
            let lost = decoder.stream.mode == .array ? decoder.stream.lostElements(before: currentIndex) : 0
            let (index, path) = try decoder.streamedElement(at: start, ordinal: pathIndexBase + currentIndex + lost,
                                                            under: node)
            return .element(index: index, path: path)
        }
    }

    /// Whether the last `nextElement` returned nil, and whether that was
    /// because a pushed source has no more bytes for now (rather than the end).
    private(set) var returnedNil = false
    private(set) var needsInput = false

    /// For the element sequences: decodes the next element, or returns nil at
    /// the end or when input is needed (`needsInput`). Unlike `decode(_:)` it
    /// moves past the element even when decoding it fails, so one bad element
    /// does not poison the stream. (An optional rather than an enum generic
    /// over `T`: that one's metadata was looked up at run time per element.)
    mutating func nextElement<T: Decodable>(_ type: T.Type) throws -> T? {
        switch try slot() {
        case .end:
            returnedNil = true
            needsInput = false
            return nil
        case .needsInput:
            returnedNil = true
            needsInput = true
            return nil
        case .element(let index, let path):
            returnedNil = false
            needsInput = false
            defer { currentIndex += 1 }
            if let decoded = decoder.stream.decodedAhead(covering: currentIndex) {
                return unsafe try unsafeDowncast(decoded, to: _DecodedElementsOf<T>.self).take(currentIndex)
            }
            do {
                return try decoder.decodeStreamedElement(type, at: index, path: path)
            } catch let error as DecodingError where currentIndex == 0 && decoder.stream.guessesMode
                                                        && decoder.stream.mode == .lines {
                throw decoder.objectRootReadAsLines(error, at: index) ?? error
            }
        }
    }

    mutating func decodeNil() throws -> Bool {
        let (index, _) = try next(Never.self)
        guard decoder.isNull(at: index) else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (index, path) = try next(type)
        // `decode([E].self, …)` of a Sendable E: the parsing thread may have
        // decoded this element already (checked cast: a custom root type may
        // read the elements as another type).
        if let decoded = decoder.stream.decodedAhead(covering: currentIndex),
           let block = decoded as? _DecodedElementsOf<T> {
            defer { currentIndex += 1 }
            return try block.take(currentIndex)
        }
        let value = try decoder.unwrap(type, at: index, path: path)
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type) }
    mutating func decode(_ type: String.Type) throws -> String { try decodeValue(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeValue(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeValue(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeValue(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeValue(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeValue(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeValue(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeValue(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeValue(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeValue(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeValue(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeValue(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeValue(type) }

    private mutating func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        let (index, path) = try next(type)
        let value = try decoder.unwrap(type, at: index, path: path)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (index, path) = try next(KeyedDecodingContainer<NestedKey>.self)
        let container = try decoder.keyedContainer(NestedKey.self, at: index, path: path)
        currentIndex += 1
        return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (index, path) = try next((any UnkeyedDecodingContainer).self)
        let container = try decoder.unkeyedContainer(at: index, path: path)
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let (index, path) = try next((any Decoder).self)
        currentIndex += 1
        return decoder.subDecoder(at: index, path: path)
    }
}

extension _TapeDecoder {
    /// The value of the streamed element whose first token is `start`, and
    /// its coding path under `node`: the element's ordinal, or for
    /// `.objectValues` its key (the element is a key token, then the value).
    func streamedElement(at start: Int, ordinal: Int,
                         under node: _CodingPathNode) throws -> (index: Int, path: _CodingPathNode) {
        guard stream.mode == .members else { return (start, node.appending(index: ordinal)) }
        let key = try token(at: start, path: node)
        let name = unsafe String(_validatedUTF8: bytes(of: key))
        return (start + 1, node.appending(_JSONKey(stringValue: name)))
    }

    /// Decodes a streamed element's value; one over `maxElementBytes` throws
    /// its error instead.
    func decodeStreamedElement<T: Decodable>(_ type: T.Type, at index: Int, path: _CodingPathNode) throws -> T {
        if try kind(at: index, path: path) == _Kind.oversized { throw oversized(at: index, path: path) }
        return try unwrap(type, at: index, path: path)
    }
}
