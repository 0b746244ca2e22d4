// SPDX-License-Identifier: Apache-2.0
import Foundation

extension StreamingJSONEncoder {
    /// How the output is laid out. The same options, and the same bytes, as
    /// Foundation's `JSONEncoder.OutputFormatting`.
    public struct OutputFormatting: OptionSet, Sendable {
        /// The option bits (the same values as Foundation's).
        public let rawValue: UInt
        /// Options from their bits; unknown bits are kept and ignored.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Two-space indents, one member or element per line, `"key" : value`.
        public static let prettyPrinted = OutputFormatting(rawValue: 1 << 0)
        /// Object keys in the byte order of their UTF-8 spelling, as
        /// Foundation sorts them. Without it keys come out in the order they
        /// were encoded (Foundation's order is unspecified).
        public static let sortedKeys = OutputFormatting(rawValue: 1 << 1)
        /// `/` is written as is instead of `\/`.
        public static let withoutEscapingSlashes = OutputFormatting(rawValue: 1 << 3)
    }

    /// How coding keys become JSON object keys.
    ///
    /// The same cases as `JSONEncoder.KeyEncodingStrategy`.
    public enum KeyEncodingStrategy: Sendable {
        /// Keys are written as they are.
        case useDefaultKeys
        /// `camelCaseKeys` become `camel_case_keys`, with Foundation's
        /// algorithm (`myURLKey` → `my_url_key`). Keys of `[String: V]`
        /// dictionaries are written unchanged, as Foundation does.
        case convertToSnakeCase
        /// The closure gets the coding path, the key being written last, and
        /// returns the key to write.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How `Date` values are written.
    ///
    /// The same cases as `JSONEncoder.DateEncodingStrategy`.
    public enum DateEncodingStrategy: Sendable {
        /// `Date`'s own `Encodable`: seconds since 2001-01-01 as a number.
        case deferredToDate
        /// Seconds since 1970-01-01 as a number.
        case secondsSince1970
        /// Milliseconds since 1970-01-01 as a number.
        case millisecondsSince1970
        /// An RFC 3339 / ISO 8601 string in UTC, `2017-11-13T14:30:15Z`,
        /// whole seconds (the fraction is dropped, as `ISO8601DateFormatter` does).
        case iso8601
        /// A string written by the formatter.
        case formatted(DateFormatter)
        /// The closure encodes the date into the encoder it is given; if it
        /// encodes nothing, an empty object is written (as Foundation does).
        case custom(@Sendable (_ date: Date, _ encoder: any Encoder) throws -> Void)
    }

    /// How `Data` values are written.
    ///
    /// The same cases as `JSONEncoder.DataEncodingStrategy`.
    public enum DataEncodingStrategy: Sendable {
        /// `Data`'s own `Encodable`: an array of byte values.
        case deferredToData
        /// A Base64 string (the default).
        case base64
        /// The closure encodes the data into the encoder it is given; if it
        /// encodes nothing, an empty object is written.
        case custom(@Sendable (_ data: Data, _ encoder: any Encoder) throws -> Void)
    }

    /// How non-finite floating-point values are written.
    public enum NonConformingFloatEncodingStrategy: Sendable {
        /// NaN and the infinities throw `EncodingError.invalidValue`.
        case `throw`
        /// They are written as these strings.
        ///
        /// ```swift
        /// encoder.nonConformingFloatEncodingStrategy =
        ///     .convertToString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        /// ```
        case convertToString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }
}

/// Everything an encode needs from the encoder, copied once per call so that
/// the hot path reads plain stored properties and never takes the lock.
struct _EncodingOptions: @unchecked Sendable {
    var outputFormatting: StreamingJSONEncoder.OutputFormatting = []
    var keyEncodingStrategy: StreamingJSONEncoder.KeyEncodingStrategy = .useDefaultKeys
    var dateEncodingStrategy: StreamingJSONEncoder.DateEncodingStrategy = .deferredToDate
    var dataEncodingStrategy: StreamingJSONEncoder.DataEncodingStrategy = .base64
    var nonConformingFloatEncodingStrategy: StreamingJSONEncoder.NonConformingFloatEncodingStrategy = .throw
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// Deepest nesting of arrays and objects written.
    var maxDepth = 512
    /// Every value through the tape, never written directly (tests compare the two).
    var forcesTape = false

    var usesDefaultKeys: Bool {
        if case .useDefaultKeys = keyEncodingStrategy { return true }
        return false
    }
}
