// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

// Decoding and encoding `JSONValue`. With this package's decoder and encoder
// the value goes straight from and to the tape (numbers keep their text,
// keys are never converted); any other `Decoder`/`Encoder` goes through the
// usual containers.

extension JSONValue: Codable {
    /// Decodes any JSON value.
    ///
    /// From ``StreamingJSONDecoder`` the value is built straight from the
    /// parser's tape: numbers keep their literal text and keys their order.
    /// From other decoders it is probed as null, bool, string, number, array,
    /// then object; a number comes back as `Int64`, `UInt64` or `Double`, and
    /// the order of an object's keys is the decoder's (unspecified for
    /// `JSONDecoder`).
    public init(from decoder: any Decoder) throws {
        if let tape = decoder as? _TapeDecoder, tape.value >= 0 {
            self = try Self._decode(from: tape, at: tape.value, path: tape.path)
            return
        }
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() {
                self = .null
                return
            }
            if let bool = try? single.decode(Bool.self) {
                self = .bool(bool)
                return
            }
            if let string = try? single.decode(String.self) {
                self = .string(string)
                return
            }
            if let number = try? single.decode(JSONNumber.self) {
                self = .number(number)
                return
            }
        }
        if var elements = try? decoder.unkeyedContainer() {
            var array: [JSONValue] = []
            while !elements.isAtEnd { array.append(try elements.decode(JSONValue.self)) }
            self = .array(array)
            return
        }
        let members = try decoder.container(keyedBy: _JSONKey.self)
        var object = JSONObject()
        for key in members.allKeys {
            object[key.stringValue] = try members.decode(JSONValue.self, forKey: key)
        }
        self = .object(object)
    }

    /// Encodes the value as it is. ``StreamingJSONEncoder`` writes numbers
    /// with their literal text, keeps the keys' order and never converts
    /// them with its key strategy; other encoders get the nearest `Int64`,
    /// `UInt64` or `Double` for a number.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let bool):
            var single = encoder.singleValueContainer()
            try single.encode(bool)
        case .number(let number):
            try number.encode(to: encoder)
        case .string(let string):
            var single = encoder.singleValueContainer()
            try single.encode(string)
        case .array(let array):
            var elements = encoder.unkeyedContainer()
            for element in array { try elements.encode(element) }
        case .object(let object):
            var members = encoder.container(keyedBy: _JSONKey.self)
            for (key, value) in object { try members.encode(value, forKey: _JSONKey(stringValue: key)) }
        }
    }
}

extension JSONNumber: Codable {
    /// Decodes a number. From ``StreamingJSONDecoder`` its literal text is
    /// kept exactly; other decoders yield an `Int64`, a `UInt64` or a `Double`.
    public init(from decoder: any Decoder) throws {
        if let tape = decoder as? _TapeDecoder, tape.value >= 0 {
            let token = try tape.scalar(_Kind.number, JSONNumber.self, at: tape.value, path: tape.path)
            unsafe self.init(validatedText: String(_validatedUTF8: tape.bytes(of: token)))
            return
        }
        let single = try decoder.singleValueContainer()
        if let int = try? single.decode(Int64.self) {
            self.init(validatedText: String(int))
        } else if let uint = try? single.decode(UInt64.self) {
            self.init(validatedText: String(uint))
        } else {
            self.init(try single.decode(Double.self))
        }
    }

    /// Encodes the number. ``StreamingJSONEncoder`` writes the literal text
    /// verbatim; other encoders get the nearest `Int64`, `UInt64` or `Double`.
    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        if case .literal(let text) = storage {
            if let int = Int64(text) { return try single.encode(int) }
            if let uint = UInt64(text) { return try single.encode(uint) }
        }
        try single.encode(double)
    }
}

extension JSONValue: _TapeDecodable {
    /// Builds the value from the tape in one walk (`_ValueBuilder`, shared
    /// with jsonstream's reader): no containers, no coding keys.
    static func _decode(from decoder: _TapeDecoder, at index: Int, path: _CodingPathNode) throws -> JSONValue {
        guard let local = decoder.stream.local(index) else { throw decoder.dropped(path: path) }
        let view = unsafe decoder.stream.view
        guard unsafe view[local].kind != _Kind.oversized else { throw decoder.oversized(at: index, path: path) }
        return unsafe decoder.valueBuilder.value(at: local, in: view)
    }
}

extension JSONValue: _TapeEncodable {
    /// Written as it is: numbers with their literal text, object keys never
    /// converted by the key strategy, member order kept.
    func _encode(into node: UInt32, context: _EncodingContext, path: _CodingPathNode, depth: Int) throws {
        let tape = context.tape
        switch self {
        case .null:
            unsafe tape.setScalar(node) { $0.writeLiteral("null") }
        case .bool(let bool):
            unsafe tape.setScalar(node) { $0.writeBool(bool) }
        case .number(let number):
            try number._encode(into: node, context: context, path: path, depth: depth)
        case .string(let string):
            let slashes = context.escapesSlashes
            unsafe tape.setScalar(node) { $0.writeString(string, escapesSlashes: slashes) }
        case .array(let array):
            try array._encode(into: node, context: context, path: path, depth: depth)
        case .object(let object):
            guard depth < context.options.maxDepth else {
                throw _TapeEncoder.tooDeep(path: path, maxDepth: context.options.maxDepth)
            }
            unsafe tape.clear(node)
            _ = unsafe tape.makeContainer(node, kind: .object)
            for (key, value) in object {
                let child = unsafe tape.member(of: node, key: key, replacing: true)
                try value._encode(into: child, context: context,
                                  path: path.appending(_JSONKey(stringValue: key)), depth: depth + 1)
            }
        }
    }
}

extension JSONNumber: _TapeEncodable {
    /// The literal text verbatim; a computed double as the encoder writes doubles.
    func _encode(into node: UInt32, context: _EncodingContext, path: _CodingPathNode, depth: Int) throws {
        switch storage {
        case .literal(var text):
            unsafe context.tape.setScalar(node) { bytes in text.withUTF8 { unsafe bytes.append(contentsOf: $0) } }
        case .double(let value):
            try _TapeEncoder.encodeFloat(value, into: node, context: context, path: path)
        }
    }
}
