// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import StreamingJSON

/// Keyed containers handed out again by streaming decoders
/// (`_ContainerShelf`): reuse must never be observable.
@Suite struct ContainerReuseTests {
    /// Every element of a root array, through `elements(of:from:)`.
    static func streamed<T: Decodable>(_ type: T.Type, _ data: Data,
                                       _ decoder: StreamingJSONDecoder = StreamingJSONDecoder()) throws -> [T] {
        var result: [T] = []
        try decoder.elements(of: type, from: data).forEach { result.append($0) }
        return result
    }

    /// Asks for its container, then decodes its children (the same type, so the
    /// same key type) while holding it, then reads its own name.
    struct Tree: Decodable, Equatable {
        var name: String
        var children: [Tree]

        enum CodingKeys: String, CodingKey { case name, children }

        init(name: String, children: [Tree]) {
            self.name = name
            self.children = children
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            children = try container.decode([Tree].self, forKey: .children)
            name = try container.decode(String.self, forKey: .name)
        }
    }

    // Made on each use: a `Data` held in a static until exit is a false leak
    // report under LeakSanitizer (see scripts/sanitizers/lsan.supp).
    static var forest: Data { Data(#"""
        [{"name": "a", "children": [{"name": "a1", "children": []}, {"name": "a2", "children": [{"name": "a21", "children": []}]}]},
         {"name": "b", "children": []},
         {"name": "c", "children": [{"name": "c1", "children": [{"name": "c11", "children": [{"name": "c111", "children": []}]}]}]}]
        """#.utf8) }

    @Test func aContainerHeldByAnEnclosingDecodeIsNotTakenByANestedOne() throws {
        let expected = try JSONDecoder().decode([Tree].self, from: Self.forest)
        #expect(expected.map(\.name) == ["a", "b", "c"])
        #expect(expected[2].children[0].children[0].children[0].name == "c111")
        let streamed = try Self.streamed(Tree.self, Self.forest)
        #expect(streamed == expected)
        // A whole document (this one is below the shelf threshold, so without a shelf).
        #expect(try StreamingJSONDecoder().decode([Tree].self, from: Self.forest) == expected)
        // A document past the threshold reuses containers.
        let body = String(decoding: Self.forest.dropFirst().dropLast(), as: UTF8.self)
        let large = Data(("[" + Array(repeating: body, count: 300).joined(separator: ",") + "]").utf8)
        #expect(large.count >= StreamingJSONDecoder.shelfThreshold)
        #expect(try StreamingJSONDecoder().decode([Tree].self, from: large) == (try JSONDecoder().decode([Tree].self, from: large)))
        // And so does a feed, whatever the chunks.
        for chunk in [1, 7, 64] {
            let feed = JSONElementFeed(of: Tree.self)
            var fed: [Tree] = []
            var offset = 0
            while offset < Self.forest.count {
                fed += try feed.feed(Self.forest[offset..<min(offset + chunk, Self.forest.count)])
                offset += chunk
            }
            fed += try feed.finish()
            #expect(fed == expected, "chunk \(chunk)")
        }
    }

    /// Keeps its container where the test can see it after the element is done.
    struct Keeper: Decodable {
        nonisolated(unsafe) static var kept: [KeyedDecodingContainer<CodingKeys>] = []
        var id: Int
        enum CodingKeys: String, CodingKey { case id }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            if id.isMultiple(of: 2) { Self.kept.append(container) }
        }
    }

    @Test func aContainerKeptByUserCodeIsNeverRepointed() throws {
        Keeper.kept = []
        let data = Data(#"[{"id": 0}, {"id": 1}, {"id": 2}, {"id": 3}, {"id": 4}]"#.utf8)
        let ids = try Self.streamed(Keeper.self, data).map(\.id)
        #expect(ids == [0, 1, 2, 3, 4])
        // Each kept container still describes its own element, though later
        // elements asked for containers of the same key type.
        #expect(Keeper.kept.map { $0.codingPath.map(\.intValue) } == [[0], [2], [4]])
        Keeper.kept = []
        // Two containers asked for in one `init(from:)` are two containers.
        struct Twice: Decodable {
            var same: Bool
            enum CodingKeys: String, CodingKey { case a, b }
            init(from decoder: any Decoder) throws {
                let first = try decoder.container(keyedBy: CodingKeys.self)
                let second = try decoder.container(keyedBy: CodingKeys.self)
                same = try first.decode(Int.self, forKey: .a) == second.decode(Int.self, forKey: .a)
                    && first.decode(Int.self, forKey: .b) == second.decode(Int.self, forKey: .b)
            }
        }
        let pairs = Data(#"[{"a": 1, "b": 2}, {"b": 4, "a": 3}]"#.utf8)
        #expect(try Self.streamed(Twice.self, pairs).map(\.same) == [true, true])
    }

    @Test func aRepointedContainerStartsItsLookupsAfresh() throws {
        // The second object's keys come in another order and one is missing:
        // a cursor or key filter left over from the first would miss them.
        struct Point: Decodable, Equatable { var x: Int; var y: Int; var z: Int? }
        let data = Data(#"[{"x": 1, "y": 2}, {"z": 6, "y": 5, "x": 4}, {"y": 8, "x": 7}, {"x": 9, "y": 10, "x": 11, "z": 12}]"#.utf8)
        let points = try Self.streamed(Point.self, data)
        #expect(points == [Point(x: 1, y: 2, z: nil), Point(x: 4, y: 5, z: 6), Point(x: 7, y: 8, z: nil),
                           Point(x: 9, y: 10, z: 12)])
        // With a key strategy the converted keys are computed again per object.
        struct Snake: Decodable, Equatable { var firstName: String; var lastName: String? }
        let decoder = StreamingJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let people = Data(#"[{"first_name": "Ada", "last_name": "L"}, {"first_name": "Alan"}]"#.utf8)
        #expect(try Self.streamed(Snake.self, people, decoder)
                == [Snake(firstName: "Ada", lastName: "L"), Snake(firstName: "Alan", lastName: nil)])
        // A reused container reports errors at its own element.
        var iterator = StreamingJSONDecoder().elements(of: Point.self, from: Data(#"[{"x": 1, "y": 2}, {"x": 3}, 4]"#.utf8))
            .makeIterator()
        #expect(try iterator.next() == Point(x: 1, y: 2, z: nil))
        do {
            _ = try iterator.next()
            Issue.record("no error")
        } catch let DecodingError.keyNotFound(key, context) {
            #expect(key.stringValue == "y")
            #expect(context.codingPath.map(\.intValue) == [1])
        }
        do {
            _ = try iterator.next()
            Issue.record("no error")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.codingPath.map(\.intValue) == [2])
        }
    }

    @Test func theShelfEndsWithItsOwnerSoTheDecoderIsFreed() throws {
        weak var weakDecoder: _TapeDecoder?
        do {
            let options = _DecodingOptions()
            let stream = options.makeStream(source: _DataSource(Self.forest), size: Self.forest.count, mode: .array)
            let decoder = _TapeDecoder(stream: stream, options: options)
            weakDecoder = decoder
            var container = _IncrementalUnkeyedContainer(decoder: decoder, path: .root, shelvesContainers: true)
            var names: [String] = []
            while let tree = try container.nextElement(Tree.self) { names.append(tree.name) }
            #expect(names == ["a", "b", "c"])
            // Nested trees held their parents' containers: more than one was shelved.
            #expect(decoder.shelf.count > 1)
        }
        #expect(weakDecoder == nil)
    }

    /// On a standard library whose keyed containers were not one reference,
    /// none would be kept: every container is built, and the results are
    /// the same (`_ContainerLayout`).
    @Test func withTheLayoutUnknownNothingIsShelvedAndDecodingIsTheSame() throws {
        try _ContainerLayout.$treatsLayoutAsUnknown.withValue(true) {
            let options = _DecodingOptions()
            let stream = options.makeStream(source: _DataSource(Self.forest), size: Self.forest.count, mode: .array)
            let decoder = _TapeDecoder(stream: stream, options: options)
            var container = _IncrementalUnkeyedContainer(decoder: decoder, path: .root, shelvesContainers: true)
            var trees: [Tree] = []
            while let tree = try container.nextElement(Tree.self) { trees.append(tree) }
            #expect(trees == (try JSONDecoder().decode([Tree].self, from: Self.forest)))
            #expect(decoder.shelf.count == 0)

            let output = _JSONOutput(capacity: 256)
            let direct = _DirectEncoding(options: _EncodingOptions(), output: output, pretty: false)
            let scope = direct.shelfScope()
            for (index, node) in EncoderContainerReuseTests.forest.enumerated() {
                try direct.encodeRoot(node, isElement: true, indent: 0, index: index)
                #expect(!direct.needsTape)
            }
            #expect(direct.shelf.count == 0)
            let written = String(decoding: output.takeData(), as: UTF8.self)
            #expect(written == EncoderContainerReuseTests.forest.map(EncoderContainerReuseTests.json).joined())
            withExtendedLifetime(scope) {}
        }
        // And with the layout as it is, the same decode keeps containers.
        #expect(_ContainerLayout.allowsReuse(of: KeyedDecodingContainer<Tree.CodingKeys>.self))
    }

    // Key types of every shape, for the spelling cache of shelved contexts
    // (`_ObjectContext.spellings`: one-byte trivial keys are told apart by
    // their byte; other keys are asked for their `stringValue` each time).
    struct OneKey: Codable, Equatable { var only: String }
    struct Renamed: Codable, Equatable {
        var a: Int; var b: Int; var c: String?
        enum CodingKeys: String, CodingKey { case a = "first", b = "second", c = "" }
    }
    struct IntKeyed: Decodable, Equatable {
        var x: Int; var y: Int
        enum Keys: Int, CodingKey { case x = 7, y = 3 }
        init(x: Int, y: Int) { self.x = x; self.y = y }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            x = try container.decode(Int.self, forKey: .x)
            y = try container.decode(Int.self, forKey: .y)
        }
    }
    struct StringKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
    /// Reads the members its first member names: a non-trivial key type.
    struct Dynamic: Decodable, Equatable {
        var values: [Int]
        init(values: [Int]) { self.values = values }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: StringKey.self)
            let names = try container.decode(String.self, forKey: StringKey(stringValue: "names"))
            values = try names.split(separator: ",").map { try container.decode(Int.self, forKey: StringKey(stringValue: String($0))) }
        }
    }

    @Test func keysOfEveryShapeAreFoundByReusedContainers() throws {
        let one = Data(#"[{"only": "a"}, {"only": "b", "other": 1}, {"x": 0, "only": "c"}]"#.utf8)
        #expect(try Self.streamed(OneKey.self, one) == [OneKey(only: "a"), OneKey(only: "b"), OneKey(only: "c")])
        let renamed = Data(#"""
            [{"first": 1, "second": 2, "": "empty"}, {"second": 4, "first": 3}, {"": null, "first": 5, "second": 6, "a": 9}]
            """#.utf8)
        #expect(try Self.streamed(Renamed.self, renamed) == (try JSONDecoder().decode([Renamed].self, from: renamed)))
        let ints = Data(#"[{"x": 1, "y": 2}, {"y": 4, "x": 3}]"#.utf8)
        #expect(try Self.streamed(IntKeyed.self, ints) == [IntKeyed(x: 1, y: 2), IntKeyed(x: 3, y: 4)])
        let dynamic = Data(#"[{"names": "p,q", "p": 1, "q": 2}, {"q": 4, "names": "q,r,p", "r": 5, "p": 3}]"#.utf8)
        #expect(try Self.streamed(Dynamic.self, dynamic) == [Dynamic(values: [1, 2]), Dynamic(values: [4, 5, 3])])
        // A missing key is still reported by its own name.
        do {
            _ = try Self.streamed(Renamed.self, Data(#"[{"first": 1, "second": 2}, {"first": 3}]"#.utf8))
            Issue.record("no error")
        } catch let DecodingError.keyNotFound(key, context) {
            #expect(key.stringValue == "second")
            #expect(context.codingPath.map(\.intValue) == [1])
        }
    }

    /// Keeps the container of its first element past the end of the stream.
    struct Stasher: Decodable {
        nonisolated(unsafe) static var kept: KeyedDecodingContainer<CodingKeys>?
        var id: Int
        enum CodingKeys: String, CodingKey { case id }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            if Self.kept == nil { Self.kept = container }
        }
    }

    /// A shelved container does not own its context (its copies would retain
    /// it on every call): the shelf does, and hands it to the orphanage when
    /// the container outlives the shelf.
    @Test func aContainerKeptPastItsShelfStaysValidUntilLetGo() throws {
        weak var weakDecoder: _TapeDecoder?
        Stasher.kept = nil
        do {
            let data = Data(#"[{"id": 7}, {"id": 8}, {"id": 9}]"#.utf8)
            let options = _DecodingOptions()
            let stream = options.makeStream(source: _DataSource(data), size: data.count, mode: .array)
            let decoder = _TapeDecoder(stream: stream, options: options)
            weakDecoder = decoder
            var container = _IncrementalUnkeyedContainer(decoder: decoder, path: .root, shelvesContainers: true)
            var ids: [Int] = []
            while let element = try container.nextElement(Stasher.self) { ids.append(element.id) }
            #expect(ids == [7, 8, 9])
            // The first container was kept, so the second element got another.
            #expect(decoder.shelf.count == 2)
        }
        do {
            // The shelf is gone; the kept container still reads its own context.
            let kept = try #require(Stasher.kept)
            Stasher.kept = nil
            #expect(kept.codingPath.map(\.intValue) == [0])
            #expect(weakDecoder != nil)
            // Its element was dropped from the tape: an error, not a crash.
            #expect(throws: DecodingError.self) { try kept.decode(Int.self, forKey: .id) }
        }
        _ContainerOrphanage.sweep()
        #expect(weakDecoder == nil)
    }

    /// Two keys of the same length whose filter bits are the same
    /// (`_KeyFilter`), found by search so that the test follows the hash.
    static func keysSharingAFilterBit() -> (String, String) {
        var seen: [UInt32: String] = [:]
        for first in UInt8(ascii: "a")...UInt8(ascii: "z") {
            for last in UInt8(ascii: "a")...UInt8(ascii: "z") {
                let key = String(decoding: [first, UInt8(ascii: "k"), last], as: UTF8.self)
                let bits = Array(key.utf8).withUnsafeBufferPointer { Self.filterBits($0.baseAddress!, 3) }
                if let other = seen[bits] { return (other, key) }
                seen[bits] = key
            }
        }
        preconditionFailure("4 096 pairs of bits for 676 keys: some must be shared")
    }

    /// The two bits a key sets in `_KeyFilter`, as one number.
    static func filterBits(_ key: UnsafePointer<UInt8>, _ count: Int) -> UInt32 {
        let hash = _KeyFilter.hash(key, count)
        return (hash >> 26) << 6 | (hash >> 20) & 63
    }

    /// Decodes `first` then `second` from a dictionary-shaped object.
    struct Pair: Decodable, Equatable {
        nonisolated(unsafe) static var names = ("", "")
        var first: Int?
        var second: Int?

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(first: Int?, second: Int?) {
            self.first = first
            self.second = second
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            first = try container.decodeIfPresent(Int.self, forKey: Key(stringValue: Self.names.0))
            second = try container.decodeIfPresent(Int.self, forKey: Key(stringValue: Self.names.1))
        }
    }

    @Test func keysSharingAFilterBitAreFoundAtTheirFirstOccurrence() throws {
        let (a, b) = Self.keysSharingAFilterBit()
        Pair.names = (a, b)
        // `b`'s bit is among the passed keys after `a` is found: its lookup
        // looks at the passed members first, then goes on from the cursor.
        let data = Data("""
            [{"\(a)": 1, "\(b)": 2}, {"x": 0, "\(a)": 3, "y": 0, "\(b)": 4, "\(b)": 5},
             {"\(b)": 6, "\(a)": 7, "\(b)": 8}, {"\(a)": 9, "\(a)": 10}, {"\(b)": 11},
             {"\(a)": 12, "z": 0, "\(b)": 13, "\(a)": 14}]
            """.utf8)
        let expected = [Pair(first: 1, second: 2), Pair(first: 3, second: 4), Pair(first: 7, second: 6),
                        Pair(first: 9, second: nil), Pair(first: nil, second: 11), Pair(first: 12, second: 13)]
        #expect(try Self.streamed(Pair.self, data) == expected)
        #expect(try JSONDecoder().decode([Pair].self, from: data) == expected)
        Pair.names = (b, a)
        #expect(try Self.streamed(Pair.self, data).map { [$0.second, $0.first] } == expected.map { [$0.first, $0.second] })
    }

    /// The same with synthesized coding keys (kept by their byte, `_KeySlots`).
    struct Colliding: Decodable, Equatable {
        var bka: Int?
        var lky: Int?
    }

    @Test func synthesizedKeysSharingAFilterBitAreFoundAtTheirFirstOccurrence() throws {
        let bits = ["bka", "lky"].map { key in
            Array(key.utf8).withUnsafeBufferPointer { Self.filterBits($0.baseAddress!, $0.count) }
        }
        #expect(bits[0] == bits[1], "pick two keys that share a bit under the current hash")
        let data = Data(#"[{"bka": 1, "lky": 2}, {"lky": 3, "bka": 4, "lky": 5}, {"bka": 6, "q": 0, "bka": 7}, {"lky": 8}]"#.utf8)
        let expected = [Colliding(bka: 1, lky: 2), Colliding(bka: 4, lky: 3), Colliding(bka: 6, lky: nil),
                        Colliding(bka: nil, lky: 8)]
        #expect(try Self.streamed(Colliding.self, data) == expected)
        #expect(try JSONDecoder().decode([Colliding].self, from: data) == expected)
    }

    /// Keeps the nested container of its first element, and its decoder's path.
    struct Inner: Decodable {
        nonisolated(unsafe) static var kept: (container: KeyedDecodingContainer<CodingKeys>, path: [String])?
        var v: Int
        enum CodingKeys: String, CodingKey { case v }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            v = try container.decode(Int.self, forKey: .v)
            if Self.kept == nil { Self.kept = (container, decoder.codingPath.map(\.stringValue)) }
        }
    }

    struct Outer: Decodable {
        var a: Inner
        var b: Inner
        var tag: Tag
        enum Tag: String, Decodable { case x, y }
    }

    /// Nested values get their path nodes from a pool (`_KeyNodePool`), reused
    /// once nobody holds them: one held by a kept container keeps its path.
    @Test func pathNodesHeldElsewhereAreNeverReused() throws {
        Inner.kept = nil
        defer { Inner.kept = nil }
        let data = Data((0..<50).map { #"{"a": {"v": \#($0)}, "b": {"v": 1}, "tag": "x"}"# }
            .joined(separator: ",").utf8)
        let outers = try Self.streamed(Outer.self, Data("[".utf8) + data + Data("]".utf8))
        #expect(outers.map(\.a.v) == Array(0..<50))
        let kept = try #require(Inner.kept)
        #expect(kept.path == ["Index 0", "a"])
        #expect(kept.container.codingPath.map(\.stringValue) == ["Index 0", "a"])
        // Errors deep in later elements name their own element and keys.
        let bad = Data(#"[{"a": {"v": 1}, "b": {"v": 1}, "tag": "x"}, {"a": {"v": 2}, "b": {"v": "no"}, "tag": "y"}, {"a": {"v": 3}, "b": {"v": 3}, "tag": "z"}]"#.utf8)
        var iterator = StreamingJSONDecoder().elements(of: Outer.self, from: bad).makeIterator()
        _ = try iterator.next()
        do {
            _ = try iterator.next()
            Issue.record("no error")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["Index 1", "b", "v"])
        }
        do {
            _ = try iterator.next()
            Issue.record("no error")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.codingPath.map(\.stringValue) == ["Index 2", "tag"])
        }
    }

    /// The element of a stream has its path node inline, one word, up to
    /// index 2^48; past that it is boxed. Either way the path is the same.
    @Test func elementPathsOfEveryIndex() {
        #expect(MemoryLayout<_CodingPathNode>.size == MemoryLayout<Int>.size)
        for index in [0, 1, 4_294_967_295, 4_294_967_296, 5_000_000_000, (1 << 48) - 1, 1 << 48, Int.max] {
            let node = _CodingPathNode.root.appending(index: index)
            #expect(node.path.map(\.intValue) == [index])
            #expect(node.path.map(\.stringValue) == ["Index \(index)"])
            #expect(node.appending(_JSONKey(stringValue: "k")).path.map(\.stringValue) == ["Index \(index)", "k"])
        }
    }
}

/// The encoder's side: keyed containers reused by `_DirectEncoding`.
@Suite struct EncoderContainerReuseTests {
    /// Encodes its children (the same type) while holding its container.
    struct Node: Encodable {
        var name: String
        var children: [Node]
        enum CodingKeys: String, CodingKey { case name, children }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(children, forKey: .children)
            try container.encode(name, forKey: .name)
        }
    }

    static let forest = [
        Node(name: "a", children: [Node(name: "a1", children: []), Node(name: "a2", children: [Node(name: "a21", children: [])])]),
        Node(name: "b", children: []),
        Node(name: "c", children: [Node(name: "c1", children: [Node(name: "c11", children: [])])]),
    ]

    /// What `Node.encode(to:)` writes: members in the order encoded.
    static func json(_ node: Node) -> String {
        #"{"children":["# + node.children.map(json).joined(separator: ",") + #"],"name":""# + node.name + #""}"#
    }

    @Test func nestedContainersOfOneKeyTypeWriteTheirOwnObjects() throws {
        let expected = "[" + Self.forest.map(Self.json).joined(separator: ",") + "]"
        #expect(expected.contains(#"{"children":[{"children":[],"name":"a21"}],"name":"a2"}"#))
        #expect(String(decoding: try StreamingJSONEncoder().encode(Self.forest), as: UTF8.self) == expected)
        // Foundation agrees on the values (its key order is its own).
        #expect(try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.forest)) as? NSArray
                == JSONSerialization.jsonObject(with: Data(expected.utf8)) as? NSArray)
        // A writer keeps its shelf across appends.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reuse-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try JSONStreamWriter<Node>(toFileAt: url, format: .jsonLines)
        for _ in 0..<3 { for node in Self.forest { try writer.append(node) } }
        try writer.finish()
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        let each = Self.forest.map(Self.json)
        #expect(lines == each + each + each)
    }

    @Test func theDirectWriterNeedsNoTapeForThem() throws {
        // Handing a parent's container to a child would still give the right
        // bytes (the parent's next write finds its frame closed, and the value
        // is encoded again through the tape): check that it does not happen.
        let output = _JSONOutput(capacity: 256)
        let direct = _DirectEncoding(options: _EncodingOptions(), output: output, pretty: false)
        let scope = direct.shelfScope()
        for (index, node) in Self.forest.enumerated() {
            try direct.encodeRoot(node, isElement: true, indent: 0, index: index)
            #expect(!direct.needsTape, "node \(index)")
        }
        #expect(direct.shelf.count > 1)
        withExtendedLifetime(scope) {}
    }

    // Key types of every shape, for the escaped-key cache of shelved targets
    // (`_EscapedKeys`: one-byte trivial keys are told apart by their byte).
    struct Shapes: Encodable {
        var n: Int
        enum CodingKeys: String, CodingKey {
            case plain = "p", quoted = "say \"hi\"", accented = "café", long = "a key longer than sixteen bytes"
            case empty = ""
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(n, forKey: .plain)
            try container.encode(n + 1, forKey: .quoted)
            try container.encode(n + 2, forKey: .accented)
            try container.encode(n + 3, forKey: .long)
            try container.encode(n + 4, forKey: .empty)
        }
    }
    struct One: Encodable { var only: Int }
    struct IntKeyed: Encodable {
        var x: Int
        enum Keys: Int, CodingKey { case x = 7, y = 3 }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(x, forKey: .y)
            try container.encode(x, forKey: .x)
        }
    }
    struct Named: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
    /// Writes the members its names list: a key type that is not one byte.
    struct Dynamic: Encodable {
        var names: [String]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Named.self)
            for (index, name) in names.enumerated() { try container.encode(index, forKey: Named(stringValue: name)) }
        }
    }
    /// Writes one key twice: an error, whether the key was cached or not.
    struct Twice: Encodable {
        enum CodingKeys: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(1, forKey: .a)
            try container.encode(2, forKey: .b)
            try container.encode(3, forKey: .a)
        }
    }

    /// Encodes each value with one shelf, as array elements, checking that
    /// none needed the tape.
    static func expectDirect<T: Encodable>(_ values: [T], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let direct = _DirectEncoding(options: _EncodingOptions(), output: _JSONOutput(capacity: 256), pretty: false)
        let scope = direct.shelfScope()
        for (index, value) in values.enumerated() {
            try direct.encodeRoot(value, isElement: true, indent: 0, index: index)
            #expect(!direct.needsTape, "value \(index)", sourceLocation: sourceLocation)
        }
        withExtendedLifetime(scope) {}
    }

    /// Each value through a writer (whose shelf lives across appends), as JSON Lines.
    static func lines<T: Encodable>(_ values: [T]) throws -> [String] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try JSONStreamWriter<T>(toFileAt: url, format: .jsonLines)
        for value in values { try writer.append(value) }
        try writer.finish()
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func keysOfEveryShapeAreWrittenByReusedContainers() throws {
        #expect(try Self.lines([Shapes(n: 0), Shapes(n: 10)]) == [
            #"{"p":0,"say \"hi\"":1,"café":2,"a key longer than sixteen bytes":3,"":4}"#,
            #"{"p":10,"say \"hi\"":11,"café":12,"a key longer than sixteen bytes":13,"":14}"#,
        ])
        #expect(try Self.lines([One(only: 1), One(only: 2)]) == [#"{"only":1}"#, #"{"only":2}"#])
        #expect(try Self.lines([IntKeyed(x: 1), IntKeyed(x: 2)]) == [#"{"y":1,"x":1}"#, #"{"y":2,"x":2}"#])
        #expect(try Self.lines([Dynamic(names: ["p", "q"]), Dynamic(names: ["q", "r"])])
                == [#"{"p":0,"q":1}"#, #"{"q":0,"r":1}"#])
        // And they were written directly: a wrong cached key would have shown
        // as a duplicate and sent the value through the tape.
        try Self.expectDirect([Shapes(n: 0), Shapes(n: 10)])
        try Self.expectDirect([IntKeyed(x: 1), IntKeyed(x: 2)])
        // A key written twice is found by its cached hash too, element after
        // element: written once, where it came first, with its last value
        // (as `EncoderParityTests` expects of every path).
        let twice = #"{"a":3,"b":2}"#
        #expect(try Self.lines([Twice(), Twice(), Twice()]) == [twice, twice, twice])
    }

    /// Keeps its container, and asks for a second one from the same encoder.
    struct Keeper: Encodable {
        nonisolated(unsafe) static var kept: [KeyedEncodingContainer<CodingKeys>] = []
        var id: Int
        enum CodingKeys: String, CodingKey { case id, twice }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            var again = encoder.container(keyedBy: CodingKeys.self)
            try again.encode(id * 2, forKey: .twice)
            if id.isMultiple(of: 2) { Self.kept.append(container) }
        }
    }

    @Test func aContainerKeptByUserCodeIsNeverRepointed() throws {
        Keeper.kept = []
        let keepers = (0..<5).map(Keeper.init(id:))
        let ours = try StreamingJSONEncoder().encode(keepers)
        #expect(Keeper.kept.count == 3)
        Keeper.kept = []
        #expect(String(decoding: ours, as: UTF8.self)
                == #"[{"id":0,"twice":0},{"id":1,"twice":2},{"id":2,"twice":4},{"id":3,"twice":6},{"id":4,"twice":8}]"#)
    }
}
