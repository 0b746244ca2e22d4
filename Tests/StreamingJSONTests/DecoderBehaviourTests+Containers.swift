// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

// The unkeyed and keyed containers' API (nested and streamed), compared with Foundation.
extension DecoderBehaviourTests {
    // MARK: Nested unkeyed container

    struct Pair: Decodable, Equatable { var k: Int }

    /// Walks `["a", null, 2, "b", [true], {"k": 1}]`, logging each step.
    static func probeUnkeyed<U: UnkeyedDecodingContainer>(_ items: inout U) -> [String] {
        var log: [String] = []
        log.append("path \(path(items.codingPath)) index \(items.currentIndex) atEnd \(items.isAtEnd)")
        log.append("Int: " + attempt { try items.decode(Int.self) })
        log.append("index \(items.currentIndex)")
        log.append("String: " + attempt { try items.decode(String.self) })
        log.append("nil: " + attempt { try items.decodeNil() })
        log.append("index \(items.currentIndex)")
        log.append("nil: " + attempt { try items.decodeNil() })
        log.append("String: " + attempt { try items.decode(String.self) })
        log.append("index \(items.currentIndex)")
        log.append("Int: " + attempt { try items.decode(Int.self) })
        log.append("super: " + attempt {
            let decoder = try items.superDecoder()
            return "\(path(decoder.codingPath)) \(try String(from: decoder))"
        })
        log.append("index \(items.currentIndex)")
        log.append("nested unkeyed: " + attempt {
            var nested = try items.nestedUnkeyedContainer()
            return "\(path(nested.codingPath)) count \(nested.count ?? -1) \(try nested.decode(Bool.self))"
        })
        log.append("nested keyed: " + attempt {
            let nested = try items.nestedContainer(keyedBy: AnyKey.self)
            return "\(path(nested.codingPath)) \(try nested.decode(Int.self, forKey: "k"))"
        })
        log.append("index \(items.currentIndex) atEnd \(items.isAtEnd)")
        log.append("past the end Int: " + attempt { try items.decode(Int.self) })
        log.append("past the end Pair: " + attempt { try items.decode(Pair.self) })
        log.append("past the end nil: " + attempt { try items.decodeNil() })
        log.append("index \(items.currentIndex) atEnd \(items.isAtEnd)")
        return log
    }

    static func expectedUnkeyedLog(_ prefix: [String]) -> [String] {
        func at(_ index: Int) -> String { (prefix + ["Index \(index)"]).joined(separator: "/") }
        return [
            "path \(prefix) index 0 atEnd false",
            "Int: typeMismatch at \(at(0))",
            "index 0",
            "String: value a",
            "nil: value true",
            "index 2",
            "nil: value false",
            "String: typeMismatch at \(at(2))",
            "index 2",
            "Int: value 2",
            "super: value \(prefix + ["Index 3"]) b",
            "index 4",
            "nested unkeyed: value \(prefix + ["Index 4"]) count 1 true",
            "nested keyed: value \(prefix + ["Index 5"]) 1",
            "index 6 atEnd true",
            "past the end Int: valueNotFound at \(at(6))",
            "past the end Pair: valueNotFound at \(at(6))",
            "past the end nil: valueNotFound at \(at(6))",
            "index 6 atEnd true",
        ]
    }

    static let probeArray = #"["a", null, 2, "b", [true], {"k": 1}]"#

    struct NestedUnkeyedProbe: Decodable {
        var log: [String]
        var count: Int?
        enum CodingKeys: CodingKey { case list }
        init(from decoder: any Decoder) throws {
            var items = try decoder.container(keyedBy: CodingKeys.self).nestedUnkeyedContainer(forKey: .list)
            count = items.count
            log = DecoderBehaviourTests.probeUnkeyed(&items)
        }
    }

    struct RootUnkeyedProbe: Decodable {
        var log: [String]
        var count: Int?
        init(from decoder: any Decoder) throws {
            var items = try decoder.unkeyedContainer()
            count = items.count
            log = DecoderBehaviourTests.probeUnkeyed(&items)
        }
    }

    @Test func nestedUnkeyedContainer() throws {
        let data = Self.json(#"{"list": \#(Self.probeArray)}"#)
        let ours = try StreamingJSONDecoder().decode(NestedUnkeyedProbe.self, from: data)
        #expect(ours.log == Self.expectedUnkeyedLog(["list"]))
        #expect(ours.count == 6)
        let foundation = try JSONDecoder().decode(NestedUnkeyedProbe.self, from: data)
        #expect(ours.log == foundation.log)
        #expect(try Engine.decode(NestedUnkeyedProbe.self, data, chunk: 1).log == ours.log)
        // Inside a streamed element, the path starts with the element's index.
        var iterator = StreamingJSONDecoder().elements(of: NestedUnkeyedProbe.self, from: Self.json("[{}, \(String(decoding: data, as: UTF8.self))]"))
            .makeIterator()
        #expect(Self.caught { _ = try iterator.next() } == ErrorInfo("keyNotFound(list)", ["Index 0"]))
        #expect(try iterator.next()?.log == Self.expectedUnkeyedLog(["Index 1", "list"]))
    }

    @Test func theStreamedRootContainerBehavesLikeANestedOne() throws {
        let data = Self.json(Self.probeArray)
        for chunk in [1, 3, Int.max] {
            let ours = try Engine.decode(RootUnkeyedProbe.self, data, chunk: chunk)
            #expect(ours.log == Self.expectedUnkeyedLog([]), "chunk \(chunk)")
            #expect(ours.count == nil, "chunk \(chunk)")
        }
        let foundation = try JSONDecoder().decode(RootUnkeyedProbe.self, from: data)
        #expect(foundation.log == Self.expectedUnkeyedLog([]))
    }

    // MARK: Keyed container

    struct KeyedProbe: Decodable {
        var allKeys: Set<String>
        var allKeysCount: Int
        var log: [String] = []

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            allKeys = Set(container.allKeys.map(\.stringValue))
            allKeysCount = container.allKeys.count
            log.append("path \(path(container.codingPath))")
            for name in ["a", "b", "c", "d", "f", "super", "z", "A", ""] {
                log.append("contains \(name): \(container.contains(AnyKey(name)))")
            }
            for name in ["a", "b", "c", "z"] {
                log.append("decodeNil \(name): " + attempt { try container.decodeNil(forKey: AnyKey(name)) })
            }
            log.append("a: " + attempt { try container.decode(Int.self, forKey: "a") })
            log.append("b: " + attempt { try container.decode(Int.self, forKey: "b") })
            log.append("z: " + attempt { try container.decode(Int.self, forKey: "z") })
            log.append("d: " + attempt {
                let nested = try container.nestedContainer(keyedBy: AnyKey.self, forKey: "d")
                return "\(path(nested.codingPath)) \(nested.allKeys.map(\.stringValue)) \(try nested.decode(Bool.self, forKey: "e"))"
            })
            log.append("d.e as Int: " + attempt {
                try container.nestedContainer(keyedBy: AnyKey.self, forKey: "d").decode(Int.self, forKey: "e")
            })
            log.append("f: " + attempt {
                var nested = try container.nestedUnkeyedContainer(forKey: "f")
                let first = try nested.decode(Int.self)
                let deeper = try nested.nestedContainer(keyedBy: AnyKey.self)
                return "\(path(nested.codingPath)) \(first) \(path(deeper.codingPath)) \(try deeper.decode(String.self, forKey: "g"))"
            })
            log.append("f.1.h: " + attempt {
                var nested = try container.nestedUnkeyedContainer(forKey: "f")
                _ = try nested.decode(Int.self)
                return try nested.nestedContainer(keyedBy: AnyKey.self).decode(String.self, forKey: "h")
            })
            // superDecoder(forKey:) on a missing key reads as null.
            let missing = try container.superDecoder(forKey: "z")
            log.append("super z: path \(path(missing.codingPath)) nil \(try missing.singleValueContainer().decodeNil())")
            log.append("super z Int?: " + attempt { String(describing: try Int?(from: missing)) })
            log.append("super z Int: " + attempt { try Int(from: missing) })
            log.append("super z keyed: " + attempt { try missing.container(keyedBy: AnyKey.self).allKeys.count })
            let present = try container.superDecoder(forKey: "d")
            log.append("super d: " + attempt {
                "\(path(present.codingPath)) \(try present.container(keyedBy: AnyKey.self).decode(Bool.self, forKey: "e"))"
            })
            let parent = try container.superDecoder()
            log.append("super: " + attempt { "\(path(parent.codingPath)) \(try String(from: parent))" })
        }
    }

    static func expectedKeyedLog(_ prefix: [String]) -> [String] {
        func at(_ keys: String...) -> String { (prefix + keys).joined(separator: "/") }
        return [
            "path \(prefix)",
            "contains a: true", "contains b: true", "contains c: true", "contains d: true", "contains f: true",
            "contains super: true", "contains z: false", "contains A: false", "contains : false",
            "decodeNil a: value false", "decodeNil b: value true", "decodeNil c: value false",
            "decodeNil z: keyNotFound(z)" + (prefix.isEmpty ? "" : " at \(at())"),
            "a: value 1",
            "b: valueNotFound at \(at("b"))",
            "z: keyNotFound(z)" + (prefix.isEmpty ? "" : " at \(at())"),
            "d: value \(prefix + ["d"]) [\"e\"] true",
            "d.e as Int: typeMismatch at \(at("d", "e"))",
            "f: value \(prefix + ["f"]) 1 \(prefix + ["f", "Index 1"]) x",
            "f.1.h: keyNotFound(h) at \(at("f", "Index 1"))",
            "super z: path \(prefix + ["z"]) nil true",
            "super z Int?: value nil",
            "super z Int: valueNotFound at \(at("z"))",
            "super z keyed: valueNotFound at \(at("z"))",
            "super d: value \(prefix + ["d"]) true",
            "super: value \(prefix + ["super"]) parent",
        ]
    }

    static let probeObject = #"{"a": 1, "b": null, "c": "x", "a": 2, "d": {"e": true}, "f": [1, {"g": "x"}], "super": "parent"}"#

    @Test func keyedContainer() throws {
        let data = Self.json(Self.probeObject)
        let ours = try StreamingJSONDecoder().decode(KeyedProbe.self, from: data)
        // Duplicates once (the first occurrence); order is not part of the contract.
        #expect(ours.allKeys == ["a", "b", "c", "d", "f", "super"])
        #expect(ours.allKeysCount == 6)
        #expect(ours.log == Self.expectedKeyedLog([]))
        let foundation = try JSONDecoder().decode(KeyedProbe.self, from: data)
        #expect(ours.allKeys == foundation.allKeys)
        #expect(ours.allKeysCount == foundation.allKeysCount)
        #expect(ours.log == foundation.log)
        #expect(try Engine.decode(KeyedProbe.self, data, chunk: 1).log == ours.log)

        // Nested in arrays, paths carry the indices; in a stream the element's index comes first.
        let nested = Self.json("[[\(Self.probeObject)]]")
        let inArrays = try StreamingJSONDecoder().decode([[KeyedProbe]].self, from: nested)
        #expect(inArrays.first?.first?.log == Self.expectedKeyedLog(["Index 0", "Index 0"]))
        #expect(inArrays.first?.first?.log == (try JSONDecoder().decode([[KeyedProbe]].self, from: nested)).first?.first?.log)
        var iterator = StreamingJSONDecoder().elements(of: KeyedProbe.self, from: Self.json("[{}, \(Self.probeObject)]"))
            .makeIterator()
        #expect(try iterator.next()?.log.first == #"path ["Index 0"]"#)
        #expect(try iterator.next()?.log == Self.expectedKeyedLog(["Index 1"]))
    }

    @Test func decodeIfPresentMissingNullAndPresent() throws {
        struct Point: Decodable, Equatable { var x: Int }
        struct Presence: Decodable, Equatable {
            var strings: [String?], ints: [Int?], doubles: [Double?], bools: [Bool?], points: [Point?]
            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: AnyKey.self)
                func keys(_ name: String) -> [AnyKey] { [AnyKey(name), AnyKey(name + "Null"), AnyKey(name + "Missing")] }
                strings = try keys("s").map { try c.decodeIfPresent(String.self, forKey: $0) }
                ints = try keys("i").map { try c.decodeIfPresent(Int.self, forKey: $0) }
                doubles = try keys("d").map { try c.decodeIfPresent(Double.self, forKey: $0) }
                bools = try keys("b").map { try c.decodeIfPresent(Bool.self, forKey: $0) }
                points = try keys("p").map { try c.decodeIfPresent(Point.self, forKey: $0) }
            }
        }
        let data = Self.json(#"""
        {"s": "", "sNull": null, "i": -7, "iNull": null, "d": 2.5, "dNull": null,
         "b": false, "bNull": null, "p": {"x": 3}, "pNull": null}
        """#)
        let ours = try StreamingJSONDecoder().decode(Presence.self, from: data)
        #expect(ours.strings == ["", nil, nil])
        #expect(ours.ints == [-7, nil, nil])
        #expect(ours.doubles == [2.5, nil, nil])
        #expect(ours.bools == [false, nil, nil])
        #expect(ours.points == [Point(x: 3), nil, nil])
        #expect(ours == (try JSONDecoder().decode(Presence.self, from: data)))
        #expect(ours == (try Engine.decode(Presence.self, data, chunk: 1)))

        // Present but of another type: an error, not nil.
        let wrong: [(String, ErrorInfo)] = [
            (#"{"s": 1}"#, ErrorInfo("typeMismatch", ["s"])),
            (#"{"i": "1"}"#, ErrorInfo("typeMismatch", ["i"])),
            (#"{"d": true}"#, ErrorInfo("typeMismatch", ["d"])),
            (#"{"b": 0}"#, ErrorInfo("typeMismatch", ["b"])),
            (#"{"p": {"x": null}}"#, ErrorInfo("valueNotFound", ["p", "x"])),
            (#"{"p": []}"#, ErrorInfo("typeMismatch", ["p"])),
        ]
        for (text, expected) in wrong {
            #expect(Self.caught { _ = try StreamingJSONDecoder().decode(Presence.self, from: Self.json(text)) } == expected, "\(text)")
            #expect(Self.caught { _ = try JSONDecoder().decode(Presence.self, from: Self.json(text)) } == expected, "\(text)")
        }
    }

    @Test func codingPathsOfNestedContainersAndDecoders() throws {
        struct Leaf: Decodable {
            var path: [String]
            init(from decoder: any Decoder) throws {
                path = DecoderBehaviourTests.path(decoder.codingPath)
                _ = try decoder.singleValueContainer().decode(Int.self)
            }
        }
        struct Tree: Decodable {
            var paths: [[String]] = []
            init(from decoder: any Decoder) throws {
                paths.append(DecoderBehaviourTests.path(decoder.codingPath))
                let root = try decoder.container(keyedBy: AnyKey.self)
                paths.append(DecoderBehaviourTests.path(root.codingPath))
                let outer = try root.nestedContainer(keyedBy: AnyKey.self, forKey: "outer")
                paths.append(DecoderBehaviourTests.path(outer.codingPath))
                var list = try outer.nestedUnkeyedContainer(forKey: "list")
                paths.append(DecoderBehaviourTests.path(list.codingPath))
                _ = try list.decodeNil()
                let element = try list.nestedContainer(keyedBy: AnyKey.self)
                paths.append(DecoderBehaviourTests.path(element.codingPath))
                paths.append(DecoderBehaviourTests.path(list.codingPath))  // unchanged by its children
                let deep = try element.nestedContainer(keyedBy: AnyKey.self, forKey: "deep")
                paths.append(DecoderBehaviourTests.path(deep.codingPath))
                paths.append(try deep.decode(Leaf.self, forKey: "x").path)
                var leaves = try element.nestedUnkeyedContainer(forKey: "leaves")
                paths.append(try leaves.decode(Leaf.self).path)
                paths.append(try leaves.decode(Leaf.self).path)
                paths.append(DecoderBehaviourTests.path(decoder.codingPath))  // still the root
            }
        }
        let data = Self.json(#"{"outer": {"list": [null, {"deep": {"x": 1}, "leaves": [2, 3]}]}}"#)
        let expected: [[String]] = [
            [], [], ["outer"], ["outer", "list"], ["outer", "list", "Index 1"], ["outer", "list"],
            ["outer", "list", "Index 1", "deep"], ["outer", "list", "Index 1", "deep", "x"],
            ["outer", "list", "Index 1", "leaves", "Index 0"], ["outer", "list", "Index 1", "leaves", "Index 1"], [],
        ]
        #expect(try StreamingJSONDecoder().decode(Tree.self, from: data).paths == expected)
        #expect(try JSONDecoder().decode(Tree.self, from: data).paths == expected)
        // Index keys carry their intValue.
        struct IndexKey: Decodable {
            var intValues: [Int?]
            init(from decoder: any Decoder) throws { intValues = decoder.codingPath.map(\.intValue) }
        }
        let indexKeys = try StreamingJSONDecoder().decode([String: [IndexKey]].self, from: Self.json(#"{"k": [0, 1]}"#))
        #expect(indexKeys["k"]?.map(\.intValues) == [[nil, 0], [nil, 1]])
    }
}

extension DecoderBehaviourTests {
    /// A root type that walks its array twice, as `JSONDecoder` allows.
    struct TwoPass: Decodable, Equatable {
        var count = 0
        var sum = 0

        init(count: Int, sum: Int) {
            self.count = count
            self.sum = sum
        }

        init(from decoder: any Decoder) throws {
            var first = try decoder.unkeyedContainer()
            while !first.isAtEnd {
                _ = try first.decode(Int.self)
                count += 1
            }
            var second = try decoder.unkeyedContainer()
            while !second.isAtEnd { sum += try second.decode(Int.self) }
        }
    }

    /// Data and files are read again from the start for the second pass; a
    /// pipe cannot be, and says why.
    @Test func twoPassRootInitReadsDataAndFilesAgain() throws {
        let numbers = Array(1...20_000)
        let data = try JSONEncoder().encode(numbers)
        let expected = TwoPass(count: numbers.count, sum: numbers.reduce(0, +))
        #expect(try JSONDecoder().decode(TwoPass.self, from: data) == expected)
        #expect(try StreamingJSONDecoder().decode(TwoPass.self, from: data) == expected)

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("two-pass-\(UUID().uuidString).json")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try StreamingJSONDecoder().decode(TwoPass.self, contentsOf: url) == expected)

        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        do {
            _ = try StreamingJSONDecoder().decode(TwoPass.self, from: handle)
            Issue.record("a handle was read twice")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.hasPrefix("This element was already dropped from the stream"))
        }
    }
}

extension DecoderBehaviourTests {
    struct Item: Decodable, Equatable { var id: Int }

    /// A pretty-printed export streamed without `at:`: "keyNotFound id at
    /// 1:1" says too what the root is and which keys hold arrays.
    @Test func objectRootWithoutAtNamesTheArrayKeys() throws {
        let export = """
            {
              "meta": {"version": 2, "tags": ["a"]},
              "items": [{"id": 1}, {"id": 2}],
              "total": 2
            }
            """
        let outcome = Collect.sync(StreamingJSONDecoder().elements(of: Item.self, from: Data(export.utf8)), limit: 3)
        #expect(outcome.elements.isEmpty)
        guard case .keyNotFound(let key, let context)? = outcome.errors.first as? DecodingError else {
            Issue.record("not keyNotFound: \(outcome.errors)")
            return
        }
        #expect(key.stringValue == "id")
        #expect(context.codingPath.map(\.intValue) == [0])
        #expect(context.debugDescription.contains("The input's root is an object, not an array"))
        #expect(context.debugDescription.contains(#"at: ["items"]"#))
        #expect(context.debugDescription.contains(#"at: ["meta", "tags"]"#))
        // With at:, the same input streams.
        let streamed = Collect.sync(StreamingJSONDecoder().elements(of: Item.self, from: Data(export.utf8), at: ["items"]))
        #expect(streamed.elements == [Item(id: 1), Item(id: 2)])
    }

    /// JSON Lines records that fail keep their own error.
    @Test func jsonLinesRecordKeepsItsError() throws {
        let lines = "{\"name\": \"a\", \"tags\": [1]}\n{\"id\": 2}\n"
        let outcome = Collect.sync(StreamingJSONDecoder().elements(of: Item.self, from: Data(lines.utf8)), limit: 3)
        #expect(outcome.elements == [Item(id: 2)])
        guard case .keyNotFound(_, let context)? = outcome.errors.first as? DecodingError else {
            Issue.record("not keyNotFound: \(outcome.errors)")
            return
        }
        #expect(!context.debugDescription.contains("root is an object"))
    }
}
