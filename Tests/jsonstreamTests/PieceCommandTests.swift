// SPDX-License-Identifier: Apache-2.0
import Foundation
import JSONStreamTool
import StreamingJSON
import Testing

/// The steps of a plan (`--plan-pieces`, `--plan-ranges`, `--scan-piece`,
/// `--join-pieces`) and `--piece`: the pieces' results, joined in order, are
/// the whole run's bytes, and their errors keep the whole file's places.
@Suite("Pieces of a plan (command line)")
struct PieceCommandTests {
    /// Records whose strings hold what a guessing scan would take for structure.
    static func records(_ count: Int, lines: Bool = false) -> [String] {
        (0..<count).map { #"{"id":\#($0),"s":"},{\"[,\\\#(String(repeating: ",", count: $0 % 7))","n":[\#($0),{"x":"]"}]}"# }
    }

    static func options(_ files: [String], filter: String = ".", adjust: (inout JSONStreamOptions) -> Void = { _ in })
        -> JSONStreamOptions {
        var options = JSONStreamOptions()
        options.filter = .text(filter)
        options.files = files
        adjust(&options)
        return options
    }

    /// The pieces a step printed, one per line.
    static func lines(_ result: InProcess.Result) -> [String] {
        String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Each piece's run of `filter`, stdout joined, and each one's stderr.
    static func runPieces(_ pieces: [String], file: String, filter: String,
                          adjust: @escaping (inout JSONStreamOptions) -> Void = { _ in }) throws
        -> (stdout: Data, stderr: [String], statuses: [JSONStreamTool.ExitStatus]) {
        var joined = Data(), errors: [String] = [], statuses: [JSONStreamTool.ExitStatus] = []
        for piece in pieces {
            let result = try InProcess.run(options([file], filter: filter) {
                $0.piece = piece
                adjust(&$0)
            })
            joined.append(result.stdout)
            errors.append(result.stderr)
            statuses.append(result.status)
        }
        return (joined, errors, statuses)
    }

    @Test("Each shape, each count: the pieces' results joined are the whole run's",
          arguments: ["array", "path", "lines", "object"])
    func piecesEqualTheWhole(_ shape: String) throws {
        let directory = try TemporaryDirectory()
        let records = Self.records(300)
        let (text, name): (String, String) = switch shape {
        case "array": ("[\n" + records.joined(separator: ",\n") + "\n]\n", "in.json")
        case "path": (#"{"meta":{"items":[0]},"items":["# + records.joined(separator: ",") + #"],"n":1}"#, "in.json")
        case "object":
            (#"{"meta":{"items":[0]},"items":{"# + records.enumerated().map { #""k\#($0.offset),\"":\#($0.element)"# }
                .joined(separator: ",\n") + #"},"n":1}"#, "in.json")
        default: (records.joined(separator: "\n") + "\n", "in.jsonl")
        }
        let file = try directory.file(name, text)
        let path = shape == "path" || shape == "object" ? ["items"] : []
        let whole = try InProcess.run(Self.options([file], filter: "{id, s}") { $0.path = path })
        for count in [1, 2, 5, 16, 64] {
            let plan = try InProcess.run(Self.options([file]) { $0.pieceStep = .plan(count); $0.path = path })
            #expect(plan.status == .success && Self.lines(plan).count == count)
            #expect(Self.lines(plan).allSatisfy { !$0.contains(#""shape":"whole""#) }, "\(shape) is cut")
            let pieces = try Self.runPieces(Self.lines(plan), file: file, filter: "{id, s}") { $0.path = path }
            #expect(pieces.stdout == whole.stdout, "\(shape), \(count) pieces")
            #expect(pieces.statuses.allSatisfy { $0 == .success })
        }
    }

    @Test("The steps apart: ranges, scans on their own, joined from stdin in any order")
    func stepsApart() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file("in.json", "[" + Self.records(200).joined(separator: ",") + "]")
        let ranges = try InProcess.run(Self.options([file]) { $0.pieceStep = .ranges(6) })
        var scanned: [String] = []
        for range in Self.lines(ranges).reversed() {
            let scan = try InProcess.run(Self.options([file]) { $0.pieceStep = .scan(range) })
            #expect(scan.status == .success)
            scanned += Self.lines(scan)
        }
        let stdin = try directory.file("scanned.jsonl", scanned.joined(separator: "\n") + "\n")
        let input = open(stdin, O_RDONLY)
        defer { close(input) }
        let joined = try InProcess.run(Self.options([]) { $0.pieceStep = .join }, input: input)
        #expect(joined.status == .success)
        let pieces = try Self.runPieces(Self.lines(joined), file: file, filter: ".id")
        #expect(pieces.stdout == (try InProcess.run(Self.options([file], filter: ".id"))).stdout)
    }

    @Test("A syntax error in a piece: the whole file's line, column and element index, exit 5")
    func syntaxError() throws {
        let directory = try TemporaryDirectory()
        var records = Self.records(100)
        records[71] = records[71].replacingOccurrences(of: #""id":71,"#, with: #""id":71x,"#)
        let file = try directory.file("bad.json", "[\n" + records.joined(separator: ",\n") + "\n]\n")
        let whole = try InProcess.run(Self.options([file], filter: ".id"))
        let plan = try InProcess.run(Self.options([file]) { $0.pieceStep = .plan(4) })
        let pieces = try Self.runPieces(Self.lines(plan), file: file, filter: ".id")
        let message = try #require(whole.stderr.split(separator: "\n").first { $0.contains("error") })
        #expect(message.contains(":73:") && message.contains("element 71"), "\(message)")
        #expect(pieces.stderr.filter { $0.contains(String(message)) }.count == 1, "\(pieces.stderr)")
        #expect(pieces.statuses.filter { $0 == .failure }.count == 1)
        #expect(pieces.stdout.starts(with: whole.stdout))
    }

    @Test("A gzip file is planned as one piece, with a note")
    func compressed() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file("in.json", "[1,2,3]")
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = [file]
        try gzip.run()
        gzip.waitUntilExit()
        let plan = try InProcess.run(Self.options([file + ".gz"]) { $0.pieceStep = .plan(3) })
        #expect(plan.stderr.contains("read as one piece") && plan.stderr.contains("gzip"))
        let pieces = try Self.runPieces(Self.lines(plan), file: file + ".gz", filter: ".")
        #expect(String(decoding: pieces.stdout, as: UTF8.self) == "1\n2\n3\n")
    }

    @Test("Refused: --piece with --jq or -s, a piece that is no piece, a file changed since its plan")
    func refusals() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file("in.json", "[1,2,3,4,5,6,7,8]")
        let piece = try #require(Self.lines(try InProcess.run(Self.options([file]) { $0.pieceStep = .plan(2) })).last)
        for adjust: (inout JSONStreamOptions) -> Void in [{ $0.jqMode = true }, { $0.slurp = true },
                                                          { $0.piece = "{\"index\":1}" }] {
            let result = try InProcess.run(Self.options([file]) {
                $0.piece = piece
                adjust(&$0)
            })
            #expect(result.status == .usage && result.stderr.contains("jsonstream: error:"), "\(result.stderr)")
        }
        try Data("[1,2,3,4,5,6,7,8,9]".utf8).write(to: URL(fileURLWithPath: file))
        let changed = try InProcess.run(Self.options([file]) { $0.piece = piece })
        #expect(changed.status == .usage && changed.stderr.contains("changed"), "\(changed.stderr)")
        let join = try InProcess.run(Self.options([]) { $0.pieceStep = .join }, input: open("/dev/null", O_RDONLY))
        #expect(join.status == .usage && join.stderr.contains("No pieces"))
    }

    @Test("--split-lines cut from pieces on threads: the same files as on one thread")
    func splitLinesInPieces() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file("in.json", "[" + Self.records(5000).joined(separator: ",") + "]")
        var contents: [[Data]] = []
        for threads in [1, 3] {
            let prefix = directory.path("t\(threads)-")
            let result = try InProcess.run(Self.options([file], filter: "{id, s}") {
                $0.split = .init(linesPerFile: 333, prefix: prefix)
                $0.threads = threads
                $0.pieceSize = 4096
                $0.stats = true
            })
            #expect(result.status == .success)
            #expect(threads == 1 || result.stderr.contains("pieces on 3 threads"), "\(result.stderr)")
            contents.append(try (0..<16).map { index in
                try Data(contentsOf: URL(fileURLWithPath: prefix + String(format: "%05d.jsonl", index)))
            })
            #expect(!FileManager.default.fileExists(atPath: prefix + "00016.jsonl"))
        }
        #expect(contents[0] == contents[1])
        #expect(contents[0].allSatisfy { $0.filter { $0 == 0x0A }.count == 333 } == false)
        #expect(contents[0].dropLast().allSatisfy { $0.filter { $0 == 0x0A }.count == 333 })
    }
}
