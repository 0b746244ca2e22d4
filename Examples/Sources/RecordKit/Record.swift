// SPDX-License-Identifier: Apache-2.0

/// One record of the examples' uploads: a beer, as a catalogue might list it.
///
/// ```json
/// {"id":7,"name":"Beer 7","brewery":"Brewery 7","style":"Stout","abv":6.1,"ibu":35,"notes":"…"}
/// ```
public struct Record: Codable, Sendable, Hashable {
    /// A positive identifier.
    public var id: Int
    /// The beer's name; must not be blank.
    public var name: String
    /// Who brews it.
    public var brewery: String
    /// Its style (`IPA`, `Stout`…).
    public var style: String
    /// Alcohol by volume, in percent; must be within 0...100.
    public var abv: Double
    /// Bitterness, when known.
    public var ibu: Int?
    /// Free text.
    public var notes: String

    /// A record with these fields.
    public init(id: Int, name: String, brewery: String, style: String, abv: Double, ibu: Int?, notes: String) {
        self.id = id
        self.name = name
        self.brewery = brewery
        self.style = style
        self.abv = abv
        self.ibu = ibu
        self.notes = notes
    }

    /// Why the server refuses this record, or nil when it accepts it.
    ///
    /// A refused record is well-formed JSON of the right shape, so it is
    /// counted as rejected rather than failing the whole upload.
    public var problem: String? {
        if id < 1 { return "id must be positive" }
        if name.allSatisfy(\.isWhitespace) { return "name is blank" }
        if !(0...100).contains(abv) { return "abv is outside 0...100" }
        return nil
    }
}

/// What the server counted in an upload it read to the end.
public struct UploadSummary: Codable, Sendable, Hashable {
    /// Records that passed `Record.problem` (written out, when the upload
    /// had no malformed record).
    public var accepted: Int
    /// Well-formed records that did not.
    public var rejected: Int
    /// Records that were not records: invalid JSON, or a value of the wrong
    /// type (nil when there were none, and left out of the JSON).
    public var malformed: Int?

    /// A summary with these counts.
    public init(accepted: Int = 0, rejected: Int = 0, malformed: Int? = nil) {
        self.accepted = accepted
        self.rejected = rejected
        self.malformed = malformed
    }
}
