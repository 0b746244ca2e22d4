// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// The standard parser conformance files (JSONTestSuite, MIT licence, copied
/// into Tests/Fixtures): every `y_` parses, every `n_` fails, no `i_` crashes
/// or hangs, at several chunk sizes so that every token is split somewhere.
@Suite struct JSONTestSuiteTests {
    static let directory = Engine.fixtures.appendingPathComponent("JSONTestSuite/test_parsing")
    static let files: [String] = (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.sorted() ?? []
    static let chunkSizes = [1, 2, 3, 7, 64, Int.max]

    @Test func fixturesArePresent() {
        #expect(Self.files.filter { $0.hasPrefix("y_") }.count == 95)
        #expect(Self.files.filter { $0.hasPrefix("n_") }.count == 188)
        #expect(Self.files.filter { $0.hasPrefix("i_") }.count == 35)
    }

    @Test(arguments: files.filter { $0.hasPrefix("y_") })
    func accepts(_ name: String) throws {
        let data = try Data(contentsOf: Self.directory.appendingPathComponent(name))
        let whole = try Engine.decode(AnyJSON.self, data)
        for chunk in Self.chunkSizes {
            #expect(try Engine.decode(AnyJSON.self, data, chunk: chunk) == whole, "chunk \(chunk)")
        }
    }

    @Test(arguments: files.filter { $0.hasPrefix("n_") })
    func rejects(_ name: String) throws {
        let data = try Data(contentsOf: Self.directory.appendingPathComponent(name))
        for chunk in Self.chunkSizes {
            let error = #expect(throws: DecodingError.self, "chunk \(chunk)") {
                try Engine.decode(AnyJSON.self, data, chunk: chunk)
            }
            // Syntax errors carry a position inside the input.
            if case .dataCorrupted(let context)? = error, let syntax = context.underlyingError as? JSONSyntaxError {
                #expect(syntax.byteOffset >= 0 && syntax.byteOffset <= data.count, "\(syntax)")
                #expect(syntax.line >= 1 && syntax.column >= 1)
            }
        }
    }

    @Test(arguments: files.filter { $0.hasPrefix("i_") })
    func implementationDefinedDoesNotCrash(_ name: String) throws {
        let data = try Data(contentsOf: Self.directory.appendingPathComponent(name))
        var outcomes: Set<Bool> = []
        for chunk in Self.chunkSizes {
            outcomes.insert((try? Engine.decode(AnyJSON.self, data, chunk: chunk)) != nil)
        }
        // Whatever the verdict, it does not depend on how the input was split.
        #expect(outcomes.count == 1)
    }
}
