// SPDX-License-Identifier: Apache-2.0
import Foundation

extension StreamingJSONDecoder {
    /// The ranges of a plan for `count` pieces of a file: step 1 of a plan
    /// (see ``JSONPiece``). It reads only the file's start: to its first
    /// byte other than whitespace, or along `path` to the array there.
    ///
    /// Each piece is to be scanned (``JSONPiece/scanned(contentsOf:)``),
    /// then all of them joined (``JSONPiece/joined(_:)``). An input that
    /// cannot be cut — compressed, comments allowed, nothing of the format's
    /// shape at `path` in its first 64 MiB — is planned as one piece (the
    /// first; the others are empty) that needs neither step.
    ///
    /// - Parameters:
    ///   - count: How many pieces, 1 to 1,000,000: the ranges are equal.
    ///   - url: A regular file.
    ///   - path: Object keys leading to the array (or object) to cut; empty
    ///     for the root.
    ///   - format: As for ``elements(of:contentsOf:at:format:)``: `.auto` cuts
    ///     a root array or JSON Lines, whichever the first byte says, or the
    ///     array at `path`; `.objectValues` the object's member values.
    /// - Throws: `CocoaError` when the file cannot be opened, `POSIXError`
    ///   when it cannot be read, ``JSONPieceError`` for a `count` out of range.
    public func planPieces(count: Int, ofContentsOf url: URL, at path: [String] = [],
                           format: JSONStreamFormat = .auto) throws -> [JSONPiece] {
        try planPieces(count: count, ofContentsOf: url, at: path, format: format, followingRoots: false)
    }

    /// `planPieces(count:ofContentsOf:at:format:)`; `followingRoots`: an
    /// array or an object at `path`, whichever is there, as `jsonstream
    /// --path` reads either.
    package func planPieces(count: Int, ofContentsOf url: URL, at path: [String], format: JSONStreamFormat,
                            followingRoots: Bool) throws -> [JSONPiece] {
        guard (1...1_000_000).contains(count) else {
            throw JSONPieceError("A plan has 1 to 1000000 pieces, not \(count)")
        }
        let file = try _PieceFile(url: url)
        let size = file.size
        let ends = (1...count).map { Int((Int64(size) * Int64($0)) / Int64(count)) }
        return try planPieces(ending: ends, of: file, at: path, format: format, followingRoots: followingRoots)
    }

    /// A plan whose ranges end at `ends` (ascending, the last the file's
    /// size): any ranges, for tests.
    func planPieces(ending ends: [Int], of file: _PieceFile, at path: [String],
                    format: JSONStreamFormat, followingRoots: Bool = false) throws -> [JSONPiece] {
        let (shape, header) = try Self.planShape(file, path: path, format: format, followingRoots: followingRoots,
                                                 allowsComments: options.limits.allowsComments)
        // An input read whole is the first piece's.
        let ends = shape.isWhole ? Array(repeating: file.size, count: ends.count) : ends
        return ends.indices.map { index in
            let start = index == 0 ? 0 : ends[index - 1]
            return JSONPiece(index: index, count: ends.count, byteRange: start..<ends[index], inputSize: file.size,
                             path: shape == .lines ? [] : path, shape: shape, header: header)
        }
    }

    /// The pieces of a file, planned, scanned and joined on this machine
    /// (the scans on all its cores): ready to read, here or elsewhere.
    ///
    /// It reads the whole file once, at the speed of a scan (far faster
    /// than parsing). Where that is too much for one machine, do the steps
    /// apart (see ``JSONPiece``).
    ///
    /// - Throws: as ``planPieces(count:ofContentsOf:at:format:)`` and
    ///   ``JSONPiece/scanned(contentsOf:)`` do.
    public func pieces(count: Int, ofContentsOf url: URL, at path: [String] = [],
                       format: JSONStreamFormat = .auto) throws -> [JSONPiece] {
        try pieces(count: count, ofContentsOf: url, at: path, format: format, followingRoots: false)
    }

    /// `pieces(count:ofContentsOf:at:format:)`; `followingRoots` as for
    /// `planPieces(count:ofContentsOf:at:format:followingRoots:)`.
    package func pieces(count: Int, ofContentsOf url: URL, at path: [String], format: JSONStreamFormat,
                        followingRoots: Bool) throws -> [JSONPiece] {
        let plan = try planPieces(count: count, ofContentsOf: url, at: path, format: format,
                                  followingRoots: followingRoots)
        let scans = _ScanResults(count: plan.count)
        DispatchQueue.concurrentPerform(iterations: plan.count) { index in
            scans.set(index, Result { try plan[index].scanned(contentsOf: url) })
        }
        return try JSONPiece.joined(scans.pieces())
    }

    /// How a plan cuts `file`, read from its start.
    private static func planShape(_ file: _PieceFile, path: [String], format: JSONStreamFormat,
                                  followingRoots: Bool, allowsComments: Bool) throws -> (_PieceShape, _PieceHeader?) {
        let start = try file.bytes(0..<min(file.size, 16))
        if let compression = CompressedInputError.Format.recognise(start[...]) {
            return (.whole("the file is \(compression)-compressed, and a compressed file cannot be read "
                           + "from the middle"), nil)
        }
        if allowsComments { return (.whole("comments are allowed, and a comment may hide a delimiter"), nil) }
        switch format {
        case .jsonLines: return (.lines, nil)
        case .objectValues:
            if !path.isEmpty { return try locate(path, in: file, accepting: .object) }
            guard let (offset, byte) = try firstContentByte(file), byte == UInt8(ascii: "{") else {
                return (.whole("the root is not an object"), nil)
            }
            return (.object, try header(bracket: offset, in: file))
        case .auto, .array:
            if !path.isEmpty { return try locate(path, in: file, accepting: followingRoots ? nil : .array) }
            guard let (offset, byte) = try firstContentByte(file) else {
                return (.whole("the file holds no JSON value"), nil)
            }
            if byte == UInt8(ascii: "[") {
                return (.array, try header(bracket: offset, in: file))
            }
            return format == .auto ? (.lines, nil) : (.whole("the root is not an array"), nil)
        }
    }

    /// The furthest a plan reads for the array at a path.
    static let locateLimit = 64 << 20

    /// Finds the array or object at `path` (`path_locate.c`); `accepting`
    /// one of the two shapes only, or either (nil).
    private static func locate(_ path: [String], in file: _PieceFile,
                               accepting wanted: _PieceShape?) throws -> (_PieceShape, _PieceHeader?) {
        guard let locator = _PathLocator(path: path, allowsComments: false, acceptsObjects: wanted != .array) else {
            return (.whole("the key path cannot be followed"), nil)
        }
        var held: [UInt8] = []
        while held.count < min(file.size, locateLimit) {
            held += try file.bytes(held.count..<min(file.size, held.count + (1 << 20)))
            let outcome = unsafe held.withUnsafeBufferPointer { unsafe locator.feed($0.baseAddress!, upTo: $0.count) }
            let found: (_PieceShape, Int)
            switch outcome {
            case .found(let end): found = (.array, end)
            case .foundObject(let end): found = (.object, end)
            case .none: return (.whole("no \(wanted == .object ? "object" : "array") at the key path"), nil)
            case .more: continue
            }
            guard wanted == nil || wanted == found.0 else {
                return (.whole("the value at the key path is not \(wanted == .object ? "an object" : "an array")"), nil)
            }
            return (found.0, header(bracket: found.1 - 1, in: held))
        }
        return (.whole("no array at the key path in the file's first \(locateLimit >> 20) MiB"), nil)
    }

    /// The first byte other than whitespace (after a UTF-8 BOM), and its offset.
    private static func firstContentByte(_ file: _PieceFile) throws -> (Int, UInt8)? {
        var offset = 0
        while offset < file.size {
            let bytes = try file.bytes(offset..<min(file.size, offset + 4096))
            var index = offset == 0 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            while index < bytes.count && _isJSONWhitespace(bytes[index]) { index += 1 }
            if index < bytes.count { return (offset + index, bytes[index]) }
            offset += bytes.count
        }
        return nil
    }

    private static func header(bracket: Int, in file: _PieceFile) throws -> _PieceHeader {
        header(bracket: bracket, in: try file.bytes(0..<bracket))
    }

    /// The header of an array opening at `bracket`, given the bytes before it.
    private static func header(bracket: Int, in bytes: [UInt8]) -> _PieceHeader {
        let before = bytes[0..<bracket]
        return _PieceHeader(bracket: bracket, newlines: before.count(where: { $0 == 0x0A }),
                            lastNewline: before.lastIndex(of: 0x0A))
    }
}

/// The scans of a plan's pieces, made on several threads.
private final class _ScanResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<JSONPiece, any Error>?]

    init(count: Int) {
        results = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ result: Result<JSONPiece, any Error>) {
        lock.withLock { results[index] = result }
    }

    /// The pieces in order; the first error, if any, thrown.
    func pieces() throws -> [JSONPiece] {
        try lock.withLock { try results.map { try $0!.get() } }
    }
}

extension JSONPiece {
    /// The pieces of a plan, each scanned, made ready to read: step 3 of a
    /// plan (see ``JSONPiece``). The state each range starts in comes from
    /// the scans of the ranges before it, so this needs them all (in any
    /// order); it reads nothing.
    ///
    /// - Returns: The pieces in order.
    /// - Throws: ``JSONPieceError`` when the pieces are not one whole plan
    ///   (one missing, twice, or of another plan) or one is not scanned.
    public static func joined(_ pieces: some Sequence<JSONPiece>) throws -> [JSONPiece] {
        var pieces = pieces.sorted { $0.index < $1.index }
        guard let first = pieces.first else { throw JSONPieceError("No pieces to join") }
        for (index, piece) in pieces.enumerated() {
            guard piece.index == index, piece.count == pieces.count, piece.inputSize == first.inputSize,
                  piece.path == first.path, piece.shape == first.shape, piece.header == first.header,
                  piece.byteRange.lowerBound == (index == 0 ? 0 : pieces[index - 1].byteRange.upperBound)
            else {
                throw JSONPieceError("Piece \(piece.index) of \(piece.count) does not belong with the others: "
                                        + "a plan's pieces are joined all together, once each")
            }
            guard piece.isScanned else { throw JSONPieceError("Piece \(piece.index) is not scanned") }
        }
        guard pieces.last!.byteRange.upperBound == first.inputSize else {
            throw JSONPieceError("The pieces do not reach the end of the file")
        }
        switch first.shape {
        case .whole: return pieces
        case .lines: joinLines(&pieces)
        case .array, .object: joinContainer(&pieces)
        }
        return pieces
    }

    private static func joinLines(_ pieces: inout [JSONPiece]) {
        var state = _PieceEntry(escaped: false, inString: false, depth: 0, outside: false, newlines: 0,
                                lastNewline: nil, firstIndex: 0)
        for index in pieces.indices {
            pieces[index].entry = state
            state.firstIndex = nil  // values before a later piece are not counted
            state.advance(over: pieces[index].tally!, endsAt: .min)
        }
    }

    private static func joinContainer(_ pieces: inout [JSONPiece]) {
        let header = pieces[0].header!
        // Just inside the array, with its first element counted.
        var state = _PieceEntry(escaped: false, inString: false, depth: 0, outside: false,
                                newlines: header.newlines, lastNewline: header.lastNewline, firstIndex: 1)
        for index in pieces.indices {
            let range = pieces[index].byteRange
            if range.upperBound <= header.bracket {
                var before = state
                before.outside = true
                pieces[index].entry = before
                continue
            }
            if range.contains(header.bracket) {
                var opening = state
                opening.firstIndex = 0
                pieces[index].entry = opening
            } else {
                pieces[index].entry = state
            }
            state.advance(over: pieces[index].tally!, endsAt: 0)
        }
    }
}

extension _PieceShape {
    var isWhole: Bool {
        if case .whole = self { return true }
        return false
    }

    /// An array's or an object's elements, which open with a bracket.
    var isContainer: Bool { self == .array || self == .object }
}

extension _PieceEntry {
    /// Moves the state past a range. `floor`: the depth below which the
    /// array has closed (`.min` for JSON Lines, which has none).
    mutating func advance(over tally: _RangeTally, endsAt floor: Int) {
        let outcome = tally.outcome(escaped: escaped, inString: inString)
        if !outside {
            if depth + outcome.lowest < floor {
                outside = true
            } else if depth + outcome.lowest == floor, let counted = firstIndex {
                firstIndex = counted + outcome.atLowest
            }
        }
        depth += outcome.depth
        escaped = outcome.escaped
        inString = outcome.inString
        newlines += tally.newlines
        lastNewline = tally.lastNewline ?? lastNewline
    }
}
