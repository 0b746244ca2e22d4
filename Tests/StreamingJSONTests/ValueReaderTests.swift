// SPDX-License-Identifier: Apache-2.0
import Foundation
import StreamingJSON
import Testing

/// `_ValueReader` and `_ValueBuilder`, the StreamingJSON side of jsonstream:
/// the same values as `JSONElements<JSONValue>`, indexes, positions, the two
/// kinds of errors, and projection.
@Suite("Value reader")
struct ValueReaderTests {
    private func reader(_ text: String, format: JSONStreamFormat = .auto, path: [String] = [],
                        maxElementBytes: Int? = nil,
                        projection: _Projection? = nil) throws -> (_ValueReader, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let file = try directory.file("input.json", text)
        var limits = _ParserLimits()
        limits.maxElementBytes = maxElementBytes ?? 0
        return (try _ValueReader(contentsOfFile: file, format: format, path: path, limits: limits,
                                 projection: projection), directory)
    }

    private func values(_ reader: _ValueReader) -> [JSONValue] {
        var values: [JSONValue] = []
        while case .value(let value) = reader.next() { values.append(value) }
        return values
    }

    @Test("Same values as JSONElements<JSONValue> on every fixture, key order and literals kept")
    func sameValues() throws {
        for (fixture, path) in [("jq/inputs/beers.json", [String]()), ("jq/inputs/mixed.json", []),
                                ("jq/inputs/nested.json", []), ("jq/inputs/scalars.json", []),
                                ("jq/inputs/lines.jsonl", []), ("nativejson/twitter.json", ["statuses"])] {
            let url = Engine.fixtures.appendingPathComponent(fixture)
            let format: JSONStreamFormat = path.isEmpty ? .auto : .array
            var expected: [JSONValue] = []
            try StreamingJSONDecoder().elements(of: JSONValue.self, contentsOf: url, at: path, format: format)
                .forEach { expected.append($0) }
            let reader = try _ValueReader(contentsOfFile: url.path, format: format, path: path)
            let actual = values(reader)
            #expect(actual.count == expected.count, "\(fixture)")
            // Byte-identical when printed: same key order, same number text.
            #expect(actual.map(\.description) == expected.map(\.description), "\(fixture)")
        }
    }

    @Test("Repeated keys: the last value at the first key's place, as jq")
    func repeatedKeys() throws {
        let (reader, _) = try self.reader(#"[{"a":1,"b":2,"a":3}, {"x":{"k":1,"k":[2]}}]"#)
        #expect(values(reader).map(\.description) == [#"{"a":3,"b":2}"#, #"{"x":{"k":[2]}}"#])
    }

    @Test("Objects with many members keep order and lookups")
    func largeObject() throws {
        let members = (0..<100).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let (reader, _) = try self.reader("[{\(members),\"k5\":\"last\"}]")
        guard case .value(.object(let object)) = reader.next() else { Issue.record("no object"); return }
        #expect(object.count == 100)
        #expect(object.keys.first == "k0")
        #expect(object["k5"] == "last")
        #expect(object["k99"] == 99)
    }

    @Test("Index and starting line:column of each element")
    func positions() throws {
        let (reader, _) = try self.reader("[\n  {\"a\":1},\n  [2],\n\"x\"]")
        var seen: [String] = []
        while case .value = reader.next() {
            let position = try #require(reader.elementPosition())
            seen.append("\(reader.index)@\(position.line):\(position.column)")
        }
        #expect(seen == ["0@2:3", "1@3:3", "2@4:1"])
    }

    @Test("A malformed JSON Lines value is an element error; the next line is read")
    func elementError() throws {
        let (reader, _) = try self.reader("1\n{oops\n3\n")
        guard case .value(1) = reader.next() else { Issue.record("first"); return }
        guard case .elementError(let error, let isLimit) = reader.next() else { Issue.record("error"); return }
        #expect(!isLimit)
        #expect(reader.index == 1)
        #expect((error.line, error.column) == (2, 2))
        guard case .value(3) = reader.next() else { Issue.record("third"); return }
        #expect(reader.index == 2)
        guard case .end = reader.next() else { Issue.record("end"); return }
    }

    @Test("An element over a limit is an element error marked as a limit")
    func limits() throws {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let (lines, _) = try self.reader("1\n\(deep)\n2\n")
        _ = lines.next()
        guard case .elementError(let error, let isLimit) = lines.next() else { Issue.record("depth"); return }
        #expect(isLimit)
        #expect(error.message.hasPrefix("Nesting deeper than 512"))
        guard case .value(2) = lines.next() else { Issue.record("after"); return }

        let (sized, _) = try self.reader(#"[1,"a long string, longer than the limit",2]"#, maxElementBytes: 10)
        _ = sized.next()
        guard case .elementError(_, let over) = sized.next() else { Issue.record("size"); return }
        #expect(over)
        guard case .value(2) = sized.next() else { Issue.record("after size"); return }
    }

    @Test("A syntax error in an array is an element's error: the array goes on after it")
    func syntaxError() throws {
        let (reader, _) = try self.reader("[1,\n2,\nx,\n3]")
        _ = reader.next()
        _ = reader.next()
        guard case .elementError(let error, false) = reader.next() else { Issue.record("no element error"); return }
        #expect((error.line, error.column, error.elementIndex) == (3, 1, 2))
        #expect(error.skippedBytes == 3)  // "x,\n"
        guard case .value(let three) = reader.next() else { Issue.record("no value after it"); return }
        #expect(three == 3 && reader.index == 3)
        guard case .end = reader.next() else { Issue.record("not the end"); return }
    }

    @Test("A syntax error the array cannot go on after ends the input, reported once, then the end")
    func terminalSyntaxError() throws {
        let (reader, _) = try self.reader("[1,\n2,\n")
        #expect(values(reader) == [1, 2])
        let (again, _) = try self.reader("[1,\n2,\n")
        _ = again.next()
        _ = again.next()
        guard case .syntaxError(let error) = again.next() else { Issue.record("no syntax error"); return }
        #expect((error.line, error.column) == (3, 1))
        #expect(error.endsStream)
        guard case .end = again.next() else { Issue.record("not the end"); return }
    }

    @Test("The root is not an array: a syntax error, not a crash")
    func notAnArray() throws {
        let (reader, _) = try self.reader(#"{"a":1}"#, format: .array)
        guard case .syntaxError(let error) = reader.next() else { Issue.record("accepted"); return }
        #expect(error.message.contains("Expected an array at the root"))
    }

    @Test("A missing file and a directory throw POSIX errors")
    func openErrors() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: POSIXError.self) { try _ValueReader(contentsOfFile: directory.path("none"), format: .auto, path: []) }
        #expect(throws: POSIXError.self) { try _ValueReader(contentsOfFile: directory.url.path, format: .auto, path: []) }
    }

    @Test("Size is known for files; bytesRead reaches it")
    func sizes() throws {
        let text = "[1,2,3]"
        let (reader, _) = try self.reader(text)
        #expect(reader.size == UInt64(text.utf8.count))
        _ = values(reader)
        #expect(reader.bytesRead == UInt64(text.utf8.count))
        #expect(reader.isArray == true)
    }

    @Test("Projection: only the named members of object elements; other values whole")
    func projection() throws {
        let (reader, _) = try self.reader(#"[{"a":1,"b":{"x":[1,2]},"c":"s","a":4}, [1,{"b":2}], "t", {"c":{"d":1}}]"#,
                                          projection: _Projection(["a", "c"]))
        #expect(values(reader).map(\.description) == [#"{"a":4,"c":"s"}"#, #"[1,{"b":2}]"#, #""t""#, #"{"c":{"d":1}}"#])
    }

    @Test("Projection: nested members are kept whole; an empty projection keeps empty objects")
    func projectionNesting() throws {
        let text = #"{"b":{"a":1,"b":2},"a":[{"b":3}],"c":{"b":{"b":4}}}"# + "\n" + #"{"a":{"a":{"a":5}},"z":[[[{}]]]}"#
        let (reader, _) = try self.reader(text, format: .jsonLines, projection: _Projection(["a"]))
        #expect(values(reader).map(\.description) == [#"{"a":[{"b":3}]}"#, #"{"a":{"a":{"a":5}}}"#])
        let (empty, _) = try self.reader(#"[{"a":1,"b":[1,2]},{},[{"a":1}]]"#, projection: _Projection([]))
        #expect(values(empty).map(\.description) == [#"{}"#, #"{}"#, #"[{"a":1}]"#])
    }

    @Test("Projection: errors inside a skipped member still count")
    func projectionErrors() throws {
        // A syntax error inside a member that is not recorded.
        let (broken, _) = try self.reader(#"[{"a":1,"b":[1,2,}]"#, projection: _Projection(["a"]))
        guard case .syntaxError(let error) = broken.next() else { Issue.record("expected a syntax error"); return }
        #expect(error.byteOffset == 17)
        // Too deep inside a skipped member.
        let deep = "[{\"a\":1,\"b\":" + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}]"
        let (tooDeep, _) = try self.reader(deep, projection: _Projection(["a"]))
        guard case .syntaxError(let depthError) = tooDeep.next() else { Issue.record("expected a depth error"); return }
        #expect(depthError.message.contains("maxDepth"))
    }

    @Test("Projection over a large input (parsed on a second thread) keeps every element's members")
    func projectionPipelined() throws {
        var text = "["
        let count = 40_000
        for index in 0..<count {
            if index > 0 { text += ",\n" }
            text += #"{"id":\#(index),"skip":{"deep":[1,2,{"x":"\#(String(repeating: "y", count: index % 50))"}]},"name":"n\#(index)","tail":null}"#
        }
        text += "]"
        #expect(text.utf8.count > 2 << 20)
        let (reader, _) = try self.reader(text, projection: _Projection(["id", "name"]))
        let all = values(reader)
        #expect(all.count == count)
        for (index, value) in all.enumerated() where value.description != #"{"id":\#(index),"name":"n\#(index)"}"# {
            Issue.record("element \(index): \(value)")
            break
        }
    }

    @Test("The hook before a blocking read runs for a pipe")
    func blockingReadHook() throws {
        let pipe = Pipe()
        final class Counter: @unchecked Sendable { var calls = 0 }
        let counter = Counter()
        let reader = _ValueReader(descriptor: pipe.fileHandleForReading.fileDescriptor, format: .jsonLines, path: [],
                                  beforeBlockingRead: { counter.calls += 1 })
        #expect(reader.size == nil)
        let writer = dup(pipe.fileHandleForWriting.fileDescriptor)
        try pipe.fileHandleForWriting.close()
        _ = "1\n".withCString { write(writer, $0, 2) }
        guard case .value(1) = reader.next() else { Issue.record("first"); return }
        let before = counter.calls
        // Nothing is written yet: the reader will have to wait, so it calls the hook first.
        let later = Thread {
            usleep(200_000)
            _ = "2\n".withCString { write(writer, $0, 2) }
            close(writer)
        }
        later.start()
        guard case .value(2) = reader.next() else { Issue.record("second"); return }
        #expect(counter.calls > before)
        guard case .end = reader.next() else { Issue.record("end"); return }
    }

    /// `jsonstream --threads 1`: a large file, plain or gzip'd, is parsed and
    /// decompressed on the caller's thread; otherwise beside it.
    @Test("onOneThread keeps parsing and decompressing on the caller's thread")
    func oneThread() throws {
        let directory = try TemporaryDirectory()
        let text = "[" + (0..<60_000).map { "{\"id\":\($0),\"name\":\"record \($0)\"}" }.joined(separator: ",") + "]"
        let plain = directory.path("big.json"), gzipped = directory.path("big.json.gz")
        try Data(text.utf8).write(to: URL(fileURLWithPath: plain))
        // Members of one stored block each: a gzip file without a compressor.
        var members = Data()
        var rest = Data(text.utf8)[...]
        while !rest.isEmpty {
            members.append(try CompressedInputTests.gzip(Data(rest.prefix(60_000))))
            rest = rest.dropFirst(60_000)
        }
        try members.write(to: URL(fileURLWithPath: gzipped))
        let cores = ProcessInfo.processInfo.activeProcessorCount
        for (path, compressed) in [(plain, false), (gzipped, true)] {
            for onOneThread in [false, true] {
                let reader = try _ValueReader(contentsOfFile: path, format: .auto, path: [], onOneThread: onOneThread)
                guard case .value = reader.next() else { Issue.record("no first value in \(path)"); continue }
                let beside = !onOneThread && (compressed || cores > 1)
                #expect(reader.runsBesideTheCaller == beside, "\(path), onOneThread: \(onOneThread)")
                #expect(values(reader).count == 59_999, "\(path), onOneThread: \(onOneThread)")
            }
        }
    }
}
