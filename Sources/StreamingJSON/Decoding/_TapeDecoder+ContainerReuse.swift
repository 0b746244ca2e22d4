// SPDX-License-Identifier: Apache-2.0
// Keyed containers handed out again (see `_ContainerShelf`).

extension _TapeDecoder {
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let index = value
        guard unsafe shelf.isEnabled else {
            return KeyedDecodingContainer(try keyedContainer(Key.self, at: index, path: path))
        }
        let keyType = ObjectIdentifier(Key.self)
        if let shelved = unsafe shelf.take(keyType) {
            try requireObject(Key.self, at: index, path: path)
            unsafe try shelved.context._withUnsafeGuaranteedRef { try $0.repoint(object: index, node: path) }
            return unsafe unsafeBitCast(shelved.box, to: KeyedDecodingContainer<Key>.self)
        }
        guard unsafe shelf.hasRoom(for: KeyedDecodingContainer<Key>.self) else {
            return KeyedDecodingContainer(try keyedContainer(Key.self, at: index, path: path))
        }
        try requireObject(Key.self, at: index, path: path)
        // The shelf keeps the context alive: the container does not own it.
        let context = try _ObjectContext(shelvedFor: Key.self, decoder: self, object: index, node: path)
        let keyed = unsafe KeyedDecodingContainer(_KeyedContainer<Key>(shelvedContext: context))
        unsafe shelf.keep(keyed, keyType: keyType, context: context)
        return keyed
    }

    /// Keeps keyed containers for reuse while the scope lives (held by the
    /// owner of this decoder).
    func shelfScope() -> _ContainerShelfScope {
        _ContainerShelfScope(enable: { unsafe self.shelf.isEnabled = true }, end: { unsafe self.shelf.removeAll() })
    }
}
