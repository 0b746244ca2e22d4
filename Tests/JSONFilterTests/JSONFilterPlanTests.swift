// SPDX-License-Identifier: Apache-2.0
@testable import JSONFilter
import StreamingJSON
import Testing

/// `JSONFilter.plan`: which programs stream, along which path, building
/// what; and that the rewritten program gives what the original gives.
@Suite struct JSONFilterPlanTests {
    @Test("Shapes that stream, with their path and what of an element is built")
    func streamedShapes() throws {
        let cases: [(String, [String], Set<String>?, Bool)] = [
            (".[] | select(.abv > 8) | {name, style}", [], ["abv", "name", "style"], true),
            (".items | map(.price) | add", ["items"], ["price"], true),
            (".data.rows[] | .id", ["data", "rows"], ["id"], true),
            ("[.a[] | .b]", ["a"], ["b"], true),
            ("reduce .items[] as $x (0; . + $x.n)", ["items"], nil, true),
            // Any initial value that does not read the input: the counting idiom and its kin.
            ("reduce .[] as $p ({}; .[$p.Section] += 1)", [], nil, true),
            ("reduce .[] as $p ({n: 0, seen: [], \"k\\(1)\": null}; .n += 1)", [], nil, true),
            ("foreach .[] as $p ({} | .x = 0; .x += 1)", [], nil, true),
            ("reduce .[] as $p (if true then [] else {} end; . + [$p])", [], nil, true),
            ("first(.items[])", ["items"], nil, true),
            ("any(.[]; .ok)", [], ["ok"], true),
            (".items | length", ["items"], [], false),
            (".items | min_by(.price)", ["items"], nil, false),
            (".[2:5][] | .x", [], ["x"], false),
            (".[-1]", [], nil, false),
        ]
        for (source, path, members, objects) in cases {
            let plan = try JSONFilter(source).plan
            #expect(plan.strategy == .streamed, "\(source): \(plan)")
            #expect(plan.path == path, "\(source)")
            #expect(plan.elementMembers == members, "\(source)")
            #expect(plan.streamsObjects == objects, "\(source)")
        }
    }

    @Test("Copied, or built whole, and why")
    func otherStrategies() throws {
        #expect(try JSONFilter(".").plan.strategy == .copied)
        #expect(try JSONFilter(".a.b").plan.path == ["a", "b"])
        for source in ["group_by(.a)", "[paths]", "keys", ".a, keys", ". as $x | .[] | $x", "def map(f): 1; map(.a)",
                       "input", "reduce .[] as $x (.; . + 1)", "limit(.n; .[])",
                       "reduce .[] as $x ({n: .n}; .)", "reduce .[] as $x ({(.k): 0}; .)",
                       "reduce .[] as $x ({} | input; .)", "reduce .[] as $x ({a}; .)",
                       // A second initial value runs the loop again (jq: over null for reduce).
                       "reduce .[] as $x (0, 1; . + 1)", "[foreach .[] as $x ([], {}; .)]"] {
            let plan = try JSONFilter(source).plan
            #expect(plan.strategy == .whole, "\(source): \(plan)")
            #expect(plan.reason != nil)
        }
    }

    @Test("A, B: each part planned on its own, in order")
    func parts() throws {
        let plan = try JSONFilter(#".meta.version, (.items | length), "end""#).plan
        #expect(plan.strategy == .inParts)
        #expect(plan.parts.map(\.strategy) == [.copied, .streamed, .whole])
        #expect(plan.parts.map(\.path) == [["meta", "version"], ["items"], []])
        #expect(plan.parts[2].description.hasPrefix("reads nothing"))
        // One part that reads the input as a whole: no parts.
        #expect(try JSONFilter(".a, keys").plan.strategy == .whole)
    }

    /// The rewritten program, fed the elements, gives the original's
    /// outputs (or error) for arrays of every kind of element.
    @Test("The streamed form computes what the original computes")
    func rewrittenFormAgrees() throws {
        let inputs: [JSONValue] = [
            [], [1, 2, 3], [["a": 1], ["a": 3], ["a": 2]], [3, "x", nil, [1], ["k": true]], [1.5, 1.5, 0.5],
        ]
        let programs = ["length", "add", "map(.a?) | add", "first(.[])", ".[0]", ".[-1]", ".[-2]", "min", "max",
                        "min_by(.a?)", "max_by(.a?)", "any", "all", "isempty(.[])", "[.[] | type]",
                        "limit(2; .[])", ".[1:2][]", "reduce .[] as $x (0; . + 1)",
                        "foreach .[] as $x (0; . + 1; [., $x])", "map(tostring) | add", "last(.[])",
                        "nth(1; .[])", "add(.[] | numbers)",
                        "reduce .[] as $x ({}; .[$x | tostring] += 1)", "foreach .[] as $x ({n: 0}; .n += 1; .n)"]
        for source in programs {
            let filter = try JSONFilter(source)
            let plan = filter.plan
            let program = try #require(plan.elementProgram, "\(source) should stream")
            for input in inputs {
                guard case .array(let elements) = input else { continue }
                let expected = Result { try filter.apply(to: input) }
                var remaining = elements[...]
                let context = JSONFilterContext()
                context.nextStreamedElement = { remaining.popFirst() }
                let actual = Result { () throws -> [JSONValue] in
                    var results: [JSONValue] = []
                    try program.apply(to: .null, context: context) { results.append($0) }
                    return results
                }
                switch (expected, actual) {
                case (.success(let a), .success(let b)): #expect(a == b, "\(source) on \(input)")
                case (.failure(let a as JSONFilterError), .failure(let b as JSONFilterError)):
                    #expect(a.message == b.message, "\(source) on \(input)")
                default: Issue.record("\(source) on \(input): \(expected) vs \(actual)")
                }
            }
        }
    }
}
