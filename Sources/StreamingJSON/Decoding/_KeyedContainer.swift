import CYajl
import Foundation

/// A keyed container over an object on the tape.
///
/// Keys are matched as bytes: the coding key's UTF-8 is compared with each
/// member's key bytes in the arena, length first, with no `String` made per
/// key. The first occurrence of a duplicate key wins, as in Foundation.
/// Lookups usually come in document order, so each starts where the last one
/// ended (see `_ObjectContext.cursor`). With a key strategy, the converted spellings are computed once per container.
///
/// The container holds one reference: the standard library's type-erasing box
/// copies the container (unspecialized) several times per `decode` call, and
/// each copy retains every reference it holds.
struct _KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let context: _ObjectContext

    init(decoder: _TapeDecoder, object: Int, path: _CodingPathNode) throws {
        let convertedKeys = decoder.usesDefaultKeys ? nil : try decoder.convertedKeys(ofObject: object, path: path)
        context = _ObjectContext(decoder: decoder, object: object, node: path, convertedKeys: convertedKeys)
    }

    @inline(__always) var decoder: _TapeDecoder { context.decoder }
    /// Absolute tape index of the object token.
    @inline(__always) var object: Int { context.object }
    @inline(__always) var node: _CodingPathNode { context.node }
    /// The members' keys as converted by the key strategy, in document order;
    /// nil with `.useDefaultKeys`.
    @inline(__always) private var convertedKeys: [String]? { context.convertedKeys }

    var codingPath: [any CodingKey] { node.path }

    var allKeys: [Key] {
        var seen = Set<String>()
        var keys: [Key] = []
        let names = convertedKeys ?? ((try? decoder.rawKeys(ofObject: object, path: node)) ?? [])
        for name in names where seen.insert(name).inserted {
            if let key = Key(stringValue: name) { keys.append(key) }
        }
        return keys
    }

    /// Absolute index of the value for `key`, or nil when the object has no such member.
    @inline(__always)
    func valueIndex(forKey key: Key) throws -> Int? {
        try valueIndex(named: key.stringValue)
    }

    /// Absolute index of the value of the first member whose (converted) key is `name`.
    func valueIndex(named name: String) throws -> Int? {
        let context = self.context
        if context.convertedKeys != nil { return try context.convertedValueIndex(named: name) }
        // Native strings (coding keys are literals) expose their UTF-8 without a copy.
        if let found = try name.utf8.withContiguousStorageIfAvailable({ try context.valueIndex(ofKey: $0) }) {
            return found
        }
        var copy = name
        return try copy.withUTF8 { try context.valueIndex(ofKey: $0) }
    }

    @inline(__always)
    private func require(_ key: Key) throws -> Int {
        if let index = try valueIndex(forKey: key) { return index }
        throw decoder.keyNotFound(key, inObject: object, path: node)
    }

    func contains(_ key: Key) -> Bool {
        (try? valueIndex(forKey: key)) != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        decoder.isNull(at: try require(key))
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try decoder.decodeBool(at: try require(key), path: node.appending(key))
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.decodeString(at: try require(key), path: node.appending(key))
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.decodeDouble(at: try require(key), path: node.appending(key))
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decoder.decodeFloat(at: try require(key), path: node.appending(key))
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ key: Key) throws -> T {
        try decoder.decodeInteger(T.self, at: try require(key), path: node.appending(key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unwrap(type, at: try require(key), path: node.appending(key))
    }

    // One lookup for `decodeIfPresent` instead of the default contains + decodeNil + decode.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = try valueIndex(forKey: key), !decoder.isNull(at: index) else { return nil }
        return try decoder.unwrap(type, at: index, path: node.appending(key))
    }

    // Concrete overloads: a generic one would look up Optional<T> metadata at run time.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let index = try presentIndex(key) else { return nil }
        return try decoder.decodeBool(at: index, path: node.appending(key))
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let index = try presentIndex(key) else { return nil }
        return try decoder.decodeString(at: index, path: node.appending(key))
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let index = try presentIndex(key) else { return nil }
        return try decoder.decodeDouble(at: index, path: node.appending(key))
    }

    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        guard let index = try presentIndex(key) else { return nil }
        return try decoder.decodeFloat(at: index, path: node.appending(key))
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let index = try presentIndex(key) else { return nil }
        return try decoder.decodeInteger(Int.self, at: index, path: node.appending(key))
    }

    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        guard let index = try presentIndex(key) else { return nil }
        return try decoder.decodeInteger(Int8.self, at: index, path: node.appending(key))
    }

    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        guard let index = try presentIndex(key) else { return nil }
        return try decoder.decodeInteger(Int16.self, at: index, path: node.appending(key))
    }

    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        guard let index = try presentIndex(key) else { return nil }
        return try decoder.decodeInteger(Int32.self, at: index, path: node.appending(key))
    }

    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        guard let index = try presentIndex(key) else { return nil }
        return try decoder.decodeInteger(Int64.self, at: index, path: node.appending(key))
    }

    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        guard let index = try presentIndex(key) else { return nil }
        return try decoder.decodeInteger(UInt.self, at: index, path: node.appending(key))
    }

    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        guard let index = try presentIndex(key) else { return nil }
        return try decoder.decodeInteger(UInt8.self, at: index, path: node.appending(key))
    }

    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        guard let index = try presentIndex(key) else { return nil }
        return try decoder.decodeInteger(UInt16.self, at: index, path: node.appending(key))
    }

    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        guard let index = try presentIndex(key) else { return nil }
        return try decoder.decodeInteger(UInt32.self, at: index, path: node.appending(key))
    }

    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        guard let index = try presentIndex(key) else { return nil }
        return try decoder.decodeInteger(UInt64.self, at: index, path: node.appending(key))
    }

    /// The value's index when the key is present and not null.
    @inline(__always)
    private func presentIndex(_ key: Key) throws -> Int? {
        guard let index = try valueIndex(forKey: key), !decoder.isNull(at: index) else { return nil }
        return index
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type,
                                               forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(try decoder.keyedContainer(NestedKey.self, at: try require(key), path: node.appending(key)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.unkeyedContainer(at: try require(key), path: node.appending(key))
    }

    /// The value at key `"super"` (whatever `Key` is), or an absent value that reads as null.
    func superDecoder() throws -> any Decoder {
        decoder.subDecoder(at: try valueIndex(named: _JSONKey.super.stringValue) ?? _TapeDecoder.absent,
                           path: node.appending(_JSONKey.super))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.subDecoder(at: try valueIndex(forKey: key) ?? _TapeDecoder.absent, path: node.appending(key))
    }
}

/// What a keyed container knows, shared by its copies.
final class _ObjectContext {
    let decoder: _TapeDecoder
    /// `decoder.stream`, read on every lookup: held here, it is a load, where
    /// going through the decoder retained and released it each time.
    let stream: _ElementStream
    private(set) var object: Int
    private(set) var node: _CodingPathNode
    private(set) var convertedKeys: [String]?
    /// Where the next lookup starts, relative to the object token: the member
    /// after the last one found by a lookup that started at the cursor.
    var cursor = 1
    /// A one-word filter of the keys of the members before `cursor`.
    var passedKeys: UInt64 = 0

    /// The filter bit of a key, from its length and first byte.
    @inline(__always)
    static func keyBit(count: Int, first: UInt8) -> UInt64 {
        1 &<< UInt64((count &* 7 &+ Int(first)) & 63)
    }

    init(decoder: _TapeDecoder, object: Int, node: _CodingPathNode, convertedKeys: [String]?) {
        self.decoder = decoder
        stream = decoder.stream
        self.object = object
        self.node = node
        self.convertedKeys = convertedKeys
    }

    /// Absolute index of the value of the first member whose key's UTF-8 is
    /// `wanted` (keys as in the JSON).
    ///
    /// Members before the cursor were passed over by earlier lookups; the
    /// filter holds a bit for each of their keys. When the wanted key's bit is
    /// not set, it is not among them, so its first occurrence, if any, is at
    /// or after the cursor: decoding keys in document order costs one
    /// comparison per key instead of a scan from the start.
    @inline(__always)
    func valueIndex(ofKey wanted: UnsafeBufferPointer<UInt8>) throws -> Int? {
        guard let local = stream.local(object) else { throw decoder.dropped(path: node) }
        let tokens = stream.tokens
        let arena = stream.arena
        let end = local &+ 1 &+ tokens[local].span
        let count = wanted.count
        let key = wanted.baseAddress ?? UnsafePointer(arena)
        let wantedBit = Self.keyBit(count: count, first: count > 0 ? key[0] : 0)
        let fromCursor = passedKeys & wantedBit == 0
        var member = fromCursor ? local &+ cursor : local &+ 1
        var passed: UInt64 = 0
        while member < end {
            let token = tokens[member]
            let length = token.length
            let value = tokens[member &+ 1]
            let next = member &+ (value.kind == _Kind.array || value.kind == _Kind.object ? value.span &+ 2 : 2)
            if length == count && _equalShortBytes(arena + token.arenaOffset, key, count) {
                if fromCursor {
                    cursor = next &- local
                    passedKeys |= passed | wantedBit
                }
                return object &+ (member &+ 1 &- local)
            }
            if fromCursor { passed |= Self.keyBit(count: length, first: length > 0 ? arena[token.arenaOffset] : 0) }
            member = next
        }
        // Not at or after the cursor, and (from the filter) not before it.
        return nil
    }

    /// `valueIndex(named:)` with a key strategy: the converted keys, compared as strings.
    @inline(never)
    func convertedValueIndex(named name: String) throws -> Int? {
        guard let convertedKeys else { return nil }
        guard let local = stream.local(object) else { throw decoder.dropped(path: node) }
        let tokens = stream.tokens
        let end = local + 1 + tokens[local].span
        var member = local + 1
        var ordinal = 0
        while member < end {
            if convertedKeys[ordinal] == name { return object + (member + 1 - local) }
            member += 1 + tokens[member + 1].size
            ordinal += 1
        }
        return nil
    }

    /// Makes this the context of a container over another object (a shelved
    /// container handed out again; see `_ContainerShelf`).
    func repoint(object: Int, node: _CodingPathNode) throws {
        convertedKeys = decoder.usesDefaultKeys ? nil : try decoder.convertedKeys(ofObject: object, path: node)
        self.object = object
        self.node = node
        cursor = 1
        passedKeys = 0
    }
}

extension _TapeDecoder {
    /// The keys of an object as they are spelled in the JSON.
    func rawKeys(ofObject index: Int, path: _CodingPathNode) throws -> [String] {
        var names: [String] = []
        var member = index + 1
        let end = member + (try token(at: index, path: path)).span
        while member < end {
            names.append(String(decoding: bytes(of: try token(at: member, path: path)), as: UTF8.self))
            member = try indexAfter(member + 1, path: path)
        }
        return names
    }

    /// The keys of an object as the key decoding strategy converts them.
    func convertedKeys(ofObject index: Int, path: _CodingPathNode) throws -> [String] {
        let names = try rawKeys(ofObject: index, path: path)
        switch options.keyDecodingStrategy {
        case .useDefaultKeys:
            return names
        case .convertFromSnakeCase:
            return names.map { name in
                if let converted = snakeCaseCache[name] { return converted }
                let converted = _convertFromSnakeCase(name)
                if snakeCaseCache.count < 4096 { snakeCaseCache[name] = converted }
                return converted
            }
        case .custom(let convert):
            let base = path.path
            return names.map { convert(base + [_JSONKey(stringValue: $0)]).stringValue }
        }
    }
}
