// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Keyed containers handed out again, by the decoder and by the encoder.
///
/// A record type's `init(from:)` or `encode(to:)` asks for one keyed
/// container per record, and building one is a sizeable part of decoding or
/// encoding a small record (the Performance article has the figures): the
/// code that asks is generic across modules and so unspecialized, and the
/// runtime looks up, in its
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
/// (`_box`): a standard-library layout detail, checked at run time
/// (`_ContainerLayout`). Where it does not hold, nothing is shelved and a
/// container is built each time.
struct _ContainerShelf<Context: AnyObject> {
    /// `borrowed` is `context` unretained: valid as long as the entry, which holds `context`.
    @safe private struct Entry {
        let keyType: ObjectIdentifier
        /// The `Keyed…Container`, as the reference it consists of.
        var box: AnyObject
        let context: Context
        /// `context`, to hand out borrowed.
        let borrowed: Unmanaged<Context>
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
    ///
    /// The context is handed out unretained, the shelf keeps it alive; the box
    /// with the one retain the caller's new container owns. Retains and
    /// releases are atomic operations, and this runs for every record.
    @inline(__always)
    mutating func take(_ keyType: ObjectIdentifier) -> (box: AnyObject, context: Unmanaged<Context>)? {
        var index = 0
        while index < entries.count {
            if entries[index].keyType == keyType && isKnownUniquelyReferenced(&entries[index].box) {
                return unsafe (entries[index].box, entries[index].borrowed)
            }
            index += 1
        }
        return nil
    }

    /// Whether `keep` would keep a container of this type: the shelf is in
    /// use, has room, and the container is one reference.
    @inline(__always)
    func hasRoom<Container>(for _: Container.Type) -> Bool {
        isEnabled && entries.count < Self.capacity && _ContainerLayout.allowsReuse(of: Container.self)
    }

    /// Keeps a container just built, when `hasRoom(for:)`.
    mutating func keep<Container>(_ container: Container, keyType: ObjectIdentifier, context: Context) {
        guard hasRoom(for: Container.self) else { return }
        unsafe entries.append(Entry(keyType: keyType, box: unsafeBitCast(container, to: AnyObject.self), context: context,
                                    borrowed: .passUnretained(context)))
    }

    /// Ends the shelf's use. A kept container may not own its context (the
    /// decoder's do not): the shelf does. When something else still holds
    /// such a container (user code that stored it), its context must outlive
    /// the shelf, so the pair goes to `_ContainerOrphanage` until the
    /// container is let go.
    mutating func removeAll() {
        isEnabled = false
        var index = 0
        while index < entries.count {
            if !isKnownUniquelyReferenced(&entries[index].box) {
                _ContainerOrphanage.adopt(box: entries[index].box, context: entries[index].context)
            }
            index += 1
        }
        entries.removeAll()
        _ContainerOrphanage.sweep()
    }
}

/// Whether a `Keyed…Container` may be kept as the one reference it
/// consists of. Asked only when a container is built, not when one is
/// reused.
enum _ContainerLayout {
    /// Tests set this to run the path that builds every container, as on a
    /// standard library whose containers are laid out otherwise.
    @TaskLocal static var treatsLayoutAsUnknown = false

    /// `Container` (a `Keyed…Container<Key>`) has the size and alignment of
    /// one reference, and no test asked for the other path.
    static func allowsReuse<Container>(of _: Container.Type) -> Bool {
        MemoryLayout<Container>.size == MemoryLayout<AnyObject>.size
            && MemoryLayout<Container>.alignment == MemoryLayout<AnyObject>.alignment
            && !treatsLayoutAsUnknown
    }
}

/// Containers still held by someone when their shelf ended, with the
/// contexts they do not own; each pair is dropped by a later sweep, once
/// the orphanage holds the container's last reference. Normally empty.
enum _ContainerOrphanage {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var orphans: [(box: AnyObject, context: AnyObject)] = []

    static func adopt(box: AnyObject, context: AnyObject) {
        lock.lock()
        unsafe orphans.append((box, context))
        lock.unlock()
    }

    static func sweep() {
        lock.lock()
        var index = 0
        while unsafe index < orphans.count {
            if unsafe isKnownUniquelyReferenced(&orphans[index].box) {
                unsafe orphans.swapAt(index, orphans.count - 1)
                unsafe orphans.removeLast()
            } else {
                index += 1
            }
        }
        lock.unlock()
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
