import Foundation
import Testing
@testable import StreamingJSON

@Suite struct SmokeTests {
    struct Beer: Codable, Equatable { var name: String; var abv: Double; var tags: [String]? }

    @Test func rootArray() throws {
        let json = #"[{"name":"A","abv":5.5,"tags":["x"]},{"name":"B","abv":8}]"#
        let beers = try StreamingJSONDecoder().decode([Beer].self, from: Data(json.utf8))
        #expect(beers == [Beer(name: "A", abv: 5.5, tags: ["x"]), Beer(name: "B", abv: 8, tags: nil)])
        var names: [String] = []
        try StreamingJSONDecoder().elements(of: Beer.self, from: Data(json.utf8)).forEach { names.append($0.name) }
        #expect(names == ["A", "B"])
    }

    @Test func syntaxError() throws {
        do {
            _ = try StreamingJSONDecoder().decode([Int].self, from: Data("[1,\n2,\n  x]".utf8))
            Issue.record("no error")
        } catch let DecodingError.dataCorrupted(context) {
            print(context.debugDescription)
            let e = try #require(context.underlyingError as? JSONSyntaxError)
            #expect(e.line == 3 && e.column == 3 && e.byteOffset == 9)
        }
    }
}
