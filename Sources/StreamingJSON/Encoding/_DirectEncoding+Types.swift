// SPDX-License-Identifier: Apache-2.0
import Foundation

// The small types `_DirectEncoding` works with: its frames, key spans, and the
// collections it writes itself (the scalars it writes are `_FastType`).

/// Thrown by direct containers once the value must go through the tape.
struct _DirectFallback: Error {}

/// How a frame was reached from the one below it, for coding paths.
enum _PathSegment {
    case none
    case index(Int)
    case key(any CodingKey)
}

struct _DirectFrame {
    enum Kind: UInt8 {
        /// A slot nothing has been encoded into yet (written as `{}` if it stays so).
        case pending
        /// A complete value (a scalar, or an array or dictionary written in one go).
        case filled
        case array, object
    }

    var kind: Kind
    /// Children written so far.
    var count: UInt32
    /// Where this object's keys start in `spans`.
    var spansStart: UInt32
    var serial: UInt64
    /// One bit per key hash, for the duplicate check.
    var keyMask: UInt64
}

/// A key written into the output: its escaped text, without quotes.
struct _KeySpan {
    var start: Int
    var length: Int
}

/// Collections written by the direct encoder without `encode(to:)`.
protocol _DirectEncodable {
    func _directEncode(into state: _DirectEncoding, frame: Int, serial: UInt64) throws
}

extension Array: _DirectEncodable where Element: Encodable {
    func _directEncode(into state: _DirectEncoding, frame: Int, serial: UInt64) throws {
        try state.encodeArray(self, frame: frame, serial: serial)
    }
}

extension Dictionary: _DirectEncodable where Key == String, Value: Encodable {
    func _directEncode(into state: _DirectEncoding, frame: Int, serial: UInt64) throws {
        try state.encodeDictionary(self, frame: frame, serial: serial)
    }
}
