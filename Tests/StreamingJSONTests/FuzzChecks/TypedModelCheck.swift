// SPDX-License-Identifier: Apache-2.0
import Foundation
import StreamingJSON

/// The typed model of fuzz target `typed`: optionals, nested arrays and
/// objects, integers of several widths, `Decimal`, dates, `Data`, URL, UUID,
/// an enum, dictionaries with `String` and `Int` keys, and recursion.
public struct FuzzRecord: Codable, Sendable {
    public enum Kind: String, Codable, Sendable { case ale, lager, stout }

    public struct Brewery: Codable, Sendable {
        var name: String
        var founded: Date?
        var location: [Double]?
    }

    var id: Int
    var name: String?
    var price: Decimal?
    var abv: Double?
    var rating: Float?
    var small: Int8?
    var count: UInt64?
    var createdAt: Date?
    var tags: [String]?
    var grid: [[Int?]]?
    var flags: [String: Bool]?
    var byIndex: [Int: String]?
    var kind: Kind?
    var payload: Data?
    var website: URL?
    var uuid: UUID?
    var brewery: Brewery?
    var related: [FuzzRecord]?
}

/// Fuzz target `typed`: a document decoded into `FuzzRecord` (or an array of
/// them) by `StreamingJSONDecoder` and by Foundation's `JSONDecoder`.
///
/// Input: one header byte, then the document.
///   header bits 0-1  date strategy: deferredToDate, secondsSince1970, millisecondsSince1970, iso8601
///          bit  2    convertFromSnakeCase (and convertToSnakeCase to encode)
///          bit  3    non-conforming floats from and to "inf", "-inf", "nan"
///          bit  4    the root is an array of records
///          bit  5    Data as an array of bytes (deferredToData) instead of base64
///
/// - On valid JSON both decoders agree: the same value, or errors of the same
///   kind at the same coding path.
/// - Invalid JSON is a `DecodingError` (and never a value).
/// - `StreamingJSONEncoder` writes a decoded value exactly as `JSONEncoder`
///   does (`.sortedKeys`), and what it writes decodes to the same value
///   (dates only with deferredToDate: the other strategies round).
public enum TypedModelCheck {
    public enum Outcome {
        case value(String)    // the value, as JSONEncoder writes it (see `canonical`)
        case error(String)    // the error's kind and coding path
    }

    struct Strategies {
        var date: Int
        var snakeCase: Bool
        var nonConforming: Bool
        var rootArray: Bool
        var bytes: Bool

        init(_ header: UInt8) {
            date = Int(header & 3)
            snakeCase = header & 4 != 0
            nonConforming = header & 8 != 0
            rootArray = header & 16 != 0
            bytes = header & 32 != 0
        }
    }

    /// Whether the document holds a number literal with 16 or more integer
    /// digits and a fraction or exponent, or a negative exponent of 300 or
    /// more, which may underflow (Foundation's lenient cases above).
    static func hasLargeFractionalNumber(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        for index in bytes.indices where bytes[index] | 0x20 == UInt8(ascii: "e")
            && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-") {
            let exponent = bytes[(index + 2)...].prefix { $0 >= 0x30 && $0 <= 0x39 }
            if exponent.count > 3 || (exponent.count == 3 && exponent.first! >= UInt8(ascii: "3")) { return true }
        }
        var digits = 0
        for byte in data {
            if byte >= 0x30 && byte <= 0x39 {
                digits += 1
            } else if digits >= 16 && (byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e")) {
                return true
            } else {
                digits = 0
            }
        }
        return false
    }

    /// Whether the document holds a literal of 16 or more integer digits
    /// whose fraction is all zeros (`-9223372036854775808.00`).
    static func hasLongIntegralFraction(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        var digits = 0
        for (index, byte) in bytes.enumerated() {
            if byte >= 0x30 && byte <= 0x39 { digits += 1; continue }
            if digits >= 16 && byte == UInt8(ascii: ".") {
                let fraction = bytes[(index + 1)...].prefix { $0 >= 0x30 && $0 <= 0x39 }
                if !fraction.isEmpty && fraction.allSatisfy({ $0 == 0x30 }) { return true }
            }
            digits = 0
        }
        return false
    }

    public static func run(_ input: [UInt8]) throws -> Outcome {
        var reader = FuzzBytes(input)
        let strategies = Strategies(reader.next())
        let data = Data(reader.rest)
        return strategies.rootArray
            ? try check([FuzzRecord].self, data, strategies)
            : try check(FuzzRecord.self, data, strategies)
    }

    private static func check<T: Codable>(_ type: T.Type, _ data: Data, _ strategies: Strategies) throws -> Outcome {
        let ours = Result { try streamingDecoder(strategies).decode(type, from: data) }
        let theirs = Result { try foundationDecoder(strategies).decode(type, from: data) }
        let document = try? StreamingJSONDecoder().decode(JSONValue.self, from: data)
        let isValid = document != nil
        let foundationValid = (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil

        // Bytes that begin as a gzip, zstd, bzip2 or xz stream are decompressed
        // (no JSON text begins so): a damaged stream is a CompressedInputError.
        if case .failure(let error) = ours, !(error is DecodingError || error is CompressedInputError) {
            throw FuzzViolation("StreamingJSONDecoder threw a non-DecodingError: \(error)")
        }
        if !isValid, case .success = ours {
            throw FuzzViolation("a typed decode accepted invalid JSON")
        }
        let outcome: Outcome
        switch ours {
        case .success(let value):
            outcome = .value(try canonical(value))
        case .failure(let error):
            outcome = .error(summary(error))
        }
        if isValid && foundationValid {
            switch (outcome, theirs) {
            case (.value(let a), .success(let value)):
                let b = try canonical(value)
                // Two keys of an [Int: …] dictionary that are the same number
                // ("0" and "-0"): this package keeps the later in the document,
                // Foundation the later in its hash order, which changes from run
                // to run. Not a finding.
                if a != b, hasCollidingIntegerKeys(document!) || hasNonCanonicalIntegerKey(data) { break }
                // Before 15 October 1582 Foundation's .iso8601 counts days in the
                // Julian calendar, this package in the proleptic Gregorian one
                // (RFC 3339; documented): dates then differ by days.
                if a != b, strategies.date == 3, hasISODateBeforeGregorian(document!) { break }
                try require(a == b, "StreamingJSONDecoder decoded \(a), JSONDecoder \(b)")
            case (.value, .failure(let error)) where hasLongIntegralFraction(data) && summary(error) == "dataCorrupted at []":
                // Foundation refuses -9223372036854775808.00 into an Int ("not
                // valid JSON"); its value is Int.min exactly, which this package
                // decodes. A difference in this package's favour.
                break
            case (.value, .failure(let error)) where foundationRefusedADate(error, strategies):
                break
            case (.value, .failure) where hasRepeatedKey(data):
                // A repeated key: the first occurrence is decoded here; Foundation
                // also decodes the later ones of a dictionary, and fails on them
                // (MigratingFromJSONDecoder, "Where Foundation on Linux decodes differently").
                break
            case (.value(let a), .failure(let error)):
                throw FuzzViolation("StreamingJSONDecoder decoded \(a), JSONDecoder threw \(summary(error)): \(error)")
            case (.error, .success) where isTruncatedByFoundation(ours, in: document!)
                                          || isDateRefusedHere(ours, in: document!, strategies):
                break
            case (.error(let a), .success(let value)):
                // Foundation decodes a number beyond 2^53 with a fraction into an
                // integer type, dropping the fraction; this package rejects every
                // non-integral number there (as both reject 18.5): a known
                // difference (MigratingFromJSONDecoder, "Where Foundation on Linux decodes differently"), not a finding.
                if a.hasPrefix("dataCorrupted"), hasLargeFractionalNumber(data) { break }
                throw FuzzViolation("StreamingJSONDecoder threw \(a), JSONDecoder decoded \(try canonical(value))")
            case (.error(let a), .failure(let error)):
                let b = summary(error)
                // Foundation, lenient there (see above), fails later in the document.
                if a.hasPrefix("dataCorrupted"), hasLargeFractionalNumber(data) { break }
                if isTruncatedByFoundation(ours, in: document!) { break }
                // Foundation refuses -9223372036854775808.00 (see above) before
                // this package, which decodes it, fails further on.
                if b == "dataCorrupted at []", hasLongIntegralFraction(data) { break }
                // A string that is not an ISO 8601 date: Foundation's path stops at
                // the object that holds it, this package's names its key; or
                // Foundation took it for one and failed further on (MigratingFromJSONDecoder, "Where Foundation on Linux decodes differently").
                if isDateRefusedHere(ours, in: document!, strategies) || foundationRefusedADate(error, strategies) { break }
                // Foundation failed on a later member of a dictionary's repeated key,
                // which this package does not look at, before this package failed.
                if hasRepeatedKey(data) { break }
                // null where a Bool belongs: Foundation on Linux says typeMismatch for
                // Bool alone (valueNotFound for Int, String…); valueNotFound here (MigratingFromJSONDecoder, "Where Foundation on Linux decodes differently").
                if a.hasPrefix("valueNotFound at ["), b == "typeMismatch" + a.dropFirst("valueNotFound".count) { break }
                try require(sameError(a, b), "StreamingJSONDecoder threw \(a), JSONDecoder \(b)")
            }
        }
        if case .success(let value) = ours {
            try checkEncoding(value, strategies)
        }
        return outcome
    }

    /// `StreamingJSONEncoder` writes Foundation's bytes, and they read back.
    private static func checkEncoding<T: Codable>(_ value: T, _ strategies: Strategies) throws {
        let ours: Data
        do {
            ours = try streamingEncoder(strategies).encode(value)
        } catch {
            throw FuzzViolation("StreamingJSONEncoder cannot encode a decoded value: \(error)")
        }
        if let theirs = try? foundationEncoder(strategies).encode(value) {
            try require(ours == theirs, "StreamingJSONEncoder wrote \(String(decoding: ours, as: UTF8.self)), "
                            + "JSONEncoder \(String(decoding: theirs, as: UTF8.self))")
        }
        let reread: T
        do {
            reread = try streamingDecoder(strategies).decode(T.self, from: ours)
        } catch {
            throw FuzzViolation("what StreamingJSONEncoder wrote does not decode: \(String(decoding: ours, as: UTF8.self)): \(error)")
        }
        if strategies.date == 0 {
            let before = try canonical(value), after = try canonical(reread)
            try require(before == after, "round trip changed \(before) into \(after)")
        }
    }

    /// A value as text that is equal exactly when the values are: every
    /// field, with dates as their exact `timeIntervalSinceReferenceDate`.
    static func canonical<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .deferredToDate
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Whether this package refused a number that Foundation truncates: a
    /// literal that is not an integer but whose nearest Double is (a fraction
    /// past 2^53 as in 18446744073709551.615, a fraction past 17 digits as in
    /// 4.00000000000000000044, an underflow as in 18e-400) goes into an
    /// integer type in Foundation as that Double; this package refuses any
    /// literal that is not integral (as Foundation refuses 18.5).
    static func isTruncatedByFoundation<T>(_ result: Result<T, any Error>, in document: JSONValue) -> Bool {
        guard case .number(let number)? = corruptedValue(result, in: document), let literal = number.literal,
              literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else { return false }
        // Not integral as written, but its nearest Double is.
        return !isIntegralAsWritten(literal) && number.double.isFinite && number.double.rounded() == number.double
    }

    /// The value at the coding path of `result`'s `dataCorrupted` error, if
    /// it failed so and the path leads to a value of the document.
    static func corruptedValue<T>(_ result: Result<T, any Error>, in document: JSONValue) -> JSONValue? {
        guard case .failure(let error) = result, case .dataCorrupted(let context)? = error as? DecodingError else {
            return nil
        }
        var value = document
        for key in context.codingPath {
            if let index = key.intValue, case .array(let elements) = value, elements.indices.contains(index) {
                value = elements[index]
            } else if case .object(let object) = value,
                      let member = object[key.stringValue] ?? object.keys.first(where: { camelCase($0) == key.stringValue })
                        .flatMap({ object[$0] }) {
                value = member
            } else {
                return nil
            }
        }
        return value
    }

    /// Whether this package refused, under `.iso8601`, a string that
    /// Foundation's lenient parser may take for a date: a one-digit offset
    /// (`+3`), characters after the zone (MigratingFromJSONDecoder, "Where Foundation on Linux decodes differently").
    static func isDateRefusedHere<T>(_ result: Result<T, any Error>, in document: JSONValue,
                                     _ strategies: Strategies) -> Bool {
        guard strategies.date == 3, case .string? = corruptedValue(result, in: document) else { return false }
        return true
    }

    /// Whether some object of the (valid) document repeats a key, as spelled.
    static func hasRepeatedKey(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var objects: [Set<ArraySlice<UInt8>>?] = []  // nil: an array
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "{") {
                objects.append(Set())
            } else if byte == UInt8(ascii: "[") {
                objects.append(nil)
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                _ = objects.popLast()
            } else if byte == quote {
                var end = index + 1
                while end < bytes.count && bytes[end] != quote { end += bytes[end] == backslash ? 2 : 1 }
                let string = bytes[(index + 1)..<min(end, bytes.count)]
                var next = end + 1
                while next < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
                if next < bytes.count, bytes[next] == UInt8(ascii: ":"), let last = objects.indices.last,
                   objects[last] != nil, objects[last]!.insert(string).inserted == false {
                    return true
                }
                index = end
            }
            index += 1
        }
        return false
    }

    /// Whether Foundation's `.iso8601` refused a date string, one that this
    /// package may read: RFC 3339 allows a lowercase "t" between date and
    /// time, which Foundation refuses (MigratingFromJSONDecoder, "Where Foundation on Linux decodes differently"). This package then
    /// decodes the value, or fails further on.
    static func foundationRefusedADate(_ error: any Error, _ strategies: Strategies) -> Bool {
        strategies.date == 3 && "\(error)".contains("ISO8601-formatted")
    }

    /// Whether a number literal denotes an integer (`4.000`, `15e-1` is not,
    /// `1.5e1` is), decided on its digits, not on a rounded Double.
    static func isIntegralAsWritten(_ literal: String) -> Bool {
        var text = Substring(literal)
        if text.first == "-" { text = text.dropFirst() }
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }
        var exponentText = text.dropFirst(mantissa.count).dropFirst()
        if exponentText.first == "+" { exponentText = exponentText.dropFirst() }
        let integerPart = mantissa.prefix { $0 != "." }
        let digits = Array(integerPart) + Array(mantissa.dropFirst(integerPart.count).dropFirst())
        if digits.allSatisfy({ $0 == "0" }) { return true }
        // An exponent past Int's range: huge (integral) or tiny (not).
        let exponent = exponentText.isEmpty ? 0 : Int(exponentText) ?? (exponentText.first == "-" ? Int.min / 2 : Int.max / 2)
        let point = integerPart.count + exponent  // digits before the decimal point
        guard point > 0 else { return false }
        return point >= digits.count || digits[point...].allSatisfy { $0 == "0" }
    }

    /// Whether some object key in the document is an integer that `Int(_:)`
    /// reads but spelled otherwise than `String(Int)` writes it (`"-0"`,
    /// `"+1"`, `"01"`): the only way two keys of an `[Int: …]` dictionary
    /// can collide. Read from the bytes, since `JSONValue` keeps one of
    /// repeated keys and the decoders read the first (a repeated
    /// `"byIndex"` whose first object holds "0" and "-0").
    static func hasNonCanonicalIntegerKey(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\"") else { index += 1; continue }
            var end = index + 1
            while end < bytes.count && bytes[end] != UInt8(ascii: "\"") {
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard end < bytes.count else { return false }
            var next = end + 1
            while next < bytes.count && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
            if next < bytes.count && bytes[next] == UInt8(ascii: ":"),
               let key = try? JSONDecoder().decode(String.self, from: Data(bytes[index...end])),
               let number = Int(key), String(number) != key {
                return true
            }
            index = end + 1
        }
        return false
    }

    /// Whether a string in `value` begins like an ISO 8601 date before 1583
    /// (or before year 0), where Foundation's calendar is the Julian one.
    static func hasISODateBeforeGregorian(_ value: JSONValue) -> Bool {
        switch value {
        case .array(let elements):
            return elements.contains(where: hasISODateBeforeGregorian)
        case .object(let object):
            return object.values.contains(where: hasISODateBeforeGregorian)
        case .string(let text):
            if text.hasPrefix("-") { return true }
            guard let year = Int(text.prefix(4)), text.dropFirst(4).first == "-" else { return false }
            return year < 1583
        default:
            return false
        }
    }

    /// Whether an object in `value` has two keys that `Int(_:)` reads as the
    /// same integer.
    static func hasCollidingIntegerKeys(_ value: JSONValue) -> Bool {
        switch value {
        case .array(let elements):
            return elements.contains(where: hasCollidingIntegerKeys)
        case .object(let object):
            var seen = Set<Int>()
            for key in object.keys { if let number = Int(key), !seen.insert(number).inserted { return true } }
            return object.values.contains(where: hasCollidingIntegerKeys)
        default:
            return false
        }
    }

    /// `snake_case` as `convertFromSnakeCase` reads it, for the model's keys.
    private static func camelCase(_ key: String) -> String {
        let parts = key.split(separator: "_")
        return (parts.first.map(String.init) ?? "") + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// Whether two `summary`s tell the same error. Foundation reports some
    /// errors (a number out of range) without a coding path, where this
    /// package names the value's; and it lists a dictionary's keys in hash
    /// order, where this package keeps document order, so the first bad
    /// member of a dictionary may differ.
    static func sameError(_ ours: String, _ theirs: String) -> Bool {
        if ours == theirs { return true }
        func split(_ summary: String) -> (kind: Substring, path: [Substring]) {
            let parts = summary.split(separator: " at [", maxSplits: 1)
            // An empty key is a path component too ("[byIndex, ]"); "[]" is no path.
            let inside = parts.count > 1 ? parts[1].dropLast() : ""
            return (parts[0], inside.isEmpty ? [] : inside.split(separator: ", ", omittingEmptySubsequences: false))
        }
        let a = split(ours), b = split(theirs)
        guard a.kind == b.kind else { return false }
        if b.path.isEmpty { return true }
        // Past the first dictionary on the path the keys are the document's
        // and may hold ", " themselves: the same path up to that dictionary
        // is the same error. Compared as bytes: a key that starts with a
        // combining mark joins the ", " before it into one Character.
        let ourBytes = Array(ours.utf8), theirBytes = Array(theirs.utf8)
        for dictionary in ["flags, ", "byIndex, "] {
            for opening in ["[", ", "] {
                if let range = ourBytes.firstRange(of: Array((opening + dictionary).utf8)),
                   theirBytes.starts(with: ourBytes[..<range.upperBound]) { return true }
            }
        }
        guard a.path.count == b.path.count else { return false }
        return a.path.indices.allSatisfy { i in
            a.path[i] == b.path[i] || i > 0 && ["flags", "byIndex"].contains(a.path[i - 1]) && a.path[i - 1] == b.path[i - 1]
        }
    }

    /// An error's kind and coding path, which both decoders must agree on.
    static func summary(_ error: any Error) -> String {
        if error is CompressedInputError { return "CompressedInputError" }
        guard let error = error as? DecodingError else { return "not a DecodingError: \(error)" }
        let kind: String
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let c): kind = "typeMismatch"; context = c
        case .valueNotFound(_, let c): kind = "valueNotFound"; context = c
        case .keyNotFound(let key, let c): kind = "keyNotFound(\(key.stringValue))"; context = c
        case .dataCorrupted(let c): kind = "dataCorrupted"; context = c
        @unknown default: return "\(error)"
        }
        return kind + " at [" + context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            .joined(separator: ", ") + "]"
    }

    static func streamingDecoder(_ s: Strategies) -> StreamingJSONDecoder {
        let decoder = StreamingJSONDecoder()
        decoder.dateDecodingStrategy = [.deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601][s.date]
        if s.snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        if s.nonConforming {
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        }
        decoder.dataDecodingStrategy = s.bytes ? .deferredToData : .base64
        return decoder
    }

    static func foundationDecoder(_ s: Strategies) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = [.deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601][s.date]
        if s.snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        if s.nonConforming {
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        }
        decoder.dataDecodingStrategy = s.bytes ? .deferredToData : .base64
        return decoder
    }

    static func streamingEncoder(_ s: Strategies) -> StreamingJSONEncoder {
        let encoder = StreamingJSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = [.deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601][s.date]
        if s.snakeCase { encoder.keyEncodingStrategy = .convertToSnakeCase }
        if s.nonConforming {
            encoder.nonConformingFloatEncodingStrategy = .convertToString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        }
        encoder.dataEncodingStrategy = s.bytes ? .deferredToData : .base64
        return encoder
    }

    static func foundationEncoder(_ s: Strategies) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = [.deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601][s.date]
        if s.snakeCase { encoder.keyEncodingStrategy = .convertToSnakeCase }
        if s.nonConforming {
            encoder.nonConformingFloatEncodingStrategy = .convertToString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        }
        encoder.dataEncodingStrategy = s.bytes ? .deferredToData : .base64
        return encoder
    }
}
