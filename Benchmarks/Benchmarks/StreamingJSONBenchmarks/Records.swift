// SPDX-License-Identifier: Apache-2.0
import Foundation

// `Record` is Sources/StreamingJSONBench/Record.swift (a symbolic link beside this file).

/// Writes in memory the bytes `scripts/generate-records.py --size N` writes
/// (same seed, same random sequence, same formatting: a root array with one
/// compact record per line, non-ASCII kept as UTF-8), so the benchmarks need
/// neither Python nor a file.
enum RecordsGenerator {
    static let styles = ["ipa", "stout", "lager", "pilsner", "porter", "saison", "kolsch", "wheat", "sour", "barleywine"]
    static let words = ["Hoppy", "Trails", "Midnight", "Golden", "Rusty", "Old", "Wild", "Hazy", "Smoked", "Crisp",
                        "Imperial", "Double", "Session", "Dark", "Bright", "Copper", "Velvet", "Thunder", "Citrus", "Oak"]
    static let cities = [("Zürich", "CH"), ("München", "DE"), ("Portland", "US"), ("Québec", "CA"), ("Kraków", "PL"),
                         ("São Paulo", "BR"), ("東京", "JP"), ("Brussels", "BE"), ("Dublin", "IE"), ("Melbourne", "AU")]
    static let tags = ["hoppy", "bitter", "malty", "fruity", "sour", "roasty", "smooth", "dry", "sweet", "funky"]
    static let notes = ["Pours \"golden\" with a thick head.", "Notes of café & crème brûlée.", "Tab\tseparated\tnotes",
                        "Path C:\\beer\\notes", "Line one\nLine two", "Emoji 🍺 and ünïcödé", "Plain description",
                        "Slash / and </script>", "Control \u{0001} char", "Quote ' and \"double\""]

    /// xorshift64*, as in the Python script.
    struct Random {
        var state: UInt64
        init(seed: UInt64) { state = seed == 0 ? 1 : seed }
        mutating func next() -> UInt64 {
            var x = state
            x ^= x >> 12
            x ^= x << 25
            x ^= x >> 27
            state = x
            return x &* 0x2545_F491_4F6C_DD1D
        }
        mutating func below(_ n: UInt64) -> UInt64 { next() % n }
        mutating func choice<T>(_ items: [T]) -> T { items[Int(below(UInt64(items.count)))] }
    }

    /// A root-level JSON array of at least `size` bytes, and its record count.
    static func generate(size: Int, seed: UInt64 = 20261122) -> (data: Data, count: Int) {
        var rng = Random(seed: seed)
        var out: [UInt8] = []
        out.reserveCapacity(size + 4096)
        out.append(contentsOf: "[\n".utf8)
        var index = 0
        while out.count < size {
            if index > 0 { out.append(contentsOf: ",\n".utf8) }
            appendRecord(index, &rng, to: &out)
            index += 1
        }
        out.append(contentsOf: "\n]\n".utf8)
        return (Data(out), index)
    }

    private static func appendRecord(_ index: Int, _ rng: inout Random, to out: inout [UInt8]) {
        // The calls to rng come in the order the Python script makes them.
        let (city, country) = rng.choice(cities)
        let year = 2000 + rng.below(25)
        let month = 1 + rng.below(12), day = 1 + rng.below(28)
        let hour = rng.below(24), minute = rng.below(60), second = rng.below(60)
        let abvTenths = 30 + rng.below(100)
        let serial: UInt64 = rng.below(10) == 0 ? 9_223_372_036_854_775_807 + rng.below(1 << 62) : rng.below(1 << 40)
        let name = "\(rng.choice(words)) \(rng.choice(words)) \(rng.choice(styles).uppercased())"
        let breweryID = rng.below(5000)
        let breweryName = "\(rng.choice(words)) Brewing"
        let style = rng.choice(styles)
        let ibu: UInt64? = rng.below(5) != 0 ? rng.below(120) : nil
        let rating = Double(100 + rng.below(400)) / 100  // round(1 + n / 100, 2)
        let price = Double(99 + rng.below(2000)) / 100
        let tagCount = rng.below(4)
        var tagList: [String] = []
        for _ in 0..<tagCount { tagList.append(rng.choice(tags)) }
        let description = rng.choice(notes)
        let available = rng.below(2) == 1
        let scoreCount = 1 + rng.below(3)
        var scores: [Double] = []
        for _ in 0..<scoreCount { scores.append(Double(rng.below(50)) / 10) }

        func raw(_ text: String) { out.append(contentsOf: text.utf8) }
        func string(_ text: String) {
            out.append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""): raw("\\\"")
                case UInt8(ascii: "\\"): raw("\\\\")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                case 0x08: raw("\\b")
                case 0x0C: raw("\\f")
                case 0..<0x20:
                    let hex = String(byte, radix: 16)
                    raw("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                default: out.append(byte)
                }
            }
            out.append(UInt8(ascii: "\""))
        }
        func two(_ n: UInt64) -> String { n < 10 ? "0\(n)" : "\(n)" }

        raw("{\"id\":\(index),\"serial\":\(serial),\"name\":")
        string(name)
        raw(",\"brewery\":{\"id\":\(breweryID),\"name\":")
        string(breweryName)
        raw(",\"city\":")
        string(city)
        raw(",\"country\":")
        string(country)
        raw("},\"style\":")
        string(style)
        // Swift's and Python's shortest round-trip spellings agree for these values.
        raw(",\"abv\":\(Double(abvTenths) / 10),\"ibu\":\(ibu.map { "\($0)" } ?? "null")")
        raw(",\"rating\":\(rating),\"price\":\(price),\"created_at\":")
        string("\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))Z")
        raw(",\"tags\":[")
        for (i, tag) in tagList.enumerated() {
            if i > 0 { raw(",") }
            string(tag)
        }
        raw("],\"description\":")
        string(description)
        raw(",\"available\":\(available),\"retired_at\":null,\"scores\":[")
        raw(scores.map { "\($0)" }.joined(separator: ","))
        raw("]}")
    }
}
