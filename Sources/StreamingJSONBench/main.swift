// streamingjson-bench: decodes a records dump one way and prints what it took.
// Used by scripts/demo, scripts/compare-decode and scripts/bench-memory.
//
//   streamingjson-bench stream FILE [array|lines|auto]   elements(of:contentsOf:), one record at a time
//   streamingjson-bench incremental FILE                 decode(Summary.self, contentsOf:) via the incremental container
//   streamingjson-bench whole FILE                       StreamingJSONDecoder().decode([Record].self, contentsOf:)
//   streamingjson-bench foundation FILE                  JSONDecoder().decode([Record].self, from: Data(contentsOf:))
//   streamingjson-bench encode FILE                      StreamingJSONEncoder().encode(records), records decoded first (untimed)
//   streamingjson-bench encode-foundation FILE           JSONEncoder().encode(records), the same way
//   streamingjson-bench write FILE OUT BYTES [array|lines]  JSONStreamWriter: cycles the first 10 000 records
//                                                        of FILE until BYTES are written to OUT
//
// The encode modes report the output's size in mb_per_s.
import Foundation
import StreamingJSON

func peakResidentMiB() -> Double {
    var usage = rusage()
    #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
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
    FileHandle.standardError.write(Data("usage: streamingjson-bench stream|incremental|whole|foundation FILE [format]\n".utf8))
    exit(2)
}
let mode = arguments[1]
let url = URL(fileURLWithPath: arguments[2])
let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0

var start = Date()
var bytesMoved = bytes
var count = 0
var strong = 0
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
        strong = records.filter { $0.abv > 8 }.count
    case "foundation":
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let records = try decoder.decode([Record].self, from: Data(contentsOf: url))
        count = records.count
        strong = records.filter { $0.abv > 8 }.count
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
             mode, count, strong, seconds, Double(count) / seconds, Double(bytesMoved) / 1e6 / seconds, peakResidentMiB()))
