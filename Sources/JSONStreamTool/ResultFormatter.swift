// SPDX-License-Identifier: Apache-2.0
import StreamingJSON

/// Turns each result into output bytes, as jq prints it, or as a table row
/// or nothing at all (`--count`). Appends to the caller's buffer: no
/// allocation per result in the common layouts.
struct ResultFormatter {
    private enum Kind {
        /// JSON values (raw strings with `-r`), one per line unless `-j`.
        case values
        /// One JSON array; `indentUnit` is set when its elements are pretty.
        case array(indentUnit: [UInt8]?)
        case table(TableWriter)
        /// Nothing per result; the count at the end.
        case count
    }

    private var kind: Kind
    private let writer: _JQWriter
    private let raw: Bool
    /// What ends each result: a newline, NUL (`--raw-output0`) or nothing (`-j`).
    private let terminator: UInt8?
    /// `--seq`: RS before each result.
    private let seq: Bool
    private(set) var resultCount = 0
    private var scratch: [UInt8] = []

    /// - Parameters:
    ///   - color: resolved (`-C`/`-M`, or whether stdout is a terminal).
    ///   - palette: the colours, from `JQ_COLORS` or jq's defaults.
    init(options: JSONStreamOptions, color: Bool, palette: JQColorPalette = .jqDefault) {
        var style = JQOutputStyle(sortsKeys: options.sortKeys, asciiOnly: options.asciiOutput, colors: color)
        style.palette = palette
        if options.tab {
            style.tabs = true
        } else if let indent = options.indent {
            style.indent = indent
            // jq 1.8.2 keeps the line breaks at --indent 0 (only -c is compact).
            style.breaksLines = indent == 0 && options.jqMode && options.layout == .pretty
        } else if options.layout == .pretty {
            style.indent = 2
        }
        writer = _JQWriter(style: style)
        raw = options.rawOutput || options.joinOutput || options.rawOutput0
        terminator = options.rawOutput0 ? 0 : options.joinOutput ? nil : 0x0A
        seq = options.seq
        if options.count {
            kind = .count
        } else if let table = options.table {
            kind = .table(TableWriter(format: table, columns: options.columns, sortsKeys: options.sortKeys))
        } else if options.layout == .array {
            let unit: [UInt8]? = style.tabs ? [0x09] : style.indent > 0 ? Array(repeating: 0x20, count: style.indent) : nil
            kind = .array(indentUnit: unit)
        } else {
            kind = .values
        }
    }

    /// A result the chosen output cannot write: reported as a runtime
    /// error of its element.
    enum Problem: Error, CustomStringConvertible {
        /// `--csv`/`--tsv` and a value that is not an object or array.
        case notARow(JSONValue)
        /// `--raw-output0` and a string holding NUL.
        case nulInRawOutput0

        var description: String {
            switch self {
            case .notARow(let value):
                return "--csv and --tsv write objects and arrays as rows; cannot write \(value.typeName) (\(abbreviated(value)))"
            case .nulInRawOutput0:
                return "Cannot dump a string containing NUL with --raw-output0 option"
            }
        }
    }

    /// Appends `value`. Throws `Problem` for a value that cannot be a row,
    /// or a string holding NUL with `--raw-output0`.
    @inline(__always)
    mutating func append(_ value: JSONValue, into bytes: inout [UInt8]) throws {
        switch kind {
        case .values:
            if seq { bytes.append(0x1E) }
            if terminator == 0, case .string(let string) = value, string.utf8.contains(0) {
                throw Problem.nulInRawOutput0
            }
            if raw, case .string(let string) = value {
                if writer.style.asciiOnly {
                    // jq prints `-r -a` strings quoted and escaped.
                    writer.writeString(string, into: &bytes)
                } else {
                    var string = string
                    string.withUTF8 { unsafe bytes.append(contentsOf: $0) }
                }
            } else {
                writer.write(value, into: &bytes)
            }
            if let terminator { bytes.append(terminator) }
        case .array(let unit):
            let writer = self.writer
            return appendArrayElement(unit: unit, into: &bytes) {
                writer.write(value, into: &$0)
                return true
            }
        case .table(var table):
            kind = .count  // hand the writer's buffers over instead of copying them
            defer { kind = .table(table) }
            try table.write(value, into: &bytes)
        case .count:
            break
        }
        resultCount += 1
    }

    /// One element of the array (`--output array`): the opening bracket or a
    /// comma, then what `write` writes at level 0, nested one level when the
    /// elements are pretty. Nothing, when `write` writes nothing (false).
    private mutating func appendArrayElement(unit: [UInt8]?, into bytes: inout [UInt8],
                                             write: (inout [UInt8]) -> Bool) {
        let mark = bytes.count
        bytes.append(contentsOf: resultCount == 0 ? Self.arrayOpening : Self.arraySeparator)
        guard let unit else {
            if write(&bytes) { resultCount += 1 } else { bytes.removeSubrange(mark...) }
            return
        }
        scratch.removeAll(keepingCapacity: true)
        guard write(&scratch) else { return bytes.removeSubrange(mark...) }
        resultCount += 1
        bytes.append(contentsOf: unit)
        // Nest the element one level: indent every line it spans.
        // Strings never hold a raw newline, so every LF is layout.
        for byte in scratch {
            bytes.append(byte)
            if byte == 0x0A { bytes.append(contentsOf: unit) }
        }
    }

    /// Whether elements can be written from the tape into the array
    /// (`--output array`, `copiesFromTape`).
    var writesArrayElementsFromTape: Bool {
        if case .array = kind { return true }
        return false
    }

    /// Whether a value can be written a member at a time (`--jq` copying a
    /// huge value as it reads it): plain JSON values, keys in input order.
    func writesIncrementally(isObject: Bool) -> Bool {
        guard case .values = kind else { return false }
        return !(isObject && writer.style.sortsKeys)
    }

    /// The start of a top-level array or object written a member at a time.
    mutating func beginContainer(isObject: Bool, into bytes: inout [UInt8]) {
        if seq { bytes.append(0x1E) }
        writer.beginContainer(isObject: isObject, into: &bytes)
    }

    /// One element (`key` nil) or member of the container begun.
    func appendContainerMember(_ value: JSONValue, key: String?, first: Bool, into bytes: inout [UInt8]) {
        writer.writeContainerMember(value, key: key, first: first, into: &bytes)
    }

    /// Whether members can be written from the reader's tape, never built.
    var copiesFromTape: Bool { writer.writesFromTape }

    /// The member (or element) `reader` returned last, written from its tape.
    func appendContainerMember(from reader: _ValueReader, key: String?, first: Bool, into bytes: inout [UInt8]) {
        writer.writeContainerMemberStart(key: key, first: first, into: &bytes)
        reader.writeLastElement(with: writer, level: 1, into: &bytes)
    }

    private static let arrayOpening = [UInt8(ascii: "["), 0x0A]
    private static let arraySeparator = [UInt8(ascii: ","), 0x0A]

    /// A piece's results are made from a count of 0, as if they were the
    /// first, for the main thread to join: with `--output array`, the first
    /// one opens the array (see `pieceOpening`); in a table, the header is
    /// marked, not written, and the columns are checked (`TableWriter`).
    mutating func beginPiece() {
        resultCount = 0
        if case .table(var table) = kind {
            table.beginPiece()
            kind = .table(table)
        }
    }

    /// A table's piece (`beginPiece`): whether the result just appended is
    /// where the header goes, and the keys its first object set the columns
    /// to, if any.
    mutating func takeTableHeaderMark() -> (marked: Bool, pieceKeys: [String]?) {
        guard case .table(var table) = kind else { return (false, nil) }
        defer { kind = .table(table) }
        return (table.takeHeaderMark(), table.pieceKeys)
    }

    /// Whether a piece's table rows, made with the columns its first object
    /// set, are the rows this formatter makes (true but for a table).
    func agreesWithTablePiece(keys: [String]?) -> Bool {
        guard case .table(let table) = kind else { return true }
        return table.agrees(withPieceKeys: keys)
    }

    /// The header where a piece marked it, unless written already.
    mutating func appendMarkedTableHeader(pieceKeys keys: [String]?, into bytes: inout [UInt8]) {
        guard case .table(var table) = kind else { return }
        table.writeMarkedHeader(pieceKeys: keys, into: &bytes)
        kind = .table(table)
    }

    /// What is to replace the opening bytes of a piece's results, whose
    /// first result opened the array as if it were the first of all, when
    /// results came before it: the separator (the same length).
    var pieceOpening: [UInt8]? {
        guard case .array = kind, resultCount > 0 else { return nil }
        return Self.arraySeparator
    }

    /// Results made and written apart (a piece's), counted as if appended here.
    mutating func addResultsMadeApart(_ count: Int) {
        resultCount += count
    }

    /// The output `layout` makes of the value `reader` returned last,
    /// written from its tape as one result (not with `--raw-output0`, whose
    /// check for NUL is `append(_:into:)`'s): whether it is `false` or
    /// `null`; nil, with nothing written, when the filter is to run on the
    /// value instead (`_ValueReader.MemberWriting.needsFilter`).
    mutating func append(members layout: _MemberLayout, from reader: _ValueReader, into bytes: inout [UInt8]) -> Bool? {
        if case .array(let unit) = kind {
            let writer = self.writer
            var isFalseOrNull: Bool?
            appendArrayElement(unit: unit, into: &bytes) {
                guard case .written(let written) = reader.writeLastElementMembers(
                    layout, with: writer, level: 0, rawStrings: false, into: &$0) else { return false }
                isFalseOrNull = written
                return true
            }
            return isFalseOrNull
        }
        let mark = bytes.count
        if seq { bytes.append(0x1E) }
        // jq prints `-r -a` strings quoted and escaped.
        let rawStrings = raw && !writer.style.asciiOnly
        guard case .written(let isFalseOrNull) = reader.writeLastElementMembers(
            layout, with: writer, level: 0, rawStrings: rawStrings, into: &bytes) else {
            bytes.removeSubrange(mark...)
            return nil
        }
        if let terminator { bytes.append(terminator) }
        resultCount += 1
        return isFalseOrNull
    }

    /// Whether nothing is written per result (`--count`).
    var countsOnly: Bool {
        if case .count = kind { return true }
        return false
    }

    /// The value `reader` returned last, written from its tape as one result.
    mutating func append(from reader: _ValueReader, into bytes: inout [UInt8]) {
        if countsOnly {
            resultCount += 1
            return
        }
        if case .array(let unit) = kind {
            let writer = self.writer
            return appendArrayElement(unit: unit, into: &bytes) {
                reader.writeLastElement(with: writer, level: 0, into: &$0)
                return true
            }
        }
        if seq { bytes.append(0x1E) }
        reader.writeLastElement(with: writer, level: 0, into: &bytes)
        if let terminator { bytes.append(terminator) }
        resultCount += 1
    }

    /// The end of the container: one result.
    mutating func endContainer(isObject: Bool, isEmpty: Bool, into bytes: inout [UInt8]) {
        writer.endContainer(isObject: isObject, isEmpty: isEmpty, into: &bytes)
        if let terminator { bytes.append(terminator) }
        resultCount += 1
    }

    /// Appends what ends the output: the array's closing bracket, a table's
    /// header when no row came, or the count.
    mutating func finish(into bytes: inout [UInt8]) {
        switch kind {
        case .values:
            break
        case .array:
            bytes.append(contentsOf: resultCount == 0 ? Array("[]\n".utf8) : Array("\n]\n".utf8))
        case .table(var table):
            table.finish(into: &bytes)
            kind = .table(table)
        case .count:
            bytes.append(contentsOf: "\(resultCount)\n".utf8)
        }
    }
}
