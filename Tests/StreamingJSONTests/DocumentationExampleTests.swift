// SPDX-License-Identifier: Apache-2.0
import Foundation
import StreamingJSON
import Testing

/// The code of the DocC articles (Sources/StreamingJSON/StreamingJSON.docc)
/// and of the examples in doc comments, as written there (with `…` filled
/// in), run against small files: the documentation compiles, and what it
/// says the code prints is what the code prints. Written against the public
/// API only (no `@testable`), as a user of the package would.
@Suite struct DocumentationExampleTests {
    struct Beer: Codable, Equatable {
        var name: String
        var abv: Double
    }

    static let beersJSON = #"[{"name":"Oak","abv":9.5},{"name":"Pils","abv":4.8},{"name":"Tripel","abv":8.4}]"#

    /// A directory with `dump.json` (the beers) in it.
    final class Files {
        let directory: URL
        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("docs-examples-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(DocumentationExampleTests.beersJSON.utf8).write(to: url("dump.json"))
        }
        deinit { try? FileManager.default.removeItem(at: directory) }
        func url(_ name: String) -> URL { directory.appendingPathComponent(name) }
        func write(_ name: String, _ text: String) throws -> URL {
            try Data(text.utf8).write(to: url(name))
            return url(name)
        }
    }

    // MARK: Getting started

    @Test func gettingStarted() async throws {
        struct Beer: Codable {
            var name: String
            var abv: Double
            var breweryName: String      // "brewery_name" in the JSON
        }

        let data = Data(#"[{"name":"Oak","abv":9.5,"brewery_name":"Saint Arnold"}]"#.utf8)

        let decoder = StreamingJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let beers = try decoder.decode([Beer].self, from: data)
        #expect(beers.first?.breweryName == "Saint Arnold")

        let files = try Files()
        let dumpURL = files.url("dump.json")
        var strong: [String] = []
        for try await beer in decoder.elements(of: DocumentationExampleTests.Beer.self, contentsOf: dumpURL) {
            if beer.abv > 8 { strong.append(beer.name) }
        }
        #expect(strong == ["Oak", "Tripel"])

        // Synchronous pulls, in code that has no task.
        func pull() throws -> [String] {
            var names: [String] = []
            var iterator = decoder.elements(of: DocumentationExampleTests.Beer.self, contentsOf: dumpURL).makeIterator()
            while let beer = try iterator.next() {
                names.append(beer.name)
            }
            return names
        }
        #expect(try pull() == ["Oak", "Pils", "Tripel"])
        // In an async function the same call needs `await` (Swift picks the async requirement).
        var names: [String] = []
        var asyncIterator = decoder.elements(of: DocumentationExampleTests.Beer.self, contentsOf: dumpURL).makeIterator()
        while let beer = try await asyncIterator.next() {
            names.append(beer.name)
        }
        #expect(names == ["Oak", "Pils", "Tripel"])

        var printed = ""
        do {
            _ = try decoder.decode([Int].self, from: Data("[1,2,x]".utf8))
        } catch DecodingError.dataCorrupted(let context) {
            let error = context.underlyingError as? JSONSyntaxError
            printed = "\(error!)"
        }
        #expect(printed == "Unexpected character 'x' at line 1, column 6 (byte 5)")

        let mixed = try files.write("mixed.json", #"[{"name":"Oak","abv":9.5},{"name":"Pils"},{"name":"Tripel","abv":8.4}]"#)
        func skipBadElements() throws -> (names: [String], skipped: [String]) {
            var names: [String] = []
            var skipped: [String] = []
            var beers = decoder.elements(of: DocumentationExampleTests.Beer.self, contentsOf: mixed).makeIterator()
            while true {
                do {
                    guard let beer = try beers.next() else { break }   // the end: every byte read
                    names.append(beer.name)
                } catch let error as DecodingError where !error.endsStream {
                    skipped.append("skipped: \(error)")     // the coding path starts with the element's index
                }
            }
            return (names, skipped)
        }
        let (kept, skipped) = try skipBadElements()
        #expect(kept == ["Oak", "Tripel"])
        #expect(skipped.count == 1)
    }

    // MARK: Streaming huge arrays

    struct Event: Decodable, Equatable { var level: String }
    struct User: Decodable, Equatable { var name: String }
    struct Item: Decodable, Equatable { var id: Int }

    @Test func streamingSources() async throws {
        let decoder = StreamingJSONDecoder()
        let files = try Files()
        let dumpURL = files.url("dump.json")
        let data = Data(Self.beersJSON.utf8)

        var count = 0
        for try await _ in decoder.elements(of: Beer.self, from: data) { count += 1 }
        for try await _ in decoder.elements(of: Beer.self, contentsOf: dumpURL) { count += 1 }
        let fileHandle = try FileHandle(forReadingFrom: dumpURL)
        for try await _ in decoder.elements(of: Beer.self, from: fileHandle) { count += 1 }
        let chunks = AsyncStream<[UInt8]> { continuation in
            for byte in Self.beersJSON.utf8 { continuation.yield([byte]) }
            continuation.finish()
        }
        for try await _ in decoder.elements(of: Beer.self, from: chunks) { count += 1 }
        let bytes = AsyncStream<UInt8> { continuation in
            for byte in Self.beersJSON.utf8 { continuation.yield(byte) }
            continuation.finish()
        }
        for try await _ in decoder.elements(of: Beer.self, from: bytes) { count += 1 }
        #expect(count == 15)

        var handled: [Beer] = []
        func handle(_ beer: Beer) { handled.append(beer) }
        let buffers = stride(from: 0, to: data.count, by: 7).map { data[$0..<min($0 + 7, data.count)] }
        let feed = JSONElementFeed(of: Beer.self, decoder: decoder)
        for buffer in buffers {
            for beer in try feed.feed(buffer) { handle(beer) }
        }
        for beer in try feed.finish() { handle(beer) }
        #expect(handled.map(\.name) == ["Oak", "Pils", "Tripel"])

        var names: [String] = []
        try decoder.elements(of: Beer.self, contentsOf: dumpURL).forEach { beer in names.append(beer.name) }
        #expect(names == ["Oak", "Pils", "Tripel"])
    }

    @Test func streamShapes() async throws {
        let decoder = StreamingJSONDecoder()
        let files = try Files()
        let usersURL = try files.write("users.json", #"{"u1": {"name": "Ann"}, "u2": {"name": "Bob"}}"#)
        var users: [User] = []
        for try await user in decoder.elements(of: User.self, contentsOf: usersURL, format: .objectValues) {
            users.append(user)
        }
        #expect(users == [User(name: "Ann"), User(name: "Bob")])

        let logURL = try files.write("log.jsonl", "{\"level\":\"info\"}\r\n\n{\"level\":\n\"error\"}\n")
        var events: [Event] = []
        for try await event in decoder.elements(of: Event.self, contentsOf: logURL, format: .jsonLines) {
            events.append(event)
        }
        #expect(events.map(\.level) == ["info", "error"])

        let exportURL = try files.write("export.json", #"{"meta": {"n": 2}, "items": [{"id": 1}, {"id": 2}], "links": {}}"#)
        var items: [Item] = []
        for try await item in decoder.elements(of: Item.self, contentsOf: exportURL, at: ["items"]) {
            items.append(item)
        }
        #expect(items == [Item(id: 1), Item(id: 2)])

        let nested = try files.write("nested.json", #"{"data": {"results": [{"id": 3}]}}"#)
        items = []
        for try await result in decoder.elements(of: Item.self, contentsOf: nested, at: ["data", "results"]) {
            items.append(result)
        }
        #expect(items == [Item(id: 3)])

        // The missing-path message quoted in the article.
        let wrong = try files.write("wrong.json", #"{"other": [1]}"#)
        var message = ""
        do {
            for try await _ in decoder.elements(of: Item.self, contentsOf: wrong, at: ["items"]) {}
        } catch DecodingError.dataCorrupted(let context) {
            message = context.debugDescription
        }
        #expect(message.hasPrefix("No array at path .items: the key is missing at line 1, column"))

        // Empty input: zero elements, except for .array.
        for format in [JSONStreamFormat.auto, .jsonLines] {
            var seen = 0
            for try await _ in decoder.elements(of: Item.self, from: Data(), format: format) { seen += 1 }
            #expect(seen == 0)
        }
        var objectMembers = 0
        for try await _ in decoder.elements(of: Item.self, from: Data("{}".utf8), format: .objectValues) { objectMembers += 1 }
        #expect(objectMembers == 0)
        await #expect(throws: DecodingError.self) {
            for try await _ in decoder.elements(of: Item.self, from: Data(), format: .array) {}
        }
    }

    @Test func errorsInAStream() throws {
        let decoder = StreamingJSONDecoder()
        let files = try Files()
        let dumpURL = try files.write("dump.json", #"[{"name":"Oak","abv":9.5},{"name":"Pils"},{"name":"Tripel","abv":8.4}, oops]"#)
        var handledNames: [String] = []
        func handle(_ beer: Beer) { handledNames.append(beer.name) }
        func run() throws -> Int {
            var iterator = decoder.elements(of: Beer.self, contentsOf: dumpURL).makeIterator()
            var skipped = 0
            while true {
                do {
                    guard let beer = try iterator.next() else { break }   // the end: every byte read
                    handle(beer)
                } catch let error as DecodingError where !error.endsStream {
                    skipped += 1                                          // one bad element: go on
                }
            }
            return skipped
        }
        // The element that fails to decode and the one that is not JSON are
        // skipped; "Tripel" between them still comes.
        #expect(try run() == 2)
        #expect(handledNames == ["Oak", "Tripel"])
        // Cut short, the stream cannot go on: the loop leaves by `throw`.
        let cutURL = try files.write("cut.json", #"[{"name":"Oak","abv":9.5},{"name":"Pils""#)
        var cutIterator = decoder.elements(of: Beer.self, contentsOf: cutURL).makeIterator()
        #expect(try cutIterator.next()?.name == "Oak")
        #expect(throws: DecodingError.self) { try cutIterator.next() }
        #expect(throws: DecodingError.self) { try cutIterator.next() }
        #expect(handledNames == ["Oak", "Tripel"])

        try Data(#"[{"name":"Oak","abv":9.5},{"name":"Pils"},{"name":"Tripel","abv":8.4}]"#.utf8).write(to: dumpURL)
        handledNames = []
        #expect(try run() == 1)
        #expect(handledNames == ["Oak", "Tripel"])

        // A missing file: CocoaError at the first next().
        var iterator = decoder.elements(of: Beer.self, contentsOf: files.url("missing.json")).makeIterator()
        #expect(throws: CocoaError.self) { try iterator.next() }
    }

    struct Summary: Decodable {
        var count = 0
        var strong = 0

        init(from decoder: any Decoder) throws {
            var items = try decoder.unkeyedContainer()   // pulls elements on demand
            while !items.isAtEnd {
                let beer = try items.decode(Beer.self)   // one element in memory
                count += 1
                if beer.abv > 8 { strong += 1 }
            }
        }
    }

    struct Water: Decodable { var name: String }

    // [{"type": "beer", "name": "Oak", "abv": 9.5}, {"type": "water", "name": "Still"}, …]
    struct Order: Decodable {
        var beers: [Beer] = []
        var waters: [Water] = []

        init(from decoder: any Decoder) throws {
            var items = try decoder.unkeyedContainer()
            while !items.isAtEnd {
                var peek = items                          // a copy of the cursor
                switch try peek.decode(Kind.self).type {  // the copy moves one element ahead
                case "beer": beers.append(try items.decode(Beer.self))
                default: waters.append(try items.decode(Water.self))
                }
            }
        }

        private struct Kind: Decodable { var type: String }
    }

    @Test func customRootTypes() async throws {
        let decoder = StreamingJSONDecoder()
        let files = try Files()
        let dumpURL = files.url("dump.json")
        let summary = try decoder.decode(Summary.self, contentsOf: dumpURL)
        #expect((summary.count, summary.strong) == (3, 2))

        let orderURL = try files.write("order.json", #"""
            [{"type": "beer", "name": "Oak", "abv": 9.5}, {"type": "water", "name": "Still"},
             {"type": "beer", "name": "Pils", "abv": 4.8}]
            """#)
        let order = try decoder.decode(Order.self, contentsOf: orderURL)
        #expect(order.beers.map(\.name) == ["Oak", "Pils"])
        #expect(order.waters.map(\.name) == ["Still"])

        var firstTen: [Beer] = []
        for try await beer in decoder.elements(of: Beer.self, contentsOf: dumpURL) {
            firstTen.append(beer)
            if firstTen.count == 2 { break }   // the rest of the file is never read
        }
        #expect(firstTen.count == 2)

        let records = try files.write("records.json", #"[{"abv": 8}, {"abv": 8.0, "name": "x"}, {"abv": 7}]"#)
        var printed: [String] = []
        for try await record in decoder.elements(of: JSONValue.self, contentsOf: records) {
            if record["abv"] == 8 { printed.append("\(record)") }
        }
        #expect(printed == [#"{"abv":8}"#, #"{"abv":8.0,"name":"x"}"#])
    }

    // MARK: Migrating from JSONDecoder

    struct Page: Decodable { var id: Int }

    @Test func migrationMessages() throws {
        let decoder = StreamingJSONDecoder()
        func message(_ body: () throws -> Any) -> String {
            let outcome = Result { try body() }
            guard case .failure(let error) = outcome else { return "no error" }
            switch error as? DecodingError {
            case .dataCorrupted(let context)?, .keyNotFound(_, let context)?,
                 .valueNotFound(_, let context)?, .typeMismatch(_, let context)?:
                return context.debugDescription
            default:
                return "\(error)"
            }
        }
        #expect(message { try decoder.decode([Int8].self, from: Data("[1, 300]".utf8)) }
            == "Number 300 does not fit in Int8, at line 1, column 5 (byte 4).")
        #expect(message { try decoder.decode([Int].self, from: Data(#"[{"a":1"#.utf8)) }
            == "Unexpected end of input at line 1, column 8 (byte 7)")
        #expect(message { try decoder.decode([Int].self, from: Data("[1] x".utf8)) }
            .hasPrefix("Unexpected character 'x' after the end of the JSON value"))
        #expect(message { try decoder.decode([String].self, from: Data([0x5B, 0x22, 0xFF, 0x22, 0x5D])) }
            .hasPrefix("Invalid UTF-8 in string: unexpected byte 0xFF"))
        #expect(message { try decoder.decode([Int].self, from: Data("[1,\u{0C}2]".utf8)) }
            .hasPrefix("Unexpected character U+000C"))
        #expect(message { try decoder.decode([Int].self, from: Data("[1, // c\n 2]".utf8)) }
            .hasPrefix("Unexpected character '/' (comments are not allowed unless allowsComments is set)"))
        #expect(message { try decoder.decode([Int].self, from: Data("  ".utf8)) }
            .hasPrefix("No JSON value (the input is empty)"))
        // The first problem in document order wins.
        #expect(throws: DecodingError.self) { try decoder.decode([Int].self, from: Data(#"["x", oops]"#.utf8)) }
        #expect(message { try decoder.decode([Int].self, from: Data(#"["x", oops]"#.utf8)) }
            .hasPrefix("Expected to decode Int but found a string instead"))
        struct Beer: Decodable { var name: String; var abv: Double }
        #expect(message { try decoder.decode(Beer.self, from: Data(#"{"name":null,"abv":1}"#.utf8)) }
            == "Expected String value but found null instead, at line 1, column 9 (byte 8).")
        #expect(message { try decoder.decode(Beer.self, from: Data(#"{"name":"IPA"}"#.utf8)) }
            == #"No value associated with key CodingKeys(stringValue: "abv", intValue: nil) ("abv") in the object at line 1, column 1 (byte 0)."#)
        #expect(message { try decoder.decode(Beer.self, from: Data("null".utf8)) }
            .hasPrefix("Cannot get keyed decoding container -- found null value instead, at line 1"))
        #expect(message { try decoder.decode([URL].self, from: Data(#"[""]"#.utf8)) }.hasPrefix(#"Invalid URL string "", at "#))

        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "MMM-dd-yyyy"
        decoder.dateDecodingStrategy = .formatted(formatter)
        #expect(message { try decoder.decode([Date].self, from: Data(#"["yesterday"]"#.utf8)) }
            .hasPrefix(#"Date string "yesterday" does not match format expected by formatter (MMM-dd-yyyy), at "#))
        decoder.dateDecodingStrategy = .iso8601
        #expect(message { try decoder.decode([Date].self, from: Data(#"["yesterday"]"#.utf8)) }
            .hasPrefix(#"Expected date string to be ISO8601-formatted, found "yesterday", at "#))
        let date = try decoder.decode([Date].self, from: Data(#"["2017-11-13T14:30:15.5+08:00"]"#.utf8))[0]
        #expect(date == Date(timeIntervalSince1970: 1_510_554_615.5))

        // The catch shown in the article.
        var printed = ""
        do {
            _ = try decoder.decode(Page.self, from: Data(#"{"id": 1.5}"#.utf8))
        } catch DecodingError.dataCorrupted(let context) {
            if let syntax = context.underlyingError as? JSONSyntaxError {
                printed = "invalid JSON at \(syntax.line):\(syntax.column): \(syntax.message)"
            } else {
                printed = "bad value at \(context.codingPath): \(context.debugDescription)"
            }
        }
        #expect(printed.hasPrefix("bad value at "))
    }

    // MARK: Writing streams

    struct Product: Codable {
        var id: Int
        var name: String
        var price: Double
    }

    @Test func writing() async throws {
        let files = try Files()
        let encoder = StreamingJSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        let beers = [Beer(name: "Oak", abv: 9.5)]
        let data = try encoder.encode(beers)
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.prettyPrinted, .sortedKeys]
        foundation.keyEncodingStrategy = .convertToSnakeCase
        #expect(data == (try foundation.encode(beers)))

        let handle = try FileHandle(forWritingTo: try files.write("out.json", ""))
        try encoder.encode(beers, to: handle)
        try handle.close()
        #expect(try Data(contentsOf: files.url("out.json")) == data)

        let decoder = StreamingJSONDecoder()
        let inputURL = files.url("dump.json"), outputURL = files.url("strong.jsonl")
        let writer = try JSONStreamWriter<Beer>(toFileAt: outputURL, format: .jsonLines, encoder: encoder)
        for try await beer in decoder.elements(of: Beer.self, contentsOf: inputURL) where beer.abv > 8 {
            try writer.append(beer)
        }
        try writer.finish()
        #expect(String(decoding: try Data(contentsOf: outputURL), as: UTF8.self)
            == "{\"abv\":9.5,\"name\":\"Oak\"}\n{\"abv\":8.4,\"name\":\"Tripel\"}\n")

        let productsURL = try files.write("products.json", #"[{"id":1,"name":"a","price":10},{"id":2,"name":"b","price":20}]"#)
        let pricedURL = files.url("priced.json")
        do {
            let inputURL = productsURL, outputURL = pricedURL
            let decoder = StreamingJSONDecoder()
            let writer = try JSONStreamWriter<Product>(toFileAt: outputURL)
            for try await var product in decoder.elements(of: Product.self, contentsOf: inputURL) {
                product.price *= 1.1
                try writer.append(product)
            }
            try writer.finish()
        }
        let priced = try JSONDecoder().decode([Product].self, from: Data(contentsOf: pricedURL))
        #expect(priced.map(\.price) == [10 * 1.1, 20 * 1.1])

        let stdoutWriter = try JSONStreamWriter<Beer>(to: .standardError, format: .jsonLines)
        try stdoutWriter.finish()
        #expect(throws: EncodingError.self) { try JSONStreamWriter<Beer>(toFileAt: files.url("x.json"), format: .objectValues) }
    }

    // MARK: Limits and security

    struct Record: Decodable { var id: Int }

    @Test func limits() throws {
        let decoder = StreamingJSONDecoder()
        decoder.maxDepth = 32                 // records are not deeply nested
        decoder.maxStringLength = 1 << 20     // no string over 1 MiB
        decoder.maxElementBytes = 4 << 20     // no element over 4 MiB
        #expect(decoder.maxElementBytes == 4 << 20)

        decoder.maxElementBytes = 40
        let files = try Files()
        let uploadURL = try files.write("upload.json", #"[{"id": 1}, {"id": 2, "padding": "\#(String(repeating: "x", count: 100))"}, {"id": 3}]"#)
        var stored: [Int] = []
        var logged: [String] = []
        func store(_ record: Record) { stored.append(record.id) }
        func log(_ text: String) { logged.append(text) }
        var iterator = decoder.elements(of: Record.self, contentsOf: uploadURL).makeIterator()
        while true {
            do {
                guard let record = try iterator.next() else { break }
                store(record)
            } catch DecodingError.dataCorrupted(let context)
                where (context.underlyingError as? JSONSyntaxError)?.message.hasSuffix("(maxElementBytes)") == true {
                log("element \(context.codingPath.first?.intValue ?? -1) is too large, skipped")
            }
        }
        #expect(stored == [1, 3])
        #expect(logged == ["element 1 is too large, skipped"])

        // The messages the article quotes.
        func syntaxMessage(_ decoder: StreamingJSONDecoder, _ json: String) -> String? {
            do {
                _ = try decoder.decode(JSONValue.self, from: Data(json.utf8))
                return nil
            } catch DecodingError.dataCorrupted(let context) {
                return (context.underlyingError as? JSONSyntaxError)?.message
            } catch {
                return nil
            }
        }
        let plain = StreamingJSONDecoder()
        #expect(syntaxMessage(plain, String(repeating: "[", count: 600)) == "Nesting deeper than 512 levels (maxDepth)")
        #expect(syntaxMessage(plain, "[" + String(repeating: "1", count: 1_001) + "]") == "Number literal longer than 1000 characters (maxNumberLength)")
        plain.maxStringLength = 3
        #expect(syntaxMessage(plain, #"["abcd"]"#) == "String longer than 3 bytes (maxStringLength)")
        // Depth counts from the root: the elements of a root array are at depth 2.
        plain.maxDepth = 1
        #expect(syntaxMessage(plain, "[1]") == nil)
        #expect(syntaxMessage(plain, "[[1]]") == "Nesting deeper than 1 levels (maxDepth)")

        // Over a limit: the element's error; an array goes on at the next element,
        // JSON Lines at the next line.
        let strict = StreamingJSONDecoder()
        strict.maxDepth = 2
        func outcomes(_ json: String, _ format: JSONStreamFormat) -> [String] {
            var results: [String] = []
            var iterator = strict.elements(of: JSONValue.self, from: Data(json.utf8), format: format).makeIterator()
            while results.count < 10 {
                do {
                    guard let value = try iterator.next() else { break }
                    results.append("\(value)")
                } catch {
                    results.append("error")
                }
            }
            return results
        }
        #expect(outcomes("[[1], [[2]], [3]]", .array) == ["[1]", "error", "[3]"])
        #expect(outcomes("[1]\n[[[2]]]\n[3]\n", .jsonLines) == ["[1]", "error", "[3]"])
    }

    // MARK: Examples in doc comments

    @Test func docCommentExamples() throws {
        let value: JSONValue = ["name": "Oak", "abv": 9.5, "tags": ["dark", nil]]
        #expect("\(value)" == #"{"name":"Oak","abv":9.5,"tags":["dark",null]}"#)

        let big = JSONNumber(text: "12345678901234567890123")!
        #expect(big.description == "12345678901234567890123")
        #expect(big.double == 1.2345678901234568e+22)
        #expect(big.int == nil)
        #expect(JSONNumber(0.1 + 0.2).description == "0.30000000000000004")
        #expect(JSONNumber(text: "1.50") == 1.5)

        var object: JSONObject = ["b": 1, "a": 2]
        object["c"] = "three"
        object["b"] = nil            // removes "b"
        #expect(object.keys == ["a", "c"])

        var syntax = ""
        do {
            _ = try StreamingJSONDecoder().decode([Int].self, from: Data("[1,2,x]".utf8))
        } catch DecodingError.dataCorrupted(let context) {
            if let error = context.underlyingError as? JSONSyntaxError {
                syntax = "\(error) \(error.byteOffset)"
            }
        }
        #expect(syntax == "Unexpected character 'x' at line 1, column 6 (byte 5) 5")

        #expect(String(decoding: try StreamingJSONEncoder().encode(["name": "Oak"]), as: UTF8.self) == #"{"name":"Oak"}"#)
    }

    @Test func strategyExamplesCompile() throws {
        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        @Sendable func parse(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }

        let decoder = StreamingJSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            let key = path.last!.stringValue
            return AnyKey(stringValue: key.lowercased())   // AnyKey: your own CodingKey type
        }
        struct Lower: Decodable { var name: String }
        #expect(try decoder.decode(Lower.self, from: Data(#"{"NAME":"x"}"#.utf8)).name == "x")

        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = parse(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                        debugDescription: "Bad date \(text)"))
            }
            return date
        }
        #expect(try decoder.decode([Date].self, from: Data(#"["1970-01-01T00:00:10Z"]"#.utf8)) == [Date(timeIntervalSince1970: 10)])

        decoder.nonConformingFloatDecodingStrategy =
            .convertFromString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        #expect(try decoder.decode([Double].self, from: Data(#"["+Infinity"]"#.utf8)) == [.infinity])

        let encoder = StreamingJSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy =
            .convertToString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        #expect(String(decoding: try encoder.encode([Double.nan]), as: UTF8.self) == "[\n  \"NaN\"\n]")
    }
}
