// SPDX-License-Identifier: Apache-2.0
import NIOCore

/// The deterministic records that the generator streams: record `n` (from 1)
/// is the same in every run, and a fixed share of them is deliberately
/// invalid, so that a test knows what a server must accept and reject.
///
/// Every field but the id repeats with a period of `period` records, so that
/// the JSON after the id is rendered once per residue and then copied: the
/// generator has to keep up with a server reading a gigabyte, even in a
/// debug build.
public enum SampleRecords {
    /// The period of every field but `id`: a multiple of each list's length
    /// and of the defects' period.
    static let period = 1800
    private static let names = ["Hop Harvest", "Night Shift", "Golden Hour", "Harbour Light", "Old Mill", "Red Kite"]
    private static let styles = ["IPA", "Stout", "Pilsner", "Saison", "Porter", "Lager", "Wheat", "Sour"]
    // Tasting notes of a few sentences: records of a size a catalogue's
    // would have, so that a gigabyte is not mostly per-record overhead.
    private static let notes = [
        "Pours a hazy gold with a thick white head; grapefruit, pine and a little resin on the nose, "
            + "with a dry, lingering bitterness and a light body that keeps it easy to drink.",
        "Nearly black, with a tan head that lasts; roasted coffee, dark chocolate and a hint of smoke, "
            + "a creamy mouthfeel and a finish that is more bitter than sweet.",
        "Bright straw colour and brilliant clarity; bready malt, floral hops and a crisp, clean finish "
            + "that asks for another sip on a warm afternoon.",
    ].map { $0 + " " + serving }
    private static let serving = "Serve cellar-cool in a tulip or a nonic pint, poured in one steady motion so that "
        + "the head forms without rushing; it goes well with sharp cheeses, grilled food and anything salty. "
        + "Best within a few months of canning, kept upright, cold and out of the light."

    /// Why record `n` is invalid, or nil when it is valid: three in fifty are not.
    public static func defect(_ n: Int) -> String? {
        switch n % 50 {
        case 7: return "blank name"
        case 23: return "abv over 100"
        case 41: return "negative abv"
        default: return nil
        }
    }

    /// Record `n` as a value; the generator writes the same record as JSON.
    public static func record(_ n: Int) -> Record {
        let r = n % period
        return Record(
            id: n, name: defect(r) == "blank name" ? "" : "\(names[r % names.count]) \(r % 200 + 1)",
            brewery: "Brewery \(r % 360)", style: styles[r % styles.count], abv: Double(abvTenths(r)) / 10,
            ibu: r % 10 == 0 ? nil : 10 + r % 60, notes: notes[r % notes.count])
    }

    /// Appends record `n` as compact JSON, without a separator.
    public static func write(_ n: Int, to buffer: inout ByteBuffer) {
        buffer.writeStaticString("{\"id\":")
        buffer.writeString(String(n))
        let range = tails.ranges[n % period]
        tails.bytes.withUnsafeBytes { _ = buffer.writeBytes(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// The JSON of a record after its id, for each residue, back to back.
    private static let tails: (bytes: [UInt8], ranges: [Range<Int>]) = {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for r in 0..<period {
            let record = record(r)
            var tail = ",\"name\":\"\(record.name)\",\"brewery\":\"\(record.brewery)\",\"style\":\"\(record.style)\","
            tail += "\"abv\":\(abvText(abvTenths(r)))"
            if let ibu = record.ibu { tail += ",\"ibu\":\(ibu)" }
            tail += ",\"notes\":\"\(record.notes)\"}"
            let start = bytes.count
            bytes += tail.utf8
            ranges.append(start..<bytes.count)
        }
        return (bytes, ranges)
    }()

    private static func abvTenths(_ r: Int) -> Int {
        switch defect(r) {
        case "abv over 100": return 1205
        case "negative abv": return -10
        default: return 30 + r % 90
        }
    }

    /// `5.5`, `-1.0`: as JSON numbers, written from tenths so that they read back exactly.
    private static func abvText(_ tenths: Int) -> String {
        "\(tenths < 0 ? "-" : "")\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }
}
