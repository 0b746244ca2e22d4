import Foundation

// The small types `_DirectEncoding` works with: its frames, key spans, the
// collections it writes itself, and the fast scalar types it recognises.

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

/// The types the encoders write without going through `encode(to:)`,
/// found by comparing metatypes.
enum _EncodingFastType: Equatable {
    case string, int, double, bool, date, data, url, decimal
    case strings, doubles, ints, bools, int64s, uint64s
    case other

    @inline(__always)
    init<T>(_ type: T.Type) {
        // Gated by the size, as the decoder's `_FastType` is: comparing with
        // a Foundation or an array type looks up its metadata, a call each.
        // (Spelled out: a nested generic helper was not inlined here.)
        let size = MemoryLayout<T>.size
        if size == MemoryLayout<String>.size, T.self == String.self { self = .string }
        else if size == MemoryLayout<Int>.size, T.self == Int.self { self = .int }
        else if size == MemoryLayout<Double>.size, T.self == Double.self { self = .double }
        else if size == MemoryLayout<Bool>.size, T.self == Bool.self { self = .bool }
        else if size == MemoryLayout<Date>.size, T.self == Date.self { self = .date }
        else if size == MemoryLayout<Data>.size, T.self == Data.self { self = .data }
        else if size == MemoryLayout<URL>.size, T.self == URL.self { self = .url }
        else if size == MemoryLayout<Decimal>.size, T.self == Decimal.self { self = .decimal }
        else if size != MemoryLayout<[Int]>.size { self = .other }
        else if T.self == [String].self { self = .strings }
        else if T.self == [Double].self { self = .doubles }
        else if T.self == [Int].self { self = .ints }
        else if T.self == [Bool].self { self = .bools }
        else if T.self == [Int64].self { self = .int64s }
        else if T.self == [UInt64].self { self = .uint64s }
        else { self = .other }
    }
}
