// SPDX-License-Identifier: Apache-2.0
import FuzzChecks
import FuzzDriver

// elements(of:from: chunks) split where the fuzzer chooses: see StreamChunksCheck.
runFuzzer { data, size in
    let input = bytes(data, size)
    do {
        _ = try blocking { try await StreamChunksCheck.run(input) }
    } catch {
        report(error)
    }
    return 0
}
