// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// UTF-8 forms that yajl's lexer lets through (it checks only a sequence's
/// shape) are errors at the byte that shows them, whatever the chunking, as
/// they are in Foundation's JSONDecoder; before, Swift turned them into U+FFFD.
@Suite struct StrictUTF8Tests {
    static let chunkSizes = [1, 2, 3, 5, 64, Int.max]

    private func error(_ bytes: [UInt8], chunk: Int, pipelined: Bool = false) -> JSONSyntaxError? {
        do {
            _ = pipelined ? try Engine.decodePipelined(AnyJSON.self, Data(bytes), chunk: chunk)
                          : try Engine.decode(AnyJSON.self, Data(bytes), chunk: chunk)
        } catch let DecodingError.dataCorrupted(context) {
            return context.underlyingError as? JSONSyntaxError
        } catch {}
        return nil
    }

    /// `["ab` + the sequence + `"]`: the offset is that of the first byte no
    /// valid UTF-8 has there (a lead byte that never begins a valid
    /// sequence, or the byte after the lead).
    @Test(arguments: [
        ([0xC0, 0x80], 4, "an overlong encoding"),              // U+0000 in two bytes
        ([0xC1, 0xBF], 4, "an overlong encoding"),
        ([0xE0, 0x9F, 0xBF], 5, "an overlong encoding"),        // U+07FF in three bytes
        ([0xF0, 0x8F, 0xBF, 0xBF], 5, "an overlong encoding"),  // U+FFFF in four bytes
        ([0xED, 0xA0, 0x80], 5, "an encoded UTF-16 surrogate"), // U+D800
        ([0xED, 0xBF, 0xBF], 5, "an encoded UTF-16 surrogate"), // U+DFFF
        ([0xF4, 0x90, 0x80, 0x80], 5, "a code point past U+10FFFF"),
        ([0xF5, 0x80, 0x80, 0x80], 4, "a code point past U+10FFFF"),
        ([0xF7, 0xBF, 0xBF, 0xBF], 4, "a code point past U+10FFFF"),
    ] as [([UInt8], Int, String)])
    func refusedForms(sequence: [UInt8], offset: Int, reason: String) {
        let document = Array(#"["ab"#.utf8) + sequence + Array(#"z"]"#.utf8)
        for chunk in Self.chunkSizes {
            for pipelined in [false, true] {
                let found = error(document, chunk: chunk, pipelined: pipelined)
                #expect(found?.byteOffset == offset, "chunk \(chunk) pipelined \(pipelined): \(String(describing: found))")
                #expect(found?.message.hasPrefix("Invalid UTF-8: \(reason)") == true, "chunk \(chunk): \(String(describing: found))")
            }
        }
    }

    /// The sequences at the edges of each refused range are valid and decode
    /// to their code points, however they are split.
    @Test func edgesOfTheValidRangesDecode() throws {
        let cases: [([UInt8], String)] = [
            ([0xC2, 0x80], "\u{80}"), ([0xDF, 0xBF], "\u{7FF}"),
            ([0xE0, 0xA0, 0x80], "\u{800}"), ([0xED, 0x9F, 0xBF], "\u{D7FF}"),
            ([0xEE, 0x80, 0x80], "\u{E000}"), ([0xEF, 0xBF, 0xBF], "\u{FFFF}"),
            ([0xF0, 0x90, 0x80, 0x80], "\u{10000}"), ([0xF4, 0x8F, 0xBF, 0xBF], "\u{10FFFF}"),
        ]
        for (sequence, expected) in cases {
            let document = Data(Array(#"[""#.utf8) + sequence + Array(#"",{""#.utf8) + sequence + Array(#"":1}]"#.utf8))
            for chunk in Self.chunkSizes {
                let value = try Engine.decode(JSONValue.self, document, chunk: chunk)
                #expect(value == .array([.string(expected), .object([expected: .number(JSONNumber(1))])]),
                        "\(sequence) chunk \(chunk)")
            }
        }
    }

    /// A syntax error before the bad sequence is the one reported.
    @Test func anEarlierSyntaxErrorWins() {
        #expect(error(Array(#"[1 2, ""#.utf8) + [0xC0, 0x80, 0x22, 0x5D], chunk: .max)?.byteOffset == 3)
    }

    /// Keys are checked as strings are, and so are bytes outside strings.
    @Test func keysAndBytesOutsideStrings() {
        #expect(error(Array(#"{"k"#.utf8) + [0xED, 0xB0, 0x80] + Array(#"":1}"#.utf8), chunk: 2)?.byteOffset == 4)
        #expect(error(Array("[1,".utf8) + [0xC0, 0x5D], chunk: 1)?.byteOffset == 3)
    }

    /// The JSONTestSuite files of this kind, which yajl alone accepted.
    @Test(arguments: ["i_string_UTF8_surrogate_U+D800.json", "i_string_not_in_unicode_range.json",
                      "i_string_overlong_sequence_2_bytes.json"])
    func implementationDefinedFilesAreRefused(_ name: String) throws {
        let data = try Data(contentsOf: JSONTestSuiteTests.directory.appendingPathComponent(name))
        for chunk in Self.chunkSizes {
            #expect(error(Array(data), chunk: chunk)?.message.hasPrefix("Invalid UTF-8: ") == true, "chunk \(chunk)")
        }
    }

    /// JSON Lines report the line and go on with the next.
    @Test func jsonLinesGoOn() throws {
        let lines = Data(Array("\"a\"\n\"".utf8) + [0xF0, 0x80, 0x80, 0x80] + Array("\"\n\"b\"\n".utf8))
        for chunk in [1, 3, Int.max] {
            let feed = JSONElementFeed(of: String.self, format: .jsonLines)
            var seen: [String] = []
            var offset = 0
            while offset < lines.count {
                let piece = lines[offset..<min(lines.count, offset + chunk)]
                offset += piece.count
                do { seen += try feed.feed(piece) } catch { seen.append("error") }
            }
            // The feed returns the elements before an error and throws it on the next call.
            while true {
                do {
                    let more = try feed.finish()
                    if more.isEmpty { break }
                    seen += more
                } catch { seen.append("error") }
            }
            #expect(seen == ["a", "error", "b"], "chunk \(chunk)")
        }
    }
}
