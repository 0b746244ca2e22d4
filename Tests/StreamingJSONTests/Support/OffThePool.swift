// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Runs blocking work (reading a pipe that another thread fills slowly) on a
/// thread of its own and waits for it without blocking. Swift Testing runs
/// tests on the cooperative pool, which has one thread per core: a test that
/// blocks in read(2) there starves the async tests running beside it (on a
/// 2-core machine, two such tests stall them all). Assertions stay in the
/// test, on the value returned.
func offThePool<T>(_ body: @escaping () throws -> T) async throws -> T {
    let work = Unchecked(value: body)
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Unchecked<Result<T, any Error>>, Never>) in
        Thread.detachNewThread {
            continuation.resume(returning: Unchecked(value: Result { try work.value() }))
        }
    }
    return try result.value.get()
}

/// Hands a value to another thread in a test, where the code makes sure only one uses it at a time.
struct Unchecked<T>: @unchecked Sendable {
    var value: T
}
