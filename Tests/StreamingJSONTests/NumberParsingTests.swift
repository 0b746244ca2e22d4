// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// `_parseDouble` (Clinger's fast path, then Eisel–Lemire, then the standard
/// library) against the standard library's correctly rounded parser alone.
@Suite struct NumberParsingTests {
    private func parse(_ literal: String) -> Double {
        var text = literal
        return text.withUTF8 { _parseDouble($0) }
    }

    private func expectSameAsStandardLibrary(_ literal: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = Double(literal)!
        let actual = parse(literal)
        #expect(actual.bitPattern == expected.bitPattern || (actual.isNaN && expected.isNaN),
                "\(literal): \(actual) instead of \(expected)", sourceLocation: sourceLocation)
    }

    /// Ties, the edges of the normal and subnormal ranges, overflow, long
    /// mantissas and the powers of ten at the ends of the table.
    @Test(arguments: [
        "0", "-0", "0.0", "-0.0e5", "0e999999", "1", "-1", "0.1", "0.3", "1e23", "8.98846567431158e307",
        "9007199254740993", "9007199254740992.5", "9007199254740993.0000000001", "123456789012345678",
        "18446744073709551615", "18446744073709551616", "1234567890123456789012345",
        "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308",
        "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-400",
        "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "1e309", "-1e400",
        "1e-348", "1e-349", "1e347", "1e-22", "1e22", "3e22", "7.2057594037927933e16",
        "0.000000000000000000000000000000000000000000001", "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124", "45.0191803", "-73.5621123456789012",
        "6.02214076e23", "1.5E-8", "2.5e+10", "1.e5",
    ])
    func edgeCases(_ literal: String) {
        expectSameAsStandardLibrary(literal)
    }

    /// Random mantissas of 1 to 19 digits, with and without a fraction, at
    /// every exponent the method's table covers and a little past it.
    @Test func randomLiterals() {
        var rng = SplitMix(seed: 0x5EED_D0B1E)
        for _ in 0..<60_000 {
            let digitCount = Int.random(in: 1...19, using: &rng)
            var digits = String(Int.random(in: 1...9, using: &rng))
            for _ in 1..<digitCount { digits.append(Character(String(Int.random(in: 0...9, using: &rng)))) }
            let point = Int.random(in: 0...digitCount, using: &rng)
            if point < digitCount { digits.insert(".", at: digits.index(digits.startIndex, offsetBy: point)) }
            let exponent = Int.random(in: -360...360, using: &rng)
            let sign = Bool.random(using: &rng) ? "-" : ""
            expectSameAsStandardLibrary("\(sign)\(digits)e\(exponent)")
        }
    }

    /// Doubles as programs print them: shortest round trip and 17 digits.
    @Test func printedDoubles() {
        var rng = SplitMix(seed: 17)
        for _ in 0..<30_000 {
            let value = Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF)
            expectSameAsStandardLibrary(value.description)
            expectSameAsStandardLibrary(String(format: "%.17g", value))
            expectSameAsStandardLibrary(String(format: "%.6f", value / 1e300))
        }
    }

    /// `_parseDecimal` against `Decimal(string:)`: equal values and the same
    /// description (the encoder writes a Decimal by it).
    @Test func decimalsAsDecimalStringReadsThem() {
        var literals = ["0", "-0", "0.000", "1.10", "-12.50", "100", "1e3", "1.0e-5", "0.000123", "19.99",
                        "12345678901234567890.123456789", "99999999999999999999999999999999999999",
                        "1e127", "1e128", "1e-128", "1e-129", "9223372036854775807", "18446744073709551615"]
        var rng = SplitMix(seed: 0xDEC)
        for _ in 0..<5_000 {
            let cents = Int.random(in: -10_000_000...10_000_000, using: &rng)
            literals.append(String(format: "%.2f", Double(cents) / 100))
            literals.append("\(rng.next() >> UInt64.random(in: 0...63, using: &rng))e\(Int.random(in: -40...40, using: &rng))")
        }
        for literal in literals {
            let expected = Decimal(string: literal, locale: Locale(identifier: "en_US_POSIX"))
            var text = literal
            let actual = text.withUTF8 { _parseDecimal($0) }
            #expect(actual == expected && actual?.description == expected?.description,
                    "\(literal): \(String(describing: actual)) instead of \(String(describing: expected))")
        }
    }

    /// `_parseInteger` (eight digits at a time) against the standard
    /// library's `Int64(_:)` and `UInt64(_:)`: every length from 1 to 22
    /// digits, both signs, the limits, and literals with a fraction or an
    /// exponent whose non-digit falls inside an eight-digit block.
    @Test func integersOfEveryLength() {
        var literals = ["0", "-0", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
                        "-9223372036854775809", "18446744073709551615", "18446744073709551616",
                        "99999999999999999999", "12345678.0", "1234567.5", "1234567890123456e3", "12345678e-8",
                        "10000000000000000000", "1e19", "1.8446744073709551615e19"]
        var rng = SplitMix(seed: 0x1D5)
        for _ in 0..<20_000 {
            let digitCount = Int.random(in: 1...22, using: &rng)
            var digits = String(Int.random(in: 1...9, using: &rng))
            for _ in 1..<digitCount { digits.append(Character(String(Int.random(in: 0...9, using: &rng)))) }
            literals.append(digits)
            literals.append("-" + digits)
        }
        for literal in literals {
            var text = literal
            let signed: Int64? = text.withUTF8 { _parseInteger($0) }
            let unsigned: UInt64? = text.withUTF8 { _parseInteger($0) }
            let exact = Decimal(string: literal, locale: Locale(identifier: "en_US_POSIX"))!
            let expectedSigned = Int64(literal) ?? Self.integral(exact, Int64.self)
            let expectedUnsigned = literal == "-0" ? 0 : UInt64(literal) ?? Self.integral(exact, UInt64.self)
            #expect(signed == expectedSigned, "\(literal) as Int64: \(String(describing: signed))")
            #expect(unsigned == expectedUnsigned, "\(literal) as UInt64: \(String(describing: unsigned))")
        }
    }

    /// An integral value written with a fraction or an exponent, if it fits.
    private static func integral<T: FixedWidthInteger>(_ value: Decimal, _: T.Type) -> T? {
        var rounded = Decimal()
        var copy = value
        NSDecimalRound(&rounded, &copy, 0, .plain)
        guard rounded == value else { return nil }
        return T(NSDecimalNumber(decimal: rounded).stringValue)
    }
}
