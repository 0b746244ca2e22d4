// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What every encoder of one value shares: the tape being filled, the options
/// and the caches that outlive a single nested value.
final class _EncodingContext {
    let tape: _EncodingTape
    let options: _EncodingOptions
    let escapesSlashes: Bool
    let usesDefaultKeys: Bool
    /// `options.userInfo` as `Encoder.userInfo` wants it, built once.
    let userInfo: [CodingUserInfoKey: Any]
    /// `convertToSnakeCase` results by coding-key spelling.
    var snakeCaseCache: [String: String] = [:]

    init(tape: _EncodingTape, options: _EncodingOptions) {
        self.tape = tape
        self.options = options
        self.escapesSlashes = !options.outputFormatting.contains(.withoutEscapingSlashes)
        self.usesDefaultKeys = options.usesDefaultKeys
        self.userInfo = options.userInfo
    }

    /// The key as written, after the key strategy.
    func convertedKey(_ key: some CodingKey, path: _CodingPathNode) -> String {
        switch options.keyEncodingStrategy {
        case .useDefaultKeys:
            return key.stringValue
        case .convertToSnakeCase:
            let name = key.stringValue
            if let converted = snakeCaseCache[name] { return converted }
            let converted = _convertToSnakeCase(name)
            snakeCaseCache[name] = converted
            return converted
        case .custom(let convert):
            return convert(path.appending(key).path).stringValue
        }
    }
}

/// The `Encoder` handed to `encode(to:)`: it writes into one node of the tape.
///
/// `depth` counts the containers around the node; a container of its own
/// would be one deeper, and past `maxDepth` the encode throws.
final class _TapeEncoder: Encoder {
    let context: _EncodingContext
    let node: UInt32
    let path: _CodingPathNode
    let depth: Int

    init(context: _EncodingContext, node: UInt32, path: _CodingPathNode, depth: Int) {
        self.context = context
        self.node = node
        self.path = path
        self.depth = depth
    }

    var codingPath: [any CodingKey] { path.path }
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object = containerNode(.object)
        return KeyedEncodingContainer(_KeyedEncodingContainer<Key>(encoder: self, object: object))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        _UnkeyedEncodingContainer(encoder: self, array: containerNode(.array))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        _SingleValueEncodingContainer(encoder: self)
    }

    /// The node, made a container of `kind`. A node that already holds
    /// another kind of value is a misuse Foundation traps on; here it is
    /// recorded, thrown when the encode finishes, and the container writes
    /// into a detached node.
    private func containerNode(_ kind: _EncodingTape.Kind) -> UInt32 {
        let tape = context.tape
        if depth >= context.options.maxDepth, tape.misuse == nil {
            tape.misuse = Self.tooDeep(path: path, maxDepth: context.options.maxDepth)
        }
        if unsafe tape.makeContainer(node, kind: kind) { return node }
        if tape.misuse == nil {
            let what = kind == .object ? "a keyed" : "an unkeyed"
            tape.misuse = EncodingError.invalidValue(kind, .init(
                codingPath: path.path,
                debugDescription: "Asked for \(what) container where a different value was already encoded."))
        }
        let detached = tape.appendEmptyNode()
        _ = unsafe tape.makeContainer(detached, kind: kind)
        return detached
    }

    static func tooDeep(path: _CodingPathNode, maxDepth: Int) -> EncodingError {
        EncodingError.invalidValue(maxDepth, .init(
            codingPath: path.path,
            debugDescription: "Nesting is deeper than \(maxDepth) levels of arrays and objects."))
    }

    // MARK: Values

    /// Encodes `value` into `node`. Types that JSON writes its own way (Date,
    /// Data, URL, Decimal, non-finite floats) are handled here, as Foundation
    /// does; common scalars and arrays of them skip `encode(to:)`.
    static func encode<T: Encodable>(_ value: T, into node: UInt32, context: _EncodingContext,
                                     path: @autoclosure () -> _CodingPathNode, depth: Int) throws {
        let tape = context.tape
        switch _FastType(T.self) {
        case .string:
            let string = unsafe unsafeBitCast(value, to: String.self)
            let slashes = context.escapesSlashes
            unsafe tape.setScalar(node) { $0.writeString(string, escapesSlashes: slashes) }
        case .int:
            let int = unsafe unsafeBitCast(value, to: Int.self)
            unsafe tape.setScalar(node) { $0.writeInteger(int) }
        case .double:
            unsafe try encodeFloat(unsafeBitCast(value, to: Double.self), into: node, context: context, path: path())
        case .bool:
            let bool = unsafe unsafeBitCast(value, to: Bool.self)
            unsafe tape.setScalar(node) { $0.writeBool(bool) }
        case .date:
            unsafe try encodeDate(unsafeBitCast(value, to: Date.self), into: node, context: context, path: path(), depth: depth)
        case .data:
            unsafe try encodeData(unsafeBitCast(value, to: Data.self), into: node, context: context, path: path(), depth: depth)
        case .url:
            let string = unsafe unsafeBitCast(value, to: URL.self).absoluteString
            let slashes = context.escapesSlashes
            unsafe tape.setScalar(node) { $0.writeString(string, escapesSlashes: slashes) }
        case .decimal:
            var text = unsafe unsafeBitCast(value, to: Decimal.self).description
            unsafe tape.setScalar(node) { bytes in text.withUTF8 { unsafe bytes.append(contentsOf: $0) } }
        default:
            // A value inside more than `maxDepth` containers: stop before the
            // value's own `encode(to:)` recurses further (a self-nesting type
            // would otherwise overflow the stack).
            if depth > context.options.maxDepth {
                throw tape.misuse ?? tooDeep(path: path(), maxDepth: context.options.maxDepth)
            }
            if let special = value as? any _TapeEncodable {
                try special._encode(into: node, context: context, path: path(), depth: depth)
            } else {
                try value.encode(to: _TapeEncoder(context: context, node: node, path: path(), depth: depth))
            }
        }
    }

    static func encodeFloat<F: BinaryFloatingPoint & CustomStringConvertible>(
        _ value: F, into node: UInt32, context: _EncodingContext, path: @autoclosure () -> _CodingPathNode
    ) throws {
        let tape = context.tape
        if value.isFinite {
            unsafe tape.setScalar(node) { $0.writeFinite(value) }
            return
        }
        guard case .convertToString(let positive, let negative, let nan) = context.options.nonConformingFloatEncodingStrategy else {
            throw EncodingError.invalidValue(value, .init(
                codingPath: path().path, debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
        }
        let string = value.isNaN ? nan : (value < 0 ? negative : positive)
        let slashes = context.escapesSlashes
        unsafe tape.setScalar(node) { $0.writeString(string, escapesSlashes: slashes) }
    }

    static func encodeDate(_ date: Date, into node: UInt32, context: _EncodingContext,
                           path: @autoclosure () -> _CodingPathNode, depth: Int) throws {
        let tape = context.tape
        switch context.options.dateEncodingStrategy {
        case .deferredToDate:
            try date.encode(to: _TapeEncoder(context: context, node: node, path: path(), depth: depth))
        case .secondsSince1970:
            try encodeFloat(date.timeIntervalSince1970, into: node, context: context, path: path())
        case .millisecondsSince1970:
            try encodeFloat(1000.0 * date.timeIntervalSince1970, into: node, context: context, path: path())
        case .iso8601:
            unsafe tape.setScalar(node) { $0.writeISO8601(date) }
        case .formatted(let formatter):
            let string = formatter.string(from: date)
            let slashes = context.escapesSlashes
            unsafe tape.setScalar(node) { $0.writeString(string, escapesSlashes: slashes) }
        case .custom(let closure):
            unsafe tape.clear(node)
            try closure(date, _TapeEncoder(context: context, node: node, path: path(), depth: depth))
            // Nothing encoded: an empty object, as Foundation writes (also at the top level).
            _ = unsafe tape.makeContainer(node, kind: .object)
        }
    }

    static func encodeData(_ data: Data, into node: UInt32, context: _EncodingContext,
                           path: @autoclosure () -> _CodingPathNode, depth: Int) throws {
        let tape = context.tape
        switch context.options.dataEncodingStrategy {
        case .deferredToData:
            try data.encode(to: _TapeEncoder(context: context, node: node, path: path(), depth: depth))
        case .base64:
            let string = data.base64EncodedString()
            unsafe tape.setScalar(node) { $0.writeString(string, escapesSlashes: context.escapesSlashes) }
        case .custom(let closure):
            unsafe tape.clear(node)
            try closure(data, _TapeEncoder(context: context, node: node, path: path(), depth: depth))
            _ = unsafe tape.makeContainer(node, kind: .object)
        }
    }
}

/// Values encoded straight into the tape instead of through `encode(to:)`.
protocol _TapeEncodable {
    func _encode(into node: UInt32, context: _EncodingContext, path: _CodingPathNode, depth: Int) throws
}

extension Array: _TapeEncodable where Element: Encodable {
    /// The standard library's `Array.encode(to:)` goes through an existential
    /// container per element; this appends the elements directly.
    func _encode(into node: UInt32, context: _EncodingContext, path: _CodingPathNode, depth: Int) throws {
        let tape = context.tape
        guard depth < context.options.maxDepth else {
            throw _TapeEncoder.tooDeep(path: path, maxDepth: context.options.maxDepth)
        }
        unsafe tape.clear(node)
        _ = unsafe tape.makeContainer(node, kind: .array)
        for index in indices {
            let child = unsafe tape.appendElement(to: node)
            try _TapeEncoder.encode(self[index], into: child, context: context,
                                    path: path.appending(index: index), depth: depth + 1)
        }
    }
}

extension Dictionary: _TapeEncodable where Key == String, Value: Encodable {
    /// `[String: V]` is an object whose keys are written as they are: key
    /// strategies apply to coding keys, not to dictionary contents
    /// (Foundation's rule).
    func _encode(into node: UInt32, context: _EncodingContext, path: _CodingPathNode, depth: Int) throws {
        let tape = context.tape
        guard depth < context.options.maxDepth else {
            throw _TapeEncoder.tooDeep(path: path, maxDepth: context.options.maxDepth)
        }
        unsafe tape.clear(node)
        _ = unsafe tape.makeContainer(node, kind: .object)
        for (key, value) in self {
            let child = unsafe tape.member(of: node, key: key, replacing: true)
            try _TapeEncoder.encode(value, into: child, context: context,
                                    path: path.appending(_JSONKey(stringValue: key)), depth: depth + 1)
        }
    }
}
