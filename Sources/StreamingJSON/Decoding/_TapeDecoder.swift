// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

/// The `Decoder` over the tape.
///
/// One instance decodes a whole element: descending into a nested value swaps
/// `value` and `path` and restores them afterwards (`with(_:path:_:)`), so a
/// nested `init(from:)` costs no allocation beyond its coding-path node.
/// Containers capture the absolute tape index of their value and their own
/// path, so they stay valid while the decoder moves on.
///
/// Two indices are not on the tape: `streamedRoot` is a root array whose
/// elements the stream delivers one at a time (its unkeyed container is the
/// incremental one), and `absent` is the missing value behind
/// `superDecoder(forKey:)`, which reads as null.
final class _TapeDecoder: Decoder {
    static let streamedRoot = -1
    static let absent = -2

    let stream: _ElementStream
    let options: _DecodingOptions
    /// `options.keyDecodingStrategy` is `.useDefaultKeys` (read on every keyed container).
    let usesDefaultKeys: Bool
    /// With `.convertFromSnakeCase`, the converted spellings of the keys seen.
    let snakeCaseKeys: _SnakeCaseKeys?
    /// Absolute tape index of the value being decoded.
    var value: Int
    var path: _CodingPathNode
    /// Converted spellings of keys (`convertFromSnakeCase`), by JSON spelling.
    var snakeCaseCache: [String: String] = [:]
    /// Type names for error messages (`typeName(_:)`).
    var typeNames: [ObjectIdentifier: String] = [:]
    /// Types seen by `tapeDecodable(_:)`, each with what it answered.
    var knownTypes: [(ObjectIdentifier, (any _TapeDecodable.Type)?)] = []
    /// Builds `JSONValue`s from the tape; made at the first one, kept for its key cache.
    lazy var valueBuilder = _ValueBuilder()
    /// Keyed containers kept for reuse while a `shelfScope()` is alive.
    @exclusivity(unchecked) var shelf = _ContainerShelf<_ObjectContext>()
    /// Path nodes for object members decoded through their own `init(from:)`.
    @exclusivity(unchecked) var keyNodes = _KeyNodePool()

    /// A decoder; `snakeCaseKeys` shares another decoder's converted keys.
    init(stream: _ElementStream, options: _DecodingOptions, value: Int = _TapeDecoder.streamedRoot,
         path: _CodingPathNode = .root, snakeCaseKeys: _SnakeCaseKeys? = nil) {
        self.stream = stream
        self.options = options
        switch options.keyDecodingStrategy {
        case .useDefaultKeys:
            usesDefaultKeys = true
            self.snakeCaseKeys = nil
        case .convertFromSnakeCase:
            usesDefaultKeys = false
            self.snakeCaseKeys = snakeCaseKeys ?? _SnakeCaseKeys()
        case .custom:
            usesDefaultKeys = false
            self.snakeCaseKeys = nil
        }
        self.value = value
        self.path = path
    }

    var codingPath: [any CodingKey] { path.path }
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    // MARK: Entry points

    /// Decodes the document's root, then validates the rest of the input.
    func decodeDocument<T: Decodable>(_ type: T.Type, inputSize: Int? = nil) throws -> T {
        let first = try stream.element(0)
        let result: T
        if stream.streamsRootArray {
            if let inputSize, let array = T.self as? any _StreamedRootArray.Type {
                result = try array._decodeStreamedRoot(self, inputSize: inputSize) as! T
            } else {
                result = try unwrap(type, at: Self.streamedRoot, path: .root)
            }
        } else if case .element(let index) = first {
            result = try unwrap(type, at: index, path: .root)
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "No JSON value"))
        }
        try stream.drain()
        return result
    }

    /// Decodes `T` from the value at `index` (absolute), with `path` as its coding path.
    ///
    /// Types that JSON represents its own way (Date, Data, URL, Decimal) are
    /// handled here, as Foundation's `JSONDecoder` does. The common scalars,
    /// arrays and `[String: V]` (keys never converted, first occurrence wins)
    /// are read straight from the tape instead of through `init(from:)`.
    func unwrap<T: Decodable>(_ type: T.Type, at index: Int, path: @autoclosure () -> _CodingPathNode) throws -> T {
        switch _FastType(T.self) {
        case .string: return unsafe unsafeBitCast(try decodeString(at: index, path: path()), to: T.self)
        case .int: return unsafe unsafeBitCast(try decodeInteger(Int.self, at: index, path: path()), to: T.self)
        case .double: return unsafe unsafeBitCast(try decodeDouble(at: index, path: path()), to: T.self)
        case .bool: return unsafe unsafeBitCast(try decodeBool(at: index, path: path()), to: T.self)
        case .date: return unsafe unsafeBitCast(try decodeDate(at: index, path: path()), to: T.self)
        case .data: return unsafe unsafeBitCast(try decodeData(at: index, path: path()), to: T.self)
        case .url: return unsafe unsafeBitCast(try decodeURL(at: index, path: path()), to: T.self)
        case .decimal: return unsafe unsafeBitCast(try decodeDecimal(at: index, path: path()), to: T.self)
        case .other: break
        default:
            if index != Self.streamedRoot { return try decodeScalarArray(type, at: index, path: path()) }
        }
        if index != Self.streamedRoot, let collection = tapeDecodable(T.self) {
            return try collection._decode(from: self, at: index, path: path()) as! T
        }
        return try with(index, path: path()) { try T(from: self) }
    }

    /// Runs `body` with the decoder positioned at `index`.
    /// The paths are swapped rather than assigned: no retain or release.
    @inline(__always)
    func with<R>(_ index: Int, path newPath: consuming _CodingPathNode, _ body: () throws -> R) rethrows -> R {
        let savedValue = value
        value = index
        swap(&path, &newPath)
        defer {
            value = savedValue
            swap(&path, &newPath)
        }
        return try body()
    }

    // MARK: Decoder

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try unkeyedContainer(at: value, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        _SingleValueContainer(decoder: self, value: value, path: path)
    }

    func keyedContainer<Key: CodingKey>(_: Key.Type, at index: Int,
                                        path: _CodingPathNode) throws -> _OwningKeyedContainer<Key> {
        try requireObject(Key.self, at: index, path: path)
        return try _OwningKeyedContainer(decoder: self, object: index, path: path)
    }

    /// Foundation's errors for a keyed container over anything but an object.
    /// (The path is made only for an error: a copy of a node is an atomic retain.)
    func requireObject<Key: CodingKey>(_: Key.Type, at index: Int, path: @autoclosure () -> _CodingPathNode) throws {
        let kind = try self.kind(at: index, path: path())
        guard kind == _Kind.object else {
            if kind == _Kind.null {
                throw valueNotFound(KeyedDecodingContainer<Key>.self, at: index, path: path(),
                                    "Cannot get keyed decoding container -- found null value instead")
            }
            throw typeMismatch([String: Any].self, at: index, path: path())
        }
    }

    func unkeyedContainer(at index: Int, path: _CodingPathNode) throws -> any UnkeyedDecodingContainer {
        if index == Self.streamedRoot {
            return _IncrementalUnkeyedContainer(decoder: self, path: path)
        }
        let kind = try self.kind(at: index, path: path)
        guard kind == _Kind.array else {
            if kind == _Kind.null {
                throw valueNotFound((any UnkeyedDecodingContainer).self, at: index, path: path,
                                    "Cannot get unkeyed decoding container -- found null value instead")
            }
            throw typeMismatch([Any].self, at: index, path: path)
        }
        return try _UnkeyedContainer(decoder: self, array: index, path: path)
    }

    /// A separate decoder for `superDecoder()`: it may outlive the current step.
    func subDecoder(at index: Int, path: _CodingPathNode) -> _TapeDecoder {
        _TapeDecoder(stream: stream, options: options, value: index, path: path, snakeCaseKeys: snakeCaseKeys)
    }

    // MARK: Tape access

    /// The token at an absolute index; throws if a lagging container asks for
    /// an element that was already dropped from the tape.
    @inline(__always)
    func token(at index: Int, path: @autoclosure () -> _CodingPathNode) throws -> sj_token {
        guard let local = stream.local(index) else { throw dropped(path: path()) }
        return unsafe stream.view[local]
    }

    /// The kind of value at `index`, including the two off-tape values.
    func kind(at index: Int, path: @autoclosure () -> _CodingPathNode) throws -> UInt8 {
        switch index {
        case Self.streamedRoot: return _Kind.array
        case Self.absent: return _Kind.null
        default: return try token(at: index, path: path()).kind
        }
    }

    func isNull(at index: Int) -> Bool {
        (try? kind(at: index, path: .root)) == _Kind.null
    }

    /// The bytes of a string, key or number token.
    @inline(__always)
    func bytes(of token: sj_token) -> UnsafeBufferPointer<UInt8> {
        unsafe stream.view.bytes(of: token)
    }

    /// Absolute index of the value after the one at `index`.
    func indexAfter(_ index: Int, path: @autoclosure () -> _CodingPathNode) throws -> Int {
        index + (try token(at: index, path: path()).size)
    }
}

/// Collections decoded straight from the tape instead of through their own
/// `init(from:)`: the standard library's generic `Array.init(from:)` looks up
/// `Array<Element>` metadata on every append (unspecialized across modules),
/// which cost more than parsing the array. Here the array is built once at
/// its known size. A streamed root array still goes through `init(from:)`, so
/// that it gets the incremental container.
protocol _TapeDecodable {
    static func _decode(from decoder: _TapeDecoder, at index: Int, path: _CodingPathNode) throws -> Self
}

extension Array: _TapeDecodable where Element: Decodable {
    static func _decode(from decoder: _TapeDecoder, at index: Int, path: _CodingPathNode) throws -> Self {
        let token = try decoder.containerToken(_Kind.array, Self.self, at: index, path: path)
        // Not through `unsafeUninitializedCapacity` when empty: for capacity 0
        // the standard library writes the count (0 over 0) into the shared
        // empty-array singleton, a benign race that ThreadSanitizer reports
        // when two threads decode an empty array at once.
        guard token.count > 0 else { return [] }
        var cursor = index + 1
        return unsafe try Array(unsafeUninitializedCapacity: token.count) { buffer, initialized in
            for position in 0..<token.count {
                let element = try decoder.unwrap(Element.self, at: cursor, path: path.appending(index: position))
                unsafe (buffer.baseAddress! + position).initialize(to: element)
                initialized = position + 1
                cursor = try decoder.indexAfter(cursor, path: path)
            }
        }
    }
}

/// `[String: V]` keeps its keys as they are (Foundation never applies the key
/// strategy to dictionary keys); the first occurrence of a key wins.
extension Dictionary: _TapeDecodable where Key == String, Value: Decodable {
    static func _decode(from decoder: _TapeDecoder, at index: Int, path: _CodingPathNode) throws -> Self {
        let token = try decoder.containerToken(_Kind.object, Self.self, at: index, path: path)
        var result: [String: Value] = Dictionary(minimumCapacity: token.count)
        var member = index + 1
        let end = member + token.span
        while member < end {
            let key = try decoder.token(at: member, path: path)
            let name = unsafe String(_validatedUTF8: decoder.bytes(of: key))
            let valueIndex = member + 1
            if result[name] == nil {
                result[name] = try decoder.unwrap(Value.self, at: valueIndex,
                                                  path: path.appending(_JSONKey(stringValue: name)))
            }
            member = try decoder.indexAfter(valueIndex, path: path)
        }
        return result
    }
}

extension _TapeDecoder {
    /// Arrays of the common scalars, decoded by concrete (specialized) code:
    /// generic code that builds an `Array<E>` pays a runtime metadata lookup
    /// of about 2 000 instructions per array. `T` is one of `_FastType`'s arrays.
    func decodeScalarArray<T>(_: T.Type, at index: Int, path: @autoclosure () -> _CodingPathNode) throws -> T {
        switch _FastType(T.self) {
        case .strings: return unsafe unsafeBitCast(try scalarArray(_Read.String.self, at: index, path: path()), to: T.self)
        case .doubles: return unsafe unsafeBitCast(try scalarArray(_Read.Double.self, at: index, path: path()), to: T.self)
        case .ints: return unsafe unsafeBitCast(try scalarArray(_Read.Integer<Int>.self, at: index, path: path()), to: T.self)
        case .bools: return unsafe unsafeBitCast(try scalarArray(_Read.Bool.self, at: index, path: path()), to: T.self)
        case .floats: return unsafe unsafeBitCast(try scalarArray(_Read.Float.self, at: index, path: path()), to: T.self)
        case .int64s: return unsafe unsafeBitCast(try scalarArray(_Read.Integer<Int64>.self, at: index, path: path()), to: T.self)
        case .uint64s: return unsafe unsafeBitCast(try scalarArray(_Read.Integer<UInt64>.self, at: index, path: path()), to: T.self)
        case .int32s: return unsafe unsafeBitCast(try scalarArray(_Read.Integer<Int32>.self, at: index, path: path()), to: T.self)
        case .uint8s: return unsafe unsafeBitCast(try scalarArray(_Read.Integer<UInt8>.self, at: index, path: path()), to: T.self)
        default:
            preconditionFailure("not a scalar array type")
        }
    }

    /// `T` as a `_TapeDecodable` collection, or nil, remembered per type (a
    /// conformance check costs a few hundred instructions; user types and
    /// their arrays come back for every element).
    func tapeDecodable<T>(_ type: T.Type) -> (any _TapeDecodable.Type)? {
        // Arrays and dictionaries are one reference: any other size is not one.
        guard MemoryLayout<T>.size == MemoryLayout<[Int]>.size else { return nil }
        let id = ObjectIdentifier(type)
        for (known, collection) in knownTypes where known == id { return collection }
        let collection = type as? any _TapeDecodable.Type
        if knownTypes.count < 32 { knownTypes.append((id, collection)) }
        return collection
    }

    /// Appends to an empty array with room reserved: specialized for the
    /// element type, this finds the array storage's metadata through a cached
    /// accessor, where `Array(unsafeUninitializedCapacity:)` goes through an
    /// unspecialized runtime lookup (about 800 instructions per array). The
    /// path is built only for an error.
    @inline(__always)
    private func scalarArray<R: _ScalarRead>(_: R.Type, at index: Int,
                                             path: @autoclosure () -> _CodingPathNode) throws -> [R.Value] {
        guard index >= 0, let local = stream.local(index), unsafe stream.view[local].kind == _Kind.array else {
            throw mismatch([R.Value].self, at: index, path: path())
        }
        let count = unsafe stream.view[local].count
        var result: [R.Value] = []
        result.reserveCapacity(count)
        for position in 0..<count {
            // Scalars take one token each.
            result.append(try R.read(self, at: index + 1 + position, path: path().appending(index: position)))
        }
        return result
    }

    /// The token of an array or object, or Foundation's errors for null and other kinds.
    func containerToken(_ kind: UInt8, _ type: Any.Type, at index: Int, path: _CodingPathNode) throws -> sj_token {
        if index >= 0, let local = stream.local(index) {
            let token = unsafe stream.view[local]
            if token.kind == kind { return token }
        }
        throw mismatch(type, at: index, path: path)
    }
}

/// One scalar read from the tape, as a type, so that `scalarArray` is
/// specialized per element type without taking a closure.
protocol _ScalarRead {
    associatedtype Value
    static func read(_ decoder: _TapeDecoder, at index: Int, path: @autoclosure () -> _CodingPathNode) throws -> Value
}

enum _Read {
    enum String: _ScalarRead {
        @inline(__always)
        static func read(_ decoder: _TapeDecoder, at index: Int, path: @autoclosure () -> _CodingPathNode) throws -> Swift.String {
            try decoder.decodeString(at: index, path: path())
        }
    }

    enum Double: _ScalarRead {
        @inline(__always)
        static func read(_ decoder: _TapeDecoder, at index: Int, path: @autoclosure () -> _CodingPathNode) throws -> Swift.Double {
            try decoder.decodeDouble(at: index, path: path())
        }
    }

    enum Float: _ScalarRead {
        @inline(__always)
        static func read(_ decoder: _TapeDecoder, at index: Int, path: @autoclosure () -> _CodingPathNode) throws -> Swift.Float {
            try decoder.decodeFloat(at: index, path: path())
        }
    }

    enum Bool: _ScalarRead {
        @inline(__always)
        static func read(_ decoder: _TapeDecoder, at index: Int, path: @autoclosure () -> _CodingPathNode) throws -> Swift.Bool {
            try decoder.decodeBool(at: index, path: path())
        }
    }

    enum Integer<T: FixedWidthInteger>: _ScalarRead {
        @inline(__always)
        static func read(_ decoder: _TapeDecoder, at index: Int, path: @autoclosure () -> _CodingPathNode) throws -> T {
            try decoder.decodeInteger(T.self, at: index, path: path())
        }
    }
}
