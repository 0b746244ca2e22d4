// SPDX-License-Identifier: Apache-2.0
import Foundation

// Shared by the three test targets (a library target of its own, since test
// targets cannot share a source file).

/// Runs `body` on a thread of its own (with `stackSize` bytes of stack, when
/// given) and waits for it without blocking. Swift Testing runs tests on the
/// cooperative pool, which has one thread per core: a test that blocks there
/// (in read(2) on a pipe another thread fills slowly, in waitpid, or in a long
/// computation) starves the async tests running beside it (on a 2-core
/// machine, two such tests stall them all). Assertions stay in the test, on
/// the value returned.
public func onThread<T>(stackSize: Int? = nil, _ body: @escaping () -> T) async -> T {
    let work = Unchecked(value: body)
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Unchecked<T>, Never>) in
        let thread = Thread { continuation.resume(returning: Unchecked(value: work.value())) }
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }
    return result.value
}

/// `onThread` for work that throws.
public func offThePool<T>(_ body: @escaping () throws -> T) async throws -> T {
    try await onThread { Result { try body() } }.get()
}

/// `onThread` with a 1 GiB stack: the jq-style writer and the filter
/// evaluator recurse with the depth of the values and of the program (jq's
/// suite nests 10001 deep), and a debug build's frames are larger than a
/// release build's.
public func onLargeStack<T>(_ body: @escaping () -> T) async -> T {
    await onThread(stackSize: 1 << 30, body)
}

/// Hands a value to another thread in a test, where the code makes sure only one uses it at a time.
public struct Unchecked<T>: @unchecked Sendable {
    public var value: T

    public init(value: T) {
        self.value = value
    }
}
