// SPDX-License-Identifier: Apache-2.0
import Foundation

extension StreamingJSONDecoder {
    /// How JSON object keys are matched to a type's `CodingKey`s.
    ///
    /// The same cases as `JSONDecoder.KeyDecodingStrategy`. Keys of a
    /// `[String: V]` dictionary are never converted, as in Foundation.
    public enum KeyDecodingStrategy: Sendable {
        /// Keys are used as they are.
        case useDefaultKeys
        /// `snake_case_keys` become `camelCaseKeys`, with Foundation's algorithm:
        /// leading and trailing underscores are kept, inner runs of underscores
        /// join words (`a__b` → `aB`), a key without inner underscores is unchanged.
        case convertFromSnakeCase
        /// The closure gets the coding path, the JSON key last, and returns the key to match.
        ///
        /// ```swift
        /// decoder.keyDecodingStrategy = .custom { path in
        ///     let key = path.last!.stringValue
        ///     return AnyKey(stringValue: key.lowercased())   // AnyKey: your own CodingKey type
        /// }
        /// ```
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How `Date` values are read.
    ///
    /// The same cases as `JSONDecoder.DateDecodingStrategy`; an unreadable
    /// date throws `DecodingError.dataCorrupted` with its coding path.
    public enum DateDecodingStrategy: Sendable {
        /// `Date`'s own `Decodable`: seconds since 2001-01-01 as a number.
        case deferredToDate
        /// Seconds since 1970-01-01 as a number.
        case secondsSince1970
        /// Milliseconds since 1970-01-01 as a number.
        case millisecondsSince1970
        /// An RFC 3339 / ISO 8601 string, `2017-11-13T14:30:15Z`, with or without
        /// fractional seconds (up to nine digits, as Foundation reads them) and
        /// with `Z` or a numeric offset. Days are counted
        /// in the proleptic Gregorian calendar (Foundation's parser switches to
        /// the Julian calendar before 15 October 1582).
        case iso8601
        /// A string read by the formatter.
        ///
        /// ```swift
        /// let formatter = DateFormatter()
        /// formatter.locale = Locale(identifier: "en_US_POSIX")
        /// formatter.dateFormat = "MMM-dd-yyyy"
        /// decoder.dateDecodingStrategy = .formatted(formatter)
        /// ```
        ///
        /// `DateFormatter` is not `Sendable`; the decoder only reads it, but
        /// the formatter must not be changed while a decode may be using it.
        case formatted(DateFormatter)
        /// The closure decodes the date from a decoder positioned at the value.
        ///
        /// ```swift
        /// decoder.dateDecodingStrategy = .custom { decoder in
        ///     let text = try decoder.singleValueContainer().decode(String.self)
        ///     guard let date = parse(text) else {
        ///         throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
        ///                                                 debugDescription: "Bad date \(text)"))
        ///     }
        ///     return date
        /// }
        /// ```
        case custom(@Sendable (_ decoder: any Decoder) throws -> Date)
    }

    /// How `Data` values are read.
    public enum DataDecodingStrategy: Sendable {
        /// `Data`'s own `Decodable`: an array of byte values.
        case deferredToData
        /// A Base64 string (the default). Invalid Base64 throws
        /// `DecodingError.dataCorrupted`.
        case base64
        /// The closure decodes the data from a decoder positioned at the value.
        case custom(@Sendable (_ decoder: any Decoder) throws -> Data)
    }

    /// How strings standing for non-finite floating-point values are read.
    public enum NonConformingFloatDecodingStrategy: Sendable {
        /// Only JSON numbers decode as `Float` and `Double`.
        case `throw`
        /// These strings decode as infinity, minus infinity and NaN.
        ///
        /// Other strings still throw `typeMismatch`; JSON numbers decode as usual.
        case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }
}

/// Everything a decode needs from the decoder, copied once per call so that
/// the hot path reads plain stored properties and never takes the lock.
struct _DecodingOptions: @unchecked Sendable {
    var keyDecodingStrategy: StreamingJSONDecoder.KeyDecodingStrategy = .useDefaultKeys
    var dateDecodingStrategy: StreamingJSONDecoder.DateDecodingStrategy = .deferredToDate
    var dataDecodingStrategy: StreamingJSONDecoder.DataDecodingStrategy = .base64
    var nonConformingFloatDecodingStrategy: StreamingJSONDecoder.NonConformingFloatDecodingStrategy = .throw
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    var limits = _ParserLimits()

    /// Whether yajl runs on a second thread (`_ParsePipeline.swift`).
    var pipelining = _Pipelining.automatic
    /// Fixed sixteenths of each batch decoded ahead (tests); nil: adaptive.
    var decodeAheadShare: Int?
    /// Threads that parse and decode pieces of a large input (`_PieceDecoder`); nil: one per core.
    var maxThreads: Int?
    /// Bytes per piece (tests make it small); nil: `_PieceSplitter.defaultPieceSize`.
    var pieceSize: Int?

    var usesDefaultKeys: Bool {
        if case .useDefaultKeys = keyDecodingStrategy { return true }
        return false
    }
}

/// When parsing moves to a second thread.
enum _Pipelining: Sendable {
    /// For inputs of at least 1 MiB of known size, on machines with more than one core.
    case automatic
    case never
    /// Tests use this to run small inputs through the pipeline.
    case always

    static let threshold = 1 << 20
}

extension _DecodingOptions {
    /// A stream over `source`, parsed on a second thread when that pays.
    /// `decodingAhead`, for a pipelined stream: the decoder the parsing
    /// thread decodes some elements with (`_DecodeAhead.swift`).
    func makeStream(source: any _ByteSource, size: Int?, mode: _StreamMode?, path: [String] = [],
                    decodingAhead: (any _DecodingAhead)? = nil) -> _ElementStream {
        let pipelined: Bool
        switch pipelining {
        case .never: pipelined = false
        case .always: pipelined = true
        case .automatic:
            pipelined = (size ?? 0) >= _Pipelining.threshold && ProcessInfo.processInfo.activeProcessorCount > 1
        }
        return pipelined
            ? _ElementStream(pipelining: source, mode: mode, path: path, limits: limits, decodingAhead: decodingAhead)
            : _ElementStream(source: source, mode: mode, path: path, limits: limits)
    }
}
