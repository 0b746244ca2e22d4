// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Writes a filled `_EncodingTape` as JSON text, in Foundation's layout:
/// compact `{"k":v,"a":[1,2]}`, or pretty with two-space indents,
/// `"k" : v`, and empty containers as `[`, a blank line, `]`.
///
/// Why not `yajl_gen`: it takes longer to generate the same bytes than
/// this writer does with the scalars already formatted (the Performance
/// article has the measurement); it would also cap nesting at 128, print
/// doubles with `%.20g` (so numbers need formatting in Swift anyway) and
/// know nothing of Foundation's pretty layout.
struct _JSONWriter {
    let tape: _EncodingTape
    let pretty: Bool
    let sortsKeys: Bool
    let escapesSlashes: Bool
    /// Whether a sink may be handed what is written so far between
    /// elements and members (false while the bytes may still be dropped).
    var flushes = true
    /// Children of the objects being written in sorted order, as a stack:
    /// each object sorts its own slice at the end and removes it when done.
    private var order: [UInt32] = []

    init(options: _EncodingOptions, tape: _EncodingTape, compact: Bool = false) {
        self.tape = tape
        self.pretty = !compact && options.outputFormatting.contains(.prettyPrinted)
        self.sortsKeys = options.outputFormatting.contains(.sortedKeys)
        self.escapesSlashes = !options.outputFormatting.contains(.withoutEscapingSlashes)
    }

    /// Writes the value at `node`; `depth` is its indent level when pretty.
    mutating func write(_ node: UInt32, depth: Int, into output: _JSONOutput) throws {
        let tape = self.tape
        unsafe try write(node, depth: depth, nodes: tape.nodes.buffer, bytes: tape.bytes.written, into: output)
    }

    private mutating func write(_ node: UInt32, depth: Int, nodes: UnsafeBufferPointer<_EncodingTape._Node>,
                                bytes: UnsafeBufferPointer<UInt8>, into output: _JSONOutput) throws {
        let value = unsafe nodes[Int(node)]
        switch value.kind {
        case .scalar:
            unsafe output.append(contentsOf: UnsafeBufferPointer(start: bytes.baseAddress! + Int(value.first),
                                                                count: Int(value.last)))
        case .array:
            guard value.count > 0 else { return writeEmpty("[", "]", depth: depth, into: output) }
            output.append(UInt8(ascii: "["))
            var child = value.first
            var isFirst = true
            while child != _EncodingTape.none {
                if !isFirst { output.append(UInt8(ascii: ",")) }
                isFirst = false
                if pretty { newline(depth + 1, into: output) }
                unsafe try write(child, depth: depth + 1, nodes: nodes, bytes: bytes, into: output)
                if flushes { try output.flushIfNeeded() }
                child = unsafe nodes[Int(child)].next
            }
            if pretty { newline(depth, into: output) }
            output.append(UInt8(ascii: "]"))
        case .object:
            guard value.count > 0 else { return writeEmpty("{", "}", depth: depth, into: output) }
            output.append(UInt8(ascii: "{"))
            if sortsKeys {
                let start = order.count
                var child = value.first
                while child != _EncodingTape.none {
                    order.append(child)
                    child = unsafe nodes[Int(child)].next
                }
                order[start...].sort { unsafe Self.keyPrecedes($0, $1, nodes: nodes, bytes: bytes) }
                for position in start..<(start + Int(value.count)) {
                    unsafe try writeMember(order[position], isFirst: position == start, depth: depth,
                                           nodes: nodes, bytes: bytes, into: output)
                }
                order.removeSubrange(start...)
            } else {
                var child = value.first
                var isFirst = true
                while child != _EncodingTape.none {
                    unsafe try writeMember(child, isFirst: isFirst, depth: depth, nodes: nodes, bytes: bytes, into: output)
                    isFirst = false
                    child = unsafe nodes[Int(child)].next
                }
            }
            if pretty { newline(depth, into: output) }
            output.append(UInt8(ascii: "}"))
        case .empty:
            // Nothing was encoded here (a `superEncoder()` never written to):
            // Foundation writes an empty object.
            writeEmpty("{", "}", depth: depth, into: output)
        }
    }

    private mutating func writeMember(_ child: UInt32, isFirst: Bool, depth: Int,
                                      nodes: UnsafeBufferPointer<_EncodingTape._Node>,
                                      bytes: UnsafeBufferPointer<UInt8>, into output: _JSONOutput) throws {
        if !isFirst { output.append(UInt8(ascii: ",")) }
        if pretty { newline(depth + 1, into: output) }
        let member = unsafe nodes[Int(child)]
        let key = unsafe UnsafeBufferPointer(rebasing: bytes[Int(member.keyStart)..<Int(member.keyStart + member.keyLength)])
        unsafe output.writeEscaped(key, escapesSlashes: escapesSlashes)
        if pretty {
            output.append(UInt8(ascii: " "))
            output.append(UInt8(ascii: ":"))
            output.append(UInt8(ascii: " "))
        } else {
            output.append(UInt8(ascii: ":"))
        }
        unsafe try write(child, depth: depth + 1, nodes: nodes, bytes: bytes, into: output)
        if flushes { try output.flushIfNeeded() }
    }

    private func writeEmpty(_ open: Unicode.Scalar, _ close: Unicode.Scalar, depth: Int, into output: _JSONOutput) {
        output.append(UInt8(ascii: open))
        if pretty {
            output.append(UInt8(ascii: "\n"))
            newline(depth, into: output)
        }
        output.append(UInt8(ascii: close))
    }

    private func newline(_ depth: Int, into output: _JSONOutput) {
        output.append(UInt8(ascii: "\n"))
        for _ in 0..<depth {
            output.append(UInt8(ascii: " "))
            output.append(UInt8(ascii: " "))
        }
    }

    /// Foundation's `.sortedKeys` order: the keys' UTF-8 bytes compared
    /// lexicographically (so `"B" < "_" < "a"` and `"a10" < "a9"`).
    private static func keyPrecedes(_ a: UInt32, _ b: UInt32, nodes: UnsafeBufferPointer<_EncodingTape._Node>,
                                    bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let left = unsafe nodes[Int(a)], right = unsafe nodes[Int(b)]
        let common = Int(min(left.keyLength, right.keyLength))
        if common > 0 {
            let order = unsafe memcmp(bytes.baseAddress! + Int(left.keyStart), bytes.baseAddress! + Int(right.keyStart), common)
            if order != 0 { return order < 0 }
        }
        return left.keyLength < right.keyLength
    }
}

