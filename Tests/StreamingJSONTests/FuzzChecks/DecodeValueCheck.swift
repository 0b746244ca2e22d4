// SPDX-License-Identifier: Apache-2.0
import Foundation
import StreamingJSON

/// Fuzz target `decode`: any bytes through `decode(JSONValue.self, from:)`.
///
/// - Invalid input is a `DecodingError.dataCorrupted` whose `JSONSyntaxError`
///   points inside the input, with the line and column of its offset.
/// - A decoded value survives both writers: `StreamingJSONEncoder`'s output
///   and jq's (`description`) decode to an identical value (number literals,
///   scalars and key order kept), and re-encoding gives the same bytes.
public enum DecodeValueCheck {
    public static func run(_ input: [UInt8]) throws -> Result<JSONValue, DecodingError> {
        let decoder = StreamingJSONDecoder()
        let outcome: Result<JSONValue, DecodingError>
        do {
            outcome = .success(try decoder.decode(JSONValue.self, from: Data(input)))
        } catch let error as DecodingError {
            outcome = .failure(error)
        } catch is CompressedInputError {
            // Bytes that begin as a gzip, zstd, bzip2 or xz stream are
            // decompressed (no JSON text begins so), and a damaged one is this
            // error: there is no JSON position to check.
            return .failure(.dataCorrupted(.init(codingPath: [], debugDescription: "CompressedInputError")))
        } catch {
            throw FuzzViolation("decode threw a non-DecodingError: \(error)")
        }
        switch outcome {
        case .failure(let error):
            guard let syntax = syntaxError(of: error) else {
                throw FuzzViolation("a JSONValue can only fail on invalid JSON, got \(error)")
            }
            try syntax.checkPosition(in: input)
        case .success(let value):
            try checkWriters(value, decoder: decoder)
        }
        return outcome
    }

    /// What both writers write of `value` reads back as `value`.
    static func checkWriters(_ value: JSONValue, decoder: StreamingJSONDecoder) throws {
        let encoder = StreamingJSONEncoder()
        let encoded: Data
        do {
            encoded = try encoder.encode(value)
        } catch {
            throw FuzzViolation("encoding a decoded value failed: \(error)")
        }
        let reread = try decodeWritten(encoded, by: "StreamingJSONEncoder", decoder: decoder)
        try require(FuzzJSON.identical(value, reread),
                    "StreamingJSONEncoder round trip changed \(value) into \(reread)")
        let again = try encoder.encode(reread)
        try require(again == encoded,
                    "re-encoding changed \(String(decoding: encoded, as: UTF8.self)) into \(String(decoding: again, as: UTF8.self))")

        let jq = Data(value.description.utf8)
        let fromJQ = try decodeWritten(jq, by: "the jq writer", decoder: decoder)
        try require(FuzzJSON.identical(value, fromJQ), "jq writer round trip changed \(value) into \(fromJQ)")
    }

    private static func decodeWritten(_ data: Data, by writer: String, decoder: StreamingJSONDecoder) throws -> JSONValue {
        do {
            return try decoder.decode(JSONValue.self, from: data)
        } catch {
            throw FuzzViolation("\(writer) wrote what does not decode: \(String(decoding: data, as: UTF8.self)): \(error)")
        }
    }
}
