// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The types both coders read and write themselves, without `init(from:)`
/// or `encode(to:)`: the decoder's `unwrap` and the direct encoder's
/// `encodeFast`. Found by comparing metatypes (no conformance lookup, no
/// `Optional<T>` in generic code). The encoder writes all but `floats`,
/// `int32s` and `uint8s` itself.
enum _FastType: Equatable {
    case string, int, double, bool, date, data, url, decimal
    case strings, doubles, ints, bools, floats, int64s, uint64s, int32s, uint8s
    case other

    @inline(__always)
    init<T>(_ type: T.Type) {
        // Each comparison is gated by the size, a load: comparing with a
        // Foundation or an array type looks up that type's metadata, a call
        // each. Most record types (structs of several fields) match no size
        // and skip every comparison.
        // (Spelled out: a nested generic helper was not inlined.)
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
        else if T.self == [Float].self { self = .floats }
        else if T.self == [Int64].self { self = .int64s }
        else if T.self == [UInt64].self { self = .uint64s }
        else if T.self == [Int32].self { self = .int32s }
        else if T.self == [UInt8].self { self = .uint8s }
        else { self = .other }
    }
}
