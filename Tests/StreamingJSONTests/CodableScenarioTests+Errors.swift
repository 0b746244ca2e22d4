// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

// What a DecodingError says (its kind, coding path and line) for each way a
// document can fail to match its model, decoded whole and streamed.
// (Helpers and the shared Beer models are in CodableScenarioTests.swift.)

extension CodableScenarioTests {
    // MARK: Errors: kind, coding path and line, through the whole document and a stream

    @Test func decodingErrorsCarryTheirKindPathAndLine() throws {
        // HTML instead of JSON: dataCorrupted at the very first byte.
        let html = "<!DOCTYPE html>\n<html><body><h1>502 Bad Gateway</h1></body></html>\n"
        let htmlError = try #require(Self.decodingError { _ = try Self.streaming([AbvBeer].self, html) })
        #expect(Self.summary(htmlError) == ErrorSummary(kind: "dataCorrupted", path: []))
        let syntax = try #require(Self.context(htmlError)?.underlyingError as? JSONSyntaxError)
        #expect(syntax.byteOffset == 0)
        #expect(syntax.line == 1)
        #expect(syntax.column == 1)
        #expect(Self.errorSummary { _ = try Self.foundation([AbvBeer].self, html) }.kind == "dataCorrupted")

        // Missing key: keyNotFound with the path of the object that lacks it.
        let missingKey = """
        [
        {"name": "Endeavor", "abv": 8.9, "brewery": "Saint Arnold", "style": "ipa"},
        {"name": "Lawnmower", "abv": 4.9, "style": "kolsch"}
        ]
        """
        let keyError = try #require(Self.decodingError { _ = try Self.streaming([AbvBeer].self, missingKey) })
        #expect(Self.summary(keyError) == ErrorSummary(kind: "keyNotFound", key: "brewery", path: ["[1]"]))
        #expect(Self.context(keyError)?.debugDescription.contains("line 3") == true)
        #expect(Self.errorSummary { _ = try Self.foundation([AbvBeer].self, missingKey) } == Self.summary(keyError))

        // Wrong type: typeMismatch naming the expected type, at the value.
        let wrongType = """
        [
        {"name": "Endeavor", "abv": "8.9", "brewery": "Saint Arnold", "style": "ipa"}
        ]
        """
        let typeError = try #require(Self.decodingError { _ = try Self.streaming([AbvBeer].self, wrongType) })
        #expect(Self.summary(typeError) == ErrorSummary(kind: "typeMismatch", type: "Float", path: ["[0]", "abv"]))
        if case .typeMismatch(let type, _) = typeError { #expect(ObjectIdentifier(type) == ObjectIdentifier(Float.self)) }
        #expect(Self.context(typeError)?.debugDescription.contains("line 2") == true)
        #expect(Self.errorSummary { _ = try Self.foundation([AbvBeer].self, wrongType) } == Self.summary(typeError))

        // null for a non-optional: valueNotFound.
        let null = """
        [
        {"name": "Endeavor", "abv": 8.9, "brewery": "Saint Arnold", "style": "ipa"},

        {"name": null, "abv": 4.9, "brewery": "Saint Arnold", "style": "kolsch"}
        ]
        """
        let nullError = try #require(Self.decodingError { _ = try Self.streaming([AbvBeer].self, null) })
        #expect(Self.summary(nullError) == ErrorSummary(kind: "valueNotFound", type: "String", path: ["[1]", "name"]))
        if case .valueNotFound(let type, _) = nullError { #expect(ObjectIdentifier(type) == ObjectIdentifier(String.self)) }
        #expect(Self.context(nullError)?.debugDescription.contains("line 4") == true)
        #expect(Self.errorSummary { _ = try Self.foundation([AbvBeer].self, null) } == Self.summary(nullError))

        // An object where the array is expected.
        let notArray = ErrorSummary(kind: "typeMismatch", path: [])
        #expect(Self.errorSummary { _ = try Self.streaming([AbvBeer].self, #"{"beers": []}"#) }.withoutType == notArray)
        #expect(Self.errorSummary { _ = try Self.foundation([AbvBeer].self, #"{"beers": []}"#) }.withoutType == notArray)

        // Streamed: each bad element throws its own error, with the element's index first,
        // and the stream goes on with the next element.
        let mixed = """
        [
        {"name": "Endeavor", "abv": 8.9, "brewery": "Saint Arnold", "style": "ipa"},
        {"name": "Lawnmower", "abv": 4.9, "style": "kolsch"},
        {"name": "Pumpkinator", "abv": "11.2", "brewery": "Saint Arnold", "style": "stout"},
        {"name": null, "abv": 4.2, "brewery": "Guinness", "style": "stout"},
        {"name": "Art Car", "abv": 5.0, "brewery": "Saint Arnold", "style": "ipa"}
        ]
        """
        var iterator = StreamingJSONDecoder().elements(of: AbvBeer.self, from: Self.data(mixed)).makeIterator()
        #expect(try iterator.next() == AbvBeer(name: "Endeavor", abv: 8.9, brewery: "Saint Arnold", style: "ipa"))
        #expect(Self.errorSummary { _ = try iterator.next() }
                == ErrorSummary(kind: "keyNotFound", key: "brewery", path: ["[1]"]))
        #expect(Self.errorSummary { _ = try iterator.next() }
                == ErrorSummary(kind: "typeMismatch", type: "Float", path: ["[2]", "abv"]))
        #expect(Self.errorSummary { _ = try iterator.next() }
                == ErrorSummary(kind: "valueNotFound", type: "String", path: ["[3]", "name"]))
        #expect(try iterator.next() == AbvBeer(name: "Art Car", abv: 5.0, brewery: "Saint Arnold", style: "ipa"))
        #expect(try iterator.next() == nil)

        // HTML through the stream: `.auto` reads it as JSON Lines (it does not start
        // with "["), so each malformed line is reported with its line, then the stream ends.
        var htmlIterator = StreamingJSONDecoder().elements(of: AbvBeer.self, from: Self.data(html)).makeIterator()
        for line in [1, 2] {
            let error = Self.decodingError { _ = try htmlIterator.next() }
            #expect((Self.context(error!)?.underlyingError as? JSONSyntaxError)?.line == line)
        }
        #expect(try htmlIterator.next() == nil)
        // As an array, with no array to go on in, the first syntax error ends the
        // stream, and every later call says so again.
        var arrayIterator = StreamingJSONDecoder().elements(of: AbvBeer.self, from: Self.data(html), format: .array)
            .makeIterator()
        for _ in 0..<2 {
            let error = Self.decodingError { _ = try arrayIterator.next() }
            #expect(error.map(Self.summary)?.kind == "dataCorrupted")
            #expect(error?.endsStream == true)
        }
    }
}
