// SPDX-License-Identifier: Apache-2.0
import Foundation
import StreamingJSON
import Testing

/// `_ValueReader.writeLastElement` copying an element's input text when it
/// is already the compact writing (a piece keeps its bytes): the same bytes
/// as the built value written, and a copy exactly when the text is that
/// writing.
@Suite("Element text copied as output")
struct VerbatimTextTests {
    /// More members than the key check holds on the stack.
    static let manyKeys = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
    /// An object of 100 keys that `verbatim.c`'s hash puts in one slot (made
    /// for its multiplier: the second eight bytes undo the first's
    /// product), too large for the small pieces above.
    static let crowdedKeys: String = {
        var state: UInt64 = 88_172_645_463_325_252
        var members: [String] = []
        while members.count < 100 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            let first = (0..<8).map { UInt8(ascii: "a") + UInt8((state >> ($0 * 5)) % 26) }
            let word = first.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            let second = withUnsafeBytes(of: (0x4141_4141_4141_4141 ^ (word &* 0xFF51_AFD7_ED55_8CCD)).littleEndian) {
                Array($0)
            }
            guard second.allSatisfy({ (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
            else { continue }
            members.append("\"\(String(decoding: first + second, as: UTF8.self))\":\(members.count)")
        }
        return "{" + members.joined(separator: ",") + "}"
    }()
    /// Text that is its own compact writing: copied.
    static let verbatim = [
        #"{"id":1,"name":"Pale Ale","tags":["a","b"],"n":{"x":[1,2.5,-0]},"e":{},"f":[]}"#,
        // Keys told apart only by their length, their middle bytes, or each other's empty key.
        #"{"":1,"a":2,"aa":3,"middle-byte-A-differs":4,"middle-byte-B-differs":5}"#, "{\(manyKeys)}",
        "{\"s\":\"x/é 🎉 \u{2028}\",\"big\":100000000000000000000000000001,\"t\":1.000,\"ok\":true,\"no\":false,\"z\":null}",
        #"[1,[2,[3,[]]],{"k":"v"}]"#, "[]", "{}", #""a string""#, "42", "-0.5", "true", "null",
        #"{"a key longer than sixteen bytes":"a value longer than sixteen bytes too"}"#,
        // Escapes as jq writes them.
        #"{"a":1,"b":"tab\t","c":"q\"\\ \b\f\n\r","d":"\u0000\u001b\u007f"}"#, #"["\n"]"#, #""end\"""#,
    ]
    /// Text that the writing changes: written from the tape or the value.
    static let rewritten = [
        #"{"a": 1}"#, #"{"a": "\n"}"#, #"["\t" ]"#, #"{ "a":1}"#, #"{"a":1 }"#, #"[1, 2]"#, #"[1,2 ]"#, "[ ]",
        #"{"a":"\/"}"#, #"{"a":"\u00e9"}"#, #"["\u001B"]"#, #"["\u007F"]"#, #"["\u000a"]"#, #"["\u0008"]"#,
        #"["\u0041"]"#, #"{"k":"\ud83c\udf7a"}"#, #"{"k\u0022":1}"#, #""\u0022""#,
        "{\"a\":\"x\u{7F}y\"}",  // DEL, raw
        #"{"a":1,"a":2}"#, #"{"o":{"k":1,"k":[2]}}"#, #"{"":1,"":2}"#, "{\(manyKeys),\"k7\":0}",
        #"{"middle-byte-A-differs":1,"x":0,"middle-byte-A-differs":2}"#,
        "[1E2]", #"{"n":1e5}"#, "0.00000001", #"{"n":-1.5E-3}"#,
    ]

    private struct Reading {
        var copied = 0
        var elements = 0
        var problems: [String] = []
    }

    /// Reads `text` in pieces of `pieceSize`, writing each element with
    /// `writeLastElement` and, for comparison, its built value.
    private func read(_ text: String, format: JSONStreamFormat, pieceSize: Int, style: JQOutputStyle) throws -> Reading {
        let splitter = _PieceSplitter(data: Data(text.utf8), format: format, pieceSize: pieceSize)
        #expect(try splitter.prepare())
        let writer = _JQWriter(style: style)
        var reading = Reading()
        while let piece = try splitter.next() {
            let reader = _ValueReader(piece: piece)
            while case .value(let value) = reader.next() {
                var copied: [UInt8] = []
                reader.writeLastElement(with: writer, level: 0, into: &copied)
                var built: [UInt8] = []
                writer.write(value, into: &built)
                if copied != built {
                    reading.problems.append("\(String(decoding: copied, as: UTF8.self)) != \(String(decoding: built, as: UTF8.self))")
                }
                reading.elements += 1
            }
            reading.copied += reader.elementsCopied
        }
        #expect(!splitter.gaveUp)
        return reading
    }

    @Test("JSON Lines and arrays in pieces: copied only where the text is the writing, always the same bytes",
          arguments: [16, 64, 1 << 20])
    func copiedWhereTheTextIsTheWriting(pieceSize: Int) throws {
        let lines = Self.verbatim + Self.rewritten
        let inputs: [(String, JSONStreamFormat)] = [
            (lines.joined(separator: "\n") + "\n", .jsonLines),
            ("[\n" + lines.joined(separator: ",\n") + "\n]\n", .array),
            ("[" + lines.joined(separator: ",") + "]", .array),
        ]
        for (text, format) in inputs {
            let reading = try read(text, format: format, pieceSize: pieceSize, style: JQOutputStyle())
            #expect(reading.problems.isEmpty, "\(format) \(pieceSize): \(reading.problems)")
            #expect(reading.elements == lines.count)
            // Numbers, booleans and null are written from the tape, not copied.
            let copyable = Self.verbatim.filter { $0.first == "{" || $0.first == "[" || $0.first == "\"" }
            #expect(reading.copied == copyable.count, "\(format) \(pieceSize)")
        }
    }

    @Test("Keys crowded into one hash slot: the key check gives up, and the object is built, not copied")
    func crowdedKeysAreBuilt() throws {
        let reading = try read(Self.crowdedKeys + "\n", format: .jsonLines, pieceSize: 1 << 20, style: JQOutputStyle())
        #expect(reading.problems.isEmpty, "\(reading.problems)")
        #expect(reading.elements == 1)
        // Distinct keys whose check ran to the end would have been copied.
        #expect(reading.copied == 0)
    }

    @Test("Pretty or ASCII-only output is written from the tape, never copied", arguments: [
        JQOutputStyle(indent: 2), JQOutputStyle(tabs: true), JQOutputStyle(asciiOnly: true),
    ])
    func otherStylesAreWritten(style: JQOutputStyle) throws {
        let text = Self.verbatim.joined(separator: "\n") + "\n"
        let reading = try read(text, format: .jsonLines, pieceSize: 64, style: style)
        #expect(reading.problems.isEmpty, "\(reading.problems)")
        #expect(reading.elements == Self.verbatim.count)
        #expect(reading.copied == 0)
    }

    @Test("Sorted keys and colours are neither copied nor written from the tape")
    func builtStyles() {
        for style in [JQOutputStyle(sortsKeys: true), JQOutputStyle(colors: true)] {
            #expect(!_JQWriter(style: style).writesVerbatim)
        }
        #expect(_JQWriter(style: JQOutputStyle()).writesVerbatim)
    }
}
