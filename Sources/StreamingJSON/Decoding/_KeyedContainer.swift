// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

/// A keyed container over an object on the tape.
///
/// Keys are matched as bytes: the coding key's UTF-8 is compared with each
/// member's key bytes in the arena, length first, with no `String` made per
/// key. The first occurrence of a duplicate key wins, as in Foundation.
/// Lookups usually come in document order, so each starts where the last one
/// ended (see `_ObjectContext.cursor`). With a key strategy, the converted
/// spellings are computed once per container.
///
/// The standard library's type-erasing box copies the container
/// (unspecialized, through its value witnesses) for every `decode` call, and
/// a copy retains every strong reference the container holds: an atomic
/// increment and decrement per call. So the container is one unmanaged
/// reference to its context, used only inside `withContext` (where it is
/// borrowed, with no retain): plain data of a fixed size, whose copies are
/// one word copied by the compiler's own value witnesses. Something else
/// keeps the context alive:
///
/// - a container built for a `_ContainerShelf`: the shelf, for as long as
///   the container's box can be reached (see `_ContainerShelf.removeAll()`);
/// - any other: the `_OwningKeyedContainer` around it.
///
/// Safe once built: what the caller of the `@unsafe` initializer promises.
@safe struct _KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    private let context: Unmanaged<_ObjectContext>

    /// A container whose context the caller keeps alive (a shelf, or an
    /// `_OwningKeyedContainer`) for as long as this container or a copy of it is used.
    @unsafe init(shelvedContext context: _ObjectContext) {
        unsafe self.context = unsafe .passUnretained(context)
    }

    /// Runs `body` with the context borrowed: no retain, no release.
    @inline(__always)
    private func withContext<R>(_ body: (_ObjectContext) throws -> R) rethrows -> R {
        unsafe try context._withUnsafeGuaranteedRef(body)
    }

    var codingPath: [any CodingKey] { withContext { unsafe $0.node.path } }

    var allKeys: [Key] { withContext { $0.allKeys() } }

    func contains(_ key: Key) -> Bool {
        withContext { (try? $0.valueIndex(forKey: key)) != nil }
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try withContext { c in c.decoder.isNull(at: try c.require(key)) }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try withContext { c in unsafe try c.decoder.decodeBool(at: try c.require(key), path: c.node.appending(key)) }
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try withContext { c in unsafe try c.decoder.decodeString(at: try c.require(key), path: c.node.appending(key)) }
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try withContext { c in unsafe try c.decoder.decodeDouble(at: try c.require(key), path: c.node.appending(key)) }
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try withContext { c in unsafe try c.decoder.decodeFloat(at: try c.require(key), path: c.node.appending(key)) }
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
        try withContext { c in
            unsafe try c.decoder.decodeInteger(T.self, at: try c.require(key), path: c.node.appending(key))
        }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try withContext { c in
            unsafe try c.decoder.unwrap(type, at: try c.require(key),
                                        path: c.decoder.keyNodes.node(appending: key, to: c.node))
        }
    }

    // One lookup for `decodeIfPresent` instead of the default contains + decodeNil + decode.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try withContext { c in
            guard let index = try c.presentIndex(key) else { return nil }
            return unsafe try c.decoder.unwrap(type, at: index, path: c.decoder.keyNodes.node(appending: key, to: c.node))
        }
    }

    // Concrete overloads: a generic one would look up Optional<T> metadata at run time.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try withContext { c in
            guard let index = try c.presentIndex(key) else { return nil }
            return unsafe try c.decoder.decodeBool(at: index, path: c.node.appending(key))
        }
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try withContext { c in
            guard let index = try c.presentIndex(key) else { return nil }
            return unsafe try c.decoder.decodeString(at: index, path: c.node.appending(key))
        }
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try withContext { c in
            guard let index = try c.presentIndex(key) else { return nil }
            return unsafe try c.decoder.decodeDouble(at: index, path: c.node.appending(key))
        }
    }

    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try withContext { c in
            guard let index = try c.presentIndex(key) else { return nil }
            return unsafe try c.decoder.decodeFloat(at: index, path: c.node.appending(key))
        }
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try presentInteger(key) }

    @inline(__always)
    private func presentInteger<T: FixedWidthInteger>(_ key: Key) throws -> T? {
        try withContext { c in
            guard let index = try c.presentIndex(key) else { return nil }
            return unsafe try c.decoder.decodeInteger(T.self, at: index, path: c.node.appending(key))
        }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type,
                                               forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try withContext { c in
            unsafe KeyedDecodingContainer(try c.decoder.keyedContainer(NestedKey.self, at: try c.require(key),
                                                                       path: c.node.appending(key)))
        }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try withContext { c in unsafe try c.decoder.unkeyedContainer(at: try c.require(key), path: c.node.appending(key)) }
    }

    /// The value at key `"super"` (whatever `Key` is), or an absent value that reads as null.
    func superDecoder() throws -> any Decoder {
        try withContext { c in
            unsafe c.decoder.subDecoder(at: try c.valueIndex(named: _JSONKey.super.stringValue) ?? _TapeDecoder.absent,
                                        path: c.node.appending(_JSONKey.super))
        }
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try withContext { c in
            unsafe c.decoder.subDecoder(at: try c.valueIndex(forKey: key) ?? _TapeDecoder.absent,
                                        path: c.node.appending(key))
        }
    }
}

/// What a keyed container knows, shared by its copies.
///
/// Safe: it owns its key slots, and trusts the tape pointers in `place` only
/// while the stream's `tapeGeneration` is the one they were found under.
@safe final class _ObjectContext {
    let decoder: _TapeDecoder
    /// `decoder.stream`, read on every lookup: held here, it is a load, where
    /// going through the decoder retained and released it each time.
    let stream: _ElementStream
    // Unchecked: these are read or written on every lookup, and a dynamic
    // exclusivity check costs a runtime call each time. Only this class's
    // methods write them, none while another access is open.
    @exclusivity(unchecked) private(set) var object: Int
    @exclusivity(unchecked) private(set) var node: _CodingPathNode
    /// The object's keys as a `.custom` strategy converts them (nil for the
    /// other strategies, whose lookups compare bytes).
    @exclusivity(unchecked) private(set) var convertedKeys: [String]?
    /// The decoder's converted spellings, with `.convertFromSnakeCase`.
    @exclusivity(unchecked) private var snakeCaseKeys: _SnakeCaseKeys?
    /// Where the next lookup starts, relative to the object token: the member
    /// after the last one found by a lookup that started at the cursor.
    @exclusivity(unchecked) var cursor = 1
    /// A filter of the keys of the members before `cursor`.
    @exclusivity(unchecked) var passedKeys = _KeyFilter()
    /// Where the object is on the tape, for lookups: found again when the
    /// stream's tape has changed since (`_ElementStream.tapeGeneration`).
    @exclusivity(unchecked) private var place = unsafe _ObjectPlace()

    /// The UTF-8 of the coding keys looked up so far, when this context is
    /// shelved for a one-byte key type (see `_KeySlots`), each with its
    /// `_KeyFilter` hash.
    private var spellings: _KeySlots?
    /// `spellings`' slots when lookups use them: keys not converted by a
    /// strategy, and of one byte (not a single-case enum). One load for the
    /// checks of every lookup.
    @exclusivity(unchecked) private var byteKeySlots: UnsafeMutablePointer<_KeyBytes>?

    init(decoder: _TapeDecoder, object: Int, node: _CodingPathNode) throws {
        self.decoder = decoder
        stream = decoder.stream
        unsafe self.object = object
        unsafe self.node = node
        unsafe convertedKeys = try decoder.convertedKeysForLookups(ofObject: object, path: node)
        unsafe snakeCaseKeys = decoder.snakeCaseKeys
    }

    /// A context kept on a shelf, for containers keyed by `Key` only.
    convenience init<Key: CodingKey>(shelvedFor _: Key.Type, decoder: _TapeDecoder, object: Int,
                                     node: _CodingPathNode) throws {
        try self.init(decoder: decoder, object: object, node: node)
        unsafe spellings = unsafe _KeySlots(for: Key.self)
        if decoder.usesDefaultKeys, let spellings = unsafe spellings, MemoryLayout<Key>.size == 1 {
            unsafe byteKeySlots = unsafe spellings.slot(forByte: 0)
        }
    }

    deinit { unsafe spellings?.deallocate() }

    // MARK: Lookups by coding key

    /// The keys of the object that `Key` has a case for, first occurrences only.
    func allKeys<Key: CodingKey>() -> [Key] {
        var seen = Set<String>()
        var keys: [Key] = []
        let names = unsafe convertedKeys
            ?? ((try? snakeCaseKeys == nil ? decoder.rawKeys(ofObject: object, path: node)
                                           : decoder.convertedKeys(ofObject: object, path: node)) ?? [])
        for name in names where seen.insert(name).inserted {
            if let key = Key(stringValue: name) { keys.append(key) }
        }
        return keys
    }

    /// Absolute index of the value for `key`, or nil when the object has no such member.
    @inline(__always)
    func valueIndex<Key: CodingKey>(forKey key: Key) throws -> Int? {
        if let byteKeySlots = unsafe byteKeySlots {
            // The key is its one byte.
            let slot = unsafe byteKeySlots + Int(unsafeBitCast(key, to: UInt8.self))
            if unsafe _slowPath(slot.pointee.bytes == nil) { unsafe Self.fill(slot, with: key) }
            // Only with the default keys: no strategy to dispatch on.
            return unsafe try valueIndex(ofKey: slot.pointee.buffer, hash: UInt32(truncatingIfNeeded: slot.pointee.hash),
                                         spelling: _RawSpelling())
        }
        if let spellings = unsafe spellings, unsafe convertedKeys == nil {
            let slot = unsafe spellings.slot(for: key)
            if unsafe _slowPath(slot.pointee.bytes == nil) { unsafe Self.fill(slot, with: key) }
            return unsafe try valueIndex(ofKey: slot.pointee.buffer, hash: UInt32(truncatingIfNeeded: slot.pointee.hash))
        }
        return try valueIndex(named: key.stringValue)
    }

    /// Keeps `key`'s UTF-8 in its slot (its first lookup).
    @inline(never)
    private static func fill<Key: CodingKey>(_ slot: UnsafeMutablePointer<_KeyBytes>, with key: Key) {
        unsafe slot.pointee = unsafe Array(key.stringValue.utf8).withUnsafeBufferPointer { bytes in
            unsafe _KeyBytes(bytes,
                             hash: UInt64(_KeyFilter.hash(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!, bytes.count)))
        }
    }

    /// Absolute index of the value of the first member whose (converted) key is `name`.
    func valueIndex(named name: String) throws -> Int? {
        if unsafe convertedKeys != nil { return try convertedValueIndex(named: name) }
        // Native strings (coding keys are literals) expose their UTF-8 without a copy.
        if let found = unsafe try name.utf8.withContiguousStorageIfAvailable({ unsafe try valueIndex(ofKey: $0) }) {
            return found
        }
        var copy = name
        return try copy.withUTF8 { unsafe try valueIndex(ofKey: $0) }
    }

    /// The value's index, or Foundation's `keyNotFound` error.
    @inline(__always)
    func require<Key: CodingKey>(_ key: Key) throws -> Int {
        if let index = try valueIndex(forKey: key) { return index }
        throw keyNotFound(key)
    }

    /// Foundation's `keyNotFound` for `key`: built apart from the lookups,
    /// so that boxing the key as `any CodingKey` stays off their path.
    @inline(never)
    private func keyNotFound<Key: CodingKey>(_ key: Key) -> DecodingError {
        unsafe decoder.keyNotFound(key, inObject: object, path: node)
    }

    /// The value's index when the key is present and not null.
    @inline(__always)
    func presentIndex<Key: CodingKey>(_ key: Key) throws -> Int? {
        guard let index = try valueIndex(forKey: key), !decoder.isNull(at: index) else { return nil }
        return index
    }

    /// Absolute index of the value of the first member whose key's UTF-8 is
    /// `wanted` (keys as in the JSON).
    ///
    /// Members before the cursor were passed over by earlier lookups; the
    /// filter holds a bit for each of their keys. When the wanted key's bit is
    /// not set, it is not among them, so its first occurrence, if any, is at
    /// or after the cursor: decoding keys in document order costs one
    /// comparison per key instead of a scan from the start. A bit shared with
    /// a passed key costs a look at the passed members, then the same.
    ///
    /// With `convertFromSnakeCase`, the members' keys are compared as they
    /// convert (`_SnakeCaseSpelling`), and `wanted` is the coding key's own.
    @inline(__always)
    func valueIndex(ofKey wanted: UnsafeBufferPointer<UInt8>, hash: UInt32? = nil) throws -> Int? {
        if unsafe snakeCaseKeys != nil { return unsafe try snakeCaseValueIndex(ofKey: wanted, hash: hash) }
        return unsafe try valueIndex(ofKey: wanted, hash: hash, spelling: _RawSpelling())
    }

    /// Apart, so that the default lookup stays small enough to inline.
    @inline(never)
    private func snakeCaseValueIndex(ofKey wanted: UnsafeBufferPointer<UInt8>, hash: UInt32?) throws -> Int? {
        let spelling = unsafe _SnakeCaseSpelling(keys: snakeCaseKeys.unsafelyUnwrapped)
        return unsafe try valueIndex(ofKey: wanted, hash: hash, spelling: spelling)
    }

    @inline(__always)
    private func valueIndex<Spelling: _MemberSpelling>(ofKey wanted: UnsafeBufferPointer<UInt8>, hash: UInt32?,
                                                       spelling: Spelling) throws -> Int? {
        if unsafe _slowPath(place.generation != stream.tapeGeneration) { try locate() }
        // Debug builds (the tests) check that the tape has not moved under an unchanged generation.
        unsafe assert(stream.local(object) == place.local && stream.view.isSame(as: place.tape),
                      "the tape changed without a new tapeGeneration")
        let count = wanted.count
        let key = unsafe wanted.baseAddress ?? place.tape.arena
        let wantedHash = unsafe hash ?? _KeyFilter.hash(key, count)
        // Keys decoded in document order: the member at the cursor, whose key
        // the filter says no passed member has.
        let member = unsafe place.local &+ cursor
        if unsafe member < place.end && !passedKeys.contains(wantedHash) {
            let spelled = unsafe spelling.key(place.tape[member], in: place.tape)
            if unsafe spelled.count == count && _equalShortBytes(spelled.baseAddress!, key, count) {
                let value = unsafe place.tape[member &+ 1]
                unsafe cursor &+= value.kind == _Kind.array || value.kind == _Kind.object ? value.span &+ 2 : 2
                unsafe passedKeys.insert(wantedHash)
                return unsafe object &+ (member &+ 1 &- place.local)
            }
        }
        return unsafe search(key, count, wantedHash, spelling: spelling)
    }

    /// `valueIndex(ofKey:)` past its first guess: a key whose bit is not among
    /// the passed ones is searched from the cursor; one whose bit is (an
    /// earlier occurrence, or another key's bits) from the first member.
    @inline(never)
    private func search<Spelling: _MemberSpelling>(_ key: UnsafePointer<UInt8>, _ count: Int, _ wantedHash: UInt32,
                                                   spelling: Spelling) -> Int? {
        let tape = unsafe place.tape, local = unsafe place.local, end = unsafe place.end
        let start = unsafe local &+ cursor
        var member = unsafe passedKeys.contains(wantedHash) ? local &+ 1 : start
        var passed = _KeyFilter()
        while member < end {
            let spelled = unsafe spelling.key(tape[member], in: tape)
            let length = spelled.count
            let value = unsafe tape[member &+ 1]
            let next = member &+ (value.kind == _Kind.array || value.kind == _Kind.object ? value.span &+ 2 : 2)
            if unsafe length == count && _equalShortBytes(spelled.baseAddress!, key, count) {
                if member >= start {
                    unsafe cursor = next &- local
                    passed.insert(wantedHash)
                    unsafe passedKeys.formUnion(passed)
                }
                return unsafe object &+ (member &+ 1 &- local)
            }
            if member >= start { unsafe passed.insert(_KeyFilter.hash(spelled.baseAddress!, length)) }
            member = next
        }
        return nil
    }

    /// Finds the object on the tape again (the first lookup, or the tape changed).
    @inline(never)
    private func locate() throws {
        guard let local = unsafe stream.local(object) else { throw unsafe decoder.dropped(path: node) }
        let tape = unsafe stream.view
        unsafe place = unsafe _ObjectPlace(generation: stream.tapeGeneration, tape: tape,
                                           local: local, end: local &+ 1 &+ tape[local].span)
    }

    /// `valueIndex(named:)` with a key strategy: the converted keys, compared as strings.
    @inline(never)
    func convertedValueIndex(named name: String) throws -> Int? {
        guard let convertedKeys = unsafe convertedKeys else { return nil }
        guard let local = unsafe stream.local(object) else { throw unsafe decoder.dropped(path: node) }
        let tape = unsafe stream.view
        let end = unsafe local + 1 + tape[local].span
        var member = local + 1
        var ordinal = 0
        while member < end {
            if convertedKeys[ordinal] == name { return unsafe object + (member + 1 - local) }
            member = unsafe tape.member(after: member)
            ordinal += 1
        }
        return nil
    }

    /// Makes this the context of a container over another object (a shelved
    /// container handed out again; see `_ContainerShelf`).
    func repoint(object: Int, node: consuming _CodingPathNode) throws {
        unsafe convertedKeys = try decoder.convertedKeysForLookups(ofObject: object, path: node)
        unsafe self.object = object
        unsafe self.node = node
        unsafe cursor = 1
        unsafe passedKeys = _KeyFilter()
        unsafe place = unsafe _ObjectPlace()
    }
}

extension _TapeDecoder {
    /// The keys of an object as they are spelled in the JSON.
    func rawKeys(ofObject index: Int, path: _CodingPathNode) throws -> [String] {
        var names: [String] = []
        var member = index + 1
        let end = member + (try token(at: index, path: path)).span
        while member < end {
            unsafe names.append(String(_validatedUTF8: bytes(of: try token(at: member, path: path))))
            member = try indexAfter(member + 1, path: path)
        }
        return names
    }

    /// The object's converted keys when keyed containers compare those
    /// rather than bytes: with a `.custom` strategy, and with
    /// `convertFromSnakeCase` for an object with more members than lookups
    /// through the conversion cache suit (a scan from the first member per
    /// lookup, each key converted again once the cache's slots are taken).
    /// Nil with the default keys, checked first: it is every container's case.
    @inline(__always)
    func convertedKeysForLookups(ofObject index: Int, path: _CodingPathNode) throws -> [String]? {
        if usesDefaultKeys { return nil }
        return try convertedKeysWithStrategy(ofObject: index, path: path)
    }

    @inline(never)
    private func convertedKeysWithStrategy(ofObject index: Int, path: _CodingPathNode) throws -> [String]? {
        if snakeCaseKeys != nil, try token(at: index, path: path).count <= _SnakeCaseKeys.slotCount / 4 { return nil }
        return try convertedKeys(ofObject: index, path: path)
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

/// Which keys the members of an object before a cursor have, as a Bloom
/// filter: each key sets one bit in each of two words, by two parts of one
/// hash of its length, first and last byte (keys that share their length and
/// first byte, like `serial` and `scores`, are common). A key both of whose
/// bits are set is perhaps among them: with one word and one bit, 2 of a
/// 15-member record's keys did, and each cost a scan of the passed members.
struct _KeyFilter {
    private var first: UInt64 = 0
    private var second: UInt64 = 0

    /// The hash of a key, from which its two bits come.
    @inline(__always)
    static func hash(_ key: UnsafePointer<UInt8>, _ count: Int) -> UInt32 {
        let ends = unsafe count > 0 ? UInt32(key[0]) &<< 8 | UInt32(key[count &- 1]) : 0
        return (UInt32(truncatingIfNeeded: count) &<< 16 | ends) &* 0x9E37_79B1
    }

    @inline(__always)
    func contains(_ hash: UInt32) -> Bool {
        (first &>> UInt64(hash &>> 26)) & (second &>> UInt64((hash &>> 20) & 63)) & 1 != 0
    }

    @inline(__always)
    mutating func insert(_ hash: UInt32) {
        first |= 1 &<< UInt64(hash &>> 26)
        second |= 1 &<< UInt64((hash &>> 20) & 63)
    }

    @inline(__always)
    mutating func formUnion(_ other: _KeyFilter) {
        first |= other.first
        second |= other.second
    }
}

/// An object's tokens as a keyed container last found them: the tape, the
/// object's tape index and the index past its members, valid while the
/// stream's tape generation is `generation`.
@unsafe struct _ObjectPlace {
    var generation = Int.min
    var tape = unsafe _TapeView.empty
    var local = 0
    var end = 0
}
