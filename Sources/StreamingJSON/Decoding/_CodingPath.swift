/// A coding path as a list that shares its parent: pushing a key while
/// descending costs one small node, and the `[CodingKey]` array is built only
/// when someone asks for `codingPath` (usually an error).
indirect enum _CodingPathNode {
    case root
    case key(any CodingKey, _CodingPathNode)
    case index(Int, _CodingPathNode)

    func appending(_ key: any CodingKey) -> _CodingPathNode { .key(key, self) }
    func appending(index: Int) -> _CodingPathNode { .index(index, self) }

    var path: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = self
        while true {
            switch node {
            case .root:
                return keys.reversed()
            case .key(let key, let parent):
                keys.append(key)
                node = parent
            case .index(let index, let parent):
                keys.append(_JSONKey(index: index))
                node = parent
            }
        }
    }
}

/// The coding keys the decoder makes up: array indices, `super`, dictionary keys.
struct _JSONKey: CodingKey, Sendable {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = "\(intValue)"
        self.intValue = intValue
    }

    /// An array index, described as Foundation does ("Index 3").
    init(index: Int) {
        self.stringValue = "Index \(index)"
        self.intValue = index
    }

    static let `super` = _JSONKey(stringValue: "super")
}
