/// Keyed containers handed out again, by the decoder and by the encoder.
///
/// A record type's `init(from:)` or `encode(to:)` asks for one keyed
/// container per record, and building one cost about 1,500 instructions, a
/// tenth of decoding or encoding a record: the code that asks is generic
/// across modules and so unspecialized, and the runtime looks up, in its
/// concurrent hash maps, the metadata of our container type for `Key`, that
/// of the standard library's box around it, and the conformance's witness
/// table, then allocates the box (and our container's state).
///
/// So a streaming decoder or encoder keeps the containers it handed out (a
/// few, by key type) and hands one out again when nobody else holds it: its
/// box is then referenced by the shelf alone (`isKnownUniquelyReferenced`).
/// No copy of the old container exists to see what it is re-pointed at, so
/// reuse cannot be observed. A container still held, by an enclosing
/// `init(from:)` of the same type (a recursive type) or stored by user code,
/// is never taken: another is built.
///
///     shelf ──▶ box (the Keyed…Container's storage) ──▶ our container ──▶ Context ──▶ decoder or encoder ──▶ shelf
///
/// That is a reference cycle, so a shelf is used only while a
/// `_ContainerShelfScope` held by the owner of the decoder or encoder (an
/// element sequence's iterator, a feed, a writer, one `decode` or `encode`
/// call) is alive; its deinit empties the shelf.
///
/// This relies on `KeyedDecodingContainer` and `KeyedEncodingContainer`
/// being one strong reference to their box, as they have been since Swift 4
/// (`_box`). A container whose size is not one reference is never shelved,
/// and one is built each time.
struct _ContainerShelf<Context: AnyObject> {
    private struct Entry {
        let keyType: ObjectIdentifier
        /// The `Keyed…Container`, as the reference it consists of.
        var box: AnyObject
        let context: Context
    }

    /// At most this many containers are kept (a record type and a few nested ones).
    static var capacity: Int { 8 }

    private var entries: [Entry] = []
    /// Set while a `_ContainerShelfScope` is alive.
    var isEnabled = false

    /// The number of containers kept (for tests).
    var count: Int { entries.count }

    /// A kept container for `keyType` that nobody else holds: its box (to
    /// cast back to the `Keyed…Container<Key>`) and its context, to re-point.
    @inline(__always)
    mutating func take(_ keyType: ObjectIdentifier) -> (box: AnyObject, context: Context)? {
        var index = 0
        while index < entries.count {
            if entries[index].keyType == keyType && isKnownUniquelyReferenced(&entries[index].box) {
                return (entries[index].box, entries[index].context)
            }
            index += 1
        }
        return nil
    }

    /// Keeps a container just built, when there is room and it is one reference.
    mutating func keep<Container>(_ container: Container, keyType: ObjectIdentifier, context: Context) {
        guard isEnabled, entries.count < Self.capacity,
              MemoryLayout<Container>.size == MemoryLayout<AnyObject>.size else { return }
        entries.append(Entry(keyType: keyType, box: unsafeBitCast(container, to: AnyObject.self), context: context))
    }

    mutating func removeAll() {
        isEnabled = false
        entries.removeAll()
    }
}

/// Enables a shelf for as long as it lives, and empties it at the end: the
/// owner of a streaming decoder or encoder holds one.
final class _ContainerShelfScope {
    private let end: () -> Void

    init(enable: () -> Void, end: @escaping () -> Void) {
        enable()
        self.end = end
    }

    deinit { end() }
}
