// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape

// Reading the tape's tokens (layout in `CJSONTape.h`).
extension sj_token {
    @inline(__always) var kind: UInt8 { UInt8(truncatingIfNeeded: word >> 56) }
    /// Absolute byte offset of the value in the input.
    @inline(__always) var position: UInt64 { word & SJ_POSITION_MASK }
    /// Containers: tokens inside.
    @inline(__always) var span: Int { Int(a) }
    /// Containers: elements or members.
    @inline(__always) var count: Int { Int(b) }
    /// Strings, keys, numbers: offset of their bytes in the arena.
    @inline(__always) var arenaOffset: Int { Int(a) }
    /// Strings, keys, numbers: byte length.
    @inline(__always) var length: Int { Int(b) }
    /// Tokens this value occupies, itself included.
    @inline(__always) var size: Int { kind == UInt8(SJ_ARRAY) || kind == UInt8(SJ_OBJECT) ? Int(a) + 1 : 1 }
}

enum _Kind {
    static let null = UInt8(SJ_NULL)
    static let `false` = UInt8(SJ_FALSE)
    static let `true` = UInt8(SJ_TRUE)
    static let number = UInt8(SJ_NUMBER)
    static let string = UInt8(SJ_STRING)
    static let key = UInt8(SJ_KEY)
    static let array = UInt8(SJ_ARRAY)
    static let object = UInt8(SJ_OBJECT)
    static let oversized = UInt8(SJ_OVERSIZED)
    static let mark = UInt8(SJ_MARK)
}
