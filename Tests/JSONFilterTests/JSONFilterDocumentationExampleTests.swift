// SPDX-License-Identifier: Apache-2.0
import Foundation
import JSONFilter
import StreamingJSON
import Testing

/// The examples of JSONFilter's doc comments and of its DocC catalog
/// (Sources/JSONFilter/JSONFilter.docc), as written there: what they say the
/// code prints is what it prints. Written against the public API only (no
/// `@testable`), as a user of the package would; StreamingJSON's are in
/// StreamingJSONTests' DocumentationExampleTests.
@Suite struct JSONFilterDocumentationExampleTests {
    @Test func docCommentExamples() throws {
        let filter = try JSONFilter("select(.abv > 8) | {name, style}")
        let beer: JSONValue = ["name": "Oak", "abv": 9.5, "style": "stout"]
        #expect(try filter.apply(to: beer).map(\.description) == [#"{"name":"Oak","style":"stout"}"#])
        let withArgument = try JSONFilter("select(.abv > $min)", arguments: ["min": 8])
        #expect(try withArgument.apply(to: beer) == [beer])

        do {
            _ = try JSONFilter(".a | frobnicate")
            Issue.record("compiled")
        } catch let error as JSONFilterError {
            #expect(error.description == "frobnicate/0 is not defined at column 6")
            #expect(error.isCompileError)
        }
        do {
            _ = try JSONFilter(".a").apply(to: 1)
            Issue.record("no error")
        } catch let error as JSONFilterError {
            #expect(error.message == #"Cannot index number with string ("a")"#)
        }
    }

    /// JSONFilter.docc's overview: a filter applied to each element of a streamed file.
    @Test func overviewOverAStream() throws {
        let landing = try JSONFilter("select(.abv > $min) | {name, style}", arguments: ["min": 8])
        let dumpURL = FileManager.default.temporaryDirectory
            .appendingPathComponent("jsonfilter-docs-\(UUID().uuidString).json")
        try Data(#"[{"name":"Oak","abv":9.5,"style":"stout"},{"name":"Pils","abv":4.8,"style":"lager"}]"#.utf8)
            .write(to: dumpURL)
        defer { try? FileManager.default.removeItem(at: dumpURL) }
        var printed: [String] = []
        try StreamingJSONDecoder().elements(of: JSONValue.self, contentsOf: dumpURL).forEach { beer in
            try landing.apply(to: beer) { result in printed.append("\(result)") }
        }
        #expect(printed == [#"{"name":"Oak","style":"stout"}"#])
    }
}
