// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// Large inputs are parsed on a second thread (`_ParsePipeline.swift`). These
/// tests force that path on small inputs and check that it gives exactly what
/// the single-threaded engine gives: values, errors and their positions.
@Suite struct PipelineTests {
    static let suite = JSONTestSuiteTests.directory
    static let samples = JSONTestSuiteTests.files.filter { !$0.hasPrefix("i_") }

    /// A decoded value, or the error's text. Values compare as values: the
    /// descriptions of two equal dictionaries may list their keys in
    /// different orders (Swift seeds each dictionary's hashing on its own).
    enum Outcome: Equatable {
        case value(AnyJSON)
        case error(String)
    }

    func outcome(_ body: () throws -> AnyJSON) -> Outcome {
        do {
            return .value(try body())
        } catch let DecodingError.dataCorrupted(context) {
            return .error(context.debugDescription)
        } catch {
            return .error("\(error)")
        }
    }

    @Test(arguments: samples)
    func sameVerdictAsSingleThreaded(_ name: String) throws {
        let data = try Data(contentsOf: Self.suite.appendingPathComponent(name))
        let expected = outcome { try Engine.decode(AnyJSON.self, data) }
        for chunk in [1, 3, Int.max] {
            #expect(outcome { try Engine.decodePipelined(AnyJSON.self, data, chunk: chunk) } == expected, "chunk \(chunk)")
        }
    }

    @Test func decodingErrorsKeepTheirPathAndPosition() throws {
        let data = ErrorTests.records(count: 3_000, badAt: 1_234)
        var iterator = Engine.pipelinedDecoder().elements(of: ErrorTests.Record.self, from: data).makeIterator()
        for index in 0..<1_234 { #expect(try iterator.next()?.id == index) }
        do {
            _ = try iterator.next()
            Issue.record("element 1234 decoded")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["Index 1234", "inner", "values", "Index 2"])
            #expect(context.debugDescription.contains("line 1236, column 43"), "\(context.debugDescription)")
        }
        var rest = 0
        while try iterator.next() != nil { rest += 1 }
        #expect(rest == 3_000 - 1_235)
    }

    @Test func syntaxErrorAfterGoodElements() throws {
        var json = "[\n"
        for index in 0..<5_000 { json += "  {\"id\": \(index)},\n" }
        json += "  {\"id\": oops}\n]"
        let data = Data(json.utf8)
        struct Item: Decodable { var id: Int }
        for decoder in [StreamingJSONDecoder(), Engine.pipelinedDecoder()] {
            var iterator = decoder.elements(of: Item.self, from: data).makeIterator()
            var count = 0
            do {
                while let item = try iterator.next() {
                    #expect(item.id == count)
                    count += 1
                }
                Issue.record("no error")
            } catch let DecodingError.dataCorrupted(context) {
                let error = try #require(context.underlyingError as? JSONSyntaxError)
                #expect((error.line, error.column) == (5_002, 10))
                #expect(error.message == "Unexpected character 'o' in a literal (true, false or null)"
                        || error.message.hasPrefix("Unexpected character 'o'"))
            }
            #expect(count == 5_000)
            #expect(try iterator.next() == nil)
        }
    }

    @Test func wholeDocumentsAndTrailingCopies() throws {
        struct Pair: Codable, Equatable { var a: Int; var b: [String] }
        let values = (0..<20_000).map { Pair(a: $0, b: ["x\($0)", "é"]) }
        let data = try JSONEncoder().encode(values)
        #expect(try Engine.decodePipelined([Pair].self, data, chunk: 4_096) == values)

        // A copy of the incremental container that trails by one element.
        struct Peeking: Decodable {
            var sum = 0
            init(from decoder: any Decoder) throws {
                var items = try decoder.unkeyedContainer()
                while !items.isAtEnd {
                    var peek = items
                    let first = try peek.decode(Pair.self)
                    let again = try items.decode(Pair.self)
                    precondition(first == again)
                    sum += again.a
                }
            }
        }
        #expect(try Engine.decodePipelined(Peeking.self, data, chunk: 1_000).sum == (0..<20_000).reduce(0, +))
    }

    @Test func leavingEarlyStopsTheParserThread() throws {
        let data = try JSONEncoder().encode(Array(0..<500_000))
        for _ in 0..<50 {
            var iterator = Engine.pipelinedDecoder().elements(of: Int.self, from: data).makeIterator()
            #expect(try iterator.next() == 0)
            #expect(try iterator.next() == 1)
        }
        // And a whole pass still works afterwards.
        var count = 0
        try Engine.pipelinedDecoder().elements(of: Int.self, from: data).forEach { _ in count += 1 }
        #expect(count == 500_000)
    }

    @Test func largeInputsUseThePipelineAutomatically() throws {
        let data = try JSONEncoder().encode(Array(0..<400_000))
        #expect(data.count > _Pipelining.threshold)
        let options = StreamingJSONDecoder().options
        #expect(options.makeStream(source: _DataSource(data), size: data.count, mode: .array).isPipelined
                == (ProcessInfo.processInfo.activeProcessorCount > 1))
        #expect(!options.makeStream(source: _DataSource(Data("[1]".utf8)), size: 3, mode: .array).isPipelined)
        #expect(try StreamingJSONDecoder().decode([Int].self, from: data) == Array(0..<400_000))
    }
}
