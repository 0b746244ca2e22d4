// SPDX-License-Identifier: Apache-2.0

/// An error message assembled in one byte buffer. A `try?` that falls back
/// to another type builds a message for every value it reads; `String`
/// concatenation allocates for each piece and interpolation of numbers
/// looks up their conformances at run time.
struct _ErrorText {
    private var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(128) }

    init(_ text: String) {
        self.init()
        append(string: text)
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { unsafe bytes.append(contentsOf: $0) }
    }

    mutating func append(string text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func append(utf8 text: UnsafeBufferPointer<UInt8>) { unsafe bytes.append(contentsOf: text) }

    /// `number` in decimal.
    mutating func append(_ number: Int) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var value = number.magnitude
        var reversed: (UInt64, UInt64, UInt64) = (0, 0, 0)  // up to 20 digits, last first
        var count = 0
        unsafe withUnsafeMutableBytes(of: &reversed) { digits in
            repeat {
                unsafe digits[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
                value /= 10
                count &+= 1
            } while value > 0
            for position in stride(from: count &- 1, through: 0, by: -1) { unsafe bytes.append(digits[position]) }
        }
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}
