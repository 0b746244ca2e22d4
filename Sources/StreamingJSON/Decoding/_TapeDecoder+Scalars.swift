// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

// Reading scalars. Strings and numbers stay raw bytes on the tape until a
// value is asked for; numbers are parsed from their literal text, exactly.
extension _TapeDecoder {
    /// The token of a scalar of `kind`; null and other kinds become
    /// Foundation's `valueNotFound` and `typeMismatch`.
    @inline(__always)
    func scalar(_ kind: UInt8, _ type: Any.Type, at index: Int,
                path: @autoclosure () -> _CodingPathNode) throws -> sj_token {
        if index >= 0, let local = stream.local(index) {
            let token = unsafe stream.view[local]
            if token.kind == kind { return token }
        }
        throw mismatch(type, at: index, path: path())
    }

    @inline(never)
    func mismatch(_ type: Any.Type, at index: Int, path: _CodingPathNode) -> DecodingError {
        if index >= 0 && stream.local(index) == nil { return dropped(path: path) }
        if index == Self.absent || describeFound(at: index) == "null" {
            return valueNotFound(type, at: index, path: path, nil)
        }
        return typeMismatch(type, at: index, path: path)
    }

    func decodeString(at index: Int, path: @autoclosure () -> _CodingPathNode) throws -> String {
        let token = try scalar(_Kind.string, String.self, at: index, path: path())
        return unsafe String(_validatedUTF8: bytes(of: token))
    }

    func decodeBool(at index: Int, path: @autoclosure () -> _CodingPathNode) throws -> Bool {
        if index >= 0, let local = stream.local(index) {
            let kind = unsafe stream.view[local].kind
            if kind == _Kind.true { return true }
            if kind == _Kind.false { return false }
        }
        throw mismatch(Bool.self, at: index, path: path())
    }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type, at index: Int,
                                            path: @autoclosure () -> _CodingPathNode) throws -> T {
        let token = try scalar(_Kind.number, T.self, at: index, path: path())
        let text = unsafe bytes(of: token)
        if let value: T = unsafe _parseInteger(text) { return value }
        throw unsafe doesNotFit(text, T.self, at: index, path: path())
    }

    func decodeDouble(at index: Int, path: @autoclosure () -> _CodingPathNode) throws -> Double {
        if index >= 0, let local = stream.local(index) {
            let token = unsafe stream.view[local]
            if token.kind == _Kind.number {
                let text = unsafe bytes(of: token)
                let value = unsafe _parseDouble(text)
                // Like an overflow, a literal that rounds to zero is refused, as Foundation does.
                if unsafe value.isFinite && (value != 0 || _isZeroLiteral(text)) { return value }
                throw dataCorrupted(unsafe "Number \(String(decoding: text, as: UTF8.self)) is not representable as Double",
                                    at: index, path: path())
            }
            if token.kind == _Kind.string, let value = nonConforming(token, Double.self) { return value }
        }
        throw mismatch(Double.self, at: index, path: path())
    }

    func decodeFloat(at index: Int, path: @autoclosure () -> _CodingPathNode) throws -> Float {
        if index >= 0, let local = stream.local(index) {
            let token = unsafe stream.view[local]
            if token.kind == _Kind.number {
                let text = unsafe String(decoding: bytes(of: token), as: UTF8.self)
                if let value = Float(text), unsafe value.isFinite && (value != 0 || _isZeroLiteral(bytes(of: token))) {
                    return value
                }
                throw dataCorrupted("Number \(text) is not representable as Float", at: index, path: path())
            }
            if token.kind == _Kind.string, let value = nonConforming(token, Float.self) { return value }
        }
        throw mismatch(Float.self, at: index, path: path())
    }

    private func nonConforming<F: FloatingPoint>(_ token: sj_token, _: F.Type) -> F? {
        guard case let .convertFromString(positiveInfinity, negativeInfinity, nan)
                = options.nonConformingFloatDecodingStrategy else { return nil }
        let text = unsafe String(decoding: bytes(of: token), as: UTF8.self)
        if text == positiveInfinity { return .infinity }
        if text == negativeInfinity { return -.infinity }
        if text == nan { return .nan }
        return nil
    }

    func decodeDecimal(at index: Int, path: @autoclosure () -> _CodingPathNode) throws -> Decimal {
        let token = try scalar(_Kind.number, Decimal.self, at: index, path: path())
        if let value = unsafe _parseDecimal(bytes(of: token)) { return value }
        let text = unsafe String(decoding: bytes(of: token), as: UTF8.self)
        throw dataCorrupted("Number \(text) is not representable as Decimal", at: index, path: path())
    }

    func decodeURL(at index: Int, path: @autoclosure () -> _CodingPathNode) throws -> URL {
        let text = try decodeString(at: index, path: path())
        if let url = URL(string: text) { return url }
        throw dataCorrupted("Invalid URL string \"\(text)\"", at: index, path: path())
    }

    func decodeDate(at index: Int, path: @autoclosure () -> _CodingPathNode) throws -> Date {
        switch options.dateDecodingStrategy {
        case .deferredToDate:
            return try with(index, path: path()) { try Date(from: self) }
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try decodeDouble(at: index, path: path()))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try decodeDouble(at: index, path: path()) / 1000)
        case .iso8601:
            let token = try scalar(_Kind.string, Date.self, at: index, path: path())
            if let date = unsafe _parseISO8601(bytes(of: token)) { return date }
            throw dataCorrupted(unsafe "Expected date string to be ISO8601-formatted, found \"\(String(decoding: bytes(of: token), as: UTF8.self))\"",
                                at: index, path: path())
        case .formatted(let formatter):
            let text = try decodeString(at: index, path: path())
            if let date = formatter.date(from: text) { return date }
            throw dataCorrupted("Date string \"\(text)\" does not match format expected by formatter (\(formatter.dateFormat ?? ""))",
                                at: index, path: path())
        case .custom(let read):
            return try with(index, path: path()) { try read(self) }
        }
    }

    func decodeData(at index: Int, path: @autoclosure () -> _CodingPathNode) throws -> Data {
        switch options.dataDecodingStrategy {
        case .deferredToData:
            return try with(index, path: path()) { try Data(from: self) }
        case .base64:
            let token = try scalar(_Kind.string, Data.self, at: index, path: path())
            let text = unsafe String(decoding: bytes(of: token), as: UTF8.self)
            if let data = Data(base64Encoded: text) { return data }
            throw dataCorrupted("Encountered Data is not valid Base64", at: index, path: path())
        case .custom(let read):
            return try with(index, path: path()) { try read(self) }
        }
    }
}
