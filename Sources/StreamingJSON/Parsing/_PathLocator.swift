// SPDX-License-Identifier: Apache-2.0
internal import CJSONTape

/// The search for where the array at a key path begins (`path_locate.c`),
/// fed the input's first bytes as they are read.
@safe final class _PathLocator {
    enum Outcome {
        /// The array's `[` is the byte before this offset of the input.
        case found(Int)
        /// An object's `{` is (`acceptsObjects`).
        case foundObject(Int)
        /// The path leads to something else (or the input is malformed).
        case none
        /// Not found in the bytes so far.
        case more
    }

    private let keys: _CKeyList
    private let locator: OpaquePointer
    /// Bytes fed so far.
    private var fed = 0

    /// nil when out of memory or `path` is empty.
    init?(path: [String], allowsComments: Bool, acceptsObjects: Bool = false) {
        keys = _CKeyList(path.map { Array($0.utf8) })
        guard let locator = unsafe sj_path_locator_create(keys.keys, keys.lengths, keys.count,
                                                           allowsComments ? 1 : 0) else { return nil }
        unsafe self.locator = locator
        if acceptsObjects { unsafe sj_path_locator_accept_objects(locator) }
    }

    deinit {
        unsafe sj_path_locator_free(locator)
    }

    /// Feeds the bytes of `input[fed..<count]`: `input` holds the input's
    /// first `count` bytes, the same ones as in earlier calls. A byte-order
    /// mark at the start is passed over (yajl would stop at it).
    func feed(_ input: UnsafePointer<UInt8>, upTo count: Int) -> Outcome {
        if unsafe fed == 0 && _startsWithUTF8BOM(UnsafeRawBufferPointer(start: input, count: count)) { fed = 3 }
        var consumed = 0
        let status = unsafe sj_path_locator_feed(locator, input + fed, count - fed, &consumed)
        let start = fed
        fed = count
        switch Int(status) {
        case Int(SJ_LOCATE_FOUND): return .found(start + consumed)
        case Int(SJ_LOCATE_FOUND_OBJECT): return .foundObject(start + consumed)
        case Int(SJ_LOCATE_MORE): return .more
        default: return .none
        }
    }

    /// `{"k1":{"k2":[`: the path's objects, then the array (or with
    /// `container` `{`, the object), opened; `[` for the root. A key is
    /// escaped as briefly as JSON allows, so that this is never longer than
    /// the input's own way there.
    static func opening(_ path: [String], container: UInt8 = UInt8(ascii: "[")) -> [UInt8] {
        var bytes: [UInt8] = []
        for key in path {
            bytes.append(UInt8(ascii: "{"))
            appendString(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
        }
        bytes.append(container)
        return bytes
    }

    private static func appendString(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
            case 0x08: bytes += Array(#"\b"#.utf8)
            case 0x09: bytes += Array(#"\t"#.utf8)
            case 0x0A: bytes += Array(#"\n"#.utf8)
            case 0x0C: bytes += Array(#"\f"#.utf8)
            case 0x0D: bytes += Array(#"\r"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
