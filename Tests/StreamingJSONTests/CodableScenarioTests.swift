// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

// Classic Codable tutorial cases, one @Test each, grouped by what they
// exercise: a root-level array here; coding keys in +Keys, the value
// strategies in +Strategies, nested objects in +Nesting, hand-written
// init(from:) in +CustomInit, class hierarchies in +Classes, and what the
// errors say in +Errors. JSON and model types follow those tutorials.
// Every decoded field is asserted; most cases are also decoded with
// Foundation's JSONDecoder on the same input and compared.

@Suite struct CodableScenarioTests {

    // MARK: Support (shared with the other CodableScenarioTests files)

    static func data(_ json: String) -> Data { Data(json.utf8) }

    /// Decodes with a fresh `StreamingJSONDecoder`.
    static func streaming<T: Decodable>(_ type: T.Type, _ json: String,
                                        configure: (StreamingJSONDecoder) -> Void = { _ in }) throws -> T {
        let decoder = StreamingJSONDecoder()
        configure(decoder)
        return try decoder.decode(type, from: data(json))
    }

    /// Decodes with a fresh Foundation `JSONDecoder`.
    static func foundation<T: Decodable>(_ type: T.Type, _ json: String,
                                         configure: (JSONDecoder) -> Void = { _ in }) throws -> T {
        let decoder = JSONDecoder()
        configure(decoder)
        return try decoder.decode(type, from: data(json))
    }

    /// A coding path as strings: `[3]` for an index, the key's string otherwise.
    static func path(_ keys: [any CodingKey]) -> [String] {
        keys.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
    }

    /// What a test needs to know of a `DecodingError`.
    struct ErrorSummary: Equatable, CustomStringConvertible {
        var kind: String            // "dataCorrupted", "keyNotFound", "typeMismatch", "valueNotFound"
        var key: String? = nil      // keyNotFound: the missing key's stringValue
        var type: String? = nil     // typeMismatch / valueNotFound: the expected type
        var path: [String]

        var description: String { "\(kind)(key: \(key ?? "-"), type: \(type ?? "-"), path: \(path))" }

        /// The same error without the type (Foundation names container types differently).
        var withoutType: ErrorSummary { var copy = self; copy.type = nil; return copy }
    }

    static func summary(_ error: DecodingError) -> ErrorSummary {
        switch error {
        case .dataCorrupted(let context):
            return ErrorSummary(kind: "dataCorrupted", path: path(context.codingPath))
        case .keyNotFound(let key, let context):
            return ErrorSummary(kind: "keyNotFound", key: key.stringValue, path: path(context.codingPath))
        case .typeMismatch(let type, let context):
            return ErrorSummary(kind: "typeMismatch", type: String(describing: type), path: path(context.codingPath))
        case .valueNotFound(let type, let context):
            return ErrorSummary(kind: "valueNotFound", type: String(describing: type), path: path(context.codingPath))
        @unknown default:
            return ErrorSummary(kind: "unknown \(error)", path: [])
        }
    }

    static func context(_ error: DecodingError) -> DecodingError.Context? {
        switch error {
        case .dataCorrupted(let context), .keyNotFound(_, let context),
             .typeMismatch(_, let context), .valueNotFound(_, let context):
            return context
        @unknown default:
            return nil
        }
    }

    /// Runs `body`, which must throw a `DecodingError`, and returns it.
    static func decodingError(sourceLocation: SourceLocation = #_sourceLocation,
                              _ body: () throws -> Void) -> DecodingError? {
        do {
            try body()
        } catch let error as DecodingError {
            return error
        } catch {
            Issue.record("expected a DecodingError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
            return nil
        }
        Issue.record("expected a DecodingError, nothing was thrown", sourceLocation: sourceLocation)
        return nil
    }

    /// The summary of the DecodingError `body` throws ("none" when it throws nothing or something else).
    static func errorSummary(sourceLocation: SourceLocation = #_sourceLocation,
                             _ body: () throws -> Void) -> ErrorSummary {
        guard let error = decodingError(sourceLocation: sourceLocation, body) else {
            return ErrorSummary(kind: "none", path: [])
        }
        return summary(error)
    }

    /// A POSIX formatter in a fixed time zone, so results do not depend on the machine.
    static func formatter(_ format: String, secondsFromGMT: Int = 0) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: secondsFromGMT)!
        formatter.dateFormat = format
        return formatter
    }

    // MARK: Root-level array of Beer with a String raw-value enum

    @Test func rootArrayOfObjectsWithAStringRawValueEnum() throws {
        let json = """
        [
          {"name": "Endeavor", "abv": 8.9, "brewery": "Saint Arnold", "style": "ipa"},
          {"name": "Lawnmower", "abv": 4.9, "brewery": "Saint Arnold", "style": "kolsch"},
          {"name": "Guinness Draught", "abv": 4.2, "brewery": "Guinness", "style": "stout"}
        ]
        """
        let beers = try Self.streaming([Brew.Beer].self, json)
        #expect(beers.count == 3)
        #expect(beers[0].name == "Endeavor")
        #expect(beers[0].brewery == "Saint Arnold")
        #expect(beers[0].style == .ipa)
        #expect(beers[1].name == "Lawnmower")
        #expect(beers[1].brewery == "Saint Arnold")
        #expect(beers[1].style == .kolsch)
        #expect(beers[2].name == "Guinness Draught")
        #expect(beers[2].brewery == "Guinness")
        #expect(beers[2].style == .stout)

        // Same result as Foundation.
        #expect(beers == (try Self.foundation([Brew.Beer].self, json)))

        // Streamed one at a time: sync iterator, then forEach, then a second pass.
        let elements = StreamingJSONDecoder().elements(of: Brew.Beer.self, from: Self.data(json))
        var iterator = elements.makeIterator()
        var streamed: [Brew.Beer] = []
        while let beer = try iterator.next() { streamed.append(beer) }
        #expect(streamed == beers)
        #expect(try iterator.next() == nil)
        var names: [String] = []
        try elements.forEach { names.append($0.name) }
        #expect(names == ["Endeavor", "Lawnmower", "Guinness Draught"])

        // A single Beer object.
        let one = try Self.streaming(Brew.Beer.self,
                                     #"{"name": "Endeavor", "abv": 8.9, "brewery": "Saint Arnold", "style": "ipa"}"#)
        #expect(one == Brew.Beer(name: "Endeavor", brewery: "Saint Arnold", style: .ipa))

        // A raw value the enum does not know: dataCorrupted at the style.
        let bad = #"[{"name": "X", "brewery": "Y", "style": "ipa"}, {"name": "Z", "brewery": "Y", "style": "porter"}]"#
        let expected = ErrorSummary(kind: "dataCorrupted", path: ["[1]", "style"])
        #expect(Self.errorSummary { _ = try Self.streaming([Brew.Beer].self, bad) } == expected)
        #expect(Self.errorSummary { _ = try Self.foundation([Brew.Beer].self, bad) } == expected)
    }
}

// MARK: - Models shared by the CodableScenarioTests files (nested, so they
// never clash with other test files)

extension CodableScenarioTests {
    enum Brew {
        enum BeerStyle: String, Codable, Equatable {
            case ipa
            case stout
            case kolsch
        }

        /// A Beer without an abv, so the JSON's "abv" is ignored.
        struct Beer: Codable, Equatable {
            let name: String
            let brewery: String
            let style: BeerStyle
        }
    }

    /// Beer with an abv and no renaming (+Nesting and +Errors).
    struct AbvBeer: Decodable, Equatable {
        let name: String
        let abv: Float
        let brewery: String
        let style: String
    }
}
