// SPDX-License-Identifier: Apache-2.0
import FuzzChecks
import FuzzDriver

// A Codable model decoded by StreamingJSONDecoder and JSONDecoder: see TypedModelCheck.
runFuzzer { data, size in
    do {
        _ = try TypedModelCheck.run(bytes(data, size))
    } catch {
        report(error)
    }
    return 0
}
