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

    /// `number` in decimal (the encoder's integer formatter).
    mutating func append(_ number: Int) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            let count = unsafe _FastScalars.formatUnsigned(UInt64(number.magnitude), to: digits.baseAddress!)
            unsafe bytes.append(contentsOf: UnsafeBufferPointer(start: digits.baseAddress, count: count))
        }
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}
