// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// Writes results as CSV or TSV rows (`--csv`, `--tsv`).
///
/// - An object becomes a row of the columns: those of `--columns` (dotted
///   paths reach nested members: `brewery.name`; a number steps into an
///   array: `scores.0`), or else the first object's keys. A missing member
///   is an empty field.
/// - An array becomes a row of its elements, as with jq's `@csv`.
/// - The header row is written before the first row, when the columns are known.
///
/// On worker threads (`beginPiece`), each piece's rows are made as if they
/// were the first, and the header is not written but marked where it
/// would go (`takeHeaderMark`): the main thread writes it once, and a
/// piece whose objects set other columns than the run's is read again.
///
/// Fields: strings as they are, numbers with their literal text, booleans as
/// `true`/`false`, null as an empty field, arrays and objects as compact
/// JSON. CSV quotes a field (RFC 4180) when it holds a comma, a quote, CR or
/// LF, doubling the quotes inside; non-ASCII text is kept as UTF-8. TSV
/// escapes backslash, tab, LF and CR as `\\`, `\t`, `\n`, `\r`, as jq's
/// `@tsv` does. Rows end with LF.
struct TableWriter {
    typealias Problem = ResultFormatter.Problem

    let format: JSONStreamOptions.TableFormat
    /// Columns as key paths, and their header names; nil until known.
    private var columns: [[String]]?
    private var headers: [String] = []
    private var wroteHeader = false
    private let sortsKeys: Bool
    /// `--columns`, as given.
    private let givenColumns: [String]?
    /// On a worker thread: the header is marked, not written.
    private var marksHeader = false
    private var headerMarked = false
    /// On a worker thread: the keys the piece's first object set the columns to.
    private(set) var pieceKeys: [String]?
    /// Compact JSON for nested values.
    private let json = _JQWriter(style: JQOutputStyle())
    private var scratch: [UInt8] = []

    init(format: JSONStreamOptions.TableFormat, columns: [String]?, sortsKeys: Bool) {
        self.format = format
        self.sortsKeys = sortsKeys
        self.givenColumns = columns
        if let columns { use(columns, given: true) }
    }

    private mutating func use(_ names: [String], given: Bool) {
        headers = names
        columns = given ? names.map { $0.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
                        : names.map { [$0] }
    }

    // MARK: In pieces

    /// On a worker thread, before a piece's rows: made as if they were the
    /// first, the header marked instead of written.
    mutating func beginPiece() {
        marksHeader = true
        headerMarked = false
        wroteHeader = false
        pieceKeys = nil
        if let givenColumns { use(givenColumns, given: true) } else { columns = nil }
    }

    /// Whether the row just written is where the header goes (once a piece).
    mutating func takeHeaderMark() -> Bool {
        defer { headerMarked = false }
        return headerMarked
    }

    /// On the main thread: whether a piece's rows, made with the columns
    /// its first object set (`pieceKeys`), are the rows this writer makes.
    func agrees(withPieceKeys keys: [String]?) -> Bool {
        guard let keys, columns != nil else { return true }
        return headers == keys
    }

    /// On the main thread, where a piece marked the header: the header,
    /// unless written already (with the piece's columns when none were set).
    mutating func writeMarkedHeader(pieceKeys keys: [String]?, into bytes: inout [UInt8]) {
        if columns == nil, let keys { use(keys, given: false) }
        writeHeaderIfNeeded(into: &bytes)
    }

    /// Appends the row for `value` (after the header, the first time).
    mutating func write(_ value: JSONValue, into bytes: inout [UInt8]) throws {
        switch value {
        case .object(let object):
            if columns == nil {
                var keys = object.keys
                if sortsKeys { keys.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
                use(keys, given: false)
                if marksHeader { pieceKeys = keys }
            }
            writeHeaderIfNeeded(into: &bytes)
            for (position, path) in columns!.enumerated() {
                if position > 0 { bytes.append(separator) }
                if let field = Self.lookup(path, in: value) { writeField(field, into: &bytes) }
            }
        case .array(let elements):
            writeHeaderIfNeeded(into: &bytes)
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes.append(separator) }
                writeField(element, into: &bytes)
            }
        default:
            throw Problem.notARow(value)
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    /// At the end: a header alone when `--columns` was given but no row came.
    mutating func finish(into bytes: inout [UInt8]) {
        writeHeaderIfNeeded(into: &bytes)
    }

    private var separator: UInt8 { format == .csv ? UInt8(ascii: ",") : UInt8(ascii: "\t") }

    private mutating func writeHeaderIfNeeded(into bytes: inout [UInt8]) {
        guard !wroteHeader, columns != nil else { return }
        wroteHeader = true
        if marksHeader { return headerMarked = true }
        for (position, name) in headers.enumerated() {
            if position > 0 { bytes.append(separator) }
            writeText(name, into: &bytes)
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    /// The value at `path`: object members by name, array elements by index.
    static func lookup(_ path: [String], in value: JSONValue) -> JSONValue? {
        var current = value
        for component in path {
            switch current {
            case .object(let object):
                guard let member = object[component] else { return nil }
                current = member
            case .array(let array):
                guard let index = Int(component), array.indices.contains(index) else { return nil }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }

    private mutating func writeField(_ value: JSONValue, into bytes: inout [UInt8]) {
        switch value {
        case .null:
            break
        case .bool(let bool):
            bytes.append(contentsOf: (bool ? "true" : "false").utf8)
        case .number(let number):
            bytes.append(contentsOf: number.description.utf8)
        case .string(let string):
            writeText(string, into: &bytes)
        case .array, .object:
            scratch.removeAll(keepingCapacity: true)
            json.write(value, into: &scratch)
            writeText(String(decoding: scratch, as: UTF8.self), into: &bytes)
        }
    }

    private func writeText(_ text: String, into bytes: inout [UInt8]) {
        switch format {
        case .csv:
            let needsQuotes = text.utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
            guard needsQuotes else {
                bytes.append(contentsOf: text.utf8)
                return
            }
            bytes.append(0x22)
            for byte in text.utf8 {
                if byte == 0x22 { bytes.append(0x22) }
                bytes.append(byte)
            }
            bytes.append(0x22)
        case .tsv:
            for byte in text.utf8 {
                switch byte {
                case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
                case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                default: bytes.append(byte)
                }
            }
        }
    }
}

/// A value for an error message: compact JSON, cut after 40 bytes.
func abbreviated(_ value: JSONValue) -> String {
    let text = value.description
    guard text.utf8.count > 40 else { return text }
    var cut = text.utf8.prefix(37)
    // Do not cut through a UTF-8 sequence.
    while let last = cut.last, last & 0xC0 == 0x80 { cut = cut.dropLast() }
    if let last = cut.last, last >= 0xC0 { cut = cut.dropLast() }
    return String(decoding: cut, as: UTF8.self) + "..."
}
