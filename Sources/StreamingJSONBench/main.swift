// SPDX-License-Identifier: Apache-2.0
// streamingjson-bench: decodes a records dump one way and prints what it took.
// Used by scripts/demo, scripts/compare, scripts/compare-shapes, scripts/compare-decode,
// scripts/bench-encode and scripts/bench-memory.
//
//   streamingjson-bench stream FILE [array|lines|auto]   elements(of:contentsOf:), one record at a time
//   streamingjson-bench stream-snake FILE                the same with .convertFromSnakeCase, no CodingKeys
//   streamingjson-bench parse FILE                       elements(of:) into a type that reads nothing: the pipeline alone
//   streamingjson-bench incremental FILE                 decode(Summary.self, contentsOf:) via the incremental container
//   streamingjson-bench whole FILE                       StreamingJSONDecoder().decode([Record].self, contentsOf:)
//   streamingjson-bench foundation FILE                  JSONDecoder().decode([Record].self, from: Data(contentsOf:))
//   streamingjson-bench encode FILE                      StreamingJSONEncoder().encode(records), records decoded first (untimed)
//   streamingjson-bench encode-foundation FILE           JSONEncoder().encode(records), the same way
//   streamingjson-bench encode-value FILE                StreamingJSONEncoder().encode(values), FILE's elements decoded
//                                                        as [JSONValue] first (untimed): the encoding tape's path
//   streamingjson-bench write FILE OUT BYTES [array|lines]  JSONStreamWriter: cycles the first 10 000 records
//                                                        of FILE until BYTES are written to OUT
//   streamingjson-bench encode-writer FILE OUT           JSONStreamWriter writes all the records of FILE to OUT,
//                                                        records decoded first (untimed): the encode modes' records
//   streamingjson-bench transform FILE OUT               read-transform-write: elements(of:contentsOf:), price *= 1.1,
//                                                        each record through JSONStreamWriter to OUT
//   streamingjson-bench transform-foundation FILE OUT    the same with JSONDecoder, [Record], JSONEncoder, Data.write
//   streamingjson-bench twitter-docs FILE [ROUNDS]       FILE's `statuses` split into one document each (untimed),
//                                                        then ROUNDS times decode(Status.self, from:) of each with
//                                                        one StreamingJSONDecoder (one untimed round first)
//   streamingjson-bench twitter-docs-foundation FILE [ROUNDS]   the same with one JSONDecoder
//   streamingjson-bench value FILE                       StreamingJSONDecoder().decode(JSONValue.self, contentsOf:)
//                                                        (scripts/limits: hostile inputs); an error exits 4
//   streamingjson-bench shape-stream SHAPE FILE          a dataset of scripts/generate-shapes.py (twitter, citm,
//                                                        canada, github, logs) streamed by elements(of:contentsOf:)
//                                                        into its model (Shapes.swift); digest= sums a few fields
//   streamingjson-bench shape-foundation SHAPE FILE      the same with JSONDecoder: arrays and the object decoded
//                                                        whole, JSON Lines split at newlines, a line at a time
//
// The encode modes report the output's size in mb_per_s, the twitter modes the
// documents' bytes decoded. Output: one line of key=value fields.
import Foundation
import StreamingJSON

func peakResidentMiB() -> Double {
    var usage = rusage()
    #if os(Linux)
    unsafe getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    #if os(Linux)
    return Double(usage.ru_maxrss) / 1024  // KiB
    #else
    return Double(usage.ru_maxrss) / 1_048_576  // bytes
    #endif
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: streamingjson-bench MODE FILE [...] (modes: see the top of main.swift)\n".utf8))
    exit(2)
}
let mode = arguments[1]
let url = URL(fileURLWithPath: arguments[2])
let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0

var start = Date()
var bytesMoved = bytes
var count = 0
var strong = 0
var extra = ""

func outputURL() -> URL {
    guard arguments.count >= 4 else {
        FileHandle.standardError.write(Data("usage: streamingjson-bench \(mode) FILE OUT\n".utf8))
        exit(2)
    }
    return URL(fileURLWithPath: arguments[3])
}

func fileSize(_ url: URL) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
}

/// How many records are over 8% abv, counted where they are: a `filter`
/// would copy half the records into a new array (retaining every string and
/// array in them), a cost of the check, not of the decoder it checks.
func strongCount(_ records: [Record]) -> Int {
    var strong = 0
    for index in records.indices where records[index].abv > 8 { strong += 1 }
    return strong
}

/// The `statuses` of a search result, one compact document each.
func statusDocuments(_ url: URL) throws -> [Data] {
    let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
    guard let statuses = root?["statuses"] as? [Any], !statuses.isEmpty else {
        throw CocoaError(.coderReadCorrupt, userInfo: [NSDebugDescriptionErrorKey: "no statuses in \(url.path)"])
    }
    return try statuses.map { try JSONSerialization.data(withJSONObject: $0) }
}
do {
    switch mode {
    case "stream":
        let decoder = StreamingJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let format: JSONStreamFormat = switch arguments.count > 3 ? arguments[3] : "auto" {
        case "array": .array
        case "lines": .jsonLines
        default: .auto
        }
        var iterator = decoder.elements(of: Record.self, contentsOf: url, format: format).makeIterator()
        while let record = try iterator.next() {
            count += 1
            if record.abv > 8 { strong += 1 }
        }
    case "stream-snake":
        // The same records with `.convertFromSnakeCase` and no CodingKeys.
        let decoder = StreamingJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        var iterator = decoder.elements(of: SnakeCaseRecord.self, contentsOf: url).makeIterator()
        while let record = try iterator.next() {
            count += 1
            if record.abv > 8 { strong += 1 }
        }
    case "parse":
        // The pipeline with nothing decoded: what parsing and framing cost.
        var iterator = StreamingJSONDecoder().elements(of: _Ignored.self, contentsOf: url).makeIterator()
        while try iterator.next() != nil { count += 1 }
    case "incremental":
        let decoder = StreamingJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let summary = try decoder.decode(Summary.self, contentsOf: url)
        count = summary.count
        strong = summary.strong
    case "whole":
        let decoder = StreamingJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let records = try decoder.decode([Record].self, contentsOf: url)
        count = records.count
        strong = strongCount(records)
    case "foundation":
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let records = try decoder.decode([Record].self, from: Data(contentsOf: url))
        count = records.count
        strong = strongCount(records)
    case "encode", "encode-foundation":
        let decoder = StreamingJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let records = try decoder.decode([Record].self, contentsOf: url)
        start = Date()
        let output: Data
        if mode == "encode" {
            let encoder = StreamingJSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            output = try encoder.encode(records)
        } else {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            output = try encoder.encode(records)
        }
        count = records.count
        bytesMoved = output.count
        extra = " out_bytes=\(output.count)"
    case "encode-value":
        // A JSONValue is written through the encoding tape (`_TapeEncodable`),
        // one small tape per element: the path other than the direct one.
        let values = try StreamingJSONDecoder().decode([JSONValue].self, contentsOf: url)
        start = Date()
        let output = try StreamingJSONEncoder().encode(values)
        count = values.count
        bytesMoved = output.count
        extra = " out_bytes=\(output.count)"
    case "write":
        guard arguments.count >= 5, let target = Int(arguments[4]) else {
            FileHandle.standardError.write(Data("usage: streamingjson-bench write FILE OUT BYTES [array|lines]\n".utf8))
            exit(2)
        }
        let decoder = StreamingJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var pool: [Record] = []
        var iterator = decoder.elements(of: Record.self, contentsOf: url).makeIterator()
        while pool.count < 10_000, let record = try iterator.next() { pool.append(record) }
        let encoder = StreamingJSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let out = URL(fileURLWithPath: arguments[3])
        let format: JSONStreamFormat = arguments.count > 5 && arguments[5] == "lines" ? .jsonLines : .array
        // The pool's encoded size sets how many appends reach BYTES.
        var poolBytes = 0
        for record in pool { poolBytes += try encoder.encode(record).count + 1 }
        let appends = Int((Double(target) / Double(poolBytes) * Double(pool.count)).rounded(.up))
        start = Date()
        let writer = try JSONStreamWriter<Record>(toFileAt: out, format: format, encoder: encoder)
        for index in 0..<appends {
            try writer.append(pool[index % pool.count])
        }
        count = appends
        try writer.finish()
        bytesMoved = (try FileManager.default.attributesOfItem(atPath: out.path)[.size] as? Int) ?? 0
    case "encode-writer":
        let out = outputURL()
        let decoder = StreamingJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let records = try decoder.decode([Record].self, contentsOf: url)
        start = Date()
        let encoder = StreamingJSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let writer = try JSONStreamWriter<Record>(toFileAt: out, format: .array, encoder: encoder)
        for record in records {
            try writer.append(record)
        }
        try writer.finish()
        count = records.count
        bytesMoved = fileSize(out)
        extra = " out_bytes=\(bytesMoved)"
    case "transform":
        let out = outputURL()
        let decoder = StreamingJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let encoder = StreamingJSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let writer = try JSONStreamWriter<Record>(toFileAt: out, format: .array, encoder: encoder)
        var iterator = decoder.elements(of: Record.self, contentsOf: url).makeIterator()
        while var record = try iterator.next() {
            record.price *= 1.1
            if record.abv > 8 { strong += 1 }
            try writer.append(record)
            count += 1
        }
        try writer.finish()
        extra = " out_bytes=\(fileSize(out))"
    case "transform-foundation":
        let out = outputURL()
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var records = try decoder.decode([Record].self, from: Data(contentsOf: url))
        for index in records.indices {
            records[index].price *= 1.1
            if records[index].abv > 8 { strong += 1 }
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let output = try encoder.encode(records)
        try output.write(to: out)
        count = records.count
        extra = " out_bytes=\(output.count)"
    case "twitter-docs", "twitter-docs-foundation":
        let documents = try statusDocuments(url)
        let rounds = arguments.count > 3 ? max(1, Int(arguments[3]) ?? 300) : 300
        let documentBytes = documents.reduce(0) { $0 + $1.count }
        // One decoder for all the documents, as a server would keep one.
        let decode: (Data) throws -> Status
        if mode == "twitter-docs" {
            let decoder = StreamingJSONDecoder()
            decode = { try decoder.decode(Status.self, from: $0) }
        } else {
            let decoder = JSONDecoder()
            decode = { try decoder.decode(Status.self, from: $0) }
        }
        // An untimed round: warms up and checks that every document decodes.
        for document in documents { strong &+= try decode(document).user.followersCount }
        start = Date()
        for _ in 0..<rounds {
            for document in documents {
                let status = try decode(document)
                strong &+= status.user.followersCount &+ status.entities.userMentions.count
            }
        }
        count = documents.count * rounds
        bytesMoved = documentBytes * rounds
        let elapsed = Date().timeIntervalSince(start)
        extra = String(format: " documents=%d rounds=%d document_bytes=%d docs_per_s=%.0f",
                       documents.count, rounds, documentBytes, Double(count) / elapsed)
    case "shape-stream", "shape-foundation":
        guard arguments.count >= 4, let shape = Shape(rawValue: arguments[2]) else {
            let shapes = Shape.allCases.map(\.rawValue).joined(separator: "|")
            FileHandle.standardError.write(Data("usage: streamingjson-bench \(mode) \(shapes) FILE\n".utf8))
            exit(2)
        }
        let file = URL(fileURLWithPath: arguments[3])
        let result = mode == "shape-stream" ? try shape.stream(file) : try shape.foundation(file)
        count = result.count
        bytesMoved = fileSize(file)
        extra = " shape=\(shape.rawValue) digest=\(result.digest)"
    case "value":
        do {
            let value = try StreamingJSONDecoder().decode(JSONValue.self, contentsOf: url)
            if case .array(let items) = value { count = items.count } else { count = 1 }
        } catch let DecodingError.dataCorrupted(context) {
            FileHandle.standardError.write(Data("error: \(context.debugDescription)\n".utf8))
            exit(4)
        }
    default:
        FileHandle.standardError.write(Data("unknown mode \(mode)\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
let seconds = Date().timeIntervalSince(start)
print(String(format: "mode=%@ records=%d strong=%d seconds=%.3f records_per_s=%.0f mb_per_s=%.1f peak_rss_mib=%.1f",
             mode, count, strong, seconds, Double(count) / seconds, Double(bytesMoved) / 1e6 / seconds, peakResidentMiB())
      + extra)

/// Decodes from any element without reading it.
struct _Ignored: Decodable {
    init(from decoder: any Decoder) throws {}
}
