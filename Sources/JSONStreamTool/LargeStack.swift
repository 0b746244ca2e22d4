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
    let box = _StackTask(body)
    let unmanaged = unsafe Unmanaged.passRetained(box)
    for size in [4 << 30, 1 << 30, 256 << 20] as [Int] {
        var attributes = pthread_attr_t()
        unsafe pthread_attr_init(&attributes)
        defer { unsafe pthread_attr_destroy(&attributes) }
        guard unsafe pthread_attr_setstacksize(&attributes, size) == 0 else { continue }
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let created = unsafe pthread_create(&thread, &attributes, { context in
            let box = unsafe Unmanaged<_StackTask>.fromOpaque(context!).takeUnretainedValue()
            box.result = box.body()
            return nil
        }, unsafe unmanaged.toOpaque())
        guard created == 0 else { continue }
        #if canImport(Glibc)
        pthread_join(thread, nil)
        #else
        pthread_join(thread!, nil)
        #endif
        unsafe unmanaged.release()
        return box.result!
    }
    unsafe unmanaged.release()
    return body()
}

/// The body and result of `runOnLargeStack`, handed to the thread.
private final class _StackTask: @unchecked Sendable {
    let body: () -> ExitStatus
    var result: ExitStatus?
    init(_ body: @escaping () -> ExitStatus) { self.body = body }
}

/// Starts `body` on a new detached thread with a stack as large as the
/// system gives (as `runOnLargeStack`): a worker that filters deep values.
/// False when no thread could be made (`body` does not run).
func startOnLargeStack(_ body: @escaping @Sendable () -> Void) -> Bool {
    let unmanaged = unsafe Unmanaged.passRetained(_DetachedTask(body))
    for size in [1 << 30, 256 << 20, 16 << 20] as [Int] {
        var attributes = pthread_attr_t()
        unsafe pthread_attr_init(&attributes)
        defer { unsafe pthread_attr_destroy(&attributes) }
        guard unsafe pthread_attr_setstacksize(&attributes, size) == 0,
              unsafe pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)) == 0 else { continue }
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let created = unsafe pthread_create(&thread, &attributes, { context in
            let task = unsafe Unmanaged<_DetachedTask>.fromOpaque(context!).takeRetainedValue()
            task.body()
            return nil
        }, unsafe unmanaged.toOpaque())
        if created == 0 { return true }
    }
    unsafe unmanaged.release()
    return false
}

private final class _DetachedTask: Sendable {
    let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }
}
