// SPDX-License-Identifier: Apache-2.0
/// A root type that walks a huge array through the incremental container,
/// keeping one record at a time.
struct Summary: Decodable {
    var count = 0
    var strong = 0

    init(from decoder: any Decoder) throws {
        var records = try decoder.unkeyedContainer()
        while !records.isAtEnd {
            let record = try records.decode(Record.self)
            count += 1
            if record.abv > 8 { strong += 1 }
        }
    }
}
