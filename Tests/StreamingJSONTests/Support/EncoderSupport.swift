// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

// Helpers shared by the encoder suites (EncoderScenarioTests, EncoderParityTests,
// EncoderRoundTripTests, StreamWriterTests).

/// A coding key made from any string or index.
struct EncKey: CodingKey, Hashable, ExpressibleByStringLiteral, Sendable {
    var stringValue: String
    var intValue: Int?

    init(_ string: String) { stringValue = string; intValue = nil }
    init(stringLiteral value: String) { self.init(value) }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { stringValue = "\(intValue)"; self.intValue = intValue }
}

enum Enc {
    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    /// Our encoder's output as a string.
    static func ours<T: Encodable>(_ value: T, _ configure: (StreamingJSONEncoder) -> Void = { _ in }) throws -> String {
        let encoder = StreamingJSONEncoder()
        configure(encoder)
        return text(try encoder.encode(value))
    }

    /// Foundation's output as a string.
    static func foundation<T: Encodable>(_ value: T, _ configure: (JSONEncoder) -> Void = { _ in }) throws -> String {
        let encoder = JSONEncoder()
        configure(encoder)
        return text(try encoder.encode(value))
    }

    /// Both outputs for the same setup.
    static func both<T: Encodable>(_ value: T, _ setup: EncodingSetup) throws -> (ours: String, foundation: String) {
        (try ours(value, setup.configure), try foundation(value, setup.configure))
    }

    /// A coding path as strings: `[3]` for an index, the key's string otherwise.
    static func path(_ keys: [any CodingKey]) -> [String] {
        keys.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
    }

    /// Runs `body`, which must throw an `EncodingError`, and returns it.
    static func encodingError(sourceLocation: SourceLocation = #_sourceLocation,
                              _ body: () throws -> Void) -> EncodingError? {
        do {
            try body()
        } catch let error as EncodingError {
            return error
        } catch {
            Issue.record("expected an EncodingError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
            return nil
        }
        Issue.record("expected an EncodingError, nothing was thrown", sourceLocation: sourceLocation)
        return nil
    }

    /// The coding path of an `EncodingError.invalidValue`, or nil for another error.
    static func invalidValuePath(_ error: EncodingError?) -> [String]? {
        guard case .invalidValue(_, let context)? = error else { return nil }
        return path(context.codingPath)
    }

    /// A POSIX formatter in UTC, so results do not depend on the machine.
    static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)!
        formatter.dateFormat = format
        return formatter
    }

    /// A fresh temporary file URL (not created).
    static func temporaryURL(_ label: String, ext: String = "json") -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString).\(ext)")
    }
}

/// One set of encoder options, applied the same way to our encoder and to
/// Foundation's (custom closures do the same thing in both).
struct EncodingSetup: CustomStringConvertible, Sendable {
    enum DateChoice: CaseIterable, Sendable {
        case deferred, seconds, milliseconds, iso8601, formatted, customString, customKeyed, customNothing
    }
    enum DataChoice: CaseIterable, Sendable { case deferred, base64, customHex, customUnkeyed, customNothing }
    enum FloatChoice: CaseIterable, Sendable { case `throw`, strings }
    enum KeyChoice: CaseIterable, Sendable { case useDefault, snake, customUpper }

    var pretty = false
    var sorted = true
    var noSlashes = false
    var date = DateChoice.deferred
    var data = DataChoice.base64
    var floats = FloatChoice.throw
    var keys = KeyChoice.useDefault

    var description: String {
        "pretty=\(pretty) sorted=\(sorted) noSlashes=\(noSlashes) date=\(date) data=\(data) floats=\(floats) keys=\(keys)"
    }

    static let dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS'/'ZZZZZ"
    static let (infinity, minusInfinity, nan) = ("+Inf/", "-Inf", "Not a \"number\"")

    static func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }

    func configure(_ encoder: StreamingJSONEncoder) {
        var formatting: StreamingJSONEncoder.OutputFormatting = []
        if pretty { formatting.insert(.prettyPrinted) }
        if sorted { formatting.insert(.sortedKeys) }
        if noSlashes { formatting.insert(.withoutEscapingSlashes) }
        encoder.outputFormatting = formatting
        switch date {
        case .deferred: encoder.dateEncodingStrategy = .deferredToDate
        case .seconds: encoder.dateEncodingStrategy = .secondsSince1970
        case .milliseconds: encoder.dateEncodingStrategy = .millisecondsSince1970
        case .iso8601: encoder.dateEncodingStrategy = .iso8601
        case .formatted: encoder.dateEncodingStrategy = .formatted(Enc.formatter(Self.dateFormat))
        case .customString: encoder.dateEncodingStrategy = .custom(Self.customDateString)
        case .customKeyed: encoder.dateEncodingStrategy = .custom(Self.customDateKeyed)
        case .customNothing: encoder.dateEncodingStrategy = .custom { _, _ in }
        }
        switch data {
        case .deferred: encoder.dataEncodingStrategy = .deferredToData
        case .base64: encoder.dataEncodingStrategy = .base64
        case .customHex: encoder.dataEncodingStrategy = .custom(Self.customDataHex)
        case .customUnkeyed: encoder.dataEncodingStrategy = .custom(Self.customDataUnkeyed)
        case .customNothing: encoder.dataEncodingStrategy = .custom { _, _ in }
        }
        switch floats {
        case .throw: encoder.nonConformingFloatEncodingStrategy = .throw
        case .strings:
            encoder.nonConformingFloatEncodingStrategy = .convertToString(
                positiveInfinity: Self.infinity, negativeInfinity: Self.minusInfinity, nan: Self.nan)
        }
        switch keys {
        case .useDefault: encoder.keyEncodingStrategy = .useDefaultKeys
        case .snake: encoder.keyEncodingStrategy = .convertToSnakeCase
        case .customUpper: encoder.keyEncodingStrategy = .custom(Self.upper)
        }
    }

    func configure(_ encoder: JSONEncoder) {
        var formatting: JSONEncoder.OutputFormatting = []
        if pretty { formatting.insert(.prettyPrinted) }
        if sorted { formatting.insert(.sortedKeys) }
        if noSlashes { formatting.insert(.withoutEscapingSlashes) }
        encoder.outputFormatting = formatting
        switch date {
        case .deferred: encoder.dateEncodingStrategy = .deferredToDate
        case .seconds: encoder.dateEncodingStrategy = .secondsSince1970
        case .milliseconds: encoder.dateEncodingStrategy = .millisecondsSince1970
        case .iso8601: encoder.dateEncodingStrategy = .iso8601
        case .formatted: encoder.dateEncodingStrategy = .formatted(Enc.formatter(Self.dateFormat))
        case .customString: encoder.dateEncodingStrategy = .custom(Self.customDateString)
        case .customKeyed: encoder.dateEncodingStrategy = .custom(Self.customDateKeyed)
        case .customNothing: encoder.dateEncodingStrategy = .custom { _, _ in }
        }
        switch data {
        case .deferred: encoder.dataEncodingStrategy = .deferredToData
        case .base64: encoder.dataEncodingStrategy = .base64
        case .customHex: encoder.dataEncodingStrategy = .custom(Self.customDataHex)
        case .customUnkeyed: encoder.dataEncodingStrategy = .custom(Self.customDataUnkeyed)
        case .customNothing: encoder.dataEncodingStrategy = .custom { _, _ in }
        }
        switch floats {
        case .throw: encoder.nonConformingFloatEncodingStrategy = .throw
        case .strings:
            encoder.nonConformingFloatEncodingStrategy = .convertToString(
                positiveInfinity: Self.infinity, negativeInfinity: Self.minusInfinity, nan: Self.nan)
        }
        switch keys {
        case .useDefault: encoder.keyEncodingStrategy = .useDefaultKeys
        case .snake: encoder.keyEncodingStrategy = .convertToSnakeCase
        case .customUpper: encoder.keyEncodingStrategy = .custom(Self.upper)
        }
    }

    @Sendable static func customDateString(_ date: Date, _ encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode("t=\(date.timeIntervalSince1970)")
    }

    @Sendable static func customDateKeyed(_ date: Date, _ encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: EncKey.self)
        try container.encode(date.timeIntervalSince1970, forKey: "seconds")
        try container.encode("UTC/Z", forKey: "zoneName")
    }

    @Sendable static func customDataHex(_ data: Data, _ encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex(data))
    }

    @Sendable static func customDataUnkeyed(_ data: Data, _ encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(data.count)
        for byte in data.reversed() { try container.encode(Int(byte) - 128) }
    }

    @Sendable static func upper(_ path: [any CodingKey]) -> any CodingKey {
        let last = path.last!
        if let index = last.intValue { return EncKey(intValue: index)! }
        return EncKey(last.stringValue.uppercased() + "_K")
    }
}
