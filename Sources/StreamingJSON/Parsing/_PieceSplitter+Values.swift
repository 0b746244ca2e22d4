// SPDX-License-Identifier: Apache-2.0

// Whether the bytes either side of an array's comma are the ends of two
// values (`arrayCutIsBetweenValues`): a cut is made only there.
extension _PieceSplitter {
    /// Whether `bytes[index]` is the last byte of a value that yajl accepts
    /// when `]` follows it, as it does when `,` does: a string, container,
    /// number or literal.
    static func endsValue(_ bytes: UnsafeRawBufferPointer, at index: Int) -> Bool {
        switch unsafe bytes[index] {
        case UInt8(ascii: "\""), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "e"):
            return unsafe hasLiteral("true", in: bytes, endingAt: index)
                || hasLiteral("false", in: bytes, endingAt: index)
        case UInt8(ascii: "l"):
            return unsafe hasLiteral("null", in: bytes, endingAt: index)
        default:
            return false
        }
    }

    private static func hasLiteral(_ literal: StaticString, in bytes: UnsafeRawBufferPointer,
                                   endingAt index: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard index + 1 >= length else { return false }
        return (0..<length).allSatisfy { unsafe bytes[index + 1 - length + $0] == literal.utf8Start[$0] }
    }

    /// Whether `byte` can be the first of a value.
    static func beginsValue(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "-"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            return true
        default:
            return false
        }
    }
}
