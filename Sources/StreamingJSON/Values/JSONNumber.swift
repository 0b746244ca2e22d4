// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape
import Foundation

/// A JSON number that keeps its literal text.
///
/// A number read from input is kept as written (`12345678901234567890`,
/// `1.50`, `1e2`) and every writer writes it back verbatim, so passing a
/// value through never rounds it. A number computed from others holds a
/// `Double` and is written as jq writes numbers: shortest round-trip digits,
/// exponent form for small and large magnitudes (`1e+17`, `1e-05`).
///
/// Equality, hashing and ordering are by numeric value, as in jq:
/// `1 == 1.0 == 1e0`, and `-0 == 0`.
///
/// ```swift
/// let big = JSONNumber(text: "12345678901234567890123")!
/// big.description        // "12345678901234567890123", as read
/// big.double             // 1.2345678901234568e+22
/// big.int                // nil: out of Int's range
/// JSONNumber(0.1 + 0.2)  // 0.30000000000000004
/// JSONNumber(text: "1.50") == 1.5   // true
/// ```
public struct JSONNumber: Sendable, CustomStringConvertible {
    enum Storage: Sendable {
        case literal(String)
        case double(Double)
    }

    let storage: Storage

    /// A number with this literal text, or nil when `text` is not a JSON number.
    public init?(text: String) {
        var text = text
        guard text.withUTF8({ unsafe _isJSONNumber($0) }) else { return nil }
        storage = .literal(text)
    }

    /// Literal text already known to be a valid JSON number (from the parser).
    init(validatedText text: String) {
        storage = .literal(text)
    }

    /// A computed number. NaN and the infinities are kept; writers turn them
    /// into `null` and `±1.7976931348623157e+308`, as jq does.
    public init(_ value: Double) {
        storage = .double(value)
    }

    /// An integer, kept as its decimal text (exact).
    public init(_ value: Int) {
        storage = .literal(String(value))
    }

    /// The value as a `Double` (the nearest one for long literals, as jq reads them).
    public var double: Double {
        switch storage {
        case .double(let value): return value
        case .literal(var text):
            // A literal read from JSON is native UTF-8: parsed in place, with
            // the exact fast path for short decimals (`select(.abv > 8)`
            // converts one per element).
            return text.withUTF8 { unsafe _parseDouble($0) }
        }
    }

    /// The literal text, if this number was read rather than computed.
    public var literal: String? {
        if case .literal(let text) = storage { return text }
        return nil
    }

    /// The value as an `Int` when it is integral and in range.
    public var int: Int? {
        if case .literal(let text) = storage, let exact = Int(text) { return exact }
        let value = double
        guard value.rounded(.towardZero) == value, let exact = Int(exactly: value) else { return nil }
        return exact
    }

    /// The text every writer writes: the literal, or the jq form of the double.
    public var description: String {
        switch storage {
        case .literal(let text): return text
        case .double(let value): return JSONNumber.jqText(value)
        }
    }

    /// jq 1.6's way of writing a double (its `jvp_dtoa_fmt`): the shortest
    /// digits that read back as the same value; plain notation unless the
    /// decimal point would sit 4 or more places before the digits or more
    /// than 15 places after them (`1e+16`, `12000000000000000`, `1e-05`),
    /// then `d.ddde±XX` with at least two exponent digits. NaN is `null`; infinities are clamped to
    /// `±1.7976931348623157e+308`.
    public static func jqText(_ value: Double) -> String {
        if value.isNaN { return "null" }
        if value.isInfinite { return value < 0 ? "-1.7976931348623157e+308" : "1.7976931348623157e+308" }
        if value == 0 { return value.sign == .minus ? "-0" : "0" }
        let (negative, digits, pointPosition) = shortestDigits(value)
        var text = negative ? "-" : ""
        let count = digits.count
        if pointPosition <= -4 || pointPosition > count + 15 {
            text.append(digits[digits.startIndex])
            if count > 1 {
                text.append(".")
                text.append(contentsOf: digits.dropFirst())
            }
            let exponent = pointPosition - 1
            text.append(exponent < 0 ? "e-" : "e+")
            let magnitude = String(abs(exponent))
            if magnitude.count < 2 { text.append("0") }
            text.append(magnitude)
        } else if pointPosition <= 0 {
            text.append("0.")
            text.append(String(repeating: "0", count: -pointPosition))
            text.append(digits)
        } else if pointPosition >= count {
            text.append(digits)
            text.append(String(repeating: "0", count: pointPosition - count))
        } else {
            let split = digits.index(digits.startIndex, offsetBy: pointPosition)
            text.append(contentsOf: digits[..<split])
            text.append(".")
            text.append(contentsOf: digits[split...])
        }
        return text
    }

    /// The shortest round-trip decimal digits of a finite nonzero double and
    /// where the decimal point goes (value = 0.d₁d₂… × 10^pointPosition),
    /// taken from Swift's own shortest representation.
    static func shortestDigits(_ value: Double) -> (negative: Bool, digits: String, pointPosition: Int) {
        let text = value.magnitude.description  // "1.5e-07", "123.25", "1e+20", "5e-324"
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        var digits = ""
        var pointPosition = 0
        if let dot = mantissa.firstIndex(of: ".") {
            digits = String(mantissa[..<dot]) + String(mantissa[mantissa.index(after: dot)...])
            pointPosition = mantissa.distance(from: mantissa.startIndex, to: dot)
        } else {
            digits = String(mantissa)
            pointPosition = digits.count
        }
        // Strip leading zeros ("0.001" → "1", point moves left).
        while digits.count > 1, digits.first == "0" {
            digits.removeFirst()
            pointPosition -= 1
        }
        while digits.count > 1, digits.last == "0" { digits.removeLast() }
        return (value < 0, digits, pointPosition + exponent)
    }
}

extension JSONNumber: Hashable, Comparable {
    /// Equal numeric values: `1 == 1.0`, `-0 == 0`. Two literals compare as
    /// the decimal numbers they spell, so literals too long for a `Double`
    /// to tell apart still differ, as in jq 1.8; NaN equals nothing, itself
    /// included.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if case .literal(let a) = lhs.storage, case .literal(let b) = rhs.storage, a == b { return true }
        return lhs.double == rhs.double && _orderOfEqualDoubles(lhs, rhs) == 0
    }

    /// Hashes the numeric value, so that equal numbers hash alike.
    public func hash(into hasher: inout Hasher) {
        let value = double
        hasher.combine(value == 0 ? 0 : value)  // -0 and 0 are equal
    }

    /// Orders by numeric value, consistently with `==`: through `Double`,
    /// and two literals that round to the same `Double` exactly, as decimals.
    public static func < (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        let x = lhs.double, y = rhs.double
        return x == y ? _orderOfEqualDoubles(lhs, rhs) < 0 : x < y
    }

    /// For two numbers whose `Double`s are equal: -1, 0 or 1 as their exact
    /// values order. Only two literals can differ then, and only when one is
    /// long enough to hold more digits than a `Double` keeps.
    package static func _orderOfEqualDoubles(_ lhs: JSONNumber, _ rhs: JSONNumber) -> Int {
        guard case .literal(let a) = lhs.storage, case .literal(let b) = rhs.storage, a != b,
              a.utf8.count >= 16 || b.utf8.count >= 16 else { return 0 }
        let x = _Decimal(a), y = _Decimal(b)
        return x == y ? 0 : (x < y ? -1 : 1)
    }
}

extension JSONNumber: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// An integer literal, kept exact: `let n: JSONNumber = 42`.
    public init(integerLiteral value: Int) { self.init(value) }
    /// A floating-point literal, a computed number: `let x: JSONNumber = 2.5`.
    public init(floatLiteral value: Double) { self.init(value) }
}

/// JSON's number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
func _isJSONNumber(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    var i = 0
    let n = text.count
    func digits() -> Int {
        let start = i
        while i < n, unsafe text[i] &- 0x30 <= 9 { i += 1 }
        return i - start
    }
    if i < n, unsafe text[i] == UInt8(ascii: "-") { i += 1 }
    guard i < n else { return false }
    if unsafe text[i] == UInt8(ascii: "0") {
        i += 1
    } else if digits() == 0 {
        return false
    }
    if i < n, unsafe text[i] == UInt8(ascii: ".") {
        i += 1
        guard digits() > 0 else { return false }
    }
    if i < n, unsafe text[i] | 0x20 == UInt8(ascii: "e") {
        i += 1
        if i < n, unsafe text[i] == UInt8(ascii: "+") || text[i] == UInt8(ascii: "-") { i += 1 }
        guard digits() > 0 else { return false }
    }
    return i == n
}

extension JSONNumber {
    /// The literal as jq 1.8 writes it: the decimal number's canonical form
    /// (decNumber's to-scientific-string). Plain integers and decimals are
    /// their own form, so the usual literal is returned as it is; exponents
    /// come out as `1E+2`, `1.5E+300`, `0.00001`, and a plain decimal with
    /// more than six zeros after the point in exponent form (`1E-7`).
    public static func jqCanonicalLiteral(_ text: String) -> String {
        // Every number a writer prints passes here: the usual literal is
        // recognised in one pass over its bytes, without a copy.
        let needsWork = unsafe text.utf8.withContiguousStorageIfAvailable(unsafe isNotCanonical) ?? true
        guard needsWork else { return text }
        return canonical(Array(text.utf8)) ?? text
    }

    /// Whether a literal's canonical form differs from its text: it has an
    /// exponent, or more than six zeros after the point.
    /// The rule is `verbatim.c`'s, which also decides whether input text
    /// can be copied.
    static func isNotCanonical(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        return unsafe sj_number_not_canonical(base, bytes.count) != 0
    }

    private static func canonical(_ bytes: [UInt8]) -> String? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index += 1 }
        var digits: [UInt8] = []
        var exponent = 0
        var seenPoint = false
        while index < bytes.count, bytes[index] != UInt8(ascii: "e"), bytes[index] != UInt8(ascii: "E") {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else {
                digits.append(byte)
                if seenPoint { exponent -= 1 }
            }
            index += 1
        }
        if index < bytes.count {
            guard let stated = Int(String(decoding: bytes[(index + 1)...], as: UTF8.self)) else { return nil }
            exponent += stated
        }
        while digits.count > 1, digits.first == UInt8(ascii: "0") { digits.removeFirst() }
        let adjusted = exponent + digits.count - 1
        var result = negative ? "-" : ""
        let digitText = String(decoding: digits, as: UTF8.self)
        if exponent <= 0, adjusted >= -6 {
            if exponent == 0 { return result + digitText }
            let point = digits.count + exponent
            if point > 0 {
                result += String(digitText.prefix(point)) + "." + String(digitText.dropFirst(point))
            } else {
                result += "0." + String(repeating: "0", count: -point) + digitText
            }
            return result
        }
        result += String(digitText.prefix(1))
        if digits.count > 1 { result += "." + String(digitText.dropFirst()) }
        result += "E" + (adjusted >= 0 ? "+" : "-") + String(abs(adjusted))
        return result
    }
}

/// A decimal literal reduced to sign, significant digits and exponent, so
/// that two spellings of one number (`1.50`, `15e-1`) compare equal.
private struct _Decimal: Comparable {
    var negative = false
    var digits: [UInt8] = []
    var exponent = 0

    init(_ text: String) {
        var seenPoint = false
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") { negative = true; bytes = bytes.dropFirst() }
        while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") { seenPoint = true; continue }
            if digits.isEmpty, byte == UInt8(ascii: "0") {
                if seenPoint { exponent -= 1 }
                continue
            }
            digits.append(byte)
            if seenPoint { exponent -= 1 }
        }
        if !bytes.isEmpty { exponent += Int(String(decoding: bytes.dropFirst(), as: UTF8.self)) ?? 0 }
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        if digits.isEmpty { negative = false; exponent = 0 }
    }

    static func < (a: _Decimal, b: _Decimal) -> Bool {
        if a.negative != b.negative { return a.negative }
        return a.negative ? b.magnitudeIsLess(than: a) : a.magnitudeIsLess(than: b)
    }

    /// Digits are normalized (no leading or trailing zeros), so the position
    /// of the leading digit orders first, then the digits themselves.
    private func magnitudeIsLess(than other: _Decimal) -> Bool {
        if digits.isEmpty || other.digits.isEmpty { return digits.isEmpty && !other.digits.isEmpty }
        let leading = digits.count + exponent, otherLeading = other.digits.count + other.exponent
        if leading != otherLeading { return leading < otherLeading }
        return digits.lexicographicallyPrecedes(other.digits)
    }
}
