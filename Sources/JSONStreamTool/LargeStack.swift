// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body` on a thread with a large stack and waits for it.
///
/// jq programs recurse (`def f: …, (… | f)`), and the evaluator keeps each
/// level of a jq recursion on the native stack; jq's own interpreter keeps
/// it on the heap, so programs written for jq recurse hundreds of
/// thousands of levels deep. The stack is reserved address space: only the
/// pages a run touches become memory. Smaller sizes are tried when the
/// system refuses a large reservation; the evaluator's stack guard turns
/// what is left into a clean error.
package func runOnLargeStack(_ body: @escaping () -> ExitStatus) -> ExitStatus {
    let result = _ResultBox()
    guard let thread = _startThread(stackSizes: [4 << 30, 1 << 30, 256 << 20], detached: false, {
        result.value = body()
    }) else { return body() }
    pthread_join(thread, nil)
    return result.value!
}

/// Starts `body` on a new detached thread with a stack as large as the
/// system gives (as `runOnLargeStack`): a worker that filters deep values.
/// False when no thread could be made (`body` does not run).
func startOnLargeStack(_ body: @escaping @Sendable () -> Void) -> Bool {
    _startThread(stackSizes: [1 << 30, 256 << 20, 16 << 20], detached: true, body) != nil
}

/// A thread running `body`, with the first of `stackSizes` the system gives;
/// nil when it gives none.
private func _startThread(stackSizes: [Int], detached: Bool, _ body: @escaping () -> Void) -> pthread_t? {
    let unmanaged = unsafe Unmanaged.passRetained(_ThreadBody(body))
    for size in stackSizes {
        var attributes = pthread_attr_t()
        unsafe pthread_attr_init(&attributes)
        defer { unsafe pthread_attr_destroy(&attributes) }
        guard unsafe pthread_attr_setstacksize(&attributes, size) == 0 else { continue }
        if detached {
            guard unsafe pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)) == 0 else { continue }
        }
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let created = unsafe pthread_create(&thread, &attributes, { context in
            unsafe Unmanaged<_ThreadBody>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, unsafe unmanaged.toOpaque())
        if created == 0 { return thread }
    }
    unsafe unmanaged.release()
    return nil
}

/// What a thread made by `_startThread` runs.
private final class _ThreadBody: @unchecked Sendable {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// `runOnLargeStack`'s result, set on its thread, read after the join.
private final class _ResultBox: @unchecked Sendable {
    var value: ExitStatus?
}
