// SPDX-License-Identifier: Apache-2.0
/// A growable buffer of plain values on manually managed memory, for the
/// encoding tape.
///
/// Why not `Array`: the tape is a class (every encoder and container of a
/// value shares it), and appending to an array stored in a class is a
/// `modify` access that spans the append call, so Swift checks exclusivity
/// at run time on every scalar (a share of encoding time the Performance
/// article gives). Here an append is a few instantaneous stores, which the
/// optimizer can prove never overlap, with growth in an out-of-line slow path.
///
/// The owner frees the memory with `deallocate()`; copies of the struct
/// share it, so it never leaves the type that owns it. Unsafe for that, and
/// for its unchecked subscript.
@unsafe struct _Growable<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int) {
        unsafe self.capacity = max(capacity, 16)
        unsafe base = unsafe .allocate(capacity: self.capacity)
    }

    func deallocate() { unsafe base.deallocate() }

    @inline(__always)
    subscript(index: Int) -> Element {
        unsafeAddress { unsafe UnsafePointer(base + index) }
        nonmutating unsafeMutableAddress { unsafe base + index }
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if unsafe count == capacity { unsafe grow(toAtLeast: count + 1) }
        unsafe base[count] = element
        unsafe count += 1
    }

    @inline(__always)
    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        if unsafe capacity - count < elements.count { unsafe grow(toAtLeast: count + elements.count) }
        unsafe (base + count).update(from: source, count: elements.count)
        unsafe count += elements.count
    }

    /// Appends what `body` writes at the pointer it is given, at most
    /// `maximum` elements; `body` returns how many it wrote.
    @inline(__always)
    mutating func append(atMost maximum: Int, _ body: (UnsafeMutablePointer<Element>) -> Int) {
        if unsafe capacity - count < maximum { unsafe grow(toAtLeast: count + maximum) }
        unsafe count += body(base + count)
    }

    mutating func removeAll() { unsafe count = 0 }

    /// Appends the bytes of `literal` (a byte buffer's convenience).
    @inline(__always)
    mutating func append(literal: StaticString) where Element == UInt8 {
        unsafe append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    @inline(__always)
    mutating func removeLast() { unsafe count -= 1 }

    /// Keeps the first `newCount` elements.
    @inline(__always)
    mutating func truncate(to newCount: Int) { unsafe count = newCount }

    var buffer: UnsafeBufferPointer<Element> { unsafe UnsafeBufferPointer(start: base, count: count) }

    @inline(never)
    private mutating func grow(toAtLeast minimum: Int) {
        let newCapacity = unsafe max(minimum, capacity * 2)
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        unsafe newBase.initialize(from: base, count: count)
        unsafe base.deallocate()
        unsafe base = unsafe newBase
        unsafe capacity = newCapacity
    }
}
