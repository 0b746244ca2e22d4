// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

// Positions and errors: what the stream says when the input is wrong, and
// where (the line index maps offsets; _SyntaxErrorLocation finds the byte).

extension _ElementStream {
    func position(of offset: UInt64) -> _SourcePosition {
        lines.position(of: offset)
    }

    func decodingError(_ error: JSONSyntaxError) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: [], debugDescription: error.description, underlyingError: error))
    }

    func syntaxError(_ outcome: _ParseOutcome, chunk: UnsafeRawBufferPointer,
                             base: UInt64, atEnd: Bool = false) -> DecodingError {
        switch outcome {
        case .ok:
            preconditionFailure("not an error")
        case let .stopped(code, offset, kind):
            return decodingError(JSONSyntaxError(message: limitMessage(code: code, kind: kind),
                                                 position: position(of: offset)))
        case let .invalid(message, offset, boundary):
            let window = unsafe _ByteWindow(recent: recent, chunk: chunk, chunkBase: base)
            var tokens = unsafe _tokensAfter(boundary.offset, in: window, allowsComments: limits.allowsComments)
            if tokens == nil, let known = tokensAfterBoundary, known.boundary == boundary.offset { tokens = known.tokens }
            let located = unsafe _locateSyntaxError(yajlMessage: message, at: base + UInt64(atEnd ? 0 : offset),
                                                    in: window, atEnd: atEnd, boundary: boundary, tokens: tokens)
            return decodingError(JSONSyntaxError(message: located.message,
                                                 position: position(of: located.position)))
        }
    }

    private func limitMessage(code: Int32, kind: UInt8) -> String {
        switch Int(code) {
        case SJ_ERROR_DEPTH:
            return "Nesting deeper than \(limits.maxDepth) levels (maxDepth)"
        case SJ_ERROR_NUMBER_LENGTH:
            return "Number literal longer than \(limits.maxNumberLength) characters (maxNumberLength)"
        case SJ_ERROR_STRING_LENGTH:
            return "String longer than \(limits.maxStringLength) bytes (maxStringLength)"
        case SJ_ERROR_SURROGATE:
            let unit = parser?.unpairedSurrogate ?? 0
            let escape = "\\u" + String(unit, radix: 16, uppercase: true)
            return unit >= 0xDC00
                ? "Invalid \\u escape in string: \(escape) is a low surrogate without a high surrogate before it"
                : "Invalid \\u escape in string: \(escape) is a high surrogate not followed by a \\u escape of a low surrogate"
        case SJ_ERROR_UTF8:
            switch Int(parser?.invalidUTF8Reason ?? 0) {
            case SJ_UTF8_SURROGATE: return "Invalid UTF-8: an encoded UTF-16 surrogate (U+D800 to U+DFFF)"
            case SJ_UTF8_PAST_MAX: return "Invalid UTF-8: a code point past U+10FFFF"
            default: return "Invalid UTF-8: an overlong encoding"
            }
        case SJ_ERROR_COMMENT_LENGTH:
            return "Comment longer than \(limits.maxStringLength) bytes (maxStringLength)"
        case SJ_ERROR_NOT_ARRAY:
            let wanted = mode == .members ? "an object" : "an array"
            let place = path.isEmpty ? "at the root" : "at path \(_describePath(path))"
            return "Expected \(wanted) \(place) but found \(_describeKind(kind))"
        case SJ_ERROR_PATH_NOT_OBJECT:
            return "Expected an object on the way to path \(_describePath(path)) but found \(_describeKind(kind))"
        case SJ_ERROR_MEMORY:
            return "Out of memory while recording an element"
        default:
            return "Element too large to record (over 4 Gi tokens or bytes)"
        }
    }
}

extension JSONSyntaxError {
    init(message: String, position: _SourcePosition) {
        self.init(message: message, byteOffset: position.byteOffset, line: position.line, column: position.column)
    }
}

/// The index of the first `byte` in `buffer[start..<end]` (`end` nil: the whole rest).
func _firstIndex(of byte: UInt8, in buffer: UnsafeRawBufferPointer, from start: Int, before end: Int? = nil) -> Int? {
    let end = end ?? buffer.count
    guard start < end, let hit = unsafe memchr(buffer.baseAddress! + start, Int32(byte), end - start) else { return nil }
    return unsafe buffer.baseAddress!.distance(to: UnsafeRawPointer(hit))
}

/// The first raw vertical tab or form feed in `buffer` from `start`: yajl
/// takes them for whitespace, JSON never allows them raw, so parsing stops
/// there (`_ElementStream.parseSpan`, and the resume search's trials).
func _firstFormFeedOrVerticalTab(in buffer: UnsafeRawBufferPointer, from start: Int) -> Int? {
    let verticalTab = unsafe _firstIndex(of: 0x0B, in: buffer, from: start)
    return unsafe _firstIndex(of: 0x0C, in: buffer, from: start, before: verticalTab) ?? verticalTab
}

/// The UTF-8 byte order mark, skipped at the start of input.
let _utf8BOM: [UInt8] = [0xEF, 0xBB, 0xBF]

/// Whether `bytes`, an input's first bytes, begin with the byte order mark.
func _startsWithUTF8BOM(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.count >= 3 && (0..<3).allSatisfy { unsafe bytes[$0] == _utf8BOM[$0] }
}

@inline(__always)
func _isJSONWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
}

func _describePath(_ path: [String]) -> String {
    path.isEmpty ? "." : path.map { "." + $0 }.joined()
}

func _describeKind(_ kind: UInt8) -> String {
    switch Int(kind) {
    case SJ_NULL: return "null"
    case SJ_FALSE, SJ_TRUE: return "a boolean"
    case SJ_NUMBER: return "a number"
    case SJ_STRING: return "a string"
    case SJ_ARRAY: return "an array"
    case SJ_OBJECT: return "an object"
    case SJ_OVERSIZED: return "an element over maxElementBytes"
    default: return "a key"
    }
}

/// `'x'` for printable ASCII, `U+000C` for control characters, `byte 0xFF` otherwise.
func _describeByte(_ byte: UInt8) -> String {
    if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    let hex = String(byte, radix: 16, uppercase: true)
    if byte < 0x80 { return "U+" + String(repeating: "0", count: 4 - hex.count) + hex }
    return "byte 0x" + (hex.count == 1 ? "0" : "") + hex
}
