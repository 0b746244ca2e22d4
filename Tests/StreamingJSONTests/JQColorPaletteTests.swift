// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import StreamingJSON

/// `JQ_COLORS` read as jq 1.8.2 reads it (src/jv_print.c, `jq_set_colors`);
/// each spec's effect was checked against the jq 1.8.2 binary.
@Suite struct JQColorPaletteTests {
    private func codes(_ palette: JQColorPalette?) -> [String]? {
        palette?.sequences.map { String(decoding: $0.dropFirst(2).dropLast(), as: UTF8.self) }
    }

    @Test func defaultsAreJQ18s() {
        #expect(codes(.jqDefault) == ["0;90", "0;39", "0;39", "0;39", "0;32", "1;39", "1;39", "1;34"])
    }

    @Test func specsReplaceTheFirstColoursInOrder() {
        #expect(codes(JQColorPalette(jqColors: "0;31:0;32")) == ["0;31", "0;32", "0;39", "0;39", "0;32", "1;39", "1;39", "1;34"])
        #expect(codes(JQColorPalette(jqColors: "")) == codes(.jqDefault))
        #expect(codes(JQColorPalette(jqColors: "1:")) == ["1", "0;39", "0;39", "0;39", "0;32", "1;39", "1;39", "1;34"])
        // Past the eighth, the rest is ignored.
        #expect(codes(JQColorPalette(jqColors: "1:2:3:4:5:6:7:8:9:10")) == ["1", "2", "3", "4", "5", "6", "7", "8"])
    }

    @Test func otherCharactersAreRefused() {
        #expect(JQColorPalette(jqColors: "1;2;x") == nil)
        #expect(JQColorPalette(jqColors: "red") == nil)
        #expect(JQColorPalette(jqColors: "1,2") == nil)
    }
}
