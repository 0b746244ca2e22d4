// SPDX-License-Identifier: Apache-2.0
import Foundation
import StreamingJSON

// Inputs, built once per benchmark process on first use (Swift globals are
// lazy); each benchmark touches what it needs in its `setup`, so nothing is
// generated or checked while it is measured.

/// Tests/Fixtures/nativejson of the root package, found from this file.
let nativeJSONDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // StreamingJSONBenchmarks
    .deletingLastPathComponent()  // Benchmarks (sources)
    .deletingLastPathComponent()  // Benchmarks (package)
    .deletingLastPathComponent()  // repository root
    .appendingPathComponent("Tests/Fixtures/nativejson")

func loadFixture(_ name: String) -> Data {
    let url = nativeJSONDirectory.appendingPathComponent(name)
    do {
        return try Data(contentsOf: url)
    } catch {
        fatalError("cannot read \(url.path): \(error)")
    }
}

let twitterData = loadFixture("twitter.json")
let citmData = loadFixture("citm_catalog.json")
let canadaData = loadFixture("canada.json")

/// The decoders every records benchmark uses: ISO-8601 dates, as in
/// scripts/compare-decode.
func makeStreamingDecoder() -> StreamingJSONDecoder {
    let decoder = StreamingJSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
}

func makeFoundationDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
}

func makeStreamingEncoder() -> StreamingJSONEncoder {
    let encoder = StreamingJSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    return encoder
}

func makeFoundationEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    return encoder
}

/// About 20 MB of generated records (the bytes of
/// `scripts/generate-records.py --size 20MB`).
let recordsSize = 20_000_000
let recordsDump: (data: Data, count: Int) = RecordsGenerator.generate(size: recordsSize)

/// The dump decoded once, for the encoders; checks the count.
let decodedRecords: [Record] = {
    let records = try! makeStreamingDecoder().decode([Record].self, from: recordsDump.data)
    precondition(records.count == recordsDump.count, "decoded \(records.count) of \(recordsDump.count) records")
    return records
}()

/// The dump as JSONValue elements, for the filter.
let recordValues: [JSONValue] = {
    let values = try! StreamingJSONDecoder().decode([JSONValue].self, from: recordsDump.data)
    precondition(values.count == recordsDump.count, "decoded \(values.count) of \(recordsDump.count) values")
    return values
}()

/// What `StreamingJSONEncoder` writes for `decodedRecords` (the bytes
/// `JSONStreamWriter` writes too).
let encodedRecordsSize: Int = try! makeStreamingEncoder().encode(decodedRecords).count
let foundationEncodedRecordsSize: Int = try! makeFoundationEncoder().encode(decodedRecords).count

/// Each status of twitter.json as a document of its own (re-encoded compact
/// from its JSONValue, numbers as written in the file).
let twitterStatuses: [Data] = {
    guard case .object(let root) = try! StreamingJSONDecoder().decode(JSONValue.self, from: twitterData),
          case .array(let statuses)? = root["statuses"] else {
        fatalError("twitter.json: no statuses array")
    }
    let encoder = StreamingJSONEncoder()
    return statuses.map { try! encoder.encode($0) }
}()
let twitterStatusesSize = twitterStatuses.reduce(0) { $0 + $1.count }

/// Decodes each model once with both decoders and checks what came out, so a
/// model that stopped matching its file fails loudly instead of measuring an error.
func checkModels() {
    for decode in [
        { (data: Data) in try StreamingJSONDecoder().decode(Twitter.self, from: data) },
        { (data: Data) in try JSONDecoder().decode(Twitter.self, from: data) },
    ] {
        let twitter = try! decode(twitterData)
        precondition(twitter.statuses.count == 100 && twitter.searchMetadata.count == 100)
        precondition(twitter.statuses.filter { $0.retweetedStatus != nil }.count == 73)
    }
    for decode in [
        { (data: Data) in try StreamingJSONDecoder().decode(CitmCatalog.self, from: data) },
        { (data: Data) in try JSONDecoder().decode(CitmCatalog.self, from: data) },
    ] {
        let citm = try! decode(citmData)
        precondition(citm.events.count == 184 && citm.performances.count == 243)
        precondition(citm.performances.reduce(0) { $0 + $1.seatCategories.count } == 907)
    }
    for decode in [
        { (data: Data) in try StreamingJSONDecoder().decode(Canada.self, from: data) },
        { (data: Data) in try JSONDecoder().decode(Canada.self, from: data) },
    ] {
        let canada = try! decode(canadaData)
        precondition(canada.features.count == 1 && canada.features[0].geometry.coordinates.count == 480)
        precondition(canada.features[0].geometry.coordinates.allSatisfy { $0.allSatisfy { $0.count == 2 } })
    }
    let decoder = StreamingJSONDecoder()
    for status in twitterStatuses {
        _ = try! decoder.decode(Status.self, from: status)
        _ = try! JSONDecoder().decode(Status.self, from: status)
    }
}

/// How many records have `abv > 8`, counted without the filter.
let strongRecordCount: Int = recordValues.reduce(0) { count, value in
    guard case .number(let abv)? = value["abv"] else { fatalError("record without abv") }
    return abv.double > 8 ? count + 1 : count
}
