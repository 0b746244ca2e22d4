// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// Errors say where: syntax errors by line, column and byte; decoding errors
/// by coding path (element index first in a stream) and the value's position.
@Suite struct ErrorTests {
    func syntaxError(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONSyntaxError {
        try syntaxError(AnyJSON.self, Data(json.utf8), sourceLocation: sourceLocation)
    }

    func syntaxError<T: Decodable>(_ type: T.Type, _ json: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONSyntaxError {
        try syntaxError(type, Data(json.utf8), sourceLocation: sourceLocation)
    }

    func syntaxError<T: Decodable>(_ type: T.Type, _ data: Data,
                                   sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONSyntaxError {
        do {
            _ = try StreamingJSONDecoder().decode(type, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            let error = try #require(context.underlyingError as? JSONSyntaxError, sourceLocation: sourceLocation)
            #expect(context.debugDescription == error.description, sourceLocation: sourceLocation)
            // The same error whatever the chunking.
            for chunk in [1, 2, 5, 16] {
                do {
                    _ = try Engine.decode(type, data, chunk: chunk)
                    Issue.record("chunk \(chunk): no error", sourceLocation: sourceLocation)
                } catch let DecodingError.dataCorrupted(other) {
                    #expect(other.underlyingError as? JSONSyntaxError == error, "chunk \(chunk)", sourceLocation: sourceLocation)
                }
            }
            return error
        }
        Issue.record("no error", sourceLocation: sourceLocation)
        throw CancellationError()
    }

    @Test func unexpectedCharacterOnLineOne() throws {
        let error = try syntaxError("[1,2,x]")
        #expect(error.message == "Unexpected character 'x'")
        #expect((error.line, error.column, error.byteOffset) == (1, 6, 5))
        #expect(error.description == "Unexpected character 'x' at line 1, column 6 (byte 5)")
    }

    @Test func unexpectedCharacterOnALaterLine() throws {
        let json = "{\n  \"a\": [1, 2],\n  \"b\": {\"c\": tru}\n}"
        let error = try syntaxError(json)
        #expect((error.line, error.column) == (3, 17))
        #expect(error.byteOffset == 33)
        #expect(error.message.contains("'}'"))
    }

    @Test func crlfLinesAndBOMCountBytes() throws {
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(Data("[1,\r\n2,\r\n?]".utf8))
        let error = try syntaxError(AnyJSON.self, data)
        #expect((error.line, error.column, error.byteOffset) == (3, 1, 12))
    }

    @Test func grammarErrorsPointAtTheToken() throws {
        #expect(try syntaxError("[1 2]").byteOffset == 3)
        #expect(try syntaxError(#"["a" "bcd"]"#).byteOffset == 5)
        #expect(try syntaxError("[1,,2]").byteOffset == 3)
        #expect(try syntaxError(#"{"a" 1}"#).byteOffset == 5)
        #expect(try syntaxError("{1:2}").byteOffset == 1)
        #expect(try syntaxError(#"{"a":1,}"#).byteOffset == 7)
        #expect(try syntaxError("[1.]").byteOffset == 3)
        #expect(try syntaxError(#"["a\qb"]"#).byteOffset == 4)
        #expect(try syntaxError("]").message == "Unexpected character ']' (expected a value)")
    }

    /// Found by PropertyTests (a corrupted byte reported before itself): yajl
    /// lexes `1e3-8` as the number `1e3` and then `-8`, and rejects `-8`; the
    /// error pointed at the `1`, the start of the whole run of word bytes.
    @Test func grammarErrorsPointAtTheTokenInsideARunOfWordBytes() throws {
        let found = try syntaxError("[\t1.7976931348623157e3-8\r\n\n]")
        #expect(found.byteOffset == 22)
        #expect(found.message == "Unexpected character '-' (expected ',' or ']')")
        #expect(try syntaxError("[12true]").byteOffset == 3)
        #expect(try syntaxError("[true11]").byteOffset == 5)
        #expect(try syntaxError("[nullfalse]").byteOffset == 5)
        #expect(try syntaxError("[-0-1]").byteOffset == 3)
        #expect(try syntaxError("[0.5E+3-1.5e2]").byteOffset == 7)
        // Trailing garbage found only at the end of input (a number is finished there).
        #expect(try syntaxError("1 23").byteOffset == 2)
        #expect(try syntaxError("true23").byteOffset == 4)
    }

    /// Found by PropertyTests too: yajl's offset for a token rejected after an
    /// object member's value has the token's length subtracted (and is 0 when
    /// the token began in an earlier chunk), so the error pointed at the value
    /// before the token (`…,"zB":66210739076358]518…}` with `]` corrupted in
    /// said byte 274 for byte 288), and moved with the chunking (`{"a":01}`
    /// said byte 5 whole and byte 6 in 1-byte chunks).
    @Test func tokensRejectedAfterAMemberValue() throws {
        #expect(try syntaxError(#"{"zB":66210739076358]518}"#).byteOffset == 20)
        #expect(try syntaxError(#"{"a":01}"#).byteOffset == 6)
        let number = try syntaxError(#"{"a":1 23}"#)
        #expect(number.byteOffset == 7)
        #expect(number.message == "Unexpected character '2' (expected ',' or '}')")
        #expect(try syntaxError(#"{"a":1 "bcd"}"#).byteOffset == 7)
        #expect(try syntaxError(#"{"a":"1" "bcd":2}"#).byteOffset == 9)
        #expect(try syntaxError(#"{"a":"" 1}"#).byteOffset == 8)
        #expect(try syntaxError(#"{"a":[] "]1"}"#).byteOffset == 8)
        #expect(try syntaxError(#"{"a":{}  true}"#).byteOffset == 9)
        #expect(try syntaxError(#"{"a":"x\\"[]}"#).byteOffset == 10)
        #expect(try syntaxError("{\"a\":1\n\n :}").byteOffset == 9)
        // The same after an array element and after the root value.
        #expect(try syntaxError(#"[{"a":"b"} "c"]"#).byteOffset == 11)
        #expect(try syntaxError(#"{} "x""#).byteOffset == 3)
        // At the end of input, where yajl finishes a number.
        let atEnd = try syntaxError(#"{"a":1 23"#)
        #expect(atEnd.byteOffset == 7)
        #expect(atEnd.message == "Unexpected character '2' (expected ',' or '}')")
    }

    @Test func emptyInput() throws {
        for json in ["", "   ", "\n\t \r\n"] {
            let error = try syntaxError(json)
            #expect(error.message == "No JSON value (the input is empty)")
            #expect(error.byteOffset == json.utf8.count)
        }
    }

    @Test func truncatedInput() throws {
        let error = try syntaxError(#"[{"a":1"#)
        #expect(error.message == "Unexpected end of input")
        #expect((error.line, error.column, error.byteOffset) == (1, 8, 7))
        #expect(try syntaxError(#"{"a":"unterminated"#).message == "Unexpected end of input")
        #expect(try syntaxError("[1,2").message == "Unexpected end of input")
        #expect(try syntaxError("tru").message == "Unexpected end of input")
    }

    @Test func trailingGarbage() throws {
        #expect(try syntaxError(#"{"a":1} x"#).byteOffset == 8)
        let afterValue = try syntaxError("[1] [2]")
        #expect(afterValue.byteOffset == 4)
        #expect(afterValue.message.contains("after the end of the JSON value"))
        // A number at the very end is only finished by the end of input.
        #expect(try syntaxError("[1] 2").byteOffset == 4)
        // Trailing garbage after a streamed root array, even when the type
        // stops reading early: the document is validated to its end.
        struct FirstOnly: Decodable {
            var first: Int
            init(from decoder: any Decoder) throws {
                var items = try decoder.unkeyedContainer()
                first = try items.decode(Int.self)
            }
        }
        #expect(try StreamingJSONDecoder().decode(FirstOnly.self, from: Data("[7,8,9]".utf8)).first == 7)
        #expect(try syntaxError(FirstOnly.self, "[7,8,9] x").byteOffset == 8)
        #expect(try syntaxError(FirstOnly.self, "[7,8,}").byteOffset == 5)
    }

    @Test func invalidUTF8() throws {
        let error = try syntaxError(AnyJSON.self, Data([0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D]))
        #expect(error.message.contains("UTF-8"))
        #expect(error.byteOffset == 3)
        let outside = try syntaxError(AnyJSON.self, Data([0x5B, 0xC3, 0xA9, 0x5D]))
        #expect(outside.byteOffset == 1)
        #expect(outside.message == "Unexpected byte 0xC3" || outside.message.contains("0xC3"))
    }

    @Test func formFeedAndVerticalTabAreNotWhitespace() throws {
        let formFeed = try syntaxError("[1,\u{0C}2]")
        #expect(formFeed.message == "Unexpected character U+000C")
        #expect(formFeed.byteOffset == 3)
        #expect(try syntaxError("{\u{0B}}").byteOffset == 1)
        // Inside a string, too (JSON requires control characters to be escaped).
        #expect(try syntaxError("[\"a\u{0C}b\"]").byteOffset == 3)
    }

    @Test func depthLimit() throws {
        let deep = String(repeating: "[", count: 100_000)
        let error = try syntaxError(deep)
        #expect(error.message == "Nesting deeper than 512 levels (maxDepth)")
        #expect(error.byteOffset == 512)
        // 512 levels are fine.
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try StreamingJSONDecoder().decode(AnyJSON.self, from: Data(ok.utf8)) }
        let decoder = StreamingJSONDecoder()
        decoder.maxDepth = 3
        #expect(throws: DecodingError.self) { try decoder.decode(AnyJSON.self, from: Data("[[[[1]]]]".utf8)) }
        #expect(throws: Never.self) { try decoder.decode(AnyJSON.self, from: Data("[[[1]]]".utf8)) }
    }

    @Test func numberAndStringLimits() throws {
        let decoder = StreamingJSONDecoder()
        let long = "[" + String(repeating: "9", count: 1_001) + "]"
        #expect(throws: DecodingError.self) { try decoder.decode(AnyJSON.self, from: Data(long.utf8)) }
        decoder.maxStringLength = 4
        #expect(throws: Never.self) { try decoder.decode([String].self, from: Data(#"["abcd"]"#.utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode([String].self, from: Data(#"["abcde"]"#.utf8)) }
    }

    @Test func commentsOnlyWhenAllowed() throws {
        let json = Data("[1, /* two */ 2, // three\n 3]".utf8)
        #expect(throws: DecodingError.self) { try StreamingJSONDecoder().decode([Int].self, from: json) }
        let decoder = StreamingJSONDecoder()
        decoder.allowsComments = true
        #expect(try decoder.decode([Int].self, from: json) == [1, 2, 3])
    }

    // MARK: Decoding errors

    struct Record: Decodable, Equatable {
        var id: Int
        var inner: Inner
        struct Inner: Decodable, Equatable { var values: [Int] }
    }

    static func records(count: Int, badAt bad: Int) -> Data {
        var json = "[\n"
        for index in 0..<count {
            let values = index == bad ? #"[1, 2, "x"]"# : "[\(index), \(index + 1)]"
            json += #"  {"id": \#(index), "inner": {"values": \#(values)}}"#
            json += index == count - 1 ? "\n" : ",\n"
        }
        return Data((json + "]").utf8)
    }

    @Test func typeErrorDeepInsideElement1234KeepsTheStreamGoing() throws {
        let data = Self.records(count: 2_000, badAt: 1_234)
        var iterator = StreamingJSONDecoder().elements(of: Record.self, from: data).makeIterator()
        for index in 0..<1_234 { #expect(try iterator.next()?.id == index) }
        do {
            _ = try iterator.next()
            Issue.record("element 1234 decoded")
        } catch let DecodingError.typeMismatch(type, context) {
            #expect(type is Int.Type)
            #expect(context.codingPath.map(\.stringValue) == ["Index 1234", "inner", "values", "Index 2"])
            #expect(context.codingPath.first?.intValue == 1234)
            // Line 1236 (the "[" is line 1), the "x" at column 43.
            #expect(context.debugDescription.contains("line 1236, column 43"), "\(context.debugDescription)")
        }
        #expect(try iterator.next()?.id == 1_235)
        var rest = 0
        while try iterator.next() != nil { rest += 1 }
        #expect(rest == 2_000 - 1_236)
    }

    @Test func foundationErrorKinds() throws {
        struct Beer: Decodable { var name: String; var abv: Double }
        let decoder = StreamingJSONDecoder()
        do {
            _ = try decoder.decode(Beer.self, from: Data(#"{"name":"IPA"}"#.utf8))
            Issue.record("decoded")
        } catch let DecodingError.keyNotFound(key, context) {
            #expect(key.stringValue == "abv")
            #expect(context.codingPath.isEmpty)
            #expect(context.debugDescription.contains("line 1, column 1"))
        }
        do {
            _ = try decoder.decode(Beer.self, from: Data(#"{"name":null,"abv":1}"#.utf8))
            Issue.record("decoded")
        } catch let DecodingError.valueNotFound(type, context) {
            #expect(type is String.Type)
            #expect(context.codingPath.map(\.stringValue) == ["name"])
            #expect(context.debugDescription.contains("column 9"))
        }
        do {
            _ = try decoder.decode(Beer.self, from: Data("{\"name\":\"IPA\",\n\"abv\":\"strong\"}".utf8))
            Issue.record("decoded")
        } catch let DecodingError.typeMismatch(type, context) {
            #expect(type is Double.Type)
            #expect(context.codingPath.map(\.stringValue) == ["abv"])
            #expect(context.debugDescription.contains("found a string"))
            #expect(context.debugDescription.contains("line 2, column 7"))
        }
        do {
            _ = try decoder.decode([Int8].self, from: Data("[1, 300]".utf8))
            Issue.record("decoded")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.codingPath.map(\.stringValue) == ["Index 1"])
            #expect(context.debugDescription.contains("300 does not fit in Int8"))
            #expect(context.underlyingError == nil)  // not a syntax error
        }
        do {
            _ = try decoder.decode([Int].self, from: Data("[18.5]".utf8))
            Issue.record("decoded")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.codingPath.map(\.intValue) == [0])
        }
    }

    @Test func nonArrayRootWhenAnArrayIsExpected() throws {
        var iterator = StreamingJSONDecoder().elements(of: Int.self, from: Data(#"{"a":1}"#.utf8), format: .array)
            .makeIterator()
        do {
            _ = try iterator.next()
            Issue.record("no error")
        } catch let DecodingError.dataCorrupted(context) {
            let error = try #require(context.underlyingError as? JSONSyntaxError)
            #expect(error.message == "Expected an array at the root but found an object")
            #expect(error.byteOffset == 0)
            #expect(error.endsStream)
        }
        #expect(throws: DecodingError.self) { try iterator.next() }  // again, never a quiet nil
        // Decoding a keyed type from a root array is a type mismatch.
        struct Keyed: Decodable { var a: Int }
        #expect(throws: DecodingError.self) { try StreamingJSONDecoder().decode(Keyed.self, from: Data("[1]".utf8)) }
    }

    @Test func syntaxErrorInAnArrayIsThatElementsAndTheNextOneFollows() throws {
        var iterator = StreamingJSONDecoder().elements(of: Int.self, from: Data("[1, 2, oops, 4]".utf8)).makeIterator()
        #expect(try iterator.next() == 1)
        #expect(try iterator.next() == 2)
        do {
            _ = try iterator.next()
            Issue.record("no error")
        } catch let error as DecodingError {
            guard case .dataCorrupted(let context) = error, let syntax = context.underlyingError as? JSONSyntaxError else {
                Issue.record("\(error)")
                return
            }
            #expect(context.codingPath.map(\.stringValue) == ["Index 2"])
            #expect(syntax.elementIndex == 2)
            #expect(syntax.byteOffset == 7)
            #expect(syntax.skippedBytes == 6)  // "oops, "
            #expect(!syntax.endsStream && !error.endsStream)
        }
        #expect(try iterator.next() == 4)
        #expect(try iterator.next() == nil)
    }

    /// An input cut off inside an element: the error says the stream ends,
    /// and says it again on every later call instead of a quiet nil.
    @Test func truncatedArrayEndsTheStreamOnEveryLaterCall() throws {
        var iterator = StreamingJSONDecoder().elements(of: Int.self, from: Data("[1, 2, [3".utf8)).makeIterator()
        #expect(try iterator.next() == 1)
        #expect(try iterator.next() == 2)
        for _ in 0..<3 {
            do {
                _ = try iterator.next()
                Issue.record("no error")
            } catch let error as DecodingError {
                #expect(error.endsStream)
                guard case .dataCorrupted(let context) = error, let syntax = context.underlyingError as? JSONSyntaxError else {
                    Issue.record("\(error)")
                    return
                }
                #expect(syntax.message == "Unexpected end of input")
                #expect(syntax.unreadBytes == 0)
            }
        }
    }
}
