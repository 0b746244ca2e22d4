/// Keyed containers handed out again.
///
/// A record type's `init(from:)` asks for one keyed container per element,
/// and building one cost about 1,500 instructions, a tenth of decoding a
/// record: the code that asks is generic across modules and so unspecialized,
/// and the runtime looks up, in its concurrent hash maps, the metadata of
/// `_KeyedContainer<Key>`, that of the standard library's box
/// `_KeyedDecodingContainerBox<_KeyedContainer<Key>>` and the conformance's
/// witness table, then allocates the box and the container's context.
///
/// So a decoder that streams elements keeps the containers it handed out
/// (a few, by key type) and hands one out again when nobody else holds it:
/// its box is then referenced by the shelf alone (`isKnownUniquelyReferenced`).
/// No copy of the old container exists to see the object it is re-pointed
/// at, so reuse cannot be observed. A container still held, by an enclosing
/// `init(from:)` of the same type (a recursive type) or stored by user code,
/// is never taken: another is built.
///
///     decoder.shelf ──▶ box (KeyedDecodingContainer's storage) ──▶ _KeyedContainer ──▶ _ObjectContext ──▶ decoder
///
/// That is a reference cycle, so only a decoder whose owner ends it keeps a
/// shelf: `_ContainerShelfScope`'s deinit empties it.
///
/// This relies on `KeyedDecodingContainer` being one strong reference to its
/// box, as it has been since Swift 4 (`_box`). A container whose size is not
/// one reference is never shelved, and the decoder builds one each time.
struct _ShelvedKeyedContainer {
    let keyType: ObjectIdentifier
    /// The `KeyedDecodingContainer`, as the reference it consists of.
    var box: AnyObject
    let context: _ObjectContext
}

/// Ends the decoder ⇄ shelf cycle when the owner of a streaming decoder (an
/// element sequence's iterator, a feed, a document decode) goes away.
final class _ContainerShelfScope {
    let decoder: _TapeDecoder

    init(_ decoder: _TapeDecoder) {
        self.decoder = decoder
        decoder.shelvesContainers = true
    }

    deinit {
        decoder.shelvesContainers = false
        decoder.shelf.removeAll()
    }
}

extension _TapeDecoder {
    /// At most this many containers are kept (a record type and a few nested ones).
    static let shelfCapacity = 8

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let index = value, path = self.path
        guard shelvesContainers else {
            return KeyedDecodingContainer(try keyedContainer(Key.self, at: index, path: path))
        }
        let keyType = ObjectIdentifier(Key.self)
        var slot = 0
        while slot < shelf.count {
            if shelf[slot].keyType == keyType && isKnownUniquelyReferenced(&shelf[slot].box) {
                try requireObject(Key.self, at: index, path: path)
                try shelf[slot].context.repoint(object: index, node: path)
                return unsafeBitCast(shelf[slot].box, to: KeyedDecodingContainer<Key>.self)
            }
            slot += 1
        }
        let container = try keyedContainer(Key.self, at: index, path: path)
        let keyed = KeyedDecodingContainer(container)
        if shelf.count < Self.shelfCapacity
            && MemoryLayout<KeyedDecodingContainer<Key>>.size == MemoryLayout<AnyObject>.size {
            shelf.append(_ShelvedKeyedContainer(keyType: keyType, box: unsafeBitCast(keyed, to: AnyObject.self),
                                                context: container.context))
        }
        return keyed
    }
}
