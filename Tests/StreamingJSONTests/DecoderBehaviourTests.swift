// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// What users rely on from the `Decoder` and its containers (as Foundation's
/// JSONDecoder behaves, and as MigratingFromJSONDecoder documents): the
/// incremental unkeyed container of a streamed root array and its copies,
/// containers requested more than once, retrying a single-value decode, and
/// the unkeyed and keyed containers' API, compared with Foundation's
/// `JSONDecoder` wherever the two should agree.
/// More in DecoderBehaviourTests+Containers.swift (unkeyed and keyed containers) and
/// DecoderBehaviourTests+Streams.swift (streams, files, numbers, options, key strategies).
@Suite struct DecoderBehaviourTests {
    // MARK: Helpers

    static func json(_ text: String) -> Data { Data(text.utf8) }

    /// A coding path as the strings tests compare ("Index 3" for array elements).
    static func path(_ keys: [any CodingKey]) -> [String] { keys.map(\.stringValue) }

    /// A thrown error reduced to what tests compare: its kind and coding path.
    struct ErrorInfo: Equatable, CustomStringConvertible {
        var kind: String
        var path: [String]

        init(_ kind: String, _ path: [String] = []) {
            self.kind = kind
            self.path = path
        }

        init(_ error: any Error) {
            guard let error = error as? DecodingError else {
                self.init("not a DecodingError: \(type(of: error)) \(error)")
                return
            }
            switch error {
            case .typeMismatch(_, let context): self.init("typeMismatch", DecoderBehaviourTests.path(context.codingPath))
            case .valueNotFound(_, let context): self.init("valueNotFound", DecoderBehaviourTests.path(context.codingPath))
            case .keyNotFound(let key, let context):
                self.init("keyNotFound(\(key.stringValue))", DecoderBehaviourTests.path(context.codingPath))
            case .dataCorrupted(let context): self.init("dataCorrupted", DecoderBehaviourTests.path(context.codingPath))
            @unknown default: self.init("unknown DecodingError")
            }
        }

        var description: String { path.isEmpty ? kind : "\(kind) at \(path.joined(separator: "/"))" }
    }

    /// The error `body` throws, or nil when it returns.
    static func caught(_ body: () throws -> Void) -> ErrorInfo? {
        do {
            try body()
            return nil
        } catch {
            return ErrorInfo(error)
        }
    }

    /// "value …" or the error's description: one log line per attempt.
    static func attempt<T>(_ body: () throws -> T) -> String {
        do {
            return "value \(try body())"
        } catch {
            return ErrorInfo(error).description
        }
    }

    /// The syntax error behind a `DecodingError.dataCorrupted`, if that is what was thrown.
    static func syntaxError(_ body: () throws -> Void) -> JSONSyntaxError? {
        do {
            try body()
        } catch let DecodingError.dataCorrupted(context) {
            return context.underlyingError as? JSONSyntaxError
        } catch {}
        return nil
    }

    /// A string-keyed coding key for dynamic keys.
    struct AnyKey: CodingKey, Hashable, ExpressibleByStringLiteral {
        var stringValue: String
        var intValue: Int?
        init(_ string: String) { stringValue = string }
        init(stringValue: String) { self.stringValue = stringValue }
        init(stringLiteral value: String) { stringValue = value }
        init?(intValue: Int) {
            stringValue = "\(intValue)"
            self.intValue = intValue
        }
    }

    // MARK: Test data

    struct Beer: Decodable, Equatable {
        var name: String
        var abv: Double
    }

    /// `count` beers, one per line; beer i has abv (i % 20) / 2, so 3 in 20 are over 8.
    static func beers(_ count: Int) -> Data {
        var text = "[\n"
        for index in 0..<count {
            text += #"  {"name": "Beer \#(index)", "abv": \#(Double(index % 20) / 2)}"#
            text += index == count - 1 ? "\n" : ",\n"
        }
        return json(text + "]")
    }

    struct Tagged: Decodable, Equatable {
        var kind: String
        var id: Int
        var label: String

        static func expected(_ index: Int) -> Tagged { Tagged(kind: "k\(index % 3)", id: index, label: "item \(index)") }
    }

    struct KindOnly: Decodable { var kind: String }

    /// `count` tagged objects, one per line (element i on line i + 2); `replace` swaps one line's text.
    static func tagged(_ count: Int, replace: (index: Int, line: String)? = nil) -> Data {
        var text = "[\n"
        for index in 0..<count {
            if let replace, replace.index == index {
                text += replace.line
            } else {
                text += #"  {"kind": "k\#(index % 3)", "id": \#(index), "label": "item \#(index)"}"#
            }
            text += index == count - 1 ? "\n" : ",\n"
        }
        return json(text + "]")
    }

    // MARK: The incremental unkeyed container on a streamed root array

    /// StreamingHugeArrays's `Summary`: processes and drops one element at a time.
    struct Summary: Decodable {
        var count = 0, strong = 0
        var reportedCounts: [Int?] = []
        var indicesInOrder = true
        var lastName = ""
        var finalIndex = -1
        var atEndAfterLoop = false

        init(from decoder: any Decoder) throws {
            var items = try decoder.unkeyedContainer()
            while !items.isAtEnd {
                if items.currentIndex != count { indicesInOrder = false }
                if reportedCounts.count < 3 { reportedCounts.append(items.count) }
                let beer = try items.decode(Beer.self)
                count += 1
                if beer.abv > 8 { strong += 1 }
                lastName = beer.name
            }
            reportedCounts.append(items.count)
            finalIndex = items.currentIndex
            atEndAfterLoop = items.isAtEnd
        }
    }

    func checkSummary(_ summary: Summary, count: Int, strong: Int,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(summary.count == count, sourceLocation: sourceLocation)
        #expect(summary.strong == strong, sourceLocation: sourceLocation)
        #expect(summary.indicesInOrder, "currentIndex did not advance one by one", sourceLocation: sourceLocation)
        #expect(summary.finalIndex == count, sourceLocation: sourceLocation)
        #expect(summary.atEndAfterLoop, sourceLocation: sourceLocation)
        #expect(summary.reportedCounts.count == min(count, 3) + 1, sourceLocation: sourceLocation)
        #expect(summary.reportedCounts.allSatisfy { $0 == nil }, "count must be nil: \(summary.reportedCounts)",
                sourceLocation: sourceLocation)
        if count > 0 { #expect(summary.lastName == "Beer \(count - 1)", sourceLocation: sourceLocation) }
    }

    @Test func incrementalContainerOnAStreamedRootArray() throws {
        let data = Self.beers(50)
        // Beers 17, 18, 19, 37, 38, 39 are over 8.
        checkSummary(try StreamingJSONDecoder().decode(Summary.self, from: data), count: 50, strong: 6)
        for chunk in [1, 7, 64] {
            checkSummary(try Engine.decode(Summary.self, data, chunk: chunk), count: 50, strong: 6)
        }
        // Foundation agrees on the values (its container knows the count in advance).
        let foundation = try JSONDecoder().decode(Summary.self, from: data)
        #expect((foundation.count, foundation.strong, foundation.lastName) == (50, 6, "Beer 49"))
        #expect(foundation.reportedCounts.first == 50)
    }

    @Test func incrementalContainerOverTenThousandElements() throws {
        let data = Self.beers(10_000)
        #expect(data.count > 4 * 64 * 1024)  // several of the reader's chunks
        checkSummary(try StreamingJSONDecoder().decode(Summary.self, from: data), count: 10_000, strong: 1_500)
        checkSummary(try Engine.decode(Summary.self, data, chunk: 1), count: 10_000, strong: 1_500)
        checkSummary(try Engine.decode(Summary.self, data, chunk: 4_093), count: 10_000, strong: 1_500)
    }

    @Test func incrementalContainerOnEmptyArrays() throws {
        for text in ["[]", " [ \n ] ", "\u{FEFF}[]"] {
            let summary = try StreamingJSONDecoder().decode(Summary.self, from: Self.json(text))
            #expect(summary.count == 0 && summary.finalIndex == 0 && summary.atEndAfterLoop, "\(text)")
            #expect(summary.reportedCounts.count == 1 && summary.reportedCounts[0] == nil, "\(text)")
            #expect(try Engine.decode(Summary.self, Self.json(text), chunk: 1).finalIndex == 0)
        }
    }

    @Test func incrementalContainerPassesOnASyntaxErrorInsteadOfEnding() throws {
        // isAtEnd is false at a syntax error so that the decode throws it.
        let data = Self.json("[\n{\"name\": \"A\", \"abv\": 1},\n{\"name\": \"B\", \"abv\": 9},\n oops]")
        for chunk in [1, 5, Int.max] {
            let error = Self.syntaxError { _ = try Engine.decode(Summary.self, data, chunk: chunk) }
            #expect(error?.line == 4, "chunk \(chunk)")
            #expect(error?.column == 2, "chunk \(chunk)")
        }
    }

    // MARK: Copies of the incremental container

    /// Peeks at each element's `kind` through a copy, then decodes it from the original.
    struct PeekThenDecode: Decodable {
        var items: [Tagged] = []
        var peekedKinds: [String] = []
        var peekAdvancedByOne = true
        var originalStayed = true

        init(from decoder: any Decoder) throws {
            var items = try decoder.unkeyedContainer()
            while !items.isAtEnd {
                let index = items.currentIndex
                var peek = items
                peekedKinds.append(try peek.decode(KindOnly.self).kind)
                _ = peek.isAtEnd  // the peek looks one element further, still one ahead of the original
                if peek.currentIndex != index + 1 { peekAdvancedByOne = false }
                if items.currentIndex != index { originalStayed = false }
                self.items.append(try items.decode(Tagged.self))
            }
        }
    }

    /// Decodes each element from the original and looks for the next, then decodes the
    /// element again from a copy left one element behind.
    struct DecodeThenReread: Decodable {
        var items: [Tagged] = []
        var reread: [Tagged] = []

        init(from decoder: any Decoder) throws {
            var items = try decoder.unkeyedContainer()
            while !items.isAtEnd {
                var behind = items
                self.items.append(try items.decode(Tagged.self))
                _ = items.isAtEnd  // the original asks for the next element before the copy reads
                reread.append(try behind.decode(Tagged.self))
            }
        }
    }

    @Test func aCopyTrailingByOneElementWorksForEveryElement() throws {
        let data = Self.tagged(5_000)
        let expected = (0..<5_000).map(Tagged.expected)
        for chunk in [7, Int.max] {
            let peeked = try Engine.decode(PeekThenDecode.self, data, chunk: chunk)
            #expect(peeked.items == expected, "chunk \(chunk)")
            #expect(peeked.peekedKinds == expected.map(\.kind), "chunk \(chunk)")
            #expect(peeked.peekAdvancedByOne && peeked.originalStayed, "chunk \(chunk)")

            let reread = try Engine.decode(DecodeThenReread.self, data, chunk: chunk)
            #expect(reread.items == expected, "chunk \(chunk)")
            #expect(reread.reread == expected, "chunk \(chunk)")
        }
        // The same types under Foundation.
        let small = Self.tagged(20)
        #expect(try JSONDecoder().decode(PeekThenDecode.self, from: small).items
                == (try StreamingJSONDecoder().decode(PeekThenDecode.self, from: small).items))
    }

    static let distanceKey = CodingUserInfoKey(rawValue: "behaviour.distance")!

    /// Takes a copy at element 0, decodes `distance` elements from the original
    /// and asks whether another follows (as a loop does), then decodes from the copy.
    struct FallBehind: Decodable {
        var fromOriginal: [Int] = []
        var fromCopy: String = ""
        var copyIndexAfter = -1
        var rest: [Int] = []

        init(from decoder: any Decoder) throws {
            let distance = decoder.userInfo[DecoderBehaviourTests.distanceKey] as? Int ?? 3
            var items = try decoder.unkeyedContainer()
            var copy = items
            for _ in 0..<distance { fromOriginal.append(try items.decode(Int.self)) }
            _ = items.isAtEnd
            fromCopy = DecoderBehaviourTests.attempt { try copy.decode(Int.self) }
            copyIndexAfter = copy.currentIndex
            // The original goes on as if nothing happened.
            while !items.isAtEnd { rest.append(try items.decode(Int.self)) }
        }
    }

    @Test(arguments: [2, 3, 5])
    func aCopyFallingFurtherBehindGetsADecodingError(distance: Int) throws {
        let decoder = StreamingJSONDecoder()
        decoder.userInfo[Self.distanceKey] = distance
        let values = Array(10..<18)
        let data = Self.json("[" + values.map(String.init).joined(separator: ", ") + "]")
        let result = try Engine.decode(FallBehind.self, data, chunk: 1, decoder: decoder)
        #expect(result.fromOriginal == Array(values.prefix(distance)))
        #expect(result.fromCopy == "dataCorrupted at Index 0", "stale element handed out: \(result.fromCopy)")
        #expect(result.copyIndexAfter == 0)
        #expect(result.rest == Array(values.dropFirst(distance)))
    }

    @Test func aCopyLeftAtTheStartOfALargeArrayGetsADecodingError() throws {
        // 100 000 numbers span many 64 KiB chunks of a plain decode(_:from: Data).
        struct LeftBehind: Decodable {
            var sum = 0
            var count = 0
            var fromCopy = ""
            init(from decoder: any Decoder) throws {
                var items = try decoder.unkeyedContainer()
                var copy = items
                while !items.isAtEnd {
                    sum += try items.decode(Int.self)
                    count += 1
                }
                fromCopy = DecoderBehaviourTests.attempt { try copy.decode(Int.self) }
            }
        }
        let data = Self.json("[" + (0..<100_000).map(String.init).joined(separator: ",") + "]")
        let result = try StreamingJSONDecoder().decode(LeftBehind.self, from: data)
        #expect(result.count == 100_000)
        #expect(result.sum == 99_999 * 100_000 / 2)
        #expect(result.fromCopy == "dataCorrupted at Index 0")
    }

    // MARK: decode(_:from:) reads to the end

    struct FirstTagged: Decodable {
        var first: Tagged
        init(from decoder: any Decoder) throws {
            var items = try decoder.unkeyedContainer()
            first = try items.decode(Tagged.self)
        }
    }

    struct FirstInt: Decodable {
        var first: Int
        init(from decoder: any Decoder) throws {
            var items = try decoder.unkeyedContainer()
            first = try items.decode(Int.self)
        }
    }

    /// Never looks at its decoder.
    struct Untouched: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    @Test func aRootTypeThatStopsEarlyGetsItsValueAndTheRestIsValidated() throws {
        let good = Self.tagged(5_000)
        for chunk in [7, Int.max] {
            #expect(try Engine.decode(FirstTagged.self, good, chunk: chunk).first == Tagged.expected(0))
        }
        // The elements not read are parsed, not decoded: other types are fine.
        let mixed = Self.json(#"[1, "two", {"three": 3}, [4], null, true]"#)
        #expect(try StreamingJSONDecoder().decode(FirstInt.self, from: mixed).first == 1)
        #expect(try JSONDecoder().decode(FirstInt.self, from: mixed).first == 1)

        // Trailing garbage after the array.
        var garbage = good
        garbage.append(contentsOf: Array(" x".utf8))
        for chunk in [7, Int.max] {
            let error = Self.syntaxError { _ = try Engine.decode(FirstTagged.self, garbage, chunk: chunk) }
            #expect(error?.byteOffset == good.count + 1, "chunk \(chunk): \(String(describing: error))")
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FirstTagged.self, from: garbage) }

        // A syntax error in element 4000, far past what the type read (line 4002).
        let badLine = #"  {"kind": "k1", "id": 4000, "label": }"#
        let broken = Self.tagged(5_000, replace: (4_000, badLine))
        let column = Array(badLine.utf8).firstIndex(of: UInt8(ascii: "}"))! + 1
        for chunk in [7, Int.max] {
            let error = Self.syntaxError { _ = try Engine.decode(FirstTagged.self, broken, chunk: chunk) }
            #expect(error?.line == 4_002, "chunk \(chunk): \(String(describing: error))")
            #expect(error?.column == column, "chunk \(chunk): \(String(describing: error))")
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FirstTagged.self, from: broken) }

        // Truncated after the first element.
        let truncated = Self.json(#"[{"kind": "k0", "id": 0, "label": "item 0"}, {"kind": "#)
        #expect(Self.syntaxError { _ = try StreamingJSONDecoder().decode(FirstTagged.self, from: truncated) }?.message
                == "Unexpected end of input")
    }

    @Test func aTypeThatNeverTouchesTheDecoderStillValidatesTheDocument() throws {
        for text in ["[1, 2, 3]", #"{"a": [1, {}], "b": null}"#, "42", "null", #""text""#, "[]"] {
            #expect(throws: Never.self, "\(text)") { try StreamingJSONDecoder().decode(Untouched.self, from: Self.json(text)) }
            #expect(throws: Never.self, "\(text)") { try Engine.decode(Untouched.self, Self.json(text), chunk: 1) }
            #expect(throws: Never.self, "\(text)") { try JSONDecoder().decode(Untouched.self, from: Self.json(text)) }
        }
        let invalid: [(String, Int)] = [
            ("[1, 2, 3] x", 10), ("[1, 2,", 6), (#"{"a": }"#, 6), ("[1, 2, 3]]", 9), ("", 0), ("nul", 3), ("[1 2]", 3),
        ]
        for (text, offset) in invalid {
            let error = Self.syntaxError { _ = try StreamingJSONDecoder().decode(Untouched.self, from: Self.json(text)) }
            #expect(error?.byteOffset == offset, "\(text): \(String(describing: error))")
            #expect(Self.syntaxError { _ = try Engine.decode(Untouched.self, Self.json(text), chunk: 1) }?.byteOffset == offset,
                    "\(text)")
            #expect(throws: DecodingError.self, "\(text)") { try JSONDecoder().decode(Untouched.self, from: Self.json(text)) }
        }
        // An error near the end of a large document, well past the first chunk.
        let broken = Self.tagged(5_000, replace: (4_999, #"  {"kind": "k1", "id": 4999, "label": "item 4999"]"#))
        #expect(Self.syntaxError { _ = try StreamingJSONDecoder().decode(Untouched.self, from: broken) }?.line == 5_001)
        #expect(throws: Never.self) { try StreamingJSONDecoder().decode(Untouched.self, from: Self.tagged(5_000)) }
    }

    // MARK: Containers requested more than once

    /// Reads a `type` discriminator through one keyed container, then everything through another.
    enum Shape: Decodable, Equatable {
        case circle(radius: Double)
        case rectangle(width: Double, height: Double)

        enum TypeKey: CodingKey { case type }
        enum CodingKeys: String, CodingKey { case type, radius, width, height }

        init(from decoder: any Decoder) throws {
            let type = try decoder.container(keyedBy: TypeKey.self).decode(String.self, forKey: .type)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            switch type {
            case "circle": self = .circle(radius: try container.decode(Double.self, forKey: .radius))
            case "rectangle":
                self = .rectangle(width: try container.decode(Double.self, forKey: .width),
                                  height: try container.decode(Double.self, forKey: .height))
            default:
                throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "Unknown shape \(type)")
            }
        }
    }

    @Test func keyedContainerRequestedTwiceForADiscriminator() throws {
        let circle = Self.json(#"{"radius": 2.5, "type": "circle"}"#)
        #expect(try StreamingJSONDecoder().decode(Shape.self, from: circle) == .circle(radius: 2.5))

        let list = Self.json(#"""
        [{"type": "rectangle", "width": 3, "height": 4}, {"type": "circle", "radius": 1},
         {"height": 0.5, "type": "rectangle", "width": 2}]
        """#)
        let expected: [Shape] = [.rectangle(width: 3, height: 4), .circle(radius: 1), .rectangle(width: 2, height: 0.5)]
        #expect(try JSONDecoder().decode([Shape].self, from: list) == expected)
        #expect(try StreamingJSONDecoder().decode([Shape].self, from: list) == expected)
        #expect(try Engine.decode([Shape].self, list, chunk: 3) == expected)
        var streamed: [Shape] = []
        try StreamingJSONDecoder().elements(of: Shape.self, from: list).forEach { streamed.append($0) }
        #expect(streamed == expected)

        struct Drawing: Decodable, Equatable { var main: Shape; var others: [Shape] }
        let drawing = Self.json(#"{"others": [{"type": "circle", "radius": 9}], "main": {"type": "rectangle", "width": 1, "height": 2}}"#)
        let decoded = try StreamingJSONDecoder().decode(Drawing.self, from: drawing)
        #expect(decoded == Drawing(main: .rectangle(width: 1, height: 2), others: [.circle(radius: 9)]))
        #expect(decoded == (try JSONDecoder().decode(Drawing.self, from: drawing)))

        // The second container's errors still say where.
        let unknown = Self.json(#"[{"type": "circle", "radius": 1}, {"type": "hexagon"}]"#)
        #expect(Self.caught { _ = try StreamingJSONDecoder().decode([Shape].self, from: unknown) }
                == ErrorInfo("dataCorrupted", ["Index 1", "type"]))
        #expect(Self.caught { _ = try JSONDecoder().decode([Shape].self, from: unknown) }
                == ErrorInfo("dataCorrupted", ["Index 1", "type"]))
        let missing = Self.json(#"{"main": {"type": "circle"}, "others": []}"#)
        #expect(Self.caught { _ = try StreamingJSONDecoder().decode(Drawing.self, from: missing) }
                == ErrorInfo("keyNotFound(radius)", ["main"]))
    }

    /// A plain string, or an object: tries the single-value container first.
    enum Person: Decodable, Equatable {
        case name(String)
        case full(first: String, last: String)

        enum CodingKeys: CodingKey { case first, last }

        init(from decoder: any Decoder) throws {
            let single = try decoder.singleValueContainer()
            if let name = try? single.decode(String.self) {
                self = .name(name)
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self = .full(first: try container.decode(String.self, forKey: .first),
                         last: try container.decode(String.self, forKey: .last))
        }
    }

    @Test func singleValueContainerThenKeyedContainer() throws {
        let data = Self.json(#"["Ada", {"first": "Grace", "last": "Hopper"}, "Alan", {"last": "Liskov", "first": "Barbara"}]"#)
        let expected: [Person] = [.name("Ada"), .full(first: "Grace", last: "Hopper"), .name("Alan"),
                                  .full(first: "Barbara", last: "Liskov")]
        #expect(try StreamingJSONDecoder().decode([Person].self, from: data) == expected)
        #expect(try Engine.decode([Person].self, data, chunk: 1) == expected)
        #expect(try JSONDecoder().decode([Person].self, from: data) == expected)
        #expect(try StreamingJSONDecoder().decode(Person.self, from: Self.json(#"{"first": "A", "last": "B"}"#))
                == .full(first: "A", last: "B"))
        // Neither: the keyed container's error.
        #expect(Self.caught { _ = try StreamingJSONDecoder().decode([Person].self, from: Self.json("[\"x\", 5]")) }
                == ErrorInfo("typeMismatch", ["Index 1"]))
        #expect(Self.caught { _ = try JSONDecoder().decode([Person].self, from: Self.json("[\"x\", 5]")) }
                == ErrorInfo("typeMismatch", ["Index 1"]))
    }

    /// Nested objects and arrays (not the streamed root) requested twice.
    struct Twice: Decodable, Equatable {
        var firstPass: [Int] = []
        var secondPass: [Int] = []
        var innerFirst = ""
        var innerSecond = ""
        var innerKeys: Set<String> = []
        var grid: [[Int]] = []

        enum CodingKeys: CodingKey { case list, inner, grid }
        enum InnerKeys: CodingKey { case name, tag }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            var list = try container.nestedUnkeyedContainer(forKey: .list)
            while !list.isAtEnd { firstPass.append(try list.decode(Int.self)) }
            var again = try container.nestedUnkeyedContainer(forKey: .list)
            while !again.isAtEnd { secondPass.append(try again.decode(Int.self) * 10) }

            innerFirst = try container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner).decode(String.self, forKey: .name)
            let inner = try container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
            innerSecond = try inner.decode(String.self, forKey: .tag) + "/" + inner.decode(String.self, forKey: .name)
            innerKeys = Set(inner.allKeys.map(\.stringValue))

            // Rows whose own init(from:) asks for the unkeyed container twice.
            grid = try container.decode([Row].self, forKey: .grid).map(\.values)
        }

        struct Row: Decodable {
            var values: [Int]
            init(from decoder: any Decoder) throws {
                var counting = try decoder.unkeyedContainer()
                var count = 0
                while !counting.isAtEnd {
                    _ = try counting.decode(Int.self)
                    count += 1
                }
                var reading = try decoder.unkeyedContainer()
                values = try (0..<count).map { _ in try reading.decode(Int.self) }
                if !reading.isAtEnd || reading.currentIndex != count {
                    throw DecodingError.dataCorruptedError(in: reading, debugDescription: "second container out of step")
                }
            }
        }
    }

    @Test func nestedObjectsAndArraysRequestedTwice() throws {
        let data = Self.json(#"{"grid": [[1, 2], [], [3]], "inner": {"tag": "t", "name": "n"}, "list": [4, 5, 6]}"#)
        let ours = try StreamingJSONDecoder().decode(Twice.self, from: data)
        #expect(ours.firstPass == [4, 5, 6])
        #expect(ours.secondPass == [40, 50, 60])
        #expect(ours.innerFirst == "n")
        #expect(ours.innerSecond == "t/n")
        #expect(ours.innerKeys == ["name", "tag"])
        #expect(ours.grid == [[1, 2], [], [3]])
        #expect(try Engine.decode(Twice.self, data, chunk: 2) == ours)
        #expect(try JSONDecoder().decode(Twice.self, from: data) == ours)
        // As elements of a streamed root array, too.
        let streamed = try StreamingJSONDecoder().decode([Twice].self, from: Self.json("[\(String(decoding: data, as: UTF8.self))]"))
        #expect(streamed == [ours])
    }

    // MARK: Single-value retry

    enum WideInteger: Decodable, Equatable {
        case signed(Int64)
        case unsigned(UInt64)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Int64.self) {
                self = .signed(value)
            } else {
                self = .unsigned(try container.decode(UInt64.self))
            }
        }
    }

    enum StringOrInt: Decodable, Equatable {
        case int(Int)
        case string(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Int.self) {
                self = .int(value)
            } else {
                self = .string(try container.decode(String.self))
            }
        }
    }

    @Test func singleValueRetryInt64ThenUInt64() throws {
        #expect(try StreamingJSONDecoder().decode(WideInteger.self, from: Self.json("18446744073709551615")) == .unsigned(.max))
        #expect(try JSONDecoder().decode(WideInteger.self, from: Self.json("18446744073709551615")) == .unsigned(.max))
        #expect(try StreamingJSONDecoder().decode(WideInteger.self, from: Self.json("-9223372036854775808")) == .signed(.min))

        let data = Self.json("[0, -1, 9223372036854775807, 9223372036854775808, 18446744073709551615, 1e3]")
        let expected: [WideInteger] = [.signed(0), .signed(-1), .signed(.max), .unsigned(1 << 63), .unsigned(.max), .signed(1_000)]
        #expect(try StreamingJSONDecoder().decode([WideInteger].self, from: data) == expected)
        #expect(try Engine.decode([WideInteger].self, data, chunk: 1) == expected)
        #expect(try JSONDecoder().decode([WideInteger].self, from: data) == expected)
        var streamed: [WideInteger] = []
        try StreamingJSONDecoder().elements(of: WideInteger.self, from: data).forEach { streamed.append($0) }
        #expect(streamed == expected)

        struct Holder: Decodable, Equatable { var value: WideInteger }
        #expect(try StreamingJSONDecoder().decode(Holder.self, from: Self.json(#"{"value": 18446744073709551615}"#))
                == Holder(value: .unsigned(.max)))
        // Fits neither: the second attempt's error, with its path.
        let tooBig = Self.json(#"{"value": 18446744073709551616}"#)
        #expect(Self.caught { _ = try StreamingJSONDecoder().decode(Holder.self, from: tooBig) }
                == ErrorInfo("dataCorrupted", ["value"]))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Holder.self, from: tooBig) }
        #expect(Self.caught { _ = try StreamingJSONDecoder().decode([WideInteger].self, from: Self.json(#"[1, "2"]"#)) }
                == ErrorInfo("typeMismatch", ["Index 1"]))
    }

    @Test func singleValueRetryIntThenString() throws {
        let data = Self.json(#"[1, "two", -3, "4", ""]"#)
        let expected: [StringOrInt] = [.int(1), .string("two"), .int(-3), .string("4"), .string("")]
        #expect(try StreamingJSONDecoder().decode([StringOrInt].self, from: data) == expected)
        #expect(try Engine.decode([StringOrInt].self, data, chunk: 1) == expected)
        #expect(try JSONDecoder().decode([StringOrInt].self, from: data) == expected)
        #expect(try StreamingJSONDecoder().decode(StringOrInt.self, from: Self.json(#""x""#)) == .string("x"))
        #expect(try StreamingJSONDecoder().decode(StringOrInt.self, from: Self.json("7")) == .int(7))
        // 2.5 is neither an Int nor a String; true and null are neither either.
        for (text, kind) in [("[2.5]", "typeMismatch"), ("[true]", "typeMismatch"), ("[null]", "valueNotFound")] {
            #expect(Self.caught { _ = try StreamingJSONDecoder().decode([StringOrInt].self, from: Self.json(text)) }
                    == ErrorInfo(kind, ["Index 0"]), "\(text)")
            #expect(Self.caught { _ = try JSONDecoder().decode([StringOrInt].self, from: Self.json(text)) }
                    == ErrorInfo(kind, ["Index 0"]), "\(text)")
        }
    }
}
