// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

// Errors say where: Foundation's kinds and coding paths, plus the line and
// column of the offending value in the debug description.
//
// Each builder is `@inline(never)`: inlined into the hot functions that
// throw them (a key lookup, a scalar read), their string building took
// registers and stack from the path taken every time.
extension _TapeDecoder {
    /// `separator` and "line 3, column 17 (byte 45)" for the value at
    /// `index`, when it is still on the tape.
    private func appendLocation(of index: Int, after separator: StaticString, to text: inout _ErrorText) {
        guard let local = stream.local(index) else { return }
        text.append(separator)
        unsafe stream.position(of: stream.view[local].position).append(to: &text)
    }

    func describeFound(at index: Int) -> String {
        switch index {
        case Self.streamedRoot: return "an array"
        case Self.absent: return "no value"
        default:
            guard let local = stream.local(index) else { return "a value" }
            return unsafe _describeKind(stream.view[local].kind)
        }
    }

    private func withLocation(_ message: String, _ index: Int) -> String {
        var text = _ErrorText(message)
        return withLocation(&text, index)
    }

    private func withLocation(_ text: inout _ErrorText, _ index: Int) -> String {
        appendLocation(of: index, after: ", at ", to: &text)
        text.append(".")
        return text.string
    }

    /// `String(describing: type)`, kept: the runtime demangles the name on
    /// every call, and a `try?` that falls back to another type makes this
    /// error for every value it reads.
    func typeName(_ type: Any.Type) -> String {
        switch ObjectIdentifier(type) {  // the types a fallback most often tries
        case ObjectIdentifier(Int.self): return "Int"
        case ObjectIdentifier(Int64.self): return "Int64"
        case ObjectIdentifier(Int32.self): return "Int32"
        case ObjectIdentifier(UInt64.self): return "UInt64"
        case ObjectIdentifier(Double.self): return "Double"
        case ObjectIdentifier(String.self): return "String"
        case ObjectIdentifier(Bool.self): return "Bool"
        default: break
        }
        if let name = typeNames[ObjectIdentifier(type)] { return name }
        let name = String(describing: type)
        if typeNames.count < 64 { typeNames[ObjectIdentifier(type)] = name }
        return name
    }

    @inline(never)
    func typeMismatch(_ type: Any.Type, at index: Int, path: _CodingPathNode) -> DecodingError {
        // What was found is no value but an element over maxElementBytes: say so,
        // as streams do.
        if index >= 0, let local = stream.local(index), unsafe stream.view[local].kind == _Kind.oversized {
            return oversized(at: index, path: path)
        }
        return DecodingError.typeMismatch(type, .init(
            codingPath: path.path,
            debugDescription: withLocation("Expected to decode " + typeName(type) + " but found "
                                           + describeFound(at: index) + " instead", index)))
    }

    @inline(never)
    func valueNotFound(_ type: Any.Type, at index: Int, path: _CodingPathNode, _ message: String?) -> DecodingError {
        DecodingError.valueNotFound(type, .init(
            codingPath: path.path,
            debugDescription: withLocation(message ?? "Expected " + typeName(type) + " value but found null instead", index)))
    }

    @inline(never)
    func dataCorrupted(_ message: String, at index: Int, path: _CodingPathNode) -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: path.path, debugDescription: withLocation(message, index)))
    }

    /// "Number 300 does not fit in Int8, at line 1, column 5 (byte 4)."
    @inline(never)
    func doesNotFit(_ literal: UnsafeBufferPointer<UInt8>, _ type: Any.Type, at index: Int,
                    path: _CodingPathNode) -> DecodingError {
        var text = _ErrorText()
        text.append("Number ")
        unsafe text.append(utf8: literal)
        text.append(" does not fit in ")
        text.append(string: typeName(type))
        return DecodingError.dataCorrupted(.init(codingPath: path.path, debugDescription: withLocation(&text, index)))
    }

    @inline(never)
    func keyNotFound(_ key: any CodingKey, inObject index: Int, path: _CodingPathNode) -> DecodingError {
        var text = _ErrorText("No value associated with key \(key) (\"\(key.stringValue)\")")
        appendLocation(of: index, after: " in the object at ", to: &text)
        text.append(".")
        return DecodingError.keyNotFound(key, .init(codingPath: path.path, debugDescription: text.string))
    }

    /// An element that passed `maxElementBytes`: parsed, not kept.
    @inline(never)
    func oversized(at index: Int, path: _CodingPathNode) -> DecodingError {
        let offset = stream.local(index).map { unsafe stream.view[$0].position } ?? 0
        let error = JSONSyntaxError(message: "Element larger than \(stream.limits.maxElementBytes) bytes (maxElementBytes)",
                                    position: stream.position(of: offset))
        return DecodingError.dataCorrupted(.init(codingPath: path.path, debugDescription: error.description,
                                                 underlyingError: error))
    }

    /// A container copy that fell more than one element behind a stream.
    @inline(never)
    func dropped(path: _CodingPathNode) -> DecodingError {
        stream.askedForDroppedElement = true
        return DecodingError.dataCorrupted(.init(
            codingPath: path.path,
            debugDescription: "This element was already dropped from the stream: a copy of a streamed "
                + "container may trail the newest element by one element, not more."))
    }

    /// Without `at:`, a root object is read as the one value of JSON Lines;
    /// when that value does not decode, the caller most likely meant an
    /// array under one of its keys: the same error (case, coding path) says
    /// so and names them. nil for an object on one line (a JSON Lines
    /// record) or without arrays.
    @inline(never)
    func objectRootReadAsLines(_ error: DecodingError, at index: Int) -> DecodingError? {
        guard let local = stream.local(index), unsafe stream.view[local].kind == _Kind.object else { return nil }
        let first = unsafe stream.position(of: stream.view[local].position)
        let last = unsafe stream.position(of: stream.view[local + stream.view[local].span].position)
        // A JSON Lines record sits on one line; a document spread over lines is what a newcomer has.
        guard last.line > first.line,
              let keys = try? unwrap(_ArrayKeyPaths.self, at: index, path: .root), !keys.paths.isEmpty else { return nil }
        let choices = keys.paths.prefix(5).map { path in
            "at: [" + path.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        }
        let hint = " The input's root is an object, not an array: without `at:` it was read as one "
            + "JSON Lines value. To stream the array under one of its keys, pass "
            + choices.joined(separator: " or ") + "."
        func hinted(_ context: DecodingError.Context) -> DecodingError.Context {
            .init(codingPath: context.codingPath, debugDescription: context.debugDescription + hint,
                  underlyingError: context.underlyingError)
        }
        switch error {
        case .keyNotFound(let key, let context): return .keyNotFound(key, hinted(context))
        case .typeMismatch(let type, let context): return .typeMismatch(type, hinted(context))
        case .valueNotFound(let type, let context): return .valueNotFound(type, hinted(context))
        case .dataCorrupted(let context): return .dataCorrupted(hinted(context))
        @unknown default: return nil
        }
    }
}

/// The key paths of an object, two levels deep, that hold arrays: what
/// `at:` could name.
private struct _ArrayKeyPaths: Decodable {
    var paths: [[String]] = []

    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: _JSONKey.self)
        for key in object.allKeys {
            if (try? object.nestedUnkeyedContainer(forKey: key)) != nil {
                paths.append([key.stringValue])
            } else if let inner = try? object.nestedContainer(keyedBy: _JSONKey.self, forKey: key) {
                for innerKey in inner.allKeys where (try? inner.nestedUnkeyedContainer(forKey: innerKey)) != nil {
                    paths.append([key.stringValue, innerKey.stringValue])
                }
            }
        }
    }
}
