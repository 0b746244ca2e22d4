// SPDX-License-Identifier: Apache-2.0
import Foundation
import StreamingJSON

// The property checks behind the fuzz targets in Fuzz/. The files of this
// folder are compiled twice: into the fuzz targets (Fuzz/Sources/FuzzChecks
// is a link to this folder), which stop on the first broken property so that
// libFuzzer keeps the input, and into StreamingJSONTests, where
// FuzzRegressionTests runs every input the fuzzers ever stopped on through
// the same checks. The filter target's check, which needs JSONFilter, is in
// Tests/JSONFilterTests/FuzzChecks (Fuzz/Sources/FilterFuzzChecks).

/// A property a fuzz check found broken.
public struct FuzzViolation: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw FuzzViolation(message()) }
}

/// The fuzzer's bytes read as a series of choices; zeros past the end.
struct FuzzBytes {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { position >= bytes.count }

    mutating func next() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// The bytes not read yet.
    var rest: [UInt8] { position < bytes.count ? Array(bytes[position...]) : [] }
}

/// The syntax error a `DecodingError` carries, if it is one.
func syntaxError(of error: any Error) -> JSONSyntaxError? {
    if case .dataCorrupted(let context)? = error as? DecodingError {
        return context.underlyingError as? JSONSyntaxError
    }
    return nil
}

extension JSONSyntaxError {
    /// Checks the position rules (MigratingFromJSONDecoder, "Errors"): the offset lies
    /// in the input, and line and column are the ones of that offset, lines
    /// ending at LF and columns counting bytes from 1.
    func checkPosition(in input: [UInt8]) throws {
        try require(byteOffset >= 0 && byteOffset <= input.count,
                    "syntax error offset \(byteOffset) outside the \(input.count)-byte input: \(self)")
        let before = input[..<byteOffset]
        let line = 1 + before.lazy.filter { $0 == 0x0A }.count
        let lineStart = (before.lastIndex(of: 0x0A) ?? -1) + 1
        try require(self.line == line && column == byteOffset - lineStart + 1,
                    "syntax error at byte \(byteOffset) should be line \(line), column \(byteOffset - lineStart + 1): \(self)")
    }
}

enum FuzzJSON {
    /// Stricter than `==`: strings compare scalar by scalar (Swift's `==`
    /// would equate canonically equivalent ones), numbers read from text
    /// keep that text, and with `orderedKeys` members keep their order.
    static func identical(_ a: JSONValue, _ b: JSONValue, orderedKeys: Bool = true) -> Bool {
        switch (a, b) {
        case (.null, .null):
            return true
        case (.bool(let x), .bool(let y)):
            return x == y
        case (.number(let x), .number(let y)):
            if let l = x.literal, let r = y.literal { return l == r }
            return x == y
        case (.string(let x), .string(let y)):
            return x.utf8.elementsEqual(y.utf8)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { identical($0, $1, orderedKeys: orderedKeys) }
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            if orderedKeys {
                return x.keys.elementsEqual(y.keys) { $0.utf8.elementsEqual($1.utf8) }
                    && zip(x.values, y.values).allSatisfy { identical($0, $1, orderedKeys: orderedKeys) }
            }
            return zip(x.keys, x.values).allSatisfy { key, value in
                y[key].map { identical(value, $0, orderedKeys: orderedKeys) } ?? false
            }
        default:
            return false
        }
    }

    /// Whether a computed NaN or infinity is inside.
    static func hasNonFinite(_ value: JSONValue) -> Bool {
        switch value {
        case .number(let number): return number.literal == nil && !number.double.isFinite
        case .array(let elements): return elements.contains(where: hasNonFinite)
        case .object(let object): return object.values.contains(where: hasNonFinite)
        default: return false
        }
    }

    /// Nesting depth: 0 for a scalar, 1 for `[]`.
    static func depth(_ value: JSONValue) -> Int {
        switch value {
        case .array(let elements): return 1 + (elements.map(depth).max() ?? 0)
        case .object(let object): return 1 + (object.values.map(depth).max() ?? 0)
        default: return 0
        }
    }
}
