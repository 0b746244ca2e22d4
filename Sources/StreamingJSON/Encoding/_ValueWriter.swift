/// Encodes values one at a time into a reused tape and writes each out: the
/// engine behind `encode(_:)`, `encode(_:to:)` and `JSONStreamWriter`.
///
/// A root-level array is written element by element, as `JSONStreamWriter`
/// writes, so `encode([Record])` holds one element's tape at a time instead
/// of the whole document's (and `encode(_:to:)` of an array streams in
/// constant memory).
struct _ValueWriter {
    let tape = _EncodingTape()
    let context: _EncodingContext
    var writer: _JSONWriter

    init(options: _EncodingOptions, compact: Bool = false) {
        context = _EncodingContext(tape: tape, options: options)
        writer = _JSONWriter(options: options, tape: tape, compact: compact)
    }

    var pretty: Bool { writer.pretty }

    /// Encodes `value` as a whole document: a root array element by element.
    mutating func writeDocument<T: Encodable>(_ value: T, into output: inout _JSONOutput) throws {
        if let array = value as? any _RootArray {
            try array._writeElements(with: &self, into: &output)
        } else {
            try encode(value, path: .root, isElement: false)
            try writer.write(tape.root, depth: 0, into: &output)
        }
    }

    /// Encodes `value` into the emptied tape. A value that encodes nothing is
    /// an error at the top level, and `{}` as an array element (Foundation).
    func encode<T: Encodable>(_ value: T, path: _CodingPathNode, isElement: Bool) throws {
        tape.reset()
        let root = tape.appendEmptyNode()
        try _TapeEncoder.encode(value, into: root, context: context, path: path, depth: isElement ? 1 : 0)
        if let misuse = tape.misuse { throw misuse }
        if !isElement, tape.nodes[Int(root)].kind == .empty {
            throw EncodingError.invalidValue(value, .init(
                codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
    }

    /// Encodes and writes the element at `index` of a root array; its coding
    /// paths start with the index, as Foundation's do for an encoded array.
    mutating func writeElement<T: Encodable>(_ value: T, index: Int, into output: inout _JSONOutput) throws {
        try encode(value, path: _CodingPathNode.root.appending(index: index), isElement: true)
        try writeElement(index: index, into: &output)
    }

    /// Writes the encoded value as the element at `index` of a root array,
    /// after the `[` or `,` before it.
    mutating func writeElement(index: Int, into output: inout _JSONOutput) throws {
        output.bytes.append(UInt8(ascii: index == 0 ? "[" : ","))
        if pretty { output.bytes.append(contentsOf: [UInt8(ascii: "\n"), 0x20, 0x20]) }
        try writer.write(tape.root, depth: pretty ? 1 : 0, into: &output)
        try output.flushIfNeeded()
    }

    /// Writes the encoded value as one JSON Lines value and its newline.
    mutating func writeLine(into output: inout _JSONOutput) throws {
        try writer.write(tape.root, depth: 0, into: &output)
        output.bytes.append(UInt8(ascii: "\n"))
        try output.flushIfNeeded()
    }

    /// Closes a root array of `count` elements: `]`, or the whole empty
    /// array when there were none.
    func closeArray(count: Int, into output: inout _JSONOutput) {
        if count == 0 {
            output.bytes.append(UInt8(ascii: "["))
            if pretty { output.bytes.append(contentsOf: [UInt8(ascii: "\n"), UInt8(ascii: "\n")]) }
        } else if pretty {
            output.bytes.append(UInt8(ascii: "\n"))
        }
        output.bytes.append(UInt8(ascii: "]"))
    }
}

/// A root-level array, written element by element.
protocol _RootArray {
    func _writeElements(with writer: inout _ValueWriter, into output: inout _JSONOutput) throws
}

extension Array: _RootArray where Element: Encodable {
    func _writeElements(with writer: inout _ValueWriter, into output: inout _JSONOutput) throws {
        for index in indices {
            try writer.writeElement(self[index], index: index, into: &output)
        }
        writer.closeArray(count: count, into: &output)
    }
}
