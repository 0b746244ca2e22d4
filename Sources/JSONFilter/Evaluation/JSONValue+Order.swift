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

    /// jq's total order: by type rank, then numbers by value, strings by
    /// their UTF-8 bytes, arrays element by element, objects by their sorted
    /// key lists and then by the values in key order.
    static func _compare(_ a: JSONValue, _ b: JSONValue) -> Int {
        let ra = a._rank, rb = b._rank
        if ra != rb { return ra < rb ? -1 : 1 }
        switch (a, b) {
        case (.number(let x), .number(let y)):
            let dx = x.double, dy = y.double
            return dx < dy ? -1 : (dx == dy ? 0 : 1)
        case (.string(let x), .string(let y)):
            return _compareBytes(x, y)
        case (.array(let x), .array(let y)):
            for (u, v) in zip(x, y) {
                let order = _compare(u, v)
                if order != 0 { return order }
            }
            return x.count < y.count ? -1 : (x.count == y.count ? 0 : 1)
        case (.object(let x), .object(let y)):
            let kx = x.keys.sorted(by: { _compareBytes($0, $1) < 0 })
            let ky = y.keys.sorted(by: { _compareBytes($0, $1) < 0 })
            let keyOrder = _compare(.array(kx.map(JSONValue.string)), .array(ky.map(JSONValue.string)))
            if keyOrder != 0 { return keyOrder }
            for key in kx {
                let order = _compare(x[key]!, y[key]!)
                if order != 0 { return order }
            }
            return 0
        default:
            return 0
        }
    }

    static func _less(_ a: JSONValue, _ b: JSONValue) -> Bool { _compare(a, b) < 0 }
}

/// Strings ordered by their UTF-8 bytes, as jq compares them.
func _compareBytes(_ a: String, _ b: String) -> Int {
    var a = a, b = b
    return a.withUTF8 { x in
        b.withUTF8 { y in
            let common = min(x.count, y.count)
            if common > 0 {
                let order = memcmp(x.baseAddress!, y.baseAddress!, common)
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
