// SPDX-License-Identifier: Apache-2.0
import Foundation

/// One byte range of a large file, planned so that another thread, process
/// or machine can read its elements on its own.
///
/// A plan cuts a file — a root array, the array at a key path, an object's
/// member values (`.objectValues`), or JSON Lines — into `count` byte
/// ranges. A piece holds the elements whose first byte lies in its range.
/// Every element belongs to exactly one piece, and the pieces' elements,
/// taken in order, are the file's, for any ranges: a range may start inside
/// a string or a number, lie inside one element, or hold no element's start
/// at all (its piece is empty).
///
/// Where a range starts inside a string cannot be told from its bytes, so a
/// plan is made in three steps, each cheap to hand to another machine
/// (a piece is `Codable`):
///
/// ```swift
/// // 1. On one machine: the ranges (reads the file's start only).
/// let plan = try decoder.planPieces(count: 64, ofContentsOf: url, at: ["items"])
/// // 2. Anywhere, one piece each: a scan of its range, in both cases.
/// let scanned = try plan.map { try $0.scanned(contentsOf: url) }
/// // 3. On one machine: where each range starts, from the scans before it.
/// let pieces = try JSONPiece.joined(scanned)
/// // Then anywhere, one piece each:
/// for try await item in decoder.elements(of: Item.self, contentsOf: url, piece: pieces[7]) { … }
/// ```
///
/// ``StreamingJSONDecoder/pieces(count:ofContentsOf:at:format:)`` does the
/// three steps on one machine. A worker reads its own range, the element
/// that straddles its end, and — when it scans — its range once more; never
/// the file from its start.
///
/// A compressed file cannot be read from the middle, nor can an input whose
/// shape a plan cannot cut (comments allowed, nothing of the format's shape
/// at the key path in the first 64 MiB): its first piece is the whole input,
/// the others are empty, and ``wholeInputReason`` says why.
public struct JSONPiece: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The piece's place in the plan: 0, 1, …, `count - 1`, in input order.
    public let index: Int
    /// How many pieces the plan has.
    public let count: Int
    /// The bytes of the file where this piece's elements begin.
    public let byteRange: Range<Int>
    /// The file's size when it was planned; reading a piece of a file of
    /// another size throws.
    public let inputSize: Int
    /// The key path of the array (or object) whose elements are cut (empty: the root).
    public let path: [String]
    /// How the input is cut.
    let shape: _PieceShape
    /// Where the array opens and the line breaks before it (`.array`).
    let header: _PieceHeader?
    /// What a scan of the range found (`scanned(contentsOf:)`).
    var tally: _RangeTally?
    /// Where the range starts (`joined(_:)`).
    var entry: _PieceEntry?

    init(index: Int, count: Int, byteRange: Range<Int>, inputSize: Int, path: [String], shape: _PieceShape,
         header: _PieceHeader?) {
        self.index = index
        self.count = count
        self.byteRange = byteRange
        self.inputSize = inputSize
        self.path = path
        self.shape = shape
        self.header = header
    }

    /// Whether the piece can be read: it was joined with the scans before
    /// it, or the plan reads the whole input as its first piece.
    public var isReady: Bool {
        if case .whole = shape { return true }
        return entry != nil
    }

    /// Whether the piece's range was scanned (`scanned(contentsOf:)`).
    public var isScanned: Bool {
        if case .whole = shape { return true }
        return tally != nil
    }

    /// Why the plan reads the whole input as its first piece (a compressed
    /// file, a shape that cannot be cut), or nil when the input is cut.
    public var wholeInputReason: String? {
        if case .whole(let reason) = shape { return reason }
        return nil
    }

    /// `piece 3 of 8, bytes 402653184..<536870912`.
    public var description: String {
        "piece \(index) of \(count), bytes \(byteRange.lowerBound)..<\(byteRange.upperBound)"
    }

    private enum CodingKeys: String, CodingKey {
        case index, count, start, end, size, path, shape, reason, header, tally, entry
    }

    /// Decodes a piece that a plan encoded.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        index = try container.decode(Int.self, forKey: .index)
        count = try container.decode(Int.self, forKey: .count)
        let start = try container.decode(Int.self, forKey: .start), end = try container.decode(Int.self, forKey: .end)
        inputSize = try container.decode(Int.self, forKey: .size)
        guard count > 0, (0..<count).contains(index), start >= 0, start <= end, end <= inputSize else {
            throw DecodingError.dataCorrupted(.init(codingPath: container.codingPath,
                                                    debugDescription: "Not a piece of a plan: index, range or size out of place"))
        }
        byteRange = start..<end
        path = try container.decodeIfPresent([String].self, forKey: .path) ?? []
        switch try container.decode(String.self, forKey: .shape) {
        case "array": shape = .array
        case "object": shape = .object
        case "lines": shape = .lines
        case "whole": shape = .whole(try container.decodeIfPresent(String.self, forKey: .reason) ?? "")
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .shape, in: container,
                                                   debugDescription: "Unknown piece shape \"\(other)\"")
        }
        header = try container.decodeIfPresent(_PieceHeader.self, forKey: .header)
        if shape.isContainer, header == nil {
            throw DecodingError.keyNotFound(CodingKeys.header, .init(codingPath: container.codingPath,
                                                                     debugDescription: "An array's piece has a header"))
        }
        tally = try container.decodeIfPresent(_RangeTally.self, forKey: .tally)
        entry = try container.decodeIfPresent(_PieceEntry.self, forKey: .entry)
    }

    /// Encodes the piece: a small object, cheap to send to a worker.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
        try container.encode(count, forKey: .count)
        try container.encode(byteRange.lowerBound, forKey: .start)
        try container.encode(byteRange.upperBound, forKey: .end)
        try container.encode(inputSize, forKey: .size)
        if !path.isEmpty { try container.encode(path, forKey: .path) }
        switch shape {
        case .array: try container.encode("array", forKey: .shape)
        case .object: try container.encode("object", forKey: .shape)
        case .lines: try container.encode("lines", forKey: .shape)
        case .whole(let reason):
            try container.encode("whole", forKey: .shape)
            try container.encode(reason, forKey: .reason)
        }
        try container.encodeIfPresent(header, forKey: .header)
        try container.encodeIfPresent(tally, forKey: .tally)
        try container.encodeIfPresent(entry, forKey: .entry)
    }
}

/// How a plan cuts its input.
enum _PieceShape: Hashable, Sendable {
    /// The elements of the root array or of the array at the path.
    case array
    /// The member values of the object at the path (or the root's).
    case object
    /// Top-level values (JSON Lines).
    case lines
    /// Not cut: the first piece is the whole input, for this reason.
    case whole(String)
}

/// Where a cut array (or object) opens.
struct _PieceHeader: Hashable, Sendable, Codable {
    /// The offset of the array's `[` (the object's `{`).
    var bracket: Int
    /// Line breaks before the bracket, and the offset of the last one.
    var newlines: Int
    var lastNewline: Int?
}

/// The state of the input where a piece's range (or its part after the
/// array's bracket) starts, worked out from the scans of the ranges before.
struct _PieceEntry: Hashable, Sendable, Codable {
    /// The range starts just after an unescaped backslash.
    var escaped: Bool
    var inString: Bool
    /// Containers open beyond the array's inside (0: between its elements).
    var depth: Int
    /// The array closed before the range (or the range is before it opens):
    /// the piece has no elements.
    var outside: Bool
    var newlines: Int
    var lastNewline: Int?
    /// The index of the piece's first element in the whole stream, when
    /// known (an array's; a JSON Lines value's only for the first piece).
    var firstIndex: Int?
}

/// What planning or reading a piece found wrong with the request: a piece
/// not ready, pieces of different plans, a file that changed since it was
/// planned, a count out of range.
public struct JSONPieceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, in a sentence.
    public let message: String

    package init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
