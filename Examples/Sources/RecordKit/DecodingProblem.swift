// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// Why a JSON body could not be read, and where: the 400 answer of the
/// record server, as JSON.
///
/// ```json
/// {"error":"Unexpected character 'x' at line 3, column 17 (byte 301)","line":3,"column":17,"byteOffset":301,
///  "codingPath":"[2]","summary":{"accepted":9997,"rejected":2,"malformed":1}}
/// ```
///
/// A syntax error carries its position as a `JSONSyntaxError`; the other
/// decoding errors (a string where a number belongs, a missing key) carry
/// it only in their `debugDescription`, which `StreamingJSONDecoder` ends with
/// `at line L, column C (byte B)`: that is where it is read from.
public struct DecodingProblem: Codable, Sendable, Hashable, Error {
    /// The error's full description.
    public var error: String
    /// 1-based line of the offending value, when known.
    public var line: Int?
    /// 1-based column, in bytes, when known.
    public var column: Int?
    /// 0-based offset of the offending byte from the start of the body, when known.
    public var byteOffset: Int?
    /// Where in the stream, `[2].abv` for the third element's `abv`; nil at the top.
    public var codingPath: String?
    /// What the body held: the server reads on past a malformed record to
    /// the body's end and counts, or to where the rest could not be read.
    public var summary: UploadSummary?

    /// A problem with these fields.
    public init(error: String, line: Int? = nil, column: Int? = nil, byteOffset: Int? = nil, codingPath: String? = nil) {
        self.error = error
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.codingPath = codingPath
    }

    /// The problem that a decoding error describes, or nil for another kind of error.
    public init?(_ error: any Error) {
        guard let decoding = error as? DecodingError, let context = Self.context(of: decoding) else { return nil }
        codingPath = Self.describe(context.codingPath)
        if let syntax = context.underlyingError as? JSONSyntaxError {
            self.error = syntax.description
            line = syntax.line
            column = syntax.column
            byteOffset = syntax.byteOffset
            return
        }
        self.error = context.debugDescription
        if let match = context.debugDescription.firstMatch(of: #/line (\d+), column (\d+) \(byte (\d+)\)/#) {
            line = Int(match.1)
            column = Int(match.2)
            byteOffset = Int(match.3)
        }
    }

    private static func context(of error: DecodingError) -> DecodingError.Context? {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
             .dataCorrupted(let context):
            return context
        @unknown default:
            return nil
        }
    }

    /// `[2].abv`: indices in brackets, keys after a dot.
    private static func describe(_ path: [any CodingKey]) -> String? {
        guard !path.isEmpty else { return nil }
        return path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
    }
}
