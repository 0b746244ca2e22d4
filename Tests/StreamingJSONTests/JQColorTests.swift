// SPDX-License-Identifier: Apache-2.0
import Foundation
import TestSupport
import Testing
@testable import StreamingJSON

/// `_JQWriter`'s colours and `JQColorPalette(jqColors:)` against jq 1.8.2.
///
/// Every expected string here was recorded from the jq 1.8.2 binary
/// (`jq -C` with the options and `JQ_COLORS` named beside it) and pasted in
/// byte for byte; each ends with the newline jq writes after a result.
@Suite struct JQColorTests {
    /// One value of each kind, and a key: every slot of the palette.
    static let allKinds = #"[null,false,true,0,"s",{"k":[]}]"#
    /// Every kind of scalar, nested in an array in an object.
    static let sample = #"{"a":[1,null,true,"x",{}],"b":false}"#
    /// Nested and empty containers, keys out of order, an escaped string.
    static let nested = #"{"b":1,"a":{"d":[],"c":"\t"},"e":[[],[{}]]}"#

    /// What jq prints for these JSON texts: each one written with `style`,
    /// then a newline.
    private func printed(_ texts: [String], _ style: JQOutputStyle) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for text in texts {
            let value = try StreamingJSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            _JQWriter(style: style).write(value, into: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    /// What jq prints for one JSON text.
    private func printed(_ text: String, _ style: JQOutputStyle) throws -> [UInt8] {
        try printed([text], style)
    }

    /// A palette jq accepts.
    private func palette(_ spec: String) throws -> JQColorPalette {
        try #require(JQColorPalette(jqColors: spec), "jq 1.8.2 accepts \(spec.debugDescription)")
    }

    @Test func defaultColoursCompact() throws {
        // jq -C -c .
        #expect(try printed(Self.sample, JQOutputStyle(colors: true)) == Array((
            "\u{1B}[1;39m{\u{1B}[0m\u{1B}[1;34m\"a\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m\u{1B}[1;39m[\u{1B}[0m"
            + "\u{1B}[0;39m1\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;90mnull\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m"
            + "\u{1B}[0;39mtrue\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;32m\"x\"\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m"
            + "\u{1B}[1;39m{}\u{1B}[0m\u{1B}[1;39m]\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[1;34m\"b\"\u{1B}[0m"
            + "\u{1B}[1;39m:\u{1B}[0m\u{1B}[0;39mfalse\u{1B}[0m\u{1B}[1;39m}\u{1B}[0m\n").utf8))
        #expect(try printed(Self.allKinds, JQOutputStyle(colors: true)) == Array((
            "\u{1B}[1;39m[\u{1B}[0m\u{1B}[0;90mnull\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39mfalse\u{1B}[0m"
            + "\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39mtrue\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39m0\u{1B}[0m"
            + "\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;32m\"s\"\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[1;39m{\u{1B}[0m"
            + "\u{1B}[1;34m\"k\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m\u{1B}[1;39m[]\u{1B}[0m\u{1B}[1;39m}\u{1B}[0m"
            + "\u{1B}[1;39m]\u{1B}[0m\n").utf8))
    }

    @Test func defaultColoursPretty() throws {
        // jq -C .
        #expect(try printed(Self.sample, JQOutputStyle(indent: 2, colors: true)) == Array((
            "\u{1B}[1;39m{\u{1B}[0m\n"
            + "  \u{1B}[1;34m\"a\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m \u{1B}[1;39m[\u{1B}[0m\n"
            + "    \u{1B}[0;39m1\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\n"
            + "    \u{1B}[0;90mnull\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\n"
            + "    \u{1B}[0;39mtrue\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\n"
            + "    \u{1B}[0;32m\"x\"\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\n"
            + "    \u{1B}[1;39m{}\u{1B}[0m\n"
            + "  \u{1B}[1;39m]\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\n"
            + "  \u{1B}[1;34m\"b\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m \u{1B}[0;39mfalse\u{1B}[0m\n"
            + "\u{1B}[1;39m}\u{1B}[0m\n").utf8))
        // jq -C --indent 3 .
        #expect(try printed(Self.nested, JQOutputStyle(indent: 3, colors: true)) == Array((
            "\u{1B}[1;39m{\u{1B}[0m\n"
            + "   \u{1B}[1;34m\"b\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m \u{1B}[0;39m1\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\n"
            + "   \u{1B}[1;34m\"a\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m \u{1B}[1;39m{\u{1B}[0m\n"
            + "      \u{1B}[1;34m\"d\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m \u{1B}[1;39m[]\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\n"
            + "      \u{1B}[1;34m\"c\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m \u{1B}[0;32m\"\\t\"\u{1B}[0m\n"
            + "   \u{1B}[1;39m}\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\n"
            + "   \u{1B}[1;34m\"e\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m \u{1B}[1;39m[\u{1B}[0m\n"
            + "      \u{1B}[1;39m[]\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\n"
            + "      \u{1B}[1;39m[\u{1B}[0m\n"
            + "         \u{1B}[1;39m{}\u{1B}[0m\n"
            + "      \u{1B}[1;39m]\u{1B}[0m\n"
            + "   \u{1B}[1;39m]\u{1B}[0m\n"
            + "\u{1B}[1;39m}\u{1B}[0m\n").utf8))
    }

    @Test func tabsAndSortedKeys() throws {
        // jq -C -S --tab .
        #expect(try printed(Self.nested, JQOutputStyle(tabs: true, sortsKeys: true, colors: true)) == Array((
            "\u{1B}[1;39m{\u{1B}[0m\n"
            + "\t\u{1B}[1;34m\"a\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m \u{1B}[1;39m{\u{1B}[0m\n"
            + "\t\t\u{1B}[1;34m\"c\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m \u{1B}[0;32m\"\\t\"\u{1B}[0m"
            + "\u{1B}[1;39m,\u{1B}[0m\n"
            + "\t\t\u{1B}[1;34m\"d\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m \u{1B}[1;39m[]\u{1B}[0m\n"
            + "\t\u{1B}[1;39m}\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\n"
            + "\t\u{1B}[1;34m\"b\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m \u{1B}[0;39m1\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\n"
            + "\t\u{1B}[1;34m\"e\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m \u{1B}[1;39m[\u{1B}[0m\n"
            + "\t\t\u{1B}[1;39m[]\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\n"
            + "\t\t\u{1B}[1;39m[\u{1B}[0m\n"
            + "\t\t\t\u{1B}[1;39m{}\u{1B}[0m\n"
            + "\t\t\u{1B}[1;39m]\u{1B}[0m\n"
            + "\t\u{1B}[1;39m]\u{1B}[0m\n"
            + "\u{1B}[1;39m}\u{1B}[0m\n").utf8))
    }

    @Test func topLevelScalarsAndEmptyContainers() throws {
        // printf '[] {} "s" null 1 true false' | jq -C .
        let texts = [#"[]"#, #"{}"#, #""s""#, #"null"#, #"1"#, #"true"#, #"false"#]
        #expect(try printed(texts, JQOutputStyle(indent: 2, colors: true)) == Array((
            "\u{1B}[1;39m[]\u{1B}[0m\n"
            + "\u{1B}[1;39m{}\u{1B}[0m\n"
            + "\u{1B}[0;32m\"s\"\u{1B}[0m\n"
            + "\u{1B}[0;90mnull\u{1B}[0m\n"
            + "\u{1B}[0;39m1\u{1B}[0m\n"
            + "\u{1B}[0;39mtrue\u{1B}[0m\n"
            + "\u{1B}[0;39mfalse\u{1B}[0m\n").utf8))
    }

    @Test func stringsWithEscapes() throws {
        let strings = #"["q\"b\\n\n\u0001/é\u007f😀", {"k\"é":"v"}]"#
        // jq -C -c .
        #expect(try printed(strings, JQOutputStyle(colors: true)) == Array((
            "\u{1B}[1;39m[\u{1B}[0m\u{1B}[0;32m\"q\\\"b\\\\n\\n\\u0001/é\\u007f😀\"\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m"
            + "\u{1B}[1;39m{\u{1B}[0m\u{1B}[1;34m\"k\\\"é\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m"
            + "\u{1B}[0;32m\"v\"\u{1B}[0m\u{1B}[1;39m}\u{1B}[0m\u{1B}[1;39m]\u{1B}[0m\n").utf8))
        // jq -C -c -a .
        #expect(try printed(strings, JQOutputStyle(asciiOnly: true, colors: true)) == Array((
            "\u{1B}[1;39m[\u{1B}[0m\u{1B}[0;32m\"q\\\"b\\\\n\\n\\u0001/\\u00e9\\u007f\\ud83d\\ude00\"\u{1B}[0m"
            + "\u{1B}[1;39m,\u{1B}[0m\u{1B}[1;39m{\u{1B}[0m\u{1B}[1;34m\"k\\\"\\u00e9\"\u{1B}[0m"
            + "\u{1B}[1;39m:\u{1B}[0m\u{1B}[0;32m\"v\"\u{1B}[0m\u{1B}[1;39m}\u{1B}[0m\u{1B}[1;39m]\u{1B}[0m\n").utf8))
    }

    @Test func numbers() throws {
        // jq -C -c . (literals in jq 1.8's canonical form)
        #expect(try printed(#"[1.0, 1e2, -0, 100000000000000000000000, 0.1]"#, JQOutputStyle(colors: true)) == Array((
            "\u{1B}[1;39m[\u{1B}[0m\u{1B}[0;39m1.0\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39m1E+2\u{1B}[0m"
            + "\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39m-0\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m"
            + "\u{1B}[0;39m100000000000000000000000\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39m0.1\u{1B}[0m"
            + "\u{1B}[1;39m]\u{1B}[0m\n").utf8))
    }

    @Test func nanIsANullInsideTheNumberColour() {
        // jq -n -C -c '[nan, infinite, -infinite, {a: nan}]'
        let value = JSONValue.array([
            .number(JSONNumber(Double.nan)), .number(JSONNumber(Double.infinity)),
            .number(JSONNumber(-Double.infinity)), .object(["a": .number(JSONNumber(Double.nan))]),
        ])
        var bytes: [UInt8] = []
        _JQWriter(style: JQOutputStyle(colors: true)).write(value, into: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        #expect(bytes == Array((
            "\u{1B}[1;39m[\u{1B}[0m\u{1B}[0;39m\u{1B}[0;90mnull\u{1B}[0m\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m"
            + "\u{1B}[0;39m1.7976931348623157e+308\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m"
            + "\u{1B}[0;39m-1.7976931348623157e+308\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[1;39m{\u{1B}[0m"
            + "\u{1B}[1;34m\"a\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m\u{1B}[0;39m\u{1B}[0;90mnull\u{1B}[0m\u{1B}[0m"
            + "\u{1B}[1;39m}\u{1B}[0m\u{1B}[1;39m]\u{1B}[0m\n").utf8))
    }

    @Test func tooDeepKeepsTheValuesColour() async {
        // jq -n -C -c 'reduce range(10001) as $x ("s"; [.])' and
        // 'reduce range(10002) as $x (1; [.])': jq 1.8.2's output is these
        // brackets around the placeholder, in the colour of what it replaces.
        func expected(_ inner: String) -> [UInt8] {
            let open = String(repeating: "\u{1B}[1;39m[\u{1B}[0m", count: 10_001)
            let close = String(repeating: "\u{1B}[1;39m]\u{1B}[0m", count: 10_001)
            return Array((open + "\u{1B}[" + inner + "m<skipped: too deep>\u{1B}[0m" + close).utf8)
        }
        // Writing (and freeing) 10001 levels recurses deeper than a test thread's stack.
        let written = await onLargeStack {
            [(JSONValue.string("s"), 10_001), (JSONValue.number(JSONNumber(1)), 10_002)].map { leaf, depth in
                let value = (0..<depth).reduce(leaf) { inner, _ in JSONValue.array([inner]) }
                var bytes: [UInt8] = []
                _JQWriter(style: JQOutputStyle(colors: true)).write(value, into: &bytes)
                return bytes
            }
        }
        #expect(written == [expected("0;32"), expected("1;39")])
    }

    @Test func fullSpec() throws {
        let style = JQOutputStyle(colors: true, palette: try palette("0;31:0;32:0;33:0;34:0;35:0;36:0;37:0;38"))
        // JQ_COLORS='0;31:0;32:0;33:0;34:0;35:0;36:0;37:0;38' jq -C -c .
        #expect(try printed(Self.sample, style) == Array((
            "\u{1B}[0;37m{\u{1B}[0m\u{1B}[0;38m\"a\"\u{1B}[0m\u{1B}[0;37m:\u{1B}[0m\u{1B}[0;36m[\u{1B}[0m"
            + "\u{1B}[0;34m1\u{1B}[0m\u{1B}[0;36m,\u{1B}[0m\u{1B}[0;31mnull\u{1B}[0m\u{1B}[0;36m,\u{1B}[0m"
            + "\u{1B}[0;33mtrue\u{1B}[0m\u{1B}[0;36m,\u{1B}[0m\u{1B}[0;35m\"x\"\u{1B}[0m\u{1B}[0;36m,\u{1B}[0m"
            + "\u{1B}[0;37m{}\u{1B}[0m\u{1B}[0;36m]\u{1B}[0m\u{1B}[0;37m,\u{1B}[0m\u{1B}[0;38m\"b\"\u{1B}[0m"
            + "\u{1B}[0;37m:\u{1B}[0m\u{1B}[0;32mfalse\u{1B}[0m\u{1B}[0;37m}\u{1B}[0m\n").utf8))
        // JQ_COLORS='0;31:0;32:0;33:0;34:0;35:0;36:0;37:0;38' jq -C .
        var pretty = style
        pretty.indent = 2
        #expect(try printed(Self.sample, pretty) == Array((
            "\u{1B}[0;37m{\u{1B}[0m\n"
            + "  \u{1B}[0;38m\"a\"\u{1B}[0m\u{1B}[0;37m:\u{1B}[0m \u{1B}[0;36m[\u{1B}[0m\n"
            + "    \u{1B}[0;34m1\u{1B}[0m\u{1B}[0;36m,\u{1B}[0m\n"
            + "    \u{1B}[0;31mnull\u{1B}[0m\u{1B}[0;36m,\u{1B}[0m\n"
            + "    \u{1B}[0;33mtrue\u{1B}[0m\u{1B}[0;36m,\u{1B}[0m\n"
            + "    \u{1B}[0;35m\"x\"\u{1B}[0m\u{1B}[0;36m,\u{1B}[0m\n"
            + "    \u{1B}[0;37m{}\u{1B}[0m\n"
            + "  \u{1B}[0;36m]\u{1B}[0m\u{1B}[0;37m,\u{1B}[0m\n"
            + "  \u{1B}[0;38m\"b\"\u{1B}[0m\u{1B}[0;37m:\u{1B}[0m \u{1B}[0;32mfalse\u{1B}[0m\n"
            + "\u{1B}[0;37m}\u{1B}[0m\n").utf8))
    }

    @Test func partialSpecs() throws {
        // JQ_COLORS='1;31' jq -C -c .
        #expect(try printed(Self.sample, JQOutputStyle(colors: true, palette: try palette("1;31"))) == Array((
            "\u{1B}[1;39m{\u{1B}[0m\u{1B}[1;34m\"a\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m\u{1B}[1;39m[\u{1B}[0m"
            + "\u{1B}[0;39m1\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[1;31mnull\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m"
            + "\u{1B}[0;39mtrue\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;32m\"x\"\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m"
            + "\u{1B}[1;39m{}\u{1B}[0m\u{1B}[1;39m]\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[1;34m\"b\"\u{1B}[0m"
            + "\u{1B}[1;39m:\u{1B}[0m\u{1B}[0;39mfalse\u{1B}[0m\u{1B}[1;39m}\u{1B}[0m\n").utf8))
        // JQ_COLORS='1;31:4;33' jq -C -c .
        #expect(try printed(Self.allKinds, JQOutputStyle(colors: true, palette: try palette("1;31:4;33"))) == Array((
            "\u{1B}[1;39m[\u{1B}[0m\u{1B}[1;31mnull\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[4;33mfalse\u{1B}[0m"
            + "\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39mtrue\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39m0\u{1B}[0m"
            + "\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;32m\"s\"\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[1;39m{\u{1B}[0m"
            + "\u{1B}[1;34m\"k\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m\u{1B}[1;39m[]\u{1B}[0m\u{1B}[1;39m}\u{1B}[0m"
            + "\u{1B}[1;39m]\u{1B}[0m\n").utf8))
    }

    /// Empty codes, a trailing `:`, more than eight codes, and whatever
    /// follows the eighth code (jq stops reading there, even mid-character).
    static let edgeSpecs: [(spec: String, output: String)] = [
        ("",
         "\u{1B}[1;39m[\u{1B}[0m\u{1B}[0;90mnull\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39mfalse\u{1B}[0m"
         + "\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39mtrue\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39m0\u{1B}[0m"
         + "\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;32m\"s\"\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[1;39m{\u{1B}[0m"
         + "\u{1B}[1;34m\"k\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m\u{1B}[1;39m[]\u{1B}[0m\u{1B}[1;39m}\u{1B}[0m"
         + "\u{1B}[1;39m]\u{1B}[0m\n"),
        (":",
         "\u{1B}[1;39m[\u{1B}[0m\u{1B}[mnull\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39mfalse\u{1B}[0m"
         + "\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39mtrue\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39m0\u{1B}[0m"
         + "\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;32m\"s\"\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[1;39m{\u{1B}[0m"
         + "\u{1B}[1;34m\"k\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m\u{1B}[1;39m[]\u{1B}[0m\u{1B}[1;39m}\u{1B}[0m"
         + "\u{1B}[1;39m]\u{1B}[0m\n"),
        ("1::",
         "\u{1B}[1;39m[\u{1B}[0m\u{1B}[1mnull\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[mfalse\u{1B}[0m"
         + "\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39mtrue\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39m0\u{1B}[0m"
         + "\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;32m\"s\"\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[1;39m{\u{1B}[0m"
         + "\u{1B}[1;34m\"k\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m\u{1B}[1;39m[]\u{1B}[0m\u{1B}[1;39m}\u{1B}[0m"
         + "\u{1B}[1;39m]\u{1B}[0m\n"),
        ("::1",
         "\u{1B}[1;39m[\u{1B}[0m\u{1B}[mnull\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[mfalse\u{1B}[0m"
         + "\u{1B}[1;39m,\u{1B}[0m\u{1B}[1mtrue\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39m0\u{1B}[0m"
         + "\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;32m\"s\"\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[1;39m{\u{1B}[0m"
         + "\u{1B}[1;34m\"k\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m\u{1B}[1;39m[]\u{1B}[0m\u{1B}[1;39m}\u{1B}[0m"
         + "\u{1B}[1;39m]\u{1B}[0m\n"),
        ("1:2:3:4:5:6:7:8:9",
         "\u{1B}[6m[\u{1B}[0m\u{1B}[1mnull\u{1B}[0m\u{1B}[6m,\u{1B}[0m\u{1B}[2mfalse\u{1B}[0m"
         + "\u{1B}[6m,\u{1B}[0m\u{1B}[3mtrue\u{1B}[0m\u{1B}[6m,\u{1B}[0m\u{1B}[4m0\u{1B}[0m\u{1B}[6m,\u{1B}[0m"
         + "\u{1B}[5m\"s\"\u{1B}[0m\u{1B}[6m,\u{1B}[0m\u{1B}[7m{\u{1B}[0m\u{1B}[8m\"k\"\u{1B}[0m"
         + "\u{1B}[7m:\u{1B}[0m\u{1B}[6m[]\u{1B}[0m\u{1B}[7m}\u{1B}[0m\u{1B}[6m]\u{1B}[0m\n"),
        ("1:2:3:4:5:6:7:8x",
         "\u{1B}[6m[\u{1B}[0m\u{1B}[1mnull\u{1B}[0m\u{1B}[6m,\u{1B}[0m\u{1B}[2mfalse\u{1B}[0m"
         + "\u{1B}[6m,\u{1B}[0m\u{1B}[3mtrue\u{1B}[0m\u{1B}[6m,\u{1B}[0m\u{1B}[4m0\u{1B}[0m\u{1B}[6m,\u{1B}[0m"
         + "\u{1B}[5m\"s\"\u{1B}[0m\u{1B}[6m,\u{1B}[0m\u{1B}[7m{\u{1B}[0m\u{1B}[8m\"k\"\u{1B}[0m"
         + "\u{1B}[7m:\u{1B}[0m\u{1B}[6m[]\u{1B}[0m\u{1B}[7m}\u{1B}[0m\u{1B}[6m]\u{1B}[0m\n"),
        ("1:2:3:4:5:6:7:x",
         "\u{1B}[6m[\u{1B}[0m\u{1B}[1mnull\u{1B}[0m\u{1B}[6m,\u{1B}[0m\u{1B}[2mfalse\u{1B}[0m"
         + "\u{1B}[6m,\u{1B}[0m\u{1B}[3mtrue\u{1B}[0m\u{1B}[6m,\u{1B}[0m\u{1B}[4m0\u{1B}[0m\u{1B}[6m,\u{1B}[0m"
         + "\u{1B}[5m\"s\"\u{1B}[0m\u{1B}[6m,\u{1B}[0m\u{1B}[7m{\u{1B}[0m\u{1B}[1;34m\"k\"\u{1B}[0m"
         + "\u{1B}[7m:\u{1B}[0m\u{1B}[6m[]\u{1B}[0m\u{1B}[7m}\u{1B}[0m\u{1B}[6m]\u{1B}[0m\n"),
        ("1:2:3:4:5:6:7:",
         "\u{1B}[6m[\u{1B}[0m\u{1B}[1mnull\u{1B}[0m\u{1B}[6m,\u{1B}[0m\u{1B}[2mfalse\u{1B}[0m"
         + "\u{1B}[6m,\u{1B}[0m\u{1B}[3mtrue\u{1B}[0m\u{1B}[6m,\u{1B}[0m\u{1B}[4m0\u{1B}[0m\u{1B}[6m,\u{1B}[0m"
         + "\u{1B}[5m\"s\"\u{1B}[0m\u{1B}[6m,\u{1B}[0m\u{1B}[7m{\u{1B}[0m\u{1B}[1;34m\"k\"\u{1B}[0m"
         + "\u{1B}[7m:\u{1B}[0m\u{1B}[6m[]\u{1B}[0m\u{1B}[7m}\u{1B}[0m\u{1B}[6m]\u{1B}[0m\n"),
        ("1:2:3:4:5:6:7:\u{301}",
         "\u{1B}[6m[\u{1B}[0m\u{1B}[1mnull\u{1B}[0m\u{1B}[6m,\u{1B}[0m\u{1B}[2mfalse\u{1B}[0m"
         + "\u{1B}[6m,\u{1B}[0m\u{1B}[3mtrue\u{1B}[0m\u{1B}[6m,\u{1B}[0m\u{1B}[4m0\u{1B}[0m\u{1B}[6m,\u{1B}[0m"
         + "\u{1B}[5m\"s\"\u{1B}[0m\u{1B}[6m,\u{1B}[0m\u{1B}[7m{\u{1B}[0m\u{1B}[1;34m\"k\"\u{1B}[0m"
         + "\u{1B}[7m:\u{1B}[0m\u{1B}[6m[]\u{1B}[0m\u{1B}[7m}\u{1B}[0m\u{1B}[6m]\u{1B}[0m\n"),
        ("1:2:3:4:5:6:7:8\u{301}",
         "\u{1B}[6m[\u{1B}[0m\u{1B}[1mnull\u{1B}[0m\u{1B}[6m,\u{1B}[0m\u{1B}[2mfalse\u{1B}[0m"
         + "\u{1B}[6m,\u{1B}[0m\u{1B}[3mtrue\u{1B}[0m\u{1B}[6m,\u{1B}[0m\u{1B}[4m0\u{1B}[0m\u{1B}[6m,\u{1B}[0m"
         + "\u{1B}[5m\"s\"\u{1B}[0m\u{1B}[6m,\u{1B}[0m\u{1B}[7m{\u{1B}[0m\u{1B}[8m\"k\"\u{1B}[0m"
         + "\u{1B}[7m:\u{1B}[0m\u{1B}[6m[]\u{1B}[0m\u{1B}[7m}\u{1B}[0m\u{1B}[6m]\u{1B}[0m\n"),
        ("38;5;208:48;2;1;2;3",
         "\u{1B}[1;39m[\u{1B}[0m\u{1B}[38;5;208mnull\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m"
         + "\u{1B}[48;2;1;2;3mfalse\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39mtrue\u{1B}[0m"
         + "\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39m0\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;32m\"s\"\u{1B}[0m"
         + "\u{1B}[1;39m,\u{1B}[0m\u{1B}[1;39m{\u{1B}[0m\u{1B}[1;34m\"k\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m"
         + "\u{1B}[1;39m[]\u{1B}[0m\u{1B}[1;39m}\u{1B}[0m\u{1B}[1;39m]\u{1B}[0m\n"),
    ]

    @Test func edgeSpecs() throws {
        // JQ_COLORS=<spec> jq -C -c .
        for (spec, output) in Self.edgeSpecs {
            let style = JQOutputStyle(colors: true, palette: try palette(spec))
            #expect(try printed(Self.allKinds, style) == Array(output.utf8), "JQ_COLORS=\(spec.debugDescription)")
        }
    }

    /// jq 1.8.2 answers each of these with "Failed to set $JQ_COLORS" on
    /// stderr, exit status unchanged, and colours with its defaults.
    static let rejectedSpecs = [
        "1;2;x",
        "red",
        "1,2",
        " 1",
        "1 ",
        "1:2:3:4:5:6:x:8",
        "é",
        "1:2:3:4:5:6:7\u{301}:8",
        "1;31m",
        "\u{1B}[1;31m",
    ]

    @Test func rejectedSpecs() throws {
        // JQ_COLORS=<spec> jq -C -c . (the same bytes for every spec above)
        let output = Array((
            "\u{1B}[1;39m[\u{1B}[0m\u{1B}[0;90mnull\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39mfalse\u{1B}[0m"
            + "\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39mtrue\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;39m0\u{1B}[0m"
            + "\u{1B}[1;39m,\u{1B}[0m\u{1B}[0;32m\"s\"\u{1B}[0m\u{1B}[1;39m,\u{1B}[0m\u{1B}[1;39m{\u{1B}[0m"
            + "\u{1B}[1;34m\"k\"\u{1B}[0m\u{1B}[1;39m:\u{1B}[0m\u{1B}[1;39m[]\u{1B}[0m\u{1B}[1;39m}\u{1B}[0m"
            + "\u{1B}[1;39m]\u{1B}[0m\n").utf8)
        for spec in Self.rejectedSpecs {
            let palette = JQColorPalette(jqColors: spec)
            #expect(palette == nil, "JQ_COLORS=\(spec.debugDescription)")
            let style = JQOutputStyle(colors: true, palette: palette ?? .jqDefault)
            #expect(try printed(Self.allKinds, style) == output)
        }
    }

    @Test func colorsOffIgnoresThePalette() throws {
        // JQ_COLORS='0;31:0;32:0;33:0;34:0;35:0;36:0;37:0;38' jq -M -c .
        let style = JQOutputStyle(colors: false, palette: try palette("0;31:0;32:0;33:0;34:0;35:0;36:0;37:0;38"))
        #expect(try printed(Self.sample, style) == Array((
            "{\"a\":[1,null,true,\"x\",{}],\"b\":false}\n").utf8))
    }
}
