// SPDX-License-Identifier: Apache-2.0
// StreamingJSON measured with ordo-one/benchmark:
//
//     cd Benchmarks && swift package benchmark
//     scripts/benchmarks                                  (from the repository root)
//     scripts/benchmarks --filter 'twitter.*'             (any plugin argument passes through)
//
// Every benchmark reports, besides the plugin's wall clock, iterations per
// second, mallocs and peak resident memory, "Throughput (bytes/s)": the bytes
// of JSON decoded (or, for the encoders, written) per second of one
// iteration, shown in M, that is MB/s. Benchmarks named "Foundation …" run
// the same work through Foundation's JSONDecoder/JSONEncoder, for comparison.
import Benchmark
import Foundation
import JSONFilter
import StreamingJSON

/// Bytes of JSON per second, measured around the work of each iteration.
let bytesPerSecond = BenchmarkMetric.custom("Throughput (bytes/s)", polarity: .prefersLarger, useScalingFactor: false)

/// One benchmark that moves `bytes()` bytes of JSON per iteration.
/// `prepare` runs in the benchmark's setup (inputs generated, models checked).
/// The records benchmarks (a second per iteration for Foundation) get more time.
func jsonBenchmark(_ name: String, maxDuration: Duration = .seconds(3), bytes: @escaping @Sendable () -> Int,
                   prepare: @escaping @Sendable () -> Void, _ work: @escaping () throws -> Void) {
    let configuration = Benchmark.Configuration(maxDuration: maxDuration, setup: { prepare() })
    Benchmark(name, configuration: configuration) { benchmark in
        let start = ContinuousClock.now
        do {
            try work()
        } catch {
            fatalError("\(name): \(error)")
        }
        let elapsed = ContinuousClock.now - start
        benchmark.stopMeasurement()
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        benchmark.measurement(bytesPerSecond, Int((Double(bytes()) / seconds).rounded()))
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident, bytesPerSecond],
        units: [bytesPerSecond: .mega, .peakMemoryResident: .mega],
        warmupIterations: 1,
        maxDuration: .seconds(3),
        maxIterations: 100
    )

    // 1. A generated records dump (~20 MB): whole document, streamed, Foundation.
    // At most 5 s (and 100 iterations) each for the benchmarks on the records.

    let long = Duration.seconds(5)

    let recordsName = "records \(recordsSize / 1_000_000) MB"
    let dumpBytes: @Sendable () -> Int = { recordsDump.data.count }
    let prepareDump: @Sendable () -> Void = { _ = recordsDump }

    jsonBenchmark("\(recordsName): StreamingJSON decode([Record].self)", maxDuration: long,
                  bytes: dumpBytes, prepare: prepareDump) {
        let records = try makeStreamingDecoder().decode([Record].self, from: recordsDump.data)
        precondition(records.count == recordsDump.count)
        blackHole(records)
    }
    jsonBenchmark("\(recordsName): StreamingJSON elements(of:)", maxDuration: long,
                  bytes: dumpBytes, prepare: prepareDump) {
        var iterator = makeStreamingDecoder().elements(of: Record.self, from: recordsDump.data).makeIterator()
        var count = 0
        while let record = try iterator.next() {
            count += 1
            blackHole(record)
        }
        precondition(count == recordsDump.count)
    }
    jsonBenchmark("\(recordsName): Foundation JSONDecoder [Record]", maxDuration: long,
                  bytes: dumpBytes, prepare: prepareDump) {
        let records = try makeFoundationDecoder().decode([Record].self, from: recordsDump.data)
        precondition(records.count == recordsDump.count)
        blackHole(records)
    }

    // 2. Typed models of the nativejson files, side by side with Foundation.

    let prepareModels: @Sendable () -> Void = { checkModels() }
    let files: [(name: String, data: @Sendable () -> Data)] = [
        ("twitter.json", { twitterData }), ("citm_catalog.json", { citmData }), ("canada.json", { canadaData }),
    ]
    for (file, data) in files {
        let size: @Sendable () -> Int = { data().count }
        jsonBenchmark("\(file): StreamingJSON typed", bytes: size, prepare: prepareModels) {
            let decoder = StreamingJSONDecoder()
            switch file {
            case "twitter.json": blackHole(try decoder.decode(Twitter.self, from: data()))
            case "citm_catalog.json": blackHole(try decoder.decode(CitmCatalog.self, from: data()))
            default: blackHole(try decoder.decode(Canada.self, from: data()))
            }
        }
        jsonBenchmark("\(file): Foundation JSONDecoder typed", bytes: size, prepare: prepareModels) {
            let decoder = JSONDecoder()
            switch file {
            case "twitter.json": blackHole(try decoder.decode(Twitter.self, from: data()))
            case "citm_catalog.json": blackHole(try decoder.decode(CitmCatalog.self, from: data()))
            default: blackHole(try decoder.decode(Canada.self, from: data()))
            }
        }
    }

    // Each of twitter.json's 100 statuses as its own small document, through
    // one decoder kept for all of them.
    let statusesBytes: @Sendable () -> Int = { twitterStatusesSize }
    let reusedStreaming = StreamingJSONDecoder()
    jsonBenchmark("twitter statuses one by one: StreamingJSON (one reused decoder)",
                  bytes: statusesBytes, prepare: prepareModels) {
        for status in twitterStatuses {
            blackHole(try reusedStreaming.decode(Status.self, from: status))
        }
    }
    let reusedFoundation = JSONDecoder()
    jsonBenchmark("twitter statuses one by one: Foundation JSONDecoder (one reused decoder)",
                  bytes: statusesBytes, prepare: prepareModels) {
        for status in twitterStatuses {
            blackHole(try reusedFoundation.decode(Status.self, from: status))
        }
    }

    // Real-world shapes, a few MB each, written by scripts/generate-shapes.py
    // (the datasets of scripts/compare's shapes section, small): streamed,
    // and Foundation the way users call it (JSON Lines a line at a time).

    for shape in shapeBenchmarks {
        let name = "shape \(shape.name) \(shapeSize / 1_000_000) MB"
        let size: @Sendable () -> Int = { shape.data().count }
        let prepare: @Sendable () -> Void = { shape.check() }
        jsonBenchmark("\(name): StreamingJSON elements(of:)", bytes: size, prepare: prepare) {
            blackHole(try shape.streamed(shape.data()))
        }
        jsonBenchmark("\(name): Foundation JSONDecoder", bytes: size, prepare: prepare) {
            blackHole(try shape.foundation(shape.data()))
        }
    }

    // 3. The same files as untyped JSONValue.

    for (file, data) in files {
        jsonBenchmark("\(file): StreamingJSON JSONValue", bytes: { data().count }, prepare: { _ = data() }) {
            blackHole(try StreamingJSONDecoder().decode(JSONValue.self, from: data()))
        }
    }

    // 4. Encoding the decoded records: to Data, and streamed to /dev/null.

    jsonBenchmark("\(recordsName): StreamingJSONEncoder encode([Record])", maxDuration: long,
                  bytes: { encodedRecordsSize }, prepare: { _ = encodedRecordsSize }) {
        let data = try makeStreamingEncoder().encode(decodedRecords)
        precondition(data.count == encodedRecordsSize)
        blackHole(data)
    }
    jsonBenchmark("\(recordsName): Foundation JSONEncoder encode([Record])", maxDuration: long,
                  bytes: { foundationEncodedRecordsSize }, prepare: { _ = foundationEncodedRecordsSize }) {
        let data = try makeFoundationEncoder().encode(decodedRecords)
        precondition(data.count == foundationEncodedRecordsSize)
        blackHole(data)
    }
    jsonBenchmark("\(recordsName): JSONStreamWriter to /dev/null", maxDuration: long,
                  bytes: { encodedRecordsSize }, prepare: { _ = encodedRecordsSize }) {
        guard let devNull = FileHandle(forWritingAtPath: "/dev/null") else { fatalError("cannot open /dev/null") }
        defer { try? devNull.close() }
        let writer = try JSONStreamWriter<Record>(to: devNull, encoder: makeStreamingEncoder())
        for record in decodedRecords {
            try writer.append(record)
        }
        try writer.finish()
    }

    // 5. jsonstream's filter evaluator over records already decoded as JSONValue
    // (bytes: the JSON text those values were decoded from).

    let filter = try! JSONFilter("select(.abv > 8) | {name, style}")
    jsonBenchmark("\(recordsName) as [JSONValue]: JSONFilter select(.abv > 8) | {name, style}",
                  maxDuration: long, bytes: dumpBytes, prepare: { _ = strongRecordCount }) {
        var results = 0
        for value in recordValues {
            try filter.apply(to: value) { result in
                results += 1
                blackHole(result)
            }
        }
        precondition(results == strongRecordCount)
    }
}
