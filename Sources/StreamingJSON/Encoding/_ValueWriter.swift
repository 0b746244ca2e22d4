// SPDX-License-Identifier: Apache-2.0
/// Encodes values one at a time and writes each to the output: the engine
/// behind `encode(_:)`, `encode(_:to:)` and `JSONStreamWriter`.
///
/// Each value is first written straight into the output by
/// `_DirectEncoding`; a value that fills its containers out of order (or
/// anything else the direct writer cannot do exactly as the tape would) is
/// dropped from the output and encoded again into the reused tape, which is
/// then written. With `.sortedKeys` every value goes through the tape.
///
/// A root-level array is written element by element, as `JSONStreamWriter`
/// writes, so `encode([Record])` never holds more than one element's tape
/// (and `encode(_:to:)` of an array streams in constant memory).
struct _ValueWriter {
    let tape = _EncodingTape()
    let context: _EncodingContext
    var writer: _JSONWriter
    let output: _JSONOutput
    let direct: _DirectEncoding?
    /// Lets `direct` reuse keyed containers for as long as this writer lives.
    private let shelfScope: _ContainerShelfScope?

    init(options: _EncodingOptions, output: _JSONOutput, compact: Bool = false) {
        context = _EncodingContext(tape: tape, options: options)
        writer = _JSONWriter(options: options, tape: tape, compact: compact)
        self.output = output
        if options.outputFormatting.contains(.sortedKeys) || options.forcesTape {
            direct = nil
        } else {
            direct = _DirectEncoding(options: options, output: output, pretty: writer.pretty)
        }
        shelfScope = direct?.shelfScope()
    }

    var pretty: Bool { writer.pretty }

    /// Encodes `value` as a whole document: a root array element by element.
    mutating func writeDocument<T: Encodable>(_ value: T) throws {
        if let array = value as? any _RootArray {
            try array._writeElements(with: &self)
        } else {
            try writeValue(value, isElement: false, indent: 0, index: -1, flushes: true)
        }
    }

    /// Encodes `value` and writes it at the end of the output; when it
    /// throws, the output is as it was. `index` is the value's index in a
    /// root array whose coding paths start with it, or -1.
    mutating func writeValue<T: Encodable>(_ value: T, isElement: Bool, indent: Int, index: Int, flushes: Bool) throws {
        let mark = unsafe output.count
        if let direct {
            do {
                try direct.encodeRoot(value, isElement: isElement, indent: indent, index: index)
                if !direct.needsTape { return }
            } catch {
                if !direct.needsTape {
                    unsafe output.truncate(to: mark)
                    throw error
                }
            }
            unsafe output.truncate(to: mark)
        }
        try encode(value, path: index >= 0 ? _CodingPathNode.root.appending(index: index) : .root, isElement: isElement)
        writer.flushes = flushes
        try writer.write(tape.root, depth: indent, into: output)
    }

    /// Encodes `value` into the emptied tape. A value that encodes nothing is
    /// an error at the top level, and `{}` as an array element (Foundation).
    func encode<T: Encodable>(_ value: T, path: _CodingPathNode, isElement: Bool) throws {
        tape.reset()
        let root = tape.appendEmptyNode()
        try _TapeEncoder.encode(value, into: root, context: context, path: path, depth: isElement ? 1 : 0)
        if let misuse = tape.misuse { throw misuse }
        if !isElement, unsafe tape.nodes[Int(root)].kind == .empty {
            throw EncodingError.invalidValue(value, .init(
                codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
    }

    /// Writes the element at `index` of a root array, after the `[` or `,`
    /// before it; its coding paths start with the index, as Foundation's do
    /// for an encoded array. When it throws, nothing of it is written.
    mutating func writeElement<T: Encodable>(_ value: T, index: Int, pathIndex: Int) throws {
        let mark = unsafe output.count
        output.writeByte(index == 0 ? UInt8(ascii: "[") : UInt8(ascii: ","))
        if pretty { output.writeNewline(indent: 1) }
        do {
            try writeValue(value, isElement: true, indent: pretty ? 1 : 0, index: pathIndex, flushes: false)
        } catch {
            unsafe output.truncate(to: mark)
            throw error
        }
    }

    /// Writes `value` as one JSON Lines value and its newline; when it
    /// throws, nothing of it is written.
    mutating func writeLine<T: Encodable>(_ value: T) throws {
        try writeValue(value, isElement: false, indent: 0, index: -1, flushes: false)
        output.writeByte(UInt8(ascii: "\n"))
    }

    /// Closes a root array of `count` elements: `]`, or the whole empty
    /// array when there were none.
    func closeArray(count: Int) {
        if count == 0 {
            output.writeByte(UInt8(ascii: "["))
            if pretty { output.writeByte(UInt8(ascii: "\n")); output.writeByte(UInt8(ascii: "\n")) }
        } else if pretty {
            output.writeByte(UInt8(ascii: "\n"))
        }
        output.writeByte(UInt8(ascii: "]"))
    }
}

/// A root-level array, written element by element.
protocol _RootArray {
    func _writeElements(with writer: inout _ValueWriter) throws
}

extension Array: _RootArray where Element: Encodable {
    func _writeElements(with writer: inout _ValueWriter) throws {
        for index in indices {
            try writer.writeElement(self[index], index: index, pathIndex: index)
            try writer.output.flushIfNeeded()
        }
        writer.closeArray(count: count)
    }
}
