// SPDX-License-Identifier: Apache-2.0
import Foundation

// libFuzzer's entry point for programs that have their own `main`. SwiftPM
// gives every executable target a `main` of its own (it renames the module's
// entry point and aliases `main` to it), so the targets cannot rely on the
// `main` that -sanitize=fuzzer links in; they hand libFuzzer the command line
// and their test function instead.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer with this process's arguments and `test` as the fuzz
/// target, then exits with libFuzzer's status.
public func runFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, test))
}

/// The input as an array (libFuzzer passes nil for an empty input).
public func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// Stops the process, so that libFuzzer saves the input, when a check finds
/// a property broken.
public func report(_ error: any Error) -> Never {
    fatalError("fuzz check failed: \(error)")
}

/// Runs async work from the synchronous fuzz callback and waits for it. The
/// work never waits on anything outside itself, so blocking this thread
/// (libFuzzer's, not one of the cooperative pool's) cannot deadlock.
public func blocking<T>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let result = ResultBox<T>()
    Task {
        do {
            result.value = .success(try await work())
        } catch {
            result.value = .failure(error)
        }
        done.signal()
    }
    done.wait()
    return try result.value!.get()
}

/// Hands the result from the task to the waiting thread; the semaphore orders the accesses.
private final class ResultBox<T>: @unchecked Sendable {
    var value: Result<T, any Error>?
}
