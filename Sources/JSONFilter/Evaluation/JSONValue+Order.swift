// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

extension JSONValue {
    /// jq's rank of a type in its total order: null < false < true < numbers
    /// < strings < arrays < objects.
    var _rank: Int {
        switch self {
        case .null: return 0
        case .bool(false): return 1
        case .bool(true): return 2
        case .number: return 3
        case .string: return 4
        case .array: return 5
        case .object: return 6
        }
    }

    /// How deep jq 1.8 compares, merges and walks paths before it gives up
    /// with an error (its `MAX_*_DEPTH` constants), so that hostile nesting
    /// is an error rather than a stack overflow.
    static let _depthLimit = 10_000

    /// jq's total order: by type rank, then numbers by value (NaN below every
    /// number, as jq compares it as null; two literals exactly, as decimals),
    /// strings by their UTF-8 bytes, arrays element by element, objects by
    /// their sorted key lists and then by the values in key order.
    /// Nesting past ``_depthLimit`` is jq's "Comparison too deep".
    static func _compare(_ a: JSONValue, _ b: JSONValue) throws -> Int {
        try _compare(a, b, depth: 0)
    }

    private static func _compare(_ a: JSONValue, _ b: JSONValue, depth: Int) throws -> Int {
        if depth > _depthLimit { throw JSONFilterError(message: "Comparison too deep") }
        let ra = a._rank, rb = b._rank
        if ra != rb { return ra < rb ? -1 : 1 }
        switch (a, b) {
        case (.number(let x), .number(let y)):
            let dx = x.double, dy = y.double
            if dx.isNaN { return -1 }
            if dy.isNaN { return 1 }
            if dx != dy { return dx < dy ? -1 : 1 }
            return JSONNumber._orderOfEqualDoubles(x, y)
        case (.string(let x), .string(let y)):
            return _compareBytes(x, y)
        case (.array(let x), .array(let y)):
            for (u, v) in zip(x, y) {
                let order = try _compare(u, v, depth: depth + 1)
                if order != 0 { return order }
            }
            return x.count < y.count ? -1 : (x.count == y.count ? 0 : 1)
        case (.object(let x), .object(let y)):
            let kx = x.keys.sorted(by: { _compareBytes($0, $1) < 0 })
            let ky = y.keys.sorted(by: { _compareBytes($0, $1) < 0 })
            let keyOrder = try _compare(.array(kx.map(JSONValue.string)), .array(ky.map(JSONValue.string)),
                                        depth: depth + 1)
            if keyOrder != 0 { return keyOrder }
            for key in kx {
                let order = try _compare(x[key]!, y[key]!, depth: depth + 1)
                if order != 0 { return order }
            }
            return 0
        default:
            return 0
        }
    }

    /// jq's `==`: numbers by value (literals exactly), objects whatever their
    /// key order. The same storage is equal without a walk, as in jq;
    /// otherwise nesting past ``_depthLimit`` is "Equality check too deep".
    static func _equal(_ a: JSONValue, _ b: JSONValue) throws -> Bool {
        try _equal(a, b, depth: 0)
    }

    private static func _equal(_ a: JSONValue, _ b: JSONValue, depth: Int) throws -> Bool {
        if depth > _depthLimit { throw JSONFilterError(message: "Equality check too deep") }
        switch (a, b) {
        case (.array(let x), .array(let y)):
            guard x.count == y.count else { return false }
            if _sameStorage(x, y) { return true }
            for (u, v) in zip(x, y) where try !_equal(u, v, depth: depth + 1) { return false }
            return true
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            for (key, value) in x {
                guard let other = y[key], try _equal(value, other, depth: depth + 1) else { return false }
            }
            return true
        default:
            return a == b
        }
    }

    private static func _sameStorage(_ x: [JSONValue], _ y: [JSONValue]) -> Bool {
        unsafe x.withUnsafeBufferPointer { u in
            unsafe y.withUnsafeBufferPointer { v in unsafe u.baseAddress == v.baseAddress }
        }
    }

    static func _less(_ a: JSONValue, _ b: JSONValue) throws -> Bool { try _compare(a, b) < 0 }
}

/// Strings ordered by their UTF-8 bytes, as jq compares them.
func _compareBytes(_ a: String, _ b: String) -> Int {
    var a = a, b = b
    return a.withUTF8 { x in
        b.withUTF8 { y in
            let common = min(x.count, y.count)
            if common > 0 {
                let order = unsafe memcmp(x.baseAddress!, y.baseAddress!, common)
                if order != 0 { return order < 0 ? -1 : 1 }
            }
            return x.count < y.count ? -1 : (x.count == y.count ? 0 : 1)
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
