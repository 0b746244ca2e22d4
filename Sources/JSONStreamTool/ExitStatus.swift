// SPDX-License-Identifier: Apache-2.0
/// `jsonstream`'s exit statuses: jq 1.8's.
///
/// | status | meaning |
/// |---|---|
/// | 0 | success (also: output closed early, as by `| head`; `--on-error skip`) |
/// | 1 | `-e`: the last result was `false` or `null` |
/// | 2 | usage error, unreadable input file, output that cannot be written |
/// | 3 | the filter does not compile (reported before any input is read) |
/// | 4 | `-e`: no result at all |
/// | 5 | input syntax error, element over a limit, runtime error in the filter |
///
/// When several happen in one run, 2 wins over 5; `-e`'s 1 and 4 apply only
/// when nothing failed. `halt` and `halt_error` end the run with their own
/// status (`halt_error`'s argument, 5 by default).
package struct ExitStatus: RawRepresentable, Hashable, Sendable {
    package let rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    package static let success = ExitStatus(rawValue: 0)
    package static let falseOrNull = ExitStatus(rawValue: 1)
    package static let usage = ExitStatus(rawValue: 2)
    package static let compile = ExitStatus(rawValue: 3)
    package static let noResult = ExitStatus(rawValue: 4)
    /// An input that does not parse or is over a limit, or a runtime error.
    package static let failure = ExitStatus(rawValue: 5)
}

/// jq 1.8's `-e` rule, kept per *unit*: jq's `process()` call, which is one
/// whole document for array input (`jq '.[] | F'` sees the file as one
/// value) and one value for JSON Lines. The last unit's status counts; when
/// it gave no result, the last result of any earlier unit decides (none at
/// all is 4).
struct ExitStatusRule {
    /// jq's private codes: 14 no result yet, 11 last result false/null, 0 truthy, 5 runtime error.
    private(set) var lastUnit: Int32?
    /// The last result of the units before the current one that ended
    /// without an error: nil for none, else whether it was truthy.
    private var earlierResult: Bool?

    /// A unit starts: no result yet.
    mutating func beginUnit() {
        commitUnit()
        lastUnit = 14
    }

    /// The current unit starts again: what it gave so far is forgotten.
    mutating func restartUnit() {
        lastUnit = 14
    }

    private mutating func commitUnit() {
        if lastUnit == 0 { earlierResult = true }
        if lastUnit == 11 { earlierResult = false }
    }

    /// A result of the current unit. jq counts a raw (`-r`) string as truthy output.
    @inline(__always)
    mutating func result(isFalseOrNull: Bool) { lastUnit = isFalseOrNull ? 11 : 0 }

    mutating func runtimeError() { lastUnit = 5 }

    /// The status `-e` asks for; nil when there was no unit (jq exits 0 then).
    var exitStatus: ExitStatus? {
        guard var lastUnit else { return nil }
        if lastUnit == 14 {
            var rule = self
            rule.commitUnit()
            switch earlierResult {
            case nil: lastUnit = 14
            case false?: lastUnit = 11
            case true?: lastUnit = 0
            }
        }
        return ExitStatus(rawValue: lastUnit >= 10 ? lastUnit - 10 : lastUnit)
    }
}
