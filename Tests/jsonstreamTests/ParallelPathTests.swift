// SPDX-License-Identifier: Apache-2.0
import Foundation
import JSONStreamTool
import StreamingJSON
import Testing

/// `--path` on several threads: the array at the path is cut into pieces as
/// a root array is, each framed with the path's objects, and what the run
/// prints, reports and counts is what one thread gives.
@Suite("Several threads at a key path (in process)")
struct ParallelPathTests {
    static let array = ParallelRunTests.records(count: 1500, malformedEvery: nil, array: true)
    static let compact = array.replacingOccurrences(of: "\n", with: "")

    /// Documents with the records at `items` (or `data.items`), and what a
    /// one-thread run must report of them, if anything.
    static let documents: [(path: [String], text: String)] = [
        (["items"], #"{"meta": {"a": [1, 2], "b": {"c": 1, "d": 2}}, "items": "# + array
            + #", "after": {"x": 1, "y": [1, 2, 3]}}"# + "\n"),
        (["items"], #"{"items":"# + compact + "}"),
        (["data", "items"], "{\"data\": {\"n\": 1,\n \"items\": " + array
            + ",\n \"m\": {\"p\": 1, \"q\": [2, 3]}}, \"z\": [3, 4]}\n"),
        // The key spelled with an escape; a first `items` that is not the array.
        (["items"], #"{"it\u0065ms": "# + array + "}"),
        (["items"], #"{"x": {"items": [1, 2]}, "items": 5, "more": "# + array + "}"),
        // Two arrays at the path.
        (["items"], #"{"items": "# + array + #", "items": [{"id": -1, "price": 1}, {"id": -2, "price": 2}]}"#),
        // A syntax error after the array, in the array, and the input cut short.
        (["items"], #"{"items": "# + array + #", "after": {"x": 1,}}"#),
        (["items"], #"{"items": "# + array.replacingOccurrences(of: "\"id\": 900,", with: "\"id\": 900,,") + "}"),
        (["items"], #"{"items": "# + String(array.dropLast(300))),
        (["items"], #"{"items": "# + array),
        // A small array, then a long tail; a tail too long to hold.
        (["items"], #"{"items": [{"id": 1, "price": 2}], "tail": "# + array + "}"),
        (["items"], #"{"items": "# + array + #", "tail": ""# + String(repeating: "t", count: 20_000) + "\"}"),
        // More documents after the first, each followed along the path.
        (["items"], #"{"items": "# + array + "}\n[1]\n{\"x\": 3}\n{\"items\": [{\"id\": -7, \"price\": 1}]}\n"),
        // An element too long to cut around, then more documents.
        (["items"], #"{"items": "# + array.replacingOccurrences(of: "\"id\": 700,", with: "\"id\": 700, \"long\": [\(ParallelRunTests.longList)],")
            + "}\n[1]\n{\"items\": [{\"id\": -7, \"price\": \"x\"}]}\n"),
        // Not an array of the right kind: read in one stream.
        (["items"], #"{"items": {"a": "# + array + "}}"),
        (["items"], array),
    ]

    @Test("--path: the same output, messages, status and counts on 1, 2 and 3 threads",
          arguments: [".", "select(.id % 3 == 0)", "{id, more: (.price + 1)}", "select(.id > 800) | .price + 1"],
          0..<documents.count)
    func path(filter: String, document: Int) throws {
        let (path, text) = Self.documents[document]
        let runs = try ParallelRunTests.runs(text, filter: filter, threads: [2, 3]) { $0.path = path }
        let single = runs[0]
        #expect(!single.stdout.isEmpty || !single.stderr.isEmpty)
        for parallel in runs.dropFirst() {
            #expect(parallel.stdout == single.stdout)
            #expect(parallel.stderr == single.stderr)
            #expect(parallel.status == single.status)
        }
    }

    @Test("--jq '.items[] | F': the same output, messages, status and counts on 1 and 2 threads",
          arguments: ["select(.id % 3 == 0)", "{id, more: (.price + 1)}", "."], 0..<documents.count)
    func jqPath(filter: String, document: Int) throws {
        let (path, text) = Self.documents[document]
        let program = "." + path.joined(separator: ".") + "[] | " + filter
        // A second document after the first: jq runs it too.
        let runs = try ParallelRunTests.runs(text + "\n" + #"{"items": [{"id": 3, "price": 1}]}"#,
                                             filter: program) { $0.jqMode = true }
        let (single, parallel) = (runs[0], runs[1])
        #expect(!single.stdout.isEmpty || !single.stderr.isEmpty)
        #expect(parallel.stdout == single.stdout)
        #expect(parallel.stderr == single.stderr)
        #expect(parallel.status == single.status)
    }
}
